/*
 * trace_stats.c - the analysis of one job's traces (see trace_stats.h).
 *
 * Pass 1 merges the traces by completion time (one block per trace held),
 * closes intervals as completion time moves past them and feeds the
 * pass-1 state of the exact percentiles.  At its end the spike thresholds
 * and episode intervals are known (findings.h).  Passes 2.. read each file
 * in turn: exact percentiles that are still pending, and (pass 2 only) the
 * IOs at or above a spike threshold, which give each episode its start, end
 * and worst latency.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/common.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"


unsigned nv_tan_nops(const struct nv_tan *t)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NVT_OP__MAX; i++)
		n += t->op[i].records > 0;
	return n;
}


/*
 * Passes 2..: every file in turn: pending percentiles (the all-operations
 * ones too in a mixed job: there they exist from pass 1, copied from the
 * first operation's state when a second operation showed up), and in pass
 * 2 the slow IOs.
 */
static int later_pass(struct state *st, bool spikes)
{
	int err = 0;

	for (size_t f = 0; f < st->npaths && !err; f++) {
		struct src s = { 0 };
		size_t run = 0;		/* pass 1's interval (tan_pass1_iv) */

		s.want = NVT_COL_LATENCY | NVT_COL_OP | NVT_COL_QD;
		if ((err = tan_open_src(st, f, &s)))
			return err;
		while (!err && !(err = tan_src_next(st, &s)) && !s.done) {
			for (size_t a = 0, e; a < s.n && !err; a = e) {
				e = tan_counted_run(st, &s, &a, s.n);
				err = tan_feed_exact(st, &s, a, e);
				for (size_t i = a; spikes && !err && i < e; i++)
					err = tan_spike_record(st, s.c->op[i],
						s.c->complete_ns[i] - s.c->latency_ns[i],
						s.c->complete_ns[i],
						tan_pass1_iv(st, s.c->complete_ns[i], &run));
			}
		}
		nvt_reader_close(s.r);
	}
	return err;
}

void tan_latsum(const struct nv_exact *e, size_t nlv, struct nv_latsum *l)
{
	l->n = nv_exact_count(e);
	l->min = nv_exact_min(e);
	l->max = nv_exact_max(e);
	l->mean = nv_exact_mean(e);
	l->stdev = nv_exact_stdev(e);
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		l->pct[i] = nv_exact_value(e, i);
	l->nlv = nlv;
	for (size_t i = 0; i < nlv; i++)
		l->lv[i] = nv_exact_value(e, NV_PCT_NR + i);
}

/* End a pass on every exact state: 1 if another pass is needed. */
static int end_pass(struct state *st)
{
	int more = nv_opstats_end_pass(&st->ops), r;

	if (more < 0)
		return more;
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			if (st->qx[k][q] && (r = nv_exact_end_pass(st->qx[k][q])) != 0) {
				if (r < 0)
					return r;
				more = 1;
			}
	}
	return more;
}

static int collect(struct state *st)
{
	struct nv_tan *t = st->t;

	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		const struct nv_exact *e = nv_opstats_get(&st->ops, k);
		const uint64_t *h;

		if (!e)
			continue;
		tan_latsum(e, st->ops.nextra, &t->op[k].lat);
		h = nv_exact_hist(e);
		if (h) {	/* the nonzero buckets' span: kept per job, not 114 KiB */
			unsigned lo = 0, hi = NV_EXACT_NBUCKETS;

			while (lo < hi && !h[lo])
				lo++;
			while (hi > lo && !h[hi - 1])
				hi--;
			t->op[k].hist = malloc((hi > lo ? hi - lo : 1) * sizeof(*h));
			if (!t->op[k].hist)
				return -ENOMEM;
			memcpy(t->op[k].hist, h + lo, (hi - lo) * sizeof(*h));
			t->op[k].hist_lo = lo;
			t->op[k].hist_n = hi - lo;
		}
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		for (unsigned q = 0; q < NV_TAN_NQD; q++) {
			struct nv_tan_qd *d;

			if (!st->qx[k][q] || !nv_exact_count(st->qx[k][q]))
				continue;
			d = realloc(t->qd, (t->nqd + 1) * sizeof(*d));
			if (!d)
				return -ENOMEM;
			t->qd = d;
			d = &t->qd[t->nqd++];
			d->op = k;
			nv_tan_qd_range(q, &d->qd_lo, &d->qd_hi);
			tan_latsum(st->qx[k][q], 0, &d->lat);
		}
	return 0;
}

