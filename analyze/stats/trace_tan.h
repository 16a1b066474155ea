/*
 * trace_tan.h - the state nv_tan_run (trace_stats.h) shares between its
 * files: trace_src.c (the traces opened, read block by block, checked),
 * trace_series.c (pass 1: the merge, the intervals, the totals),
 * trace_spikes.c (thresholds, slow IOs, episodes) and trace_stats.c (the
 * passes and the results).  Internal to those files.
 */
#ifndef NV_ANALYZE_TRACE_TAN_H
#define NV_ANALYZE_TRACE_TAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/opstats.h"
#include "analyze/stats/trace_dims.h"

struct nv_tan;
struct nv_tan_opts;

/* Per-run state that is not part of the result. */
struct src {
	struct nvt_reader *r;
	const struct nvt_cols *c;	/* its block (columns of want), c->n records */
	size_t n, i;		/* c->n; the next record to take */
	unsigned want;		/* NVT_COL_* the pass decodes (latency and op at least) */
	uint64_t seen;		/* records before this block, UINT64_MAX after a seek */
	bool done;
	uint64_t counted;	/* bytes of this file counted in done_bytes */
	size_t file;		/* its index in paths */
	uint64_t ramp_end;	/* IOs submitted before this are fio's ramp (0: none) */
};

struct ibuf {			/* latencies of the open interval, one op */
	uint64_t *v;		/* latencies held, in completion order (none once spilled) */
	uint64_t *cpl;		/* their completion times */
	size_t n, cap;		/* held values; allocated */
	size_t ios;		/* the interval's IOs of this op, held or not */
	uint64_t bytes, max;
	uint64_t *hist;		/* their counts per exact.h bucket (NV_EXACT_NBUCKETS) ... */
	unsigned hlo, hhi;	/* ... nonzero only in [hlo, hhi] */
};

/* An interval past the cap (state's vcap values held in all): its counts
 * only, and each wanted rank's bucket and rank within it, resolved by
 * tan_series_pass. */
struct pend_rank { unsigned bk; uint64_t k; };
struct pend {
	size_t iv;		/* the interval */
	int only;		/* the one op with IOs, or -1 (mixed: NV_TAN_ALL's ranks) */
	struct pend_rank r[NV_TAN_NOPS][3];	/* p50, p99, p99.9 */
};

#define SERIES_VCAP (1u << 18)	/* values held per interval by default: 4 MiB */
#define MAX_CANDIDATES (1u << 22)	/* 96 MiB of slow-IO candidates at most */

struct state {
	struct nv_tan *t;
	const struct nv_tan_opts *o;
	const char *const *paths;
	size_t npaths;
	struct nv_opstats ops;	/* exact latency per operation and of all (opstats.h) */
	struct nv_exact *qx[NVT_OP__MAX][NV_TAN_NQD];
	struct ibuf ib[NV_TAN_NOPS];
	size_t cap;		/* allocated intervals per series */
	size_t cur;		/* the open interval */
	size_t vcap, held;	/* values held per interval at most; held in the open one */
	bool spilled;		/* the open interval passed vcap: counts only */
	struct pend *pend;	/* the spilled intervals, in order */
	size_t npend, pendcap, pi;	/* pi: the next one tan_series_pass resolves */
	uint64_t *col[NV_TAN_NOPS][3];	/* tan_series_pass: values of a wanted bucket */
	size_t ncol[NV_TAN_NOPS][3], colcap[NV_TAN_NOPS][3];
	uint64_t next_ns;	/* its end, from t0 */
	bool any;
	bool spiky[NV_TAN_NOPS];	/* some interval's max reached the threshold */
	struct slow { uint64_t submit, complete; unsigned op; } *slow;
	size_t nslow, slowcap;
	/* Pass 1 keeps the IOs at or above their interval's p99.9 (0.1%): the
	 * slow IOs are among them wherever the interval's p99.9 is below the
	 * spike threshold, so only intervals where it is not are read again. */
	struct slow *cand;
	size_t ncand, candcap;
	bool cand_overflow;
	uint64_t *hall;		/* the ops' hist summed (NV_EXACT_NBUCKETS), mixed jobs */
	uint64_t *scratch;	/* the values of one bucket, selected on */
	size_t scratchcap;
	/* progress (nv_tan_opts' callback) */
	uint64_t total_bytes, done_bytes;
	uint64_t pass_records;	/* records of blocks read in this pass */
	uint64_t footer_records;	/* pass 1's total from the footers ... */
	bool footers_known;	/* ... when every trace has one */
	uint64_t pass1_records;	/* a whole pass's records, after pass 1 */
	bool seeking;		/* the spike pass: no total */
	unsigned pass;
	char *err;
	size_t errlen;
};

#define add_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/* Return: true when record i of s's block was submitted during fio's ramp_time
 * (fio did not count it). */
static inline bool tan_in_ramp(const struct src *s, size_t i)
{
	return s->c->complete_ns[i] - s->c->latency_ns[i] < s->ramp_end;
}

/* Tell the caller where the analysis is (s: the trace just read, or NULL).  Return: nothing. */
void tan_progress(struct state *st, const struct src *s, bool done);

/* Open trace i into s (its header's ramp, nv_trace_ab, waits noted in pass 0).
 * Return: 0, or -errno with st->err set. */
int tan_open_src(struct state *st, size_t i, struct src *s);

/* Refill s with its next block (the columns of s->want), every record checked
 * (trace_check.h); s->done at the end.  Return: 0 or -errno (st->err set). */
int tan_src_next(struct state *st, struct src *s);

/* The end of the run of records from a on in s's block (up to b) that fio
 * counted, the ramp's IOs before it (*a moved past them) counted in
 * ramp_records in pass 1.  Return: the
 * run's end, a when the block ends (at b) in the ramp. */
size_t tan_counted_run(struct state *st, const struct src *s, size_t *a, size_t b);

/* Records [a, b) of s's block into the exact states per operation and
 * queue-depth class, in order.  Return: 0, -ENOMEM or -EINVAL (opstats.h). */
int tan_feed_exact(struct state *st, const struct src *s, size_t a, size_t b);

/* Pass 1 over the merged traces s[0..npaths).  Return: 0 or -errno (st->err set). */
int tan_pass1(struct state *st, struct src *s);

/* After pass 1, when some interval spilled (st->npend): the traces merged
 * again as pass 1 did, the spilled intervals' p50/p99/p99.9 selected among
 * their wanted buckets' values.  Return: 0 or -errno (st->err set). */
int tan_series_pass(struct state *st);

/* After pass 1: thresholds, spiky operations, slow IOs among the candidates.
 * Return: 0 or -ENOMEM. */
int tan_plan_spikes(struct state *st);

/* Return: true when some interval's slow IOs must be read again (tan_spike_pass). */
bool tan_any_spiky(const struct state *st);

/* A record of a later pass: kept when it is a slow IO to read again.
 * Return: 0 or -ENOMEM (st->err set). */
int tan_spike_record(struct state *st, unsigned op, uint64_t submit, uint64_t complete);

/* The slow IOs of the spiky intervals, read again.  Return: 0 or -errno (st->err set). */
int tan_spike_pass(struct state *st);

/* The slow IOs chained into t->spikes.  Return: 0 or -ENOMEM. */
int tan_build_spikes(struct state *st);

#endif
