/*
 * trace_wait.c - tracing's wait on the IO loop as a finding (trace_wait.h).
 */
#include <errno.h>
#include <inttypes.h>
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

int nv_trace_wait_finding(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len)
{
	uint64_t wait_ns, waits = 0, cpu_ns = 0, end_ns = 0;
	const char *start, *why;
	int err;

	err = footer_u64(r, "writer.io_wait_ns", &wait_ns);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (footer_u64(r, "writer.io_waits", &waits) == -ENOMEM ||
	    footer_u64(r, "writer.cpu_ns", &cpu_ns) == -ENOMEM ||
	    (err = footer_u64(r, "clock.end_monotonic_ns", &end_ns)) == -ENOMEM)
		return -ENOMEM;
	start = nvt_reader_get(r, "clock.monotonic_ns");
	if (!err && start && strtoull(start, NULL, 10) < end_ns)
		span_ns = end_ns - strtoull(start, NULL, 10);
	if (!span_ns || (double)wait_ns < NV_TRACE_WAIT_MIN_SHARE * (double)span_ns)
		return 0;
	if ((double)cpu_ns < 0.5 * (double)wait_ns)
		why = "the trace directory's disk is too slow for the trace";
	else
		why = "the trace writer thread had too little CPU "
		      "(nv_trace_sched=normal gives it more)";
	snprintf(buf, len, "tracing held the IO loop for %.1f s of %.1f s (%.1f%%, %" PRIu64
		 " wait%s): %s; the job's IOPS and latency are the trace's, not the device's",
		 (double)wait_ns / 1e9, (double)span_ns / 1e9,
		 100.0 * (double)wait_ns / (double)span_ns, waits, waits == 1 ? "" : "s", why);
	return 1;
}
