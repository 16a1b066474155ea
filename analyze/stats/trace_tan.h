/*
 * trace_tan.h - the state nv_tan_run (trace_stats.h) shares between its
 * files: trace_src.c (the traces opened, read block by block, checked),
 * trace_series.c (pass 1: the merge, the intervals, the totals) with
 * trace_interval.c (an interval's buffers), trace_merge.c (pass 1 of
 * several thread traces, split) and trace_stream.c (pass 1 fed a block at
 * a time, for nvanalyze watch), trace_spikes.c (thresholds, slow IOs,
 * episodes) and trace_stats.c (the passes and the results).  Internal to
 * those files.
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
	uint64_t maxc;		/* pass 1: the latest completion read so far */
};

/* A candidate for the spike episodes: an IO at or above its interval's cut. */
struct ivcand {
	uint64_t lat, cpl;
};

#define IV_DENSE_LO (1u << 16)	/* latencies counted per ns below this at first ... */
#define IV_DENSE_HI (1u << 21)	/* ... and below this once an interval's list filled */
#define IV_CUT_MIN 8192		/* IOs of an interval before its candidates' cut rises */

/*
 * The open interval's IOs of one operation (trace_interval.c): counts per
 * exact.h bucket and per ns below lim, the latencies at or above lim in a
 * list, and the IOs at or above cut with their completion times.  Memory:
 * the bucket counts (117 KiB), the dense counts (4 B per ns below
 * IV_DENSE_HI, allocated but touched only where latencies fall), the list
 * (at most vcap latencies, 8 B each) and the candidates (about 0.2% of the
 * interval's IOs, 16 B each).
 */
struct ibuf {
	uint64_t *hist;		/* counts per exact.h bucket (NV_EXACT_NBUCKETS) ... */
	unsigned hlo, hhi;	/* ... nonzero only in [hlo, hhi] */
	uint32_t *dense;	/* [IV_DENSE_HI] counts per ns of latencies < lim, or NULL */
	uint64_t lim;		/* IV_DENSE_LO, IV_DENSE_HI once raised, 0 without dense */
	uint64_t dense_span;	/* counts earlier users of dense may have written */
	unsigned role;		/* dense's (exact_dense.h) */
	bool dense_ok;		/* dense counts allowed (not in the spill tests) */
	uint64_t *wide;		/* latencies >= lim, in completion order */
	size_t nwide, widecap, vcap;	/* held, allocated, at most */
	struct ivcand *cv;	/* IOs with latency >= cut */
	size_t ncv, cvcap;
	uint64_t cut;
	uint64_t *minor;	/* latencies of its IOs not of the class held for the */
	size_t nminor, minorcap;	/* exact states (tan_ibuf_minor), unordered */
	uint64_t ios;		/* the interval's IOs of this op, counted or spilled */
	uint64_t bytes, errors, max;
	uint64_t lat_sum;	/* the sum of its latencies */
};

/* Return: 0, or -ENOMEM; b empty, holding at most vcap latencies in its
 * list, dense counts when dense (role: exact_dense.h's, one per buffer of
 * a trace). */
int tan_ibuf_init(struct ibuf *b, size_t vcap, bool dense, unsigned role);

/* Return: nothing; b freed. */
void tan_ibuf_free(struct ibuf *b);

/*
 * Count latencies lat[0..n) (completion times cpl[]) in b; *spilled set
 * when the interval can no longer be resolved from what b keeps (then only
 * the bucket counts, ios and max go on).
 * Return: 0 or -ENOMEM.
 */
int tan_ibuf_push(struct ibuf *b, const uint64_t *lat, const uint64_t *cpl, size_t n,
		  bool *spilled);

/* Return: the bucket of counts h (nonzero in [lo, hi]) holding the k-th
 * smallest (0-based), the values in the buckets below it in *below. */
unsigned tan_rank_bucket(const uint64_t *h, unsigned lo, unsigned hi, uint64_t k,
			 uint64_t *below);

/*
 * The k-th smallest (0-based) of the latencies in bucket bk of bufs[0..nb)
 * together (none spilled), into *out; *scratch (grown, *scratchcap) holds
 * listed values of the bucket.
 * Return: 0, -ENOMEM, or -EINVAL when the buffers hold fewer than k + 1.
 */
int tan_ibuf_kth(struct ibuf *const *bufs, unsigned nb, unsigned bk, uint64_t k,
		 uint64_t **scratch, size_t *scratchcap, uint64_t *out);

