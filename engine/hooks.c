/*
 * hooks.c - nvengine, a fio external ioengine: io_uring on files, block devices and
 * NVMe generic character devices, with an exact per-IO trace.
 *
 * Load with --ioengine=external:/path/to/libnvengine.so.  The options carry
 * the names and meaning of fio's own io_uring engine (hipri, fixedbufs,
 * registerfiles, sqthread_poll, sqthread_poll_cpu, nonvectored, force_async,
 * nowait), so a job file ports by changing its ioengine line.
 *
 * The hooks are the core: they own the per-thread state (struct nv_data,
 * td->io_ops_data) and the per-file state (struct nv_file), and call the
 * parts, NVMe passthrough (engine/passthru.c) and the trace
 * (engine/trace_hook.c), which never call back: they return results and
 * the hooks record them (completions are counted and handed to fio here
 * only).  The option table is engine/options.c.  What needs no fio is in
 * the rooms below: the ring's setup (sys/sys_ring.c), target kinds and trim
 * (sys/sys_target.c), the NVMe system layer (nvme/nvme_sys.c), the trace
 * clock (trace/nvtrace_clock.c).  Submission is batched: queue()
 * only fills SQEs, commit() submits them all with one io_uring_enter, and
 * getevents() reaps every available completion in one pass.
 *
 * The engine never calls exit(): every failure is reported with log_err()
 * and td_verror() and returned to fio.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "fio.h"
#include "verify.h"

#include "engine/passthru.h"
#include "engine/trace_hook.h"
#include "sys/sys_target.h"
#include "nvme/nvme_sys.h"
#include "sys/sys_ring.h"

/*
 * Per-thread engine state (td->io_ops_data), private to the hooks: the
 * ring, the submission and completion state, and the state of the two
 * parts, which the hooks hand to them (passthrough and trace).
 */
struct nv_data {
	struct nv_ring r;		/* the ring (sys/sys_ring.h) */
	unsigned int depth;		/* ring depth (power of two >= iodepth) */
	unsigned int iodepth;		/* the job's iodepth before rounding */

	struct io_u **io_u_index;	/* io_u by index, for fixed buffers */
	struct iovec *iovecs;		/* per io_u iovec (vectored / fixedbufs) */
	int *fds;			/* registered files */

	unsigned int queued;		/* SQEs filled, not yet submitted */
	unsigned int queued_ios;	/* io_us accepted by queue(), not yet submitted */
	unsigned int inflight;		/* submitted, not yet reaped */
	unsigned int prepped;		/* force_async counter */
	int warned_poll;		/* hipri hint already printed */

	void **pending;			/* SQE owners in ring order, not submitted:
					   io_us, or tagged DSM batches */
	struct io_u **events;		/* completions reaped by getevents() */
	unsigned int nr_events;

	struct nv_passthru pt;		/* NVMe passthrough (engine/passthru.c) */
	struct nv_trace tr;		/* per-IO trace (engine/trace_hook.c) */
};


/*
 * Record the submission time and depth of the @nr SQEs just submitted.
 * The time is taken after io_uring_enter() returned, the same point at which
 * fio itself starts an IO's completion latency (FIO_ASYNCIO_SETS_ISSUE_TIME),
 * so the trace's latencies and fio's clat measure the same interval.
 */
static void nv_mark_one(struct thread_data *td, struct nv_data *ld, struct io_u *io_u,
			uint64_t now, const struct timespec *ts)
{
	ld->inflight++;
	ld->queued_ios--;
	nv_trace_submitted(&ld->tr, io_u->index, now, ld->inflight);
	if (ts) {
		io_u->issue_time = *ts;
		io_u_queued(td, io_u);
	}
}

/* Returns the number of io_us submitted with the @nr SQE owners. */
static unsigned int nv_mark_submitted(struct thread_data *td, struct nv_data *ld,
				      void **owners, unsigned int nr)
{
	struct timespec ts;
	int fill = fio_fill_issue_time(td);
	unsigned int i, k, nios = 0;
	uint64_t now;

	/* fio's clock first, then the trace's: a trace latency never exceeds fio's clat */
	if (fill)
		fio_gettime(&ts, NULL);
	/* the clock is read only for the trace: in VMs it can be a syscall */
	now = nv_trace_submit_now(&ld->tr);
	for (i = 0; i < nr; i++) {
		struct nv_dsm_batch *b = nv_batch_of(owners[i]);

		if (b) {
			for (k = 0; k < b->n; k++)
				nv_mark_one(td, ld, b->ios[k], now, fill ? &ts : NULL);
			nios += b->n;
		} else if (owners[i]) {
			nv_mark_one(td, ld, owners[i], now, fill ? &ts : NULL);
			nios++;
		}
	}
	return nios;
}

/*
 * fio hook: prep.  Called once per io_u before queue().  Rejects what the
 * target cannot do; the SQE itself is filled in queue(), where liburing
 * hands out the next free slot.
 */
static int nv_prep(struct thread_data *td, struct io_u *io_u)
{
	struct nv_file *nf = nv_io_file(io_u);

	/* fio ends a job quietly when prep fails: td_verror makes it an error */
	if (!nf) {
		log_err("nvengine: %s: file not opened by the engine\n", io_u->file->file_name);
		td_verror(td, EINVAL, "nvengine: prep");
		return -EINVAL;
	}
	if (!ddir_rw(io_u->ddir) && !ddir_sync(io_u->ddir) && io_u->ddir != DDIR_TRIM) {
		log_err("nvengine: %s: unsupported IO direction %d\n", io_u->file->file_name,
			io_u->ddir);
		td_verror(td, EINVAL, "nvengine: prep");
		return -EINVAL;
	}
	if (nf->kind == NV_TARGET_NVME_CHAR)
		return nv_nvme_prep(td, &((struct nv_data *)td->io_ops_data)->pt, nf, io_u);
	return 0;
}

