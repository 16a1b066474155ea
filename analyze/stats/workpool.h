/*
 * workpool.h - a pool of threads for independent work items: items
 * 0..n-1 are handed out in order, each to the next idle worker, until all
 * are done.  The pool itself keeps no result: each item writes its own slot
 * (chosen by its index), so that the caller merges the slots in index order
 * and the output does not depend on the number of workers or on timing.
 * A failed item does not stop the others.
 *
 * Shared state: only the next item's index (a mutex); whatever else the
 * items share (a progress callback) is theirs to lock.
 */
#ifndef NV_ANALYZE_WORKPOOL_H
#define NV_ANALYZE_WORKPOOL_H

#include <stddef.h>

#define NV_POOL_MAX 1024	/* at most this many workers (-J) */

/* Work item i of a pool run (arg: nv_pool_run's).  Return: 0 or -errno. */
typedef int (*nv_pool_fn)(size_t i, void *arg);

/*
 * The number of CPUs this process may run on (sched_getaffinity), at least
 * 1, at most NV_POOL_MAX.
 * Return: that number.
 */
unsigned nv_pool_cpus(void);

/*
 * Run fn(i, arg) for every i in 0..n-1 on min(workers, n) threads (1: in
 * this thread, in order, no thread started).  When a thread cannot be
 * started the ones that were (at least this thread) do the work.
 * Return: 0 when every item ran (each item's own result is its slot's).
 */
int nv_pool_run(size_t n, unsigned workers, nv_pool_fn fn, void *arg);

/*
 * A pool kept for many rounds of items (the rounds of one job's thread
 * traces, trace_merge.c): its threads wait between rounds instead of being
 * started for each.  Not thread-safe: one caller runs its rounds.
 */
struct nv_pool;

/*
 * A kept pool of min(workers, NV_POOL_MAX) workers, this thread one of them
 * (workers <= 1: none started, rounds run in this thread; a thread that
 * cannot be started leaves the others to do the work).
 * Return: 0 with *p set (free with nv_pool_stop), or -ENOMEM.
 */
int nv_pool_start(struct nv_pool **p, unsigned workers);

/*
 * Run fn(i, arg) for every i in 0..n-1 on p's workers and this thread;
 * return when every item ran (each item's result is its slot's, as
 * nv_pool_run's).
 * Return: 0.
 */
int nv_pool_round(struct nv_pool *p, size_t n, nv_pool_fn fn, void *arg);

/* Return: nothing; p's threads ended and p freed (NULL: nothing). */
void nv_pool_stop(struct nv_pool *p);

#endif
