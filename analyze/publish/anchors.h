/*
 * anchors.h - the anchors of a page's headings, made as GitHub makes them
 * for Markdown: report.md's contents link to them (GitHub follows those
 * links) and report.html gives its headings the same ids, so one list of
 * links serves both pages.
 *
 * An anchor is the heading's text lowercased, each space a '-', letters,
 * digits, '-' and '_' kept, everything else dropped ("test · read" ->
 * "test--read"); non-ASCII characters are dropped too (GitHub keeps
 * non-ASCII letters); a repeated anchor gets "-1", "-2" ...; an empty one
 * is "section".
 */
#ifndef NV_ANALYZE_ANCHORS_H
#define NV_ANALYZE_ANCHORS_H

#include <stddef.h>

/* The anchors given so far on one page. */
struct nv_anchors {
	size_t n, cap;
	char **seen;
};

/*
 * The anchor of the next heading of the page, whose Markdown text is
 * text[0..len) (`code` and *emphasis* marks are dropped as punctuation).
 * Return: 0 with the anchor in buf (truncated to n), or -ENOMEM.
 */
int nv_anchor_next(struct nv_anchors *a, const char *text, size_t len, char *buf, size_t n);

/* Free what nv_anchor_next kept.  Return: nothing. */
void nv_anchors_free(struct nv_anchors *a);

#endif
