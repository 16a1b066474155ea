/*
 * test_exact.c - exact percentiles against a brute-force sort.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/exact_dense.h"
#include "tests/unit/check.h"
#include "tests/unit/trace_gen.h"

static const double pcts[] = { 0, 1, 50, 90, 95, 99, 99.9, 99.99, 99.9999, 100, 50 };
#define NPCT (sizeof(pcts) / sizeof(pcts[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Run the estimator over v[0..n) (in the given order every pass) with the
 * given limits and compare with the sorted copy.  Returns the passes used,
 * or -1 on a mismatch (reported through CHECK).
 */
/* The single-pass limits for against_sort with cap == 0 (0, 0: defaults). */
static uint64_t single_dense;
static size_t single_ovf;

static int against_sort(const uint64_t *v, size_t n, size_t cap, size_t nsub)
{
	struct nv_exact *e;
	uint64_t *s = malloc((n ? n : 1) * sizeof(*s));
	double mean = 0, m2 = 0;
	int err, passes, bad = 0;

	CHECK(s != NULL);
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
	if (cap) {
		nv_exact_set_limits(e, cap, nsub);
		nv_exact_set_single(e, 0, 0);	/* the multi-pass method */
	} else if (single_dense || single_ovf) {
		nv_exact_set_single(e, single_dense, single_ovf);
	}
	do {
		for (size_t i = 0; i < n; i++)
			nv_exact_add(e, v[i]);
	} while ((err = nv_exact_end_pass(e)) == 1);
	CHECK_EQ_I64(err, 0);
	CHECK_EQ_U64(nv_exact_count(e), n);
	for (size_t i = 0; n && i < NPCT; i++) {
		uint64_t want = s[nv_exact_rank(pcts[i], n) - 1];

		if (nv_exact_value(e, i) != want && !bad++)
			CHECK_EQ_U64(nv_exact_value(e, i), want);
	}
	if (n) {
		CHECK_EQ_U64(nv_exact_min(e), s[0]);
		CHECK_EQ_U64(nv_exact_max(e), s[n - 1]);
	}
	for (size_t i = 0; i < n; i++) {
		double d = (double)v[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * ((double)v[i] - mean);
	}
	CHECK(fabs(nv_exact_mean(e) - mean) <= 1e-9 * fabs(mean) + 1e-9);
	if (n > 1)
		CHECK(fabs(nv_exact_stdev(e) - sqrt(m2 / (double)(n - 1))) <=
		      1e-6 * sqrt(m2 / (double)(n - 1)) + 1e-9);
	passes = (int)nv_exact_passes(e);
	nv_exact_free(e);
	free(s);
	return bad ? -1 : passes;
}

TEST(rank)
{
	CHECK_EQ_U64(nv_exact_rank(50, 1), 1);
	CHECK_EQ_U64(nv_exact_rank(50, 2), 1);
	CHECK_EQ_U64(nv_exact_rank(50, 3), 2);
	CHECK_EQ_U64(nv_exact_rank(0, 10), 1);
	CHECK_EQ_U64(nv_exact_rank(100, 10), 10);
	CHECK_EQ_U64(nv_exact_rank(99.9, 1000), 999);	/* no float rounding up */
	CHECK_EQ_U64(nv_exact_rank(99.9, 1001), 1000);
	/* diskspd's 9-nines is its own level, not 100 (issue 59 item 3) */
	CHECK_EQ_U64(nv_exact_rank(99.9999999, 10000000000ull), 9999999990ull);
	CHECK_EQ_U64(nv_exact_rank(99.99999, 10000000), 9999999);
	CHECK_EQ_U64(nv_exact_rank(99.99, 10000), 9999);
	CHECK_EQ_U64(nv_exact_rank(99.9999, 1000000), 999999);
	CHECK_EQ_U64(nv_exact_rank(1, 1000000000000ull), 10000000000ull);
}

TEST(zero_values)
{
	struct nv_exact *e;

	CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
	CHECK_EQ_I64(nv_exact_end_pass(e), 0);
	CHECK_EQ_U64(nv_exact_count(e), 0);
	CHECK_EQ_U64(nv_exact_value(e, 2), 0);
	CHECK(nv_exact_stdev(e) == 0);
	nv_exact_free(e);
}

TEST(one_value)
{
	uint64_t v = 123456789;

	CHECK_EQ_I64(against_sort(&v, 1, 0, 0), 1);
}

TEST(bad_percentile)
{
	struct nv_exact *e;
	double p[] = { 101 };
	double q[] = { NAN };

	CHECK_EQ_I64(nv_exact_new(&e, p, 1), -EINVAL);
	CHECK_EQ_I64(nv_exact_new(&e, q, 1), -EINVAL);
}

/* Latency-like data, default limits: two passes, exact. */
TEST(latency_like)
{
	struct gen_rng g = { 7 };
	size_t n = 300000;
	uint64_t *v = malloc(n * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = 15000 + gen_below(&g, 10000) +
		       (gen_below(&g, 100) == 0 ? gen_below(&g, 5000000) : 0);
	CHECK(against_sort(v, n, 0, 0) >= 1);
	free(v);
}

/* Ties, small ranges, tiny limits: forces sub-range counting passes. */
TEST(ties_small_limits)
{
	struct gen_rng g = { 11 };
	size_t n = 50000;
	uint64_t *v = malloc(n * sizeof(*v));
	int passes;

	for (size_t i = 0; i < n; i++)
		v[i] = gen_below(&g, 3) ? 1000000 + gen_below(&g, 50) * 7 :
		       gen_below(&g, UINT64_MAX);
	passes = against_sort(v, n, 16, 4);
	CHECK(passes > 2);
	passes = against_sort(v, n, 100, 1000);
	CHECK(passes >= 2);
	free(v);
}

/* All values equal, huge: width-1 counting, and extremes of the type. */
TEST(all_equal_and_extremes)
{
	size_t n = 10000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct gen_rng g = { 3 };

	for (size_t i = 0; i < n; i++)
		v[i] = 1000000000000ull;
	CHECK(against_sort(v, n, 8, 16) >= 1);
	for (size_t i = 0; i < n; i++)
		v[i] = gen_below(&g, 2) ? UINT64_MAX - gen_below(&g, 3) : gen_below(&g, 3);
	CHECK(against_sort(v, n, 8, 16) >= 1);
	CHECK(against_sort(v, n, 0, 0) >= 1);
	free(v);
}

/* Many random sizes and distributions, each against the sort. */
TEST(random_many)
{
	struct gen_rng g = { 99 };
	int bad = 0;

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + gen_below(&g, round < 100 ? 50 : 5000);
		uint64_t *v = malloc(n * sizeof(*v));
		uint64_t span = 1ull << gen_below(&g, 64);

		for (size_t i = 0; i < n; i++)
			v[i] = gen_below(&g, span ? span : UINT64_MAX);
		if (against_sort(v, n, 1 + gen_below(&g, 64), 2 + gen_below(&g, 64)) < 0)
			bad++;
		free(v);
	}
	CHECK_EQ_I64(bad, 0);
}

/* A later pass with different values is an error, not a wrong answer. */
TEST(values_changed)
{
	struct nv_exact *e;
	int err;

	CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
	nv_exact_set_single(e, 0, 0);
	for (uint64_t i = 0; i < 1000; i++)
		nv_exact_add(e, 1000 + i);
	CHECK_EQ_I64(nv_exact_end_pass(e), 1);
	for (uint64_t i = 0; i < 999; i++)
		nv_exact_add(e, 1000 + i);
	err = nv_exact_end_pass(e);
	CHECK_EQ_I64(err, -EINVAL);
	nv_exact_free(e);
}

/*
 * The single-pass path: dense counts plus the list of larger values resolve
 * in one pass; a full list or a too small dense range falls back to the
 * multi-pass method, with the same answers.
 */
TEST(single_pass)
{
	struct gen_rng g = { 5 };
	size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));

	for (size_t i = 0; i < n; i++)	/* latency-like: most < 1 ms, a tail to 1 s */
		v[i] = gen_below(&g, 100) ? 20000 + gen_below(&g, 300000) :
		       gen_below(&g, 1000000000);
	single_dense = 0;
	single_ovf = 0;
	CHECK_EQ_I64(against_sort(v, n, 0, 0), 1);		/* defaults: one pass */
	single_dense = 1u << 20;
	single_ovf = n;
	CHECK_EQ_I64(against_sort(v, n, 0, 0), 1);		/* tail in the list */
	single_ovf = 100;
	CHECK(against_sort(v, n, 0, 0) >= 2);			/* list full: fallback */
	single_dense = 1;
	single_ovf = n;
	CHECK_EQ_I64(against_sort(v, n, 0, 0), 1);		/* all in the list */
	for (size_t i = 0; i < n; i++)
		v[i] = 7;					/* one value, dense */
	CHECK_EQ_I64(against_sort(v, n, 0, 0), 1);
	single_dense = 0;
	single_ovf = 0;
	free(v);
}