static void nv_fill_rw(struct thread_data *td, struct nv_data *ld,
		       struct nv_options *o, struct io_uring_sqe *sqe,
		       struct io_u *io_u)
{
	int is_read = io_u->ddir == DDIR_READ;
	struct iovec *iov = &ld->iovecs[io_u->index];

	if (o->fixedbufs) {
		sqe->opcode = is_read ? IORING_OP_READ_FIXED : IORING_OP_WRITE_FIXED;
		sqe->addr = (unsigned long)io_u->xfer_buf;
		sqe->len = io_u->xfer_buflen;
		sqe->buf_index = io_u->index;
	} else if (o->nonvectored == 1) {
		sqe->opcode = is_read ? IORING_OP_READ : IORING_OP_WRITE;
		sqe->addr = (unsigned long)io_u->xfer_buf;
		sqe->len = io_u->xfer_buflen;
	} else {
		/* requeue may have adjusted the buffer: refresh the iovec */
		iov->iov_base = io_u->xfer_buf;
		iov->iov_len = io_u->xfer_buflen;
		sqe->opcode = is_read ? IORING_OP_READV : IORING_OP_WRITEV;
		sqe->addr = (unsigned long)iov;
		sqe->len = 1;
	}
	sqe->off = io_u->offset;
	sqe->rw_flags = o->nowait ? RWF_NOWAIT : 0;
	sqe->ioprio = td->ioprio;
}

static void nv_fill_sync(struct thread_data *td, struct io_uring_sqe *sqe,
			 struct io_u *io_u)
{
	struct fio_file *f = io_u->file;

	if (io_u->ddir == DDIR_SYNC_FILE_RANGE) {
		sqe->opcode = IORING_OP_SYNC_FILE_RANGE;
		sqe->off = f->first_write;
		sqe->len = f->last_write - f->first_write;
		sqe->sync_range_flags = td->o.sync_file_range;
	} else {
		sqe->opcode = IORING_OP_FSYNC;
		sqe->fsync_flags = io_u->ddir == DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0;
	}
}

/*
 * Trim runs synchronously (FIO_ASYNCIO_SYNC_TRIM): BLKDISCARD on block
 * devices, a punched hole in regular files (fio 3.33's own os_trim() only
 * knows BLKDISCARD and fails on files with ENOTTY).  It is only issued with
 * nothing else in flight, so its latency is its own.
 */
static enum fio_q_status nv_queue_sync_trim(struct thread_data *td, struct nv_data *ld,
					    const struct nv_file *nf, struct io_u *io_u)
{
	void *owner = io_u;
	int ret;

	if (ld->queued || ld->inflight)
		return FIO_Q_BUSY;
	ld->queued_ios++;
	nv_mark_submitted(td, ld, &owner, 1);
	ret = nv_target_trim(io_u->file->fd, nf->kind, io_u->offset, io_u->xfer_buflen);
	io_u->error = ret < 0 ? -ret : 0;
	ld->inflight--;
	if (nv_trace_io(td, &ld->tr, nf, io_u, ret, nv_trace_now(&ld->tr)))
		io_u->error = EIO;
	io_u_mark_submit(td, 1);
	io_u_mark_complete(td, 1);
	return FIO_Q_COMPLETED;
}

/* Turn the open DSM batch into an SQE.  Returns 0, or -EBUSY if the SQ is full. */
static int nv_flush_batch(struct thread_data *td, struct nv_data *ld)
{
	struct io_uring_sqe *sqe;
	struct nv_dsm_batch *b;

	if (!ld->pt.batch_open)
		return 0;
	sqe = io_uring_get_sqe(&ld->r.ring);
	if (!sqe)
		return -EBUSY;
	b = nv_nvme_batch_flush(td, &ld->pt, sqe);
	ld->pending[ld->queued++] = nv_batch_tag(b);
	return 0;
}

/*
 * trim_ranges > 1 on an NVMe namespace: the trim joins the open batch,
 * which becomes one Dataset Management command when it is full, when a trim
 * for another file comes, or at commit().
 */
static enum fio_q_status nv_queue_batched_trim(struct thread_data *td, struct nv_data *ld,
					       const struct nv_file *nf, struct io_u *io_u)
{
	struct nv_options *o = td->eo;
	struct nv_dsm_batch *b = ld->pt.batch_open;
	int ret;

	if (b && (b->f != io_u->file || b->n == o->trim_ranges) && nv_flush_batch(td, ld))
		return FIO_Q_BUSY;
	ret = nv_nvme_trim_batch(td, &ld->pt, nf, io_u);
	if (ret == -EBUSY)
		return FIO_Q_BUSY;
	if (ret) {
		io_u->error = -ret;
		return FIO_Q_COMPLETED;
	}
	ld->queued_ios++;
	return FIO_Q_QUEUED;
}

