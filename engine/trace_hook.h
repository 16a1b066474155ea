/*
 * trace_hook.h - the per-IO trace part of the engine (engine/trace_hook.c):
 * with nv_trace=DIR every IO is recorded in DIR/JOBNAME.THREAD.nvt.
 *
 * Called by the hooks (engine/hooks*.c) only; it calls nothing else of the
 * engine.  What it needs of other parts (the NVMe description of the files,
 * the trace operation of a passthrough write) comes in as data.
 */
#ifndef NV_TRACE_HOOK_H
#define NV_TRACE_HOOK_H

#include <stdint.h>

#include "engine/nv_glue.h"
#include "trace/nvtrace_clock.h"
#include "trace/nvtrace_kv.h"

/* What the trace keeps of an IO in flight: one 16-byte slot per io_u, one cache line. */
struct nv_submitted {
	uint64_t ns;			/* submission time */
	uint16_t qd;			/* IOs in flight at submission, this one included */
};

/*
 * nv_trace_ab=N (benchmarks): tracing is on and off by turns, N completions
 * each, and the job thread's CPU time (CLOCK_THREAD_CPUTIME_ID) is summed
 * per kind of window, so that tracing's cost per IO on this thread is
 * measured between windows a millisecond apart (the footer's ab.* keys).
 * An "off" window hides the writer (tr->w NULL): no stamps, no records.
 */
struct nv_trace_ab {
	unsigned int n;			/* completions per window; 0: no windows */
	unsigned int left;		/* completions the window still needs */
	unsigned int on;		/* the window records */
	/* thread CPU ns when the window began; 0: none yet */
	uint64_t cpu0;
	uint64_t cpu_ns[2], ios[2], windows[2];	/* per kind: [0] off, [1] on */
	struct nvt_writer *w;		/* the writer, while off windows hide it */
};

/* Per-thread trace state (in the hooks' per-thread state). */
struct nv_trace {
	struct nvt_writer *w;		/* NULL without nv_trace */
	struct nvt_appender *app;	/* w's, for records written in place */
	/* the records' timestamps (trace/nvtrace_clock.h) */
	struct nvt_clock clock;
	char *path;
	int failed;			/* error already reported: no more IO */
	uint8_t nvme_write_op;		/* enum nvt_op of a write on an NVMe char device */
	struct nv_submitted *sub;	/* per io_u index: when and at what depth submitted */
	uint64_t last_submit_ns;	/* trace time of the latest submission (the hooks') */
	int ramp_marked;		/* fio's ramp_time end recorded (ramp_end_ns) */
	uint64_t ramp_end_ns;		/* IOs submitted from this time on are fio's */
	struct nv_trace_ab ab;		/* nv_trace_ab windows */
};

/* The trace's timestamp now (CLOCK_MONOTONIC ns), 0 without a trace.  Return: it. */
static inline uint64_t nv_trace_now(struct nv_trace *tr)
{
	if (!tr->w)
		return 0;
	return nvt_clock_now(&tr->clock);
}

/*
 * The hooks' view of the trace, tests inline on the IO path.
 * nv_trace_writing: a trace is open (an nv_trace_ab "off" window hides it).
 * nv_trace_on: records are being written (a trace, not failed).
 * nv_trace_stopped: the trace failed (reported): the job takes no more IO.
 * nv_trace_ramp_due: a trace whose ramp_time end is not marked yet.
 * Return: 1 or 0.
 */
static inline int nv_trace_writing(const struct nv_trace *tr)
{
	return tr->w != NULL;
}

static inline int nv_trace_on(const struct nv_trace *tr)
{
	return tr->w && !tr->failed;
}

static inline int nv_trace_stopped(const struct nv_trace *tr)
{
	return tr->failed;
}

static inline int nv_trace_ramp_due(const struct nv_trace *tr)
{
	return tr->w && !tr->ramp_marked;
}

/*
 * The time of the submissions being stamped now (nv_trace_submitted), kept
 * as the latest submission for nv_trace_ramp_end.  Return: the trace's time
 * now, 0 without a trace.
 */
static inline uint64_t nv_trace_submit_now(struct nv_trace *tr)
{
	uint64_t now = nv_trace_now(tr);

	tr->last_submit_ns = now;
	return now;
}

/* Allocate @tr's per-io_u arrays for @depth io_us.  Return: 0 or -ENOMEM. */
int nv_trace_init(struct nv_trace *tr, unsigned int depth);

