/*
 * cmd_compare.c - "nvanalyze [compare] [options] SIDE..." where each SIDE is
 * a fio JSON file or comma-separated repeats of one configuration.
 *
 * Exit status: 0 printed, 1 a --claim not met, 2 usage error or bad input.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/cli/commands.h"
#include "analyze/common.h"
#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/report/summary.h"
#include "analyze/report/pairs.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/stats/workpool.h"
#include "analyze/cli/progress.h"
#include "analyze/input/fiojson.h"
#include "analyze/report/render.h"
#include "analyze/publish/outdir.h"
#include "analyze/report/trace_json.h"
#include "analyze/report/trace_sections.h"
#include "analyze/input/jobtraces.h"
#include "analyze/input/runset.h"
#include "analyze/cli/curve_opts.h"
#include "analyze/report/curves.h"

/* The synopsis both usages open with. */
static const char usage_synopsis[] =
	"Usage: nvanalyze [compare] [OPTIONS] RUN [RUN...]\n"
	"       nvanalyze dump TRACE...\n"
	"       nvanalyze stat TRACE...\n";

void cmd_compare_short_usage(FILE *out)
{
	fputs(usage_synopsis, out);
	fputs("Run 'nvanalyze --help' for the options, 'man nvanalyze' for the manual"
	      " (docs/man/nvanalyze.1).\n", out);
}

void cmd_compare_usage(FILE *out)
{
	fputs(usage_synopsis, out);
	fputs("\n"
	      "Compare fio JSON outputs (--output-format=json or json+, any fio 2.x-3.x,\n"
	      "local or client/server).  Each RUN is one run of the jobs, given as\n"
	      "  a fio JSON file                  a.json\n"
	      "  fio's normal output (2.x, 3.x)   fio.txt (told by its content)\n"
	      "  fio's terse output (v2-v5)       fio.terse\n"
	      "  a results directory (jobs/run)   results/i7i: all its *.json together,\n"
	      "                                   the traces found inside\n"
	      "  files joined with '+'            randread.json+seqwrite.json\n"
	      "  a CrystalDiskMark 5.x-9.x text export, a diskspd 2.0-2.2 text report\n"
	      "                                   (lat latencies: compared as --lat lat)\n"
	      "or comma-separated repeats of one configuration (a1.json,a2.json,a3.json or\n"
	      "results/i7i-1,results/i7i-2,results/i7i-3: they must hold the same jobs):\n"
	      "those get mean, spread and a 95% interval of the change.  Jobs are matched\n"
	      "by name and direction.  The change column compares every run with the\n"
	      "baseline (default: the last RUN, so 'nvanalyze new.json old.json' reads new\n"
	      "vs old).\n"
	      "\n"
	      "Options:\n"
	      "  -f, --format FMT      md (default), text, csv or json\n"
	      "  -l, --label NAME      name the next RUN (repeat in RUN order; default:\n"
	      "                        the directory or file name, results/i7i -> i7i)\n"
	      "  -b, --baseline RUN    the baseline, by label or 1-based position\n"
	      "      --aggregate HOW   a side's value from its repeated runs: mean (default),\n"
	      "                        median, best (highest IOPS and MB/s, lowest latency;\n"
	      "                        CrystalDiskMark's rule), min or max\n"
	      "      --lat KIND        latency statistics: clat (completion, default),\n"
	      "                        slat (submission) or lat (total)\n"
	      "  -j, --job GLOB        only jobs whose name matches (repeatable)\n"
	      "  -d, --dir LIST        only these directions: read,write,trim,sync,mixed\n"
	      "      --price RUN=USD_PER_HOUR\n"
	      "                        add price and cost rows for a run (RUN: label or\n"
	      "                        1-based position): cost per 1k IOPS for an IOPS\n"
	      "                        job, per GB/s for a bandwidth one (--summary)\n"
	      "      --percentiles LIST\n"
	      "                        latency percentile rows: levels such as\n"
	      "                        1,25,50,99,99.9, or 'fio' for every level the JSON\n"
	      "                        holds (default 50,95,99,99.9,99.99); exact with\n"
	      "                        traces, else fio's value of that level or '-'\n"
	      "      --claim [JOB:]METRIC:CHANGE  or  [JOB:]METRIC<=VALUE (also <, >=, >)\n"
	      "                        check a claim: 'randread*:iops:+50%', 'p99:-20%',\n"
	      "                        'bw:+50%±2', 'bw:2.1x', 'p95<=3ms', 'iops>=11800',\n"
	      "                        'bw>=330MB/s'; verdict met, not met or cannot tell;\n"
	      "                        metrics: the JSON key stems (iops bw min mean max\n"
	      "                        stdev io_bytes runtime usr_cpu sys_cpu ctx ...\n"
	      "                        cost cost_bw) or any percentile pX (p99.5, p25);\n"
	      "                        exit status 1 if one is not met, 2 if one matches\n"
	      "                        no job or metric\n"
	      "      --pair RUN:BASELINE\n"
	      "                        a change column RUN vs BASELINE (labels or 1-based\n"
	      "                        positions; repeat for several in one table) instead\n"
	      "                        of each run vs the baseline\n"
	      "      --summary WHAT    the summary table's number: auto (IOPS for random\n"
	      "                        or < 64 KiB jobs, else MB/s), iops, bw or both\n"
	      "      --units SYSTEM    si (MB/s, GB; default) or binary (MiB/s, GiB)\n"
	      "      --change HOW      changes as pct (+110.0%, default), ratio (2.10x)\n"
	      "                        or both\n"
	      "      --same-below PCT  single runs: a change under PCT% reads as about\n"
	      "                        equal (default 5; 0: off)\n"
	      "  -v, --verbose         also list directions without IOs, trace passes and\n"
	      "                        notes about the normal workflow\n"
	      "\n"
	      "Traces (nvengine's per-IO traces, nv_trace=DIR):\n"
	      "  A job whose options name nv_trace=DIR has its traces DIR/NAME.THREAD.nvt\n"
	      "  found and read: its completion-latency rows become exact (nearest rank\n"
	      "  over every IO, marked '(exact)'; --format json keeps fio's as *_fio) and\n"
	      "  per-operation, queue-depth and behaviour-over-time sections follow.\n"
	      "  -t, --trace [RUN:][JOB=]FILE[,FILE...]\n"
	      "                        use these traces for job JOB (default: the job the\n"
	      "                        trace header names, or the only job) of RUN (label\n"
	      "                        or 1-based position; default: the only RUN)\n"
	      "      --no-traces       ignore traces: fio's values only\n"
	      "      --interval SEC    time-series interval (default 1)\n"
	      "      --buckets EDGES   exact shares of IOs between latency edges from the\n"
	      "                        traces, e.g. 0.1ms,1ms,3ms,10ms (at most 16)\n"
	      "  -J, --workers N       analyze the jobs' traces on N threads (default: the\n"
	      "                        CPUs this process may use; 1: one thread); the\n"
	      "                        output is the same for every N\n"
	      "      --spike-factor F  latency spike: an IO >= F x the median interval\n"
	      "                        p99.9 (default 10)\n"
	      "  -o, --outdir DIR      also write DIR/report.md, DIR/report.html (one\n"
	      "                        self-contained page), tables (md, csv, json), data\n"
	      "                        files, gnuplot scripts and PNG/SVG figures; files\n"
	      "                        an earlier -o there wrote and this one does not are\n"
	      "                        removed (see docs/analysis.md)\n"
	      "  -h, --help            this help\n"
	      "      --version         the version and the trace formats read (alone)\n",
	      out);
	nv_curve_opts_usage(out);	/* load curves */
	fputs("\n"
	      "Units: IOPS; bandwidth in MB/s (1 MB = 10^6 bytes); latency in ns/us/ms\n"
	      "(JSON and CSV: nanoseconds).  Missing values print as '-', never as zero.\n"
	      "The first table is the summary: one row per job and direction (md and\n"
	      "text: after the load curves when the runs sweep a job option).\n"
	      "Exit status: 0 ok, 1 a claim not met, 2 usage error, unreadable input or a\n"
	      "claim that matches no job or metric.\n", out);
}