/*
 * fio hook: queue.  Fills one SQE for @io_u.  Returns FIO_Q_QUEUED (submitted
 * later by commit()), FIO_Q_BUSY when the ring is full (fio calls commit()
 * and getevents() and retries), or FIO_Q_COMPLETED for synchronous trims.
 */
static int nv_ramp_ended(struct thread_data *td, struct nv_data *ld);

static enum fio_q_status nv_queue(struct thread_data *td, struct io_u *io_u)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;
	struct fio_file *f = io_u->file;
	struct io_uring_sqe *sqe;
	struct nv_file *nf;

	fio_ro_check(td, io_u);

	if (nv_trace_stopped(&ld->tr)) {
		/* the trace cannot record it: do not do it (the job has failed) */
		io_u->error = EIO;
		return FIO_Q_COMPLETED;
	}
	if (nv_trace_ramp_due(&ld->tr) && td->o.ramp_time && td->ramp_time_over) {
		int ret = nv_ramp_ended(td, ld);

		if (ret == -EBUSY)
			return FIO_Q_BUSY;
		if (ret) {
			io_u->error = -ret;
			return FIO_Q_COMPLETED;
		}
	}
	if (ld->queued_ios + ld->inflight >= ld->iodepth)
		return FIO_Q_BUSY;

	nf = nv_io_file(io_u);
	if (io_u->ddir == DDIR_TRIM && !o->nv_nop) {	/* with nv_nop a NOP like the rest */
		if (nf->kind != NV_TARGET_NVME_CHAR)
			return nv_queue_sync_trim(td, ld, nf, io_u);
		if (o->trim_ranges > 1)
			return nv_queue_batched_trim(td, ld, nf, io_u);
	}

	sqe = io_uring_get_sqe(&ld->r.ring);
	if (!sqe)
		return FIO_Q_BUSY;
	if (o->nv_nop) {
		/* nothing moves: the ring, the hooks and the trace do their usual work */
		io_uring_prep_nop(sqe);
		goto queued;
	}
	if (nf->kind == NV_TARGET_NVME_CHAR) {
		int ret = nv_nvme_fill_sqe(td, &ld->pt, nf, sqe, io_u, &ld->iovecs[io_u->index]);

		if (ret) {
			/* prep() checked the IO: only a bug gets here */
			io_uring_prep_nop(sqe);
			io_u->error = -ret;
			io_uring_sqe_set_data(sqe, NULL);
			ld->pending[ld->queued++] = NULL;
			return FIO_Q_COMPLETED;
		}
		goto queued;
	}
	memset(sqe, 0, sizeof(*sqe));

	if (o->registerfiles) {
		sqe->fd = f->engine_pos;
		sqe->flags = IOSQE_FIXED_FILE;
	} else {
		sqe->fd = f->fd;
	}

	if (io_u->ddir == DDIR_READ || io_u->ddir == DDIR_WRITE) {
		nv_fill_rw(td, ld, o, sqe, io_u);
	} else if (ddir_sync(io_u->ddir)) {
		nv_fill_sync(td, sqe, io_u);
	} else {
		/* prep() refuses every other direction */
		io_uring_prep_nop(sqe);
	}

queued:
	if (o->force_async && ++ld->prepped == o->force_async) {
		ld->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, io_u);
	ld->pending[ld->queued++] = io_u;
	ld->queued_ios++;
	return FIO_Q_QUEUED;
}

/*
 * fio hook: commit.  Submits every SQE filled since the last commit with as
 * few io_uring_enter() calls as the kernel allows.  With sqthread_poll the
 * kernel thread submits; io_uring_submit() only wakes it when needed.
 * liburing submits SQEs in the order they were filled, so the first ret
 * entries of ld->pending are the ones the kernel took.
 */
static int nv_commit(struct thread_data *td)
{
	struct nv_data *ld = td->io_ops_data;

	if (nv_flush_batch(td, ld)) {
		/* the SQ ring holds depth entries and never more are queued */
		log_err("nvengine: internal error: no SQE for a DSM batch\n");
		td_verror(td, EBUSY, "nvengine commit");
		return -EBUSY;
	}
	while (ld->queued) {
		unsigned int done, nios;
		int ret;

		ret = io_uring_submit(&ld->r.ring);
		if (ret == -EAGAIN || ret == -EINTR || ret == 0) {
			/* the kernel is short of resources: make room */
			if (ld->inflight)
				return 0;
			continue;
		}
		if (ret < 0) {
			log_err("nvengine: io_uring_submit: %s\n", strerror(-ret));
			td_verror(td, -ret, "io_uring_submit");
			return ret;
		}
		done = (unsigned int)ret < ld->queued ? (unsigned int)ret : ld->queued;
		nios = nv_mark_submitted(td, ld, ld->pending, done);
		io_u_mark_submit(td, nios);
		ld->queued -= done;
		if (ld->queued)
			memmove(ld->pending, ld->pending + done, ld->queued * sizeof(*ld->pending));
	}
	return 0;
}

/*
 * The first queue() after fio's ramp_time ended: fio counts the IOs queued
 * from here on.  What the ramp left queued is submitted first, so that every
 * ramp IO is stamped before the trace's mark (nv_trace_ramp_end).
 * Return: 0 (marked); -EBUSY when the kernel took only part of them (no
 * mark yet: the next queue() tries again); -errno when the submission
 * failed (reported).
 */
