/*
 * textlines.h - what the readers of text reports share: the lines of a
 * decoded text, and a printed decimal read with its precision.
 */
#ifndef NV_ANALYZE_TEXTLINES_H
#define NV_ANALYZE_TEXTLINES_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/common.h"

/*
 * Call fn(ctx, line, lineno) for each line of text[0..len) (lineno from 1),
 * the line NUL-terminated without its CR/LF and trailing blanks.  A NUL
 * byte inside a line stops the walk with -EINVAL and *bad_line set to it.
 * Return: 0, fn's first non-zero return, -EINVAL (a NUL) or -ENOMEM.
 */
int nv_text_lines(const char *text, size_t len, int (*fn)(void *ctx, const char *line,
							   unsigned lineno),
		  void *ctx, unsigned *bad_line);

/* s past its blanks (spaces and tabs).  Return: a pointer into s. */
const char *nv_text_skip(const char *s);

/*
 * A printed decimal at *p (after blanks; "1,234.5" with thousands commas
 * too) into v as v * mult, src NV_SRC_FIO, prec half a unit of its last
 * printed digit times mult; *p moves past it.
 * Return: 0, or -EINVAL (no number there; v and *p left alone).
 */
int nv_text_number(const char **p, double mult, struct nv_val *v);

/*
 * True when c cannot follow a number in a text report: a control character
 * (not tab or a line end), DEL, or a byte of a multi-byte (or invalid)
 * UTF-8 sequence: "0\xff.051" is damage, not the number 0.
 * Return: true or false.
 */
bool nv_text_junk(char c);

#endif
