/*
 * cmd_trace.c - `nvanalyze dump` and `nvanalyze stat`: per-IO traces as CSV
 * and as per-operation statistics with exact latency percentiles.
 *
 * Both stream the trace block by block.  A truncated trace (job killed, disk
 * full) is used up to its last complete block with a warning on stderr; a
 * damaged one (CRC mismatch, foreign file, bad version) is an error naming
 * the file, exit status 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cli/commands.h"
#include "analyze/common.h"
#include "analyze/stats/exact.h"
#include "analyze/stats/opstats.h"
#include "analyze/stats/trace_check.h"
#include "analyze/stats/trace_pass.h"
#include "analyze/stats/trace_wait.h"
#include "analyze/cli/progress.h"
#include "trace/nvtrace.h"

static const char dump_usage[] =
	"usage: nvanalyze dump TRACE...\n"
	"Print every IO of the traces as CSV, in completion order:\n"
	"  submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file\n"
	"times in ns (CLOCK_MONOTONIC), offset and length in bytes, status 0 (ok),\n"
	"the NVMe status value (>0) or a negative errno.\n";

static const char stat_usage[] =
	"usage: nvanalyze stat TRACE...\n"
	"Per trace: header, records, time span (first submission to last\n"
	"completion), and per operation: records, errors, IOPS, MB/s (1 MB = 10^6\n"
	"bytes) and exact latency (completion - submission, ns): min, nearest-rank\n"
	"p50 p90 p95 p99 p99.9 p99.99, max, mean, stdev (sample).\n";

/*
 * Parse "-h" and "--"; returns the index of the first trace argument, or -1
 * after printing help (exit 0), or -2 after a usage error (exit 2).
 */
static int parse_args(int argc, char **argv, const char *usage)
{
	int i = 1;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "nvanalyze %s: unknown option %s (try -h)\n", argv[0],
				argv[i]);
			return -2;
		}
		break;
	}
	if (i >= argc) {
		fprintf(stderr, "nvanalyze %s: no trace file given (try -h)\n", argv[0]);
		return -2;
	}
	return i;
}

/* Warn about a trace that ended early (trace_check.h); nothing when it is complete. */
static void report_end(const struct nvt_reader *r)
{
	char what[PATH_MAX + 256];

	if (nv_trace_end_describe(r, what, sizeof(what)))
		fprintf(stderr, "nvanalyze: warning: %s\n", what);
}

/* Open a trace, printing the error; NULL on failure. */
static struct nvt_reader *open_trace(const char *path)
{
	struct nvt_reader *r;
	int err = nvt_reader_open(&r, path);

	if (!err)
		return r;
	if (r)
		fprintf(stderr, "nvanalyze: %s\n", nvt_reader_strerror(r));
	else
		fprintf(stderr, "nvanalyze: %s: %s\n", path, strerror(-err));
	nvt_reader_close(r);
	return NULL;
}

static int dump_one(const char *path, FILE *out)
{
	struct nvt_reader *r = open_trace(path);
	const struct nvt_record *recs;
	size_t n;
	int err;

	if (!r)
		return 2;
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1) {
		for (size_t i = 0; i < n; i++) {
			const struct nvt_record *x = &recs[i];
			const char *op = nvt_op_name(x->op);
			char opbuf[8];

			if (!op) {	/* a newer writer's op: keep the number */
				snprintf(opbuf, sizeof(opbuf), "%u", x->op);
				op = opbuf;
			}
			fprintf(out,
				"%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",%" PRIu32
				",%s,%" PRId32 ",%" PRIu16 ",%" PRIu8 "\n",
				x->submit_ns, x->complete_ns,
				(int64_t)(x->complete_ns - x->submit_ns), x->offset, x->length, op,
				x->status, x->qd, x->file);
		}
	}
	if (err < 0) {
		fflush(out);
		fprintf(stderr, "nvanalyze: %s\n", nvt_reader_strerror(r));
		nvt_reader_close(r);
		return 2;
	}
	report_end(r);
	nvt_reader_close(r);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	int first = parse_args(argc, argv, dump_usage), rc = 0;

	if (first < 0)
		return first == -1 ? 0 : 2;
	printf("submit_ns,complete_ns,lat_ns,offset,length,op,status,qd,file\n");
	for (int i = first; i < argc; i++)
		if (dump_one(argv[i], stdout))
			rc = 2;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "nvanalyze dump: write error on standard output\n");
		rc = 2;
	}
	return rc;
}

/* ---- stat ---- */

static void print_kv(const char *title, const struct nvt_kv *kv, size_t n)
{
	if (!n)
		return;
	printf("%s:\n", title);
	for (size_t i = 0; i < n; i++)
		printf("  %s = %s\n", kv[i].key, kv[i].value);
}

/*
 * One pass over the trace r (closed here): stats/trace_pass.h reads it,
 * prog shows how far (and is erased before anything is printed); on the
 * first pass, how it ended, its blocks and footer are printed.
 * Return: 0, or 2 after printing the error.
 */
static int stat_pass(struct nvt_reader *r, const char *path, struct nv_trace_stat *s, bool first,
		     struct nv_progress *prog, bool *more)
{
	char err[PATH_MAX + 256];
	int ret = nv_trace_stat_read(r, s, first, err, sizeof(err));