#define MAX_SIDES 64

struct opts {
	enum nv_format format;
	enum nv_latkind lat;
	enum nv_aggregate agg;
	bool lat_given;
	const char *baseline;
	size_t nlabels;
	const char *labels[MAX_SIDES];
	struct nv_select sel;
	size_t nprices;
	char *prices[MAX_SIDES];
	size_t npairs;
	const char *pairs[MAX_SIDES];
	size_t nclaims;
	struct nv_claim *claims;
	size_t ntraces;
	const char *traces[MAX_SIDES * 4];
	bool no_traces;
	struct nv_tan_opts tan;
	unsigned workers;	/* -J: threads of the trace join (0: nv_pool_cpus) */
	const char *outdir;
	struct nv_pctl levels;	/* --percentiles (stats/pctlevels.h) */
	struct nv_curve_opts curve;	/* load curves: --sla, --knee-*, --steady-* */
	bool help;		/* -h: the usage was printed */
};

struct side_store {
	struct nv_side side;
	struct nv_runset rs;
	struct nv_run *runs;	/* rs.runs */
	char *label;
};

static int __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("nvanalyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'nvanalyze --help'.\n", stderr);
	return 2;
}

static int parse_dirs(const char *s, unsigned *mask)
{
	char *copy = strdup(s), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum nv_dir d;

		if (nv_dir_parse(tok, &d)) {
			ret = -EINVAL;
			break;
		}
		*mask |= 1u << d;
	}
	free(copy);
	return ret;
}

static int add_claim(struct opts *o, const char *s)
{
	struct nv_claim *n = realloc(o->claims, (o->nclaims + 1) * sizeof(*n));
	char err[256];

	if (!n)
		return usage_error("%s", "out of memory");
	o->claims = n;
	if (nv_claim_parse(s, &o->claims[o->nclaims], err, sizeof(err)))
		return usage_error("%s", err);
	o->nclaims++;
	return 0;
}

/* getopt codes of the long options without a short form */
enum { OPT_LAT = 256, OPT_PRICE, OPT_CLAIM, OPT_NOTRACE, OPT_INTERVAL, OPT_SPIKE,
       OPT_SUMMARY, OPT_UNITS, OPT_CHANGE, OPT_SAME, OPT_PAIR, OPT_AGG, OPT_BUCKETS,
       OPT_PCTL };

