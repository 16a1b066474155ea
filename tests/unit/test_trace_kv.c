/*
 * test_trace_kv.c - the key/value lists trace headers and footers are built
 * from (trace/nvtrace_kv.c).
 */
#include <stdint.h>
#include <stdlib.h>

#include "trace/nvtrace_kv.h"
#include "tests/unit/check.h"

/* Pairs keep their order; values are formatted; the list grows past its first size. */
TEST(add_formats_in_order)
{
	struct nvt_kvlist l = { 0 };
	char key[32];
	unsigned int i;

	nvt_kvlist_add(&l, "job.name", "%s", "randread");
	nvt_kvlist_add(&l, "job.iodepth", "%u", 32u);
	for (i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "file.%u.path", i);
		nvt_kvlist_add(&l, key, "/dev/ng0n%u", i);
	}
	CHECK(!l.oom);
	CHECK_EQ_U64(l.n, 102);
	CHECK_STR(l.kv[0].key, "job.name");
	CHECK_STR(l.kv[0].value, "randread");
	CHECK_STR(l.kv[1].value, "32");
	CHECK_STR(l.kv[101].key, "file.99.path");
	CHECK_STR(l.kv[101].value, "/dev/ng0n99");
	nvt_kvlist_free(&l);
	CHECK_EQ_U64(l.n, 0);
	CHECK(l.kv == NULL);
}

/* extend copies every pair after the list's own; the source stays its owner's. */
TEST(extend_copies)
{
	struct nvt_kvlist a = { 0 }, b = { 0 };

	nvt_kvlist_add(&a, "clock", "CLOCK_MONOTONIC");
	nvt_kvlist_add(&b, "file.0.nsid", "%d", 1);
	nvt_kvlist_add(&b, "file.0.smart.before.temperature_c", "%d", 31);
	nvt_kvlist_extend(&a, &b);
	CHECK(!a.oom);
	CHECK_EQ_U64(a.n, 3);
	CHECK_STR(a.kv[1].key, "file.0.nsid");
	CHECK_STR(a.kv[2].value, "31");
	CHECK(a.kv[2].value != b.kv[1].value);
	nvt_kvlist_free(&b);
	CHECK_STR(a.kv[2].key, "file.0.smart.before.temperature_c");
	nvt_kvlist_free(&a);
}

/* An incomplete source makes the result incomplete; an incomplete list takes nothing more. */
TEST(oom_is_sticky)
{
	struct nvt_kvlist a = { 0 }, b = { 0 };

	nvt_kvlist_add(&b, "k", "v");
	b.oom = 1;
	nvt_kvlist_extend(&a, &b);
	CHECK(a.oom);
	nvt_kvlist_add(&a, "later", "x");
	CHECK_EQ_U64(a.n, 0);
	nvt_kvlist_free(&a);
	nvt_kvlist_free(&b);
	CHECK(!a.oom);
}

int main(void)
{
	RUN(add_formats_in_order);
	RUN(extend_copies);
	RUN(oom_is_sticky);
	return check_summary();
}