static int nv_ramp_ended(struct thread_data *td, struct nv_data *ld)
{
	if (ld->queued) {
		int ret = nv_commit(td);

		if (ret)
			return ret;
		if (ld->queued)
			return -EBUSY;
	}
	nv_trace_ramp_end(&ld->tr);
	return 0;
}

/*
 * Turn the CQE result @res of @io_u (file state @nf) into the io_u's result
 * the way fio expects it: error is a positive errno, resid the bytes not
 * transferred.  Return: nothing.
 */
static void nv_complete_io(struct thread_data *td, struct nv_data *ld, const struct nv_file *nf,
			   struct io_u *io_u, int res)
{
	struct nv_options *o = td->eo;

	ld->inflight--;
	if (o->nv_nop) {
		/* a NOP's 0 (or -errno): the whole IO "done" */
		io_u->error = res < 0 ? -res : 0;
	} else if (nf && nf->kind == NV_TARGET_NVME_CHAR) {
		io_u->error = nv_nvme_complete(td, &ld->pt, nf, io_u, res);
	} else if (res < 0) {
		io_u->error = -res;
	} else if (ddir_rw(io_u->ddir) && (unsigned long long)res != io_u->xfer_buflen) {
		io_u->resid = io_u->xfer_buflen - res;
		io_u->error = 0;
	} else {
		io_u->error = 0;
	}
}

/*
 * A polled ring (hipri) fails IOs with EOPNOTSUPP when the target cannot
 * poll; say once what is needed instead of leaving a bare strerror.
 */
static void nv_explain_error(struct nv_data *ld, struct io_u *io_u)
{
	if (io_u->error == EOPNOTSUPP && (ld->r.flags & IORING_SETUP_IOPOLL) && !ld->warned_poll) {
		ld->warned_poll = 1;
		log_err("nvengine: %s: polled IO (hipri) is not supported here: it needs direct=1 "
			"on a block device or NVMe namespace whose driver has poll queues "
			"(e.g. nvme.poll_queues=N on the kernel command line)\n",
			io_u->file->file_name);
	}
}

/*
 * A DSM batch's command completed with @res: complete each of its trims into
 * ld->events (tracing each at @now) and give the batch back.  Return: nothing.
 */
static void nv_complete_batch(struct thread_data *td, struct nv_data *ld, struct nv_dsm_batch *b,
			      int res, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		struct io_u *io_u = b->ios[i];
		const struct nv_file *nf = nv_io_file(io_u);

		ld->inflight--;
		io_u->error = nv_nvme_complete(td, &ld->pt, nf, io_u, res);
		ld->events[ld->nr_events++] = io_u;
		if (nv_trace_on(&ld->tr))
			nv_trace_io(td, &ld->tr, nf, io_u, res, now);
	}
	nv_nvme_batch_release(&ld->pt, b);
}

/*
 * Move every available CQE into ld->events (up to @max), tracing each.  The
 * completion time is read once per pass: every IO reaped in one pass was
 * complete at that instant.  Returns the CQEs consumed.  A trace that cannot
 * store a record has already failed the job (td_verror); the completions
 * still go to fio, which would otherwise wait for them forever, and queue()
 * refuses further IO.
 */
static int nv_reap(struct thread_data *td, struct nv_data *ld, unsigned int max)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	uint64_t now = 0;

	io_uring_for_each_cqe(&ld->r.ring, head, cqe) {
		struct nv_dsm_batch *b = nv_batch_of(io_uring_cqe_get_data(cqe));
		const struct nv_file *nf;
		struct io_u *io_u;

		if (ld->nr_events >= max)
			break;
		/* a batch completes all its trims: returned together (more than
		 * @max only when nothing else is, so that it cannot get stuck) */
		if (b && ld->nr_events && ld->nr_events + b->n > max)
			break;
		if (!now)	/* 0 without a trace: each CQE then tests it again */
			now = nv_trace_now(&ld->tr);
		seen++;
		if (b) {
			nv_complete_batch(td, ld, b, cqe->res, now);
			continue;
		}
		io_u = io_uring_cqe_get_data(cqe);
		if (!io_u)
			continue;
		nf = nv_io_file(io_u);
		nv_complete_io(td, ld, nf, io_u, cqe->res);
		if (io_u->error)
			nv_explain_error(ld, io_u);
		ld->events[ld->nr_events++] = io_u;
		if (nv_trace_on(&ld->tr))	/* the test inline: untraced IO pays no call */
			nv_trace_io(td, &ld->tr, nf, io_u, cqe->res, now);
	}
	if (seen)
		io_uring_cq_advance(&ld->r.ring, seen);
	return (int)seen;
}

/*
 * fio hook: getevents.  Returns between @min and @max completions, waiting
 * (at most until @t, when given) for at least @min.  As in fio's io_uring
 * engine, iodepth_batch_complete_min=0 means "do not block".
 */
