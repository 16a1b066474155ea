/*
 * test_exact.c - exact percentiles against a brute-force sort.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "analyze/exact.h"
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
		CHECK(fabs(nv_exact_stdev(e) - sqrt(m2 / (double)(n - 1))) <= 1e-6 * sqrt(m2 / (double)(n - 1)) + 1e-9);
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
		v[i] = 15000 + gen_below(&g, 10000) + (gen_below(&g, 100) == 0 ? gen_below(&g, 5000000) : 0);
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
		v[i] = gen_below(&g, 3) ? 1000000 + gen_below(&g, 50) * 7 : gen_below(&g, UINT64_MAX);
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
		v[i] = gen_below(&g, 100) ? 20000 + gen_below(&g, 300000) : gen_below(&g, 1000000000);
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
	return check_summary();
}