/*
 * Targets resolved from the list of values above the dense limit in any
 * order, repeated, and more of them than single_resolve keeps on its stack
 * (each selection searches only the part that the earlier ones left it
 * in): every value the sorted copy's, with many ties and without.
 */
TEST(ovf_targets_any_order)
{
	static const double p[] = { 99.9, 0, 100, 50, 99.99, 1, 50, 90, 10, 99, 25, 75, 5,
				    95, 99.5, 60, 40, 30, 99.999, 100, 0.5, 70 };
	const size_t np = sizeof(p) / sizeof(p[0]);
	struct gen_rng g = { 11 };
	size_t n = 50000;
	uint64_t *v = malloc(n * sizeof(*v)), *s = malloc(n * sizeof(*s));

	CHECK(v && s);
	for (unsigned ties = 0; v && s && ties < 2; ties++) {
		struct nv_exact *e;

		for (size_t i = 0; i < n; i++)
			v[i] = 1000 + (ties ? gen_below(&g, 40) : gen_below(&g, 1000000000));
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_u64);
		for (size_t m = 1; m <= np; m += np - 1) {	/* a single target, all */
			CHECK_EQ_I64(nv_exact_new(&e, p, m), 0);
			nv_exact_set_single(e, 1, n);	/* every value in the list */
			nv_exact_add_many(e, v, n);
			CHECK_EQ_I64(nv_exact_end_pass(e), 0);
			CHECK_EQ_I64(nv_exact_passes(e), 1);
			for (size_t i = 0; i < m; i++)
				CHECK_EQ_U64(nv_exact_value(e, i), s[nv_exact_rank(p[i], n) - 1]);
			nv_exact_free(e);
		}
	}
	free(v);
	free(s);
}

