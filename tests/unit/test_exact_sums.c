/*
 * test_exact_sums.c - exact.c's sums: count, mean and stdev bit for bit the
 * same in any order and any split into merged states; nv_exact_add_counts
 * against nv_exact_add of each copy; stdev against a two-pass reference.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/exact.h"
#include "tests/unit/check.h"
#include "tests/unit/trace_gen.h"

static const double pcts[] = { 0, 1, 50, 90, 99, 99.9, 99.99, 100 };
#define NPCT (sizeof(pcts) / sizeof(pcts[0]))
/* 4.3 s past the default first counting limit: the far list */
#define FAR (65536 + (uint64_t)UINT32_MAX)

/* Return: a new state with the single-pass limits (dense 0 and ovf 0: the defaults). */
static struct nv_exact *mk(uint64_t dense, size_t ovf)
{
	struct nv_exact *e = NULL;

	CHECK_EQ_I64(nv_exact_new(&e, pcts, NPCT), 0);
	if (e && (dense || ovf))
		nv_exact_set_single(e, dense, ovf);
	if (e)
		nv_exact_set_limits(e, 64, 16);
	return e;
}

/* Return: 1 when a and b agree on count, min, max, mean and stdev (bits), else 0. */
static int same_sums(const struct nv_exact *a, const struct nv_exact *b)
{
	double ma = nv_exact_mean(a), mb = nv_exact_mean(b);
	double sa = nv_exact_stdev(a), sb = nv_exact_stdev(b);

	return nv_exact_count(a) == nv_exact_count(b) && nv_exact_min(a) == nv_exact_min(b) &&
	       nv_exact_max(a) == nv_exact_max(b) && !memcmp(&ma, &mb, sizeof(ma)) &&
	       !memcmp(&sa, &sb, sizeof(sa));
}

/* Return: 1 when a and b (pass 1 ended) agree on everything, histogram included. */
static int same_all(const struct nv_exact *a, const struct nv_exact *b)
{
	const uint64_t *ha = nv_exact_hist(a), *hb = nv_exact_hist(b);

	if (!same_sums(a, b) || nv_exact_passes(a) != nv_exact_passes(b))
		return 0;
	for (size_t i = 0; i < NPCT; i++)
		if (nv_exact_value(a, i) != nv_exact_value(b, i))
			return 0;
	return ha && hb && !memcmp(ha, hb, NV_EXACT_NBUCKETS * sizeof(*ha));
}

/* Return: 0, or the error; the passes of e over v[0..n), added one at a time. */
static int run_passes(struct nv_exact *e, const uint64_t *v, size_t n)
{
	int err;

	do {
		nv_exact_add_many(e, v, n);
	} while ((err = nv_exact_end_pass(e)) == 1);
	return err;
}

/* Fill v[0..n) with latencies, some above the dense limit, some far. */
static void latencies(uint64_t *v, size_t n, uint64_t seed)
{
	struct gen_rng rng = { seed };

	for (size_t i = 0; i < n; i++) {
		uint64_t r = gen_next(&rng);

		v[i] = i % 211 == 5 ? FAR + r % 100000 : i % 53 == 3 ? 3000000 + r % 9000000 :
		       15000 + r % 20000;
	}
}

/*
 * The same values in three orders (as made, reversed, shuffled): the same
 * mean and stdev bits and percentiles.  Before the exact sums the sum of
 * squares was a double accumulated in arrival order: this failed.
 */
TEST(any_order_same_bits)
{
	enum { N = 50000 };
	static uint64_t v[3][N];
	struct gen_rng rng = { 5 };
	struct nv_exact *e[3] = { NULL };

	latencies(v[0], N, 41);
	for (size_t i = 0; i < N; i++)
		v[1][i] = v[2][i] = v[0][N - 1 - i];
	for (size_t i = N - 1; i > 0; i--) {
		size_t j = gen_below(&rng, i + 1);
		uint64_t t = v[2][i];

		v[2][i] = v[2][j];
		v[2][j] = t;
	}
	for (int k = 0; k < 3; k++) {
		e[k] = mk(0, 0);
		CHECK(e[k] && !run_passes(e[k], v[k], N));
	}
	CHECK(e[0] && e[1] && e[2] && same_all(e[0], e[1]) && same_all(e[0], e[2]));
	for (int k = 0; k < 3; k++)
		nv_exact_free(e[k]);
}

