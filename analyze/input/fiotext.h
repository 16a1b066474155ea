/*
 * fiotext.h - numbers, sizes and units as fio prints them in its text
 * outputs (normal and terse), shared by the text readers.
 */
#ifndef NV_ANALYZE_FIOTEXT_H
#define NV_ANALYZE_FIOTEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A number at s (leading blanks skipped) with an optional k/M/G/T/P suffix
 * (1000-based, fio's num2str; not the "M" of "MiB" or "MB").  *v is the
 * value, *place the value of its last printed digit (suffix included),
 * *end the first character after it.
 * Return: 0, or -EINVAL when s holds no number (or junk follows it:
 * nv_text_junk).
 */
int nv_fiotext_num(const char *s, const char **end, double *v, double *place);

/*
 * The bytes of the size unit at s: "B", "KiB".."EiB" (1024-based), "kB",
 * "MB".. (1000-based), except that with old (fio 2.x, kb_base=1024) "KB",
 * "MB".. are 1024-based; unit_base=1's bits: "Kibit".."Eibit" (1024-based)
 * and "bit" (after nv_fiotext_num's 1000-based "k", "M"..: "571Mbit"), an
 * eighth of a byte each; with old, 2.x's "Kbit", "Mbit".. (1024-based, as
 * its "KB").  *n is the unit's length.
 * Return: the multiplier, 0 when s is no unit.
 */
double nv_fiotext_size_unit(const char *s, size_t *n, bool old);

/*
 * A size ("14.4GiB", "1024.0MB", "17476KB/s", 2.x's "9.5Mbit/s") at s: *v
 * in bytes, *prec the half-width of its printed rounding in bytes, *end
 * after the unit.
 * Return: 0, or -EINVAL for no number or no unit.
 */
int nv_fiotext_size(const char *s, const char **end, bool old, double *v, double *prec);

/*
 * Find "key=" in line, key at the start or after a blank, ',', '(', '/'
 * or a tab; *p is set after the '='.
 * Return: true when it is there.
 */
bool nv_fiotext_key(const char *line, const char *key, const char **p);

/*
 * The nanoseconds of a latency unit at s, written as fio does with its
 * closing parenthesis: "nsec)", "usec)", "msec)", "sec)".
 * Return: 1, 1e3, 1e6, 1e9, or 0 for another unit.
 */
double nv_fiotext_time_unit(const char *s);

/*
 * A copy of the line p[0..n) for the fio text readers, without a trailing
 * CR and without the quote markers a paste into a mail or a Markdown
 * blockquote puts before it ("> ", "> > ", ">>"; fio's own ">=64=" is
 * not one).  A NUL byte in it ends the copy (the C string it becomes), and
 * the CR is looked for at the copy's real end, never past it.
 * Return: the copy (free it), or NULL when out of memory.
 */
char *nv_fiotext_line(const char *p, size_t n);

#endif
