/*
 * live.h - what `nvanalyze watch` hands to its outputs while a run goes on:
 * the contract between the watcher (analyze/live/watch*.c: traces followed,
 * intervals closed behind a watermark) and each output that shows them (the
 * terminal screen, JSON lines, text lines, the HTTP endpoint with
 * Prometheus metrics and the live page).
 *
 * The watcher owns the traces and the interval statistics (the same code as
 * the post-run series, analyze/stats/); an output gets narrow, read-only
 * records through a struct nv_live_sink and never calls back.  Every call
 * comes from the watcher's one thread, in order: job before its intervals,
 * an interval only once it is closed (never revised), end last.  An output
 * that serves other threads (HTTP) copies what it needs under its own lock.
 *
 * Times: *_s fields are seconds from the job's first submission, as the
 * post-run series (traces[i].series of `nvanalyze -f json`); *_unix_ms the
 * wall-clock time of that instant (the trace header's clock.realtime_ns -
 * clock.monotonic_ns), 0 when the trace gives none.
 */
#ifndef NV_ANALYZE_LIVE_H
#define NV_ANALYZE_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/trace_find.h"

/*
 * The classic histogram's fixed upper edges (ns): log-spaced, 1 us to 10 s,
 * 1-2-5 per decade; a latency lands in the first bucket whose edge is >= it
 * (Prometheus' `le`), above the last in +Inf only.
 */
#define NV_LIVE_NLE 22
extern const uint64_t nv_live_le_ns[NV_LIVE_NLE];

/* A job whose traces appeared (one per fio job; its threads combined). */
struct nv_live_job {
	const char *job;	/* fio's job name, from the trace header */
	const char *host;	/* the host label (jobs/run --host) or this host's name */
	size_t nthreads;	/* traces of the job seen so far */
	uint64_t interval_ns;	/* --interval */
	int64_t start_unix_ms;	/* the job's time 0 on the wall clock, 0: unknown */
};

/* One closed interval of one job and operation: final, never revised. */
struct nv_live_interval {
	const char *job, *host;
	/* The interval as the post-run series shows it (trace_find.h): its
	 * operation (enum nvt_op, NV_TAN_ALL; nv_live_op_name names it), index
	 * k ([k * interval, (k + 1) * interval) from time 0), start and end,
	 * IOs, bytes, errors, IOPS and MB/s (10^6 bytes, over its length) and
	 * exact p50/p99/p99.9/max (nearest rank; 0: no IO). */
	struct nv_tan_iv iv;
	int64_t end_unix_ms;	/* the interval's end on the wall clock, 0: unknown */
	uint64_t lat_sum_ns;	/* the sum of the interval's latencies */
	uint64_t le[NV_LIVE_NLE];	/* its IOs per histogram bucket (not cumulative; */
	uint64_t le_inf;		/* above the last edge) */
	/* Added for the terminal's run-so-far percentiles: the interval's counts
	 * per exact.h bucket (NV_EXACT_NBUCKETS, 256 per power of two), nonzero
	 * only in [hist_lo, hist_hi]; valid during the call only, NULL without IOs. */
	const uint64_t *hist;
	unsigned hist_lo, hist_hi;
};

/* A finding as it happens (a throughput step, a spike, tracing's waits, a stall). */
struct nv_live_finding {
	const char *job, *host;	/* NULL job: about the watch itself */
	double at_s;		/* when, from the job's time 0 */
	const char *kind;	/* "step", "spike", "wait", "stall", "fault", ... */
	const char *text;	/* one line, plain text (each output escapes it) */
};

/* Tracing's own health, after each block read. */
struct nv_live_health {
	const char *job, *host;
	double io_wait_s;	/* the IO loop's waits on the trace writer so far */
	double behind_s;	/* how far the newest complete block is behind now */
	size_t jobs_seen, jobs_ended;
};

/* A job's totals once its footers are in (or the watch ends without them). */
struct nv_live_end {
	const char *job, *host;
	const char *op;
	bool complete;		/* every trace of the job has its footer */
	double span_s;
	uint64_t ios, bytes, errors;
	double iops, mb_per_s;
	uint64_t p50_ns, p99_ns, p999_ns, max_ns;	/* of the whole run so far, exact */
};

/*
 * An output.  Any hook may be NULL.  Return: 0, or -errno to stop the watch
 * (the output failed: a closed pipe, a socket error), with the reason
 * already printed by the output.
 */
struct nv_live_sink {
	int (*job)(void *arg, const struct nv_live_job *j);
	int (*interval)(void *arg, const struct nv_live_interval *iv);
	int (*finding)(void *arg, const struct nv_live_finding *f);
	int (*health)(void *arg, const struct nv_live_health *h);
	int (*end)(void *arg, const struct nv_live_end *e);
	void *arg;
	/* Added for the watcher: NULL, or called once when the watch is over
	 * (after every end, or on an error), to flush and free arg. */
	void (*close)(void *arg);
	/* The interval records' le and le_inf counts are filled only when some
	 * output sets this (they cost a pass over each interval's buckets);
	 * otherwise they are 0. */
	bool want_le;
};

/* Return: "read" ... for enum nvt_op, "all" for NV_TAN_ALL. */
const char *nv_live_op_name(unsigned op);

#endif
