/*
 * report_md.h - DIR/report.md of `nvanalyze -o`, ordered as the studies
 * are: the title and the contents (links to every "## " and "### "
 * heading, anchors.h), the summary table with its figure and the runs, the
 * claims, each job's tables and figures, the other fio tables, the trace
 * sections with each traced run's figures, the directory's files.
 * report_html.c turns it into report.html.
 */
#ifndef NV_ANALYZE_REPORT_MD_H
#define NV_ANALYZE_REPORT_MD_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze/figures/figset.h"

#define NV_REPORT_MD_TITLE "Storage benchmark report"	/* the "# " heading */
#define NV_REPORT_MD_CONTENTS "Contents"	/* the "## " heading of the contents */

/*
 * Write the page into f (opened by outdir.c); rendered: whether the PNGs
 * exist (else a line says how to make them).
 * Return: 0, or -ENOMEM (the page is incomplete).
 */
int nv_report_md_put(FILE *f, const struct nv_figset *o, bool rendered);

#endif
