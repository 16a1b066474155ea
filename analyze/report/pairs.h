/*
 * pairs.h - the change columns: which side is compared with which.
 *
 * By default every side but the baseline against the baseline; --pair A:B
 * gives the pairs instead (several in one table, e.g. the .large and the
 * .2xlarge of two instance families side by side).  nv_report_build
 * (model.h) takes the pairs and computes each row's change per pair once
 * (row->pchg, in pair order); here is what the renderers need of them.
 */
#ifndef NV_ANALYZE_PAIRS_H
#define NV_ANALYZE_PAIRS_H

#include <stddef.h>

#include "analyze/report/model.h"

/*
 * The heading of pair p: "A vs B".
 * Return: nothing; the text is in buf.
 */
void nv_pair_title(char *buf, size_t n, const struct nv_report *r, size_t p);

#endif