/* --summary, --units, --change, --same-below, -v: how the output reads. */
static int display_opt(int c, const char *arg)
{
	enum nv_headline h;
	double d;

	switch (c) {
	case 'v':
		nv_display.verbose = true;
		return 0;
	case OPT_SUMMARY:
		if (nv_headline_parse(arg, &h))
			return usage_error("--summary '%s': use auto, iops, bw or both", arg);
		nv_display.headline = h;
		return 0;
	case OPT_UNITS:
		if (strcmp(arg, "si") && strcmp(arg, "binary"))
			return usage_error("--units '%s': use si (MB/s, GB) or binary (MiB/s, GiB)",
					   arg);
		nv_display.binary = !strcmp(arg, "binary");
		return 0;
	case OPT_CHANGE:
		if (!strcmp(arg, "pct") || !strcmp(arg, "percent"))
			nv_display.change = NV_CHG_PCT;
		else if (!strcmp(arg, "ratio"))
			nv_display.change = NV_CHG_RATIO;
		else if (!strcmp(arg, "both"))
			nv_display.change = NV_CHG_BOTH;
		else
			return usage_error("--change '%s': use pct (+110.0%%), ratio (2.10x) or "
					   "both", arg);
		return 0;
	default:	/* OPT_SAME */
		if (nv_parse_double(arg, &d) || !(d >= 0 && d <= 100))
			return usage_error("--same-below '%s': a percentage from 0 (off) to 100, "
					   "e.g. 5", arg);
		nv_display.same_pct = d;
		return 0;
	}
}

/* --buckets 0.1ms,1ms,3ms,10ms: ascending latency edges for the traces. */
static int parse_buckets(const char *arg, struct nv_tan_opts *t)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return usage_error("%s", "out of memory");
	t->nedges = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		double ns;

		if (nv_parse_quantity(tok, NV_U_NS, &ns) || !(ns >= 1 && ns < 1e18))
			ret = usage_error("--buckets '%s': '%s' is not a latency with a unit (ns, "
					  "us, ms, s), e.g. --buckets 0.1ms,1ms,3ms,10ms",
					  arg, tok);
		else if (t->nedges == NV_TAN_MAXEDGES)
			ret = usage_error("--buckets '%s': at most %d edges", arg, NV_TAN_MAXEDGES);
		else if (t->nedges && (uint64_t)llround(ns) <= t->edges[t->nedges - 1])
			ret = usage_error("--buckets '%s': the edges must ascend", arg);
		else
			t->edges[t->nedges++] = (uint64_t)llround(ns);
	}
	if (!ret && !t->nedges)
		ret = usage_error("--buckets '%s': no edge given", arg);
	free(copy);
	return ret;
}

/*
 * --format, --lat, --aggregate, --claim, --percentiles: what is reported.
 * Return: 0, or 2 after a message.
 */
static int report_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case 'f':
		if (nv_format_parse(arg, &o->format))
			return usage_error("--format '%s': use md, text, csv or json", arg);
		return 0;
	case OPT_AGG:
		if (nv_aggregate_parse(arg, &o->agg))
			return usage_error("--aggregate '%s': use mean, median, best, min or max",
					   arg);
		return 0;
	case OPT_LAT:
		if (nv_latkind_parse(arg, &o->lat))
			return usage_error("--lat '%s': use slat, clat or lat", arg);
		o->lat_given = true;
		return 0;
	case OPT_PCTL: {
		char perr[512];

		if (nv_pctl_parse(arg, &o->levels, perr, sizeof(perr)))
			return usage_error("%s", perr);
		o->curve.lat = o->levels;	/* the load curves' levels ("fio": n 0, theirs) */
		if (o->levels.fio)
			o->curve.lat.n = 0;
		return 0;
	}
	default:	/* OPT_CLAIM */
		return add_claim(o, arg);
	}
}

/* -l, -b, --pair, --price, -j, -d: which runs and jobs, compared how.  0, or 2. */
static int side_opt(int c, char *arg, struct opts *o)
{
	char **n;

	switch (c) {
	case 'l':
		if (o->nlabels == MAX_SIDES || !*arg)
			return usage_error("--label '%s': empty or too many labels", arg);
		o->labels[o->nlabels++] = arg;
		return 0;
	case 'b':
		o->baseline = arg;
		return 0;
	case OPT_PAIR:
		if (o->npairs == MAX_SIDES)
			return usage_error("--pair '%s': too many pairs", arg);
		o->pairs[o->npairs++] = arg;
		return 0;
	case OPT_PRICE:
		if (o->nprices == MAX_SIDES)
			return usage_error("--price '%s': too many prices", arg);
		o->prices[o->nprices++] = arg;
		return 0;
	case 'j':
		n = realloc(o->sel.jobs, (o->sel.njobs + 1) * sizeof(*n));
		if (!n)
			return usage_error("%s", "out of memory");
		o->sel.jobs = n;
		o->sel.jobs[o->sel.njobs++] = arg;
		return 0;
	default:	/* 'd' */
		if (parse_dirs(arg, &o->sel.dirs))
			return usage_error("--dir '%s': use read, write, trim, sync, mixed "
					   "(comma-separated)", arg);
		return 0;
	}
}

