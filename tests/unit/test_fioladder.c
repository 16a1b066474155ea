/*
 * test_fioladder.c - fio's ladder of latency buckets and the rule that
 * aligns two runs' buckets by edge (analyze/input/fioladder.h, issue 59).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "analyze/input/fioladder.h"

TEST(ladder_edges)
{
	struct nv_jobextra a = { 0 }, b = { 0 };

	CHECK(nv_fio_ladder_init(&a, true) == 0 && a.nbuckets == 32);
	CHECK(nv_fio_ladder_init(&b, false) == 0 && b.nbuckets == 22);
	if (a.nbuckets == 32 && b.nbuckets == 22) {
		CHECK(a.buckets[0].lo_ns == 0 && a.buckets[0].hi_ns == 2);
		CHECK(a.buckets[10].lo_ns == 1000 && a.buckets[10].hi_ns == 2000);
		CHECK(b.buckets[0].lo_ns == 0 && b.buckets[0].hi_ns == 2000);
		/* "250=" in usec is [100 us, 250 us): the rung below, printed or not */
		CHECK(nv_fio_ladder_set(&a, 250e3, false, 4.39) == 0);
		CHECK(a.buckets[16].lo_ns == 100e3 && a.buckets[16].pct == 4.39);
		/* ms "20=" is [10 ms, 20 ms), never [2 ms, 20 ms) */
		CHECK(nv_fio_ladder_set(&a, 20e6, false, 0.05) == 0);
		CHECK(a.buckets[23].lo_ns == 10e6 && a.buckets[23].hi_ns == 20e6);
		CHECK(nv_fio_ladder_set(&a, 2e9, true, 0.01) == 0 && a.buckets[31].pct == 0.01);
		CHECK(isinf(a.buckets[31].hi_ns) && a.buckets[31].lo_ns == 2e9);
		/* off the ladder */
		CHECK(nv_fio_ladder_set(&a, 300e3, false, 1) == -EINVAL);
		CHECK(nv_fio_ladder_set(&b, 500, false, 1) == -EINVAL);	/* no ns rungs */
	}
	free(a.buckets);
	free(b.buckets);
}

TEST(align_by_edge)
{
	struct nv_jobextra a = { 0 }, b = { 0 }, none = { 0 };
	const struct nv_jobextra *xs[3] = { &a, &none, &b };
	double hi[NV_FIO_LADDER_MAX], pa[NV_FIO_LADDER_MAX], pb[NV_FIO_LADDER_MAX];
	size_t n;

	CHECK(nv_fio_ladder_init(&a, true) == 0 && nv_fio_ladder_init(&b, false) == 0);
	nv_fio_ladder_set(&a, 750, false, 1.5);		/* ns: into [0, 2 us) */
	nv_fio_ladder_set(&a, 2e3, false, 2.5);
	nv_fio_ladder_set(&a, 250e3, false, 96);
	nv_fio_ladder_set(&b, 2e3, false, 10);
	nv_fio_ladder_set(&b, 500e3, false, 90);
	n = nv_fio_ladder_common(xs, 3, hi);
	CHECK(n == 22 && hi[0] == 2e3 && isinf(hi[n - 1]));
	CHECK(nv_fio_ladder_fold(&a, hi, n, pa) == 0 && nv_fio_ladder_fold(&b, hi, n, pb) == 0);
	CHECK(pa[0] == 4 && pb[0] == 10);
	CHECK(pa[6] == 96 && pb[6] == 0 && pa[7] == 0 && pb[7] == 90);
	/* the order of the runs does not change the rows */
	xs[0] = &b;
	xs[2] = &a;
	CHECK(nv_fio_ladder_common(xs, 3, pb) == n && pb[0] == hi[0] && pb[5] == hi[5]);
	/* rows of a coarser ladder cannot hold a finer one's straddling bucket */
	hi[0] = 1000;
	CHECK(nv_fio_ladder_fold(&b, hi, n, pb) == -EINVAL);
	free(a.buckets);
	free(b.buckets);
}

TEST(compare_text_json)
{
	struct nv_jobextra t = { 0 }, j = { 0 }, none = { 0 };
	struct nv_ladder_cmp c;

	CHECK(nv_fio_ladder_init(&t, false) == 0 && nv_fio_ladder_init(&j, true) == 0);
	/* terse's lat_2us: its us share plus the ns ones, each rounded up alone */
	nv_fio_ladder_set(&j, 4, false, 0.01);
	nv_fio_ladder_set(&j, 10, false, 0.01);
	nv_fio_ladder_set(&j, 2e3, false, 1.00);
	nv_fio_ladder_set(&j, 4e3, false, 98.98);
	nv_fio_ladder_set(&t, 2e3, false, 1.01);
	nv_fio_ladder_set(&t, 4e3, false, 98.98);
	CHECK(nv_fio_ladder_cmp(&t, &j, &c) == 0 && c.rows == 2 && c.bad == 0);
	nv_fio_ladder_set(&j, 4e3, false, 98.9751);	/* printed 98.98: within 0.005% */
	CHECK(nv_fio_ladder_cmp(&t, &j, &c) == 0 && c.bad == 0);
	nv_fio_ladder_set(&t, 4e3, false, 97.98);
	CHECK(nv_fio_ladder_cmp(&t, &j, &c) == 0 && c.bad == 1 && c.lo == 2e3 && c.hi == 4e3);
	CHECK(nv_fio_ladder_cmp(&none, &j, &c) == -EINVAL);
	CHECK(nv_fio_ladder_cmp(&t, &none, &c) == 0 && c.rows == 0);
	free(t.buckets);
	free(j.buckets);
}

int main(void)
{
	RUN(ladder_edges);
	RUN(align_by_edge);
	RUN(compare_text_json);
	return check_summary();
}
