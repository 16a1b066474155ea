/*
 * nv_glue.h - state shared by the engine's fio glue files (engine/).
 * Needs fio's headers; not for the pure code in libnvcore.
 */
#ifndef NV_GLUE_H
#define NV_GLUE_H

#include <stdint.h>
#include <sys/uio.h>
#include <liburing.h>

#include "fio.h"
#include "trace/nvtrace.h"
#include "nvme/nv_target.h"

struct nv_nvme;

/*
 * Trims queued together on one NVMe namespace, sent as one Dataset
 * Management command with one range each (trim_ranges > 1).  The ranges
 * stay allocated until the command completes: the device reads them.
 */
struct nv_dsm_batch {
	void *ranges;			/* struct nv_dsm_range[trim_ranges] */
	struct io_u **ios;		/* [trim_ranges] */
	unsigned int n;
	struct fio_file *f;
	struct nv_dsm_batch *next;	/* free list */
};

/* ld->pending and CQE user_data hold io_us, or batches tagged with bit 0. */
#define NV_BATCH_TAG		((uintptr_t)1)
static inline void *nv_batch_tag(struct nv_dsm_batch *b)
{
	return (void *)((uintptr_t)b | NV_BATCH_TAG);
}
static inline struct nv_dsm_batch *nv_batch_of(void *p)
{
	return ((uintptr_t)p & NV_BATCH_TAG) ? (struct nv_dsm_batch *)((uintptr_t)p & ~NV_BATCH_TAG) : NULL;
}

/* Per-file engine state: what kind of target the file is. */
struct nv_file {
	enum nv_target_kind kind;
	unsigned int index;		/* position in the job's file list */
	struct nv_nvme *nvme;		/* NVMe namespace state (char devices) */
};

/* Per-thread engine state (td->io_ops_data). */
struct nv_data {
	struct io_uring ring;
	int ring_ok;			/* ring set up (and must be torn down) */
	unsigned int ring_flags;	/* IORING_SETUP_* the ring really has */
	int ring_fd_registered;		/* io_uring_register_ring_fd() worked (5.18+) */
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
	int last_res;			/* cqe->res of the CQE being completed */

	void **md_bufs;			/* per io_u index: separate metadata buffer */
	uint32_t md_len;		/* bytes of each md buffer */
	void *dsm;			/* per io_u index: one DSM range (16 bytes) */
	struct nv_dsm_batch *batches;	/* [depth] when trim_ranges > 1 */
	struct nv_dsm_batch *batch_free;
	struct nv_dsm_batch *batch_open;	/* collecting trims, no SQE yet */
	unsigned int nvme_errors_logged;

	struct nvt_writer *trace;	/* per-IO trace, NULL without nv_trace */
	char *trace_path;
	int trace_failed;		/* error already reported */
	int ramp_marked;		/* fio's ramp_time end recorded (ramp_end_ns) */
	uint64_t ramp_end_ns;		/* IOs submitted from this time on are fio's */
	uint64_t last_submit_ns;	/* trace time of the latest submission */

	void **pending;			/* SQE owners in ring order, not submitted:
					   io_us, or tagged DSM batches */
	struct io_u **events;		/* completions reaped by getevents() */
	unsigned int nr_events;

	uint64_t *submit_ns;		/* per io_u index: submission time */
	uint16_t *submit_qd;		/* per io_u index: depth at submission */
};

/*
 * Engine options.  fio treats an option whose offset is 0 as "no storage",
 * so the struct starts with a pointer fio fills with the thread (as in fio's
 * own engines).
 */
struct nv_options {
	struct thread_data *td;
	unsigned int hipri;
	unsigned int fixedbufs;
	unsigned int registerfiles;
	unsigned int sqpoll_thread;
	unsigned int sqpoll_set;
	unsigned int sqpoll_cpu;
	int nonvectored;
	unsigned int nowait;
	unsigned int force_async;
	char *cmd_type;			/* "nvme": require passthrough targets */
	char *write_mode;		/* write|zeroes|uncor|verify */
	unsigned int readfua;
	unsigned int writefua;
	unsigned int md_per_io_size;	/* separate metadata buffer bytes per IO */
	unsigned int pi_act;		/* PRACT */
	char *pi_chk;			/* "GUARD,REFTAG,APPTAG" */
	unsigned int apptag;
	unsigned int apptag_mask;
	unsigned int pi_gen;		/* pi_act=0: the engine writes the PI */
	unsigned int trim_ranges;	/* DSM ranges per command (passthrough) */
	/* parsed from the strings above by nv_nvme_check_options() */
	uint8_t write_opc;		/* NVMe opcode of a write (write_mode) */
	uint8_t prchk;			/* NV_PRINFO_PRCHK_* bits (pi_chk) */
	char *nv_trace;			/* trace directory; NULL: no trace */
	unsigned int nv_trace_level;	/* zlib level */
	unsigned int nv_trace_block;	/* records per trace block */
	unsigned int nv_trace_sched;	/* enum nvt_writer_sched of the writer thread */
	unsigned int nv_iowq_workers;	/* io-wq worker limit per pool; 0: kernel default */
};

