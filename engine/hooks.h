/*
 * hooks.h - the hooks' own state and the hooks of engine/hooks_io.c and
 * engine/hooks_files.c, private to the hooks (engine/hooks*.c): the parts
 * (passthru.c, trace_hook.c) never include it.  engine/hooks.c holds the
 * ops table fio loads; each hook's contract is the comment on its definition.
 */
#ifndef NV_HOOKS_H
#define NV_HOOKS_H

#include <liburing.h>

#include "fio.h"

#include "engine/passthru.h"
#include "engine/trace_hook.h"
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

/* engine/hooks_io.c: submission and completion (fio hooks; see each definition). */
int nv_prep(struct thread_data *td, struct io_u *io_u);
enum fio_q_status nv_queue(struct thread_data *td, struct io_u *io_u);
int nv_commit(struct thread_data *td);
int nv_getevents(struct thread_data *td, unsigned int min, unsigned int max,
		 const struct timespec *t);
struct io_u *nv_event(struct thread_data *td, int event);

/* engine/hooks_files.c: the job's files (fio hooks; see each definition). */
/* fio's generic_open_file(), an NVMe char device without O_DIRECT.  Return: 0 or an error. */
int nv_generic_open(struct thread_data *td, struct fio_file *f);
int nv_open_file(struct thread_data *td, struct fio_file *f);
int nv_close_file(struct thread_data *td, struct fio_file *f);
int nv_get_file_size(struct thread_data *td, struct fio_file *f);

#endif
