/*
 * test_opstats.c - stats/opstats.c: exact latency per operation and of all
 * operations, fed record by record or by blocks, over as many passes as
 * the percentiles need; the all-operations state appears with a second op.
 */
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"
#include "analyze/stats/opstats.h"

/* Feed reads 1..1000 ns and, when writes, a write of 5000 ns every 10th record. */
static int feed(struct nv_opstats *s, bool writes, bool blocks)
{
	uint8_t op[1100];
	uint64_t lat[1100];
	size_t n = 0;
	int ret = 0;

	for (uint64_t v = 1; v <= 1000; v++) {
		op[n] = NVT_OP_READ;
		lat[n++] = v;
		if (writes && v % 10 == 0) {
			op[n] = NVT_OP_WRITE;
			lat[n++] = 5000;
		}
	}
	if (blocks)
		return nv_opstats_add_block(s, op, lat, n, !writes);
	for (size_t i = 0; i < n && !ret; i++)
		ret = nv_opstats_add(s, op[i], lat[i]);
	return ret;
}

/* Passes until the results are ready.  Return: the passes, or 0 on an error. */
static unsigned run(struct nv_opstats *s, bool writes, bool blocks)
{
	unsigned passes = 0;
	int more = 1;

	while (more == 1 && passes < 10) {
		if (feed(s, writes, blocks))
			return 0;
		more = nv_opstats_end_pass(s);
		passes++;
	}
	return more == 0 ? passes : 0;
}

TEST(one_operation)
{
	struct nv_opstats s;
	const struct nv_exact *r;

	nv_opstats_init(&s);
	CHECK(run(&s, false, false) >= 1);
	r = nv_opstats_get(&s, NVT_OP_READ);
	CHECK(r != NULL);
	CHECK(nv_opstats_get(&s, NVT_OP_WRITE) == NULL);
	CHECK(nv_opstats_get(&s, NV_OPSTATS_ALL) == r);	/* one op: all is that op */
	if (r) {
		CHECK_EQ_U64(nv_exact_count(r), 1000);
		CHECK_EQ_U64(nv_exact_min(r), 1);
		CHECK_EQ_U64(nv_exact_max(r), 1000);
		CHECK_EQ_U64(nv_exact_value(r, NV_P50), 500);	/* nearest rank */
		CHECK_EQ_U64(nv_exact_value(r, NV_P99), 990);
	}
	nv_opstats_free(&s);
}

TEST(two_operations_by_record_and_by_block)
{
	for (int blocks = 0; blocks < 2; blocks++) {
		struct nv_opstats s;
		const struct nv_exact *r, *w, *all;

		nv_opstats_init(&s);
		CHECK(run(&s, true, blocks) >= 1);
		r = nv_opstats_get(&s, NVT_OP_READ);
		w = nv_opstats_get(&s, NVT_OP_WRITE);
		all = nv_opstats_get(&s, NV_OPSTATS_ALL);
		CHECK(r && w && all && all != r);
		if (r && w && all) {
			CHECK_EQ_U64(nv_exact_count(r), 1000);
			CHECK_EQ_U64(nv_exact_count(w), 100);
			CHECK_EQ_U64(nv_exact_count(all), 1100);
			CHECK_EQ_U64(nv_exact_value(w, NV_P50), 5000);
			CHECK_EQ_U64(nv_exact_max(all), 5000);
			/* rank 550 of 1..1000 */
			CHECK_EQ_U64(nv_exact_value(all, NV_P50), 550);
		}
		nv_opstats_free(&s);
	}
}

int main(void)
{
	RUN(one_operation);
	RUN(two_operations_by_record_and_by_block);
	return check_summary();
}
