/*
 * trace_series.c - nv_tan_run's pass 1 (trace_tan.h): the traces merged by
 * completion time (one block per trace held), the intervals closed as
 * completion time moves past them (exact p50/p99/p99.9/max of the held
 * latencies), the totals, --buckets, and the pass-1 state of the exact
 * percentiles per operation and queue-depth class.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

static int grow_series(struct state *st, size_t need)
{
	size_t ncap = st->cap ? st->cap : 64;

	while (ncap < need)
		ncap *= 2;
	if (ncap == st->cap)
		return 0;
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		struct nv_tan_point *p;

		if (!st->t->series[k])
			continue;
		p = realloc(st->t->series[k], ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + st->cap, 0, (ncap - st->cap) * sizeof(*p));
		st->t->series[k] = p;
	}
	st->cap = ncap;
	return 0;
}

/* The first record of a new operation: its series and exact state. */
static int start_op(struct state *st, unsigned op)
{
	struct nv_tan *t = st->t;

	if (!st->cap)
		st->cap = 64;
	for (unsigned k = 0; k < 2; k++) {
		unsigned i = k ? NV_TAN_ALL : op;

		if (t->series[i])
			continue;
		t->series[i] = calloc(st->cap, sizeof(*t->series[i]));
		if (!t->series[i])
			return -ENOMEM;
	}
	return 0;
}

static int ibuf_push(struct ibuf *b, uint64_t v, uint32_t len, uint64_t complete)
{
	unsigned h = nv_exact_bucket_of(v);

	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		uint64_t *nv = realloc(b->v, nc * sizeof(*nv)), *nc2;

		if (!nv)
			return -ENOMEM;
		b->v = nv;
		nc2 = realloc(b->cpl, nc * sizeof(*nc2));
		if (!nc2)
			return -ENOMEM;
		b->cpl = nc2;
		b->cap = nc;
		if (!b->hist && !(b->hist = calloc(NV_EXACT_NBUCKETS, sizeof(*b->hist))))
			return -ENOMEM;
	}
	if (!b->n || h < b->hlo)
		b->hlo = h;
	if (!b->n || h > b->hhi)
		b->hhi = h;
	b->hist[h]++;
	b->cpl[b->n] = complete;
	b->v[b->n++] = v;
	b->bytes += len;
	if (v > b->max)
		b->max = v;
	return 0;
}

/* The values held for one interval: nb buffers, their counts summed in h (nonzero in [lo, hi]). */
struct held {
	struct ibuf *const *b;
	unsigned nb;
	const uint64_t *h;
	unsigned lo, hi;
};

/*
 * The k-th smallest (0-based) of the held values: the bucket holding rank k
 * found by the counts, then a selection among that bucket's values only,
 * copied into st->scratch (b->v keeps its order).
 * Return: 0 with *out, or -ENOMEM.
 */