/*
 * Feed v[0..n) to a fresh state: one value at a time (batch 0) or through
 * nv_exact_add_many in pseudo-random batches of 1..batch values, every pass.
 * dense/ovf: nv_exact_set_single (dense 0: the multi-pass path only).
 */
static struct nv_exact *feed(const uint64_t *v, size_t n, size_t batch, uint64_t dense, size_t ovf)
{
	struct gen_rng rng = { 7 };
	struct nv_exact *e;
	int err;

	if (nv_exact_new(&e, pcts, NPCT))
		return NULL;
	nv_exact_set_single(e, dense, ovf);
	nv_exact_set_limits(e, 64, 16);
	do {
		for (size_t i = 0; i < n;) {
			size_t k = batch ? 1 + gen_below(&rng, batch) : 1;

			if (k > n - i)
				k = n - i;
			if (batch)
				nv_exact_add_many(e, v + i, k);
			else
				nv_exact_add(e, v[i]);
			i += k;
		}
	} while ((err = nv_exact_end_pass(e)) == 1);
	if (err) {
		nv_exact_free(e);
		return NULL;
	}
	return e;
}

/*
 * Every result of a and b, bit for bit (doubles compared as bytes), but
 * the standard deviation within stdev_tol of it relative when stdev_tol > 0
 * (a merge sums in another order) and then the passes not compared.
 */
