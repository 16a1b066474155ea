/*
 * opstats.h - exact latency statistics of a trace per operation and of all
 * operations together: one nv_exact state (stats/exact.h) per operation that
 * occurs, for the percentiles of nv_pcts (common.h), fed in one or more
 * passes over the same records.
 *
 * The all-operations state exists only once a record of a second operation
 * shows up: then it is a copy (nv_exact_clone) of the first operation's
 * state at that record (the same values in the same order) and is fed
 * alongside from there.  A one-operation trace (the common case) feeds one
 * state per value, and its all-operations statistics are that operation's.
 *
 * Used by `nvanalyze stat` (whole blocks of columns) and by the trace
 * analysis of compare (stats/trace_stats.c, one record at a time).
 */
#ifndef NV_ANALYZE_OPSTATS_H
#define NV_ANALYZE_OPSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/pctlevels.h"
#include "trace/nvtrace.h"

#define NV_OPSTATS_ALL	NVT_OP__MAX	/* index of the all-operations state */
/* nv_exact_set_role: the states here are roles 1 .. NV_OPSTATS_ROLES - 1 */
#define NV_OPSTATS_ROLES	(NV_OPSTATS_ALL + 2)

struct nv_opstats {
	struct nv_exact *ex[NVT_OP__MAX + 1];	/* NULL until the op's first value */
	int first_op;		/* the op of the first value; -1 before it */
	uint64_t *scratch;	/* a block's latencies grouped by op */
	size_t scratch_cap;
	size_t nextra;		/* --percentiles: levels resolved after nv_pcts' (per */
	const double *extra;	/* op and all), at NV_PCT_NR.. of each state; not copied */
};

/* Return: nothing; s is empty (first_op -1). */
void nv_opstats_init(struct nv_opstats *s);

/*
 * A new exact state for the percentiles of nv_pcts (also for other
 * groupings, e.g. by queue depth).
 * Return: 0 or -ENOMEM.
 */
int nv_opstats_exact_new(struct nv_exact **e);

/*
 * Also resolve levels extra[0..n) in each operation's state, after nv_pcts'
 * (nv_exact_value(e, NV_PCT_NR + i)), at most NV_PCTL_MAX; extra must outlive
 * s.  Only before the first value.
 * Return: nothing.
 */
void nv_opstats_set_extra(struct nv_opstats *s, const double *extra, size_t n);

/*
 * One record's latency (op < NVT_OP__MAX), in the same order in every pass.
 * Return: 0, -ENOMEM, or -EINVAL (a second op that pass 1 did not see).
 */
int nv_opstats_add(struct nv_opstats *s, unsigned op, uint64_t lat);

/*
 * The latencies lat[0..n) of records with ops op[0..n) (every op <
 * NVT_OP__MAX), as n calls of nv_opstats_add but faster; uniform_op: all
 * records have op[0].
 * Return: 0, -ENOMEM, or -EINVAL.
 */
int nv_opstats_add_block(struct nv_opstats *s, const uint8_t *op, const uint64_t *lat, size_t n,
			 bool uniform_op);

/*
 * Pass 1 by parts: src's values added to op's state, made on first use
 * (nv_exact_merge_move: the first src of an op may have its pass 1 ended
 * here and its dense counts moved); src stays the caller's.  Only before
 * the all-operations state exists (nv_opstats_merge_all).
 * Return: 0, -ENOMEM or -EINVAL.
 */
int nv_opstats_merge(struct nv_opstats *s, unsigned op, struct nv_exact *src);

/*
 * After the nv_opstats_merge calls: the all-operations state made from the
 * operations' when there are two or more (as nv_opstats_add would have
 * made it, but for the rounding of the standard deviation's sums).  Later
 * passes feed s as usual.
 * Return: 0, -ENOMEM or -EINVAL.
 */
int nv_opstats_merge_all(struct nv_opstats *s);

/*
 * End a pass on every state.
 * Return: 1 when the same records must be fed again, 0 when the results
 * are ready, -EINVAL (a pass saw other values) or -ENOMEM.
 */
int nv_opstats_end_pass(struct nv_opstats *s);

/*
 * The state of op (NV_OPSTATS_ALL: all operations; with one operation,
 * that operation's).
 * Return: the state, or NULL when op had no value.
 */
const struct nv_exact *nv_opstats_get(const struct nv_opstats *s, unsigned op);

/* Return: nothing; s is freed and empty. */
void nv_opstats_free(struct nv_opstats *s);

#endif
