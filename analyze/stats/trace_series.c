/*
 * trace_series.c - nv_tan_run's pass 1 (trace_tan.h): the traces merged by
 * completion time (one block per trace held), the intervals closed as
 * completion time moves past them (exact p50/p99/p99.9/max from each
 * operation's interval buffer, trace_interval.c), the totals, --buckets,
 * and the pass-1 state of the exact percentiles per operation and
 * queue-depth class; and the second read that resolves the intervals a
 * buffer could not (tan_series_pass).
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
		uint64_t *c;

		if (!st->t->series[k])
			continue;
		p = realloc(st->t->series[k], ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + st->cap, 0, (ncap - st->cap) * sizeof(*p));
		st->t->series[k] = p;
		if (k == NV_TAN_ALL)
			continue;
		c = realloc(st->cutx[k], ncap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		memset(c + st->cap, 0, (ncap - st->cap) * sizeof(*c));
		st->cutx[k] = c;
	}
	st->cap = ncap;
	return 0;
}

/* The first record of a new operation: its series, cuts and interval buffer
 * (the ones st lacks: a thread trace of a job walks into the buffers of the
 * worker that walks it, trace_merge.c, which may not have met op yet). */
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
	if (!st->cutx[op] && !(st->cutx[op] = calloc(st->cap, sizeof(*st->cutx[op]))))
		return -ENOMEM;
	if (st->ib[op].hist)
		return 0;
	return tan_ibuf_init(&st->ib[op], st->vcap, st->dense,
			     NV_OPSTATS_ROLES + NVT_OP__MAX * NV_TAN_NQD + op);
}

/* The k-th smallest (0-based) of bufs[0..nb) with counts h (nonzero in [lo,
 * hi]), or its bucket and rank within it into *pr for a spilled interval
 * (*out untouched).  Return: 0, -ENOMEM or -EINVAL. */
static int iv_kth(struct state *st, struct ibuf *const *bufs, unsigned nb, const uint64_t *h,
		  unsigned lo, unsigned hi, uint64_t k, uint64_t *out, struct pend_rank *pr)
{
	uint64_t below;
	unsigned bk = tan_rank_bucket(h, lo, hi, k, &below);

	if (pr) {
		*pr = (struct pend_rank){ bk, k - below };
		return 0;
	}
	return tan_ibuf_kth(bufs, nb, bk, k - below, &st->scratch, &st->scratchcap, out);
}

/*
 * Exact p50/p99/p99.9/max of the interval's IOs in bufs[0..nb) (counts
 * summed in h, nonzero in [lo, hi]) into p; a spilled interval's ranks into
 * pr[0..3) instead.  Return: 0, -ENOMEM or -EINVAL.
 */
static int reduce(struct state *st, struct ibuf *const *bufs, unsigned nb, const uint64_t *h,
		  unsigned lo, unsigned hi, struct nv_tan_point *p, struct pend_rank *pr)
{
	static const double lv[3] = { 50, 99, 99.9 };
	uint64_t *out[3] = { &p->p50, &p->p99, &p->p999 };
	uint64_t n = 0;
	int err;

	memset(p, 0, sizeof(*p));
	for (unsigned j = 0; j < nb; j++) {
		n += bufs[j]->ios;
		p->bytes += bufs[j]->bytes;
		p->errors += bufs[j]->errors;
		if (bufs[j]->max > p->max)
			p->max = bufs[j]->max;
	}
	p->ios = n;
	for (unsigned r = 0; r < 3 && n; r++)
		if ((err = iv_kth(st, bufs, nb, h, lo, hi, nv_exact_rank(lv[r], n) - 1, out[r],
				  pr ? pr + r : NULL)))
			return err;
	return 0;
}

/* Reduce op k's buffer into p and keep its candidates: the IOs at or above
 * the larger of its p99.9 and its buffer's cut (cutx); a spilled interval's
 * ranks into pr, its slow IOs read again.  Return: 0, -ENOMEM or -EINVAL. */
static int reduce_op(struct state *st, unsigned k, struct nv_tan_point *p,
		     struct pend_rank *pr)
{
	struct ibuf *b = &st->ib[k];
	int err;

	if (!b->ios) {
		memset(p, 0, sizeof(*p));
		return 0;
	}
	if ((err = reduce(st, &b, 1, b->hist, b->hlo, b->hhi, p, pr)))
		return err;
	if (pr) {
		st->cand_overflow = true;
		return 0;
	}
	return tan_keep_cands(st, k, b, p->p999, &st->cutx[k][st->cur]);
}

