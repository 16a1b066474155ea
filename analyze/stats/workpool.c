/*
 * workpool.c - a pool of threads for independent work items (workpool.h).
 */
#include <errno.h>
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

/* A kept pool: its workers wait on go for the next round (gen). */
struct nv_pool {
	pthread_mutex_t lock;
	pthread_cond_t go, idle;	/* a round started; the last worker left one */
	pthread_t *th;
	size_t nth;		/* threads started */
	unsigned long gen;	/* rounds started */
	size_t next, n;		/* the round's next item; its items */
	unsigned active;	/* workers inside the round */
	bool stop;
	nv_pool_fn fn;
	void *arg;
};

/* The items of p's round until none is left; p->lock held.  Return: nothing. */
static void kept_items(struct nv_pool *p)
{
	p->active++;
	while (p->next < p->n) {
		size_t i = p->next++;

		pthread_mutex_unlock(&p->lock);
		p->fn(i, p->arg);	/* its result is in its slot */
		pthread_mutex_lock(&p->lock);
	}
	if (!--p->active)
		pthread_cond_broadcast(&p->idle);
}

/* A kept worker: each round's items, until stopped.  Return: NULL. */
static void *kept_worker(void *arg)
{
	struct nv_pool *p = arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->gen == seen)
			pthread_cond_wait(&p->go, &p->lock);
		if (p->stop)
			break;
		seen = p->gen;
		kept_items(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int nv_pool_start(struct nv_pool **pp, unsigned workers)
{
	struct nv_pool *p = calloc(1, sizeof(*p));
	size_t want = workers > NV_POOL_MAX ? NV_POOL_MAX : workers;

	*pp = NULL;
	if (!p)
		return -ENOMEM;
	if (want > 1 && !(p->th = calloc(want - 1, sizeof(*p->th)))) {
		free(p);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&p->lock, NULL)) {
		free(p->th);
		free(p);
		return -ENOMEM;
	}
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->idle, NULL);
	for (size_t k = 0; k + 1 < want; k++) {
		if (pthread_create(&p->th[k], NULL, kept_worker, p))
			break;	/* the ones started (and this thread) do the rest */
		p->nth++;
	}
	*pp = p;
	return 0;
}

int nv_pool_round(struct nv_pool *p, size_t n, nv_pool_fn fn, void *arg)
{
	if (!p->nth)
		return pool_serial(n, fn, arg);
	pthread_mutex_lock(&p->lock);
	p->fn = fn;
	p->arg = arg;
	p->next = 0;
	p->n = n;
	p->gen++;
	pthread_cond_broadcast(&p->go);
	kept_items(p);
	while (p->active)
		pthread_cond_wait(&p->idle, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

void nv_pool_stop(struct nv_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->lock);
	for (size_t k = 0; k < p->nth; k++)
		pthread_join(p->th[k], NULL);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->idle);
	pthread_mutex_destroy(&p->lock);
	free(p->th);
	free(p);
}
