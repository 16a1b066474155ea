/*
 * render.h - render a struct nv_report: Markdown, aligned text, CSV, JSON.
 *
 * Markdown and text are for people (rounded values with units in the cells,
 * "+50.1% (better)" change columns); CSV and JSON are for programs (every
 * number at full precision, units in the column names / keys, missing values
 * empty / null).
 */
#ifndef NV_ANALYZE_TABLE_H
#define NV_ANALYZE_TABLE_H

#include <stdio.h>

#include "analyze/report/compare.h"

enum nv_format { NV_FMT_MD, NV_FMT_TEXT, NV_FMT_CSV, NV_FMT_JSON };

int nv_format_parse(const char *s, enum nv_format *f);	/* "md" "text" "csv" "json" */

/* Print the report; returns 0, or -EIO if the stream failed. */
int nv_report_print(FILE *out, const struct nv_report *r, enum nv_format f);

/*
 * Human formatting (pure, for the tests): "77,282" (IOPS), "316.5 MB/s",
 * "72.0 us" (latency from ns, unit chosen per value), "$0.1888/h",
 * "$0.00244" (3 significant digits).
 */
void nv_fmt_value(char *buf, size_t n, double v, enum nv_unit u);

/* "+50.1% (better)", "+1.2% within noise [-3.1%, +5.4%]", "n/a". */
void nv_fmt_change(char *buf, size_t n, const struct nv_change *c);

/*
 * A table of strings (row 0 the header) printed as Markdown (first column
 * left-aligned, the others right-aligned) or aligned text; any other format
 * prints as text.  init: 0 or -ENOMEM; set copies s.
 */
struct nv_grid {
	size_t rows, cols;
	char **cell;		/* rows * cols strings */
};

int nv_grid_init(struct nv_grid *g, size_t rows, size_t cols);
void nv_grid_set(struct nv_grid *g, size_t r, size_t c, const char *s);
void nv_grid_print(FILE *out, const struct nv_grid *g, enum nv_format f);
void nv_grid_free(struct nv_grid *g);

/* The shortest "%.*g" text that reads back as exactly v. */
void nv_fmt_exact(char *buf, size_t n, double v);

#endif