static uint64_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (uint64_t)sb.st_size;
}

int nv_tan_run(const char *const *paths, size_t n, const struct nv_tan_opts *o, struct nv_tan *t,
	       char *err, size_t errlen)
{
	struct state st = {
		.t = t, .o = o, .paths = paths, .npaths = n, .err = err, .errlen = errlen,
		.footers_known = true
	};
	struct src *s = calloc(n ? n : 1, sizeof(*s));
	bool spikes;
	int ret, more;

	if (errlen)
		err[0] = 0;
	nv_opstats_init(&st.ops);
	nv_opstats_set_extra(&st.ops, o->levels,
			     o->nlevels < NV_PCTL_MAX ? o->nlevels : NV_PCTL_MAX);
	memset(t, 0, sizeof(*t));
	t->interval_ns = o->interval_ns ? o->interval_ns : 1000000000ull;
	t->nedges = o->nedges < NV_TAN_MAXEDGES ? o->nedges : NV_TAN_MAXEDGES;
	memcpy(t->edges, o->edges, t->nedges * sizeof(t->edges[0]));
	t->nlevels = st.ops.nextra;
	memcpy(t->levels, o->levels, t->nlevels * sizeof(t->levels[0]));
	if (!s) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		st.total_bytes += file_size(paths[i]);

	st.workers = o->workers;
	ret = n > 1 ? tan_pass1_split(&st) : tan_pass1(&st, s);
	for (size_t i = 0; i < n; i++)
		nvt_reader_close(s[i].r);
	free(s);
	if (!ret)
		ret = tan_fold_exact(&st);
	if (!ret && st.npend)
		ret = tan_series_pass(&st);
	if (!ret)
		ret = tan_plan_spikes(&st);
	spikes = !ret && tan_any_spiky(&st);
	more = ret ? 0 : end_pass(&st);
	st.pass = t->passes = st.pass + 1;	/* 2 after tan_series_pass */
	st.pass1_records = st.pass_records;
	while (!ret && (more > 0 || spikes)) {
		st.done_bytes = 0;
		st.pass_records = 0;
		st.seeking = more <= 0;
		if (more > 0) {
			ret = later_pass(&st, spikes);
		} else {
			ret = tan_spike_pass(&st);
		}
		spikes = false;
		st.pass++;
		if (!ret && more > 0)
			more = end_pass(&st);
		else
			more = 0;
		if (more < 0) {
			snprintf(err, errlen, "%s%s: the traces changed while they were "
				 "being read", paths[0], n > 1 ? " ..." : "");
			ret = more;
		}
	}
	t->passes = st.pass;
	tan_progress(&st, NULL, true);
	if (!ret && ((ret = tan_build_spikes(&st)) || (ret = collect(&st))))
		snprintf(err, errlen, "out of memory");
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		tan_ibuf_free(&st.ib[k]);
		free(st.cutx[k]);
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			nv_exact_free(st.qx[k][q]);
	}
	nv_opstats_free(&st.ops);
	free(st.slow);
	free(st.cand);
	free(st.scratch);
	free(st.hall);
	free(st.pend);
	free(st.drop);
	for (unsigned k = 0; k < NV_TAN_NOPS; k++)
		for (unsigned r = 0; r < 3; r++)
			free(st.col[k][r]);
	if (ret)
		nv_tan_free(t);
	return ret;
}

void nv_tan_free(struct nv_tan *t)
{
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		free(t->series[k]);
		free(t->op[k].hist);
	}
	free(t->qd);
	free(t->spikes);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	memset(t, 0, sizeof(*t));
}