/*
 * The values split into 4 states (by position, by a random draw), merged
 * (the largest moved, the others merged; one part cloned from another
 * first): the single state's mean and stdev bits.  Failed before the exact
 * sums (a merge shifted a double sum of squares).
 */
TEST(split_merged_same_bits)
{
	enum { N = 40000, PARTS = 4 };
	static uint64_t v[N], part[PARTS][N];
	struct gen_rng rng = { 77 };

	latencies(v, N, 43);
	for (unsigned rule = 0; rule < 2; rule++) {
		struct nv_exact *want = mk(0, 0), *m = mk(0, 0), *p[PARTS] = { NULL }, *c = NULL;
		size_t np[PARTS] = { 0 };
		int err;

		for (size_t i = 0; i < N; i++) {
			unsigned k = rule ? (unsigned)gen_below(&rng, PARTS) :
					   (unsigned)(i * PARTS / N);

			part[k][np[k]++] = v[i];
		}
		for (unsigned k = 0; k < PARTS; k++) {
			p[k] = mk(0, 0);
			if (p[k])
				nv_exact_add_many(p[k], part[k], np[k]);
		}
		/* c: a clone of part 2's state fed part 3 (a clone continues as the
		 * state it copies would) */
		CHECK(p[2] && !nv_exact_clone(p[2], &c));
		if (c)
			nv_exact_add_many(c, part[3], np[3]);
		nv_exact_add_many(want, v, N);
		CHECK(m && !nv_exact_merge_move(m, p[0]));
		for (unsigned k = 1; k < PARTS; k++)
			CHECK(m && p[k] && !nv_exact_merge(m, p[k]));
		CHECK(m && want && same_sums(m, want));
		err = want ? nv_exact_end_pass(want) : -1;
		CHECK_EQ_I64(err, 0);
		CHECK_EQ_I64(m ? nv_exact_end_pass(m) : -1, 0);
		CHECK(m && want && same_all(m, want));
		/* the clone holds parts 2 and 3: so does a state merged of them */
		if (c && p[3]) {
			struct nv_exact *two = mk(0, 0);

			CHECK(two && !nv_exact_merge(two, p[2]) && !nv_exact_merge(two, p[3]));
			CHECK(two && same_sums(two, c));
			nv_exact_free(two);
		}
		for (unsigned k = 0; k < PARTS; k++)
			nv_exact_free(p[k]);
		nv_exact_free(c);
		nv_exact_free(m);
		nv_exact_free(want);
	}
}

/* A script of adds: counted ranges and runs of single values. */
struct step {
	uint64_t lo;
	size_t n;	/* cnt[off..off+n) at lo, or (many) vals[off..off+n) */
	size_t off;
	int many;
};

/* Return: nothing; the steps into e, counted ranges by nv_exact_add_counts
 * (counts) or by nv_exact_add of each copy, runs by nv_exact_add_many. */
static void play(struct nv_exact *e, const struct step *s, size_t ns, const uint32_t *cnt,
		 const uint64_t *vals, int counts)
{
	for (size_t k = 0; k < ns; k++) {
		if (s[k].many) {
			nv_exact_add_many(e, vals + s[k].off, s[k].n);
		} else if (counts) {
			nv_exact_add_counts(e, s[k].lo, cnt + s[k].off, s[k].n);
		} else {
			for (size_t i = 0; i < s[k].n; i++)
				for (uint32_t c = 0; c < cnt[s[k].off + i]; c++)
					nv_exact_add(e, s[k].lo + i);
		}
	}
}

/*
 * nv_exact_add_counts equals nv_exact_add of each copy: ranges below the
 * first counting limit, across it, above the dense limit and far, sparse
 * counts with a few large ones, interleaved with nv_exact_add_many runs;
 * default limits, small ones (raises, a full list: more passes) and the
 * single pass off.  Every result, the list's size before end_pass and the
 * histogram after it.
 */