/*
 * The all-operations point of a mixed interval: bufs[0..nb) (nb > 1), their
 * counts summed into st->hall over the buckets they use.
 * Return: 0, -ENOMEM or -EINVAL.
 */
static int reduce_all(struct state *st, struct ibuf *const *bufs, unsigned nb,
		      struct nv_tan_point *p, struct pend_rank *pr)
{
	unsigned lo = bufs[0]->hlo, hi = bufs[0]->hhi;
	int err;

	if (!st->hall && !(st->hall = calloc(NV_EXACT_NBUCKETS, sizeof(*st->hall))))
		return -ENOMEM;
	for (unsigned j = 0; j < nb; j++) {
		lo = bufs[j]->hlo < lo ? bufs[j]->hlo : lo;
		hi = bufs[j]->hhi > hi ? bufs[j]->hhi : hi;
		for (unsigned h = bufs[j]->hlo; h <= bufs[j]->hhi; h++)
			st->hall[h] += bufs[j]->hist[h];
	}
	err = reduce(st, bufs, nb, st->hall, lo, hi, p, pr);
	memset(st->hall + lo, 0, (hi - lo + 1) * sizeof(*st->hall));
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
 * Return: 0, -ENOMEM or -EINVAL.
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
	if (!err)
		err = tan_defer_close(st, st);
	if (!err && st->on_close)
		err = st->on_close(st);
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (st->t->series[k])
			tan_ibuf_clear(&st->ib[k]);
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
 * Records [a, b) of block c, all of operation op and queue-depth class q,
 * into the open interval, the totals and the exact states (tan_exact_run).  An
 * interval that spills keeps no other operation's IOs either: what they
 * held is fed to the exact states then.  Return: 0 or -ENOMEM.
 */
static int op_run(struct state *st, const struct nvt_cols *c, unsigned op, unsigned q,
		  size_t a, size_t b)
{
	struct nv_tan *t = st->t;
	struct nv_tan_op *o = &t->op[op];
	struct ibuf *ib = &st->ib[op];
	uint64_t bytes = 0, errors = 0;
	bool spilled = st->spilled;
	int err;

	if ((!t->series[op] || !ib->hist) && (err = start_op(st, op)))
		return err;
	if ((err = tan_exact_run(st, c, op, q, a, b)))
		return err;
	if ((err = tan_ibuf_push(ib, c->latency_ns + a, c->complete_ns + a, b - a, &st->spilled)))
		return err;
	for (unsigned k = 0; k < NVT_OP__MAX && st->spilled && !spilled; k++) {
		if ((err = tan_defer_flush(st, k, st)))
			return err;
		st->defer[k] = TAN_DIRECT;
	}
	if (c->uniform & NVT_COL_LENGTH) {
		bytes = (uint64_t)c->length[a] * (b - a);
	} else {
		for (size_t i = a; i < b; i++)
			bytes += c->length[i];
	}
	if (c->uniform & NVT_COL_STATUS) {
		errors = c->status[a] != 0 ? b - a : 0;
	} else {
		for (size_t i = a; i < b; i++)
			errors += c->status[i] != 0;
	}
	ib->bytes += bytes;
	ib->errors += errors;
	o->records += b - a;
	o->bytes += bytes;
	o->errors += errors;
	for (size_t i = a; t->nedges && i < b; i++)
		count_bucket(t, op, c->latency_ns[i]);
	return 0;
}

/* Records [a, b) of block c, all in the open interval, in runs of one
 * operation and queue-depth class.  Return: 0 or -ENOMEM. */
static int interval_run(struct state *st, const struct nvt_cols *c, size_t a, size_t b)
{
	bool one_op = c->uniform & NVT_COL_OP, one_qd = c->uniform & NVT_COL_QD;
	int err;

	for (size_t g = a, i; g < b; g = i) {
		unsigned op = c->op[g], q = nv_tan_qd_class(c->qd[g]), lo, hi;

		nv_tan_qd_range(q, &lo, &hi);
		lo = q ? lo : 0;	/* class 0 holds qd 0 too */
		for (i = g + 1; i < b && (one_op || c->op[i] == op) &&
				(one_qd || (c->qd[i] >= lo && c->qd[i] <= hi)); i++)
			;
		if ((err = op_run(st, c, op, q, g, i)))
			return err;
	}
	return 0;
}

/*
 * Pass 1's series and totals of records [a, b) of block c, in completion
 * order (their exact states: tan_feed_exact).  An interval is closed when a
 * record completes past its end; a record that completes before the open
 * interval (out of order, even before time 0) joins it.  whole: every
 * record of c is counted (no ramp cut), so when c's latest completion is in
 * the open interval the rest of c is, and that completion is the span's
 * (taken before the records of c after b are read: the span, a maximum, is
 * read only once the pass ends, or for an interval that is not the last).
 * Return: 0, -ENOMEM or -EINVAL.
 */
static int pass1_span(struct state *st, const struct nvt_cols *c, size_t a, size_t b,
		      bool whole)
{
	struct nv_tan *t = st->t;
	int err;

	if (a < b && !st->any) {
		st->any = true;
		t->t0 = c->complete_ns[a] - c->latency_ns[a];
		st->next_ns = t->interval_ns;
	}
	while (a < b) {
		size_t i = a;
		uint64_t end = t->t0 + st->next_ns;	/* no wrap: t0 + span fits */

		if (whole && c->max_complete_ns < end) {	/* the block's rest, unread */
			i = b;
			if (c->max_complete_ns >= t->t0 && c->max_complete_ns - t->t0 > t->span_ns)
				t->span_ns = c->max_complete_ns - t->t0;
		}
		for (; i < b && c->complete_ns[i] < end; i++)	/* the span on the way */
			if (c->complete_ns[i] >= t->t0 && c->complete_ns[i] - t->t0 > t->span_ns)
				t->span_ns = c->complete_ns[i] - t->t0;
		if ((err = interval_run(st, c, a, i)))
			return err;
		if (i < b) {	/* past the open interval: the division */
			size_t idx = (size_t)((c->complete_ns[i] - t->t0) / t->interval_ns);

			if (idx >= st->cap && (err = grow_series(st, idx + 1)))
				return err;
			while (st->cur < idx) {
				if ((err = close_interval(st)))
					return err;
				st->cur++;
			}
			st->next_ns = (uint64_t)(st->cur + 1) * t->interval_ns;
		}
		a = i;
	}
	return 0;
}

int tan_pass1_run(struct state *st, struct src *s, size_t a, size_t b)
{
	int err;

	while (a < b) {
		size_t e = tan_counted_run(st, s, &a, b);

		if ((err = pass1_span(st, s->c, a, e, !s->ramp_end)))
			return err;
		a = e;
	}
	return 0;
}
/*
 * The merge: the trace whose next record completes first (ties: the lower
 * index) in best, and the end of the run of its records the merge takes
 * before another trace's, in *end.  While that record is in the open
 * interval (time 0 known), the run is every record of best before the
 * first that completes past the interval's end: the merged order would
 * take each of them before the interval closes (it closes only once every
 * trace's next record is past its end), so each falls in the same interval,
 * and what an interval holds does not depend on the order its IOs came in.
 * Otherwise (a record that closes intervals, or the first) the exact merged
 * order: below the heads of the traces before it, at or below those after.
 * Return: best, or NULL when every trace is done.
 */
static struct src *next_run(struct state *st, struct src *s, size_t *end)
{
	struct src *best = NULL;
	uint64_t lo = 0, hi = UINT64_MAX, h, iv_end;
	bool any_lo = false;
	size_t e;

