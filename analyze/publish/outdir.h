/*
 * outdir.h - `nvanalyze -o DIR`: the comparison and trace analysis as a
 * directory a user can publish or rework:
 *
 *   DIR/report.md            tables, findings over time, the figures (report_md.c)
 *   DIR/report.html          report.md as one self-contained page (report_html.c)
 *   DIR/nvanalyze-files.txt  the files written, for the next -o here (manifest.h)
 *   DIR/tables.md .csv .json the comparison in nvanalyze's formats
 *   DIR/data/NAME.dat        every number plotted (figures/figdata.h)
 *   DIR/style.gp             copy of plots/style.gp, loaded by every script
 *   DIR/NAME.gp              one standalone gnuplot script per figure (figures/gnuplot.h)
 *   DIR/NAME.png (.svg)      rendered when gnuplot is installed (figures/plot.h):
 *                            PNG by default, SVG with --figures svg
 *   DIR/gnuplot.log          gnuplot's messages (empty when all went well)
 *
 * outdir.c owns the directory: it creates it, opens and closes every file
 * and keeps their list (manifest.h); the figures are analyze/figures/
 * (figset.h), the pages report_md.h and report_html.h.
 */
#ifndef NV_ANALYZE_OUTDIR_H
#define NV_ANALYZE_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/figures/figset.h"
#include "analyze/report/model.h"
#include "analyze/stats/trace_join.h"

/* What nv_outdir_write did, for the caller's messages. */
struct nv_outdir_result {
	size_t nfig;		/* figures (scripts) written */
	bool gnuplot;		/* gnuplot was found */
	bool rendered;		/* ... and rendered them */
	unsigned html_figs;	/* figures inlined in report.html */
};

/*
 * Write DIR (created if missing): the figures of r's blocks from their
 * sources, and of every analyzed entry of ts, labelled as the report labels
 * their runs; the figures rendered as formats (figset.h: NV_FIG_*; 0:
 * none).  A missing gnuplot is not an error: the
 * scripts are written and res->gnuplot says so.  When gnuplot fails on a
 * script, the others and report.md are still written; when a table cannot
 * be written, the figures and report.md still are.  With tj's workers > 1
 * the tables are written on a thread beside the figures (the same files,
 * the same list, the same message).
 * Return: 0, or -errno with a message naming the file in err (-EIO: writing
 * failed or gnuplot failed on a script).
 */
int nv_outdir_write(const char *dir, const struct nv_report *r, const struct nv_tracejoin *tj,
		    unsigned formats, struct nv_outdir_result *res, char *err, size_t errlen);

#endif
