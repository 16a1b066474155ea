/*
 * figset.h - the figures of one `nvanalyze -o DIR` report: which figures
 * (the summary's bars; CDFs and bars per block; time series per traced
 * run), their data files (figdata.h) and gnuplot scripts (gnuplot.h)
 * written into DIR, rendering them (plot.h).  The directory itself, its
 * list of files and the pages that show the figures are analyze/publish/
 * (outdir.h), which tells the set where to write and hears of every file
 * written (wrote).
 */
#ifndef NV_ANALYZE_FIGSET_H
#define NV_ANALYZE_FIGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analyze/report/model.h"
#include "analyze/stats/trace_join.h"

#define NV_FIGSET_MAX 1024

/* The files a figure is rendered as (nv_figset.formats, --figures). */
#define NV_FIG_PNG	1u
#define NV_FIG_SVG	2u
#define NV_FIG_ALL	(NV_FIG_PNG | NV_FIG_SVG)

struct nv_fig {
	char name[256];		/* basename, no extension */
	char caption[512];
	size_t block;		/* report block, or SIZE_MAX for per-run figures */
	const struct nv_jobjoin *jt;	/* per-run figures: the traces shown */
	bool summary;		/* the summary figure (block SIZE_MAX, no traces) */
};

struct nv_figset {
	const char *dir;
	const struct nv_report *r;
	const struct nv_tracejoin *tj;
	size_t nfig;
	struct nv_fig *fig;	/* [NV_FIGSET_MAX] */
	bool approx_cdf;	/* some CDF came from fio's bins or percentiles */
	void (*wrote)(void *arg, const char *rel);	/* told of every file written, or NULL */
	void *wrote_arg;
	unsigned workers;	/* gnuplot processes at once, a share of the figures each; 0: 1 */
	unsigned formats;	/* NV_FIG_PNG | NV_FIG_SVG rendered; 0: none (scripts only) */
	char *err;		/* the caller's message buffer */
	size_t errlen;
};

/*
 * Tell o->wrote that rel (relative to DIR) was written.
 * Return: nothing.
 */
void nv_figset_wrote(const struct nv_figset *o, const char *rel);

/*
 * Open DIR/rel for writing into *f (and tell o->wrote).
 * Return: 0, or -errno with a message naming the file in o->err.
 */
int nv_figset_open(const struct nv_figset *o, const char *rel, FILE **f);

/*
 * Close a stream of nv_figset_open.
 * Return: 0, or -EIO with a message naming the file in o->err.
 */
int nv_figset_close(const struct nv_figset *o, FILE *f, const char *rel);

/*
 * Add a figure named name (made unique as the set's other figures are)
 * for report block block (SIZE_MAX: none) and joined traces jt (or NULL).
 * Return: the figure, or NULL when the list is full.
 */
struct nv_fig *nv_figset_add(struct nv_figset *o, size_t block, const struct nv_jobjoin *jt,
			     const char *name);

/*
 * Every figure of o->r's blocks and of every joined job of o->tj (the load
 * curves add theirs by nv_figset_add, curve_figs.h): data
 * files in DIR/data and scripts in DIR, listed in o->fig.
 * Return: 0, or -errno with the message in o->err.
 */
int nv_figset_write(struct nv_figset *o);

/*
 * Render every figure as the files of o->formats (PNG, SVG or both; none: nothing
 * rendered, gnuplot not looked for) when gnuplot is found (*gnuplot),
 * gnuplot's messages in DIR/gnuplot.log; a script gnuplot fails on is
 * named in o->err, the others are still rendered (*rendered).  o->workers
 * gnuplot processes at once (stats/workpool.h), each taking the next file
 * (a figure's PNG or SVG, figures kind by kind) when done with its last
 * (plot.h: nv_plot_proc_render), a file one did not render rendered again
 * in a gnuplot of its own; the message names the failed scripts in figure
 * order, whatever the number of workers.
 * Return: 0, or -EIO (some script failed).
 */
int nv_figset_render(const struct nv_figset *o, bool *gnuplot, bool *rendered);

/*
 * --figures: "png,svg" (either order), "png", "svg" or "none" into *formats.
 * Return: 0, or -EINVAL.
 */
int nv_figset_formats_parse(const char *s, unsigned *formats);

/*
 * The extension of the file a page links for a figure: "png" when PNGs
 * are rendered, else "svg".
 * Return: it.
 */
const char *nv_figset_link_ext(const struct nv_figset *o);

/*
 * A file-name part: "rand read #1@host" -> "rand_read_1_host" ([A-Za-z0-9.-]
 * kept, runs of others as one '_', none at the end; "x" if nothing is left).
 * Return: nothing; the text is in buf.
 */
void nv_slug(char *buf, size_t n, const char *s);

#endif
