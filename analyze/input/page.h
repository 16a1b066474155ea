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
 * (* _ `) and its first parenthesised remark of several words (what
 * follows it kept; one word, "(m5d.8xlarge)", stays), at most 40 bytes,
 * cut at a blank.
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
 * The code fence line (``` or ~~~, past quote markers) nearest above offset
 * at of text and at or after offset from: the one that opens the code block
 * at is in, when at is in one that opens after from.  Return: its offset,
 * or SIZE_MAX when there is none.
 */
size_t nv_page_fence_above(const char *text, size_t from, size_t at);

/*
 * Whether two captions name different things: they differ in more than
 * their digits, blanks and case ("Samsung SSD 980 PRO" and "KIOXIA
 * KXG60ZNV512G" do; "run 1:" and "Run 2:" do not).  Return: true when so.
 */
bool nv_page_captions_differ(const char *a, size_t na, const char *b, size_t nb);

/* The number of different heads[0..n) ("" counts as one).  Return: that number. */
size_t nv_page_distinct(const char (*heads)[NV_PAGE_HEAD], size_t n);

/*
 * What an output under the heading of earlier ones is to them (page_labels'
 * classify): another test of the same machine, joined into its run
 * (NV_PAGE_JOIN: the first output of the machine's and i), a repeat of the
 * first output there (NV_PAGE_REPEAT: first and i), or another machine.
 */
enum nv_page_rel { NV_PAGE_OTHER, NV_PAGE_REPEAT, NV_PAGE_JOIN };

/*
 * labels[0..n) (malloc'ed strings) of the outputs: heads[i], or stem where
 * it is ""; an output under the heading of an earlier one gets " #N" (N:
 * the machines under that heading so far) unless rel(first, mach, i, ctx)
 * says it repeats the first output there or is another test of the
 * machine whose first output is mach (then that machine's label, and
 * joined[i] true).  O(n log n) compares.  Return: 0, or -ENOMEM (labels
 * set so far stay).
 */
int nv_page_labels(const char (*heads)[NV_PAGE_HEAD], size_t n, const char *stem,
		   enum nv_page_rel (*rel)(size_t first, size_t mach, size_t i, void *ctx),
		   void *ctx, char **labels, bool *joined);

#endif