/* Note that io_u @index was submitted at @now with @qd IOs in flight.  Return: nothing. */
static inline void nv_trace_submitted(struct nv_trace *tr, unsigned int index, uint64_t now,
				      unsigned int qd)
{
	tr->sub[index].ns = now;
	tr->sub[index].qd = qd > UINT16_MAX ? UINT16_MAX : (uint16_t)qd;
}

/* What the hooks and the other parts know of the job that the trace records. */
struct nv_trace_job {
	unsigned int buf_align;		/* every IO buffer is aligned to this (bytes) */
	const char *ring_features;	/* the ring's io_uring features, "A,B" or "none" */
	uint8_t nvme_write_op;		/* enum nvt_op of a write on an NVMe char device */
	const struct nvt_kvlist *devices;	/* what passthrough knows of the files */
};

/*
 * Open the job's trace (nothing without nv_trace): the header describes the
 * job, from fio's thread and @job.  Return: 0, or 1 with the error reported.
 */
int nv_trace_open(struct thread_data *td, struct nv_trace *tr, const struct nv_trace_job *job);

/* The trace cannot take more records: report it once, fail the job.  Return: -errno. */
int nv_trace_failed(struct thread_data *td, struct nv_trace *tr);

/* fio direction (and passthrough write mode) to the trace's operation.  Return: an enum nvt_op. */
static inline uint8_t nv_trace_op(const struct nv_trace *tr, const struct io_u *io_u, int nvme)
{
	switch (io_u->ddir) {
	case DDIR_READ:
		return NVT_OP_READ;
	case DDIR_WRITE:
		return nvme ? tr->nvme_write_op : NVT_OP_WRITE;
	case DDIR_TRIM:
		return NVT_OP_TRIM;
	default:
		return NVT_OP_FLUSH;	/* fsync, fdatasync, sync_file_range */
	}
}

/*
 * Record one completed IO of the file whose state is @nf: @res is the raw
 * completion result (cqe->res, or the -errno of a synchronous operation),
 * @now the completion time.  Inline:
 * on the IO path it writes the record where the writer keeps it, with no
 * call (trace/nvtrace.h, nvt_append_slot).
 * Return: 0, or -errno once the trace cannot be written (the job fails with
 * a message naming the trace file, and tr->failed is set).  A no-op
 * without nv_trace.
 */
static inline int nv_trace_io(struct thread_data *td, struct nv_trace *tr,
			      const struct nv_file *nf, struct io_u *io_u, int res, uint64_t now)
{
	struct nvt_record *r;
	int nvme;

	if (!tr->w)
		return 0;
	r = nvt_append_slot(tr->app, now);
	if (__builtin_expect(!r, 0))
		return nv_trace_failed(td, tr);
	nvme = nf && nf->kind == NV_TARGET_NVME_CHAR;
	r->submit_ns = tr->sub[io_u->index].ns;
	r->complete_ns = now;
	r->offset = io_u->offset;
	r->length = (uint32_t)io_u->xfer_buflen;
	/* passthrough: 0 or the NVMe status; io_uring: -errno or bytes done */
	r->status = nvme || res < 0 ? res : 0;
	r->qd = tr->sub[io_u->index].qd;
	r->op = nv_trace_op(tr, io_u, nvme);
	r->file = io_u->file->fileno > 255 ? 255 : (uint8_t)io_u->file->fileno;
	return 0;
}

/* nv_trace_reaped's window bookkeeping: a window may end here.  Return: nothing. */
void nv_trace_ab_tick(struct nv_trace *tr, unsigned int done);

/* @done completions were just reaped (nv_trace_ab's windows count them).  Return: nothing. */
static inline void nv_trace_reaped(struct nv_trace *tr, unsigned int done)
{
	if (__builtin_expect(tr->ab.n != 0, 0))
		nv_trace_ab_tick(tr, done);
}

/*
 * fio's ramp_time has just ended: note the trace time from which submitted
 * IOs are fio's (later than tr->last_submit_ns, every submission so far),
 * for the footer's job.ramp_end_ns.  Return: nothing.
 */
void nv_trace_ramp_end(struct nv_trace *tr);

/*
 * Complete the trace with a footer holding @after (what passthrough knows
 * of the files at the end; may be NULL) and free @tr's memory.
 * Return: nothing (a failure is reported and fails the job).
 */
void nv_trace_close(struct thread_data *td, struct nv_trace *tr, const struct nvt_kvlist *after);

#endif