static int alike(const struct nv_exact *a, const struct nv_exact *b, double stdev_tol)
{
	double ma = nv_exact_mean(a), mb = nv_exact_mean(b), sa = nv_exact_stdev(a),
	       sb = nv_exact_stdev(b);
	const uint64_t *ha = nv_exact_hist(a), *hb = nv_exact_hist(b);

	if (nv_exact_count(a) != nv_exact_count(b) || nv_exact_min(a) != nv_exact_min(b) ||
	    nv_exact_max(a) != nv_exact_max(b) || memcmp(&ma, &mb, sizeof(ma)))
		return 0;
	if (stdev_tol > 0 ? fabs(sa - sb) > stdev_tol * (sa > 1 ? sa : 1) :
			    nv_exact_passes(a) != nv_exact_passes(b) ||
			    memcmp(&sa, &sb, sizeof(sa)))
		return 0;
	for (size_t i = 0; i < NPCT; i++)
		if (nv_exact_value(a, i) != nv_exact_value(b, i))
			return 0;
	if (!ha || !hb)
		return ha == hb;
	return !memcmp(ha, hb, NV_EXACT_NBUCKETS * sizeof(*ha));
}

static int same_results(const struct nv_exact *a, const struct nv_exact *b)
{
	return alike(a, b, 0);
}

/*
 * nv_exact_add_many equals nv_exact_add value for value: latency-like
 * values with a tail beyond the dense range, huge values, runs of equal
 * values; with the dense array growing, the overflow list filling up (the
 * multi-pass fallback mid-batch) and the single-pass path off.
 */
TEST(add_many_equals_add)
{
	const struct { uint64_t dense; size_t ovf; } lim[] = {
		{ 0, 0 }, { 1u << 21, 1u << 20 }, { 4096, 50 }, { 100000, 3 }, { 1, 0 },
	};
	const size_t n = 20000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct gen_rng rng = { 99 };

	CHECK(v != NULL);
	if (!v)
		return;
	for (unsigned kind = 0; kind < 4; kind++) {
		for (size_t i = 0; i < n; i++) {
			uint64_t r = gen_next(&rng);

			v[i] = kind == 0 ? 15000 + r % 10000 + (r % 97 == 0 ? r % 5000000 : 0) :
			       kind == 1 ? r :
			       kind == 2 ? (i / 700) * 3 :
			       r % 300;
		}
		for (size_t l = 0; l < sizeof(lim) / sizeof(lim[0]); l++) {
			struct nv_exact *a = feed(v, n, 0, lim[l].dense, lim[l].ovf);
			struct nv_exact *b = feed(v, n, 1000, lim[l].dense, lim[l].ovf);
			struct nv_exact *c = feed(v, n, 1, lim[l].dense, lim[l].ovf);

			CHECK(a && b && c);
			if (a && b && c) {
				CHECK(same_results(a, b));
				CHECK(same_results(a, c));
			}
			nv_exact_free(a);
			nv_exact_free(b);
			nv_exact_free(c);
		}
	}
	free(v);
}

/*
 * A clone taken at value k of pass 1 and fed the rest ends exactly like a
 * state fed every value; the original goes on unaffected.  After pass 1
 * cloning is refused.
 */
