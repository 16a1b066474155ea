/*
 * figset.h - the state of one `nvanalyze -o` directory being written,
 * shared by outdir.c (which adds the figures) and report_md.c (which links
 * them from report.md).  Internal to analyze/figures/.
 */
#ifndef NV_ANALYZE_FIGSET_H
#define NV_ANALYZE_FIGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analyze/figures/manifest.h"
#include "analyze/report/model.h"
#include "analyze/input/jobtraces.h"

#define NV_FIGSET_MAX 1024

struct nv_fig {
	char name[256];		/* basename, no extension */
	char caption[512];
	size_t block;		/* report block, or SIZE_MAX for per-run figures */
	const struct nv_jobtraces *jt;	/* per-run figures: the traces shown */
};

struct nv_figset {
	const char *dir;
	const struct nv_report *r;
	const struct nv_traceset *ts;
	size_t nfig;
	struct nv_fig *fig;	/* [NV_FIGSET_MAX] */
	bool approx_cdf;	/* some CDF came from fio's bins or percentiles */
	struct nv_manifest *files;	/* every file written (manifest.h) */
	char *err;		/* the caller's message buffer */
	size_t errlen;
};

/*
 * Open DIR/rel for writing into *f (and list it in o->files).
 * Return: 0, or -errno with a message naming the file in o->err.
 */
int nv_outdir_open(const struct nv_figset *o, const char *rel, FILE **f);

/*
 * Close a stream of nv_outdir_open.
 * Return: 0, or -EIO with a message naming the file in o->err.
 */
int nv_outdir_close(const struct nv_figset *o, FILE *f, const char *rel);

/*
 * Add a figure named name (made unique as outdir.c's other figures are)
 * for report block block (SIZE_MAX: none) and traces jt (or NULL).
 * Return: the figure, or NULL when the list is full.
 */
struct nv_fig *nv_figset_add(struct nv_figset *o, size_t block, const struct nv_jobtraces *jt,
			     const char *name);

/*
 * Write DIR/report.md: the links to the tables, the comparison, the
 * figures of each block, the trace sections with each run's figures.
 * rendered: whether the PNGs exist (else a line says how to make them).
 * Return: 0, or -errno with the message in o->err.
 */
int nv_report_md_write(const struct nv_figset *o, bool rendered);

#endif
