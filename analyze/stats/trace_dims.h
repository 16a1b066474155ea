/* SPDX-License-Identifier: MIT */
/*
 * analyze/stats/trace_dims.h - the dimensions of a job's trace analysis:
 * its operation entries and queue-depth classes, shared by the public
 * trace_stats.h and the passes' private trace_tan.h (so neither includes
 * the other's module).
 */
#ifndef NV_ANALYZE_TRACE_DIMS_H
#define NV_ANALYZE_TRACE_DIMS_H

#include "trace/nvtrace.h"

#define NV_TAN_ALL	NVT_OP__MAX	/* index of the all-operations entry */
#define NV_TAN_NOPS	(NVT_OP__MAX + 1)

/* Queue depth at submission: class k holds qd in [2^(k-1)+1, 2^k] (k = 0: qd 1). */
#define NV_TAN_NQD 17

#endif