/* -t, --no-traces, --interval, --spike-factor, --buckets, -o: traces, figures.  0, or 2. */
static int trace_opt(int c, char *arg, struct opts *o)
{
	unsigned long ul;
	double d;

	switch (c) {
	case 't':
		if (o->ntraces == sizeof(o->traces) / sizeof(o->traces[0]))
			return usage_error("--trace '%s': too many --trace options", arg);
		o->traces[o->ntraces++] = arg;
		return 0;
	case OPT_NOTRACE:
		o->no_traces = true;
		return 0;
	case OPT_INTERVAL:
		if (nv_parse_double(arg, &d) || !(d >= 1e-6 && d <= 86400))
			return usage_error("--interval '%s': seconds between 0.000001 and 86400",
					   arg);
		o->tan.interval_ns = (uint64_t)llround(d * 1e9);
		return 0;
	case OPT_SPIKE:
		if (nv_parse_double(arg, &d) || !(d > 1))
			return usage_error("--spike-factor '%s': a number > 1", arg);
		o->tan.spike_factor = d;
		return 0;
	case OPT_BUCKETS:
		return parse_buckets(arg, &o->tan);
	case 'J':
		if (nv_parse_index(arg, &ul) || ul > NV_POOL_MAX)
			return usage_error("-J '%s': a number of threads from 1 to %d", arg,
					   NV_POOL_MAX);
		o->workers = (unsigned)ul;
		return 0;
	default:	/* 'o' */
		o->outdir = arg;
		return 0;
	}
}

static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "label", required_argument, NULL, 'l' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "lat", required_argument, NULL, OPT_LAT },
	{ "aggregate", required_argument, NULL, OPT_AGG },
	{ "job", required_argument, NULL, 'j' },
	{ "dir", required_argument, NULL, 'd' },
	{ "price", required_argument, NULL, OPT_PRICE },
	{ "claim", required_argument, NULL, OPT_CLAIM },
	{ "trace", required_argument, NULL, 't' },
	{ "no-traces", no_argument, NULL, OPT_NOTRACE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "spike-factor", required_argument, NULL, OPT_SPIKE },
	{ "workers", required_argument, NULL, 'J' },
	{ "outdir", required_argument, NULL, 'o' },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "pair", required_argument, NULL, OPT_PAIR },
	{ "buckets", required_argument, NULL, OPT_BUCKETS },
	{ "percentiles", required_argument, NULL, OPT_PCTL },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "change", required_argument, NULL, OPT_CHANGE },
	{ "same-below", required_argument, NULL, OPT_SAME },
	{ "verbose", no_argument, NULL, 'v' },
	NV_CURVE_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/*
 * The command line into *o; -h prints the usage and sets o->help.
 * Return: 0, or 2 after a usage error.
 */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c, ret = 0;

	opterr = 0;
	optind = 1;
	while (!ret && !o->help &&
	       (c = getopt_long(argc, argv, "f:l:b:j:d:t:o:J:hv", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': case OPT_AGG: case OPT_LAT: case OPT_CLAIM: case OPT_PCTL:
			ret = report_opt(c, optarg, o);
			break;
		case 'l': case 'b': case OPT_PAIR: case OPT_PRICE: case 'j': case 'd':
			ret = side_opt(c, optarg, o);
			break;
		case 't': case OPT_NOTRACE: case OPT_INTERVAL: case OPT_SPIKE: case OPT_BUCKETS:
		case 'o': case 'J':
			ret = trace_opt(c, optarg, o);
			break;
		case OPT_SUMMARY: case OPT_UNITS: case OPT_CHANGE: case OPT_SAME: case 'v':
			ret = display_opt(c, optarg);
			break;
		case NV_OPT_SLA ... NV_OPT_CURVE_END - 1:	/* load curves */
			ret = nv_curve_opt(c, optarg, &o->curve);
			break;
		case 'h':
			cmd_compare_usage(stdout);
			o->help = true;
			break;
		default:
			if (optopt && optopt < 256)
				return usage_error("option '-%s' unknown or missing its argument",
						   (char[]){ (char)optopt, 0 });
			return usage_error("option '%s' unknown or missing its argument",
					   argv[optind - 1]);
		}
	}
	return ret;
}

/* The only hostname of a client/server side, or NULL. */
static const char *side_host(const struct nv_side *s)
{
	const char *h = NULL;

	for (size_t k = 0; k < s->nruns; k++)
		for (size_t j = 0; j < s->runs[k].njobs; j++) {
			const char *jh = s->runs[k].jobs[j].host;

			if (jh && h && strcmp(jh, h))
				return NULL;
			if (jh)
				h = jh;
		}
	return h;
}

