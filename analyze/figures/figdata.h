/*
 * figdata.h - the numbers behind the figures of `nvanalyze -o`, as they go
 * into DIR/data/NAME.dat: latency CDF points (with the exceedance 1 - CDF) from
 * each source, the headline metrics relative to the baseline, and a traced
 * job's time series.
 *
 * CDF sources, best first: the traces' histogram (every IO, log-linear
 * buckets 0.4% wide: a point at each non-empty bucket's upper end), fio's
 * json+ bins (approximate, a bin's value is up to 0.78% off: a point at
 * each bin's value), fio's percentile list (approximate, a few points).
 * Histograms and bins of several runs can be pooled (nv_figdata_hist_add,
 * nv_figdata_bins_add): the CDF then counts the IOs of all of them.
 */
#ifndef NV_ANALYZE_FIGDATA_H
#define NV_ANALYZE_FIGDATA_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/input/fiojson.h"
#include "analyze/report/model.h"
#include "analyze/report/summary.h"
#include "analyze/stats/trace_join.h"

enum nv_cdf_src { NV_CDF_NONE, NV_CDF_TRACE, NV_CDF_BINS, NV_CDF_PCT };

struct nv_cdf_point {
	double us;		/* latency, microseconds */
	double cdf;		/* fraction of IOs <= us */
	double exc;		/* 1 - cdf */
};

struct nv_cdf {
	enum nv_cdf_src src;
	uint64_t ios;		/* IOs behind the curve (0 for a percentile list) */
	double rarest;		/* the smallest tail fraction the curve resolves */
	size_t n;
	struct nv_cdf_point *pt;
};

/*
 * How a source reads in a caption: "trace", "fio bins, approx.", "fio
 * percentiles, approx." ("" for NV_CDF_NONE).
 * Return: a static string.
 */
const char *nv_figdata_src_text(enum nv_cdf_src src);

/*
 * The CDF of a trace histogram holding n IOs, the counts of buckets lo ..
 * lo + nb - 1 (the others empty; lo + nb <= NV_EXACT_NBUCKETS):
 * a first point (lower end of the first non-empty bucket, 0), then one at
 * each non-empty bucket's upper end: cdf the IOs up to it, exceedance the
 * IOs of that bucket and above (the fraction at or above the latency, to
 * the bucket's 0.4%), so that the largest IO is on the exceedance curve.
 * Return: 0, -EINVAL when n is 0, or -ENOMEM.  Free with nv_figdata_cdf_free.
 */
int nv_figdata_cdf_hist(const uint64_t *hist, unsigned lo, unsigned nb, uint64_t n,
			struct nv_cdf *c);

/*
 * The CDF of fio's json+ bins (ascending by ns): a first point (first
 * bin's value, 0), then one at each bin's value (cdf: the IOs up to it,
 * exceedance: the IOs at it and above).
 * Return: 0, -EINVAL when the bins hold no IO, or -ENOMEM.
 */
int nv_figdata_cdf_bins(const struct nv_bin *bins, size_t nbins, struct nv_cdf *c);

/*
 * The CDF of fio's percentile list: its points as they are.
 * Return: 0, -EINVAL when the list is empty, or -ENOMEM.
 */
int nv_figdata_cdf_pcts(const struct nv_pctpt *pts, size_t npts, struct nv_cdf *c);

/* Return: nothing; c is emptied. */
void nv_figdata_cdf_free(struct nv_cdf *c);

/*
 * Pool a trace histogram (the counts of buckets lo .. lo + nb - 1) into acc
 * (NV_EXACT_NBUCKETS counts, zeroed by the caller): acc[lo + k] += hist[k].
 * Return: nothing.
 */
void nv_figdata_hist_add(uint64_t *acc, const uint64_t *hist, unsigned lo, unsigned nb);

/*
 * Pool fio bins into *acc (ascending by ns, *nacc entries, reallocated):
 * counts of equal values add up, the result stays ascending.
 * Return: 0 or -ENOMEM (acc unchanged).
 */
int nv_figdata_bins_add(struct nv_bin **acc, size_t *nacc, const struct nv_bin *bins,
			size_t nbins);

/* The CDF curves of one side of a block. */
struct nv_side_cdf {
	size_t pooled;		/* runs pooled into curve[0]; 0: one curve per run */
	size_t ncurves;
	struct nv_cdf *curve;	/* [ncurves] */
	size_t *src;		/* [ncurves]: per-run curves, the index in b->src[s] */
};

/*
 * Side s's latency CDF in block b, from the block's sources (the runs of
 * the side that did IOs in the direction): the traces' histograms of all of
 * them pooled when every one has traces (completion latency only), else
 * fio's json+ bins of all of them pooled when every one has bins, else one
 * curve per run from its best source.  One run is a pool of one.
 * Return: 0 (sc->ncurves 0 when the side has no CDF), or -ENOMEM.  Free
 * with nv_figdata_side_cdf_free.
 */
int nv_figdata_side_cdf(const struct nv_block *b, size_t s, struct nv_side_cdf *sc);

/* Return: nothing; sc is emptied. */
void nv_figdata_side_cdf_free(struct nv_side_cdf *sc);

/*
 * The smallest latency of c at which the fraction of IOs at or above it
 * is at most exc (0.5: the median, 1e-3: p99.9), from its points.
 * Return: microseconds, or NAN when the curve does not reach exc.
 */
double nv_figdata_cdf_at(const struct nv_cdf *c, double exc);

/*
 * Write the points as "latency_us cdf exceedance" rows.
 * Return: 0, or -EIO when the stream failed.
 */
int nv_figdata_cdf_write(FILE *f, const struct nv_cdf *c);

/*
 * The bar chart's data of block b: a header naming the baseline and the
 * sides, then a row per metric in rows[0..nrows): each side's mean in % of
 * the baseline's (nan where a side has none).  *ymax is raised to the
 * largest percentage.
 * Return: 0, or -EIO when the stream failed.
 */
int nv_figdata_bars_write(FILE *f, const struct nv_report *r, const struct nv_block *b,
			  const struct nv_row *const *rows, size_t nrows, double *ymax);

/*
 * The summary figure's data: a header naming the baseline and the sides,
 * then a row per summary row of rows[0..nrows) ("job · direction (IOPS)"):
 * each side's value in % of the baseline's (nan where a side or the
 * baseline has none).  *ymax is raised to the largest percentage.
 * Return: 0, or -EIO when the stream failed.
 */
int nv_figdata_summary_write(FILE *f, const struct nv_report *r,
			     const struct nv_summary_row *rows, size_t nrows, double *ymax);

/*
 * The time series of one traced job: a header, then per interval its middle
 * (in seconds / tdiv), IOPS and MB/s of all operations, then per operation
 * IOPS, MB/s, p50, p99, p99.9 and max latency (us; NaN without IOs).
 * Return: 0, or -EIO when the stream failed.
 */
int nv_figdata_series_write(FILE *f, const struct nv_jobjoin *jj, double tdiv);

#endif
