/*
 * hooks_io.c - nvengine's submission and completion hooks (prep, queue,
 * commit, getevents, event): SQEs filled, submitted in one batch, every
 * available completion reaped in one pass, each IO traced (engine/hooks.c).
 * The engine never calls exit(): failures go back to fio.
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
#include "engine/hooks.h"

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
int nv_prep(struct thread_data *td, struct io_u *io_u)
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

enum fio_q_status nv_queue(struct thread_data *td, struct io_u *io_u)
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
int nv_commit(struct thread_data *td)
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
			memmove(ld->pending, ld->pending + done,
				ld->queued * sizeof(*ld->pending));
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
int nv_getevents(struct thread_data *td, unsigned int min,
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
struct io_u *nv_event(struct thread_data *td, int event)
{
	struct nv_data *ld = td->io_ops_data;

	return ld->events[event];
}