	for (size_t i = 0; i < st->npaths; i++)
		if (!s[i].done && (!best || s[i].c->complete_ns[s[i].i] <
					     best->c->complete_ns[best->i]))
			best = &s[i];
	if (!best)
		return NULL;
	iv_end = st->t->t0 + st->next_ns;	/* no wrap: t0 + span fits */
	if (st->npaths > 1 && st->any && best->c->complete_ns[best->i] < iv_end) {
		if (best->c->max_complete_ns < iv_end)	/* the block's rest, unread */
			e = best->n;
		else
			for (e = best->i + 1; e < best->n && best->c->complete_ns[e] < iv_end; e++)
				;
		*end = e;
		return best;
	}
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

/*
 * The merge as far as the blocks at hand go: the runs of s[0..npaths) in
 * completion order handed to run while every trace not done has a record.
 * Return: 0 when every trace is done, 1 with *need the index of the trace
 * whose next block the merge waits for, or run's error (st->err set).
 */
int tan_merge_ready(struct state *st, struct src *s, run_fn *run, size_t *need)
{
	struct src *best;
	size_t end;
	int err;

	for (;;) {
		for (size_t i = 0; i < st->npaths; i++)
			if (!s[i].done && s[i].i == s[i].n) {
				*need = i;
				return 1;
			}
		if (!(best = next_run(st, s, &end)))
			return 0;
		if ((err = run(st, best, best->i, end))) {
			if (err == -ENOMEM)
				snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			else if (!st->err[0])
				snprintf(st->err, st->errlen, "%s: internal error: an interval's "
					 "counts disagree", st->paths[0]);
			return err;
		}
		best->i = end;
	}
}

/*
 * The traces s[0..npaths) opened (columns want) and merged by completion
 * time, each run of one trace's records handed to run, in the same order
 * every time.  Return: 0 or -errno (st->err set).
 */
static int merge(struct state *st, struct src *s, unsigned want, run_fn *run)
{
	size_t need;
	int err = 0;

	for (size_t i = 0; i < st->npaths; i++) {
		s[i].want = want;
		if ((err = tan_open_src(st, i, &s[i])) || (err = tan_src_next(st, &s[i])))
			return err;
	}
	while ((err = tan_merge_ready(st, s, run, &need)) == 1)
		if ((err = tan_src_next(st, &s[need])))
			return err;
	return err;
}

/* Return: the latencies listed per interval and operation: SERIES_VCAP with
 * the per-ns counts (*dense true), or for tests NVANALYZE_SERIES_CAP=N (N,
 * no per-ns counts: a small N makes intervals spill) or
 * NVANALYZE_SERIES_LIST=N (N with the counts: a small N raises the limit,
 * then spills). */
static size_t series_vcap(bool *dense)
{
	const char *c = getenv("NVANALYZE_SERIES_CAP"), *l = getenv("NVANALYZE_SERIES_LIST");
	unsigned long long vc = c ? strtoull(c, NULL, 10) : 0, vl = l ? strtoull(l, NULL, 10) : 0;

	*dense = !vc;
	if (vc)
		return (size_t)vc;
	return vl ? (size_t)vl : SERIES_VCAP;
}

void tan_pass1_begin(struct state *st)
{
	st->vcap = series_vcap(&st->dense);
}

int tan_pass1_end(struct state *st)
{
	int err;

	if (st->any) {
		if ((err = close_interval(st))) {
			snprintf(st->err, st->errlen, "%s: %s", st->paths[0],
				 err == -ENOMEM ? "out of memory" :
				 "internal error: an interval's counts disagree");
			return err;
		}
		st->t->nint = st->cur + 1;
	}
	tan_pass1_totals(st->t);
	return 0;
}

void tan_pass1_totals(struct nv_tan *t)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		t->op[NV_TAN_ALL].records += t->op[k].records;
		t->op[NV_TAN_ALL].bytes += t->op[k].bytes;
		t->op[NV_TAN_ALL].errors += t->op[k].errors;
	}
	t->records = t->op[NV_TAN_ALL].records;
}

