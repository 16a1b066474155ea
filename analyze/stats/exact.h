/*
 * exact.h - exact nearest-rank percentiles of a stream of uint64 values, in
 * bounded memory, by feeding the same values in several passes.
 *
 * Usage:
 *	struct nv_exact *e;
 *	double pct[] = { 50, 99, 99.99 };
 *	nv_exact_new(&e, pct, 3);
 *	do {
 *		for each value v: nv_exact_add(e, v);	// same values, any order
 *	} while ((err = nv_exact_end_pass(e)) == 1);
 *	if (err) ... // -EINVAL: the passes saw different values; -ENOMEM
 *	nv_exact_value(e, 0) ... nv_exact_count/min/max/mean/stdev(e)
 *
 * Usually pass 1 is the only one (see nv_exact_set_single).  Otherwise:
 * pass 1 counts values in log-linear buckets (256 per power of two) and
 * takes count, min, max, mean and stdev (from exact integer sums of the
 * values and of their squares: the same bits whatever the order of the
 * values and however states were split, cloned and merged).  Each requested rank then
 * lies in one bucket; later passes either collect the values of that bucket
 * (when few: at most collect_cap) and select, or count them in nsub equal
 * sub-ranges to narrow the range.  A range of width 1 is the answer.
 * Memory: about 117 KB + per distinct pending range collect_cap*8 or nsub*8
 * bytes (defaults 2 MiB / 512 KiB), whatever the number of values.  Typical
 * latency data needs 2 passes, rarely 3; ranges narrow by nsub per pass, so
 * never more than 5 passes.
 *
 * Nearest rank: the value at percentile p among n values is the
 * ceil(p/100 * n)-th smallest (the 1st for p = 0); p is taken to 1e-7
 * (diskspd's 9-nines, 99.9999999, is distinct from 100).
 */
#ifndef NV_EXACT_H
#define NV_EXACT_H

#include <stddef.h>
#include <stdint.h>

struct nv_exact;

/* pct[0..npct): percentiles in [0, 100] (copied).  0, -EINVAL or -ENOMEM. */
int nv_exact_new(struct nv_exact **e, const double *pct, size_t npct);
/* Tune memory (tests): values collected per range, sub-ranges per pass (>= 2).
 * Only before the first value. */
void nv_exact_set_limits(struct nv_exact *e, size_t collect_cap, size_t nsub);
/*
 * Single-pass path (default on): pass 1 also counts values below dense_limit
 * exactly (4 bytes per value of the range, grown up to the largest value
 * seen: default 2^21, i.e. 8 MiB for latencies up to 2.1 ms in ns) and keeps
 * up to ovf_cap larger values (default 2^20: 4 MiB, each held as a 32-bit
 * offset, the rare one 4.3 s past the state's first limit in 8 bytes);
 * values from 64 K up are listed at first, and counted only once 32 K of them were listed (a few
 * large values cost their list, not a page of counts each); when both held, pass 1
 * resolves every rank and end_pass returns 0 at once.  Otherwise the
 * multi-pass method below takes over.  dense_limit 0 turns it off (tests).
 * Only before the first value.
 */
void nv_exact_set_single(struct nv_exact *e, uint64_t dense_limit, size_t ovf_cap);
/*
 * What this state counts, as a number (0: unsaid): the state of the same
 * role in the next trace gets this one's dense array, its pages already
 * mapped in (exact_dense.h).  Only speed depends on it.
 */
void nv_exact_set_role(struct nv_exact *e, unsigned role);
void nv_exact_add(struct nv_exact *e, uint64_t v);
/* nv_exact_add(e, v[i]) for i = 0..n-1, in order, with the same results; faster. */
void nv_exact_add_many(struct nv_exact *e, const uint64_t *v, size_t n);
/*
 * cnt[i] copies of the value lo + i, for i = 0..n-1, added to e: every result (count, min,
 * max, mean, stdev, histogram, percentiles) as if each copy had been added by nv_exact_add,
 * in any order.  Pass 1's counts below e's counting limit are added at once (the interval
 * counts of trace_interval.c, a bucket's range at a time); other values one copy at a time.
 */
void nv_exact_add_counts(struct nv_exact *e, uint64_t lo, const uint32_t *cnt, size_t n);
/*
 * *dst = a copy of e during pass 1 (before the first nv_exact_end_pass):
 * both go on independently, and a value added to the copy counts as if it
 * had been added to e from the start.  E.g. the all-operations statistics
 * of a trace: a copy of the first operation's, taken when a second
 * operation shows up.  0, -EINVAL after pass 1, -ENOMEM.
 */
