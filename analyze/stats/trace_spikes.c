/*
 * trace_spikes.c - nv_tan_run's latency spikes (trace_tan.h): after pass 1
 * the thresholds (findings.h) and the slow IOs among pass 1's candidates;
 * the intervals whose slow IOs the candidates may miss, read again; the
 * slow IOs chained into episodes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/findings.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

bool nv_tan_spike_is_episode(const struct nv_tan_spike *s)
{
	return s->slow_ios >= NV_SPIKE_EPISODE_MIN_IOS;
}

/*
 * Op k's slow IOs in interval i must be read again: its max reached the
 * threshold and the pass-1 candidates may miss some (their cut, the
 * interval's p99.9 or a little above, is at or above the threshold, or the
 * candidate list overflowed).
 */
static bool needs_reread(const struct state *st, unsigned k, size_t i)
{
	const struct nv_tan_point *p;

	if (!st->spiky[k] || i >= st->t->nint)
		return false;
	p = &st->t->series[k][i];
	return p->ios && p->max >= st->t->spike_threshold_ns[k] &&
	       (st->cand_overflow || st->cutx[k][i] >= st->t->spike_threshold_ns[k] ||
		st->cand_floor[k] >= st->t->spike_threshold_ns[k]);
}

static bool spiky_interval(const struct state *st, size_t i)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (needs_reread(st, k, i))
			return true;
	return false;
}

/* Return: the spike factor (--spike-factor, default 10). */
static double spike_factor(const struct state *st)
{
	return st->o->spike_factor > 0 ? st->o->spike_factor : 10;
}

