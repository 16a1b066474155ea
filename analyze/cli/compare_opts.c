/*
 * compare_opts.c - the command line of "nvanalyze [compare]": the usage text,
 * options into struct opts, usage errors.
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
#include "analyze/input/multiout.h"
#include "analyze/input/runset.h"
#include "analyze/cli/curve_opts.h"
#include "analyze/report/curves.h"
#include "analyze/cli/compare.h"

/* The synopsis both usages open with. */
static const char usage_synopsis[] =
	"Usage: nvanalyze [compare] [OPTIONS] RUN [RUN...]\n"
	"       nvanalyze dump TRACE...\n"
	"       nvanalyze stat TRACE...\n"
	"       nvanalyze watch [OPTIONS] DIR|TRACE...\n";

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
	      "  fio's normal output (2.x, 3.x)   fio.txt (told by its content; any\n"
	      "                                   unit_base, kb_base, unified_rw_reporting)\n"
	      "  fio's terse output (v2-v5)       fio.terse (--status-interval snapshots:\n"
	      "                                   the last; runs appended: repeats)\n"
	      "  a results directory (jobs/run)   results/i7i: all its *.json together,\n"
	      "                                   the traces found inside\n"
	      "  files joined with '+'            randread.json+seqwrite.json\n"
	      "  a CrystalDiskMark 5.x-9.x or KDiskMark 1.x-3.x text export, a diskspd\n"
	      "  2.0-2.2 text report, as saved or pasted into a page (any encoding:\n"
	      "  UTF-8, UTF-16, cp1251, cp1252, cp932) (lat: compared as --lat lat)\n"
	      "  a page of several outputs        page.md: outputs under different\n"
	      "                                   headings are runs of their own (--split)\n"
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
	      "                        1,25,50,99,99.9 (to 7 decimals: 99.9999999), or\n"
	      "                        'fio' for every level the JSON holds (default\n"
	      "                        50,95,99,99.9,99.99); exact with traces, else\n"
	      "                        fio's value of that level or '-'\n"
	      "      --claim [JOB:]METRIC:CHANGE  or  [JOB:]METRIC<=VALUE (also <, >=, >)\n"
	      "                        check a claim: 'randread*:iops:+50%', 'p99:-20%',\n"
	      "                        'bw:+50%±2', 'bw:2.1x', 'p95<=3ms', 'iops>=11800',\n"
	      "                        'bw>=330MB/s' (kB/s MB/s: 10^3 10^6; KiB/s MiB/s:\n"
	      "                        2^10 2^20; KB/s is ambiguous, refused); verdict\n"
	      "                        met, not met or cannot tell;\n"
	      "                        metrics: the JSON key stems (iops bw min mean max\n"
	      "                        stdev io_bytes runtime usr_cpu sys_cpu ctx ...\n"
	      "                        cost cost_bw) or any percentile pX (p99.5, p25);\n"
	      "                        latency is --lat's kind, or named as its JSON key\n"
	      "                        (clat_mean, clat_p99, lat_mean: needs --lat lat);\n"
	      "                        0% is met by an about-equal change; exit status 1\n"
	      "                        if one is not met, 2 if one matches no job or\n"
	      "                        metric or no run has a value of it (a percentile\n"
	      "                        fio did not report)\n"
	      "      --pair RUN:BASELINE\n"
	      "                        a change column RUN vs BASELINE (labels or 1-based\n"
	      "                        positions; repeat for several in one table) instead\n"
	      "                        of each run vs the baseline\n"
	      "      --summary WHAT    the summary table's number: auto (IOPS for random\n"
	      "                        or < 64 KiB jobs, else MB/s), iops, bw or both\n"
	      "      --units SYSTEM    si (MB/s, GB; default) or binary (MiB/s, GiB)\n"
	      "      --change HOW      changes as pct (+110.0%, default), ratio (2.10x)\n"
	      "                        or both\n"
	      "      --same-below PCT  single runs: a change printed under PCT% reads as\n"
	      "                        about equal in every output and claim (default\n"
	      "                        5; 0: off)\n"
	      "      --split HOW       a file of several outputs: auto (default: outputs\n"
	      "                        under different headings are runs labelled by\n"
	      "                        them, repeats of one machine stay repeats),\n"
	      "                        outputs (each output a run), headings (each\n"
	      "                        heading a run) or none (one run, as before)\n"
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
	      "                        files, gnuplot scripts and the figures (PNG); files\n"
	      "                        an earlier -o there wrote and this one does not are\n"
	      "                        removed (see docs/analysis.md)\n"
	      "      --figures FMT     with -o: the figure files rendered, png (default;\n"
	      "                        report.html embeds them), svg (report.md links\n"
	      "                        the SVGs, report.html inlines them), png,svg or\n"
	      "                        none (data and scripts only)\n"
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
	      "claim that matches no job or metric or has no value to judge.\n", out);
}

