/*
 * compare_traces.c - the traces of a comparison: --trace, discovery, the
 * percentile levels, the join with the runs.
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
#include "analyze/cli/compare.h"

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
			ret = nv_traces_add(ts, &st[s].runs[0], (size_t)j, a.paths, a.npaths,
					    true);
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
int percentile_levels(struct side_store *st, size_t n, struct opts *o)
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

int load_traces(struct side_store *st, size_t n, struct opts *o, struct nv_traceset *ts,
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