static int nv_getevents(struct thread_data *td, unsigned int min,
			unsigned int max, const struct timespec *t)
{
	struct nv_data *ld = td->io_ops_data;
	unsigned int want = td->o.iodepth_batch_complete_min == 0 ? 0 : min;
	struct __kernel_timespec kts, *ktsp = NULL;

	if (t) {
		kts.tv_sec = t->tv_sec;
		kts.tv_nsec = t->tv_nsec;
		ktsp = &kts;
	}
	if (max > ld->depth)
		max = ld->depth;
	ld->nr_events = 0;
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned int wait_nr;
		int ret;

		nv_trace_reaped(&ld->tr, (unsigned int)nv_reap(td, ld, max));
		if (ld->nr_events >= want || ld->nr_events >= max)
			break;
		/* SQEs the kernel refused (-EAGAIN) are in flight for fio: submit
		 * them, or their completions never come */
		if (ld->queued) {
			ret = nv_commit(td);
			if (ret)
				return ret;
		}
		/* one CQE per io_u, except a DSM batch's: then one at a time;
		 * never more than the kernel has */
		wait_nr = ld->pt.batches ? 1 : want - ld->nr_events;
		if (wait_nr > ld->inflight)
			wait_nr = ld->inflight;
		if (!wait_nr)
			break;
		ret = io_uring_wait_cqes(&ld->r.ring, &cqe, wait_nr, ktsp, NULL);
		if (ret == -ETIME)
			break;
		if (ret < 0 && ret != -EAGAIN && ret != -EINTR) {
			log_err("nvengine: waiting for completions: %s\n", strerror(-ret));
			td_verror(td, -ret, "io_uring_wait_cqes");
			return ret;
		}
	}
	return ld->nr_events;
}

/* fio hook: event.  The @event'th completion reaped by getevents(). */
static struct io_u *nv_event(struct thread_data *td, int event)
{
	struct nv_data *ld = td->io_ops_data;

	return ld->events[event];
}

/*
 * fio's generic_open_file(), except that an NVMe char device is opened
 * without O_DIRECT: passthrough never uses the page cache, and the char
 * device refuses O_DIRECT, so direct=1 job files (and those ported from block
 * devices) work unchanged.
 */
static int nv_generic_open(struct thread_data *td, struct fio_file *f)
{
	unsigned int odirect = td->o.odirect;
	struct stat st;
	int ret;

	if (odirect && !stat(f->file_name, &st) && S_ISCHR(st.st_mode))
		td->o.odirect = 0;
	ret = generic_open_file(td, f);
	td->o.odirect = odirect;
	return ret;
}

/*
 * Open every file of the job once and register the descriptors with the
 * ring (registerfiles).  The files then look closed to fio; open_file()
 * hands out the registered descriptor.
 */
static int nv_register_files(struct thread_data *td, struct nv_data *ld)
{
	struct fio_file *f;
	unsigned int i;
	int ret = 0;

	ld->fds = calloc(td->o.nr_files, sizeof(int));
	if (!ld->fds)
		return -ENOMEM;
	for_each_file(td, f, i) {
		ret = nv_generic_open(td, f);
		if (ret) {
			ret = -(td->error ? td->error : EINVAL);
			break;
		}
		ld->fds[i] = f->fd;
		f->engine_pos = i;
	}
	if (!ret)
		ret = io_uring_register_files(&ld->r.ring, ld->fds, td->o.nr_files);
	for_each_file(td, f, i) {
		if (ret && f->fd != -1) {
			int fio_unused ret2 = generic_close_file(td, f);
		} else
			f->fd = -1;
	}
	if (ret) {
		free(ld->fds);
		ld->fds = NULL;
	}
	return ret;
}

/* Is any of the job's targets a character device (NVMe passthrough)? */
static int nv_job_has_char_targets(struct thread_data *td)
{
	struct fio_file *f;
	unsigned int i;

	for_each_file(td, f, i) {
		struct stat st;

		if (!stat(f->file_name, &st) && S_ISCHR(st.st_mode))
			return 1;
	}
	return 0;
}

/*
 * fio hook: init.  Allocates the per-thread state; the ring is created in
 * post_init(), once fio has allocated the io_us whose buffers fixedbufs
 * registers.  Returns 0, or 1 with the error reported.
 */
static int nv_init(struct thread_data *td)
{
	struct nv_options *o = td->eo;
	struct nv_data *ld;

	/* sqthread submission requires registered files */
	if (o->sqpoll_thread)
		o->registerfiles = 1;
	if (o->registerfiles && td->o.nr_files != td->o.open_files) {
		log_err("nvengine: registerfiles (and sqthread_poll) need nr_files equal to "
			"open_files (nr_files=%u open_files=%u)\n", td->o.nr_files,
			td->o.open_files);
		td_verror(td, EINVAL, "nvengine init");
		return 1;
	}

	if (nv_nvme_check_options(td))
		return 1;
	if (o->nv_nop && td->o.verify != VERIFY_NONE) {
		log_err("nvengine: nv_nop=1 reads and writes nothing, so verify would fail on "
			"every block: leave out verify or nv_nop\n");
		td_verror(td, EINVAL, "nvengine: nv_nop");
		return 1;
	}
	if (o->nv_trace_ab && (!o->nv_trace || !*o->nv_trace || td->o.ramp_time)) {
		log_err("nvengine: nv_trace_ab=%u (a benchmark of tracing's cost) needs "
			"nv_trace=DIR and no ramp_time\n", o->nv_trace_ab);
		td_verror(td, EINVAL, "nvengine: nv_trace_ab");
		return 1;
	}
	if (o->trim_ranges > 1 && o->trim_ranges > td->o.iodepth) {
		log_err("nvengine: trim_ranges=%u is more than iodepth=%u: one command cannot "
			"carry more trims than are in flight\n", o->trim_ranges, td->o.iodepth);
		td_verror(td, EINVAL, "nvengine: trim_ranges");
		return 1;
	}
	/*
	 * Passthrough maps the IO buffers for DMA as they are: unaligned
	 * buffers (fio aligns them only for direct=1 or raw engines) straddle
	 * pages and cost the device an extra PRP entry per IO.  As fio does
	 * for raw devices (init.c), mark the engine raw before fio allocates
	 * the buffers, which then start on page boundaries.  fio reads the
	 * engine flags from td->flags (a copy taken when the job was set up,
	 * td_set_ioengine_flags()), so the bits go there: setting them in the
	 * shared io_ops would reach neither this job nor only this job.
	 */
	if (nv_job_has_char_targets(td))
		td->flags |= (unsigned long long)(FIO_RAWIO | FIO_MEMALIGN) << TD_ENG_FLAG_SHIFT;
	ld = calloc(1, sizeof(*ld));
	if (!ld)
		goto nomem;
	ld->iodepth = td->o.iodepth;
	/* ring depth must be a power of two (not fio's roundup_pow2(): its
	 * __fls() shifts bits into the sign of an int, which UBSan stops) */
	for (ld->depth = 1; ld->depth < td->o.iodepth; ld->depth <<= 1)
		;
	td->o.iodepth = ld->depth;
	ld->io_u_index = calloc(ld->depth, sizeof(*ld->io_u_index));
	ld->iovecs = calloc(ld->depth, sizeof(*ld->iovecs));
	ld->pending = calloc(ld->depth, sizeof(*ld->pending));
	ld->events = calloc(ld->depth, sizeof(*ld->events));
	ld->pt.depth = ld->depth;
	td->io_ops_data = ld;
	if (!ld->io_u_index || !ld->iovecs || !ld->pending || !ld->events ||
	    nv_trace_init(&ld->tr, ld->depth))
		goto nomem;
	return 0;
nomem:
	log_err("nvengine: out of memory setting up the job\n");
	td_verror(td, ENOMEM, "nvengine init");
	return 1;
}

