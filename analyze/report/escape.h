/*
 * escape.h - the one escaping of input strings (job names, labels, file
 * names, job options, host names, claims, fio's error text) for the
 * Markdown and the aligned text of the reports: a string from an input is
 * shown as written and never ends a table cell, a line or a code span; and
 * the one escaping for HTML (report.html, the live page) and for the label
 * values of Prometheus' text exposition format (the live metrics); the one
 * base64 encoding (report.html's PNG figures as data: URIs).
 */
#ifndef NV_ANALYZE_ESCAPE_H
#define NV_ANALYZE_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/report/format.h"

/*
 * s for format f.  Markdown (NV_FMT_MD): '\', '|', '`' and a '<' that could
 * open a tag ("<img", "</", "<!", "<?") get a backslash (CommonMark's
 * escapes: no cell split, no code span, no raw HTML); the text format and
 * both: a newline as the two characters \n, a tab as \t, other control
 * bytes as \xHH; bytes from 0x80 (UTF-8 or not) as they are.  Snprintf-like:
 * buf (n bytes, may be 0) holds as much as fits, NUL-terminated.
 * Return: the length of the whole escaped text.
 */
size_t nv_esc_str(char *buf, size_t n, const char *s, enum nv_format f);

/*
 * nv_esc_str of s written to out.
 * Return: 0, or -EIO when the stream has its error flag set.
 */
int nv_esc_fputs(FILE *out, const char *s, enum nv_format f);

/*
 * nv_esc_str of s in memory of its own (the caller frees it).
 * Return: the text, or NULL when out of memory.
 */
char *nv_esc_dup(const char *s, enum nv_format f);

/*
 * n bytes of s written to out as HTML text or a quoted attribute value:
 * '&', '<', '>' and '"' as entities, every other byte as it is.
 * Return: 0, or -EIO when the stream has its error flag set.
 */
int nv_esc_html(FILE *out, const char *s, size_t n);

/*
 * s written to out as a label value of Prometheus' text exposition format
 * (what goes between the quotes): '\' as \\, '"' as \", a newline as \n
 * (the format's three escapes); a byte that is not part of valid UTF-8 as
 * U+FFFD (label values are UTF-8; nv_json_value_str does the same); every
 * other character as it is.
 * Return: 0, or -EIO when the stream has its error flag set.
 */
int nv_esc_prom_label(FILE *out, const char *s);

/*
 * n bytes of p written to out as base64 (RFC 4648's alphabet, '=' padding,
 * no line breaks): the text of a data: URI.
 * Return: 0, or -EIO when the stream has its error flag set.
 */
int nv_esc_base64(FILE *out, const void *p, size_t n);

#endif
