/*
 * trace_stats.h - everything nvanalyze computes from the per-IO traces of one
 * fio job (one or more thread traces, merged): exact latency statistics per
 * operation and per queue depth, a time series per interval, and the data
 * behind the CDF plots.
 *
 * Streaming, bounded memory: pass 1 reads the traces merged in completion
 * order (one block per trace in memory, only the columns a pass needs
 * decoded) and builds the time series (each interval's IOs counted per
 * exact.h bucket and per ns, not held: trace_interval.c), the pass-1 state
 * of analyze/stats/exact.c per queue-depth class (each operation's is
 * their merge) and the spike candidates; usually that is the only read.
 * Later passes read the files again only for what pass 1 could not
 * resolve (an exact percentile whose single-pass data overflowed, an
 * interval whose list of latencies filled, the slow IOs of an interval
 * whose candidates' cut reached the spike threshold).  Memory: one block
 * per trace + per operation one interval's counts (the pages used of a
 * 2^21-count array, a list of at most 2^18 latencies) + the series (nint
 * points per operation) + exact.c's state per queue-depth class,
 * independent of the number of IOs.
 *
 * Time: t = 0 is the submission of the first IO to complete; an IO belongs
 * to the interval of its completion.
 *
 * ramp_time: a trace whose header has job.ramp_time_us > 0 and whose footer
 * has job.ramp_end_ns (docs/trace-format.md) marks the IOs fio left out:
 * those submitted before that time.  They are left out of everything here
 * too (counted in ramp_records), so that counts equal fio's total_ios.
 */
#ifndef NV_ANALYZE_TRACE_STATS_H
#define NV_ANALYZE_TRACE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/common.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/stats/trace_dims.h"
#include "analyze/stats/trace_wait.h"
#include "trace/nvtrace.h"



struct nv_latsum {		/* ns, exact */
	uint64_t n, min, max;
	double mean, stdev;
	uint64_t pct[NV_PCT_NR];	/* nearest rank, by enum nv_pct (common.h) */
	size_t nlv;			/* per operation: nv_tan_opts' levels, ... */
	uint64_t lv[NV_PCTL_MAX];	/* ... their nearest-rank values */
};

struct nv_tan_op {
	uint64_t records, bytes, errors;
	struct nv_latsum lat;
	uint64_t *hist;		/* exact.h's log-linear counts (CDF plots) of buckets ... */
	unsigned hist_lo, hist_n;	/* ... hist_lo .. hist_lo + hist_n - 1 (the others
					 * empty), or NULL */
};

/* One interval of one operation (all latencies exact, ns). */
struct nv_tan_point {
	uint64_t ios, bytes, errors;
	uint64_t p50, p99, p999, max;
};

struct nv_tan_qd {
	unsigned op;		/* enum nvt_op or NV_TAN_ALL */
	unsigned qd_lo, qd_hi;
	struct nv_latsum lat;
};

/*
 * Slow IOs (at or above the operation's threshold) chained: sorted by
 * submission, an IO submitted at most one threshold after the chain's latest
 * completion joins it (overlapping windows, or a gap shorter than the
 * threshold: consecutive slow IOs at queue depth 1).  A chain of at least
 * NV_SPIKE_EPISODE_MIN_IOS slow IOs is an episode (nv_tan_spike_is_episode);
 * a lone slow IO is reported as an isolated slow IO.
 */
struct nv_tan_spike {
	unsigned op;
	size_t first, last;	/* intervals of start_ns and end_ns */
	uint64_t start_ns;	/* earliest submission of an IO >= threshold, from t0 */
	uint64_t end_ns;	/* latest completion of such an IO, from t0 */
	uint64_t worst_ns;	/* the largest latency */
	uint64_t slow_ios;	/* IOs >= threshold */
};

#define NV_TAN_MAXEDGES 16

/*
 * Where nv_tan_run is, for a progress line: the library reports it through
 * nv_tan_opts' callback after every block it reads and never prints; the
 * caller decides whether and how often to show it.
 */
