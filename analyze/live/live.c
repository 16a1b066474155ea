/*
 * live.c - what live.h's records share: the histogram's fixed edges, and
 * the one conversion of a closed interval of the analysis
 * (trace_stream.h) into the record every output gets.
 */
#include <string.h>

#include "analyze/live/live.h"
#include "analyze/stats/trace_stream.h"
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

void nv_live_interval_of(const struct nv_tan_closed *c, const char *job, const char *host,
			 int64_t t0_unix_ms, struct nv_live_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->job = job;
	iv->host = host;
	iv->op = nv_live_op_name(c->iv.op);
	iv->index = c->iv.index;
	iv->start_s = c->iv.start_s;
	iv->end_s = c->iv.end_s;
	iv->end_unix_ms = t0_unix_ms ? t0_unix_ms + (int64_t)(c->iv.end_s * 1000 + 0.5) : 0;
	iv->ios = c->iv.ios;
	iv->bytes = c->iv.bytes;
	iv->errors = c->iv.errors;
	iv->iops = c->iv.iops;
	iv->mb_per_s = c->iv.mb_per_s;
	iv->p50_ns = c->iv.p50_ns;
	iv->p99_ns = c->iv.p99_ns;
	iv->p999_ns = c->iv.p999_ns;
	iv->max_ns = c->iv.max_ns;
	iv->lat_sum_ns = c->lat_sum_ns;
	iv->hist = c->hist;
	iv->hist_lo = c->hist_lo;
	iv->hist_hi = c->hist_hi;
	if (c->le) {
		memcpy(iv->le, c->le, sizeof(iv->le));
		iv->le_inf = c->le[NV_LIVE_NLE];
	}
}

void nv_live_iv_back(const struct nv_live_interval *l, struct nv_tan_iv *iv)
{
	int op = nvt_op_parse(l->op);

	memset(iv, 0, sizeof(*iv));
	iv->op = op < 0 ? NV_TAN_ALL : (unsigned)op;
	iv->index = l->index;
	iv->start_s = l->start_s;
	iv->end_s = l->end_s;
	iv->ios = l->ios;
	iv->bytes = l->bytes;
	iv->errors = l->errors;
	iv->iops = l->iops;
	iv->mb_per_s = l->mb_per_s;
	iv->p50_ns = l->p50_ns;
	iv->p99_ns = l->p99_ns;
	iv->p999_ns = l->p999_ns;
	iv->max_ns = l->max_ns;
}
