/*
 * test_workpool.c - analyze/stats/workpool.c: every item run exactly once,
 * whatever the number of workers; one worker runs them in order in the
 * calling thread; the CPU count of the affinity mask; a kept pool's rounds.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/stats/workpool.h"

#define NITEMS 257

struct items {
	unsigned runs[NITEMS];		/* each item's slot: written by its worker only */
	pthread_t by[NITEMS];
	size_t order[NITEMS];		/* worker 1 only: the order items ran in */
	size_t norder;
};

static int item(size_t i, void *arg)
{
	struct items *it = arg;

	it->runs[i]++;
	it->by[i] = pthread_self();
	return i % 7 ? 0 : -EIO;	/* a failed item leaves the others to run */
}

static int item_ordered(size_t i, void *arg)
{
	struct items *it = arg;

	it->order[it->norder++] = i;
	return item(i, arg);
}

TEST(every_item_once)
{
	static const unsigned workers[] = { 0, 1, 2, 4, 16, NV_POOL_MAX + 5 };

	for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
		static struct items it;
		size_t once = 0;

		memset(&it, 0, sizeof(it));
		CHECK(nv_pool_run(NITEMS, workers[w], item, &it) == 0);
		for (size_t i = 0; i < NITEMS; i++)
			once += it.runs[i] == 1;
		CHECK_EQ_U64(once, NITEMS);
	}
}

TEST(one_worker_in_order_here)
{
	static struct items it;
	pthread_t self = pthread_self();
	size_t in_order = 0, here = 0;

	memset(&it, 0, sizeof(it));
	CHECK(nv_pool_run(NITEMS, 1, item_ordered, &it) == 0);
	CHECK_EQ_U64(it.norder, NITEMS);
	for (size_t i = 0; i < NITEMS; i++) {
		in_order += it.order[i] == i;
		here += pthread_equal(it.by[i], self) != 0;
	}
	CHECK_EQ_U64(in_order, NITEMS);
	CHECK_EQ_U64(here, NITEMS);
}

TEST(no_items)
{
	static struct items it;

	memset(&it, 0, sizeof(it));
	CHECK(nv_pool_run(0, 4, item, &it) == 0);
	CHECK_EQ_U64(it.runs[0], 0);
}

/* A kept pool: many rounds (of 0 to NITEMS items), every item once a round. */
TEST(kept_pool_rounds)
{
	static const unsigned workers[] = { 0, 1, 3, 16 };

	for (size_t w = 0; w < sizeof(workers) / sizeof(workers[0]); w++) {
		static struct items it;
		struct nv_pool *p;
		size_t bad = 0;

		CHECK(nv_pool_start(&p, workers[w]) == 0);
		for (size_t r = 0; r < 200; r++) {
			size_t n = (r * 37) % (NITEMS + 1);

			memset(&it, 0, sizeof(it));
			CHECK(nv_pool_round(p, n, item, &it) == 0);
			for (size_t i = 0; i < NITEMS; i++)
				bad += it.runs[i] != (i < n);
		}
		CHECK_EQ_U64(bad, 0);
		nv_pool_stop(p);
	}
	nv_pool_stop(NULL);
}

/* A kept pool of one worker runs a round in this thread, in order. */
TEST(kept_pool_one_worker_here)
{
	static struct items it;
	pthread_t self = pthread_self();
	size_t in_order = 0, here = 0;
	struct nv_pool *p;

	memset(&it, 0, sizeof(it));
	CHECK(nv_pool_start(&p, 1) == 0);
	CHECK(nv_pool_round(p, NITEMS, item_ordered, &it) == 0);
	nv_pool_stop(p);
	for (size_t i = 0; i < NITEMS; i++) {
		in_order += it.order[i] == i;
		here += pthread_equal(it.by[i], self) != 0;
	}
	CHECK_EQ_U64(in_order, NITEMS);
	CHECK_EQ_U64(here, NITEMS);
}

TEST(cpus_of_the_mask)
{
	cpu_set_t set;
	unsigned n = nv_pool_cpus();

	CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
	CHECK_EQ_U64(n, (unsigned)CPU_COUNT(&set) < NV_POOL_MAX ? (unsigned)CPU_COUNT(&set)
								 : NV_POOL_MAX);
	CHECK(n >= 1);
}

int main(void)
{
	RUN(every_item_once);
	RUN(one_worker_in_order_here);
	RUN(no_items);
	RUN(kept_pool_rounds);
	RUN(kept_pool_one_worker_here);
	RUN(cpus_of_the_mask);
	return check_summary();
}
