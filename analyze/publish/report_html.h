/*
 * report_html.h - DIR/report.html of `nvanalyze -o`: report.md as one
 * self-contained HTML page (figures inline: the SVGs when rendered, else
 * the PNGs as data: URIs; tables as HTML tables,
 * nothing loaded from anywhere; light and dark viewers).
 */
#ifndef NV_ANALYZE_REPORT_HTML_H
#define NV_ANALYZE_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/figures/figset.h"

/*
 * The page's screen style (the inside of a <style>): fonts, light and dark
 * colours, tables, figures on a white card; the live page
 * (analyze/live/live_page.c) wears it too.
 */
extern const char nv_report_html_style[];

/* report.md read back, as lines. */
struct nv_html_src {
	char *md;
	size_t n;
	char **lines;
	size_t nl;
};

/*
 * Read DIR/report.md (written first) back into src (free with
 * nv_report_html_src_free).
 * Return: 0, or -ENOMEM with a message naming the file in err.
 */
int nv_report_html_read(const char *dir, struct nv_html_src *src, char *err, size_t errlen);

/*
 * Write the page into f (opened by outdir.c): src's Markdown as HTML, the
 * figures' DIR/NAME.svg inlined when o->formats has SVG, else DIR/NAME.png
 * as a data: URI.
 * Return: the number of figures shown.
 */
unsigned nv_report_html_put(FILE *f, const struct nv_figset *o, const struct nv_html_src *src);

/* Free what nv_report_html_read filled.  Return: nothing. */
void nv_report_html_src_free(struct nv_html_src *src);

#endif
