/*
 * sys_ring.h - the io_uring ring as the engine sets it up: the flags the
 * kernel takes (newer ones dropped one by one on an older kernel), why a
 * setup failed in words a user can act on, the opcode probe, the io-wq
 * worker limit and the ring's features for the trace header, and the
 * io-wq workers and the autogroup setting the trace records (docs/trace.md:
 * io-wq IO of a fio job process under autogroup stalls behind the writer).
 *
 * liburing and libc only (no fio): unit tested on the running kernel.  The
 * IO path uses the ring (struct io_uring) directly; nothing here is on it.
 */
#ifndef NV_SYS_RING_H
#define NV_SYS_RING_H

#include <stddef.h>
#include <sys/types.h>
#include <liburing.h>

/* What the job asks of its ring. */
struct nv_ring_opts {
	unsigned int depth;		/* SQ and CQ entries (a power of two) */
	int iopoll;			/* IORING_SETUP_IOPOLL (hipri) */
	int sqpoll;			/* IORING_SETUP_SQPOLL (sqthread_poll) */
	int sqpoll_cpu;			/* the SQ thread's CPU, -1: any */
	int big_sqe;			/* 128-byte SQEs, 32-byte CQEs (NVMe passthrough) */
};

/*
 * The io-wq workers of thread tid in this process now: the threads named
 * "iou-wrk-TID" (/proc/self/task/N/comm), which the kernel starts to run
 * the IO it cannot issue without blocking and keeps 5 s after their last.
 * Return: their number (0 or more), or -errno (/proc unreadable).
 */
int nv_ring_iowq_workers(pid_t tid);

/*
 * The kernel's autogroup scheduling: /proc/sys/kernel/sched_autogroup_enabled.
 * Return: 1 on, 0 off, -errno when unreadable (no such kernel option).
 */
int nv_sched_autogroup(void);

/* A ring and what the kernel gave it. */
struct nv_ring {
	struct io_uring ring;
	int ok;				/* set up (and must be torn down) */
	unsigned int flags;		/* IORING_SETUP_* the ring really has */
	int fd_registered;		/* io_uring_register_ring_fd() worked (5.18+) */
};

/*
 * Set up @r as @o asks.  Flags the kernel may not know (COOP_TASKRUN 5.19,
 * SINGLE_ISSUER/DEFER_TASKRUN 6.0/6.1, CQSIZE) are dropped one by one on
 * EINVAL, as fio's io_uring engine does; the flags asked for are not.
 * Then the ring's fd is registered where the kernel can (5.18+).
 * Return: 0, or -errno with the reason in @err (nv_ring_setup_why()).
 */
int nv_ring_setup(struct nv_ring *r, const struct nv_ring_opts *o, char *err, size_t len);

/*
 * Why io_uring_setup() failed with @err (a positive errno) for a ring with
 * @flags, with the fix: no io_uring, disabled by kernel.io_uring_disabled
 * (@disabled, the sysctl's value, -1 when absent), SQPOLL without
 * CAP_SYS_NICE, 128-byte SQEs before Linux 5.19.  Return: nothing.
 */
void nv_ring_setup_why(int err, unsigned int flags, int disabled, char *msg, size_t len);

/* /proc/sys/kernel/io_uring_disabled (Linux 6.6+).  Return: its value, -1 when absent. */
int nv_ring_disabled_sysctl(void);

/* Whether the kernel has IORING_OP_READ and IORING_OP_WRITE (5.6+).  Return: 1 or 0. */
int nv_ring_has_rw(struct nv_ring *r);

/*
 * Cap the ring's io-wq pools (bounded: regular file IO; unbounded: sockets,
 * pipes) at @n worker threads each, per NUMA node.  IO that cannot complete
 * inline (buffered reads that miss, force_async, tmpfs) runs on these
 * workers; the kernel starts more whenever one sleeps, up to 4 per CPU for
 * bounded work, and keeps them.  Return: 0, or -errno from the kernel
 * (-EINVAL before Linux 5.15).
 */
int nv_ring_limit_iowq(struct nv_ring *r, unsigned int n);

/*
 * The io_uring features @r really has, "A,B" (the setup flags the kernel
 * accepted, and REGISTERED_RING_FD), or "none", into @buf.  Return: nothing.
 */
void nv_ring_features(const struct nv_ring *r, char *buf, size_t len);

/* Tear @r down if it was set up (it can be set up again).  Return: nothing. */
void nv_ring_exit(struct nv_ring *r);

#endif