/* Pass 1 over the merged traces. */
int tan_pass1(struct state *st, struct src *s)
{
	int err;

	tan_pass1_begin(st);
	if ((err = merge(st, s, TAN_PASS1_COLS, tan_pass1_run)))
		return err;
	return tan_pass1_end(st);
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

			if (c->complete_ns[i] >= st->t->t0 && cpl >= st->next_ns) {
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
		snprintf(st->err, st->errlen, "%s%s: the traces changed while they "
			 "were being read", st->paths[0], st->npaths > 1 ? " ..." : "");
	for (size_t i = 0; i < st->npaths; i++)
		nvt_reader_close(s[i].r);
	free(s);
	return err;
}

/*
 * The pieces trace_merge.c (a job's thread traces analysed apart) shares
 * with the single-stream pass above (trace_tan.h).
 */
int tan_series_grow(struct state *st, size_t need)
{
	return need > st->cap ? grow_series(st, need) : 0;
}

int tan_series_start(struct state *st, unsigned op)
{
	return st->t->series[op] ? 0 : start_op(st, op);
}

int tan_interval_run(struct state *st, const struct nvt_cols *c, size_t a, size_t b)
{
	return interval_run(st, c, a, b);
}

int tan_reduce_bufs(struct state *st, struct ibuf *const *bufs, unsigned nb,
		    struct nv_tan_point *p, struct pend_rank *pr)
{
	return reduce_all(st, bufs, nb, p, pr);
}

struct pend *tan_new_pend(struct state *st)
{
	return new_pend(st);
}

size_t tan_series_vcap(bool *dense)
{
	return series_vcap(dense);
}
