/*
 * fioladder.h - fio's fixed ladder of latency buckets, the one every fio
 * reader (JSON, normal, terse) fills, and the one rule that lines two
 * runs' buckets up by their edges.
 *
 * fio counts each IO in one bucket of a fixed ladder (stat.c io_u_lat_n,
 * io_u_lat_u, io_u_lat_m): upper edges 2, 4, 10, 20, 50, 100, 250, 500,
 * 750, 1000 ns (fio >= 3.0 only), the same in us, then 2, 4, 10, 20, 50,
 * 100, 250, 500, 750, 1000, 2000 ms and ">= 2000 ms".  A bucket's lower
 * edge is the rung below it, whatever the output printed: normal output
 * leaves empty buckets out ("250=4.39%, 500=7.08%" is [100, 250 us) and
 * [250, 500 us)).  Without the ns rungs (fio 2.x, and terse output, which
 * adds the ns buckets to its first: stat.c stat_calc_lat_nu) the first
 * bucket is [0, 2 us); with them [0, 2 ns).
 */
#ifndef NV_ANALYZE_FIOLADDER_H
#define NV_ANALYZE_FIOLADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

#define NV_FIO_LADDER_NS 10	/* the ns rungs */
#define NV_FIO_LADDER_MAX 32	/* rungs with the ns ones: 10 ns, 10 us, 12 ms */

/*
 * Give x fio's whole ladder, every share 0: the ns rungs too when ns (fio
 * 3's JSON and normal output), else the first bucket is [0, 2 us).  Any
 * buckets x had are freed.
 * Return: 0 or -ENOMEM.
 */
int nv_fio_ladder_init(struct nv_jobextra *x, bool ns);

/*
 * Set the share of x's bucket whose upper edge is hi_ns (ge: fio's
 * ">=2000" ms bucket, hi_ns its lower edge 2e9) to pct.
 * Return: 0, or -EINVAL when x's ladder has no such rung (an edge fio never
 * prints; nv_fio_ladder_init first).
 */
int nv_fio_ladder_set(struct nv_jobextra *x, double hi_ns, bool ge, double pct);

/*
 * The one rule that aligns runs' buckets: the upper edges (ns, ascending,
 * INFINITY last) that every ladder of xs[0..n) has (a ladder without
 * buckets is skipped), so that each row [edge before, edge) holds whole
 * buckets of every run; a ladder without the ns rungs makes the first row
 * [0, 2 us) for all.  At most NV_FIO_LADDER_MAX into hi.
 * Return: the number of rows (0 when no x has buckets).
 */
size_t nv_fio_ladder_common(const struct nv_jobextra *const *xs, size_t n, double *hi);

/*
 * x's shares summed into the rows of nv_fio_ladder_common's hi[0..nrows):
 * pct[r] the share of [hi[r - 1], hi[r]) (0 below the first).
 * Return: 0, or -EINVAL when a bucket of x straddles a row's edge (hi not
 * from a ladder set that holds x).
 */
int nv_fio_ladder_fold(const struct nv_jobextra *x, const double *hi, size_t nrows, double *pct);

/* A text output's buckets against the JSON's of the same job. */
struct nv_ladder_cmp {
	size_t rows;		/* rows compared: the common ones with a share */
	size_t bad;		/* rows outside the tolerance */
	double lo, hi, text, json;	/* the first such row: edges (ns), shares */
};

/*
 * Compare the text output's buckets t with the JSON's j of the same job
 * in the rows both have (nv_fio_ladder_common): a text share must lie
 * within its printed 0.005% of the JSON's, plus 0.01% for each further
 * JSON bucket the row holds (terse's first bucket holds the ns ones, each
 * of which fio rounds up to 0.01% on its own: stat.c stat_calc_lat).
 * Rows where both shares are 0 are no value compared.
 * Return: 0 (c filled; c->rows 0 when j has no buckets or no share), or
 * -EINVAL when j has buckets and t none on fio's ladder.
 */
int nv_fio_ladder_cmp(const struct nv_jobextra *t, const struct nv_jobextra *j,
		      struct nv_ladder_cmp *c);

#endif