/* fio hook: io_u_init.  Remembers each io_u by index (fixed buffers). */
static int nv_io_u_init(struct thread_data *td, struct io_u *io_u)
{
	struct nv_data *ld = td->io_ops_data;

	ld->io_u_index[io_u->index] = io_u;
	return 0;
}

/*
 * Populate the pages of fio's IO buffers before the first IO.  fio allocates
 * them without touching them (reads never fill them), so the first read into
 * each page would take a page fault inside the IO path: in an io_uring
 * worker that fault can sleep on the mm lock, and a sleeping worker makes
 * io-wq start more workers, which then stay for the whole run and change
 * its throughput.  MADV_POPULATE_WRITE (Linux 5.14) keeps the contents;
 * where it is missing every page is read and written back.  Nothing is in
 * flight yet, so rewriting a byte with its own value changes nothing.
 */
static void nv_prefault_buffers(struct thread_data *td)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo, hi;

	if (!td->orig_buffer || !td->orig_buffer_size)
		return;
	lo = (uintptr_t)td->orig_buffer & ~(page - 1);
	hi = ((uintptr_t)td->orig_buffer + td->orig_buffer_size + page - 1) & ~(page - 1);
	if (!madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE))
		return;
	for (uintptr_t a = (uintptr_t)td->orig_buffer;
	     a < (uintptr_t)td->orig_buffer + td->orig_buffer_size;
	     a = (a & ~(page - 1)) + page) {
		volatile char *c = (volatile char *)a;

		*c = *c;
	}
}

/*
 * The alignment every IO buffer of the job has: the largest power of two,
 * up to 4096, that divides all their addresses.  Passthrough maps buffers for
 * DMA as they are, so less than the page size means IOs that straddle pages.
 * Return: the alignment in bytes.
 */
static unsigned int nv_buf_align(const struct nv_data *ld)
{
	unsigned int a = 4096, i;

	for (i = 0; i < ld->depth; i++) {
		const struct io_u *io_u = ld->io_u_index[i];

		if (!io_u || !io_u->buf)
			continue;
		while (a > 1 && ((uintptr_t)io_u->buf & (a - 1)))
			a >>= 1;
	}
	return a;
}

/*
 * What passthrough knows of every file of the job, for the trace's header
 * (@when "") or footer ("after").  Return: nothing (l->oom on failure).
 */
static void nv_describe_files(struct thread_data *td, struct nvt_kvlist *l, const char *when)
{
	struct fio_file *f;
	unsigned int i;

	for_each_file(td, f, i)
		nv_nvme_describe(td, f, i, l, when);
}

/* Open the trace (with nv_trace): the job as the hooks know it.  Return: 0 or 1 (reported). */
static int nv_open_trace(struct thread_data *td, struct nv_data *ld)
{
	struct nv_options *o = td->eo;
	struct nvt_kvlist dev = { 0 };
	char features[160];
	struct nv_trace_job job = {
		.buf_align = nv_buf_align(ld),
		.ring_features = features,
		.nvme_write_op = o->write_nvt_op,
		.devices = &dev,
	};
	int ret;

	if (!o->nv_trace || !*o->nv_trace)
		return 0;
	nv_ring_features(&ld->r, features, sizeof(features));
	nv_describe_files(td, &dev, "");
	ret = nv_trace_open(td, &ld->tr, &job);
	nvt_kvlist_free(&dev);
	return ret;
}

/* Close the trace with the files' state at the end.  Return: nothing. */
static void nv_close_trace(struct thread_data *td, struct nv_data *ld)
{
	struct nvt_kvlist after = { 0 };

	if (nv_trace_writing(&ld->tr))
		nv_describe_files(td, &after, "after");
	nv_trace_close(td, &ld->tr, &after);
	nvt_kvlist_free(&after);
}