TEST(clone_continues)
{
	const size_t n = 6000;
	uint64_t v[6000];
	struct gen_rng rng = { 5 };

	for (size_t i = 0; i < n; i++)
		v[i] = gen_below(&rng, 8) ? 10000 + gen_below(&rng, 3000) : gen_next(&rng) >> 20;
	for (size_t k = 0; k <= n; k += 1500) {
		for (unsigned cfg = 0; cfg < 3; cfg++) {
			uint64_t dense = cfg == 0 ? 1u << 21 : cfg == 1 ? 0 : 11000;
			size_t ovf = cfg == 2 ? 200 : 1u << 20;
			struct nv_exact *e = NULL, *c = NULL, *d = NULL,
					*want = feed(v, n, 0, dense, ovf);
			int errc = 1, erre = 1;

			CHECK(want != NULL);
			CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
			if (!want || !e) {
				nv_exact_free(want);
				nv_exact_free(e);
				continue;
			}
			nv_exact_set_single(e, dense, ovf);
			nv_exact_set_limits(e, 64, 16);
			nv_exact_add_many(e, v, k);
			CHECK_EQ_I64(nv_exact_clone(e, &c), 0);
			for (unsigned pass = 0; c && errc == 1 && erre == 1; pass++) {
				const uint64_t *rest = pass ? v : v + k;
				size_t nrest = pass ? n : n - k;

				nv_exact_add_many(c, rest, nrest);
				nv_exact_add_many(e, rest, nrest);
				errc = nv_exact_end_pass(c);
				erre = nv_exact_end_pass(e);
			}
			CHECK_EQ_I64(errc, 0);
			CHECK_EQ_I64(erre, 0);
			CHECK(c && same_results(c, want));
			CHECK(same_results(e, want));
			if (c) {
				CHECK_EQ_I64(nv_exact_clone(c, &d), -EINVAL);
				CHECK(d == NULL);
			}
			nv_exact_free(c);
			nv_exact_free(e);
			nv_exact_free(want);
		}
	}
}

/* Return: this process's resident memory, KiB (/proc/self/statm), or 0. */
static long resident_kib(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &size, &res) != 2)
		res = 0;
	if (f)
		fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/*
 * A tail of values above 64 us spread over the dense limit's range (40,000
 * of them over 2 ms: counting would touch a page per 1024 ns, 8 MiB, where
 * the list is 320 KiB) stays listed past RAISE_AT (the list doubles), and a
 * tail packed into 16 us (counts cheaper than the list) is counted: either
 * way one pass, every rank the sorted copy's; a clone taken after the
 * first weighing and two such states merged give the same results.  The
 * spread tail's state grows by its list, not by 8 MiB of count pages.
 */
TEST(sparse_tail_listed)
{
	enum { N = 400000, K = 360000 };
	static uint64_t v[N];
	struct gen_rng rng = { 23 };

	for (unsigned shape = 0; shape < 2; shape++) {
		struct nv_exact *want, *a = NULL, *b = NULL, *c = NULL;
		long rss0, rss1;

		for (size_t i = 0; i < N; i++)
			v[i] = gen_below(&rng, 10) ? 10000 + gen_below(&rng, 5000) :
			       shape == 0 ? 65536 + gen_below(&rng, 2000000) :
			       65536 + gen_below(&rng, 16384);
		single_dense = 0;
		single_ovf = 0;
		CHECK_EQ_I64(against_sort(v, N, 0, 0), 1);
		want = feed(v, N, 0, 1u << 21, 1u << 20);
		CHECK_EQ_I64(nv_exact_new(&a, pcts, NPCT), 0);
		CHECK_EQ_I64(nv_exact_new(&b, pcts, NPCT), 0);
		if (!want || !a || !b)
			goto next;
		rss0 = resident_kib();
		nv_exact_add_many(a, v, K);		/* 36,000 tail values: weighed */
		rss1 = resident_kib();
		if (shape == 0)	/* listed: 288 KiB and the counts below 64 us, not 8 MiB */
			CHECK(rss1 - rss0 < 3 * 1024);
		CHECK_EQ_I64(nv_exact_clone(a, &c), 0);
		nv_exact_add_many(b, v + K, N - K);
		CHECK_EQ_I64(nv_exact_merge(a, b), 0);
		if (c)
			nv_exact_add_many(c, v + K, N - K);
		CHECK_EQ_I64(nv_exact_end_pass(a), 0);
		CHECK(alike(a, want, 1e-9));	/* merged: the stdev's sums rounded apart */
		CHECK(c && nv_exact_end_pass(c) == 0 && same_results(c, want));
next:
		nv_exact_free(want);
		nv_exact_free(a);
		nv_exact_free(b);
		nv_exact_free(c);
	}
}