static int held_kth(struct state *st, const struct held *hd, uint64_t k, uint64_t *out)
{
	unsigned bk = hd->lo;
	uint64_t below = 0, lo, hi;
	size_t m = 0;

	while (bk < hd->hi && below + hd->h[bk] <= k)
		below += hd->h[bk++];
	if (hd->h[bk] > st->scratchcap) {
		uint64_t *n = realloc(st->scratch, hd->h[bk] * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->scratch = n;
		st->scratchcap = hd->h[bk];
	}
	nv_exact_bucket_range(bk, &lo, &hi);
	for (unsigned j = 0; j < hd->nb; j++)
		for (size_t i = 0; i < hd->b[j]->n; i++)
			if (hd->b[j]->v[i] >= lo && hd->b[j]->v[i] <= hi)
				st->scratch[m++] = hd->b[j]->v[i];
	*out = nv_select_kth(st->scratch, m, k - below);
	return 0;
}

/*
 * Exact p50/p99/p99.9/max of the held values into p: each rank a bucket
 * found by the counts and a selection among its values (a bucket holds at
 * most 1/256 of a power of two), about one compare per value and rank.
 * Return: 0 or -ENOMEM.
 */
static int reduce(struct state *st, const struct held *hd, struct nv_tan_point *p)
{
	size_t n = 0;
	int err;

	memset(p, 0, sizeof(*p));
	for (unsigned j = 0; j < hd->nb; j++) {
		n += hd->b[j]->n;
		p->bytes += hd->b[j]->bytes;
		if (hd->b[j]->max > p->max)
			p->max = hd->b[j]->max;
	}
	p->ios = n;
	if (!n)
		return 0;
	if ((err = held_kth(st, hd, nv_exact_rank(50, n) - 1, &p->p50)) ||
	    (err = held_kth(st, hd, nv_exact_rank(99, n) - 1, &p->p99)) ||
	    (err = held_kth(st, hd, nv_exact_rank(99.9, n) - 1, &p->p999)))
		return err;
	return 0;
}

/* Keep op k's IOs of the closing interval at or above its p99.9. */
static int keep_candidates(struct state *st, unsigned k, uint64_t p999)
{
	const struct ibuf *b = &st->ib[k];

	for (size_t i = 0; i < b->n && !st->cand_overflow; i++) {
		if (b->v[i] < p999)
			continue;
		if (st->ncand == st->candcap) {
			size_t nc = st->candcap ? st->candcap * 2 : 1024;
			struct slow *n;

			if (nc > MAX_CANDIDATES) {
				st->cand_overflow = true; /* the slow IOs will be read again */
				break;
			}
			n = realloc(st->cand, nc * sizeof(*n));
			if (!n)
				return -ENOMEM;
			st->cand = n;
			st->candcap = nc;
		}
		st->cand[st->ncand++] = (struct slow){ b->cpl[i] - b->v[i], b->cpl[i], k };
	}
	return 0;
}

/* Reduce op k's buffer into p and keep its candidates.  Return: 0 or -ENOMEM. */
static int reduce_op(struct state *st, unsigned k, struct nv_tan_point *p)
{
	struct ibuf *b = &st->ib[k];
	struct held hd = { &b, 1, b->hist, b->hlo, b->hhi };
	int err;

	if (!b->n) {
		memset(p, 0, sizeof(*p));
		return 0;
	}
	if ((err = reduce(st, &hd, p)))
		return err;
	return keep_candidates(st, k, p->p999);
}

/*
 * The all-operations point of a mixed interval: bufs[0..nb) (nb > 1), their
 * counts summed into st->hall over the buckets they use.
 * Return: 0 or -ENOMEM.
 */
static int reduce_all(struct state *st, struct ibuf *const *bufs, unsigned nb,
		      struct nv_tan_point *p)
{
	struct held hd = { bufs, nb, NULL, bufs[0]->hlo, bufs[0]->hhi };
	int err;

	if (!st->hall && !(st->hall = calloc(NV_EXACT_NBUCKETS, sizeof(*st->hall))))
		return -ENOMEM;
	for (unsigned j = 0; j < nb; j++) {
		hd.lo = bufs[j]->hlo < hd.lo ? bufs[j]->hlo : hd.lo;
		hd.hi = bufs[j]->hhi > hd.hi ? bufs[j]->hhi : hd.hi;
		for (unsigned h = bufs[j]->hlo; h <= bufs[j]->hhi; h++)
			st->hall[h] += bufs[j]->hist[h];
	}
	hd.h = st->hall;
	err = reduce(st, &hd, p);
	memset(st->hall + hd.lo, 0, (hd.hi - hd.lo + 1) * sizeof(*st->hall));
	return err;
}

/*
 * Close the open interval: series[k][st->cur] for every operation; the
 * all-operations point is a copy when one operation had every IO.
 * Return: 0 or -ENOMEM.
 */
static int close_interval(struct state *st)
{
	struct ibuf *bufs[NVT_OP__MAX];
	unsigned nb = 0;
	int only = -1, err = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		if (!st->t->series[k] || !st->ib[k].n)
			continue;
		bufs[nb++] = &st->ib[k];
		only = (int)k;
	}
	for (unsigned k = 0; k < NVT_OP__MAX && !err; k++)
		if (st->t->series[k])
			err = reduce_op(st, k, &st->t->series[k][st->cur]);
	if (!err && st->t->series[NV_TAN_ALL]) {
		if (nb == 1)
			st->t->series[NV_TAN_ALL][st->cur] = st->t->series[only][st->cur];
		else if (nb > 1)
			err = reduce_all(st, bufs, nb, &st->t->series[NV_TAN_ALL][st->cur]);
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		struct ibuf *b = &st->ib[k];

		if (b->n)
			memset(b->hist + b->hlo, 0, (b->hhi - b->hlo + 1) * sizeof(*b->hist));
		b->n = 0;
		b->bytes = 0;
		b->max = 0;
	}
	return err;
}

/* --buckets: count an IO of op with latency lat in its bucket (and in all). */
static void count_bucket(struct nv_tan *t, unsigned op, uint64_t lat)
{
	size_t b = 0;

	while (b < t->nedges && lat >= t->edges[b])
		b++;
	t->bucket[op][b]++;
	t->bucket[NV_TAN_ALL][b]++;
}

/*
 * Pass 1's series and totals of record i of s's block, in completion order
 * (its exact states: tan_feed_exact).  An interval is closed when a record
 * completes past its end; a record that completes before the open interval
 * (out of order) joins it.
 * Return: 0 or -ENOMEM.
 */