/* Unique labels: --label, else file names, else hostnames, else "#N". */
static int assign_labels(struct side_store *st, size_t n, const struct opts *o)
{
	if (o->nlabels > n)
		return usage_error("%s", "more --label options than runs");
	for (size_t i = 0; i < n; i++) {
		st[i].label = i < o->nlabels ? strdup(o->labels[i]) : nv_runset_label(&st[i].rs);
		if (!st[i].label)
			return 2;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < n; k++) {
			const char *h = side_host(&st[k].side);
			char *nl;

			if (k == i || strcmp(st[i].label, st[k].label))
				continue;
			if (k < o->nlabels && i < o->nlabels)
				return usage_error("--label '%s' given twice", st[i].label);
			if (k < o->nlabels)
				continue;
			if (h && strcmp(h, st[k].label) && asprintf(&nl, "%s", h) >= 0) {
				free(st[k].label);
				st[k].label = nl;
			}
			if (!strcmp(st[i].label, st[k].label) &&
			    asprintf(&nl, "%s#%zu", st[k].label, k + 1) >= 0) {
				free(st[k].label);
				st[k].label = nl;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		st[i].side.label = st[i].label;
	return 0;
}

/*
 * Load one side (runset.h: repeats, '+' joins, results directories) and
 * print the warnings about its files.
 * Return: 0, or 2 after printing the error.
 */
static int load_side(const char *arg, struct side_store *st)
{
	char err[1024];

	if (nv_runset_load(arg, &st->rs, err, sizeof(err))) {
		fprintf(stderr, "nvanalyze: %s\n", err);
		return 2;
	}
	for (size_t i = 0; i < st->rs.nnotes; i++)
		fprintf(stderr, "nvanalyze: warning: %s\n", st->rs.notes[i]);
	st->runs = st->rs.runs;
	st->side.runs = st->rs.runs;
	st->side.nruns = st->rs.nruns;
	return 0;
}

/*
 * One RUN, a many-host results directory: each host a side of its own
 * (nvanalyze results/fleet compares the hosts).  *st grows to the hosts.
 * Return: 0, or 2 after printing the error.
 */
static int hosts_as_sides(struct side_store **st, size_t *n)
{
	size_t nh = (*st)[0].rs.nruns;
	struct nv_runset *rs;
	struct side_store *ns;

	if (*n != 1 || !(*st)[0].rs.hosts_of || nh < 2)
		return 0;
	if (nh > MAX_SIDES)
		return usage_error("%s: %zu hosts, more than %d sides: give it with another RUN to "
				   "see the hosts as repeats", (*st)[0].rs.hosts_of, nh, MAX_SIDES);
	rs = calloc(nh, sizeof(*rs));
	ns = rs ? realloc(*st, nh * sizeof(*ns)) : NULL;
	if (ns)
		*st = ns;
	if (!ns || nv_runset_split(&ns[0].rs, rs)) {
		free(rs);
		return usage_error("%s", "out of memory");
	}
	memset(ns, 0, nh * sizeof(*ns));
	for (size_t k = 0; k < nh; k++) {
		ns[k].rs = rs[k];
		ns[k].runs = rs[k].runs;
		ns[k].side.runs = rs[k].runs;
		ns[k].side.nruns = rs[k].nruns;
	}
	*n = nh;
	free(rs);
	return 0;
}

/*
 * The side a run label or 1-based position (len bytes of s) names
 * (nv_runset_find).
 * Return: 0 with *out set, or -ENOENT.
 */
static int side_by_name(const struct side_store *st, size_t n, const char *s, size_t len,
			size_t *out)
{
	const char *labels[MAX_SIDES];

	for (size_t i = 0; i < n && i < MAX_SIDES; i++)
		labels[i] = st[i].label;
	return nv_runset_find(labels, n < MAX_SIDES ? n : MAX_SIDES, s, len, out);
}

static int apply_prices(struct side_store *st, size_t n, const struct opts *o)
{
	for (size_t p = 0; p < o->nprices; p++) {
		const char *eq = strrchr(o->prices[p], '=');
		double usd;
		size_t s;

		if (!eq || nv_parse_double(eq + 1, &usd) || usd <= 0)
			return usage_error("--price '%s': expected RUN=USD_PER_HOUR (RUN a label "
					   "or 1-based position), e.g. i7i.large=0.1888 or 1=0.1888",
					   o->prices[p]);
		if (side_by_name(st, n, o->prices[p], (size_t)(eq - o->prices[p]), &s))
			return usage_error("--price '%s': no run has that label or position (see "
					   "--label; positions 1 to %zu)", o->prices[p], n);
		st[s].side.price = usd;
		st[s].side.have_price = true;
	}
	return 0;
}


static int find_baseline(const struct side_store *st, size_t n, const char *b, size_t *out)
{
	*out = n - 1;
	if (!b || !side_by_name(st, n, b, strlen(b), out))
		return 0;
	return usage_error("--baseline '%s': neither a run label nor a position", b);
}

/*
 * --pair A:B: the sides A and B (labels or positions; a label with ':' is
 * found by trying each ':').  2 after an error message.
 */
static int find_pairs(const struct side_store *st, size_t n, const struct opts *o,
		      struct nv_pair *pairs)
{
	for (size_t i = 0; i < o->npairs; i++) {
		const char *s = o->pairs[i], *c = s;
		bool found = false;

		while (!found && (c = strchr(c, ':'))) {
			found = !side_by_name(st, n, s, (size_t)(c - s), &pairs[i].a) &&
				!side_by_name(st, n, c + 1, strlen(c + 1), &pairs[i].b);
			c++;
		}
		if (!found)
			return usage_error("--pair '%s': expected RUN:BASELINE, two run labels or "
					   "positions, e.g. --pair 1:2", s);
		if (pairs[i].a == pairs[i].b)
			return usage_error("--pair '%s': a run compared with itself", s);
	}
	return 0;
}

/*
 * Without --lat: fio's clat, unless a run comes from a tool that measures
 * from submission to completion (CrystalDiskMark, diskspd), whose latency is
 * fio's lat; then every side shows lat, like with like (the report's
 * "Latency:" line says so).
 */
static void default_lat(const struct side_store *st, size_t n, struct opts *o)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < st[i].side.nruns; k++)
			if (!nv_run_is_fio(&st[i].side.runs[k]))
				o->lat = NV_LAT_TOTAL;
}

