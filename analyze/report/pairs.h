/*
 * pairs.h - the change columns: which side is compared with which.
 *
 * By default every side but the baseline against the baseline; --pair A:B
 * gives the pairs instead (several in one table, e.g. the .large and the
 * .2xlarge of two instance families side by side).  Each row keeps one
 * change per pair (row->pchg, in pair order).
 */
#ifndef NV_ANALYZE_PAIRS_H
#define NV_ANALYZE_PAIRS_H

#include <stddef.h>

#include "analyze/report/model.h"

/*
 * Set r's pairs to p[0..n) (sides a vs b, a != b), or with n == 0 the
 * default (each side but the baseline vs the baseline), and compute every
 * row's changes for them.
 * Return: 0, -EINVAL for a pair out of range or of a side with itself,
 * -ENOMEM (r keeps its previous pairs then).
 */
int nv_report_pairs(struct nv_report *r, const struct nv_pair *p, size_t n);

/*
 * The heading of pair p: "A vs B".
 * Return: nothing; the text is in buf.
 */
void nv_pair_title(char *buf, size_t n, const struct nv_report *r, size_t p);

#endif
