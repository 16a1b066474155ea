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

/* Hold v (and its completion time) in b while the open interval holds
 * fewer than st->vcap values, else the interval spills (counts only).
 * Return: 0 or -ENOMEM. */
static int ibuf_hold(struct state *st, struct ibuf *b, uint64_t v, uint64_t complete)
{
	if (st->held >= st->vcap)
		st->spilled = true;
	if (st->spilled)
		return 0;
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		uint64_t *nv, *nc2;

		if (nc > st->vcap)
			nc = st->vcap;	/* > b->cap: b->n <= st->held < st->vcap */
		nv = realloc(b->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		b->v = nv;
		nc2 = realloc(b->cpl, nc * sizeof(*nc2));
		if (!nc2)
			return -ENOMEM;
		b->cpl = nc2;
		b->cap = nc;
	}
	b->cpl[b->n] = complete;
	b->v[b->n++] = v;
	st->held++;
	return 0;
}

/* Count an IO of the open interval in b, held while under the cap.  Return: 0 or -ENOMEM. */
static int ibuf_push(struct state *st, struct ibuf *b, uint64_t v, uint32_t len,
		     uint64_t complete)
{
	unsigned h = nv_exact_bucket_of(v);
	int err;

	if (!b->hist && !(b->hist = calloc(NV_EXACT_NBUCKETS, sizeof(*b->hist))))
		return -ENOMEM;
	if ((err = ibuf_hold(st, b, v, complete)))
		return err;
	if (!b->ios || h < b->hlo)
		b->hlo = h;
	if (!b->ios || h > b->hhi)
		b->hhi = h;
	b->hist[h]++;
	b->ios++;
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

/* Return: the bucket of hd's counts holding the k-th smallest (0-based), the
 * values in the buckets below it in *below. */
static unsigned rank_bucket(const struct held *hd, uint64_t k, uint64_t *below)
{
	unsigned bk = hd->lo;

	*below = 0;
	while (bk < hd->hi && *below + hd->h[bk] <= k)
		*below += hd->h[bk++];
	return bk;
}

/*
 * The k-th smallest (0-based) of the held values: the bucket holding rank k
 * found by the counts, then a selection among that bucket's values only,
 * copied into st->scratch (b->v keeps its order).  A spilled interval's
 * bucket and rank within it into *pr instead (*out untouched).
 * Return: 0 with *out, or -ENOMEM.
 */
static int held_kth(struct state *st, const struct held *hd, uint64_t k, uint64_t *out,
		    struct pend_rank *pr)
{
	uint64_t below, lo, hi;
	unsigned bk = rank_bucket(hd, k, &below);
	size_t m = 0;

	if (pr) {
		*pr = (struct pend_rank){ bk, k - below };
		return 0;
	}
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
static int reduce(struct state *st, const struct held *hd, struct nv_tan_point *p,
		  struct pend_rank *pr)
{
	size_t n = 0;
	int err;

	memset(p, 0, sizeof(*p));
	for (unsigned j = 0; j < hd->nb; j++) {
		n += hd->b[j]->ios;
		p->bytes += hd->b[j]->bytes;
		if (hd->b[j]->max > p->max)
			p->max = hd->b[j]->max;
	}
	p->ios = n;
	if (!n)
		return 0;
	if ((err = held_kth(st, hd, nv_exact_rank(50, n) - 1, &p->p50, pr)) ||
	    (err = held_kth(st, hd, nv_exact_rank(99, n) - 1, &p->p99, pr ? pr + 1 : NULL)) ||
	    (err = held_kth(st, hd, nv_exact_rank(99.9, n) - 1, &p->p999, pr ? pr + 2 : NULL)))
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

/* Reduce op k's buffer into p and keep its candidates (a spilled interval:
 * its ranks into pr, the slow IOs read again).  Return: 0 or -ENOMEM. */
static int reduce_op(struct state *st, unsigned k, struct nv_tan_point *p,
		     struct pend_rank *pr)
{
	struct ibuf *b = &st->ib[k];
	struct held hd = { &b, 1, b->hist, b->hlo, b->hhi };
	int err;

	if (!b->ios) {
		memset(p, 0, sizeof(*p));
		return 0;
	}
	if ((err = reduce(st, &hd, p, pr)))
		return err;
	if (pr) {
		st->cand_overflow = true;
		return 0;
	}
	return keep_candidates(st, k, p->p999);
}

/*
 * The all-operations point of a mixed interval: bufs[0..nb) (nb > 1), their
 * counts summed into st->hall over the buckets they use.
 * Return: 0 or -ENOMEM.
 */
static int reduce_all(struct state *st, struct ibuf *const *bufs, unsigned nb,
		      struct nv_tan_point *p, struct pend_rank *pr)
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
	err = reduce(st, &hd, p, pr);
	memset(st->hall + hd.lo, 0, (hd.hi - hd.lo + 1) * sizeof(*st->hall));
	return err;
}

/* A new entry of st->pend for the open interval (zeroed).  Return: it, or NULL. */
static struct pend *new_pend(struct state *st)
{
	if (st->npend == st->pendcap) {
		size_t nc = st->pendcap ? st->pendcap * 2 : 16;
		struct pend *n = realloc(st->pend, nc * sizeof(*n));

		if (!n)
			return NULL;
		st->pend = n;
		st->pendcap = nc;
	}
	memset(&st->pend[st->npend], 0, sizeof(st->pend[0]));
	st->pend[st->npend].iv = st->cur;
	return &st->pend[st->npend++];
}

/*
 * Close the open interval: series[k][st->cur] for every operation; the
 * all-operations point is a copy when one operation had every IO.  A
 * spilled interval's p50/p99/p99.9 wait for tan_series_pass (st->pend).
 * Return: 0 or -ENOMEM.
 */
static int close_interval(struct state *st)
{
	struct ibuf *bufs[NVT_OP__MAX];
	struct pend *pd = NULL;
	unsigned nb = 0;
	int only = -1, err = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		if (!st->t->series[k] || !st->ib[k].ios)
			continue;
		bufs[nb++] = &st->ib[k];
		only = (int)k;
	}
	if (st->spilled && !(pd = new_pend(st)))
		return -ENOMEM;
	if (pd)
		pd->only = nb == 1 ? only : -1;
	for (unsigned k = 0; k < NVT_OP__MAX && !err; k++)
		if (st->t->series[k])
			err = reduce_op(st, k, &st->t->series[k][st->cur], pd ? pd->r[k] : NULL);
	if (!err && st->t->series[NV_TAN_ALL]) {
		if (nb == 1)
			st->t->series[NV_TAN_ALL][st->cur] = st->t->series[only][st->cur];
		else if (nb > 1)
			err = reduce_all(st, bufs, nb, &st->t->series[NV_TAN_ALL][st->cur],
					 pd ? pd->r[NV_TAN_ALL] : NULL);
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		struct ibuf *b = &st->ib[k];

		if (b->ios)
			memset(b->hist + b->hlo, 0, (b->hhi - b->hlo + 1) * sizeof(*b->hist));
		b->n = b->ios = 0;
		b->bytes = 0;
		b->max = 0;
	}
	st->held = 0;
	st->spilled = false;
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
	if ((err = ibuf_push(st, &st->ib[op], lat, c->length[i], cpl)))
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

typedef int run_fn(struct state *st, struct src *s, size_t a, size_t b);

/*
 * The traces s[0..npaths) opened (columns want) and merged by completion
 * time, each run of one trace's records handed to run, in the same order
 * every time.  Return: 0 or -errno (st->err set).
 */
static int merge(struct state *st, struct src *s, unsigned want, run_fn *run)
{
	struct src *best;
	size_t end;
	int err = 0;

	for (size_t i = 0; i < st->npaths; i++) {
		s[i].want = want;
		if ((err = tan_open_src(st, i, &s[i])) || (err = tan_src_next(st, &s[i])))
			return err;
	}
	while ((best = next_run(st, s, &end))) {
		if ((err = run(st, best, best->i, end))) {
			if (err == -ENOMEM)
				snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			return err;
		}
		best->i = end;
		if (best->i == best->n && (err = tan_src_next(st, best)))
			return err;
	}
	return 0;
}

/* Return: the values held per interval: NVANALYZE_SERIES_CAP (tests: a small
 * cap makes intervals spill), else SERIES_VCAP. */
static size_t series_vcap(void)
{
	const char *e = getenv("NVANALYZE_SERIES_CAP");
	unsigned long long v = e ? strtoull(e, NULL, 10) : 0;

	return v ? (size_t)v : SERIES_VCAP;
}

/* Pass 1 over the merged traces. */
int tan_pass1(struct state *st, struct src *s)
{
	int err;

	st->vcap = series_vcap();
	if ((err = merge(st, s, NVT_COL_LATENCY | NVT_COL_OP | NVT_COL_LENGTH | NVT_COL_STATUS |
				       NVT_COL_QD, pass1_run)))
		return err;
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

/* Keep v for rank r of slot k.  Return: 0 or -ENOMEM. */
static int col_push(struct state *st, unsigned k, unsigned r, uint64_t v)
{
	if (st->ncol[k][r] == st->colcap[k][r]) {
		size_t nc = st->colcap[k][r] ? st->colcap[k][r] * 2 : 1024;
		uint64_t *n = realloc(st->col[k][r], nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->col[k][r] = n;
		st->colcap[k][r] = nc;
	}
	st->col[k][r][st->ncol[k][r]++] = v;
	return 0;
}

/* A value of op in spilled interval pd: kept where it falls in a wanted bucket.
 * Return: 0 or -ENOMEM. */
static int pend_value(struct state *st, const struct pend *pd, unsigned op, uint64_t v)
{
	unsigned h = nv_exact_bucket_of(v);
	int err;

	for (unsigned x = 0; x < 2 && !(x && pd->only >= 0); x++) {
		unsigned k = x ? NV_TAN_ALL : op;

		for (unsigned r = 0; r < 3; r++)
			if (pd->r[k][r].bk == h && (err = col_push(st, k, r, v)))
				return err;
	}
	return 0;
}

/* Spilled interval pd's p50/p99/p99.9 selected among its kept values.
 * Return: 0, or -EINVAL when the traces changed since pass 1. */
static int pend_resolve(struct state *st, const struct pend *pd)
{
	struct nv_tan_point *p;

	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		uint64_t *out[3];

		if (!st->t->series[k] || (k == NV_TAN_ALL && pd->only >= 0))
			continue;
		p = &st->t->series[k][pd->iv];
		out[0] = &p->p50, out[1] = &p->p99, out[2] = &p->p999;
		for (unsigned r = 0; r < 3 && p->ios; r++) {
			if (pd->r[k][r].k >= st->ncol[k][r])
				return -EINVAL;
			*out[r] = nv_select_kth(st->col[k][r], st->ncol[k][r], pd->r[k][r].k);
		}
		memset(st->ncol[k], 0, sizeof(st->ncol[k]));
	}
	if (pd->only >= 0 && st->t->series[NV_TAN_ALL])
		st->t->series[NV_TAN_ALL][pd->iv] = st->t->series[pd->only][pd->iv];
	return 0;
}

/* Move to interval idx, resolving the spilled ones passed.  Return: 0 or -EINVAL. */
static int series_move(struct state *st, size_t idx)
{
	int err;

	while (st->cur < idx) {
		if (st->pi < st->npend && st->pend[st->pi].iv == st->cur) {
			if ((err = pend_resolve(st, &st->pend[st->pi])))
				return err;
			st->pi++;
		}
		st->cur++;
	}
	return 0;
}

/* Records [a, b) of s's block in tan_series_pass, intervals as pass1_record
 * divides them.  Return: 0, -ENOMEM or -EINVAL. */
static int series_run(struct state *st, struct src *s, size_t a, size_t b)
{
	const struct nvt_cols *c = s->c;
	int err;

	while (a < b) {
		size_t e = tan_counted_run(st, s, &a, b);

		for (size_t i = a; i < e; i++) {
			uint64_t cpl = c->complete_ns[i] - st->t->t0;

			if (cpl >= st->next_ns) {
				if ((err = series_move(st, (size_t)(cpl / st->t->interval_ns))))
					return err;
				st->next_ns = (uint64_t)(st->cur + 1) * st->t->interval_ns;
			}
			if (st->pi < st->npend && st->pend[st->pi].iv == st->cur &&
			    (err = pend_value(st, &st->pend[st->pi], c->op[i], c->latency_ns[i])))
				return err;
		}
		a = e;
	}
	return 0;
}

int tan_series_pass(struct state *st)
{
	struct src *s = calloc(st->npaths ? st->npaths : 1, sizeof(*s));
	int err;

	if (!s) {
		snprintf(st->err, st->errlen, "out of memory");
		return -ENOMEM;
	}
	st->pass = 1;
	st->pass1_records = st->pass_records;
	st->pass_records = 0;
	st->done_bytes = 0;
	st->cur = st->pi = 0;
	st->next_ns = st->t->interval_ns;
	err = merge(st, s, NVT_COL_LATENCY | NVT_COL_OP, series_run);
	if (!err)
		err = series_move(st, st->cur + 1);
	if (!err && st->pi < st->npend)
		err = -EINVAL;
	if (err == -EINVAL)
		snprintf(st->err, st->errlen, "%s%s: the traces changed while they were being read",
			 st->paths[0], st->npaths > 1 ? " ..." : "");
	for (size_t i = 0; i < st->npaths; i++)
		nvt_reader_close(s[i].r);
	free(s);
	return err;
}