/*
 * With --lat given, an active direction without that latency object is an
 * error naming the file and job (slat exists only for async engines).
 */
static int check_lat(const struct side_store *st, size_t n, struct opts *o)
{
	if (!o->lat_given) {
		default_lat(st, n, o);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < st[i].side.nruns; k++) {
			const struct nv_run *run = &st[i].side.runs[k];

			for (size_t j = 0; j < run->njobs; j++)
				for (unsigned d = 0; d < NV_DIR_NR; d++) {
					const struct nv_dirstat *ds = &run->jobs[j].dir[d];

					if (d == NV_DIR_SYNC || !nv_dir_active(ds) ||
					    ds->lat[o->lat].mean.src)
						continue;
					fprintf(stderr,
						"nvanalyze: %s: job '%s' %s has no %s statistics "
						"(fio fills slat only for async engines); try "
						"another --lat\n",
						run->path, run->jobs[j].key,
						nv_dir_name((enum nv_dir)d),
						nv_latkind_name(o->lat));
					return 2;
				}
		}
	return 0;
}

/* The side index of a --trace RUN (label or position); -1 after an error. */
static int trace_side(const struct side_store *st, size_t n, const char *run, const char *arg)
{
	size_t s;

	if (!run) {
		if (n == 1)
			return 0;
		usage_error("--trace '%s': several runs: say which, e.g. --trace %s:FILE", arg,
			    st[0].label);
		return -1;
	}
	if (!side_by_name(st, n, run, strlen(run), &s))
		return (int)s;
	usage_error("--trace '%s': '%s' is neither a run label nor a position", arg, run);
	return -1;
}

/* The job of a --trace (nv_trace_arg_job); -1 after an error. */
static int trace_job(const struct nv_run *run, const struct nv_trace_arg *a, const char *arg)
{
	char err[1024];
	size_t j;
	int ret = nv_trace_arg_job(run, a, &j, err, sizeof(err));

	if (ret == -ENOENT)
		usage_error("--trace '%s': %s; name it: --trace [RUN:]JOB=FILE", arg, err);
	else if (ret)
		fprintf(stderr, "nvanalyze: --trace '%s': %s\n", arg, err);
	return ret ? -1 : (int)j;
}

static int explicit_traces(struct side_store *st, size_t n, const struct opts *o,
			   struct nv_traceset *ts)
{
	char err[512];

	for (size_t i = 0; i < o->ntraces; i++) {
		struct nv_trace_arg a;
		int s, j, ret = 0;

		if (nv_trace_arg_parse(o->traces[i], &a, err, sizeof(err)))
			return usage_error("%s", err);
		s = trace_side(st, n, a.run, o->traces[i]);
		if (s >= 0 && st[s].side.nruns != 1) {
			usage_error("--trace '%s': run '%s' has %zu repeated files; traces of "
				    "repeats are found through nv_trace only",
				    o->traces[i], st[s].label, st[s].side.nruns);
			s = -1;
		}
		j = s < 0 ? -1 : trace_job(&st[s].runs[0], &a, o->traces[i]);
		if (j >= 0)
			ret = nv_traces_add(ts, &st[s].runs[0], (size_t)j, a.paths, a.npaths, true);
		nv_trace_arg_free(&a);
		if (j < 0)
			return 2;
		if (ret)
			return usage_error("%s", "out of memory");
	}
	return 0;
}

/* -j/-d on a traced job: some direction it has is selected. */
static bool trace_selected(const struct nv_run *run, size_t job, void *arg)
{
	const struct nv_job *j = &run->jobs[job];

	for (unsigned d = 0; d < NV_DIR_NR; d++)
		if (nv_dir_active(&j->dir[d]) && nv_select_match(arg, j, (enum nv_dir)d))
			return true;
	return false;
}

/*
 * --percentiles (issue 31): the rows' levels with the claims' added, and
 * the levels the traces resolve exactly ("fio": every level of the runs).
 * Return: 0, or 2 after a message.
 */
static int percentile_levels(struct side_store *st, size_t n, struct opts *o)
{
	struct nv_pctl all, runl;

	if (nv_claims_levels(o->claims, o->nclaims, &o->levels))
		return usage_error("--claim: more than %d percentile levels with --percentiles",
				   NV_PCTL_MAX);
	o->sel.levels = &o->levels;
	o->sel.headline = (enum nv_headline)nv_display.headline;
	all = o->levels;
	for (size_t i = 0; all.fio && i < n; i++) {
		nv_pctl_fio_union(st[i].side.runs, st[i].side.nruns, &runl);
		for (size_t k = 0; k < runl.n; k++)
			if (nv_pctl_add(&all, runl.v[k]) == -ENOSPC)
				return usage_error("--percentiles fio: the runs hold more than %d "
						   "levels; list the ones to show", NV_PCTL_MAX);
	}
	o->tan.nlevels = all.n;
	memcpy(o->tan.levels, all.v, all.n * sizeof(all.v[0]));
	return 0;
}

