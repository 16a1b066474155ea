/*
 * exact_int.h - the state of exact.c (private to exact.c and exact_single.c,
 * its single-pass path): targets, probes and the single-pass data.  Its
 * includers include exact.h first (exact.h's module includes this one: no
 * circle of modules, tests/integration/build.sh).
 */
#ifndef NV_EXACT_INT_H
#define NV_EXACT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/exact_sums.h"

#define SUB_BITS	NV_EXACT_SUB_BITS
/* The single pass counts values below lim (a 32nd of dense_limit, at most
 * DENSE_LO: 64 K, 256 KiB of counts) and lists the others until the list
 * holds RAISE_AT of them (weighed as 256 KiB, what a 64 K range of counts
 * costs, though held in half: 32-bit offsets); only then are the values up
 * to dense_limit counted (single_raise), and only if their counts take no
 * more memory than the list (list_cheaper): else the list goes on to twice
 * as many values, and so on.  A state with few values spread over its
 * range (a rare queue-depth class of a trace whose tail spreads over
 * milliseconds; a thread trace's class of a few thousand IOs; a long run's
 * tail) so holds a list, not a count page per 1024 ns its values touch. */
#define DENSE_LO	(1u << 16)
#define RAISE_AT	(1u << 15)
#define NBUCKETS	NV_EXACT_NBUCKETS
_Static_assert(NBUCKETS == ((64 - SUB_BITS + 1) << SUB_BITS), "bucket count");

enum probe_mode { PROBE_COLLECT, PROBE_COUNT };

struct probe {
	uint64_t lo, hi;	/* value range */
	uint64_t below;		/* values < lo (all passes agree) */
	uint64_t cnt;		/* values in [lo, hi] */
	enum probe_mode mode;
	uint64_t *vals;		/* COLLECT: up to cnt values */
	uint64_t nvals;		/* values seen in range this pass */
	uint64_t *sub;		/* COUNT: nsub counters */
	uint64_t nsub, subw;
};

struct target {
	double pct;
	uint64_t rank;		/* 1-based */
	bool done;
	uint64_t value;
	int probe;		/* index in probes while pending */
};

struct nv_exact {
	size_t ntarget;
	struct target *t;
	struct probe *probes;
	size_t nprobes;
	size_t collect_cap, nsub_max;
	unsigned pass;		/* passes completed */
	bool finished;
	bool bad;		/* a value outside pass 1's range */

	uint64_t *hist;		/* pass 1 */
	uint64_t n, pass_n, min, max;
	struct nv_exact_sums sums;	/* exact: any order, any merge, the same */

	/* Single-pass path: exact counts of values < dense_limit, the others
	 * in a list; when both hold, pass 1 resolves every rank. */
	uint32_t *dense;	/* dense_mapped counts (exact_dense.c), used up to ndense */
	uint64_t ndense, dense_limit, dense_n, dense_mapped;
	uint64_t lim;		/* below it counted, the others listed (single_raise) */
	uint64_t dense_span;	/* what earlier users of the array may have written */
	unsigned role;		/* nv_exact_set_role */
	unsigned dense_role;	/* the role dense was taken for (lent: another's) */
	/* the list: offsets from obase (lim at first, never raised) of the values
	 * within 2^32 of it, 4 bytes each; the rare larger ones in far */
	uint32_t *ovf;
	uint64_t obase, *far;
	size_t novf, nfar, ovf_cap;	/* ovf_cap: novf + nfar at most */
	size_t raise_at;	/* the list's size at which a raise is weighed (0: RAISE_AT) */
	bool single_failed;	/* a count wrapped, the list filled, or no memory */
	bool dense_lent;	/* dense belongs to another state (nv_exact_merge_move) */
};

/* Return: nothing; pass 1's exact side: v counted in the dense array or kept in the list. */
void nv_single_add(struct nv_exact *e, uint64_t v);
/* Return: nothing; the single-pass data freed (the dense array given back). */
void nv_single_free(struct nv_exact *e);
/* Return: nothing; after pass 1 with the single-pass data intact: every rank, exactly. */
void nv_single_resolve(struct nv_exact *e);
/* Return: nothing; src's list of values added to e's (nv_single_add: e's list). */
void nv_single_ovf_merge(struct nv_exact *e, const struct nv_exact *src);
/* Return: nothing; src's single-pass data added to e's (both intact); gives up e's
 * on a wrapped count, a full list or no memory. */
void nv_single_merge(struct nv_exact *e, const struct nv_exact *src);

#endif
