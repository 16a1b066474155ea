/*
 * gnuplot.h - the text of the gnuplot scripts of `nvanalyze -o`, one
 * standalone script per figure: it sets `out`, loads style.gp and plots
 * files under data/ (written by figdata.h), so a user can edit and rerun it.
 *
 * Figures: a block's latency CDF of every side overlaid (cdf_*), the
 * exceedance 1 - CDF on a log scale (nines_*), the headline metrics as bars
 * with the change written on them (bars_*), every job's headline number
 * likewise (summary); a traced run's throughput over
 * time (tput_*) and each operation's latency over time as percentile bands
 * (lat_*).  Nothing here opens files: the caller passes the stream.
 */
#ifndef NV_ANALYZE_GNUPLOT_H
#define NV_ANALYZE_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze/figures/figdata.h"
#include "analyze/figures/gpquote.h"
#include "analyze/report/model.h"
#include "analyze/stats/trace_stats.h"

/*
 * The script's first lines: how to rerun it, `out = "NAME"`, the style.
 * Return: nothing.
 */
void nv_gnuplot_head(FILE *f, const char *name);

/* One curve of a CDF figure. */
struct nv_gp_curve {
	const char *data;	/* data file, relative to the directory */
	const char *title;	/* key entry, e.g. the side's label */
	enum nv_cdf_src src;	/* approximate sources are named in the key */
	unsigned lt;		/* line type, from 1 */
	unsigned dt;		/* dash type, from 1; 0: the line type's own */
	double p50_us, p999_us;	/* its median and p99.9 (NAN: not reached) */
};

/*
 * More sides than this in a CDF figure (many hosts side by side): each curve
 * is a thin grey line without a key entry, and the fastest, the median and
 * the slowest (by p50 in a CDF, p99.9 in an exceedance figure) are drawn
 * over them in colour, named in the key.  Eight line colours tell no more
 * apart, and a key of each would cover the curves.  Up to this many sides,
 * a colour per side and a dash per run of a side.
 */
#define NV_GP_CURVES_KEYED 8

/*
 * Whether curves c[0..n) (line type: the side, from 1) make a figure of
 * many curves (NV_GP_CURVES_KEYED).
 * Return: true when they do.
 */
bool nv_gnuplot_cdf_many(const struct nv_gp_curve *c, size_t n);

struct nv_gp_cdf {
	const char *key;	/* job key */
	enum nv_dir dir;
	enum nv_latkind lat;
	bool exceedance;	/* 1 - CDF on log axes, else the CDF */
	double ymin;		/* exceedance: the y range's bottom */
	bool key_below;		/* long titles: the key below the plot ... */
	size_t nkey;		/* ... with room for this many entries */
	size_t ncurves;
	const struct nv_gp_curve *curves;
};

/*
 * The body of a cdf_* or nines_* script (after nv_gnuplot_head); with more
 * than NV_GP_CURVES_KEYED curves, see there.
 * Return: nothing.
 */
void nv_gnuplot_cdf(FILE *f, const struct nv_gp_cdf *p);

/*
 * Whether report r has more sides than NV_GP_CURVES_KEYED: then its bar
 * charts draw every side's bar grey under one key entry, the baseline's
 * dark, and label only the lowest, the highest and the baseline's bar of
 * each cluster, with the side's name.
 * Return: true when it has.
 */
bool nv_gnuplot_bars_many(const struct nv_report *r);

/*
 * The body of block b's bars_* script: one cluster per metric in
 * rows[0..nrows), one bar per side in % of the baseline (read from data),
 * each labelled with its value and change.
 * Return: nothing.
 */
void nv_gnuplot_bars(FILE *f, const struct nv_report *r, const struct nv_block *b,
		     const struct nv_row *const *rows, size_t nrows, double ymax,
		     const char *data);

#define NV_GP_SUMMARY_MAX 1024	/* clusters of the summary figure */

/*
 * The body of the summary script: one cluster per summary row of
 * rows[0..nrows) (at most NV_GP_SUMMARY_MAX; the data's rows in that order),
 * one bar per side in % of the baseline, each labelled with its value and
 * change.
 * Return: nothing.
 */
void nv_gnuplot_summary(FILE *f, const struct nv_report *r, const struct nv_summary_row *rows,
			size_t nrows, double ymax, const char *data);

/*
 * The body of a tput_* script: IOPS and MB/s over time from data (columns 1
 * to 3 of nv_figdata_series_write), the throttling step marked.
 * title names the job and the run.
 * Return: nothing.
 */
void nv_gnuplot_tput(FILE *f, const char *title, const struct nv_tan *t, const char *data,
		     double tdiv);

/*
 * The body of a lat_* script of operation op: p50-p99 band, p50, p99.9 and
 * max from columns col + 2 ... col + 5 of data; spike episodes shaded.
 * Return: nothing.
 */
void nv_gnuplot_lat(FILE *f, const char *title, const struct nv_tan *t, unsigned op,
		    const char *data, unsigned col, double tdiv);

#endif
