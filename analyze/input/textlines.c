/*
 * textlines.c - lines and printed numbers of text reports (textlines.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/textlines.h"

int nv_text_lines(const char *text, size_t len, int (*fn)(void *ctx, const char *line,
							   unsigned lineno),
		  void *ctx, unsigned *bad_line)
{
	char *buf = malloc(len + 1);
	unsigned lineno = 0;
	size_t at = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (at < len && !ret) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;

		memcpy(buf, text + at, n);
		lineno++;
		at += n + (nl ? 1 : 0);
		if (memchr(buf, '\0', n)) {
			*bad_line = lineno;
			ret = -EINVAL;
			break;
		}
		while (n && (buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
			n--;
		buf[n] = '\0';
		ret = fn(ctx, buf, lineno);
	}
	free(buf);
	return ret;
}

const char *nv_text_skip(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool nv_text_junk(char c)
{
	unsigned char u = (unsigned char)c;

	return u >= 0x7f || (u < ' ' && u && c != '\t' && c != '\r' && c != '\n');
}

int nv_text_number(const char **p, double mult, struct nv_val *v)
{
	const char *s = nv_text_skip(*p), *e = s;
	char digits[64];
	size_t n = 0;
	int decimals = -1;
	double x;

	while (n + 1 < sizeof(digits) && ((*e >= '0' && *e <= '9') || *e == '.' ||
					  (*e == ',' && e > s && e[1] >= '0' && e[1] <= '9'))) {
		if (*e == '.') {
			if (decimals >= 0)
				break;
			decimals = 0;
		} else if (*e != ',' && decimals >= 0) {
			decimals++;
		}
		if (*e != ',')
			digits[n++] = *e;
		e++;
	}
	digits[n] = '\0';
	if (n == 0 || digits[0] == '.' || decimals == 0 || nv_text_junk(*e))
		return -EINVAL;
	x = strtod(digits, NULL);
	if (!isfinite(x))
		return -EINVAL;
	v->v = x * mult;
	v->src = NV_SRC_FIO;
	v->prec = (float)(0.5 * pow(10, -(decimals > 0 ? decimals : 0)) * mult);
	*p = e;
	return 0;
}