struct nv_tan_progress {
	const char *path;	/* the trace whose block was just read */
	size_t file, nfiles;	/* its position (0-based) among the job's traces */
	unsigned pass;		/* 1, 2, ...: passes over the traces */
	uint64_t records;	/* records read in this pass, every trace */
	uint64_t total;		/* records this pass reads (pass 1: the footers; 2: pass
				 * 1's count), 0 when not known (no footer, seeking) */
	uint64_t bytes, total_bytes;	/* bytes read in this pass; the traces' sizes */
	bool done;		/* the last call: the passes are over (or failed) */
	size_t njobs;		/* from nv_trace_join (trace_join.h): the jobs analyzed, */
	size_t jobs_done;	/* those finished and those under way on its workers; */
	unsigned jobs_busy;	/* 0 from nv_tan_run alone */
};

typedef void (*nv_tan_progress_fn)(const struct nv_tan_progress *p, void *arg);

struct nv_tan_opts {
	uint64_t interval_ns;	/* 0: 1 s */
	double spike_factor;	/* 0: 10 (see findings.h) */
	nv_tan_progress_fn progress;	/* NULL, or called as struct nv_tan_progress says */
	void *progress_arg;	/* its second argument */
	size_t nedges;		/* --buckets: latency edges (ns, ascending), at most ... */
	uint64_t edges[NV_TAN_MAXEDGES];	/* ... NV_TAN_MAXEDGES */
	size_t nlevels;		/* --percentiles: levels resolved exactly per operation */
	double levels[NV_PCTL_MAX];	/* besides nv_pcts' (struct nv_latsum lv) */
	unsigned workers;	/* threads for one job's thread traces (0, 1: the caller's
				 * only); the result is the same for any number */
};

#define NV_SPIKE_EPISODE_MIN_IOS 2

struct nv_tan {
	uint64_t records;	/* IOs analyzed: every IO but the ramp's */
	uint64_t ramp_records;	/* IOs submitted before fio's ramp_time ended: left out */
	uint64_t ramp_ns;	/* the job's ramp_time (trace header), 0: none */
	uint64_t ab_window;	/* the engine's nv_trace_ab=N (header): every other window of
				 * N IOs recorded (a benchmark); 0: every IO */
	double spike_factor;	/* the threshold factor used (--spike-factor) */
	uint64_t t0;		/* CLOCK_MONOTONIC ns of time 0 */
	uint64_t span_ns;	/* last completion - t0 */
	uint64_t interval_ns;
	size_t nint;		/* intervals; the last may be partial */
	unsigned passes;
	struct nv_tan_op op[NV_TAN_NOPS];
	struct nv_tan_point *series[NV_TAN_NOPS];	/* [nint], NULL for unused ops */
	size_t nqd;
	struct nv_tan_qd *qd;	/* by op then qd */
	uint64_t spike_threshold_ns[NV_TAN_NOPS];	/* 0: none computed */
	size_t nspikes;
	struct nv_tan_spike *spikes;
	size_t nnotes;
	char **notes;		/* warnings (truncated traces ...) */
	size_t nedges;		/* --buckets: IOs by latency, exact: bucket i of op k is */
	uint64_t edges[NV_TAN_MAXEDGES];	/* [edges[i-1], edges[i]) (0 and infinity */
	uint64_t bucket[NV_TAN_NOPS][NV_TAN_MAXEDGES + 1];	/* at the ends) */
	size_t nlevels;		/* nv_tan_opts' levels: the ops' lat.lv[i] is ... */
	double levels[NV_PCTL_MAX];	/* ... the value of levels[i] */
	struct nv_trace_disturb disturb;	/* tracing's own wait on the IO loops (footers) */
	unsigned damaged;	/* of a job's thread traces, those left out or used only up
				 * to where they are damaged (a note names each) */
};

/*
 * Analyze the traces paths[0..n) of one job.  Returns 0 and fills *t (free
 * with nv_tan_free), or -errno with a message naming the file in err.
 */
int nv_tan_run(const char *const *paths, size_t n, const struct nv_tan_opts *o, struct nv_tan *t,
	       char *err, size_t errlen);
void nv_tan_free(struct nv_tan *t);

/* True when s is an episode (NV_SPIKE_EPISODE_MIN_IOS slow IOs or more). */
bool nv_tan_spike_is_episode(const struct nv_tan_spike *s);

/* The number of operations with records (excluding the all entry). */
unsigned nv_tan_nops(const struct nv_tan *t);

/* Queue-depth class of qd (0 for qd <= 1) and its range. */
unsigned nv_tan_qd_class(unsigned qd);
void nv_tan_qd_range(unsigned cls, unsigned *lo, unsigned *hi);

#endif
