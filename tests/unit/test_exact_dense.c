/*
 * test_exact_dense.c - dense count arrays come back zero, whoever used them
 * before, and an exact state after a dirty one counts only its own values.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/exact_dense.h"
#include "tests/unit/check.h"

#define N	(64 * NV_DENSE_PAGE)	/* 64 pages */

/* Return: the number of nonzero counts in d[0..n). */
static uint64_t nonzero(const uint32_t *d, uint64_t n)
{
	uint64_t c = 0;

	for (uint64_t i = 0; i < n; i++)
		c += d[i] != 0;
	return c;
}

TEST(given_back_comes_back_zero)
{
	uint64_t span;
	uint32_t *d = nv_dense_get(N, 0, &span), *again;

	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ_U64(nonzero(d, N), 0);
	d[0] = 1;
	d[3 * NV_DENSE_PAGE + 17] = 7;
	d[10 * NV_DENSE_PAGE] = 0xffffffffu;
	d[N - 1] = 2;
	nv_dense_put(d, N, N, 0);
	again = nv_dense_get(N, 0, &span);
	CHECK(again == d);		/* kept, not a new mapping */
	CHECK_EQ_U64(nonzero(again, N), 0);
	nv_dense_put(again, N, N, 0);
}

TEST(only_what_was_used_is_cleared)
{
	uint64_t span;
	uint32_t *d = nv_dense_get(N, 0, &span);

	CHECK(d != NULL);
	if (!d)
		return;
	d[5] = 3;
	d[2 * NV_DENSE_PAGE + 1] = 4;	/* used: the first 3 pages */
	nv_dense_put(d, N, 3 * NV_DENSE_PAGE, 0);
	d = nv_dense_get(N, 0, &span);
	CHECK_EQ_U64(span, 3 * NV_DENSE_PAGE);	/* what the next user must clear */
	CHECK_EQ_U64(nonzero(d, N), 0);
	nv_dense_put(d, N, span, 0);
}

TEST(resident_pages)
{
	uint64_t span;
	uint32_t *d = nv_dense_get(N + NV_DENSE_PAGE, 0, &span);	/* none kept: new */
	unsigned char in[65];

	CHECK(d != NULL);
	if (!d)
		return;
	d[7 * NV_DENSE_PAGE + 3] = 1;
	if (nv_dense_resident(d, N, in)) {	/* false with swap configured */
		CHECK(in[7] & 1);
		CHECK(!(in[40] & 1));	/* never written */
	}
	nv_dense_put(d, N + NV_DENSE_PAGE, N, 0);
}

/* Return: whether any page of d[0..N) is mapped in (-1: cannot tell). */
static int any_resident(const uint32_t *d)
{
	unsigned char in[N / NV_DENSE_PAGE];

	if (!nv_dense_resident(d, N, in))
		return -1;
	for (size_t i = 0; i < sizeof(in); i++)
		if (in[i] & 1)
			return 1;
	return 0;
}

/*
 * Give back k arrays of n counts (each with a count on its own page), take
 * k again: how many came back with their page mapped in (kept), or -1
 * when mincore cannot tell (swap configured) or an array is missing.  The
 * arrays are given back again, all their counts spanned.
 */
static int kept_of(int k, uint64_t n, uint32_t **d)
{
	uint64_t span;
	int kept = 0;

	for (int i = 0; i < k; i++) {
		d[i] = nv_dense_get(n, 0, &span);
		CHECK(d[i] != NULL);
		if (!d[i])
			return -1;
		d[i][i * NV_DENSE_PAGE] = (uint32_t)i + 1;
	}
	for (int i = 0; i < k; i++)
		nv_dense_put(d[i], n, N, 0);
	for (int i = 0; i < k; i++) {
		int r;

		d[i] = nv_dense_get(n, 0, &span);
		CHECK(d[i] != NULL);
		if (!d[i])
			return -1;
		r = any_resident(d[i]);
		if (r < 0)
			kept = -1;	/* swap configured: mincore cannot tell */
		else if (kept >= 0)
			kept += r;
		CHECK_EQ_U64(nonzero(d[i], n), 0);
	}
	for (int i = 0; i < k; i++)
		nv_dense_put(d[i], n, n, 0);
	return kept;
}

/* A kept array has its used pages mapped in (cleared); a new one none. */
TEST(keeps_at_most_the_limit)
{
	uint32_t *d[NV_DENSE_KEEP + 3];
	int kept = kept_of(NV_DENSE_KEEP + 3, 2 * N, d);	/* a size no other case kept */

	if (kept >= 0)
		CHECK_EQ_U64(kept, NV_DENSE_KEEP);
}

/*
 * Two workers: twice the arrays kept (each worker's own), and back to one
 * worker's limit when the next call has one.
 */
