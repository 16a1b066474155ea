/*
 * live_le.c - the classic histogram's fixed upper edges (live.h): 1 us to
 * 10 s, 1-2-5 per decade, in ns.
 */
#include "analyze/live/live.h"

const uint64_t nv_live_le_ns[NV_LIVE_NLE] = {
	1000, 2000, 5000,				/* 1 us */
	10000, 20000, 50000,
	100000, 200000, 500000,
	1000000, 2000000, 5000000,			/* 1 ms */
	10000000, 20000000, 50000000,
	100000000, 200000000, 500000000,
	1000000000, 2000000000, 5000000000,		/* 1 s */
	10000000000,
};
