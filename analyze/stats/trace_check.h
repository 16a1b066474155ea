/*
 * trace_check.h - the two rules every reader of traces in nvanalyze applies,
 * written once: which records are valid, and how a trace ended (complete,
 * bytes after the footer, truncated), in words.
 */
#ifndef NV_ANALYZE_TRACE_CHECK_H
#define NV_ANALYZE_TRACE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/nvtrace.h"

/*
 * A record is valid when its operation is known and it completes no earlier
 * than it was submitted: latency_ns (completion - submission, unsigned)
 * <= complete_ns, i.e. the submission time does not wrap past zero.  Cheap
 * enough for a vectorised scan of a block's columns.
 * Return: true for a valid record.
 */
static inline bool nv_trace_record_ok(unsigned op, uint64_t latency_ns, uint64_t complete_ns)
{
	return op < NVT_OP__MAX && latency_ns <= complete_ns;
}

/*
 * What is wrong with a record nv_trace_record_ok refuses, in words after
 * "record N " ("has unknown operation 9 (newer writer?)", "completes
 * before it is submitted (C < S)"), into buf.
 * Return: 0 for a valid record (buf ""), -EINVAL with buf filled.
 */
int nv_trace_record_why(unsigned op, uint64_t latency_ns, uint64_t complete_ns, char *buf,
			size_t n);

/*
 * Every record of a block's columns c (latency, op and complete_ns) valid:
 * a vector-friendly scan; on a hit, the first invalid record in words into
 * buf: "record N WHY" with N = seen + its index (seen: the records of the
 * file before this block), or "a record WHY" when seen is UINT64_MAX (not
 * known: the reader sought).
 * Return: 0, or -EINVAL with buf filled.
 */
int nv_trace_cols_check(const struct nvt_cols *c, uint64_t seen, char *buf, size_t n);

/*
 * How the trace r (read to its end) ended, for a warning: "trace PATH: N
 * bytes after the footer ignored", or "trace PATH: truncated: ... unusable;
 * footer missing; ..." saying what was used.
 * Return: true with buf filled, false for a complete trace (buf "").
 */
bool nv_trace_end_describe(const struct nvt_reader *r, char *buf, size_t n);

#endif
