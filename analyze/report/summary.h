/*
 * summary.h - the suite summary: one row per job and direction with the
 * job's headline number, one column per run, the change column(s); the
 * first table of every output.
 *
 * The headline rule is the model's (report/model.h, nv_block_headline):
 * IOPS for random and small-block jobs, MB/s for the rest; --summary
 * iops|bw|both overrides it.
 */
#ifndef NV_ANALYZE_SUMMARY_H
#define NV_ANALYZE_SUMMARY_H

#include <stddef.h>

#include "analyze/report/model.h"

/* One row of the summary: a block's headline metric. */
struct nv_summary_row {
	size_t block;
	const struct nv_row *row;
};

/*
 * Parse --summary's argument: "auto", "iops", "bw" (or "mbps"), "both".
 * Return: 0 with *h set, -EINVAL for anything else.
 */
int nv_headline_parse(const char *s, enum nv_headline *h);

/*
 * The summary rows of r: every active block but sync ones, in block order,
 * with IOPS and/or bandwidth as h and the headline rule say (a block
 * without that row is left out).  *rows is malloc'ed (free it), *n its
 * length.
 * Return: 0 or -ENOMEM.
 */
int nv_summary_build(const struct nv_report *r, enum nv_headline h, struct nv_summary_row **rows,
		     size_t *n);

#endif
