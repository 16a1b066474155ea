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
#include "analyze/cli/compare.h"
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
		int rep = compare_report(st, n, &o, &tj);

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
