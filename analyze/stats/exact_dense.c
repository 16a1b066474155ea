/*
 * exact_dense.c - dense count arrays, mapped once and reused (see
 * exact_dense.h).
 *
 * Kept arrays: at most NV_DENSE_KEEP, holding at most NV_DENSE_KEEP_PAGES
 * pages mapped in among them, per worker (nv_dense_workers), so that
 * keeping them adds at most that much to the peak memory of a call per
 * worker, whatever it does once its traces are read.
 * An array given back beyond the page budget is kept with its pages
 * dropped, which costs its next user the page faults of a new one.  Each
 * array remembers its span (the counts any user may have written, so the
 * counts a clear must look at) and its last user's role: the state of the
 * same role in the next trace touches the same pages.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

#include "analyze/stats/exact_dense.h"

#define PAGE_BYTES	(NV_DENSE_PAGE * sizeof(uint32_t))

struct kept {
	uint32_t *d;
	uint64_t n;
	uint64_t span;		/* counts [span, n) never written by any user */
	uint64_t pages;		/* mapped in (cleared) */
	unsigned role;		/* of its last user */
};

static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept keep[NV_DENSE_KEEP * NV_DENSE_KEEP_WORKERS];
static unsigned nkeep;
static uint64_t keep_pages;	/* the sum of keep[].pages */
static unsigned keep_max = NV_DENSE_KEEP;		/* arrays, for all workers */
static uint64_t keep_pages_max = NV_DENSE_KEEP_PAGES;	/* pages, for all workers */

/*
 * Take keep[i] out of the list (the lock held).
 * Return: it.
 */
static struct kept take(unsigned i)
{
	struct kept k = keep[i];

	keep_pages -= k.pages;
	memmove(keep + i, keep + i + 1, (--nkeep - i) * sizeof(keep[0]));
	return k;
}

void nv_dense_workers(unsigned n)
{
	if (n < 1)
		n = 1;
	if (n > NV_DENSE_KEEP_WORKERS)
		n = NV_DENSE_KEEP_WORKERS;
	pthread_mutex_lock(&keep_lock);
	keep_max = NV_DENSE_KEEP * n;
	keep_pages_max = (uint64_t)NV_DENSE_KEEP_PAGES * n;
	while (nkeep > keep_max) {	/* fewer workers than before: the oldest go */
		struct kept old = take(0);

		munmap(old.d, old.n * sizeof(uint32_t));
	}
	pthread_mutex_unlock(&keep_lock);
}

/*
 * The kept array of n counts for a user of this role (the lock held): the
 * last one of the same role, else the one with the fewest pages mapped in.
 * Return: its index, or -1 when none has n counts.
 */
static int pick(uint64_t n, unsigned role)
{
	int best = -1;

	for (unsigned i = 0; i < nkeep; i++) {
		if (keep[i].n != n)
			continue;
		if (keep[i].role == role)
			best = (int)i;
		else if (best < 0 || (keep[best].role != role && keep[i].pages < keep[best].pages))
			best = (int)i;
	}
	return best;
}

uint32_t *nv_dense_get(uint64_t n, unsigned role, uint64_t *span)
{
	struct kept k = { 0 };
	int i;
	void *p;

	pthread_mutex_lock(&keep_lock);
	if ((i = pick(n, role)) >= 0)
		k = take((unsigned)i);
	pthread_mutex_unlock(&keep_lock);
	*span = k.span;
	if (k.d)
		return k.d;
	p = mmap(NULL, n * sizeof(uint32_t), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/*
 * Whether none of this process's pages is in swap now: no swap space
 * configured (swapoff brings every page back first), else VmSwap 0 in
 * /proc/self/status.  After a mincore of pages nobody else touches, true
 * means that mincore saw them all: a page swapped out before it stays out
 * until it is touched (a swapoff between the two calls is not guarded).
 * Return: true when none is.
 */
static bool none_swapped(void)
{
	struct sysinfo si;
	char line[128];
	bool none = false;
	FILE *f;

	if (!sysinfo(&si) && si.totalswap == 0)
		return true;
	if (!(f = fopen("/proc/self/status", "re")))
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmSwap:", 7)) {
			none = strtoull(line + 7, NULL, 10) == 0;
			break;
		}
	fclose(f);
	return none;
}

bool nv_dense_resident(const uint32_t *d, uint64_t used, unsigned char *in)
{
	uint64_t pages = (used + NV_DENSE_PAGE - 1) / NV_DENSE_PAGE;

	/* a page in swap reads as not resident, yet holds counts */
	return !pages || (!mincore((void *)d, pages * PAGE_BYTES, in) && none_swapped());
}

/*
 * Whether the page of counts at p reads all zero: then it needs no
 * clearing, and a page only ever read (the kernel's zero page mapped in,
 * as a rank's walk or a merge's read leaves it) stays shared instead of
 * becoming a page of its own.
 * Return: true when it does.
 */
static bool page_zero(const uint32_t *p)
{
	const uint64_t *w = (const uint64_t *)p;
	uint64_t any = 0;

	for (size_t i = 0; i < PAGE_BYTES / sizeof(*w); i++)
		any |= w[i];
	return !any;
}

/*
 * Counts d[0..span) back to zero.  With at most budget pages mapped in
 * (nv_dense_resident), those that hold a count are cleared in place and
 * the others, never written, stay as they are; otherwise (or when that cannot be told) all
 * are dropped with MADV_DONTNEED, which makes them read as zero again.
 * Return: the pages left mapped in, or -1 when nothing could be done
 * (unmap the array).
 */
static int64_t dense_clear(uint32_t *d, uint64_t span, uint64_t budget)
{
	uint64_t pages = (span + NV_DENSE_PAGE - 1) / NV_DENSE_PAGE, in_ram = 0;
	unsigned char in[2048], *big = NULL, *res = in;
	int64_t ret = -1;

	if (pages > sizeof(in) && !(res = big = malloc(pages)))
		return -1;
	if (nv_dense_resident(d, span, res)) {
		for (uint64_t pg = 0; pg < pages; pg++)
			in_ram += res[pg] & 1;
		if (in_ram <= budget) {
			for (uint64_t pg = 0; pg < pages; pg++)
				if ((res[pg] & 1) && !page_zero(d + pg * NV_DENSE_PAGE))
					memset(d + pg * NV_DENSE_PAGE, 0, PAGE_BYTES);
			ret = (int64_t)in_ram;
		}
	}
	if (ret < 0 && !madvise(d, pages * PAGE_BYTES, MADV_DONTNEED))
		ret = 0;
	free(big);
	return ret;
}

void nv_dense_put(uint32_t *d, uint64_t n, uint64_t span, unsigned role)
{
	struct kept old = { .d = d, .n = n };
	uint64_t budget;
	int64_t pages;

	if (!d)
		return;
	pthread_mutex_lock(&keep_lock);
	budget = keep_pages < keep_pages_max ? keep_pages_max - keep_pages : 0;
	pthread_mutex_unlock(&keep_lock);
	pages = dense_clear(d, span, budget);
	if (pages >= 0) {	/* kept; the oldest kept one goes when full */
		pthread_mutex_lock(&keep_lock);
		old = nkeep >= keep_max ? take(0) : (struct kept){ 0 };
		keep[nkeep++] = (struct kept){ .d = d, .n = n, .span = pages ? span : 0,
					       .pages = (uint64_t)pages, .role = role };
		keep_pages += (uint64_t)pages;
		pthread_mutex_unlock(&keep_lock);
	}
	if (old.d)
		munmap(old.d, old.n * sizeof(uint32_t));
}