/*
 * Set up the job's ring (sys/sys_ring.h): 128-byte SQEs and 32-byte CQEs
 * when a target is an NVMe char device; nonvectored=-1 becomes 1 where the
 * kernel has READ and WRITE (5.6+); nv_iowq_workers caps io-wq.
 * Return: 0, or 1 with the error reported.
 */
static int nv_open_ring(struct thread_data *td, struct nv_data *ld, struct nv_options *o)
{
	struct nv_ring_opts ro = {
		.depth = ld->depth,
		.iopoll = o->hipri != 0,
		.sqpoll = o->sqpoll_thread != 0,
		.sqpoll_cpu = o->sqpoll_set ? (int)o->sqpoll_cpu : -1,
		.big_sqe = nv_job_has_char_targets(td),
	};
	char msg[256];
	int ret;

	ret = nv_ring_setup(&ld->r, &ro, msg, sizeof(msg));
	if (ret < 0) {
		log_err("nvengine: %s\n", msg);
		td_verror(td, -ret, "io_uring_setup");
		return 1;
	}
	if (o->nonvectored == -1)
		o->nonvectored = nv_ring_has_rw(&ld->r);
	if (!o->nv_iowq_workers)
		return 0;
	ret = nv_ring_limit_iowq(&ld->r, o->nv_iowq_workers);
	if (ret < 0) {
		log_err("nvengine: nv_iowq_workers=%u: the kernel refused the io-wq limit: %s%s\n",
			o->nv_iowq_workers, strerror(-ret),
			ret == -EINVAL ? " (it needs Linux 5.15 or later; leave the option out)"
				: "");
		td_verror(td, -ret, "nvengine: nv_iowq_workers");
		return 1;
	}
	return 0;
}

/*
 * fio hook: post_init.  Creates the ring (with 128-byte SQEs and 32-byte
 * CQEs when a target is an NVMe char device), registers buffers and files
 * as asked, and opens the trace.  Returns 0, or 1 with the error reported.
 */
static int nv_post_init(struct thread_data *td)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;
	unsigned int i;
	int ret;

	for (i = 0; i < ld->depth; i++) {
		struct io_u *io_u = ld->io_u_index[i];

		ld->iovecs[i].iov_base = io_u ? io_u->buf : NULL;
		ld->iovecs[i].iov_len = td_max_bs(td);
	}
	nv_prefault_buffers(td);
	if (nv_open_ring(td, ld, o))
		return 1;
	if (o->fixedbufs) {
		ret = io_uring_register_buffers(&ld->r.ring, ld->iovecs, ld->depth);
		if (ret < 0) {
			log_err("nvengine: fixedbufs: registering %u buffers of %llu bytes failed: "
				"%s%s\n",
				ld->depth, (unsigned long long)td_max_bs(td), strerror(-ret),
				ret == -ENOMEM ? " (raise the memlock limit: ulimit -l)" : "");
			td_verror(td, -ret, "io_uring_register_buffers");
			return 1;
		}
	}
	if (o->registerfiles) {
		ret = nv_register_files(td, ld);
		if (ret < 0) {
			log_err("nvengine: registerfiles: %s\n", strerror(-ret));
			td_verror(td, -ret, "io_uring_register_files");
			return 1;
		}
	}
	return nv_open_trace(td, ld);
}

/* fio hook: cleanup.  Releases everything init()/post_init() set up. */
static void nv_cleanup(struct thread_data *td)
{
	struct nv_data *ld = td->io_ops_data;

	if (!ld)
		return;
	nv_close_trace(td, ld);
	nv_nvme_cleanup(&ld->pt);
	if (!(td->flags & TD_F_CHILD))
		nv_ring_exit(&ld->r);
	free(ld->events);
	free(ld->pending);
	free(ld->fds);
	free(ld->iovecs);
	free(ld->io_u_index);
	free(ld);
	td->io_ops_data = NULL;
}

/*
 * The kind of target @path is (st_mode @mode, NVMe namespace id @nsid for
 * char devices, 0 if not NVMe), or 0 after telling the user why the engine
 * cannot drive it (the sentence comes from nv_target_classify()).
 */
static int nv_check_target(struct thread_data *td, const char *path, mode_t mode, int nsid)
{
	char why[192];
	int kind = nv_target_classify(mode, nsid, why, sizeof(why));

	if (kind > 0)
		return kind;
	log_err("nvengine: %s %s\n", path, why);
	td_verror(td, -kind, "nvengine: unsupported target");
	return 0;
}

/*
 * Refuse @path when it lies under /dev but is no device: missing (fio would
 * lay it out as a regular file in devtmpfs) or a regular file left there.
 * For a missing name, a kernel without passthrough is named as the likely
 * reason (no /dev/ngXnY before Linux 5.13).
 * Return: 0, or 1 with the error reported.
 */
static int nv_refuse_devfs(struct thread_data *td, const char *path)
{
	char why[320], kwhy[256] = "";
	struct utsname u;
	struct stat st;
	int exists = !stat(path, &st);

	if (!nv_target_devfs_check(path, nv_target_on_devfs(path), exists, exists ? st.st_mode : 0,
				   why, sizeof(why)))
		return 0;
	if (!exists && !uname(&u))
		nv_kernel_passthru_lack(u.release, kwhy, sizeof(kwhy));
	log_err("nvengine: %s%s%s\n", why, *kwhy ? "; " : "", kwhy);
	td_verror(td, ENODEV, "nvengine: not a device");
	return 1;
}

