/*
 * trace_stream.h - one job's traces analyzed while fio still writes them
 * (nvanalyze watch): nv_tan_run's pass 1 itself (trace_series.c: the same
 * merge by completion time, the same intervals, the same exact p50/p99/
 * p99.9/max from the same interval buffers) fed a complete block at a time,
 * each interval handed out once it is closed, never revised.
 *
 * The watermark: the merge takes a record only while every trace of the job
 * not yet ended holds one, so an interval closes only once every trace has
 * passed its end, exactly when pass 1 would close it reading the finished
 * files: interval k of a stream holds the same IOs as the post-run interval
 * k.  Memory: one block per trace, one interval's buffers per operation,
 * pass 1's exact states (exact.h: bounded) and the series (56 B per interval
 * and operation), flat in the run's length.  CPU: pass 1's, which is most
 * of the post-run analysis's.
 *
 * What pass 1 cannot know before a trace ends: a job with fio's ramp_time
 * (its end is in the footer) counts the ramp's IOs until then, with a note.
 */
#ifndef NV_ANALYZE_TRACE_STREAM_H
#define NV_ANALYZE_TRACE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/trace_find.h"
#include "analyze/stats/trace_stats.h"

struct nv_tan_stream;

/* One closed interval of one operation, handed to nv_tan_stream_opts' fn. */
struct nv_tan_closed {
	struct nv_tan_iv iv;	/* as the post-run series shows it */
	uint64_t lat_sum_ns;	/* the sum of its latencies */
	const uint64_t *le;	/* IOs per histogram bucket: [nle + 1] (the last: above); NULL
				 * without le_ns */
	bool last;		/* the job's last interval (every trace ended) */
	const uint64_t *hist;	/* exact.h's bucket counts (NV_EXACT_NBUCKETS), nonzero */
	unsigned hist_lo, hist_hi;	/* only in [hist_lo, hist_hi]; NULL without IOs */
};

struct nv_tan_stream_opts {
	uint64_t interval_ns;	/* 0: 1 s */
	const uint64_t *le_ns;	/* histogram edges (ns, ascending), or NULL */
	unsigned nle;		/* their number, at most 32 */
	/* Called per closed interval and operation, ops in enum order, then the
	 * all-operations entry (once the job has shown several).  Return: 0, or
	 * an error that stops the stream. */
	int (*fn)(void *arg, const struct nv_tan *t, const struct nv_tan_closed *c);
	void *arg;
};

/* Return: 0 with *ts empty (no traces yet), -EINVAL (nle), or -ENOMEM. */
int nv_tan_stream_new(struct nv_tan_stream **ts, const struct nv_tan_stream_opts *o);

/*
 * Add trace path to the job (its reader opened in follow mode).  A trace
 * added after the merge began must not hold IOs before its position (the
 * caller checks nv_tan_stream_pos against the trace's first block).
 * Return: 0, or -errno with the reason naming the file in err.
 */
int nv_tan_stream_add(struct nv_tan_stream *ts, const char *path, char *err, size_t errlen);

/*
 * Read every block that has landed, merge, close the intervals passed.
 * Return: 0 when every trace has ended (the last interval handed out), 1
 * with *need the trace whose next block the merge waits for, or -errno
 * with err set (damage, out of memory, fn's error).
 */
int nv_tan_stream_step(struct nv_tan_stream *ts, size_t *need, char *err, size_t errlen);

/*
 * After the stream ended (step returned 0): the exact latency of every
 * operation (and of all, in a mixed job) in nv_tan_stream_tan(ts)->op[k].lat,
 * as nv_tan_run computes it, when pass 1's states resolved it (usually:
 * exact.h's single pass).  Return: 1 with the values there, 0 when they need
 * another read of the files (nv_tan_run of them says them), or -ENOMEM.
 */
int nv_tan_stream_exact(struct nv_tan_stream *ts);

/* Trace i ends where it is (its writer died or its file went wrong): what
 * it has is read as a truncated trace.  Return: nothing. */
void nv_tan_stream_cut(struct nv_tan_stream *ts, size_t i);

/* Return: the job's state so far: t0, span, totals per operation, the
 * notes (valid until the next call on ts). */
const struct nv_tan *nv_tan_stream_tan(const struct nv_tan_stream *ts);

/* Return: the traces added, and whether the merge has taken a record. */
size_t nv_tan_stream_ntraces(const struct nv_tan_stream *ts);
bool nv_tan_stream_begun(const struct nv_tan_stream *ts);

/* Return: the completion time (CLOCK_MONOTONIC ns) the merge has reached, 0
 * before its first record. */
uint64_t nv_tan_stream_pos(const struct nv_tan_stream *ts);

/* Return: the reader of trace i (its header, its file), or NULL before it opened. */
struct nvt_reader *nv_tan_stream_reader(const struct nv_tan_stream *ts, size_t i);

/* Return: whether trace i has ended (footer or cut). */
bool nv_tan_stream_ended(const struct nv_tan_stream *ts, size_t i);

/* Return: the upper end of the exact.h bucket holding the k-th smallest
 * (0-based) of counts h (nonzero in [lo, hi]): a rank's value to 1/256 of
 * a power of two, from interval counts summed (a run so far). */
uint64_t nv_tan_hist_rank(const uint64_t *h, unsigned lo, unsigned hi, uint64_t k);

/* Return: nothing; ts freed (NULL allowed). */
void nv_tan_stream_free(struct nv_tan_stream *ts);

#endif
