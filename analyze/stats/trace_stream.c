/*
 * trace_stream.c - one job's traces analyzed as they grow (trace_stream.h):
 * pass 1 of nv_tan_run (trace_series.c) driven a block at a time by
 * tan_merge_ready, each closed interval handed out from its on_close hook.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/trace_stream.h"
#include "analyze/stats/trace_tan.h"

#define NV_TAN_MAXLE 32		/* histogram edges at most */

struct nv_tan_stream {
	struct nv_tan_stream_opts o;
	struct nv_tan_opts to;	/* what pass 1 reads of nv_tan_run's options */
	struct nv_tan t;
	struct state st;
	struct src *s;
	char **paths;
	size_t n, cap;
	uint64_t pos;		/* the completion time the merge reached */
	bool begun, ending, ended;
	uint64_t le_op[NV_TAN_MAXLE + 1], le_all[NV_TAN_MAXLE + 1];
	uint64_t *hist_all;	/* the ops' bucket counts summed, [NV_EXACT_NBUCKETS] */
	char err[512];
};

int nv_tan_stream_new(struct nv_tan_stream **tsp, const struct nv_tan_stream_opts *o)
{
	struct nv_tan_stream *ts;

	*tsp = NULL;
	if (o->nle > NV_TAN_MAXLE || (o->nle && !o->le_ns))
		return -EINVAL;
	if (!(ts = calloc(1, sizeof(*ts))))
		return -ENOMEM;
	ts->o = *o;
	ts->to.interval_ns = o->interval_ns ? o->interval_ns : 1000000000ull;
	ts->t.interval_ns = ts->to.interval_ns;
	nv_opstats_init(&ts->st.ops);
	ts->st.t = &ts->t;
	ts->st.o = &ts->to;
	ts->st.err = ts->err;
	ts->st.errlen = sizeof(ts->err);
	*tsp = ts;
	return 0;
}

/* Hand out op k's point of interval i (le and lat_sum from its buffer, or
 * summed over the operations for the all entry).  Return: fn's. */
static int hand_out(struct nv_tan_stream *ts, unsigned k, size_t i)
{
	struct state *st = &ts->st;
	struct nv_tan_closed c = { .last = ts->ending };

	int err;

	nv_tan_iv_of(&ts->t, k, i, &c.iv);
	if (k < NVT_OP__MAX) {
		c.lat_sum_ns = st->ib[k].lat_sum;
		if (ts->o.le_ns) {
			tan_ibuf_le(&st->ib[k], ts->o.le_ns, ts->o.nle, ts->le_op);
			c.le = ts->le_op;
		}
		c.hist = st->ib[k].ios ? st->ib[k].hist : NULL;
		c.hist_lo = st->ib[k].hlo;
		c.hist_hi = st->ib[k].hhi;
		return ts->o.fn ? ts->o.fn(ts->o.arg, &ts->t, &c) : 0;
	}
	if (!ts->hist_all && !(ts->hist_all = calloc(NV_EXACT_NBUCKETS, sizeof(uint64_t))))
		return -ENOMEM;
	memset(ts->le_all, 0, sizeof(ts->le_all));
	c.hist_lo = UINT32_MAX;
	for (unsigned j = 0; j < NVT_OP__MAX; j++) {
		const struct ibuf *b = &st->ib[j];

		if (!ts->t.series[j] || !b->ios)
			continue;
		c.lat_sum_ns += b->lat_sum;
		if (ts->o.le_ns) {
			tan_ibuf_le(b, ts->o.le_ns, ts->o.nle, ts->le_op);
			for (unsigned e = 0; e <= ts->o.nle; e++)
				ts->le_all[e] += ts->le_op[e];
		}
		for (unsigned h = b->hlo; h <= b->hhi; h++)
			ts->hist_all[h] += b->hist[h];
		c.hist_lo = b->hlo < c.hist_lo ? b->hlo : c.hist_lo;
		c.hist_hi = b->hhi > c.hist_hi ? b->hhi : c.hist_hi;
	}
	c.le = ts->o.le_ns ? ts->le_all : NULL;
	c.hist = c.iv.ios ? ts->hist_all : NULL;
	err = ts->o.fn ? ts->o.fn(ts->o.arg, &ts->t, &c) : 0;
	if (c.iv.ios)
		memset(ts->hist_all + c.hist_lo, 0,
		       (c.hist_hi - c.hist_lo + 1) * sizeof(uint64_t));
	return err;
}

/* pass 1's on_close: interval st->cur is final.  Return: 0 or fn's error. */
static int on_close(struct state *st)
{
	struct nv_tan_stream *ts = st->hook_arg;
	unsigned nops = 0;
	int err = 0;

	/* nv_tan_iv_of's lengths: another interval follows unless ending */
	ts->t.nint = st->cur + (ts->ending ? 1 : 2);
	for (unsigned k = 0; k < NVT_OP__MAX && !err; k++)
		if (ts->t.series[k]) {
			nops++;
			err = hand_out(ts, k, st->cur);
		}
	if (!err && nops > 1)
		err = hand_out(ts, NV_TAN_ALL, st->cur);
	st->ncand = 0;	/* the spike episodes are the post-run analysis's */
	return err;
}

/* The merge's run_fn: pass 1's, the position kept. */
static int stream_run(struct state *st, struct src *s, size_t a, size_t b)
{
	struct nv_tan_stream *ts = st->hook_arg;

	if (b > a && s->c->complete_ns[b - 1] > ts->pos)
		ts->pos = s->c->complete_ns[b - 1];
	return tan_pass1_run(st, s, a, b);
}

