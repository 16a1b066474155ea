/*
 * trace_pass.h - the statistics of one trace read pass by pass, columns not
 * records (`nvanalyze stat`): per operation records, bytes and errors, the
 * time span, and exact latency per operation and of all (opstats.h).  Pass
 * 1 counts and feeds the exact state; later passes (until opstats has
 * every percentile) only feed it.
 */
#ifndef NV_ANALYZE_TRACE_PASS_H
#define NV_ANALYZE_TRACE_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/opstats.h"
#include "trace/nvtrace.h"

#define NV_TRACE_STAT_ALL NVT_OP__MAX	/* index of the all-operations totals */

struct nv_trace_count {
	uint64_t records, bytes, errors;
};

struct nv_trace_stat {
	struct nv_trace_count op[NVT_OP__MAX + 1];
	struct nv_opstats lat;	/* exact latency per op and of all */
	uint64_t first_submit, last_complete, records;
};

/* An empty state.  Return: nothing. */
void nv_trace_stat_init(struct nv_trace_stat *s);

/* Free the exact state.  Return: nothing. */
void nv_trace_stat_free(struct nv_trace_stat *s);

/*
 * Read the trace r to its end (the caller opened it and closes it): every
 * record checked (trace_check.h) and added to the exact state, and on the
 * first pass counted (the all-operations totals filled at the end).
 * Return: 0, or -errno with a message naming the trace in err (an invalid
 * record, the reader's error, out of memory).
 */
int nv_trace_stat_read(struct nvt_reader *r, struct nv_trace_stat *s, bool first, char *err,
		       size_t errlen);

/*
 * End a pass (after nv_trace_stat_read and closing the reader); *more says
 * whether another pass is needed.
 * Return: 0, or -errno with a message naming path in err (-EINVAL: the
 * trace changed between passes).
 */
int nv_trace_stat_end_pass(struct nv_trace_stat *s, const char *path, bool *more, char *err,
			   size_t errlen);

#endif
