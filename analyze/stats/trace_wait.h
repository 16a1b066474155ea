/*
 * trace_wait.h - whether tracing held the IO loop: the trace footer's
 * writer.io_wait_ns (how long the job's IO thread waited for the trace writer,
 * docs/trace-format.md) as a finding, so that a run bound by the trace
 * directory's disk is never read as the device's speed.
 */
#ifndef NV_ANALYZE_TRACE_WAIT_H
#define NV_ANALYZE_TRACE_WAIT_H

#include <stddef.h>
#include <stdint.h>

#include "trace/nvtrace.h"

/* A wait under this share of the traced time is not a finding (still in the footer). */
#define NV_TRACE_WAIT_MIN_SHARE	0.01

/*
 * The finding for trace r over its traced time (the header's
 * clock.monotonic_ns to the footer's clock.end_monotonic_ns, the engine's
 * keys; span_ns where they are missing), e.g. "tracing held the IO loop for 12.3 s of 60.0 s
 * (20.5%, 812 waits): the trace directory's disk is too slow for the trace",
 * into buf (len bytes).  The cause named follows where the writer's time
 * went: inside write/fdatasync (writer.write_ns, writer.fdatasync_ns: the
 * disk) against waiting on a run queue (writer.runq_wait_ns: the CPU); each
 * at least half the larger is named with its seconds, so both when close.  A
 * trace older than those keys: the writer's CPU time (writer.cpu_ns) under
 * half the wait names the disk, else the writer's CPU.
 * Reads the footer (r must be seekable or read to its end).  Return: 1 with
 * a finding in buf, 0 when the trace has none (no footer, no wait key, or a
 * wait under NV_TRACE_WAIT_MIN_SHARE of span_ns), -ENOMEM.
 */
int nv_trace_wait_finding(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len);

/*
 * How much tracing disturbed trace r, at any size (below the finding's
 * threshold too): "IO loop held by tracing 0.000% of 4.0 s (0 waits), trace
 * ring high-water 1 of 4 chunks" (the ring where the footer has it), into
 * buf (len bytes).  Return: 1 with the line in buf, 0 when the trace has no
 * wait key or no span, -ENOMEM.
 */
int nv_trace_wait_summary(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len);

#endif
