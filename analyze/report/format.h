/*
 * format.h - how the report's numbers read: the output format names, values
 * with units, changes, row titles, the shortest exact text of a double.
 *
 * Markdown and text are for people (rounded values with units in the cells,
 * "+50.1% (better)" change columns); CSV and JSON are for programs (every
 * number at full precision, units in the column names / keys, missing values
 * empty / null).
 */
#ifndef NV_ANALYZE_FORMAT_H
#define NV_ANALYZE_FORMAT_H

#include <stddef.h>

#include "analyze/report/model.h"

enum nv_format { NV_FMT_MD, NV_FMT_TEXT, NV_FMT_CSV, NV_FMT_JSON };

/*
 * Parse a format name: "md" (or "markdown"), "text", "csv", "json".
 * Return: 0 with *f set, or -EINVAL for any other name.
 */
int nv_format_parse(const char *s, enum nv_format *f);

/*
 * Human formatting (pure, for the tests): "77,282" (IOPS), "316.5 MB/s",
 * "72.0 us" (latency from ns, unit chosen per value), "$0.1888/h",
 * "$0.00244" (3 significant digits).
 * Return: nothing; the text is in buf (truncated to n).
 */
void nv_fmt_value(char *buf, size_t n, double v, enum nv_unit u);

/*
 * "+50.1% (better)", "+1.2% within noise [-3.1%, +5.4%]", "n/a".
 * Return: nothing; the text is in buf.
 */
void nv_fmt_change(char *buf, size_t n, const struct nv_change *c);

/*
 * The title of metric m's row in block b: "IOPS", "clat p99".
 * Return: nothing; the text is in buf.
 */
void nv_fmt_row_title(char *buf, size_t n, const struct nv_block *b, enum nv_metric m);

/*
 * The shortest "%.*g" text that reads back as exactly v.
 * Return: nothing; the text is in buf.
 */
void nv_fmt_exact(char *buf, size_t n, double v);

#endif
