/*
 * trace_check.c - the record validity rule and how a trace ended
 * (trace_check.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "analyze/stats/trace_check.h"

int nv_trace_record_why(unsigned op, uint64_t latency_ns, uint64_t complete_ns, char *buf,
			size_t n)
{
	if (n)
		buf[0] = 0;
	if (op >= NVT_OP__MAX) {
		snprintf(buf, n, "has unknown operation %u (newer writer?)", op);
		return -EINVAL;
	}
	if (latency_ns > complete_ns) {
		snprintf(buf, n, "completes before it is submitted (%" PRIu64 " < %" PRIu64 ")",
			 complete_ns, complete_ns - latency_ns);
		return -EINVAL;
	}
	return 0;
}

int nv_trace_cols_check(const struct nvt_cols *c, uint64_t seen, char *buf, size_t n)
{
	unsigned bad = 0;
	char why[128];

	for (size_t i = 0; i < c->n; i++)
		bad |= !nv_trace_record_ok(c->op[i], c->latency_ns[i], c->complete_ns[i]);
	for (size_t i = 0; bad && i < c->n; i++) {
		if (!nv_trace_record_why(c->op[i], c->latency_ns[i], c->complete_ns[i], why,
					 sizeof(why)))
			continue;
		if (seen == UINT64_MAX)
			snprintf(buf, n, "a record %s", why);
		else
			snprintf(buf, n, "record %" PRIu64 " %s", seen + i, why);
		return -EINVAL;
	}
	return 0;
}

bool nv_trace_end_describe(const struct nvt_reader *r, char *buf, size_t n)
{
	struct nvt_read_info in;

	if (n)
		buf[0] = 0;
	nvt_reader_info(r, &in);
	if (in.footer && !in.unused_bytes)
		return false;
	if (in.footer)
		snprintf(buf, n, "trace %s: %" PRIu64 " bytes after the footer ignored",
			 nvt_reader_path(r), in.unused_bytes);
	else if (in.blocks)
		snprintf(buf, n, "trace %s: truncated: %" PRIu64 " bytes after block %" PRIu32
			 " unusable; footer missing; %" PRIu64 " records in %" PRIu32
			 " complete blocks used", nvt_reader_path(r), in.unused_bytes,
			 in.blocks - 1, in.records, in.blocks);
	else
		snprintf(buf, n, "trace %s: truncated: %" PRIu64 " bytes after the header "
			 "unusable; footer missing; no complete block", nvt_reader_path(r),
			 in.unused_bytes);
	return true;
}