TEST(add_counts_equals_add)
{
	const struct { uint64_t dense; size_t ovf; } lim[] = {
		{ 0, 0 }, { 4096, 50 }, { 4096, 100000 }, { 1u << 21, 40 }, { 1, 0 },
	};
	const uint64_t los[] = { 9000, 60000, 100, 3000000, FAR - 50, 1000, 2000000 };
	enum { L = 3000, NS = 12 };
	static uint32_t cnt[NS * L];
	static uint64_t vals[NS * L];
	struct step s[NS];
	struct gen_rng rng = { 13 };

	for (size_t k = 0; k < NS; k++) {
		s[k] = (struct step){ .lo = los[k % 7], .n = L, .off = k * L, .many = k % 3 == 2 };
		for (size_t i = 0; i < L; i++) {
			uint64_t r = gen_next(&rng);

			cnt[k * L + i] = r % 5 ? 0 : r % 97 == 0 ? (uint32_t)(r >> 40) % 3000 :
					 (uint32_t)(r >> 32) % 4;
			vals[k * L + i] = (r >> 8) % 3 ? 20000 + r % 50000 : r % 5000000;
		}
	}
	for (size_t l = 0; l < sizeof(lim) / sizeof(lim[0]); l++) {
		struct nv_exact *a = mk(lim[l].dense, lim[l].ovf);
		struct nv_exact *b = mk(lim[l].dense, lim[l].ovf);
		int ea, eb;

		if (!a || !b) {
			nv_exact_free(a);
			nv_exact_free(b);
			continue;
		}
		play(a, s, NS, cnt, vals, 0);
		play(b, s, NS, cnt, vals, 1);
		CHECK(same_sums(a, b));
		CHECK_EQ_U64(nv_exact_listed(b), nv_exact_listed(a));
		while ((ea = nv_exact_end_pass(a)) == 1)
			play(a, s, NS, cnt, vals, 0);
		while ((eb = nv_exact_end_pass(b)) == 1)
			play(b, s, NS, cnt, vals, 1);
		CHECK_EQ_I64(ea, 0);
		CHECK_EQ_I64(eb, 0);
		CHECK(same_all(a, b));
		nv_exact_free(a);
		nv_exact_free(b);
	}
}

/* Return: the sample stdev of v[0..n) in long double, two passes over the exact
 * differences from v[0] (so huge values lose nothing). */
static long double ref_stdev(const uint64_t *v, size_t n)
{
	long double mean = 0, ss = 0;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		mean += (long double)(int64_t)(v[i] - v[0]);
	mean /= n;
	for (size_t i = 0; i < n; i++) {
		long double d = (long double)(int64_t)(v[i] - v[0]) - mean;

		ss += d * d;
	}
	return sqrtl(ss / (n - 1));
}

/*
 * stdev and mean against a long double reference: a huge mean with a tiny
 * variance, values near 2^63 and near 2^64, a spread as wide as 2^62, one
 * value, two.
 */
TEST(stdev_accuracy)
{
	const uint64_t t63 = 1ull << 63;
	const struct { size_t n; uint64_t v[6]; } cases[] = {
		{ 3, { 1000000000000000ull, 1000000000000001ull, 1000000000000002ull } },
		{ 5, { t63, t63 - 1, t63 - 2, t63 - 5, t63 - 1000 } },
		{ 4, { UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 7, UINT64_MAX - 3 } },
		{ 3, { t63 - (1ull << 61), t63, t63 + (1ull << 61) } },
		{ 1, { 123456789 } },
		{ 2, { 3, 7 } },
		{ 6, { 20000, 20000, 20000, 20000, 20000, 20001 } },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct nv_exact *e = mk(0, 0);
		const uint64_t *v = cases[c].v;
		size_t n = cases[c].n;
		long double want = ref_stdev(v, n), mean = 0;
		double got;

		if (!e)
			continue;
		for (size_t i = 0; i < n; i++) {
			nv_exact_add(e, v[i]);
			mean += (long double)(int64_t)(v[i] - v[0]);
		}
		mean = mean / n + (long double)v[0];
		got = nv_exact_stdev(e);
		CHECK(fabsl((long double)got - want) <= 1e-15L * want);
		CHECK(fabsl((long double)nv_exact_mean(e) - mean) <= 1e-15L * mean);
		CHECK_EQ_I64(nv_exact_end_pass(e), 0);
		CHECK(nv_exact_stdev(e) == got);
		nv_exact_free(e);
	}
	{	/* 10^15 + {0, 1, 2}: exactly 1 */
		struct nv_exact *e = mk(0, 0);

		for (uint64_t i = 0; e && i < 3; i++)
			nv_exact_add(e, 1000000000000000ull + i);
		CHECK(e && nv_exact_stdev(e) == 1.0 && nv_exact_mean(e) == 1000000000000001.0);
		nv_exact_free(e);
	}
}

int main(void)
{
	RUN(any_order_same_bits);
	RUN(split_merged_same_bits);
	RUN(add_counts_equals_add);
	RUN(stdev_accuracy);
	return check_summary();
}