/*
 * The values split among several states by a rule (queue-depth classes in
 * the trace analysis: runs, values, or random), those merged into one
 * (nv_exact_merge, and nv_exact_merge_move for the largest part first, as
 * tan_fold_exact does), then the passes fed as usual: the same results as
 * one state fed every value, and each part's own results still right after
 * its counts moved.  With the single-pass data intact, overflowing in a
 * part, and off; merging after a pass ended is refused.
 */
TEST(merge_equals_add)
{
	const struct { uint64_t dense; size_t ovf; } lim[] = {
		{ 1u << 21, 1u << 20 }, { 4096, 50 }, { 0, 0 }, { 100000, 3 },
	};
	enum { N = 12000, PARTS = 5 };
	static uint64_t v[N], part[PARTS][N];
	struct gen_rng rng = { 17 };

	for (size_t i = 0; i < N; i++) {
		uint64_t r = gen_next(&rng);

		v[i] = 15000 + r % 10000 + (r % 89 == 0 ? r % 3000000 : 0);
	}
	for (unsigned rule = 0; rule < 3; rule++)
		for (size_t l = 0; l < sizeof(lim) / sizeof(lim[0]); l++) {
			struct nv_exact *want = feed(v, N, 0, lim[l].dense, lim[l].ovf), *m = NULL;
			struct nv_exact *p[PARTS] = { NULL }, *w[PARTS] = { NULL };
			size_t np[PARTS] = { 0 }, big = 0;
			int err = 0, more;

			for (size_t i = 0; i < N; i++) {
				unsigned k = rule == 0 ? (unsigned)(i / 1000) % PARTS :
					     rule == 1 ? (unsigned)(v[i] % PARTS) :
					     (unsigned)gen_below(&rng, PARTS);

				part[k][np[k]++] = v[i];
			}
			CHECK_EQ_I64(nv_exact_new(&m, pcts, NPCT), 0);
			nv_exact_set_single(m, lim[l].dense, lim[l].ovf);
			nv_exact_set_limits(m, 64, 16);
			for (unsigned k = 0; k < PARTS; k++) {
				CHECK_EQ_I64(nv_exact_new(&p[k], pcts, NPCT), 0);
				nv_exact_set_single(p[k], lim[l].dense, lim[l].ovf);
				nv_exact_set_limits(p[k], 64, 16);
				nv_exact_add_many(p[k], part[k], np[k]);
				w[k] = feed(part[k], np[k], 0, lim[l].dense, lim[l].ovf);
				big = np[k] > np[big] ? k : big;
			}
			err = nv_exact_merge_move(m, p[big]);
			for (unsigned k = 0; k < PARTS && !err; k++)
				if (k != big)
					err = nv_exact_merge(m, p[k]);
			CHECK_EQ_I64(err, 0);
			for (more = 1; !err && more == 1;) {	/* the passes, every state */
				more = nv_exact_end_pass(m);
				for (unsigned k = 0; k < PARTS; k++) {
					int r = nv_exact_end_pass(p[k]);

					if (r < 0)
						more = r;
					else if (r == 1)
						more = 1;
				}
				for (unsigned k = 0; more == 1 && k < PARTS; k++) {
					nv_exact_add_many(m, part[k], np[k]);
					nv_exact_add_many(p[k], part[k], np[k]);
				}
			}
			CHECK_EQ_I64(more, 0);
			CHECK(want && alike(m, want, 1e-9));
			for (unsigned k = 0; k < PARTS; k++) {
				CHECK(w[k] && same_results(p[k], w[k]));
				CHECK_EQ_I64(nv_exact_merge(m, p[k]), -EINVAL);
				nv_exact_free(p[k]);
				nv_exact_free(w[k]);
			}
			nv_exact_free(m);
			nv_exact_free(want);
		}
}