/*
 * keep(arg, lat, cpl) for each of b's candidates at or above *cut = the
 * larger of from and b's cut: every IO of the interval at or above *cut.
 * Return: 0 or keep's first error.
 */
int tan_ibuf_cands(const struct ibuf *b, uint64_t from, uint64_t *cut,
		   int (*keep)(void *arg, uint64_t lat, uint64_t cpl), void *arg);

/*
 * The interval's IOs of b (not spilled) per fixed histogram bucket: le[i]
 * those whose latency's first edge of e[0..n) (ascending, each at least
 * twice the one before) at or above it is e[i], le[n] those above them all;
 * from the bucket counts, and for the few buckets an edge splits, the
 * per-ns counts or the listed values.  Return: nothing; le[0..n] set.
 */
void tan_ibuf_le(const struct ibuf *b, const uint64_t *e, unsigned n, uint64_t *le);

/*
 * Whether pushing lat[0..n) leaves b able to give each of its IOs back
 * (tan_ibuf_exact): per-ns counts kept, none can wrap, and the list does
 * not fill past vcap (its limit raised first when that makes room, as the
 * push itself would).  Return: true or false.
 */
bool tan_ibuf_will_hold(struct ibuf *b, const uint64_t *lat, size_t n);

/* Latencies lat[0..n) of IOs pushed into b (before or after this) noted as
 * not of the queue-depth class b holds for the exact states: tan_ibuf_exact
 * leaves them out.  At most IV_MINOR_MAX are noted in an interval.
 * Return: 0, -ENOSPC (that many noted: none of these) or -ENOMEM. */
int tan_ibuf_minor(struct ibuf *b, const uint64_t *lat, size_t n);
#define IV_MINOR_MAX 4096

/* Every latency of b (per-ns counts kept, not spilled) but the ones noted
 * by tan_ibuf_minor added to exact state e: the interval's IOs of the class
 * held counted into its state once, not IO by IO; the notes dropped (b's
 * counts and list as they were).  Return: 0 or -ENOMEM (e unchanged). */
int tan_ibuf_exact(struct ibuf *b, struct nv_exact *e);

/* Return: nothing; b empty for the next interval (only what was used cleared). */
void tan_ibuf_clear(struct ibuf *b);

/* An interval past the cap (state's vcap values held in all): its counts
 * only, and each wanted rank's bucket and rank within it, resolved by
 * tan_series_pass. */
struct pend_rank { unsigned bk; uint64_t k; };
struct pend {
	size_t iv;		/* the interval */
	int only;		/* the one op with IOs, or -1 (mixed: NV_TAN_ALL's ranks) */
	struct pend_rank r[NV_TAN_NOPS][3];	/* p50, p99, p99.9 */
};

#define SERIES_VCAP (1u << 18)	/* latencies listed per interval and op: 2 MiB */
/* Slow-IO candidates kept at most (32 MiB): a longer run's are thinned,
 * each operation's floor raised past the lower half of its; from a 32nd of
 * it, to a quarter of the spike threshold estimated so far (trace_cands.c). */
#define CAND_KEEP (1u << 21)

/* A slow-IO candidate (16 bytes): its completion, its latency (below 2^32
 * ns: a longer one is not kept, st->cand_overflow) and, in op_iv, the
 * interval pass 1 counted it in (CAND_IV_MAX at most) and its operation. */
struct cand {
	uint64_t complete;
	uint32_t lat;
	uint32_t op_iv;		/* iv << 3 | op */
};
#define CAND_IV_MAX ((1u << 29) - 1)
static inline unsigned cand_op(const struct cand *c) { return c->op_iv & 7; }
static inline size_t cand_iv(const struct cand *c) { return c->op_iv >> 3; }

