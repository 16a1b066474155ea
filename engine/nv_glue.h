/*
 * nv_glue.h - state shared by the engine's fio glue files (engine/fio_*.c).
 * Needs fio's headers; not for the pure code in libnvcore.
 */
#ifndef NV_GLUE_H
#define NV_GLUE_H

#include <stdint.h>
#include <sys/uio.h>
#include <liburing.h>

#include "fio.h"
#include "engine/nv_target.h"

/* Per-file engine state: what kind of target the file is. */
struct nv_file {
	enum nv_target_kind kind;
	unsigned int index;		/* position in the job's file list */
};

/* Per-thread engine state (td->io_ops_data). */
struct nv_data {
	struct io_uring ring;
	int ring_ok;			/* ring set up (and must be torn down) */
	unsigned int ring_flags;	/* IORING_SETUP_* the ring really has */
	unsigned int depth;		/* ring depth (power of two >= iodepth) */
	unsigned int iodepth;		/* the job's iodepth before rounding */

	struct io_u **io_u_index;	/* io_u by index, for fixed buffers */
	struct iovec *iovecs;		/* per io_u iovec (vectored / fixedbufs) */
	int *fds;			/* registered files */

	unsigned int queued;		/* SQEs filled, not yet submitted */
	unsigned int inflight;		/* submitted, not yet reaped */
	unsigned int prepped;		/* force_async counter */
	int warned_poll;		/* hipri hint already printed */

	struct io_u **pending;		/* filled SQEs in ring order, not submitted */
	struct io_u **events;		/* completions reaped by getevents() */
	unsigned int nr_events;

	uint64_t *submit_ns;		/* per io_u index: submission time */
	uint16_t *submit_qd;		/* per io_u index: depth at submission */
};

static inline struct nv_file *nv_file_of(struct fio_file *f)
{
	return FILE_ENG_DATA(f);
}

/* engine/fio_nvme.c: NVMe generic char devices (passthrough). */
int nv_nvme_ns_id(int fd);
int nv_nvme_file_setup(struct thread_data *td, struct fio_file *f, struct nv_file *nf);
int nv_nvme_get_file_size(struct thread_data *td, struct fio_file *f);

/* engine/fio_trace.c: the per-IO trace. */
int nv_trace_open(struct thread_data *td, struct nv_data *ld);
void nv_trace_completions(struct thread_data *td, struct nv_data *ld);
void nv_trace_sync_completion(struct thread_data *td, struct nv_data *ld, struct io_u *io_u);
void nv_trace_close(struct thread_data *td, struct nv_data *ld);

#endif
