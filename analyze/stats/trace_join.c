/*
 * trace_join.c - the trace join: each job's traces analyzed and joined with
 * its fio run (trace_join.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/exact_dense.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/stats/trace_join.h"
#include "analyze/stats/workpool.h"

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
			: jj->tan.damaged   ? ": some of them are damaged or missing (above); "
					      "using fio's values"
			: jj->tan.ab_window ? ": they were made with nv_trace_ab, which records "
					      "every other window of IOs; using fio's values"
					    : ": traces of another run? using fio's values");
		ok = false;
	}
	return ok;
}

/* One entry's analysis, written by the worker that ran it (workpool.h). */
struct slot {
	const struct nv_jobtraces *e;
	struct nv_tan_opts o;	/* the caller's, its progress through join_progress */
	struct nv_tan tan;
	int ret;
	char err[1024];
};

/* What the workers share: the caller's options and the progress count. */
struct work {
	const struct nv_tan_opts *o;
	struct slot *slot;
	size_t n;		/* the entries analyzed */
	pthread_mutex_t lock;	/* for what follows and the caller's callback */
	size_t done;		/* entries finished */
	unsigned busy;		/* entries under analysis */
};

/*
 * The progress callback of every worker: one call at a time into the
 * caller's, with the jobs done and under way of the whole join.
 * Return: nothing.
 */
static void join_progress(const struct nv_tan_progress *p, void *arg)
{
	struct work *w = arg;
	struct nv_tan_progress q = *p;

	pthread_mutex_lock(&w->lock);
	q.njobs = w->n;
	q.jobs_done = w->done;
	q.jobs_busy = w->busy;
	w->o->progress(&q, w->o->progress_arg);
	pthread_mutex_unlock(&w->lock);
}

/* Count an entry in (start) or out (end) for the progress line. */
static void join_count(struct work *w, bool start)
{
	pthread_mutex_lock(&w->lock);
	if (start) {
		w->busy++;
	} else {
		w->busy--;
		w->done++;
	}
	pthread_mutex_unlock(&w->lock);
}

/* Work item i: analyze slot i's traces.  Return: its result (also in the slot). */
static int analyze_slot(size_t i, void *arg)
{
	struct work *w = arg;
	struct slot *sl = &w->slot[i];

	join_count(w, true);
	sl->ret = nv_tan_run((const char *const *)sl->e->paths, sl->e->npaths, &sl->o, &sl->tan,
			     sl->err, sizeof(sl->err));
	join_count(w, false);
	return sl->ret;
}

/*
 * Join an analyzed entry (its statistics moved from sl) into the next
 * slot of tj.
 * Return: nothing.
 */
static void join_one(struct nv_tracejoin *tj, struct slot *sl)
{
	const struct nv_jobtraces *e = sl->e;
	const struct nv_job *j = &e->run->jobs[e->job];
	struct nv_jobjoin *jj = &tj->j[tj->n++];

	memset(jj, 0, sizeof(*jj));
	jj->jt = e;
	jj->tan = sl->tan;
	memset(&sl->tan, 0, sizeof(sl->tan));
	for (size_t k = 0; k < jj->tan.nnotes; k++)
		tj_note(tj, "%s", jj->tan.notes[k]);
	if (!counts_agree(tj, jj) && !e->explicit_)
		return;
	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		int d = nv_op_dir(op);

		if (d >= 0 && jj->tan.op[op].records && j->dir[d].present)
			put_exact(jj, (enum nv_dir)d, &jj->tan.op[op].lat);
	}
}

/*
 * The slots of ts's selected entries, their options o with the progress
 * through w.
 * Return: 0 or -ENOMEM.
 */
static int make_slots(struct work *w, const struct nv_traceset *ts, const struct nv_tan_opts *o)
{
	w->slot = calloc(ts->n ? ts->n : 1, sizeof(*w->slot));
	if (!w->slot)
		return -ENOMEM;
	for (size_t i = 0; i < ts->n; i++) {
		struct slot *sl = &w->slot[w->n];

		if (ts->jt[i].unselected)
			continue;
		sl->e = &ts->jt[i];
		sl->o = *o;
		sl->o.workers = 1;	/* join_workers: more for a job of several traces */
		if (o->progress) {
			sl->o.progress = join_progress;
			sl->o.progress_arg = w;
		}
		w->n++;
	}
	return 0;
}

/*
 * The threads of each job's own analysis: with fewer jobs than workers, a
 * job of several traces (a grouped job's threads) analyses them on its share
 * of the workers (trace_merge.c: the result is the same for any number).
 * Return: nothing.
 */
static void join_workers(struct work *w, unsigned workers)
{
	unsigned share = w->n && w->n < workers ? workers / (unsigned)w->n : 1;

	for (size_t i = 0; i < w->n; i++)
		if (w->slot[i].e->npaths > 1)
			w->slot[i].o.workers = share;
}

/*
 * Merge the slots in order: the analyzed ones joined, the failed ones'
 * messages in tj->failed, the first of them also in err.
 * Return: 0, or the first failed slot's -errno.
 */
static int merge_slots(struct nv_tracejoin *tj, struct work *w, char *err, size_t errlen)
{
	int first = 0;

	for (size_t i = 0; i < w->n; i++) {
		struct slot *sl = &w->slot[i];

		if (!sl->ret && sl->tan.damaged && !first) {	/* joined, its notes say */
			first = -EIO;
			snprintf(err, errlen, "%s: %u of the job's traces damaged or missing",
				 sl->e->paths[0], sl->tan.damaged);
		}
		if (!sl->ret) {
			join_one(tj, sl);
			continue;
		}
		nv_note_add(&tj->failed, &tj->nfailed, "%s", sl->err);
		if (!first) {
			first = sl->ret;
			snprintf(err, errlen, "%s", sl->err);
		}
	}
	return first;
}

int nv_trace_join(const struct nv_traceset *ts, const struct nv_tan_opts *o, unsigned workers,
		  struct nv_tracejoin *tj, char *err, size_t errlen)
{
	struct work w = { .o = o };
	int ret;

	memset(tj, 0, sizeof(*tj));
	tj->ts = ts;
	tj->workers = workers ? workers : 1;
	tj->j = calloc(ts->n ? ts->n : 1, sizeof(*tj->j));
	if (!tj->j || make_slots(&w, ts, o) || pthread_mutex_init(&w.lock, NULL)) {
		snprintf(err, errlen, "out of memory joining %zu jobs' traces", ts->n);
		free(w.slot);
		return -ENOMEM;
	}
	/* those that run at once */
	nv_dense_workers(workers);
	join_workers(&w, workers ? workers : 1);
	nv_pool_run(w.n, workers ? workers : 1, analyze_slot, &w);
	ret = merge_slots(tj, &w, err, errlen);
	for (size_t i = 0; i < w.n; i++)
		nv_tan_free(&w.slot[i].tan);	/* the failed ones' */
	pthread_mutex_destroy(&w.lock);
	free(w.slot);
	return ret;
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
	for (size_t i = 0; i < tj->nfailed; i++)
		free(tj->failed[i]);
	free(tj->failed);
	memset(tj, 0, sizeof(*tj));
}
