/*
 * trace_cands.c - pass 1's slow-IO candidates (trace_tan.h): each closed
 * interval's IOs at or above its cut, kept with their times so that the
 * spike pass (trace_spikes.c) finds the slow IOs without reading the traces
 * again; the list thinned when it fills.
 *
 * The spike threshold (the spike factor times the median of the intervals'
 * p99.9, findings.h) is known only once pass 1 has ended, so the list
 * holds about 0.1% of the IOs (each interval's p99.9 and above) while most
 * of them end below the threshold.  Thinned in two ways, each raising an
 * operation's floor (a bound every interval's candidates then share):
 *   - at a soft size (CAND_KEEP / CAND_SOFT_DIV, 64 Ki, 1 MiB): the floor
 *     raised to a quarter of the threshold the intervals closed so far give
 *     (CAND_EST_MIN of them at least), the soft size doubled when that
 *     freed less than half of the list;
 *   - at CAND_KEEP: also past the middle one of the operation's latencies.
 * Nothing found depends on either: an interval whose slow IOs a floor may
 * hide (the floor reached the final threshold) is read again
 * (trace_spikes.c needs_reread), so thinning costs time only where the
 * estimate was wrong (a run whose p99.9 fell below a quarter after the
 * list filled) or the slow IOs outnumber the list.
 */
#include <errno.h>
#include <stdlib.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

#define CAND_SOFT_DIV 32	/* the soft size: CAND_KEEP / 32 at first */
#define CAND_EST_MIN 8		/* closed intervals with IOs before an estimate */

/* tan_ibuf_cands' keep: a candidate into st->cand. */
struct cand_arg {
	struct state *st;
	unsigned op;
};

_Static_assert(NVT_OP__MAX <= 8, "thin_cands: an operation holds an eighth at least");

/*
 * A quarter of the spike threshold op's intervals closed so far give (with
 * p99.9 resolved: a spilled interval's waits for tan_series_pass), once
 * CAND_EST_MIN of them have IOs.
 * Return: that floor, 0 before, or UINT64_MAX when memory ran out.
 */
static uint64_t est_floor(const struct state *st, unsigned op)
{
	uint64_t thr;
	size_t n;

	/* [0, cur): the open interval is not closed */
	if (tan_op_threshold(st, op, st->cur, true, &thr, &n))
		return UINT64_MAX;
	return n >= CAND_EST_MIN ? thr / 4 : 0;
}

/*
 * The candidates thinned: each operation's floor raised to est_floor and,
 * when halve, for each operation holding an eighth of them or more (one at
 * least, NVT_OP__MAX being 7), above the middle one of its latencies; those
 * below their floor dropped.  Every interval's candidates are then the IOs
 * at or above the larger of its cut and the floor.
 * Return: 0 or -ENOMEM.
 */
static int thin_cands(struct state *st, bool halve)
{
	uint32_t *lat = halve ? malloc(st->ncand * sizeof(*lat)) : NULL;
	uint64_t floor;
	size_t n, k = 0;

	if (halve && !lat)
		return -ENOMEM;
	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		n = 0;
		for (size_t i = 0; i < st->ncand; i++) {
			if (cand_op(&st->cand[i]) != op)
				continue;
			if (lat)
				lat[n] = st->cand[i].lat;
			n++;
		}
		if (!n)
			continue;
		if ((floor = est_floor(st, op)) == UINT64_MAX) {
			free(lat);
			return -ENOMEM;
		}
		if (halve && n >= st->ncand / 8) {	/* a rare operation's: kept whole */
			uint64_t mid = nv_select_kth32(lat, n, (n - 1) / 2);

			if (mid + 1 > floor)
				floor = mid + 1;
		}
		if (floor > st->cand_floor[op])
			st->cand_floor[op] = floor;
	}
	for (size_t i = 0; i < st->ncand; i++) {
		const struct cand *c = &st->cand[i];

		if (c->lat >= st->cand_floor[cand_op(c)])
			st->cand[k++] = *c;
	}
	st->ncand = k;
	free(lat);
	return 0;
}

/*
 * The sizes the list is thinned at: CAND_KEEP, or for tests
 * NVANALYZE_CAND_KEEP=N (8 at least: a small N thins the list often), and
 * the soft one, that divided by CAND_SOFT_DIV (8 at least).
 * Return: nothing.
 */
static void cand_sizes(struct state *st)
{
	const char *e = getenv("NVANALYZE_CAND_KEEP");
	unsigned long long n = e ? strtoull(e, NULL, 10) : 0;

	st->cand_keep = n ? (n < 8 ? 8 : (size_t)n) : CAND_KEEP;
	st->cand_soft = st->cand_keep / CAND_SOFT_DIV;
	if (st->cand_soft < 8)
		st->cand_soft = 8;
}

/*
 * A full list thinned (thin_cands; halved at cand_keep), the soft size
 * doubled when that freed less than half of it.
 * Return: 0 or -ENOMEM.
 */
static int cands_full(struct state *st)
{
	int err = thin_cands(st, st->ncand >= st->cand_keep);

	if (!err && st->ncand > st->cand_soft / 2 && st->cand_soft < st->cand_keep)
		st->cand_soft = st->cand_soft * 2 < st->cand_keep ? st->cand_soft * 2
								  : st->cand_keep;
	return err;
}

static int keep_cand(void *arg, uint64_t lat, uint64_t cpl)
{
	struct cand_arg *a = arg;
	struct state *st = a->st;
	int err;

	if (st->cand_overflow || lat < st->cand_floor[a->op])
		return 0;
	if (st->cur > CAND_IV_MAX || lat > UINT32_MAX) {
		st->cand_overflow = true;	/* beyond struct cand: read again */
		return 0;
	}
	if (!st->cand_keep)
		cand_sizes(st);
	if (st->ncand >= st->cand_soft) {
		if ((err = cands_full(st)))
			return err;
		if (lat < st->cand_floor[a->op])
			return 0;
	}
	if (st->ncand == st->candcap) {
		size_t nc = st->candcap ? st->candcap * 2 : 1024;
		struct cand *n = realloc(st->cand, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->cand = n;
		st->candcap = nc;
	}
	st->cand[st->ncand++] = (struct cand){ cpl, (uint32_t)lat,
					       (uint32_t)st->cur << 3 | a->op };
	return 0;
}

int tan_keep_cands(struct state *st, unsigned op, const struct ibuf *b, uint64_t cut,
		   uint64_t *used)
{
	struct cand_arg a = { st, op };
	uint64_t u;

	return tan_ibuf_cands(b, cut, used ? used : &u, keep_cand, &a);
}
