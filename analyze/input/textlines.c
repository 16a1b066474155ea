/*
 * textlines.c - lines and printed numbers of text reports (textlines.h).
 */
#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/input/textlines.h"

/*
 * buf converted from the encoding from to UTF-8 in *out.  Return: 0,
 * -ENOMEM, or -EILSEQ (a byte that does not convert; *out not set).
 */
static int convert(const char *from, const char *buf, size_t len, char **out, size_t *outlen)
{
	iconv_t cd = iconv_open("UTF-8", from);
	size_t cap = len * 3 + 4, inleft = len, outleft = cap;
	char *in = (char *)buf, *o, *res;
	int ret = 0;

	if (cd == (iconv_t)-1)
		return -errno;
	res = malloc(cap + 1);
	if (!res) {
		ret = -ENOMEM;
		goto out;
	}
	o = res;
	if (iconv(cd, &in, &inleft, &o, &outleft) == (size_t)-1 &&
	    (errno != EINVAL || strncmp(from, "UTF-16", 6))) {
		ret = -EILSEQ;	/* a cut UTF-16 character at the end is left out */
		free(res);
		goto out;
	}
	*o = '\0';
	*out = res;
	*outlen = (size_t)(o - res);
out:
	iconv_close(cd);
	return ret;
}

/* The number of bytes of buf that are no part of a valid UTF-8 sequence. */
static size_t utf8_bad(const unsigned char *u, size_t len)
{
	size_t bad = 0;

	for (size_t i = 0; i < len;) {
		size_t n = u[i] < 0x80				   ? 1
			   : (u[i] & 0xe0) == 0xc0 && u[i] >= 0xc2 ? 2
			   : (u[i] & 0xf0) == 0xe0		   ? 3
			   : (u[i] & 0xf8) == 0xf0 && u[i] < 0xf5  ? 4
								   : 0;
		size_t k = 1;

		while (n && k < n && i + k < len && (u[i + k] & 0xc0) == 0x80)
			k++;
		if (!n || k < n) {
			bad++;
			i++;
			continue;
		}
		i += n;
	}
	return bad;
}

/* UTF-16 without a BOM: every other byte NUL.  Return: "UTF-16LE", "UTF-16BE" or NULL. */
static const char *utf16_nobom(const unsigned char *u, size_t len)
{
	size_t n = len < 4096 ? len & ~(size_t)1 : 4096, z[2] = { 0, 0 };

	if (n < 8)
		return NULL;
	for (size_t i = 0; i < n; i++)
		z[i & 1] += !u[i];
	if (z[1] * 10 >= n / 2 * 9 && z[0] * 10 < n / 2)
		return "UTF-16LE";
	if (z[0] * 10 >= n / 2 * 9 && z[1] * 10 < n / 2)
		return "UTF-16BE";
	return NULL;
}

/* True when the UTF-8 text t reads as Japanese: kana and kanji over half-width and private use. */
static bool japanese(const unsigned char *t, size_t n)
{
	size_t good = 0, bad = 0;

	for (size_t i = 0; i + 2 < n; i++) {
		uint32_t c;

		if ((t[i] & 0xf0) != 0xe0)
			continue;
		c = (uint32_t)(t[i] & 0x0f) << 12 | (uint32_t)(t[i + 1] & 0x3f) << 6 |
		    (t[i + 2] & 0x3f);
		if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff))
			good++;
		else if ((c >= 0xff61 && c <= 0xff9f) || (c >= 0xe000 && c <= 0xf8ff))
			bad++;
	}
	return good > 2 * bad;
}

/* True when c is an ASCII letter. */
static bool ascii_letter(unsigned char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/*
 * True when c (0x80-0x9F) is typographic punctuation at the same place in
 * cp1251 and cp1252, which texts of either code page use: Word's quotes
 * (0x91-0x94, the apostrophe of "It's" 0x92), dashes (0x96, 0x97), the
 * low quotes, ellipsis, bullet, angle quotes and trade mark.
 */
static bool cp125x_punct(unsigned char c)
{
	static const unsigned char p[] = { 0x82, 0x84, 0x85, 0x8b, 0x91, 0x92, 0x93, 0x94,
					   0x95, 0x96, 0x97, 0x99, 0x9b };

	return memchr(p, c, sizeof(p)) != NULL;
}

/*
 * True when the bytes above 0x7f of u read as Cyrillic words in cp1251:
 * most of those at 0xC0 and above in runs of three or more (the letters of
 * a word), none of 0x80-0xBF but the few a Russian text uses (№, «», ё, Ё,
 * and the like between 0xA0 and 0xBF; quotes and dashes, cp125x_punct).
 */
static bool cyrillic_words(const unsigned char *u, size_t len)
{
	size_t letters = 0, in_words = 0;

	for (size_t i = 0; i < len;) {
		size_t run = 0;

		if (u[i] >= 0x80 && u[i] < 0xa0 && !cp125x_punct(u[i]))
			return false;
		while (i + run < len && u[i + run] >= 0xc0)
			run++;
		letters += run;
		in_words += run >= 3 ? run : 0;
		i += run ? run : 1;
	}
	return letters && in_words * 10 >= letters * 6;
}

/*
 * True when the bytes above 0x7f of u read as a Western text's accents in
 * cp1252: each a letter (0xC0 and above but × and ÷) or a symbol of
 * 0xA0-0xBF, alone between ASCII letters, digits or blanks ("Café",
 * "für"), a letter one beside an ASCII letter; quotes and dashes
 * (cp125x_punct) anywhere (alone they read the same in cp1251).
 */
static bool western_accents(const unsigned char *u, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (u[i] < 0x80)
			continue;
		if (cp125x_punct(u[i]) && ++n)
			continue;
		n++;
		if ((i && u[i - 1] >= 0x80) || (i + 1 < len && u[i + 1] >= 0x80) || u[i] < 0xa0 ||
		    u[i] == 0xd7 || u[i] == 0xf7)
			return false;
		if (u[i] >= 0xc0 && !(i && ascii_letter(u[i - 1])) &&
		    !(i + 1 < len && ascii_letter(u[i + 1])))
			return false;
	}
	return n > 0;
}

