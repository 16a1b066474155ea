/*
 * page.c - the headings above a file's outputs and the labels of its runs
 * (page.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/page.h"

/* p past its blanks, not past end.  Return: that pointer. */
static const char *skip(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* True when the line at p (to end) is blank. */
static bool blank_line(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p >= end || *p == '\n';
}

/* True when the line [b, e) past its blanks opens or closes a code fence. */
static bool fence_line(const char *b, const char *e)
{
	return e - b >= 3 && (!memcmp(b, "```", 3) || !memcmp(b, "~~~", 3));
}

/* Return: the ')' that closes the '(' at p (nested ones counted) before e, or NULL. */
static const char *closing(const char *p, const char *e)
{
	int depth = 0;

	for (; p < e; p++)
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			return p;
	return NULL;
}

/*
 * The Markdown heading ("## aws ec2 micro - 990M") of the line [p, e) into
 * buf[NV_PAGE_HEAD] as a run's label (page.h).  Return: true for a heading.
 */
static bool heading(const char *p, const char *e, char *buf)
{
	const char *q = skip(p, e), *paren, *close;
	size_t hashes = 0, o = 0;

	if (q - p > 3)
		return false;
	while (q < e && *q == '#')
		q++, hashes++;
	if (!hashes || hashes > 6 || q >= e || (*q != ' ' && *q != '\t'))
		return false;
	q = skip(q, e);
	paren = memmem(q, (size_t)(e - q), " (", 2);
	close = paren && paren > q ? closing(paren + 1, e) : NULL;
	if (close && !memchr(paren + 2, ' ', (size_t)(close - paren - 2)))
		paren = close = NULL;	/* one word, "(m5d.8xlarge)": the label's */
	else if (paren && paren > q && !close)
		e = paren;	/* a remark left open: the rest is its */
	while (e > q && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t' || e[-1] == '#'))
		e--;
	for (; q < e && o + 1 < NV_PAGE_HEAD && o < 40; q++)
		if (q == paren && close)
			q = close;	/* the remark left out, what follows it kept */
		else if (!strchr("*_`", *q))
			buf[o++] = *q;
	if (q < e)	/* cut: at the last blank, not inside a word (or a UTF-8 letter) */
		while (o > 1 && buf[o - 1] != ' ')
			o--;
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
	return o > 0;
}

/* True when the line [b, e) is a rule: only '-', '=', '*' and blanks. */
static bool rule_line(const char *b, const char *e)
{
	bool any = false;

	for (; b < e; b++) {
		if (*b == '-' || *b == '=' || *b == '*')
			any = true;
		else if (*b != ' ' && *b != '\t' && *b != '\r')
			return false;
	}
	return any;
}

/*
 * The line of text above the one starting at e (e > text): its start into
 * *b, its content into [*q, *end) (past quote markers and blanks, without
 * its CR and trailing blanks).  Return: nothing.
 */
static void line_above(const char *text, const char *e, const char **b, const char **q,
		       const char **end)
{
	*b = *end = e - 1;
	while (*b > text && (*b)[-1] != '\n')
		(*b)--;
	for (*q = *b; *q < *end && (**q == ' ' || **q == '\t' || **q == '>'); (*q)++)
		;	/* quote markers */
	while (*end > *q && ((*end)[-1] == '\r' || (*end)[-1] == ' ' || (*end)[-1] == '\t'))
		(*end)--;
}

size_t nv_page_caption(const char *text, size_t at, const char **cap)
{
	const char *e = text + at;	/* the start of the line below */
	char h[NV_PAGE_HEAD];

	*cap = NULL;
	while (e > text) {
		const char *b, *q, *end;

		line_above(text, e, &b, &q, &end);
		if (end > q && !fence_line(q, end) && !rule_line(q, end)) {
			if (heading(q, end, h))
				return 0;
			*cap = q;
			return (size_t)(end - q);
		}
		e = b;
	}
	return 0;
}

size_t nv_page_fence_above(const char *text, size_t from, size_t at)
{
	const char *e = text + at, *lo = text + from;	/* e: the start of the line below */

	while (e > lo) {
		const char *b, *q, *end;

		line_above(text, e, &b, &q, &end);
		if (b < lo)
			break;
		if (end > q && fence_line(q, end))
			return (size_t)(b - text);
		e = b;
	}
	return SIZE_MAX;
}

/* The next byte of s[0..n) from *i on that is not a digit, blank or '#', lowered. */
static int next_word_byte(const char *s, size_t n, size_t *i)
{
	while (*i < n && strchr("0123456789 \t#", s[*i]))
		(*i)++;
	if (*i == n)
		return -1;
	return (unsigned char)(s[*i] >= 'A' && s[*i] <= 'Z' ? s[(*i)++] + 32 : s[(*i)++]);
}

bool nv_page_captions_differ(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0, k = 0;
	int x, y;

	do {
		x = next_word_byte(a, na, &i);
		y = next_word_byte(b, nb, &k);
	} while (x == y && x >= 0);
	return x != y;
}

int nv_page_headings(const char *text, const size_t *at, size_t n,
		     char (**heads)[NV_PAGE_HEAD])
{
	const char *p = text, *end = text + (n ? at[n - 1] : 0);
	char cur[NV_PAGE_HEAD] = "", h[NV_PAGE_HEAD];
	bool fence = false, prev_blank = true;
	size_t r = 0;

	*heads = calloc(n ? n : 1, sizeof(**heads));
	if (!*heads)
		return -ENOMEM;
	for (; p <= end && r < n; p++) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *b;

		for (; r < n && at[r] <= (size_t)(p - text); r++)
			memcpy((*heads)[r], cur, sizeof(cur));
		if (p == end)
			break;
		e = e ? e : end;
		b = skip(p, e);
		if (fence_line(b, e))
			fence = !fence;
		else if ((!fence || (prev_blank && blank_line(e + (e < end), end))) &&
			 heading(p, e, h))
			memcpy(cur, h, sizeof(cur));
		prev_blank = blank_line(p, e);
		p = e;
	}
	for (; r < n; r++)
		memcpy((*heads)[r], cur, sizeof(cur));
	return 0;
}

/* qsort_r's order of output indices: by heading, then by place. */
static int by_heading(const void *a, const void *b, void *ctx)
{
	const char (*heads)[NV_PAGE_HEAD] = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(heads[x], heads[y]);

	return c ? c : (x > y) - (x < y);
}

/* The indices 0..n) sorted by heading (malloc'ed).  Return: them, or NULL. */
static size_t *sorted(const char (*heads)[NV_PAGE_HEAD], size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_heading, (void *)heads);
	return idx;
}

