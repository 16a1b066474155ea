/*
 * trace_join.c - the trace join: each job's traces analyzed and joined with
 * its fio run (trace_join.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/stats/trace_join.h"

#define tj_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/*
 * The traces' exact completion latencies of one direction, beside fio's.
 * Return: nothing.
 */
static void put_exact(struct nv_jobjoin *jj, enum nv_dir d, const struct nv_latsum *l)
{
	struct nv_latstat *ls = &jj->exact_clat[d];

	memset(ls, 0, sizeof(*ls));
	jj->exact[d] = true;
	ls->min = (struct nv_val){ .v = (double)l->min, .src = NV_SRC_EXACT };
	ls->max = (struct nv_val){ .v = (double)l->max, .src = NV_SRC_EXACT };
	ls->mean = (struct nv_val){ .v = l->mean, .src = NV_SRC_EXACT };
	ls->stdev = (struct nv_val){ .v = l->stdev, .src = NV_SRC_EXACT };
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		ls->pct[i] = (struct nv_val){ .v = (double)l->pct[i], .src = NV_SRC_EXACT };
}

/*
 * Compare record counts with fio's, a note for each direction that differs.
 * Return: true when they agree for every direction.
 */
static bool counts_agree(struct nv_tracejoin *tj, const struct nv_jobjoin *jj)
{
	const struct nv_jobtraces *e = jj->jt;
	const struct nv_job *j = &e->run->jobs[e->job];
	bool ok = true;

	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		int d = nv_op_dir(op);
		const struct nv_dirstat *ds;

		if (d < 0)
			continue;
		ds = &j->dir[d];
		if (!ds->have_ios || ds->ios == jj->tan.op[op].records)
			continue;
		tj_note(tj,
			"%s: job '%s' %s: the traces (%s%s) have %" PRIu64 " IOs, fio counted "
									   "%" PRIu64 "%s",
			nv_job_file(e->run, j), j->key, nv_dir_name((enum nv_dir)d), e->paths[0],
			e->npaths > 1 ? " ..." : "", jj->tan.op[op].records, ds->ios,
			e->explicit_	    ? "; using the traces as given"
			: jj->tan.ab_window ? ": they were made with nv_trace_ab, which records "
					      "every other window of IOs; using fio's values"
					    : ": traces of another run? using fio's values");
		ok = false;
	}
	return ok;
}

/*
 * Analyze entry e into the next slot of tj and join it.
 * Return: 0, or -errno with err set.
 */
static int join_one(struct nv_tracejoin *tj, const struct nv_jobtraces *e,
		    const struct nv_tan_opts *o, char *err, size_t errlen)
{
	const struct nv_job *j = &e->run->jobs[e->job];
	struct nv_jobjoin *jj = &tj->j[tj->n];
	int ret;

	memset(jj, 0, sizeof(*jj));
	jj->jt = e;
	ret = nv_tan_run((const char *const *)e->paths, e->npaths, o, &jj->tan, err, errlen);
	if (ret)
		return ret;
	tj->n++;
	for (size_t k = 0; k < jj->tan.nnotes; k++)
		tj_note(tj, "%s", jj->tan.notes[k]);
	if (!counts_agree(tj, jj) && !e->explicit_)
		return 0;
	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		int d = nv_op_dir(op);

		if (d >= 0 && jj->tan.op[op].records && j->dir[d].present)
			put_exact(jj, (enum nv_dir)d, &jj->tan.op[op].lat);
	}
	return 0;
}

int nv_trace_join(const struct nv_traceset *ts, const struct nv_tan_opts *o,
		  struct nv_tracejoin *tj, char *err, size_t errlen)
{
	memset(tj, 0, sizeof(*tj));
	tj->ts = ts;
	tj->j = calloc(ts->n ? ts->n : 1, sizeof(*tj->j));
	if (!tj->j) {
		snprintf(err, errlen, "out of memory joining %zu jobs' traces", ts->n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ts->n; i++) {
		int ret;

		if (ts->jt[i].unselected)
			continue;
		ret = join_one(tj, &ts->jt[i], o, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

const struct nv_jobjoin *nv_trace_join_find(const struct nv_tracejoin *tj,
					    const struct nv_run *run, size_t job)
{
	for (size_t i = 0; tj && i < tj->n; i++)
		if (tj->j[i].jt->run == run && tj->j[i].jt->job == job)
			return &tj->j[i];
	return NULL;
}

const struct nv_latstat *nv_jobjoin_exact(const struct nv_jobjoin *jj, enum nv_dir d)
{
	return jj && (unsigned)d < NV_DIR_NR && jj->exact[d] ? &jj->exact_clat[d] : NULL;
}

int nv_jobjoin_level(const struct nv_jobjoin *jj, enum nv_dir d, double p, double *v)
{
	const struct nv_latstat *ls = nv_jobjoin_exact(jj, d);
	const struct nv_tan *t = jj ? &jj->tan : NULL;
	int got = NV_SRC_NONE;

	if (!ls)
		return NV_SRC_NONE;
	for (unsigned i = 0; i < NV_PCT_NR; i++) {
		if (nv_pctl_same(nv_pcts[i].value, p) && ls->pct[i].src) {
			*v = ls->pct[i].v;
			return ls->pct[i].src;
		}
	}
	for (size_t k = 0; k < t->nlevels; k++) {
		if (!nv_pctl_same(t->levels[k], p))
			continue;
		for (unsigned op = 0; op < NVT_OP__MAX; op++) {	/* put_exact's: the last */
			const struct nv_latsum *l = &t->op[op].lat;

			if (nv_op_dir(op) == (int)d && t->op[op].records && k < l->nlv) {
				*v = (double)l->lv[k];
				got = NV_SRC_EXACT;
			}
		}
	}
	return got;
}

void nv_trace_join_free(struct nv_tracejoin *tj)
{
	for (size_t i = 0; i < tj->n; i++)
		nv_tan_free(&tj->j[i].tan);
	free(tj->j);
	for (size_t i = 0; i < tj->nnotes; i++)
		free(tj->notes[i]);
	free(tj->notes);
	memset(tj, 0, sizeof(*tj));
}
