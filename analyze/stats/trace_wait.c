/*
 * trace_wait.c - tracing's wait on the IO loop as a finding (trace_wait.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * least half the larger one is named, so both when they are close; with the
 * disk, its longest fdatasync (sync_max_ns, where not 0).
 * Return: nothing.
 */
static void name_cause(uint64_t disk_ns, uint64_t cpu_ns, uint64_t sync_max_ns, char *why,
		       size_t len)
{
	uint64_t top = disk_ns > cpu_ns ? disk_ns : cpu_ns;
	bool disk = 2 * disk_ns >= top, cpu = 2 * cpu_ns >= top;
	int k;

	if (disk && cpu)
		k = snprintf(why, len, "both the trace directory's disk (the writer spent %.2f s "
			 "in write/fdatasync) and the CPU (%.2f s waiting for one)",
			 (double)disk_ns / 1e9, (double)cpu_ns / 1e9);
	else if (disk)
		k = snprintf(why, len, "the trace directory's disk is too slow for the trace "
			 "(the writer spent %.2f s in write/fdatasync, %.2f s waiting for a CPU)",
			 (double)disk_ns / 1e9, (double)cpu_ns / 1e9);
	else
		k = snprintf(why, len, "the trace writer was denied CPU (%.2f s waiting "
			 "for one, %.2f s in write/fdatasync; nv_trace_sched=normal, the default, "
			 "gives it CPU)", (double)cpu_ns / 1e9, (double)disk_ns / 1e9);
	if (disk && sync_max_ns && k >= 0 && (size_t)k < len)
		snprintf(why + k, len - (size_t)k, ", its longest fdatasync %.2f s",
			 (double)sync_max_ns / 1e9);
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
	uint64_t runq_ns = 0, sync_max_ns = 0;
	char why[340];
	int err, has_write;

	err = footer_u64(r, "writer.io_wait_ns", &wait_ns);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (footer_u64(r, "writer.io_waits", &waits) == -ENOMEM ||
	    footer_u64(r, "writer.cpu_ns", &cpu_ns) == -ENOMEM ||
	    footer_u64(r, "clock.end_monotonic_ns", &end_ns) == -ENOMEM ||
	    (has_write = footer_u64(r, "writer.write_ns", &write_ns)) == -ENOMEM ||
	    footer_u64(r, "writer.fdatasync_ns", &sync_ns) == -ENOMEM ||
	    footer_u64(r, "writer.runq_wait_ns", &runq_ns) == -ENOMEM ||
	    footer_u64(r, "writer.fdatasync_max_ns", &sync_max_ns) == -ENOMEM)
		return -ENOMEM;
	span_ns = traced_span(r, span_ns, end_ns);
	if (!span_ns || (double)wait_ns < NV_TRACE_WAIT_MIN_SHARE * (double)span_ns)
		return 0;
	if (!has_write && (write_ns + sync_ns || runq_ns))
		name_cause(write_ns + sync_ns, runq_ns, sync_max_ns, why, sizeof(why));
	else if ((double)cpu_ns < 0.5 * (double)wait_ns)	/* an older trace: CPU time only */
		snprintf(why, sizeof(why), "the trace directory's disk is too slow for the trace");
	else
		snprintf(why, sizeof(why), "the trace writer had too little CPU "
			 "(nv_trace_sched=normal gives it more)");
	snprintf(buf, len, "tracing held the IO loop for %.1f s of %.1f s (%.1f%%, %" PRIu64
		 " wait%s): %s; the job's IOPS and latency are the trace's, not the device's",
		 (double)wait_ns / 1e9, (double)span_ns / 1e9,
		 100.0 * (double)wait_ns / (double)span_ns, waits, waits == 1 ? "" : "s", why);
	return 1;
}

/* The footer's record count into *recs.  Return: 0, -ENOENT (none), -ENOMEM. */
static int footer_records(struct nvt_reader *r, uint64_t *recs)
{
	const struct nvt_footer *f = nvt_reader_footer(r);
	int err;

	if (f) {
		*recs = f->records;
		return 0;
	}
	err = nvt_reader_footer_records(r, recs);
	return err == -ENOMEM ? err : err ? -ENOENT : 0;
}

/*
 * Whether trace r's IO ran on io-wq workers of a fio job process under the
 * kernel's autogroup (header job.thread 0 and kernel.sched_autogroup 1,
 * footer iowq.workers above 0) with the writer a thread of that process
 * (no footer writer.process = own-session: engines before 2026-12 wrote
 * such traces): there the trace writer's wake-ups can stall it
 * (docs/trace.md, "What survives what").  Return: 1 yes, 0 no or unknown (a
 * trace from before these keys), -ENOMEM.
 */
