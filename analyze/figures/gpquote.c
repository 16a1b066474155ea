/*
 * gpquote.c - input strings escaped for gnuplot scripts and data files
 * (see gpquote.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyze/figures/gpquote.h"

/*
 * Byte c as text: itself, or its escape (script: inside "..." of a script;
 * else a data file's field or comment).
 * Return: the length of the text in e (at most 4).
 */
static size_t gp_byte(char e[8], unsigned char c, bool script)
{
	if (c == '\n' || c == '\t')
		return (size_t)snprintf(e, 8, "\\%c", c == '\n' ? 'n' : 't');
	if (c == '\\')
		return (size_t)snprintf(e, 8, "\\\\");
	if (c == '"' && script)
		return (size_t)snprintf(e, 8, "\\\"");
	if (c < 0x20 || c == 0x7f || c == '"' || (script && (c == '`' || c == '@')))
		return (size_t)snprintf(e, 8, "\\%03o", c);
	e[0] = (char)c;
	e[1] = 0;
	return 1;
}

/*
 * s escaped byte by byte into buf, "..." where it does not fit.
 * Return: nothing.
 */
static void gp_escape(char *buf, size_t n, const char *s, bool script)
{
	size_t o = 0, len = strlen(s), need = 0;
	char e[8];

	if (!n)
		return;
	for (size_t i = 0; i < len; i++)
		need += gp_byte(e, (unsigned char)s[i], script);
	for (size_t i = 0; i < len; i++) {
		size_t k = gp_byte(e, (unsigned char)s[i], script);

		if (need >= n && o + k + 3 >= n) {	/* cut: room left for "..." */
			snprintf(buf + o, n - o, "...");
			return;
		}
		memcpy(buf + o, e, k);
		o += k;
	}
	buf[o] = 0;
}

void nv_gnuplot_str(char *buf, size_t n, const char *s)
{
	gp_escape(buf, n, s, true);
}

void nv_gnuplot_data_str(char *buf, size_t n, const char *s)
{
	gp_escape(buf, n, s, false);
}