int nv_tan_stream_add(struct nv_tan_stream *ts, const char *path, char *err, size_t errlen)
{
	size_t i = ts->n;
	int ret;

	if (ts->ended) {
		snprintf(err, errlen, "%s: the job's other traces have ended", path);
		return -EALREADY;
	}
	if (ts->n == ts->cap) {
		size_t nc = ts->cap ? ts->cap * 2 : 8;
		char **p = realloc(ts->paths, nc * sizeof(*p));
		struct src *s;

		if (!p)
			goto oom;
		ts->paths = p;
		if (!(s = realloc(ts->s, nc * sizeof(*s))))
			goto oom;
		ts->s = s;
		ts->cap = nc;
	}
	if (!(ts->paths[i] = strdup(path)))
		goto oom;
	memset(&ts->s[i], 0, sizeof(ts->s[i]));
	ts->st.paths = (const char *const *)ts->paths;
	ts->st.npaths = i + 1;
	ts->s[i].want = TAN_PASS1_COLS;
	ts->err[0] = 0;
	ret = tan_open_src(&ts->st, i, &ts->s[i]);
	if (!ret && (ret = nvt_reader_follow(ts->s[i].r, true)))
		snprintf(ts->err, sizeof(ts->err), "%s: not a regular file: cannot follow it",
			 path);
	if (ret) {
		snprintf(err, errlen, "%s", ts->err);
		nvt_reader_close(ts->s[i].r);
		free(ts->paths[i]);
		ts->st.npaths = i;
		return ret;
	}
	ts->n = i + 1;
	return 0;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
	return -ENOMEM;
}

int nv_tan_stream_step(struct nv_tan_stream *ts, size_t *need, char *err, size_t errlen)
{
	struct state *st = &ts->st;
	int ret;

	if (ts->ended)
		return 0;
	if (!ts->n) {
		*need = 0;
		return 1;
	}
	if (!ts->begun) {
		tan_pass1_begin(st);
		st->vcap = SIZE_MAX;	/* never spill: no second read of a live file */
		st->on_close = on_close;
		st->hook_arg = ts;
		ts->begun = true;
	}
	ts->err[0] = 0;
	for (;;) {
		ret = tan_merge_ready(st, ts->s, stream_run, need);
		if (ret == 1) {
			ret = tan_src_next(st, &ts->s[*need]);
			if (ret == -EAGAIN)
				return 1;
			if (!ret)
				continue;
		}
		if (!ret) {
			ts->ending = true;
			ret = tan_pass1_end(st);
			ts->ended = !ret;
		}
		if (ret && !ts->err[0])
			snprintf(ts->err, sizeof(ts->err), "%s: %s", ts->paths[0], strerror(-ret));
		if (ret)
			snprintf(err, errlen, "%s", ts->err);
		return ret;
	}
}

int nv_tan_stream_exact(struct nv_tan_stream *ts)
{
	struct state *st = &ts->st;
	int more;

	if (!ts->ended)
		return 0;
	if (tan_fold_exact(st))
		return -ENOMEM;
	if ((more = nv_opstats_end_pass(&st->ops)) != 0)
		return more < 0 ? -ENOMEM : 0;
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		const struct nv_exact *e = nv_opstats_get(&st->ops, k);

		if (e)
			tan_latsum(e, st->ops.nextra, &ts->t.op[k].lat);
	}
	return 1;
}

void nv_tan_stream_cut(struct nv_tan_stream *ts, size_t i)
{
	if (i < ts->n) {
		ts->s[i].done = true;
		ts->s[i].i = ts->s[i].n;
	}
}

const struct nv_tan *nv_tan_stream_tan(const struct nv_tan_stream *ts)
{
	return &ts->t;
}

size_t nv_tan_stream_ntraces(const struct nv_tan_stream *ts)
{
	return ts->n;
}

bool nv_tan_stream_begun(const struct nv_tan_stream *ts)
{
	return ts->st.any;
}

uint64_t nv_tan_stream_pos(const struct nv_tan_stream *ts)
{
	return ts->pos;
}

struct nvt_reader *nv_tan_stream_reader(const struct nv_tan_stream *ts, size_t i)
{
	return i < ts->n ? ts->s[i].r : NULL;
}

bool nv_tan_stream_ended(const struct nv_tan_stream *ts, size_t i)
{
	return i < ts->n && ts->s[i].done;
}

uint64_t nv_tan_hist_rank(const uint64_t *h, unsigned lo, unsigned hi, uint64_t k)
{
	uint64_t below, blo, bhi;

	nv_exact_bucket_range(tan_rank_bucket(h, lo, hi, k, &below), &blo, &bhi);
	return bhi;
}

void nv_tan_stream_free(struct nv_tan_stream *ts)
{
	if (!ts)
		return;
	free(ts->hist_all);
	for (size_t i = 0; i < ts->n; i++) {
		nvt_reader_close(ts->s[i].r);
		free(ts->paths[i]);
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		tan_ibuf_free(&ts->st.ib[k]);
		free(ts->st.cutx[k]);
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			nv_exact_free(ts->st.qx[k][q]);
	}
	nv_opstats_free(&ts->st.ops);
	free(ts->st.cand);
	free(ts->st.scratch);
	free(ts->st.hall);
	free(ts->st.pend);
	nv_tan_free(&ts->t);
	free(ts->s);
	free(ts->paths);
	free(ts);
}
