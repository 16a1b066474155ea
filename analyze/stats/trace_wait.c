/*
 * trace_wait.c - tracing's wait on the IO loop as a finding (trace_wait.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/stats/trace_wait.h"

/* The footer's key as a number into *v.  Return: 0, -ENOENT (absent), -ENOMEM. */
static int footer_u64(struct nvt_reader *r, const char *key, uint64_t *v)
{
	const char *s = NULL;
	int err = nvt_reader_footer_get(r, key, &s);

	if (err == -ENOMEM)
		return err;
	if (err || !s)
		return -ENOENT;
	*v = strtoull(s, NULL, 10);
	return 0;
}

/*
 * Why the writer fell behind, from its footer (disk_ns: inside write and
 * fdatasync; cpu_ns: on a run queue), into why (len bytes).  A cause at
 * least half the larger one is named, so both when they are close.
 * Return: nothing.
 */
static void name_cause(uint64_t disk_ns, uint64_t cpu_ns, char *why, size_t len)
{
	uint64_t top = disk_ns > cpu_ns ? disk_ns : cpu_ns;
	bool disk = 2 * disk_ns >= top, cpu = 2 * cpu_ns >= top;

	if (disk && cpu)
		snprintf(why, len, "both the trace directory's disk (the writer spent %.2f s in "
			 "write/fdatasync) and the CPU (%.2f s waiting for one)",
			 (double)disk_ns / 1e9, (double)cpu_ns / 1e9);
	else if (disk)
		snprintf(why, len, "the trace directory's disk is too slow for the trace "
			 "(the writer spent %.2f s in write/fdatasync, %.2f s waiting for a CPU)",
			 (double)disk_ns / 1e9, (double)cpu_ns / 1e9);
	else
		snprintf(why, len, "the trace writer thread was denied CPU (%.2f s waiting for "
			 "one, %.2f s in write/fdatasync; nv_trace_sched=normal, the default, gives it "
			 "CPU)", (double)cpu_ns / 1e9, (double)disk_ns / 1e9);
}

/* The traced time: the clock keys' span where present, else span_ns. */
static uint64_t traced_span(struct nvt_reader *r, uint64_t span_ns, uint64_t end_ns)
{
	const char *start = nvt_reader_get(r, "clock.monotonic_ns");

	if (end_ns && start && strtoull(start, NULL, 10) < end_ns)
		return end_ns - strtoull(start, NULL, 10);
	return span_ns;
}

int nv_trace_wait_finding(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len)
{
	uint64_t wait_ns, waits = 0, cpu_ns = 0, end_ns = 0, write_ns = 0, sync_ns = 0;
	uint64_t runq_ns = 0;
	char why[300];
	int err, has_write;

	err = footer_u64(r, "writer.io_wait_ns", &wait_ns);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (footer_u64(r, "writer.io_waits", &waits) == -ENOMEM ||
	    footer_u64(r, "writer.cpu_ns", &cpu_ns) == -ENOMEM ||
	    footer_u64(r, "clock.end_monotonic_ns", &end_ns) == -ENOMEM ||
	    (has_write = footer_u64(r, "writer.write_ns", &write_ns)) == -ENOMEM ||
	    footer_u64(r, "writer.fdatasync_ns", &sync_ns) == -ENOMEM ||
	    footer_u64(r, "writer.runq_wait_ns", &runq_ns) == -ENOMEM)
		return -ENOMEM;
	span_ns = traced_span(r, span_ns, end_ns);
	if (!span_ns || (double)wait_ns < NV_TRACE_WAIT_MIN_SHARE * (double)span_ns)
		return 0;
	if (!has_write && (write_ns + sync_ns || runq_ns))
		name_cause(write_ns + sync_ns, runq_ns, why, sizeof(why));
	else if ((double)cpu_ns < 0.5 * (double)wait_ns)	/* an older trace: CPU time only */
		snprintf(why, sizeof(why), "the trace directory's disk is too slow for the trace");
	else
		snprintf(why, sizeof(why), "the trace writer thread had too little CPU "
			 "(nv_trace_sched=normal gives it more)");
	snprintf(buf, len, "tracing held the IO loop for %.1f s of %.1f s (%.1f%%, %" PRIu64
		 " wait%s): %s; the job's IOPS and latency are the trace's, not the device's",
		 (double)wait_ns / 1e9, (double)span_ns / 1e9,
		 100.0 * (double)wait_ns / (double)span_ns, waits, waits == 1 ? "" : "s", why);
	return 1;
}

int nv_trace_wait_summary(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len)
{
	uint64_t wait_ns, waits = 0, end_ns = 0, high = 0, chunks = 0;
	int err, has_ring;

	err = footer_u64(r, "writer.io_wait_ns", &wait_ns);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (footer_u64(r, "writer.io_waits", &waits) == -ENOMEM ||
	    footer_u64(r, "clock.end_monotonic_ns", &end_ns) == -ENOMEM ||
	    (has_ring = footer_u64(r, "writer.ring_high", &high)) == -ENOMEM ||
	    footer_u64(r, "writer.ring_chunks", &chunks) == -ENOMEM)
		return -ENOMEM;
	span_ns = traced_span(r, span_ns, end_ns);
	if (!span_ns)
		return 0;
	err = snprintf(buf, len, "IO loop held by tracing %.3f%% of %.1f s (%" PRIu64 " wait%s)",
		       100.0 * (double)wait_ns / (double)span_ns, (double)span_ns / 1e9, waits,
		       waits == 1 ? "" : "s");
	if (!has_ring && chunks && err >= 0 && (size_t)err < len)
		snprintf(buf + err, len - (size_t)err, ", trace ring high-water %" PRIu64
			 " of %" PRIu64 " chunks", high, chunks);
	return 1;
}
