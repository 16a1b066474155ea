/*
 * anchors.c - GitHub's heading anchors (anchors.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/publish/anchors.h"

/*
 * The anchor of text[0..len) before any repeat suffix.
 * Return: nothing; the anchor is in buf.
 */
static void slug(const char *text, size_t len, char *buf, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < n; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c >= 'A' && c <= 'Z')
			buf[o++] = (char)(c - 'A' + 'a');
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
			buf[o++] = (char)c;
		else if (c == ' ')
			buf[o++] = '-';
	}
	buf[o] = 0;
	if (!o)
		snprintf(buf, n, "section");
}

/* Whether s was given before.  Return: true if it was. */
static bool seen(const struct nv_anchors *a, const char *s)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->seen[i], s))
			return true;
	return false;
}

int nv_anchor_next(struct nv_anchors *a, const char *text, size_t len, char *buf, size_t n)
{
	char base[256];
	char *keep;

	slug(text, len, base, sizeof(base));
	snprintf(buf, n, "%s", base);
	for (unsigned k = 1; seen(a, buf); k++)
		snprintf(buf, n, "%.240s-%u", base, k);
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		char **s = realloc(a->seen, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		a->seen = s;
		a->cap = cap;
	}
	keep = strdup(buf);
	if (!keep)
		return -ENOMEM;
	a->seen[a->n++] = keep;
	return 0;
}

void nv_anchors_free(struct nv_anchors *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->seen[i]);
	free(a->seen);
	memset(a, 0, sizeof(*a));
}