/*
 * States counting per value below a smaller limit (4096, the others listed)
 * merged into one of the default limits: its listed values below the
 * default limit counted there, the same results as all the values added to
 * it, in one pass; a state's larger limit cannot be merged into a smaller.
 */
TEST(merge_smaller_dense_limit)
{
	enum { N = 12000, PARTS = 3 };
	static uint64_t v[N];
	struct gen_rng rng = { 23 };
	struct nv_exact *want, *m = NULL, *p[PARTS] = { NULL };
	int err = 0;

	for (size_t i = 0; i < N; i++) {
		uint64_t r = gen_next(&rng);

		v[i] = 1000 + r % 9000 + (r % 97 == 0 ? r % 3000000 : 0);
	}
	want = feed(v, N, 0, 1u << 21, 1u << 20);
	CHECK_EQ_I64(nv_exact_new(&m, pcts, NPCT), 0);
	nv_exact_set_limits(m, 64, 16);
	for (unsigned k = 0; k < PARTS && !err; k++) {
		CHECK_EQ_I64(nv_exact_new(&p[k], pcts, NPCT), 0);
		nv_exact_set_single(p[k], 4096, N);
		nv_exact_set_limits(p[k], 64, 16);
		nv_exact_add_many(p[k], v + k * (N / PARTS), N / PARTS);
		err = nv_exact_merge(m, p[k]);
	}
	CHECK_EQ_I64(err, 0);
	CHECK_EQ_I64(nv_exact_merge(p[0], m), -EINVAL);	/* 2^21 into 4096 */
	CHECK_EQ_I64(nv_exact_end_pass(m), 0);	/* the single pass held */
	CHECK(want && alike(m, want, 1e-9));
	for (unsigned k = 0; k < PARTS; k++)
		nv_exact_free(p[k]);
	nv_exact_free(m);
	nv_exact_free(want);
}

/*
 * Minor faults of this thread while fn(e, x, n) runs.
 * Return: their count.
 */
static long faults_of(void (*fn)(struct nv_exact *, const void *, size_t), struct nv_exact *e,
		      const void *x, size_t n)
{
	struct rusage a, b;

	getrusage(RUSAGE_THREAD, &a);
	fn(e, x, n);
	getrusage(RUSAGE_THREAD, &b);
	return b.ru_minflt - a.ru_minflt;
}

static void add_many_fn(struct nv_exact *e, const void *x, size_t n)
{
	nv_exact_add_many(e, x, n);
}

static void merge_fn(struct nv_exact *e, const void *x, size_t n)
{
	(void)n;
	CHECK_EQ_I64(nv_exact_merge(e, x), 0);
}

/*
 * The first count on a page of the dense array is a write, adding or
 * merging: one page fault a page.  Read first, the page maps the kernel's
 * zero page and the write faults again, and that second fault flushes the
 * TLB of every CPU running another worker of the process (an interrupt
 * each: 10% of -J 2's CPU on this project's virtual machines).  Counted
 * with the thread's minor faults, transparent huge pages off for the
 * process (a fault would be 2 MiB) and arrays of a size no earlier case
 * used (kept arrays are mapped in already); a quarter more for the other
 * pages touched meanwhile (ASan's shadow: one page per 8 of the array).
 */
TEST(dense_first_touch_is_a_write)
{
	enum { PAGES = 2048 };
	uint64_t *v = malloc(PAGES * sizeof(*v));
	struct nv_exact *e = NULL, *m = NULL;
	long add, merge;

	CHECK(v != NULL);
	if (!v)
		return;
	CHECK_EQ_I64(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0), 0);
	for (size_t i = 0; i < PAGES; i++)
		v[i] = i * NV_DENSE_PAGE + 5;
	CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
	CHECK_EQ_I64(nv_exact_new(&m, pcts, NPCT), 0);
	nv_exact_set_single(e, (PAGES + 1) * NV_DENSE_PAGE, 1u << 20);
	nv_exact_set_single(m, (PAGES + 1) * NV_DENSE_PAGE, 1u << 20);
	nv_exact_add(e, 1);	/* maps its array in (the first value) */
	nv_exact_add(m, 1);
	add = faults_of(add_many_fn, e, v, PAGES);
	merge = faults_of(merge_fn, m, e, 0);
	CHECK(add <= PAGES + PAGES / 4);
	CHECK(merge <= PAGES + PAGES / 4);
	if (add > PAGES + PAGES / 4 || merge > PAGES + PAGES / 4)
		printf("INFO: %ld faults adding, %ld merging, %d pages\n", add, merge, PAGES);
	nv_exact_free(e);
	nv_exact_free(m);
	free(v);
}

