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
 * How much tracing disturbed the IO loops of one job's traces, summed over
 * them (nv_trace_disturb_add), at any size: below the finding's threshold
 * too, so a report shows that tracing was not in the way.
 */
struct nv_trace_disturb {
	unsigned traces;	/* traces added (with writer.io_wait_ns and a span) */
	uint64_t waits, wait_ns;	/* writer.io_waits, writer.io_wait_ns, summed */
	uint64_t traced_ns;	/* the traced time (as the finding's), summed */
	unsigned rings;		/* traces with writer.ring_high and writer.ring_chunks */
	uint64_t ring_high, ring_chunks;	/* of the fullest ring (high / chunks) */
	unsigned cpus;		/* traces with writer.cpu_ns and a footer record count */
	uint64_t cpu_ns, records;	/* writer.cpu_ns and the footers' records, summed */
	unsigned grouped;	/* traces whose IO ran on io-wq in a job process under
				 * autogroup (job.thread 0, kernel.sched_autogroup 1,
				 * iowq.workers > 0): the writer can stall it (docs/trace.md) */
};

/*
 * Add trace r (span_ns where the clock keys are missing, as the finding)
 * to *d.  Reads the footer.  Return: 1 added, 0 the trace has no wait key
 * or no span (nothing added), -ENOMEM.
 */
int nv_trace_disturb_add(struct nvt_reader *r, uint64_t span_ns, struct nv_trace_disturb *d);

/*
 * src's traces added to d, as if nv_trace_disturb_add had added them to d
 * after d's own (a job's thread traces analysed apart, in order).
 * Return: nothing.
 */
void nv_trace_disturb_merge(struct nv_trace_disturb *d, const struct nv_trace_disturb *src);

/*
 * *d (traces > 0) as one line into buf (len bytes): "IO loop held by
 * tracing 0.000% of 4.0 s (0 waits), trace ring high-water 1 of 4 chunks,
 * writer 31 ns CPU per record" (the ring and the CPU where the footers have
 * them; "of 4.0 s" is the traced time of every trace together), and where
 * d->grouped, how many traces' IO ran where the writer can stall it.
 * Return: nothing.
 */
void nv_trace_disturb_line(const struct nv_trace_disturb *d, char *buf, size_t len);

/*
 * nv_trace_disturb_line of trace r alone.  Return: 1 with the line in buf,
 * 0 when the trace has no wait key or no span, -ENOMEM.
 */
int nv_trace_wait_summary(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len);

#endif