static int pass1_record(struct state *st, const struct nvt_cols *c, size_t i)
{
	struct nv_tan *t = st->t;
	uint64_t lat = c->latency_ns[i], cpl = c->complete_ns[i];
	unsigned op = c->op[i];
	struct nv_tan_op *o = &t->op[op];
	int err;

	if (!st->any) {
		st->any = true;
		t->t0 = cpl - lat;
		st->next_ns = t->interval_ns;
	}
	if (!t->series[op] && (err = start_op(st, op)))
		return err;
	if (cpl - t->t0 >= st->next_ns) {	/* past the open interval: the division */
		size_t idx = (size_t)((cpl - t->t0) / t->interval_ns);

		if (idx >= st->cap && (err = grow_series(st, idx + 1)))
			return err;
		while (st->cur < idx) {
			if ((err = close_interval(st)))
				return err;
			st->cur++;
		}
		st->next_ns = (uint64_t)(st->cur + 1) * t->interval_ns;
	}
	if ((err = ibuf_push(&st->ib[op], lat, c->length[i], cpl)))
		return err;
	o->records++;
	o->bytes += c->length[i];
	o->errors += c->status[i] != 0;
	if (t->nedges)
		count_bucket(t, op, lat);
	if (cpl - t->t0 > t->span_ns)
		t->span_ns = cpl - t->t0;
	return 0;
}

/*
 * Records [a, b) of s's block, in completion order: the ramp's counted, the
 * others into the series and the exact states.
 * Return: 0, -ENOMEM or -EINVAL.
 */
static int pass1_run(struct state *st, struct src *s, size_t a, size_t b)
{
	int err;

	while (a < b) {
		size_t e = tan_counted_run(st, s, &a, b);

		for (size_t i = a; i < e; i++)
			if ((err = pass1_record(st, s->c, i)))
				return err;
		if ((err = tan_feed_exact(st, s, a, e)))
			return err;
		a = e;
	}
	return 0;
}

/*
 * The merge: the trace whose next record completes first (ties: the lower
 * index) in best, and the end of the run of its records the merge takes
 * before another trace's (below the heads of the traces before it, at or
 * below those after it), in *end.
 * Return: best, or NULL when every trace is done.
 */
static struct src *next_run(struct state *st, struct src *s, size_t *end)
{
	struct src *best = NULL;
	uint64_t lo = 0, hi = UINT64_MAX, h;
	bool any_lo = false;
	size_t e;

	for (size_t i = 0; i < st->npaths; i++)
		if (!s[i].done && (!best || s[i].c->complete_ns[s[i].i] <
					     best->c->complete_ns[best->i]))
			best = &s[i];
	if (!best)
		return NULL;
	for (size_t i = 0; i < st->npaths; i++) {
		if (s[i].done || &s[i] == best)
			continue;
		h = s[i].c->complete_ns[s[i].i];
		if (&s[i] < best && (!any_lo || h < lo)) {
			lo = h;
			any_lo = true;
		} else if (&s[i] > best && h < hi) {
			hi = h;
		}
	}
	for (e = best->i + 1; e < best->n; e++) {
		h = best->c->complete_ns[e];
		if ((any_lo && h >= lo) || h > hi)
			break;
	}
	*end = e;
	return best;
}

/* Pass 1 over the merged traces. */
int tan_pass1(struct state *st, struct src *s)
{
	struct src *best;
	size_t end;
	int err = 0;

	for (size_t i = 0; i < st->npaths; i++) {
		s[i].want = NVT_COL_LATENCY | NVT_COL_OP | NVT_COL_LENGTH | NVT_COL_STATUS |
			    NVT_COL_QD;
		if ((err = tan_open_src(st, i, &s[i])) || (err = tan_src_next(st, &s[i])))
			return err;
	}
	while ((best = next_run(st, s, &end))) {
		if ((err = pass1_run(st, best, best->i, end))) {
			if (err == -ENOMEM)
				snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			return err;
		}
		best->i = end;
		if (best->i == best->n && (err = tan_src_next(st, best)))
			return err;
	}
	if (st->any) {
		if ((err = close_interval(st))) {
			snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			return err;
		}
		st->t->nint = st->cur + 1;
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		st->t->op[NV_TAN_ALL].records += st->t->op[k].records;
		st->t->op[NV_TAN_ALL].bytes += st->t->op[k].bytes;
		st->t->op[NV_TAN_ALL].errors += st->t->op[k].errors;
	}
	st->t->records = st->t->op[NV_TAN_ALL].records;
	return 0;
}