/*
 * The list keeps values as 32-bit offsets from the state's first limit
 * (64 K with the default dense range) and the few beyond 2^32 of it as they
 * are: latency-like values with 1% at the offsets' last value, one past it
 * and far above, each batch size, exact against the sort (single pass
 * resolved); a raise with far values listed; two halves merged equal one
 * state fed both; a list cap counts the far values too (the multi-pass
 * method then, still exact).
 */
TEST(far_values_listed)
{
	enum { N = 40000 };
	static uint64_t v[N];
	const uint64_t edge = 65536 + (uint64_t)UINT32_MAX;
	struct gen_rng rng = { 23 };
	struct nv_exact *a = NULL, *b = NULL, *m = NULL;

	for (size_t i = 0; i < N; i++) {
		uint64_t r = gen_next(&rng);

		v[i] = i % 100 == 1 ? edge + r % 3 - 1 : i % 100 == 2 ? (r >> 24) + edge :
		       20000 + r % 200000;	/* the tail listed, then raised */
	}
	single_dense = 0;
	single_ovf = 0;
	CHECK_EQ_I64(against_sort(v, N, 0, 0), 1);
	for (size_t batch = 0; batch <= 1000; batch += 1000) {
		struct nv_exact *e = feed(v, N, batch, 1u << 21, 1u << 20);

		CHECK(e != NULL);
		CHECK(e && nv_exact_passes(e) == 1);
		nv_exact_free(e);
	}
	a = feed(v, N, 0, 1u << 21, 1u << 20);
	CHECK_EQ_I64(nv_exact_new(&m, pcts, NPCT), 0);
	CHECK_EQ_I64(nv_exact_new(&b, pcts, NPCT), 0);
	if (a && m && b) {
		struct nv_exact *half = NULL;

		CHECK_EQ_I64(nv_exact_new(&half, pcts, NPCT), 0);
		for (size_t i = 0; half && i < N; i++)
			nv_exact_add(i < N / 2 ? half : b, v[i]);
		CHECK_EQ_I64(nv_exact_merge(m, half), 0);
		CHECK_EQ_I64(nv_exact_merge(m, b), 0);
		CHECK_EQ_I64(nv_exact_end_pass(m), 0);
		CHECK(alike(a, m, 1e-9));
		nv_exact_free(half);
	}
	nv_exact_free(a);
	nv_exact_free(b);
	nv_exact_free(m);
	single_dense = 1u << 21;	/* room for 500 listed: the far ones fill it */
	single_ovf = 500;
	CHECK(against_sort(v, N, 0, 0) > 1);
	single_dense = 0;
	single_ovf = 0;
}

int main(void)
{
	RUN(rank);
	RUN(zero_values);
	RUN(one_value);
	RUN(bad_percentile);
	RUN(latency_like);
	RUN(ties_small_limits);
	RUN(all_equal_and_extremes);
	RUN(random_many);
	RUN(values_changed);
	RUN(single_pass);
	RUN(ovf_targets_any_order);
	RUN(add_many_equals_add);
	RUN(clone_continues);
	RUN(sparse_tail_listed);
	RUN(merge_equals_add);
	RUN(merge_smaller_dense_limit);
	RUN(dense_first_touch_is_a_write);
	RUN(far_values_listed);
	return check_summary();
}
