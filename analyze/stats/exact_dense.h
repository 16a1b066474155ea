/*
 * exact_dense.h - the dense count arrays of exact.c's single pass: mapped
 * zero, and handed back cleared for the next state instead of unmapped.
 *
 * Why: an array is 2^21 counts (8 MiB), mapped so that only the pages a
 * count lands in become resident.  Each such page costs a page fault on
 * first use, about 7.5 us on this project's virtual machines (perf, `stat`
 * of 64 traces x 1 M IOs: a fifth of the CPU), and every job, operation
 * and queue-depth class of every trace maps a new array.  Clearing the
 * pages a state used costs about 0.1 us a page, so the next state starts
 * from pages already mapped in.
 *
 * Thread-safe: workers (-J) take and give back arrays concurrently.
 */
#ifndef NV_EXACT_DENSE_H
#define NV_EXACT_DENSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * An array of n zero counts for a user of the given role (any number; 0
 * for none): one given back earlier with the same n, the last user's of
 * the same role when there is one, or a new anonymous mapping.  *span:
 * the counts earlier users may have written (0 for a new one); the user
 * gives back at least that span.
 * Return: the array, or NULL (no memory).
 */
uint32_t *nv_dense_get(uint64_t n, unsigned role, uint64_t *span);

/*
 * Give back array d of n counts whose counts [span, n) were never written
 * (span: at least nv_dense_get's): cleared and kept for nv_dense_get (the
 * NV_DENSE_KEEP given back last, an older one unmapped; its pages kept
 * mapped in while all the kept ones hold at most NV_DENSE_KEEP_PAGES,
 * dropped otherwise), or unmapped when it cannot be cleared.
 * Return: nothing.
 */
void nv_dense_put(uint32_t *d, uint64_t n, uint64_t span, unsigned role);

#define NV_DENSE_KEEP		8	/* arrays kept per worker */
#define NV_DENSE_KEEP_PAGES	1024	/* 4 MiB mapped in among them, per worker */
#define NV_DENSE_KEEP_WORKERS	16	/* the most workers the budget grows for */

/*
 * Size the keeping for n workers taking arrays at once (-J n): each worker
 * gives back and takes its own arrays, so the budget (NV_DENSE_KEEP
 * arrays, NV_DENSE_KEEP_PAGES pages) is n times a worker's, n at most
 * NV_DENSE_KEEP_WORKERS.  A smaller budget than before unmaps the oldest
 * kept arrays beyond its count at once; pages beyond it stay mapped in
 * until their arrays are taken (what is given back meanwhile keeps none).
 * Call before the workers start.
 * Return: nothing.
 */
void nv_dense_workers(unsigned n);

/*
 * Which pages of d[0..used) are mapped in (NV_DENSE_PAGE counts a page),
 * into in[0..pages): a page never written reads as zero without being read.
 * Only while none of the process's pages is in swap (no swap space, or
 * VmSwap 0): a page in swap holds counts yet is not mapped in.
 * Return: true when in holds the answer, false when it cannot be told
 * (read, or clear, every page).
 */
bool nv_dense_resident(const uint32_t *d, uint64_t used, unsigned char *in);

#define NV_DENSE_PAGE	1024	/* counts per 4 KiB page */

#endif
