/*
 * escape.c - input strings escaped for the Markdown and text reports, HTML
 * and Prometheus label values (see escape.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/escape.h"
#include "analyze/report/json_value.h"

/*
 * Whether '<' then c may open raw HTML or an autolink in CommonMark (a tag
 * name, "</", "<!", "<?"); "<=" and "< 3" stay as they are.
 * Return: true if so.
 */
static bool md_tag_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '/' || c == '!' ||
	       c == '?';
}

/*
 * Byte s[0] as text for f (s[1]: what follows it).
 * Return: the length of its text in e (at most 4).
 */
static size_t esc_byte(char e[8], const char *s, enum nv_format f)
{
	unsigned char c = (unsigned char)*s;

	if (c == '\n' || c == '\t')
		return (size_t)snprintf(e, 8, "\\%c", c == '\n' ? 'n' : 't');
	if (c < 0x20 || c == 0x7f)
		return (size_t)snprintf(e, 8, "\\x%02x", c);
	if (f == NV_FMT_MD && (c == '\\' || c == '|' || c == '`' ||
			       (c == '<' && md_tag_start(s[1]))))
		return (size_t)snprintf(e, 8, "\\%c", c);
	return (size_t)snprintf(e, 8, "%c", c);
}

size_t nv_esc_str(char *buf, size_t n, const char *s, enum nv_format f)
{
	size_t o = 0;

	for (; *s; s++) {
		char e[8];
		size_t k = esc_byte(e, s, f);

		for (size_t i = 0; i < k; i++, o++)
			if (o + 1 < n)
				buf[o] = e[i];
	}
	if (n)
		buf[o < n ? o : n - 1] = 0;
	return o;
}

int nv_esc_fputs(FILE *out, const char *s, enum nv_format f)
{
	for (; *s; s++) {
		char e[8];

		esc_byte(e, s, f);
		fputs(e, out);
	}
	return ferror(out) ? -EIO : 0;
}

char *nv_esc_dup(const char *s, enum nv_format f)
{
	size_t len = nv_esc_str(NULL, 0, s, f);
	char *d = malloc(len + 1);

	if (d)
		nv_esc_str(d, len + 1, s, f);
	return d;
}

int nv_esc_html(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(s[i], out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

int nv_esc_prom_label(FILE *out, const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len;) {
		size_t k = nv_utf8_len(s + i, len - i);

		if (!k) {
			fputs("\xef\xbf\xbd", out);	/* U+FFFD */
			i++;
		} else if (s[i] == '\\' || s[i] == '"' || s[i] == '\n') {
			fputc('\\', out);
			fputc(s[i] == '\n' ? 'n' : s[i], out);
			i++;
		} else {
			fwrite(s + i, 1, k, out);
			i += k;
		}
	}
	return ferror(out) ? -EIO : 0;
}

int nv_esc_base64(FILE *out, const void *p, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *b = p;
	char q[4];

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)b[i] << 16;
		size_t k = n - i < 3 ? n - i : 3;

		if (k > 1)
			v |= (uint32_t)b[i + 1] << 8;
		if (k > 2)
			v |= b[i + 2];
		q[0] = abc[v >> 18 & 63];
		q[1] = abc[v >> 12 & 63];
		q[2] = k > 1 ? abc[v >> 6 & 63] : '=';
		q[3] = k > 2 ? abc[v & 63] : '=';
		fwrite(q, 1, 4, out);
	}
	return ferror(out) ? -EIO : 0;
}
