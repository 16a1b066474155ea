/*
 * report_html.h - DIR/report.html of `nvanalyze -o`: report.md as one
 * self-contained HTML page (figures inline as SVG, tables as HTML tables,
 * nothing loaded from anywhere; light and dark viewers).
 */
#ifndef NV_ANALYZE_REPORT_HTML_H
#define NV_ANALYZE_REPORT_HTML_H

#include "analyze/figures/figset.h"

/*
 * Write DIR/report.html from DIR/report.md (written first) and the
 * figures' DIR/NAME.svg.  *nfigs: the figures inlined.
 * Return: 0, or -errno with the message in o->err.
 */
int nv_report_html_write(const struct nv_figset *o, unsigned *nfigs);

#endif