int __attribute__((format(printf, 1, 2)))
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
       OPT_SUMMARY, OPT_UNITS, OPT_CHANGE, OPT_SAME, OPT_SPLIT, OPT_PAIR, OPT_AGG, OPT_BUCKETS,
       OPT_PCTL, OPT_FIGURES };

/* --summary, --units, --change, --same-below, -v: how the output reads. */
static int display_opt(struct opts *o, int c, const char *arg)
{
	enum nv_headline h;
	double d;

	enum nv_split sp;

	switch (c) {
	case 'v':
		nv_display.verbose = true;
		return 0;
	case OPT_SPLIT:
		if (nv_split_parse(arg, &sp))
			return usage_error("--split '%s': use auto, outputs, headings or none",
					   arg);
		nv_multiout_split(sp);
		return 0;
	case OPT_SUMMARY:
		if (nv_headline_parse(arg, &h))
			return usage_error("--summary '%s': use auto, iops, bw or both", arg);
		nv_display.headline = h;
		return 0;
	case OPT_UNITS:
		if (strcmp(arg, "si") && strcmp(arg, "binary"))
			return usage_error("--units '%s': use si (MB/s, GB) or binary "
					   "(MiB/s, GiB)", arg);
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
		o->sel.same_below = d;
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
			ret = usage_error("--buckets '%s': at most %d edges", arg,
					  NV_TAN_MAXEDGES);
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

/*
 * -t, --no-traces, --interval, --spike-factor, --buckets, -J, -o, --figures:
 * traces, figures.  Return: 0, or 2.
 */
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
	case OPT_FIGURES:
		if (nv_figset_formats_parse(arg, &o->formats))
			return usage_error("--figures '%s': use png,svg, svg, png or none", arg);
		o->figures = arg;
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
	{ "figures", required_argument, NULL, OPT_FIGURES },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "pair", required_argument, NULL, OPT_PAIR },
	{ "buckets", required_argument, NULL, OPT_BUCKETS },
	{ "percentiles", required_argument, NULL, OPT_PCTL },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "change", required_argument, NULL, OPT_CHANGE },
	{ "same-below", required_argument, NULL, OPT_SAME },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "verbose", no_argument, NULL, 'v' },
	NV_CURVE_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/*
 * The command line into *o; -h prints the usage and sets o->help.
 * Return: 0, or 2 after a usage error.
 */
int parse_opts(int argc, char **argv, struct opts *o)
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
		case 'o': case 'J': case OPT_FIGURES:
			ret = trace_opt(c, optarg, o);
			break;
		case OPT_SUMMARY: case OPT_UNITS: case OPT_CHANGE: case OPT_SAME: case OPT_SPLIT:
		case 'v':
			ret = display_opt(o, c, optarg);
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
	if (!ret && !o->help && o->figures && !o->outdir)
		return usage_error("--figures '%s': figures are written with -o DIR only; "
				   "add -o DIR", o->figures);
	return ret;
}