size_t nv_page_distinct(const char (*heads)[NV_PAGE_HEAD], size_t n)
{
	size_t *idx = sorted(heads, n), d = 0;

	for (size_t k = 0; idx && k < n; k++)
		d += !k || strcmp(heads[idx[k]], heads[idx[k - 1]]);
	free(idx);
	return idx ? d : n;	/* out of memory: as if all differ */
}

int nv_page_labels(const char (*heads)[NV_PAGE_HEAD], size_t n, const char *stem,
		   enum nv_page_rel (*rel)(size_t first, size_t mach, size_t i, void *ctx),
		   void *ctx, char **labels, bool *joined)
{
	size_t *idx = sorted(heads, n);
	int ret = idx ? 0 : -ENOMEM;

	for (size_t k = 0, first = 0, mach = 0, nth = 0; !ret && k < n; k++) {
		size_t i = idx[k];
		const char *h = *heads[i] ? heads[i] : stem;
		enum nv_page_rel r = NV_PAGE_OTHER;

		joined[i] = false;
		if (!k || strcmp(heads[i], heads[idx[k - 1]])) {
			first = mach = i;
			nth = 0;
		} else {
			r = rel(first, mach, i, ctx);
		}
		if (r == NV_PAGE_JOIN) {
			labels[i] = strdup(labels[mach]);
			joined[i] = true;
		} else if (r == NV_PAGE_REPEAT) {
			labels[i] = strdup(h);
		} else if (++nth == 1) {
			labels[i] = strdup(h);
		} else {
			mach = i;
			if (asprintf(&labels[i], "%s #%zu", h, nth) < 0)
				labels[i] = NULL;
		}
		if (!labels[i])
			ret = -ENOMEM;
	}
	free(idx);
	return ret;
}