/*
 * Check what kind of target an opened file is.  Sets @f's engine data and
 * returns 0, or reports why the engine cannot drive it and returns 1.
 */
static int nv_classify_open_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_file *nf = nv_file_of(f);
	struct stat st;
	int kind, nsid = 0, ret;

	if (fstat(f->fd, &st)) {
		td_verror(td, errno, "fstat");
		return 1;
	}
	if (S_ISCHR(st.st_mode))
		nsid = nv_sys_ns_id(f->fd);
	kind = nv_check_target(td, f->file_name, st.st_mode, nsid);
	if (!kind)
		return 1;
	/* fio can open files before init() (ld NULL): never char devices */
	if (kind == NV_TARGET_NVME_CHAR && (!ld || !(ld->r.flags & IORING_SETUP_SQE128))) {
		log_err("nvengine: %s: the ring was set up without 128-byte SQEs; "
			"NVMe passthrough needs the char device to exist when the job starts\n",
			f->file_name);
		td_verror(td, EINVAL, "nvengine: passthrough ring");
		return 1;
	}
	if (!nf) {
		nf = calloc(1, sizeof(*nf));
		if (!nf) {
			td_verror(td, ENOMEM, "nvengine open");
			return 1;
		}
		FILE_SET_ENG_DATA(f, nf);
	}
	nf->kind = kind;
	nf->index = f->fileno;
	ret = nv_nvme_file_setup(td, ld ? &ld->pt : NULL, f, nf);
	if (ret == -ENOTTY)
		return !nv_check_target(td, f->file_name, S_IFCHR, 0);
	return ret;
}

/* fio hook: open_file.  Opens (or takes the registered descriptor of) @f. */
static int nv_open_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;
	struct stat st;
	int ret;

	if (nv_refuse_devfs(td, f->file_name))
		return 1;
	if (!stat(f->file_name, &st) && S_ISDIR(st.st_mode))
		return !nv_check_target(td, f->file_name, st.st_mode, 0);
	if (ld && o->registerfiles && ld->fds) {
		f->fd = ld->fds[f->engine_pos];
	} else {
		ret = nv_generic_open(td, f);
		if (ret)
			return ret;
	}
	ret = nv_classify_open_file(td, f);
	if (ret) {
		/* refused: what the open set up goes, as close_file() would do */
		nv_nvme_file_free(nv_file_of(f));
		FILE_SET_ENG_DATA(f, NULL);
		if (!(ld && o->registerfiles && ld->fds)) {
			int fio_unused ret2 = generic_close_file(td, f);
		} else {
			f->fd = -1;
		}
	}
	return ret;
}

/* fio hook: close_file. */
static int nv_close_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;

	nv_nvme_file_free(nv_file_of(f));
	FILE_SET_ENG_DATA(f, NULL);
	if (!ld || !o->registerfiles || !ld->fds)
		return generic_close_file(td, f);
	f->fd = -1;
	return 0;
}

/*
 * fio hook: get_file_size.  NVMe char devices report no size through
 * stat(); their size comes from Identify Namespace.
 */
static int nv_get_file_size(struct thread_data *td, struct fio_file *f)
{
	struct stat st;

	if (nv_refuse_devfs(td, f->file_name))
		return 1;
	if (fio_file_size_known(f))
		return 0;
	if (!stat(f->file_name, &st)) {
		if (S_ISDIR(st.st_mode))
			return !nv_check_target(td, f->file_name, st.st_mode, 0);
		if (S_ISCHR(st.st_mode)) {
			int ret = nv_nvme_get_file_size(td, f);

			return ret == -ENOTTY ? !nv_check_target(td, f->file_name, S_IFCHR, 0)
				: ret;
		}
	}
	return generic_get_file_size(td, f);
}

/*
 * Built and tested against fio 3.33 (FIO_IOOPS_VERSION 31) and 3.41 (39):
 * what the engine uses of fio's hooks and structures is the same in both.
 * An older tree is refused here rather than failing later: untested, and
 * fio bumps FIO_IOOPS_VERSION when it changes what engines share with it.
 */
#if FIO_IOOPS_VERSION < 31
#error "nvengine needs the source of fio 3.33 or later (FIO_IOOPS_VERSION >= 31)"
#endif

/* fio finds the engine by this symbol name (dlsym "ioengine"). */
struct ioengine_ops ioengine;
struct ioengine_ops ioengine = {
	.name			= "nvengine",
	.version		= FIO_IOOPS_VERSION,
	.flags			= FIO_ASYNCIO_SYNC_TRIM | FIO_NO_OFFLOAD |
				  FIO_ASYNCIO_SETS_ISSUE_TIME,
	.init			= nv_init,
	.post_init		= nv_post_init,
	.io_u_init		= nv_io_u_init,
	.prep			= nv_prep,
	.queue			= nv_queue,
	.commit			= nv_commit,
	.getevents		= nv_getevents,
	.event			= nv_event,
	.cleanup		= nv_cleanup,
	.open_file		= nv_open_file,
	.close_file		= nv_close_file,
	.get_file_size		= nv_get_file_size,
	.options		= nv_option_table,
	.option_struct_size	= sizeof(struct nv_options),
};