struct state {
	struct nv_tan *t;
	const struct nv_tan_opts *o;
	const char *const *paths;
	size_t npaths;
	struct nv_opstats ops;	/* exact latency per operation and of all (opstats.h) */
	struct nv_exact *qx[NVT_OP__MAX][NV_TAN_NQD];
	struct ibuf ib[NVT_OP__MAX];
	/* per op, where the open interval's IOs go in the exact states: 0 none
	 * yet; q + 1: those of queue-depth class q held in ib until the interval
	 * closes (tan_ibuf_exact), the others fed now and noted in ib
	 * (tan_ibuf_minor); TAN_DIRECT: all fed IO by IO (ib could not give
	 * them back, or too many of other classes) */
	int defer[NVT_OP__MAX];
	int major[NVT_OP__MAX];	/* q + 1 of the class with most IOs in the last
				 * interval with IOs of op, the one held next */
	uint64_t ncls[NVT_OP__MAX][NV_TAN_NQD];	/* the open interval's IOs per class */
	size_t cap;		/* allocated intervals per series */
	size_t cur;		/* the open interval */
	size_t vcap;		/* latencies listed per interval and op at most */
	bool dense;		/* ibufs count per ns (off: NVANALYZE_SERIES_CAP, tests) */
	bool spilled;		/* the open interval cannot be resolved: counts only */
	uint64_t *cutx[NVT_OP__MAX];	/* per interval: its candidates are the IOs at or
					 * above this (>= its p99.9), [cap] */
	struct pend *pend;	/* the spilled intervals, in order */
	size_t npend, pendcap, pi;	/* pi: the next one tan_series_pass resolves */
	uint64_t *col[NV_TAN_NOPS][3];	/* tan_series_pass: values of a wanted bucket */
	size_t ncol[NV_TAN_NOPS][3], colcap[NV_TAN_NOPS][3];
	uint64_t next_ns;	/* its end, from t0 */
	bool any;
	bool spiky[NV_TAN_NOPS];	/* some interval's max reached the threshold */
	/* the slow IOs (latency at or above the spike threshold) */
	struct slow { uint64_t submit, complete; unsigned op; } *slow;
	size_t nslow, slowcap;
	/* Pass 1 keeps the IOs at or above their interval's cut (cutx, its
	 * p99.9 or a little above): the slow IOs are among them wherever the
	 * cut is below the spike threshold, so only intervals where it is not
	 * are read again. */
	struct cand *cand;
	size_t ncand, candcap;
	/* per operation, the candidates of every interval are only the IOs at
	 * or above this too (the list thinned: its cut is the larger) */
	uint64_t cand_floor[NVT_OP__MAX];
	size_t cand_keep;	/* CAND_KEEP (tests: NVANALYZE_CAND_KEEP), 0 until read */
	size_t cand_soft;	/* the size thinned at by the estimate (trace_cands.c) */
	bool cand_overflow;
	bool back;		/* some trace's completion times go back (pass 1): the
				 * spike pass reads the traces whole, not from an index */
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
	/* A job's thread traces analysed apart (trace_merge.c): per path
	 * TAN_KEPT, TAN_CUT (damaged: later passes end it where pass 1 did) or
	 * TAN_LEFT_OUT (not readable: later passes skip it); NULL: all kept. */
	unsigned char *drop;
	unsigned workers;	/* threads for the job's traces (nv_tan_opts') */
	uint64_t qx_dense;	/* the QD classes' exact states' single-pass limits */
	size_t qx_ovf;		/* (nv_exact_set_single); 0: exact.h's defaults */
	/* A job's traces followed as they grow (trace_stream.c): */
	int (*on_close)(struct state *st);	/* NULL, or called as interval cur closes,
						 * its points in t->series, before the
						 * buffers are cleared */
	void *hook_arg;		/* on_close's */
};

enum { TAN_KEPT, TAN_CUT, TAN_LEFT_OUT };
#define TAN_DIRECT (-1)

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
 * (trace_check.h); s->done at the end.  Return: 0, -EAGAIN (a reader in
 * follow mode: no complete block yet, s->n 0, st->err untouched) or -errno
 * (st->err set). */
int tan_src_next(struct state *st, struct src *s);

/* The end of the run of records from a on in s's block (up to b) that fio
 * counted, the ramp's IOs before it (*a moved past them) counted in
 * ramp_records in pass 1.  Return: the
 * run's end, a when the block ends (at b) in the ramp. */
size_t tan_counted_run(struct state *st, const struct src *s, size_t *a, size_t b);

/* Records [a, b) of s's block into the exact states per queue-depth class
 * and, after pass 1, per operation, in order.  Return: 0, -ENOMEM or -EINVAL (opstats.h). */
int tan_feed_exact(struct state *st, const struct src *s, size_t a, size_t b);

/* After pass 1: each operation's exact state the sum of its queue-depth
 * classes' (pass 1 feeds only those), and the all-operations state of a
 * mixed job.  Return: 0 or -errno (st->err set). */
int tan_fold_exact(struct state *st);

/* st->err set for err, a failed merge of exact states (-ENOMEM: out of
 * memory; else an internal error), naming the job's first trace.
 * Return: err. */
int tan_merge_failed(struct state *st, int err);

/* *l from exact state e once resolved (nlv: the extra levels e resolves
 * after nv_pcts', opstats.h).  Return: nothing. */
struct nv_latsum;
void tan_latsum(const struct nv_exact *e, size_t nlv, struct nv_latsum *l);