int tan_op_threshold(const struct state *st, unsigned op, size_t n, bool known_only,
		     uint64_t *thr, size_t *used)
{
	const struct nv_tan_point *p = op < NV_TAN_NOPS ? st->t->series[op] : NULL;
	uint64_t *p999 = NULL, *ios = NULL;
	size_t k = 0;

	*thr = 0;
	if (used)
		*used = 0;
	if (!p || !n)
		return 0;
	p999 = malloc(n * sizeof(*p999));
	ios = malloc(n * sizeof(*ios));
	if (!p999 || !ios) {
		free(p999);
		free(ios);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (p[i].ios && (p[i].p999 || !known_only)) {
			p999[k] = p[i].p999;
			ios[k++] = p[i].ios;
		}
	*thr = nv_spike_threshold(p999, ios, k, spike_factor(st));
	if (used)
		*used = k;
	free(p999);
	free(ios);
	return 0;
}

bool tan_any_spiky(const struct state *st)
{
	for (size_t i = 0; i < st->t->nint; i++)
		if (spiky_interval(st, i))
			return true;
	return false;
}

/* Return: whether slow IO x sorts before y: by operation, then submission. */
static bool slow_less(const struct slow *x, const struct slow *y)
{
	return x->op != y->op ? x->op < y->op : x->submit < y->submit;
}

/* Return: nothing; the heap a[0..n) with its root r sifted down into place. */
static void slow_sift(struct slow *a, size_t n, size_t r)
{
	for (size_t c; (c = 2 * r + 1) < n; r = c) {
		struct slow t;

		c += c + 1 < n && slow_less(&a[c], &a[c + 1]);
		if (!slow_less(&a[r], &a[c]))
			return;
		t = a[r];
		a[r] = a[c];
		a[c] = t;
	}
}

/*
 * a[0..n) sorted by operation, then submission, in place (heapsort): qsort's
 * merge sort copies the list into a buffer of its size, which a heavy tail's
 * slow IOs made the peak of a long run (2.6 MiB for 110 K of them).  Equal
 * keys may come in any order: the chains do not depend on it.
 * Return: nothing.
 */
static void sort_slow(struct slow *a, size_t n)
{
	for (size_t k = n / 2; k-- > 0;)
		slow_sift(a, n, k);
	for (size_t m = n; m > 1; m--) {
		struct slow t = a[0];

		a[0] = a[m - 1];
		a[m - 1] = t;
		slow_sift(a, m - 1, 0);
	}
}

/*
 * Chains of slow IOs (latency >= threshold T), per operation: sorted by
 * submission, an IO submitted at most T after the current chain's latest
 * completion joins it (trace_stats.h: which chains are episodes).
 */
int tan_build_spikes(struct state *st)
{
	struct nv_tan *t = st->t;

	sort_slow(st->slow, st->nslow);
	for (size_t i = 0; i < st->nslow; i++) {
		const struct slow *x = &st->slow[i];
		uint64_t sub = x->submit > t->t0 ? x->submit - t->t0 : 0,
			 end = x->complete > t->t0 ? x->complete - t->t0 : 0;
		struct nv_tan_spike *sp = t->nspikes ? &t->spikes[t->nspikes - 1] : NULL;

		if (!sp || sp->op != x->op || sub > sp->end_ns + t->spike_threshold_ns[x->op]) {
			sp = realloc(t->spikes, (t->nspikes + 1) * sizeof(*sp));
			if (!sp)
				return -ENOMEM;
			t->spikes = sp;
			sp = &t->spikes[t->nspikes++];
			memset(sp, 0, sizeof(*sp));
			sp->op = x->op;
			sp->start_ns = sub;
		}
		sp->slow_ios++;
		if (end > sp->end_ns)
			sp->end_ns = end;
		if (x->complete - x->submit > sp->worst_ns)
			sp->worst_ns = x->complete - x->submit;
	}
	for (size_t i = 0; i < t->nspikes; i++) {
		t->spikes[i].first = (size_t)(t->spikes[i].start_ns / t->interval_ns);
		t->spikes[i].last = (size_t)(t->spikes[i].end_ns / t->interval_ns);
	}
	return 0;
}

static int add_slow(struct state *st, const struct nvt_record *x)
{
	if (st->nslow == st->slowcap) {
		size_t nc = st->slowcap ? st->slowcap * 2 : 1024;
		struct slow *n = realloc(st->slow, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->slow = n;
		st->slowcap = nc;
	}
	st->slow[st->nslow++] = (struct slow){ x->submit_ns, x->complete_ns, x->op };
	return 0;
}

_Static_assert(sizeof(struct slow) >= sizeof(struct cand), "slow_from_cands widens in place");

/*
 * The candidates at or above their operation's threshold, of intervals not
 * read again, become the slow IOs (st->slow, empty: the spike pass adds to
 * it after): kept in place, then widened into struct slow from the last
 * one back in their own memory grown to fit (slow IO i lies over
 * candidates i and later, already moved), so that a long list is not held
 * twice.  The candidates are gone after.
 * Return: 0 or -ENOMEM.
 */
static int slow_from_cands(struct state *st)
{
	const struct nv_tan *t = st->t;
	size_t q = 0;
	char *mem;

	for (size_t i = 0; !st->cand_overflow && i < st->ncand; i++) {
		const struct cand *c = &st->cand[i];
		unsigned op = cand_op(c);

		/* its iv: the interval whose buffer held it, not its completion's */
		if (st->spiky[op] && c->lat >= t->spike_threshold_ns[op] &&
		    !needs_reread(st, op, cand_iv(c)))
			st->cand[q++] = *c;
	}
	mem = q ? realloc(st->cand, q * sizeof(struct slow)) : NULL;
	if (q && !mem)
		return -ENOMEM;	/* st->cand is still st's: freed with it */
	for (size_t i = q; i-- > 0;) {
		struct cand c;
		struct slow s;

		memcpy(&c, mem + i * sizeof(c), sizeof(c));
		s = (struct slow){ c.complete - c.lat, c.complete, cand_op(&c) };
		memcpy(mem + i * sizeof(s), &s, sizeof(s));
	}
	if (mem) {
		free(st->slow);
		st->slow = (struct slow *)mem;
		st->nslow = st->slowcap = q;
		st->cand = NULL;
	}
	free(st->cand);
	st->cand = NULL;
	st->ncand = st->candcap = 0;
	return 0;
}

/*
 * After pass 1: per operation the spike threshold (findings.h) and whether
 * any interval reached it (then pass 2 collects the IOs at or above it).
 */
int tan_plan_spikes(struct state *st)
{
	struct nv_tan *t = st->t;

	t->spike_factor = spike_factor(st);
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		const struct nv_tan_point *p = t->series[k];

		if (!p)
			continue;
		if (tan_op_threshold(st, k, t->nint, false, &t->spike_threshold_ns[k], NULL))
			return -ENOMEM;
		for (size_t i = 0; t->spike_threshold_ns[k] && i < t->nint; i++)
			if (p[i].ios && p[i].max >= t->spike_threshold_ns[k])
				st->spiky[k] = true;
	}
	return slow_from_cands(st);
}

size_t tan_pass1_iv(const struct state *st, uint64_t complete, size_t *run)
{
	const struct nv_tan *t = st->t;
	size_t iv = complete > t->t0 ? (size_t)((complete - t->t0) / t->interval_ns) : 0;

	if (iv > *run)
		*run = iv;
	return *run;
}

/* A slow IO (pass 2): collect it for the episodes. */
int tan_spike_record(struct state *st, unsigned op, uint64_t submit, uint64_t complete,
		     size_t iv)
{
	if (!st->spiky[op] || complete - submit < st->t->spike_threshold_ns[op] ||
	    !needs_reread(st, op, iv))
		return 0;
	if (add_slow(st, &(struct nvt_record){ .submit_ns = submit, .complete_ns = complete,
					       .op = (uint8_t)op })) {
		snprintf(st->err, st->errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/*
 * Records of s's block from i on, in pass 1's intervals [a, b) (*run: see
 * tan_pass1_iv), through tan_spike_record.
 * Return: 1 once a record of interval b or later was read (the rest of the
 * trace is past b), 0 at the block's end, or tan_spike_record's error.
 */
static int spike_block(struct state *st, const struct src *s, size_t a, size_t b, size_t *run)
{
	const struct nvt_cols *c = s->c;
	int err;

	for (size_t i = 0; i < s->n; i++) {
		size_t iv;

		if (tan_in_ramp(s, i))	/* pass 1 did not count it */
			continue;
		iv = tan_pass1_iv(st, c->complete_ns[i], run);
		if (iv >= b)
			return 1;
		if (iv >= a && (err = tan_spike_record(st, c->op[i],
						       c->complete_ns[i] - c->latency_ns[i],
						       c->complete_ns[i], iv)))
			return err;
	}
	return 0;
}

/*
 * Intervals [a, b) of trace s (from its start when whole, or from its index
 * entry before the intervals' start: completion times that never go back
 * put every record of the intervals after it).  Return: 0, 1 when it
 * cannot seek (no index, not seekable), or -errno (st->err set).
 */
static int spike_range(struct state *st, struct src *s, size_t a, size_t b, bool whole)
{
	uint64_t lo = st->t->t0 + a * st->t->interval_ns;
	size_t run = 0;
	int err;

	if (!whole && nvt_reader_seek_time(s->r, lo ? lo - 1 : 0))
		return 1;
	s->seen = whole ? s->seen : UINT64_MAX;	/* record numbers unknown after a seek */
	s->done = false;
	while (!(err = tan_src_next(st, s)) && !s->done)
		if ((err = spike_block(st, s, a, b, &run)))
			return err < 0 ? err : 0;
	return err;
}

/*
 * The slow IOs only: for each run of intervals where some operation's max
 * reached its threshold, seek (footer index) to its start and read until
 * its end; slow IOs are counted inside those intervals, by their
 * definition.  A trace without index, a damaged one, and every trace of a
 * job whose completion times go back somewhere (st->back: an IO counted in
 * a later interval than its completion's, an index entry's first completion
 * not where its records start) are read whole, once.
 */
int tan_spike_pass(struct state *st)
{
	struct nv_tan *t = st->t;
	int err = 0;

	for (size_t f = 0; f < st->npaths && !err; f++) {
		struct src s = { 0 };
		bool whole = st->back || (st->drop && st->drop[f]);

		s.want = NVT_COL_LATENCY | NVT_COL_OP;
		if ((err = tan_open_src(st, f, &s)))
			return err;
		for (size_t a = 0; s.r && a < t->nint && !err; a++) {
			size_t b = a;

			if (whole) {
				err = spike_range(st, &s, 0, t->nint, true);
				break;
			}
			while (b < t->nint && spiky_interval(st, b))
				b++;
			if (b == a)
				continue;
			err = spike_range(st, &s, a, b, false);
			if (err == 1) {
				whole = true;	/* no index: from the start, where it is */
				a--;
				err = 0;
				continue;
			}
			a = b;
		}
		nvt_reader_close(s.r);
	}
	return err;
}
