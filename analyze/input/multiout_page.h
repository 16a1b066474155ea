/*
 * multiout_page.h - which outputs of a file of several are repeats of one
 * run and which are a page's machines (private to multiout.c; the rules are
 * multiout.h's): the outputs' headings, whether they are a page, their
 * labels, the tests of one machine to join.
 */
#ifndef NV_ANALYZE_MULTIOUT_PAGE_H
#define NV_ANALYZE_MULTIOUT_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"
#include "analyze/input/page.h"

/* The runs of a file of several, in file order (multiout.h's nv_multiout's). */
struct nv_mo_runs {
	size_t n;
	const struct nv_run *runs;
};

/*
 * True when the runs of m are repeats of one run: the same jobs with the
 * same options lines, the same fio version, no run the same output as
 * another (a paste repeated).  Return: true or false.
 */
bool nv_mo_repeats(const struct nv_mo_runs *m);

/* The headings above each run of m (page.h) into *heads.  Return: 0 or -ENOMEM. */
int nv_mo_run_headings(const char *text, const struct nv_mo_runs *m,
		       char (**heads)[NV_PAGE_HEAD]);

/*
 * Whether the runs of m (text: the file's), under heads, are a page's
 * machines by --split auto's rules (multiout.h).  Return: true for a page.
 */
bool nv_mo_is_page(const char *text, const char (*heads)[NV_PAGE_HEAD],
		   const struct nv_mo_runs *m);

/*
 * labels[0..m->n) of the runs of m, a page: each its heading, else path's
 * stem, " #N" for a later machine under one heading; unless !group (--split
 * outputs), a run that repeats the first there or is another test of the
 * machine before it takes that label (joined[i] true for the latter).
 * Return: 0 or -ENOMEM.
 */
int nv_mo_label_runs(const char *text, const char (*heads)[NV_PAGE_HEAD], const char *path,
		     const struct nv_mo_runs *m, bool group, char **labels, bool *joined);

#endif
