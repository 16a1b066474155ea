/*
 * page.h - an article's machines: the Markdown headings above the outputs
 * of one file, and the labels they give the outputs as runs (multiout.h).
 */
#ifndef NV_ANALYZE_PAGE_H
#define NV_ANALYZE_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#define NV_PAGE_HEAD 96	/* a heading as a label: at most 40 bytes, room to spare */

/*
 * The nearest heading above each output of text, at[0..n) its offsets in
 * ascending order, into *heads (malloc'ed [n], "" where there is none), in
 * one pass: "#" to "######" lines outside ``` / ~~~ fences, or inside what
 * the fences' count calls one when a blank line stands on either side (a
 * fence line lost or doubled; a comment in a code block has its command
 * beside it).  A heading becomes a label: without the marks, emphasis
 * (* _ `) and a parenthesised remark, at most 40 bytes, cut at a blank.
 * Return: 0 or -ENOMEM (*heads NULL).
 */
int nv_page_headings(const char *text, const size_t *at, size_t n,
		     char (**heads)[NV_PAGE_HEAD]);

/*
 * The caption of the output at offset at of text: the last line above it
 * that is not blank, a code fence or a rule of '-', '=' or '*' (a drive's
 * name, "run 2:"), past quote markers.  A heading there (or none) is no
 * caption.  Return: its length (0: none), *cap its start.
 */
size_t nv_page_caption(const char *text, size_t at, const char **cap);

/*
 * Whether two captions name different things: they differ in more than
 * their digits, blanks and case ("Samsung SSD 980 PRO" and "KIOXIA
 * KXG60ZNV512G" do; "run 1:" and "Run 2:" do not).  Return: true when so.
 */
bool nv_page_captions_differ(const char *a, size_t na, const char *b, size_t nb);

/* The number of different heads[0..n) ("" counts as one).  Return: that number. */
size_t nv_page_distinct(const char (*heads)[NV_PAGE_HEAD], size_t n);

/*
 * labels[0..n) (malloc'ed strings) of the outputs: heads[i], or stem where
 * it is ""; an output under the heading of an earlier one gets " #N" (its
 * place under that heading) unless repeat(first, i, ctx) says it repeats
 * the first output there (then the same label: a repeat of that machine).
 * O(n log n) compares.  Return: 0, or -ENOMEM (labels set so far stay).
 */
int nv_page_labels(const char (*heads)[NV_PAGE_HEAD], size_t n, const char *stem,
		   bool (*repeat)(size_t first, size_t i, void *ctx), void *ctx, char **labels);

#endif