/* Pass 1 over the merged traces s[0..npaths).  Return: 0 or -errno (st->err set). */
int tan_pass1(struct state *st, struct src *s);

/*
 * Pass 1 of a job of several thread traces (trace_merge.c): each trace
 * analysed apart on st->workers threads, interval by interval, the
 * intervals, totals and exact states merged in trace order, so that the
 * result does not depend on the number of workers.  A trace that cannot be
 * read is left out (from where it is damaged: st->drop), with a note.
 * Return: 0 or -errno (st->err set).
 */
int tan_pass1_split(struct state *st);

/*
 * The exact states per QD class of from (a thread trace of a job) that hold
 * at least least values or list at least listed, added to to's (the job's:
 * from's counts per ns below its own limit, its list counted in to's
 * arrays) and freed, so that a trace holds at most about a round's values
 * (trace_merge.c).  Which are folded when depends on the trace's records
 * and on what its worker's buffers held when they gave their IOs back
 * during its walk (a spill, too many other classes: tan_defer_flush), so
 * on the workers too; the merged states do not show it (exact in any
 * split).  Return: 0 or -errno.
 */
int tan_qd_fold(struct state *to, struct state *from, uint64_t least, size_t listed);
/* trace_slots.c: a job of thread traces' interval buffers, a set per worker */
/* Interval buffers and what they hold for the exact states (ib, defer,
 * major, ncls, spilled) exchanged between a and b: a worker's set b lent to
 * the state a of the thread trace it walks, given back after the walk by
 * the same call.  Return: nothing. */
void tan_slot_lend(struct state *a, struct state *b);
/* The open interval st->cur (its series started) closed from the sets
 * slot[0..n) (bufs: room for n * NVT_OP__MAX), as a single trace's from
 * its own; the IOs they held added to st's exact states; the sets cleared
 * for the next.  Return: 0, -ENOMEM or -EINVAL. */
int tan_slots_close(struct state *st, struct state *slot, unsigned n, struct ibuf **bufs);
/* Return: whether a set of slot[0..n) holds IOs. */
bool tan_slots_hold(const struct state *slot, unsigned n);
/* Return: nothing; slot[0..n)'s buffers and slot freed (NULL: nothing). */
void tan_slots_free(struct state *slot, unsigned n);

/* Pass 1 pieces shared with trace_merge.c (trace_series.c). */
/* The series (and cuts) grown to hold need intervals.  Return: 0 or -ENOMEM. */
int tan_series_grow(struct state *st, size_t need);
/* Op's series, cuts and interval buffer, unless made.  Return: 0 or -ENOMEM. */
int tan_series_start(struct state *st, unsigned op);
/* Records [a, b) of block c, all in st's open interval, into its buffers,
 * totals and exact states (the series started).  Return: 0 or -ENOMEM. */
int tan_interval_run(struct state *st, const struct nvt_cols *c, size_t a, size_t b);
/* Exact p50/p99/p99.9/max of the IOs in bufs[0..nb) (nb >= 1) into p, or a
 * spilled interval's ranks into pr.  Return: 0, -ENOMEM or -EINVAL. */
int tan_reduce_bufs(struct state *st, struct ibuf *const *bufs, unsigned nb,
		    struct nv_tan_point *p, struct pend_rank *pr);
/* trace_cands.c: pass 1's slow-IO candidates */
/* b's candidates at or above cut (at least b's own cut) kept as op's slow-IO
 * candidates of st (the list thinned when full); *used (or NULL): the bound
 * they were taken from, the larger of cut and b's.  Return: 0 or -ENOMEM. */
int tan_keep_cands(struct state *st, unsigned op, const struct ibuf *b, uint64_t cut,
		   uint64_t *used);
/* A new entry of st->pend for interval st->cur (zeroed).  Return: it, or NULL. */
struct pend *tan_new_pend(struct state *st);
/* Return: the latencies listed per interval and op (SERIES_VCAP, or the
 * tests' NVANALYZE_SERIES_CAP/LIST), *dense whether per-ns counts are kept. */
size_t tan_series_vcap(bool *dense);
/* Return: nothing; t's all-operations totals and records from its operations'. */
void tan_pass1_totals(struct nv_tan *t);
/* The IOs of op that from's open interval holds for the exact states (its
 * defer[op]) added to to's state of their class (to: from, or the job of a
 * thread trace from, at the interval's close).  Return: 0 or -ENOMEM. */