	nv_progress_end(prog);	/* before what this pass prints */
	if (ret) {
		fprintf(stderr, "nvanalyze: %s\n", err);
		nvt_reader_close(r);
		return 2;
	}
	if (first) {
		struct nvt_read_info in;
		const struct nvt_footer *f = nvt_reader_footer(r);

		report_end(r);
		nvt_reader_info(r, &in);
		printf("blocks: %" PRIu32 ", footer: %s", in.blocks, f ? "present" : "missing");
		if (in.unused_bytes)
			printf(" (%" PRIu64 " bytes unusable)", in.unused_bytes);
		printf("\n");
		if (f)
			print_kv("footer", f->kv, f->nkv);
	}
	nvt_reader_close(r);
	if (nv_trace_stat_end_pass(s, path, more, err, sizeof(err))) {
		fprintf(stderr, "nvanalyze: %s\n", err);
		return 2;
	}
	return 0;
}

static void print_row(const char *name, const struct nv_trace_count *o, const struct nv_exact *e,
		      double span_s)
{
	printf("%-7s %10" PRIu64 " %7" PRIu64, name, o->records, o->errors);
	if (span_s > 0)
		printf(" %12.1f %10.3f", (double)o->records / span_s,
		       (double)o->bytes / span_s / 1e6);
	else
		printf(" %12s %10s", "-", "-");
	printf(" %9" PRIu64, nv_exact_min(e));
	for (size_t i = 0; i < NV_PCT_NR; i++)
		printf(" %9" PRIu64, nv_exact_value(e, i));
	printf(" %9" PRIu64 " %11.1f %11.1f\n", nv_exact_max(e), nv_exact_mean(e),
	       nv_exact_stdev(e));
}

/* Open the trace and print its header: the reader for the first pass, or NULL. */
static struct nvt_reader *stat_header(const char *path)
{
	struct nvt_reader *r = open_trace(path);
	struct nvt_read_info in;

	if (!r)
		return NULL;
	nvt_reader_info(r, &in);
	printf("trace: %s\nformat: %u.%u\n", path, in.major, in.minor);
	print_kv("header", nvt_reader_kv(r), nvt_reader_nkv(r));
	return r;
}

/* How much tracing held the IO loop, and the finding if it did (trace_wait.h).  Return: nothing */
static void print_wait_finding(const char *path, uint64_t span_ns)
{
	struct nvt_reader *r = open_trace(path);
	char line[512];

	if (r && nv_trace_wait_summary(r, span_ns, line, sizeof(line)) == 1)
		printf("tracing: %s\n", line);
	if (r && nv_trace_wait_finding(r, span_ns, line, sizeof(line)) == 1)
		printf("finding: %s\n", line);
	nvt_reader_close(r);
}

static int stat_one(const char *path)
{
	struct nv_trace_stat s;
	struct nv_progress prog;
	struct nvt_reader *r;
	bool more = true, first = true;
	unsigned nops = 0;
	double span_s;
	int rc = 0;

	if (!strcmp(path, "-")) {
		fprintf(stderr, "nvanalyze stat: reads a trace several times: give a file, not "
				"-\n");
		return 2;
	}
	nv_trace_stat_init(&s);
	r = stat_header(path);
	fflush(stdout);		/* the header before a progress line */
	nv_progress_start(&prog, stderr);	/* a line on a terminal only */
	s.progress = nv_progress_tan;
	s.progress_arg = &prog;
	while (more && !rc) {
		if (!first)
			r = open_trace(path);
		rc = r ? stat_pass(r, path, &s, first, &prog, &more) : 2;
		first = false;
	}
	nv_progress_end(&prog);
	if (rc) {
		nv_trace_stat_free(&s);
		return rc;
	}
	span_s = s.records ? (double)(s.last_complete - s.first_submit) / 1e9 : 0;
	printf("records: %" PRIu64 "\n", s.records);
	if (!s.records) {
		nv_trace_stat_free(&s);
		return 0;
	}
	printf("time: first submission %" PRIu64 " ns, last completion %" PRIu64
	       " ns, span %.9f s\n", s.first_submit, s.last_complete, span_s);
	printf("%-7s %10s %7s %12s %10s %9s", "op", "records", "errors", "IOPS", "MB/s", "min");
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		printf(" %9s", nv_pcts[i].name);
	printf(" %9s %11s %11s\n", "max", "mean", "stdev");
	for (unsigned i = 0; i < NVT_OP__MAX; i++) {
		if (!s.op[i].records)
			continue;
		nops++;
		print_row(nvt_op_name(i), &s.op[i], nv_opstats_get(&s.lat, i), span_s);
	}
	if (nops != 1)	/* more than one op: the all-ops state exists */
		print_row("all", &s.op[NV_TRACE_STAT_ALL], nv_opstats_get(&s.lat, NV_OPSTATS_ALL),
			  span_s);
	printf("latency in ns (completion - submission), exact nearest-rank percentiles;"
	       " MB = 10^6 bytes\n");
	print_wait_finding(path, s.last_complete - s.first_submit);
	nv_trace_stat_free(&s);
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	int first = parse_args(argc, argv, stat_usage), rc = 0;

	if (first < 0)
		return first == -1 ? 0 : 2;
	for (int i = first; i < argc; i++) {
		if (i > first)
			printf("\n");
		fflush(stdout);
		if (stat_one(argv[i]))
			rc = 2;
		fflush(stdout);
	}
	return rc;
}