static int load_traces(struct side_store *st, size_t n, struct opts *o, struct nv_traceset *ts,
		       struct nv_tracejoin *tj)
{
	int ret = explicit_traces(st, n, o, ts);
	struct nv_progress prog;
	char err[1024];

	for (size_t i = 0; !ret && !o->no_traces && i < n; i++)
		for (size_t k = 0; !ret && k < st[i].side.nruns; k++)
			if (nv_traces_discover(&st[i].runs[k], ts))
				ret = usage_error("%s", "out of memory");
	nv_traces_select(ts, trace_selected, &o->sel, o->sel.dirs);
	nv_progress_start(&prog, stderr);	/* a line on a terminal only */
	o->tan.progress = nv_progress_tan;
	o->tan.progress_arg = &prog;
	if (!ret && nv_trace_join(ts, &o->tan, o->workers ? o->workers : nv_pool_cpus(), tj, err,
				  sizeof(err)))
		ret = -EIO;	/* the others analyzed: each failure said, the report made */
	nv_progress_end(&prog);
	for (size_t i = 0; i < tj->nfailed; i++)
		fprintf(stderr, "nvanalyze: %s (its job reported from fio's values only)\n",
			tj->failed[i]);
	o->tan.progress = NULL;
	for (size_t i = 0; i < ts->nnotes; i++)
		fprintf(stderr, "nvanalyze: warning: %s\n", ts->notes[i]);
	for (size_t i = 0; i < tj->nnotes; i++)
		fprintf(stderr, "nvanalyze: warning: %s\n", tj->notes[i]);
	for (size_t i = 0; nv_display.verbose && i < ts->ninfos; i++)
		fprintf(stderr, "nvanalyze: %s\n", ts->infos[i]);
	return ret;
}

/*
 * -o DIR: write the directory and say what was written (or how to render
 * the figures when gnuplot is missing).
 * Return: 0, or -errno after printing the error.
 */
static int write_outdir(const char *dir, const struct nv_report *r, const struct nv_tracejoin *tj)
{
	struct nv_outdir_result res;
	char err[1024] = "";
	int ret = nv_outdir_write(dir, r, tj, &res, err, sizeof(err));

	if (!ret && !res.gnuplot)
		fprintf(stderr,
			"nvanalyze: gnuplot not found: wrote %zu scripts in %s; render them with\n"
			"  cd %s && for f in *.gp; do gnuplot \"$f\"; gnuplot -e \"fmt='svg'\" "
			"\"$f\"; done\n"
			"(Debian: apt-get install gnuplot-nox)\n", res.nfig, dir, dir);
	if (ret)
		fprintf(stderr, "nvanalyze: %s\n", err);
	else
		fprintf(stderr, "nvanalyze: wrote %s/report.md (%zu figures%s)\n", dir, res.nfig,
			res.rendered ? ", rendered" : ", not rendered");
	return ret;
}

/*
 * The warnings printed about the inputs (each side's files, the traces'
 * discovery and join), for the -o pages.  Return: the list (free it; not
 * its strings), NULL with *nw 0 when there are none or memory ran out.
 */
static const char **input_warnings(const struct side_store *st, size_t n,
				   const struct nv_tracejoin *tj, size_t *nw)
{
	size_t total = tj->nnotes + tj->nfailed + (tj->ts ? tj->ts->nnotes : 0), k = 0;
	const char **w;

	for (size_t i = 0; i < n; i++)
		total += st[i].rs.nnotes;
	*nw = 0;
	w = total ? malloc(total * sizeof(*w)) : NULL;
	if (!w)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < st[i].rs.nnotes; j++)
			w[k++] = st[i].rs.notes[j];
	for (size_t j = 0; tj->ts && j < tj->ts->nnotes; j++)
		w[k++] = tj->ts->notes[j];
	for (size_t j = 0; j < tj->nfailed; j++)	/* traces that could not be analyzed */
		w[k++] = tj->failed[j];
	for (size_t j = 0; j < tj->nnotes; j++)
		w[k++] = tj->notes[j];
	*nw = k;
	return w;
}

/*
 * The tables on stdout in format f.  Markdown and text follow report.md's
 * order: the load curves first (when the runs sweep a job option), then the
 * summary and the per-job tables, then the trace sections.
 * Return: 0, or non-zero when writing failed.
 */
static int print_stdout(struct nv_report *r, const struct nv_curves *c,
			const struct nv_tracejoin *tj, enum nv_format f)
{
	if (f == NV_FMT_JSON)
		return nv_trace_json_print(stdout, r, tj, nv_report_run_label, r);
	if (f == NV_FMT_CSV)
		return nv_report_print(stdout, r, f) ||
		       nv_trace_disturb_csv(stdout, tj, nv_report_run_label, r);
	if (f != NV_FMT_MD && f != NV_FMT_TEXT)
		return nv_report_print(stdout, r, f);
	return nv_curves_print(stdout, c, f) || nv_report_print(stdout, r, f) ||
	       nv_trace_sections_print(stdout, tj, nv_report_run_label, r, f);
}