static int iowq_grouped(struct nvt_reader *r)
{
	const char *thread = nvt_reader_get(r, "job.thread");
	const char *group = nvt_reader_get(r, "kernel.sched_autogroup");
	const char *own = NULL;
	uint64_t workers = 0;
	int err;

	if (!thread || !group || strcmp(thread, "0") || strcmp(group, "1"))
		return 0;
	err = nvt_reader_footer_get(r, "writer.process", &own);
	if (err == -ENOMEM)
		return err;
	if (!err && own && !strcmp(own, "own-session"))
		return 0;
	err = footer_u64(r, "iowq.workers", &workers);
	return err == -ENOMEM ? err : !err && workers > 0;
}

int nv_trace_disturb_add(struct nvt_reader *r, uint64_t span_ns, struct nv_trace_disturb *d)
{
	uint64_t wait_ns, waits = 0, end_ns = 0, high = 0, chunks = 0, cpu = 0, recs = 0;
	int err, has_high, has_chunks, has_cpu, has_recs, grouped;

	err = footer_u64(r, "writer.io_wait_ns", &wait_ns);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (footer_u64(r, "writer.io_waits", &waits) == -ENOMEM ||
	    footer_u64(r, "clock.end_monotonic_ns", &end_ns) == -ENOMEM ||
	    (has_high = footer_u64(r, "writer.ring_high", &high)) == -ENOMEM ||
	    (has_chunks = footer_u64(r, "writer.ring_chunks", &chunks)) == -ENOMEM ||
	    (has_cpu = footer_u64(r, "writer.cpu_ns", &cpu)) == -ENOMEM ||
	    (has_recs = footer_records(r, &recs)) == -ENOMEM ||
	    (grouped = iowq_grouped(r)) < 0)
		return -ENOMEM;
	span_ns = traced_span(r, span_ns, end_ns);
	if (!span_ns)
		return 0;
	d->traces++;
	d->grouped += (unsigned)grouped;
	d->waits += waits;
	d->wait_ns += wait_ns;
	d->traced_ns += span_ns;
	/* the fullest ring: high / chunks above the one kept (cross-multiplied) */
	if (!has_high && !has_chunks && chunks &&
	    (!d->rings || high * d->ring_chunks > d->ring_high * chunks)) {
		d->ring_high = high;
		d->ring_chunks = chunks;
	}
	d->rings += !has_high && !has_chunks && chunks;
	if (!has_cpu && !has_recs) {
		d->cpus++;
		d->cpu_ns += cpu;
		d->records += recs;
	}
	return 1;
}

void nv_trace_disturb_merge(struct nv_trace_disturb *d, const struct nv_trace_disturb *src)
{
	d->traces += src->traces;
	d->grouped += src->grouped;
	d->waits += src->waits;
	d->wait_ns += src->wait_ns;
	d->traced_ns += src->traced_ns;
	/* the fullest ring, as nv_trace_disturb_add keeps it (a tie: d's) */
	if (src->rings && (!d->rings || src->ring_high * d->ring_chunks >
			   d->ring_high * src->ring_chunks)) {
		d->ring_high = src->ring_high;
		d->ring_chunks = src->ring_chunks;
	}
	d->rings += src->rings;
	d->cpus += src->cpus;
	d->cpu_ns += src->cpu_ns;
	d->records += src->records;
}

void nv_trace_disturb_line(const struct nv_trace_disturb *d, char *buf, size_t len)
{
	int k;

	k = snprintf(buf, len, "IO loop held by tracing %.3f%% of %.1f s", d->traced_ns ?
		     100.0 * (double)d->wait_ns / (double)d->traced_ns : 0.0,
		     (double)d->traced_ns / 1e9);
	if (d->traces > 1 && k >= 0 && (size_t)k < len)	/* not the run's length */
		k += snprintf(buf + k, len - (size_t)k, ", %u traces' time summed", d->traces);
	if (k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " (%" PRIu64 " wait%s)", d->waits,
			      d->waits == 1 ? "" : "s");
	if (d->rings && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ", trace ring high-water %" PRIu64
			      " of %" PRIu64 " chunks", d->ring_high, d->ring_chunks);
	if (d->cpus && d->records && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ", writer %.0f ns CPU per record",
			      (double)d->cpu_ns / (double)d->records);
	if (d->grouped && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "; the IO of %u of %u traces ran on io-wq "
			 "workers of a fio job process under autogroup, where the trace writer "
			 "can stall it for seconds: rerun with fio's `thread` (nvengine(7))",
			 d->grouped, d->traces);
}

int nv_trace_wait_summary(struct nvt_reader *r, uint64_t span_ns, char *buf, size_t len)
{
	struct nv_trace_disturb d = { 0 };
	int ret = nv_trace_disturb_add(r, span_ns, &d);

	if (ret == 1)
		nv_trace_disturb_line(&d, buf, len);
	return ret;
}
