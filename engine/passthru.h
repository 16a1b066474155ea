/*
 * passthru.h - the NVMe passthrough part of the engine (engine/passthru.c):
 * NVMe generic char devices (/dev/ngXnY) through IORING_OP_URING_CMD.
 *
 * Called by the hooks (engine/hooks*.c) only; it calls nothing else of the
 * engine.  It keeps its own per-thread state (struct nv_passthru) and
 * returns results: the hooks record completions and trace them.
 */
#ifndef NV_PASSTHRU_H
#define NV_PASSTHRU_H

#include <stdint.h>
#include <sys/uio.h>
#include <liburing.h>

#include "engine/nv_glue.h"
#include "trace/nvtrace_kv.h"

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

/* SQE owners and CQE user_data hold io_us, or batches tagged with bit 0. */
#define NV_BATCH_TAG		((uintptr_t)1)
static inline void *nv_batch_tag(struct nv_dsm_batch *b)
{
	return (void *)((uintptr_t)b | NV_BATCH_TAG);
}
static inline struct nv_dsm_batch *nv_batch_of(void *p)
{
	if (!((uintptr_t)p & NV_BATCH_TAG))
		return NULL;
	return (struct nv_dsm_batch *)((uintptr_t)p & ~NV_BATCH_TAG);
}

/* Per-thread passthrough state (in the hooks' per-thread state; zeroed, then depth set). */
struct nv_passthru {
	unsigned int depth;		/* io_u slots: the ring's depth */
	void **md_bufs;			/* per io_u index: separate metadata buffer */
	uint32_t md_len;		/* bytes of each md buffer */
	void *dsm;			/* per io_u index: one DSM range (16 bytes) */
	struct nv_dsm_batch *batches;	/* [depth] when trim_ranges > 1 */
	struct nv_dsm_batch *batch_free;
	struct nv_dsm_batch *batch_open;	/* collecting trims, no SQE yet */
	unsigned int errors_logged;	/* NVMe failures printed in full */
};

/*
 * Check the passthrough options once per job (init) and parse the strings
 * into o->write_opc, o->prchk and o->write_nvt_op (what the trace records
 * for a passthrough write).  Return: 0, or 1 with the error reported.
 */
int nv_nvme_check_options(struct thread_data *td);

/*
 * The size of the NVMe char device @f from Identify Namespace (stat()
 * reports none); sets f->real_file_size.  Return: 0; 1 with the error
 * reported; -ENOTTY (not reported) when @f is no NVMe char device.
 */
int nv_nvme_get_file_size(struct thread_data *td, struct fio_file *f);

/*
 * Set up the opened file @f of kind nf->kind: for an NVMe char device
 * identify it, check the job against it, refuse writes to a mounted
 * namespace, allocate metadata and DSM buffers into @pt; for other targets
 * refuse cmd_type=nvme.  Return: 0; 1 with the error reported; -ENOTTY
 * (not reported) when the char device turns out to be no NVMe namespace.
 */
int nv_nvme_file_setup(struct thread_data *td, struct nv_passthru *pt, struct fio_file *f,
		       struct nv_file *nf);

/*
 * Add what is known of file @i (@f) to @l: with @when "" its identity (model,
 * serial, firmware, LBA format) and SMART log as "file.I.smart.before.*";
 * with "after" the SMART log again as "file.I.smart.after.*".  Nothing for
 * targets that are not NVMe.  Return: nothing (l->oom on allocation failure).
 */
void nv_nvme_describe(struct thread_data *td, struct fio_file *f, unsigned int i,
		      struct nvt_kvlist *l, const char *when);

/*
 * The per-IO functions below take @nf, the state of @io_u's file (the hooks
 * look it up once per hook: nv_io_file()).
 * Per-IO checks before queueing on an NVMe char device.  Return: 0 or -errno (reported).
 */
int nv_nvme_prep(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		 struct io_u *io_u);

/*
 * Fill @sqe (128 bytes) for @io_u on an NVMe char device; @iov is the io_u's
 * iovec slot (vectored data).  Return: 0 or -errno.
 */
int nv_nvme_fill_sqe(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		     struct io_uring_sqe *sqe, struct io_u *io_u, struct iovec *iov);

/*
 * The result of passthrough @io_u completed with @res (0 or the NVMe
 * status, or -errno); reads are checked against host PI.  Failures are
 * logged (the first few in full) and set the job's error text.
 * Return: the positive errno for io_u->error, 0 on success.
 */
int nv_nvme_complete(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		     struct io_u *io_u, int res);

/*
 * Batched trims (trim_ranges > 1).  nv_nvme_trim_batch() adds @io_u to the
 * open batch (Return: 0, or -EBUSY when no batch is free).
 * nv_nvme_batch_flush() turns the open batch (if any) into @sqe's DSM
 * command (Return: the batch, NULL when none was open).  Once its command
 * completes the caller completes each of b->ios[0..n) and gives the batch
 * back with nv_nvme_batch_release() (Return: nothing).
 */
int nv_nvme_trim_batch(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		       struct io_u *io_u);
struct nv_dsm_batch *nv_nvme_batch_flush(struct thread_data *td, struct nv_passthru *pt,
					 struct io_uring_sqe *sqe);
void nv_nvme_batch_release(struct nv_passthru *pt, struct nv_dsm_batch *b);

/* Free the per-file NVMe state (and @nf).  Return: nothing. */
void nv_nvme_file_free(struct nv_file *nf);
/* Free the buffers of @pt (it can be set up again).  Return: nothing. */
void nv_nvme_cleanup(struct nv_passthru *pt);

#endif
