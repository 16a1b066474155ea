/*
 * live.c - what live.h's records share: the histogram's fixed edges and
 * the operations' names.
 */
#include "analyze/live/live.h"
#include "trace/nvtrace.h"

const uint64_t nv_live_le_ns[NV_LIVE_NLE] = {
	1000, 2000, 5000,				/* 1, 2, 5 us */
	10000, 20000, 50000,
	100000, 200000, 500000,
	1000000, 2000000, 5000000,			/* 1, 2, 5 ms */
	10000000, 20000000, 50000000,
	100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000,		/* 1, 2, 5 s */
	10000000000,					/* 10 s */
};

const char *nv_live_op_name(unsigned op)
{
	return op >= NVT_OP__MAX ? "all" : nvt_op_name(op);
}
