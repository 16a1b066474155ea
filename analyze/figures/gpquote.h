/*
 * gpquote.h - the one escaping of input strings (job names, labels, file
 * names, host names ...) for gnuplot: inside the double-quoted strings of a
 * script, where gnuplot would substitute `backquotes` and expand @macros, and
 * inside the quoted fields and comments of a data file.  An input is data:
 * nothing it contains ends a string, a line or a comment, or runs anything.
 */
#ifndef NV_ANALYZE_GPQUOTE_H
#define NV_ANALYZE_GPQUOTE_H

#include <stddef.h>

/*
 * s as the body of a script's double-quoted string: '"' and '\' escaped,
 * '`' and '@' as the octal escapes \140 and \100 (gnuplot prints them, runs
 * and expands nothing), a newline as \n, a tab as \t, other control bytes
 * as \ooo; bytes from 0x80 (UTF-8 or not) as they are.  A string that does
 * not fit in buf ends in "..." (n >= 4), never in half an escape.
 * Return: nothing; the text is in buf.
 */
void nv_gnuplot_str(char *buf, size_t n, const char *s);

/*
 * s as the text of a data file's double-quoted field or "# ..." comment:
 * gnuplot reads no escapes there, so '"', '\' and control bytes are shown
 * as the escapes of nv_gnuplot_str (\042, \\, \n, \t, \ooo) and the field
 * or comment ends where the writer ends it.  Truncated like nv_gnuplot_str.
 * Return: nothing; the text is in buf.
 */
void nv_gnuplot_data_str(char *buf, size_t n, const char *s);

#endif
