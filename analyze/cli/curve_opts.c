/*
 * curve_opts.c - the load-curve options of the comparison (see curve_opts.h).
 */
#include <stdlib.h>

#include "analyze/cli/curve_opts.h"
#include "analyze/common.h"

bool nv_curve_opt_is(int c)
{
	return c >= NV_OPT_SLA && c < NV_OPT_CURVE_END;
}

static int bad(const char *opt, const char *arg, const char *want)
{
	fprintf(stderr, "nvanalyze: %s '%s': %s\nTry 'nvanalyze --help'.\n", opt, arg, want);
	return 2;
}

static int add_sla(struct nv_curve_opts *o, const char *arg)
{
	struct nv_claim *n = realloc(o->sla, (o->nsla + 1) * sizeof(*n));
	char err[512];

	if (!n)
		return bad("--sla", arg, "out of memory");
	o->sla = n;
	if (nv_claim_parse(arg, &o->sla[o->nsla], err, sizeof(err)))
		return bad("--sla", arg, err);
	if (o->sla[o->nsla].kind != NV_CLAIM_ABS) {
		nv_claim_free(&o->sla[o->nsla]);
		return bad("--sla", arg, "an SLA is a bound, [JOB:]METRIC OP VALUE, e.g. "
			   "'p99<=1ms' or 'randread*:iops>=50000'");
	}
	o->nsla++;
	return 0;
}

int nv_curve_opt(int c, const char *arg, struct nv_curve_opts *o)
{
	double d;

	switch (c) {
	case NV_OPT_SLA:
		return add_sla(o, arg);
	case NV_OPT_KNEE_P99:
		if (nv_parse_double(arg, &d) || !(d > 1 && d <= 1000))
			return bad("--knee-p99", arg,
				   "a factor above 1 and at most 1000 (p99 grows "
				   "by more than it at the knee), e.g. 2");
		o->knee.lat_factor = d;
		return 0;
	case NV_OPT_KNEE_IOPS:
		if (nv_parse_double(arg, &d) || !(d > 0 && d <= 100))
			return bad("--knee-iops", arg,
				   "a percentage above 0 and at most 100 (IOPS "
				   "grows by less than it at the knee), e.g. 10");
		o->knee.tput_pct = d;
		return 0;
	case NV_OPT_STEADY_WINDOW:
		if (nv_parse_double(arg, &d) || !(d >= 2 && d <= 1000) || d != (size_t)d)
			return bad("--steady-window", arg,
				   "a whole number of rounds from 2 to 1000, "
				   "e.g. 5");
		o->steady.window = (size_t)d;
		return 0;
	case NV_OPT_STEADY_RANGE:
		if (nv_parse_double(arg, &d) || !(d > 0 && d <= 100))
			return bad("--steady-range", arg, "a percentage above 0 and at most 100, "
				   "e.g. 20");
		o->steady.range_pct = d;
		return 0;
	default:	/* NV_OPT_STEADY_SLOPE */
		if (nv_parse_double(arg, &d) || !(d > 0 && d <= 100))
			return bad("--steady-slope", arg, "a percentage above 0 and at most 100, "
				   "e.g. 10");
		o->steady.slope_pct = d;
		return 0;
	}
}

void nv_curve_opts_free(struct nv_curve_opts *o)
{
	for (size_t i = 0; i < o->nsla; i++)
		nv_claim_free(&o->sla[i]);
	free(o->sla);
	o->sla = NULL;
	o->nsla = 0;
}

void nv_curve_opts_usage(FILE *out)
{
	fputs("\n"
	      "Load curves (jobs that differ only in iodepth, numjobs, bs or rwmixread are\n"
	      "a sweep: a table per run, the knee, a matrix for two parameters; rounds are\n"
	      "jobs named NAME@round=K; see docs/analysis.md):\n"
	      "      --sla [JOB:]METRIC OP VALUE\n"
	      "                        per run the highest-throughput measured point of\n"
	      "                        each sweep meeting it and the first that does not,\n"
	      "                        e.g. 'p99<=1ms', 'p99.9<500us'; repeatable\n"
	      "      --knee-p99 F      knee: p99 grows by more than F times (default 2) ...\n"
	      "      --knee-iops PCT   ... while IOPS grows by less than PCT% (default 10),\n"
	      "                        there and at every later point\n"
	      "      --steady-window N steady state over rounds: N rounds in a row (5) ...\n"
	      "      --steady-range PCT  ... whose range is within PCT% of their mean (20)\n"
	      "      --steady-slope PCT  ... and least-squares slope excursion within PCT%\n"
	      "                        of their mean (10)\n",
	      out);
}