/*
 * The load curves of r (report/curves.h), linked from r for -o.
 * Return: 0, or 2 after printing the error.
 */
static int curves_build(struct nv_report *r, const struct opts *o, struct nv_curves *c)
{
	char err[1024];
	int ret;

	if (o->curve.nsla && o->format == NV_FMT_CSV) {
		fprintf(stderr, "nvanalyze: --sla prints with --format md, text or json; drop "
			"--format csv\n");
		return 2;
	}
	ret = nv_curves_build(r, &o->curve, c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "nvanalyze: %s\n", err);
		return 2;
	}
	r->curves = c;
	return 0;
}

static int report(struct side_store *st, size_t n, const struct opts *o,
		  const struct nv_tracejoin *tj)
{
	const char **warnings = NULL;
	struct nv_side *sides = calloc(n, sizeof(*sides));
	struct nv_pair pairs[MAX_SIDES];
	struct nv_curves curves;
	struct nv_report r;
	char err[512];
	size_t base;
	int ret;

	if (!sides)
		return 2;
	for (size_t i = 0; i < n; i++) {
		sides[i] = st[i].side;
		sides[i].traces = tj;
	}
	ret = find_baseline(st, n, o->baseline, &base);
	if (ret)
		goto out;
	if (o->npairs && (ret = find_pairs(st, n, o, pairs)))
		goto out;
	if (nv_report_build(sides, n, base, pairs, o->npairs, o->lat, o->agg, &o->sel, &r)) {
		fprintf(stderr, "nvanalyze: out of memory\n");	/* find_pairs checked them */
		ret = 2;
		goto out;
	}
	for (size_t i = 0; o->format != NV_FMT_MD && o->format != NV_FMT_TEXT && i < r.nnotes; i++)
		fprintf(stderr, "nvanalyze: note: %s\n", r.notes[i]);
	if (o->outdir) {	/* the pages repeat what stderr said about the inputs */
		warnings = input_warnings(st, n, tj, &r.nwarnings);
		r.warnings = warnings;
	}
	if ((ret = curves_build(&r, o, &curves)))	/* load curves */
		goto free_report;
	if (r.nblocks && (ret = nv_claims_eval(&r, o->claims, o->nclaims, err, sizeof(err)))) {
		fprintf(stderr, "nvanalyze: %s\n", ret == -ENOENT ? err : "out of memory");
		ret = 2;
	} else if (!r.nblocks) {
		fprintf(stderr, "nvanalyze: no job matches the --job/--dir selection\n");
		ret = 2;
	} else if (print_stdout(&r, &curves, tj, o->format) || fflush(stdout)) {
		fprintf(stderr, "nvanalyze: writing the output failed\n");
		ret = 2;
	} else if (o->outdir && write_outdir(o->outdir, &r, tj)) {
		ret = 2;
	} else if (r.claims_failed) {
		fprintf(stderr, "nvanalyze: some claims are not met\n");
		ret = 1;
	}
	nv_curves_free(&curves);
free_report:
	nv_report_free(&r);
out:
	free(warnings);
	free(sides);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct opts o = { .format = NV_FMT_MD, .lat = NV_LAT_CLAT,
			  .curve = nv_curve_opts_default() };
	struct nv_traceset ts = { 0 };
	struct nv_tracejoin tj = { 0 };
	struct side_store *st = NULL;
	size_t n = 0;
	int ret;

	nv_pctl_default(&o.levels);
	ret = parse_opts(argc, argv, &o);

	if (ret || o.help)
		goto out;
	if (optind >= argc) {
		ret = usage_error("%s", "no fio JSON file given");
		goto out;
	}
	if (argc - optind > MAX_SIDES) {
		ret = usage_error("%s", "too many runs");
		goto out;
	}
	st = calloc((size_t)(argc - optind), sizeof(*st));
	if (!st) {
		ret = 2;
		goto out;
	}
	for (int i = optind; i < argc && !ret; i++)
		ret = load_side(argv[i], &st[n++]);
	if (!ret)
		ret = hosts_as_sides(&st, &n);
	if (!ret)
		ret = assign_labels(st, n, &o);
	if (!ret)
		ret = apply_prices(st, n, &o);
	if (!ret)
		ret = check_lat(st, n, &o);
	if (!ret)
		ret = percentile_levels(st, n, &o);
	if (!ret)
		ret = load_traces(st, n, &o, &ts, &tj);
	if (!ret || ret == -EIO) {	/* -EIO: a trace failed, the others are in tj */
		int rep = report(st, n, &o, &tj);

		ret = rep ? rep : (ret ? 2 : 0);
	}
out:
	nv_trace_join_free(&tj);
	nv_traceset_free(&ts);
	for (size_t i = 0; st && i < n; i++) {
		nv_runset_free(&st[i].rs);
		free(st[i].label);
	}
	free(st);
	for (size_t i = 0; i < o.nclaims; i++)
		nv_claim_free(&o.claims[i]);
	free(o.claims);
	nv_curve_opts_free(&o.curve);
	free(o.sel.jobs);
	return ret;
}
