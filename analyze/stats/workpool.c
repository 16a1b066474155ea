/*
 * workpool.c - a pool of threads for independent work items (workpool.h).
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analyze/stats/workpool.h"

struct pool {
	pthread_mutex_t lock;
	size_t next, n;		/* the next item to hand out; the items */
	nv_pool_fn fn;
	void *arg;
};

unsigned nv_pool_cpus(void)
{
	cpu_set_t set;
	int n;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	if (n < 1)
		return 1;
	return n > NV_POOL_MAX ? NV_POOL_MAX : (unsigned)n;
}

/* The next item's index, or false when every item was handed out. */
static bool pool_take(struct pool *p, size_t *i)
{
	bool got;

	pthread_mutex_lock(&p->lock);
	got = p->next < p->n;
	if (got)
		*i = p->next++;
	pthread_mutex_unlock(&p->lock);
	return got;
}

/* A worker: items until none is left.  Return: NULL. */
static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	while (pool_take(p, &i))
		p->fn(i, p->arg);	/* its result is in its slot */
	return NULL;
}

/* Every item in order in this thread.  Return: 0. */
static int pool_serial(size_t n, nv_pool_fn fn, void *arg)
{
	for (size_t i = 0; i < n; i++)
		fn(i, arg);	/* its result is in its slot */
	return 0;
}

int nv_pool_run(size_t n, unsigned workers, nv_pool_fn fn, void *arg)
{
	struct pool p = { .next = 0, .n = n, .fn = fn, .arg = arg };
	size_t started = 0, nth = workers < n ? workers : n;
	pthread_t *th;

	if (nth <= 1)
		return pool_serial(n, fn, arg);
	if (nth > NV_POOL_MAX)
		nth = NV_POOL_MAX;
	th = calloc(nth - 1, sizeof(*th));
	if (!th || pthread_mutex_init(&p.lock, NULL)) {
		free(th);
		return pool_serial(n, fn, arg);
	}
	for (size_t k = 0; k + 1 < nth; k++) {
		if (pthread_create(&th[k], NULL, pool_worker, &p))
			break;	/* the ones started (and this thread) do the rest */
		started++;
	}
	pool_worker(&p);
	for (size_t k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&p.lock);
	free(th);
	return 0;
}
