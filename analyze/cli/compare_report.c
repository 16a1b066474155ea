/*
 * compare_report.c - the report of a comparison: built, printed on stdout,
 * written with -o DIR; the exit status of its claims.
 */

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
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
#include "analyze/cli/compare.h"

/*
 * -o DIR: write the directory and say what was written (or how to render
 * the figures when gnuplot is missing).
 * Return: 0, or -errno after printing the error.
 */
static int write_outdir(const char *dir, const struct nv_report *r, const struct nv_tracejoin *tj,
			unsigned formats)
{
	struct nv_outdir_result res;
	char err[1024] = "";
	int ret = nv_outdir_write(dir, r, tj, formats, &res, err, sizeof(err));

	if (!ret && !res.gnuplot && formats)
		fprintf(stderr,
			"nvanalyze: gnuplot not found: wrote %zu scripts in %s; render them with\n"
			"  cd %s && for f in *.gp; do%s%s done\n"
			"(Debian: apt-get install gnuplot-nox)\n", res.nfig, dir, dir,
			formats & NV_FIG_PNG ? " gnuplot \"$f\";" : "",
			formats & NV_FIG_SVG ? " gnuplot -e \"fmt='svg'\" \"$f\";" : "");
	if (ret)
		fprintf(stderr, "nvanalyze: %s\n", err);
	else
		fprintf(stderr, "nvanalyze: wrote %s/report.md (%zu figures%s)\n", dir, res.nfig,
			res.rendered ? ", rendered" : formats ? ", not rendered" :
			", not rendered: --figures none");
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
 * The tables on stdout (print_stdout).  With -o DIR, a reader that went
 * away (`| head`: a closed pipe) does not cost the report: SIGPIPE is
 * ignored, the tables stop there and DIR is still written; any other
 * failure is an error.
 * Return: 0, 1 (stdout closed by its reader under -o: nothing to say), or
 * 2 after printing the error.
 */
static int tables_stdout(struct nv_report *r, const struct nv_curves *c,
			 const struct nv_tracejoin *tj, const struct opts *o)
{
	bool failed;

	if (o->outdir)
		signal(SIGPIPE, SIG_IGN);
	errno = 0;
	failed = print_stdout(r, c, tj, o->format) || fflush(stdout);
	if (!failed)
		return 0;
	if (o->outdir && errno == EPIPE)
		return 1;
	fprintf(stderr, "nvanalyze: writing the output failed\n");
	return 2;
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

/*
 * The report of the loaded sides and joined traces: built, its notes and
 * claims on stderr, printed on stdout, written with -o DIR.
 * Return: 0, 1 a claim not met, or 2 after printing the error.
 */
int compare_report(struct side_store *st, size_t n, const struct opts *o,
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
	} else if (tables_stdout(&r, &curves, tj, o) == 2) {
		ret = 2;
	} else if (o->outdir && write_outdir(o->outdir, &r, tj, o->formats)) {
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
