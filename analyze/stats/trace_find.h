/*
 * trace_find.h - the rules over time (findings.h) applied to one job's
 * series of trace statistics (trace_stats.h): which intervals are full,
 * each interval's MB/s and IO/s, the throughput step and the warm-up.
 */
#ifndef NV_ANALYZE_TRACE_FIND_H
#define NV_ANALYZE_TRACE_FIND_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/stats/findings.h"
#include "analyze/stats/trace_stats.h"

/* The rules applied to one job's series (MB/s of all operations). */
struct nv_tan_find {
	size_t nfull; /* full intervals the rules used (the last, partial one is left out) */
	double median_mbps;
	struct nv_step step;
	struct nv_warmup warm;	/* over the intervals before the step, if any */
};

/*
 * Whether interval i is full (every one but a last, partial one).
 * Return: true for a full interval.
 */
bool nv_tan_full(const struct nv_tan *t, size_t i);

/*
 * MB/s (10^6 bytes) of operation op in interval i, over its real length for
 * the last one.
 * Return: the rate, 0 when op has no series.
 */
double nv_tan_mbps(const struct nv_tan *t, unsigned op, size_t i);

/* The same in IO/s.  Return: the rate, 0 when op has no series. */
double nv_tan_iops(const struct nv_tan *t, unsigned op, size_t i);

/*
 * Interval index of operation op (enum nvt_op or NV_TAN_ALL) as every
 * output shows it: the post-run series (traces[i].series of -f json) and
 * nvanalyze watch's interval lines, so that both say the same.
 */
struct nv_tan_iv {
	unsigned op;
	size_t index;
	double start_s, end_s;	/* from time 0; the last interval ends at the span */
	uint64_t ios, bytes, errors;
	double iops, mb_per_s;	/* over the interval's length (nv_tan_iops, nv_tan_mbps) */
	uint64_t p50_ns, p99_ns, p999_ns, max_ns;	/* exact; 0 without IOs */
};

/* Return: nothing; *iv is interval i of op's series (t->series[op] not NULL). */
void nv_tan_iv_of(const struct nv_tan *t, unsigned op, size_t i, struct nv_tan_iv *iv);

/*
 * Apply the rules to the full intervals of t's all-operations series.
 * Return: nothing; *f is filled (all zero but nfull when out of memory).
 */
void nv_tan_find(const struct nv_tan *t, struct nv_tan_find *f);

#endif
