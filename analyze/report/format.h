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

#include <stdbool.h>
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
 * The same with the unit of a scaled quantity (latency, bytes) chosen by
 * ref rather than by v: one unit per table row ("8.30 us", "3,620 us").
 * Return: nothing; the text is in buf.
 */
void nv_fmt_value_in(char *buf, size_t n, double v, enum nv_unit u, double ref);

/*
 * The reference of a row's unit: the smallest non-zero |value| of cells[0..n).
 * Return: that value, 0 when every cell is empty or zero.
 */
double nv_row_ref(const struct nv_cell *cells, size_t n);

/*
 * How the human formats show numbers (set once by the command line):
 * --units binary (MiB/s, GiB), --change pct|ratio|both.  Defaults: SI,
 * percent.  (--same-below is a rule of the model, not of the display:
 * nv_select.same_below.)
 */
enum nv_chgfmt { NV_CHG_PCT, NV_CHG_RATIO, NV_CHG_BOTH };

struct nv_display {
	bool binary;
	enum nv_chgfmt change;
	bool verbose;		/* -v: the lists and notes quiet output leaves out */
	int headline;		/* enum nv_headline (report/model.h): the summary's rows */
};

extern struct nv_display nv_display;

/*
 * Whether a change between single runs reads as about equal (the model's
 * one rule: nv_repeats_about_equal, with --same-below).
 * Return: true when c has a value and c->about_equal.
 */
bool nv_change_about_equal(const struct nv_change *c);

/*
 * One run a side: "+50.1% (better)", or for values read rounded that differ
 * by no more than their rounding "about equal (within the printed
 * precision)"; repeats: "+1.2% ~ within noise
 * [-3.1%, +5.4%] n=3+3", "-20.0% (better) [-25.1%, -14.6%] n=5+5",
 * "+4.0% n=2+3, no interval: < 3 runs"; "n/a".
 * Return: nothing; the text is in buf.
 */
void nv_fmt_change(char *buf, size_t n, const struct nv_change *c);

/*
 * The title of a row of block b: "IOPS", "clat p99", "clat p99.5".
 * Return: nothing; the text is in buf.
 */
void nv_fmt_row_title(char *buf, size_t n, const struct nv_block *b, const struct nv_row *row);

/*
 * The title of metric m (not NV_M_PCTL: a level needs its row) in block b:
 * "IOPS", "clat p99".
 * Return: nothing; the text is in buf.
 */
void nv_fmt_metric_title(char *buf, size_t n, const struct nv_block *b, enum nv_metric m);

/*
 * The shortest "%.*g" text that reads back as exactly v.
 * Return: nothing; the text is in buf.
 */
void nv_fmt_exact(char *buf, size_t n, double v);

/*
 * v as a plain decimal number that reads back as exactly v: "880640",
 * "0.00015", "12.5" (never an exponent; the fewest digits that round-trip).
 * Return: nothing; the text is in buf.
 */
void nv_fmt_decimal(char *buf, size_t n, double v);

#endif