TEST(limit_per_worker)
{
	uint32_t *d[2 * NV_DENSE_KEEP + 3];
	int kept;

	nv_dense_workers(2);
	kept = kept_of(2 * NV_DENSE_KEEP + 3, 3 * N, d);
	if (kept >= 0)
		CHECK_EQ_U64(kept, 2 * NV_DENSE_KEEP);
	nv_dense_workers(1);
	kept = kept_of(2 * NV_DENSE_KEEP + 3, 3 * N, d);
	if (kept >= 0)
		CHECK_EQ_U64(kept, NV_DENSE_KEEP);
}

TEST(same_role_gets_its_array)
{
	uint64_t span;
	uint32_t *a = nv_dense_get(N, 5, &span), *b = nv_dense_get(N, 6, &span), *c;

	CHECK(a && b);
	if (!a || !b)
		return;
	a[9 * NV_DENSE_PAGE] = 1;
	b[1] = 1;
	nv_dense_put(a, N, N, 5);
	nv_dense_put(b, N, N, 6);	/* given back last */
	c = nv_dense_get(N, 5, &span);
	CHECK(c == a);
	CHECK_EQ_U64(span, N);
	CHECK_EQ_U64(nonzero(c, N), 0);
	nv_dense_put(c, N, span, 5);
}

/* More pages than the kept ones may hold: kept without them. */
TEST(page_budget)
{
	uint64_t n = 2 * NV_DENSE_KEEP_PAGES * NV_DENSE_PAGE, span;
	uint32_t *d = nv_dense_get(n, 9, &span);
	unsigned char *in = malloc(2 * NV_DENSE_KEEP_PAGES);

	CHECK(d && in);
	if (!d || !in)
		goto out;
	for (uint64_t pg = 0; pg <= NV_DENSE_KEEP_PAGES; pg++)
		d[pg * NV_DENSE_PAGE] = 1;
	nv_dense_put(d, n, n, 9);
	d = nv_dense_get(n, 9, &span);
	CHECK(d != NULL);
	CHECK_EQ_U64(span, 0);	/* nothing mapped in: nothing to clear */
	if (d && nv_dense_resident(d, n, in)) {
		uint64_t res = 0;

		for (uint64_t pg = 0; pg < 2 * NV_DENSE_KEEP_PAGES; pg++)
			res += in[pg] & 1;
		CHECK_EQ_U64(res, 0);
	}
	if (d) {
		CHECK_EQ_U64(nonzero(d, n), 0);
		nv_dense_put(d, n, n, 9);
	}
out:
	free(in);
}

/* An exact state over values v[0..n): its p0, p50 and p100 into out. */
static void exact_of(const uint64_t *v, size_t n, uint64_t out[3])
{
	static const double pct[] = { 0, 50, 100 };
	struct nv_exact *e;

	CHECK_EQ_I64(nv_exact_new(&e, pct, 3), 0);
	if (!e)
		return;
	nv_exact_add_many(e, v, n);
	CHECK_EQ_I64(nv_exact_end_pass(e), 0);
	CHECK_EQ_U64(nv_exact_passes(e), 1);	/* the dense single pass */
	for (int i = 0; i < 3; i++)
		out[i] = nv_exact_value(e, (size_t)i);
	nv_exact_free(e);
}

TEST(exact_after_a_dirty_array)
{
	uint64_t v[3000], r[3];

	for (size_t i = 0; i < 3000; i++)	/* 3000 values at 100 us */
		v[i] = 100000;
	exact_of(v, 3000, r);
	CHECK_EQ_U64(r[1], 100000);
	for (size_t i = 0; i < 1000; i++)	/* then 1..1000 ns */
		v[i] = i + 1;
	exact_of(v, 1000, r);
	CHECK_EQ_U64(r[0], 1);
	CHECK_EQ_U64(r[1], 500);
	CHECK_EQ_U64(r[2], 1000);
	for (size_t i = 0; i < 3000; i++)	/* and 1000 at 100 us again */
		v[i] = i < 2000 ? 100000 + i : 1;
	exact_of(v, 3000, r);
	CHECK_EQ_U64(r[0], 1);
	CHECK_EQ_U64(r[1], 100499);	/* rank 1500: the 500th of the 2000 */
	CHECK_EQ_U64(r[2], 101999);
}

int main(void)
{
	RUN(given_back_comes_back_zero);
	RUN(only_what_was_used_is_cleared);
	RUN(resident_pages);
	RUN(keeps_at_most_the_limit);
	RUN(limit_per_worker);
	RUN(same_role_gets_its_array);
	RUN(page_budget);
	RUN(exact_after_a_dirty_array);
	return check_summary();
}