/* engine/options.c: the option table fio parses into struct nv_options. */
extern struct fio_option nv_option_table[];

static inline struct nv_file *nv_file_of(struct fio_file *f)
{
	return FILE_ENG_DATA(f);
}

/* A growable list of owned key/value strings (trace header and footer). */
struct nv_kvlist {
	struct nvt_kv *kv;
	size_t n, cap;
	int oom;		/* an allocation failed: the list is incomplete */
};

/* Append KEY=printf(FMT, ...) to @l (engine/trace_hook.c). */
void nv_kv_add(struct nv_kvlist *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* engine/hooks.c: the target's kind, or 0 after saying why it is unsupported. */
int nv_check_target(struct thread_data *td, const char *path, mode_t mode, int nsid);

/* engine/passthru.c: NVMe generic char devices (passthrough). */
/*
 * Add what is known of file @i (@f) to @l: with @when "" its identity (model,
 * serial, firmware, LBA format) and SMART log as "smart.before.*"; with
 * "after" the SMART log again as "smart.after.*".  Nothing for targets that
 * are not NVMe.
 */
void nv_nvme_describe(struct thread_data *td, struct fio_file *f, unsigned int i,
		      struct nv_kvlist *l, const char *when);
/* Trace operation of a write io_u (write, or the passthrough write_mode). */
uint8_t nv_write_op(struct thread_data *td, const struct io_u *io_u);
/* Check the passthrough options once per job (init); 0 or 1 with the error reported. */
int nv_nvme_check_options(struct thread_data *td);
/* Fill @sqe (128 bytes) for @io_u on an NVMe char device; 0 or -errno. */
int nv_nvme_fill_sqe(struct thread_data *td, struct nv_data *ld, struct io_uring_sqe *sqe,
		     struct io_u *io_u);
/* Per-IO checks before queueing on an NVMe char device; 0 or -errno (reported). */
int nv_nvme_prep(struct thread_data *td, struct nv_data *ld, struct io_u *io_u);
/* Completion of a passthrough io_u with result @res: sets io_u->error. */
void nv_nvme_complete(struct thread_data *td, struct nv_data *ld, struct io_u *io_u, int res);
/*
 * Batched trims (trim_ranges > 1).  nv_nvme_trim_batch() adds @io_u to the
 * open batch and returns 0, or -EBUSY when no batch is free.
 * nv_nvme_batch_flush() turns the open batch (if any) into @sqe's DSM
 * command and returns the batch, or NULL when none was open.
 * nv_nvme_batch_done() completes every io_u of a batch with @res into
 * ld->events (tracing each at @now) and frees the batch.
 */
int nv_nvme_trim_batch(struct thread_data *td, struct nv_data *ld, struct io_u *io_u);
struct nv_dsm_batch *nv_nvme_batch_flush(struct thread_data *td, struct nv_data *ld,
					 struct io_uring_sqe *sqe);
void nv_nvme_batch_done(struct thread_data *td, struct nv_data *ld, struct nv_dsm_batch *b,
			int res, uint64_t now);
/* Free the per-file NVMe state and the job's metadata buffers. */
void nv_nvme_file_free(struct nv_file *nf);
void nv_nvme_cleanup(struct nv_data *ld);
int nv_nvme_ns_id(int fd);
int nv_nvme_file_setup(struct thread_data *td, struct fio_file *f, struct nv_file *nf);
int nv_nvme_get_file_size(struct thread_data *td, struct fio_file *f);

/* engine/trace_hook.c: the per-IO trace. */
int nv_trace_open(struct thread_data *td, struct nv_data *ld);
/*
 * Record one completed IO: @res is the raw completion result (cqe->res, or
 * the -errno of a synchronous operation), @now the completion time.
 * Returns 0, or -errno once the trace cannot be written (the job fails with
 * a message naming the trace file).  A no-op without nv_trace.
 */
int nv_trace_io(struct thread_data *td, struct nv_data *ld, struct io_u *io_u,
		int res, uint64_t now);
void nv_trace_close(struct thread_data *td, struct nv_data *ld);
/*
 * fio's ramp_time has just ended: the trace time from which submitted IOs
 * are fio's (later than every submission so far), for the footer.
 */
void nv_trace_ramp_end(struct nv_data *ld);

#endif
