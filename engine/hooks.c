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
 * td->io_ops_data, engine/hooks.h) and the per-file state (struct nv_file),
 * and call the parts, NVMe passthrough (engine/passthru.c) and the trace
 * (engine/trace_hook.c), which never call back: they return results and
 * the hooks record them (completions are counted and handed to fio in the
 * hooks only).  The option table is engine/options.c.  What needs no fio is in
 * the rooms below: the ring's setup (sys/sys_ring.c), target kinds and trim
 * (sys/sys_target.c), the NVMe system layer (nvme/nvme_sys.c), the trace
 * clock (trace/nvtrace_clock.c).  This file holds the ops table, init
 * and cleanup; submission and completion are engine/hooks_io.c, the file
 * hooks engine/hooks_files.c.  Submission is batched: queue()
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
#include "engine/hooks.h"

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
			log_err("nvengine: fixedbufs: registering %u buffers of %llu bytes "
				"failed: %s%s\n",
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
