/*
 * textlines.h - what the readers of text reports share: a file's bytes
 * decoded to UTF-8 whatever console wrote them, the lines of that text
 * cleaned of what a paste adds, and a printed decimal read with its
 * precision.
 */
#ifndef NV_ANALYZE_TEXTLINES_H
#define NV_ANALYZE_TEXTLINES_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/common.h"

/*
 * Convert buf (len bytes) to UTF-8 (iconv), whatever wrote it: a UTF-16LE/BE
 * BOM means UTF-16, and so does text without one whose every other byte is
 * NUL; a UTF-8 BOM is removed; valid UTF-8 (ASCII too) is kept as it is;
 * anything else is a Windows code page: cp932 (Shift-JIS) when it converts
 * so and reads as Japanese (kana or kanji, not half-width katakana), cp1251
 * when its high bytes are Cyrillic words (most in runs of three or more
 * letters), cp1252 when they are a Western text's accents (each alone,
 * beside an ASCII letter: "Café").  Bytes that read as none of them
 * (damage, "\xff\xfe" in a name) are kept as they are, for the reader to
 * name the line or print them escaped.  *out is a malloc'ed copy (NUL-terminated;
 * free it), *outlen its length, *enc (when enc is not NULL) the encoding
 * read, "UTF-16LE", "cp1251" ..., or NULL for UTF-8.
 * Return: 0, -ENOMEM, or -EILSEQ for UTF-16 that does not convert.
 */
int nv_text_decode(const char *buf, size_t len, char **out, size_t *outlen, const char **enc);

/*
 * Call fn(ctx, line, lineno) for each line of text[0..len) (lineno from 1),
 * the line NUL-terminated without its CR/LF and trailing blanks, and
 * without what a paste into a page adds: Markdown quote markers ("> "),
 * the <pre>/<code> tags around a block, and in a text pasted from HTML
 * (one that holds <pre, <code, &lt; or &gt;) the entities &lt; &gt; &amp;
 * &quot; &nbsp; (as a blank).  A NUL byte inside a line stops the
 * walk with -EINVAL and *bad_line set to it.
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