int nv_exact_clone(const struct nv_exact *e, struct nv_exact **dst);
/*
 * Add src's pass-1 values to e, as if each had been added to e (both before
 * their first nv_exact_end_pass, with the same percentiles and collect
 * limits, src's dense_limit at most e's: its listed values below e's limit
 * are counted in e's dense array): the
 * same counts, histogram, percentiles, mean and standard deviation
 * (exact sums: bit for bit).  E.g. an operation's statistics
 * from those of its queue-depth classes.  src is unchanged.
 * Return: 0, or -EINVAL (a pass ended, or src's dense_limit above e's).
 */
int nv_exact_merge(struct nv_exact *e, const struct nv_exact *src);
/*
 * nv_exact_merge(e, src), faster for the first src of an e that has no
 * values yet: when src's pass 1 alone resolves it (the single-pass data
 * held), src's pass 1 is ended here (its results ready; a later
 * nv_exact_end_pass(src) returns 0) and e takes src's dense counts instead
 * of a copy (with the same dense_limit).  Otherwise src is left as nv_exact_merge leaves it.
 * Return: 0, -EINVAL as nv_exact_merge, -ENOMEM.
 */
int nv_exact_merge_move(struct nv_exact *e, struct nv_exact *src);
/*
 * End the current pass: 1 = feed the same values again, 0 = results ready
 * (also for zero values), -EINVAL = this pass saw a different number of
 * values than pass 1 or values outside what pass 1 saw, -ENOMEM.
 */
int nv_exact_end_pass(struct nv_exact *e);
/* Passes completed so far. */
unsigned nv_exact_passes(const struct nv_exact *e);

uint64_t nv_exact_count(const struct nv_exact *e);
/* Pass 1's values held in its list (4 bytes each; 0 after pass 1): what a merge of e frees. */
size_t nv_exact_listed(const struct nv_exact *e);
uint64_t nv_exact_min(const struct nv_exact *e);	/* 0 if no values */
uint64_t nv_exact_max(const struct nv_exact *e);
double nv_exact_mean(const struct nv_exact *e);		/* 0 if no values */
double nv_exact_stdev(const struct nv_exact *e);	/* sample (n-1); 0 if n < 2 */
/* The value at pct[i] once end_pass returned 0 (0 if there were no values). */
uint64_t nv_exact_value(const struct nv_exact *e, size_t i);
void nv_exact_free(struct nv_exact *e);

/* The 1-based nearest rank of percentile p among n >= 1 values. */
uint64_t nv_exact_rank(double p, uint64_t n);

/*
 * The log-linear histogram of pass 1 (256 buckets per power of two, so a
 * bucket spans at most 1/256 = 0.39% of its values; values < 256 exactly),
 * for CDF plots: counts of NV_EXACT_NBUCKETS buckets, kept until
 * nv_exact_free() (NULL before pass 1 ended).  nv_exact_bucket_range()
 * gives the smallest and largest value of bucket b.
 */
#define NV_EXACT_NBUCKETS ((64 - 8 + 1) << 8)	/* 14592 */
const uint64_t *nv_exact_hist(const struct nv_exact *e);
/*
 * NV_EXACT_NBUCKETS zero counts, mapped so that only the pages a count
 * lands in become resident (a state's values fill a few of the 29 pages):
 * many states alive at once (a job's thread traces, each with its
 * queue-depth classes and interval buffers) cost what they count, not 114
 * KiB each as a cleared allocation.
 * Return: the counts, or NULL (no memory).
 */
uint64_t *nv_exact_hist_new(void);
/* Return: nothing; h (nv_exact_hist_new's, or NULL) unmapped. */
void nv_exact_hist_free(uint64_t *h);
void nv_exact_bucket_range(unsigned b, uint64_t *lo, uint64_t *hi);
#define NV_EXACT_SUB_BITS 8	/* 2^8 buckets per power of two */

/* Return: the bucket (< NV_EXACT_NBUCKETS) of value v (inline: once per IO). */
static inline unsigned nv_exact_bucket_of(uint64_t v)
{
	unsigned e;

	if (v < (1u << NV_EXACT_SUB_BITS))
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	return (1u << NV_EXACT_SUB_BITS) + ((e - NV_EXACT_SUB_BITS) << NV_EXACT_SUB_BITS) +
	       (unsigned)((v >> (e - NV_EXACT_SUB_BITS)) & ((1u << NV_EXACT_SUB_BITS) - 1));
}

/*
 * The k-th smallest (0-based, k < n) of a[0..n), reordering a so that
 * a[0..k) <= a[k] <= a[k+1..n) (quickselect, three-way partition).
 */
uint64_t nv_select_kth(uint64_t *a, size_t n, size_t k);
/* nv_select_kth of 32-bit values (exact_select.c: one template for both). */
uint32_t nv_select_kth32(uint32_t *a, size_t n, size_t k);

#endif