/*
 * Which Windows code page wrote buf (not UTF-8): cp932 when it converts
 * so and reads as Japanese, cp1251 when its high bytes are Cyrillic words,
 * cp1252 when they are a Western text's accents.  Return: "cp932",
 * "cp1251", "cp1252", or NULL (none reads so: damage, kept as it is).
 */
static const char *codepage(const char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t n;
	char *t;

	if (!convert("CP932", buf, len, &t, &n)) {
		bool ja = japanese((const unsigned char *)t, n);

		free(t);
		if (ja)
			return "cp932";
	}
	if (cyrillic_words(u, len))
		return "cp1251";
	return western_accents(u, len) ? "cp1252" : NULL;
}

int nv_text_decode(const char *buf, size_t len, char **out, size_t *outlen, const char **enc)
{
	const unsigned char *u = (const unsigned char *)buf;
	const char *e = NULL;
	int ret;

	if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
		e = u[0] == 0xfe ? "UTF-16BE" : "UTF-16LE";
		buf += 2;
		len -= 2;
	} else if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		buf += 3;
		len -= 3;
	} else if (!(e = utf16_nobom(u, len)) && utf8_bad(u, len)) {
		e = codepage(buf, len);
	}
	if (enc)
		*enc = e;
	if (e) {
		ret = convert(!strcmp(e, "cp932") ? "CP932" : !strcmp(e, "cp1251") ? "CP1251" :
			      !strcmp(e, "cp1252") ? "CP1252" : e, buf, len, out, outlen);
		if (ret != -EILSEQ || !strncmp(e, "UTF-16", 6))
			return ret;
		if (enc)	/* a byte the code page lacks: damage, kept as it is */
			*enc = NULL;
	}
	*out = malloc(len + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, buf, len);
	(*out)[len] = '\0';
	*outlen = len;
	return 0;
}

/* The HTML entities a page writes for a report's text. */
static const struct {
	const char *name;
	char c;
} entities[] = {
	{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' }, { "&nbsp;", ' ' },
	{ "&#39;", '\'' },
};

/* buf[0..*n) with the entities replaced, in place.  Return: nothing (*n updated). */
static void unescape(char *buf, size_t *n)
{
	size_t o = 0;

	for (size_t i = 0; i < *n; i++) {
		size_t k = 0, l = 0;

		if (buf[i] == '&')
			for (; k < sizeof(entities) / sizeof(entities[0]); k++) {
				l = strlen(entities[k].name);
				if (i + l <= *n && !memcmp(buf + i, entities[k].name, l))
					break;
			}
		if (buf[i] == '&' && k < sizeof(entities) / sizeof(entities[0])) {
			buf[o++] = entities[k].c;
			i += l - 1;
		} else {
			buf[o++] = buf[i];
		}
	}
	*n = o;
}

/* Length of the tag <NAME ...> or </NAME> at s when NAME is pre or code; 0 if none. */
static size_t block_tag(const char *s)
{
	static const char *const names[] = { "pre", "code" };
	const char *p = s + 1 + (s[1] == '/'), *gt;

	if (*s != '<')
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i]);

		if (!strncasecmp(p, names[i], l) && (p[l] == '>' || p[l] == ' ') &&
		    (gt = strchr(p, '>')))
			return (size_t)(gt + 1 - s);
	}
	return 0;
}

/*
 * What a paste into a page added to the line buf[0..*n): quote markers,
 * <pre>/<code> tags, entities (textlines.h).  Return: the line's new start
 * in buf (*n its length from there).
 */
static char *unpaste(char *buf, size_t *n, bool html)
{
	char *s = buf, *end;
	size_t t;

	buf[*n] = '\0';
	for (;;) {
		char *q = (char *)nv_text_skip(s);

		if (*q == '>' && (q[1] == ' ' || q[1] == '\0' || q[1] == '>'))
			s = q + 1 + (q[1] == ' ');
		else if ((t = block_tag(q)))
			s = q + t;
		else
			break;
	}
	*n -= (size_t)(s - buf);
	for (end = s + *n; end > s;) {
		char *lt = memrchr(s, '<', (size_t)(end - s));

		if (!lt || lt[1] != '/' || block_tag(lt) != (size_t)(end - lt))
			break;
		end = lt;
	}
	*n = (size_t)(end - s);
	if (html && memchr(s, '&', *n))
		unescape(s, n);
	return s;
}

/* True when the len bytes at text hold s (its first byte not a letter), in any case. */
static bool strcasestr_n(const char *text, size_t len, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = text, *end = text + len; p && (size_t)(end - p) >= n; p++) {
		p = memchr(p, s[0], (size_t)(end - p));
		if (p && (size_t)(end - p) >= n && !strncasecmp(p, s, n))
			return true;
		if (!p)
			break;
	}
	return false;
}

int nv_text_lines(const char *text, size_t len, int (*fn)(void *ctx, const char *line,
							   unsigned lineno),
		  void *ctx, unsigned *bad_line)
{
	char *buf = malloc(len + 1), *line;
	bool html = strcasestr_n(text, len, "<pre") || strcasestr_n(text, len, "<code") ||
		    memmem(text, len, "&lt;", 4) || memmem(text, len, "&gt;", 4);
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
		line = unpaste(buf, &n, html);
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		line[n] = '\0';
		ret = fn(ctx, line, lineno);
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