int tan_defer_flush(struct state *from, unsigned op, struct state *to);
/* At the close of from's open interval (its points taken): every IO it
 * holds for the exact states added to to's (tan_defer_flush), the class to
 * hold next noted.  Return: 0 or -ENOMEM. */
int tan_defer_close(struct state *from, struct state *to);
/*
 * The exact states' share of records [a, b) of block c, all of op and of
 * queue-depth class q, in st's open interval (trace_qdclass.c), before they
 * are pushed into its buffer.  While op's buffer can give its IOs back,
 * those of the class it holds (the last interval's most frequent, else the
 * one most of c's next IOs have) wait in it for the interval's close and the others are
 * fed now and noted, to be left out then; once it cannot (it may spill, or
 * IV_MINOR_MAX IOs of other classes were noted), what it held is fed and
 * the rest of the interval IO by IO.  Return: 0 or -ENOMEM.
 */
int tan_exact_run(struct state *st, const struct nvt_cols *c, unsigned op, unsigned q,
		  size_t a, size_t b);
/* Op op's exact state of queue-depth class q, made on first use (trace_src.c).
 * Return: it, or NULL (no memory). */
struct nv_exact *tan_qd_state(struct state *st, unsigned op, unsigned q);
/* The columns pass 1 reads. */
#define TAN_PASS1_COLS (NVT_COL_LATENCY | NVT_COL_OP | NVT_COL_LENGTH | NVT_COL_STATUS | \
			NVT_COL_QD)

/* Records [a, b) of a trace's block, handed to it by the merge. */
typedef int run_fn(struct state *st, struct src *s, size_t a, size_t b);

/*
 * The merge as far as the blocks at hand go: the runs of s[0..npaths) in
 * completion order (ties: the lower index) handed to run while every trace
 * not done has a record.  The same runs in the same order whether the blocks
 * come all at once or one at a time.
 * Return: 0 when every trace is done, 1 with *need the trace whose next block
 * the merge waits for, or run's error (st->err set).
 */
int tan_merge_ready(struct state *st, struct src *s, run_fn *run, size_t *need);

/* Pass 1's start: the interval buffers' size.  Return: nothing. */
void tan_pass1_begin(struct state *st);

/* Pass 1's run_fn: records [a, b) of s's block in completion order, the
 * ramp's counted, the others into the series, the totals and the exact
 * states.  Return: 0, -ENOMEM or -EINVAL. */
int tan_pass1_run(struct state *st, struct src *s, size_t a, size_t b);

/* Pass 1's end, every trace done: the last interval closed (nint), the
 * totals of all operations.  Return: 0 or -errno (st->err set). */
int tan_pass1_end(struct state *st);

/* After pass 1, when some interval spilled (st->npend): the traces merged
 * again as pass 1 did, the spilled intervals' p50/p99/p99.9 selected among
 * their wanted buckets' values.  Return: 0 or -errno (st->err set). */
int tan_series_pass(struct state *st);

/* After pass 1: thresholds, spiky operations, slow IOs among the candidates.
 * Return: 0 or -ENOMEM. */
int tan_plan_spikes(struct state *st);

/* Op's spike threshold over its intervals [0, n) with IOs (findings.h:
 * the spike factor times their median p99.9), those whose p99.9 is not
 * known yet (0: a spilled interval before tan_series_pass) left out when
 * known_only, into *thr; *used (or NULL): the intervals it took.
 * Return: 0 or -ENOMEM. */
int tan_op_threshold(const struct state *st, unsigned op, size_t n, bool known_only,
		     uint64_t *thr, size_t *used);

/* Return: true when some interval's slow IOs must be read again (tan_spike_pass). */
bool tan_any_spiky(const struct state *st);

/*
 * The interval pass 1 counted a record completing at complete in: its own,
 * or the later one its trace's counted records before it had reached (*run,
 * 0 at the trace's start; a completion out of order joins the interval
 * open, trace_series.c), *run moved to it.
 * Return: that interval.
 */
size_t tan_pass1_iv(const struct state *st, uint64_t complete, size_t *run);

/* A record of a later pass, counted in interval iv by pass 1 (tan_pass1_iv):
 * kept when it is a slow IO to read again.  Return: 0 or -ENOMEM (st->err set). */
int tan_spike_record(struct state *st, unsigned op, uint64_t submit, uint64_t complete,
		     size_t iv);

/* The slow IOs of the spiky intervals, read again.  Return: 0 or -errno (st->err set). */
int tan_spike_pass(struct state *st);

/* The slow IOs chained into t->spikes.  Return: 0 or -ENOMEM. */
int tan_build_spikes(struct state *st);

#endif
