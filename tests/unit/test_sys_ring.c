/*
 * Unit tests for sys/sys_ring.c: the engine's ring on the running kernel
 * (setup, probe, io-wq limit, features, io-wq workers, autogroup) and the
 * setup failures' messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sys_ring.h"
#include "tests/unit/check.h"

static int ring_skip;	/* the kernel has no usable io_uring here */

/* A plain ring comes up with the flags it asked for, one NOP goes round. */
TEST(setup_plain)
{
	struct nv_ring_opts o = { .depth = 8, .sqpoll_cpu = -1 };
	struct io_uring_cqe *cqe;
	struct nv_ring r;
	char err[256] = "", feat[160];

	CHECK_EQ_I64(nv_ring_setup(&r, &o, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	if (!r.ok)
		return;
	CHECK(!(r.flags & (IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL | IORING_SETUP_SQE128)));
	io_uring_prep_nop(io_uring_get_sqe(&r.ring));
	CHECK_EQ_I64(io_uring_submit_and_wait(&r.ring, 1), 1);
	CHECK_EQ_I64(io_uring_peek_cqe(&r.ring, &cqe), 0);
	nv_ring_features(&r, feat, sizeof(feat));
	CHECK(strcmp(feat, "none") == 0 || strstr(feat, "SQE128") == NULL);
	nv_ring_exit(&r);
	CHECK_EQ_I64(r.ok, 0);
	nv_ring_exit(&r);	/* twice: nothing */
}

/* Passthrough's ring has 128-byte SQEs (Linux 5.19+) and says so. */
TEST(setup_big_sqe)
{
	struct nv_ring_opts o = { .depth = 4, .sqpoll_cpu = -1, .big_sqe = 1 };
	struct nv_ring r;
	char err[256] = "", feat[160];
	int ret = nv_ring_setup(&r, &o, err, sizeof(err));

	if (ret == -EINVAL) {	/* before 5.19: the message says so */
		CHECK(strstr(err, "NVMe passthrough needs Linux 5.19+") != NULL);
		return;
	}
	CHECK_EQ_I64(ret, 0);
	CHECK(r.flags & IORING_SETUP_SQE128);
	CHECK(r.flags & IORING_SETUP_CQE32);
	nv_ring_features(&r, feat, sizeof(feat));
	CHECK(strstr(feat, "SQE128,CQE32") != NULL);
	nv_ring_exit(&r);
}

/* An impossible ring: -errno and a sentence, nothing to tear down. */
TEST(setup_refused)
{
	struct nv_ring_opts o = { .depth = 0, .sqpoll_cpu = -1 };
	struct nv_ring r;
	char err[256] = "";

	CHECK(nv_ring_setup(&r, &o, err, sizeof(err)) < 0);
	CHECK_EQ_I64(r.ok, 0);
	CHECK(strncmp(err, "io_uring_setup failed: ", 23) == 0);
}

TEST(probe_and_iowq)
{
	struct nv_ring_opts o = { .depth = 4, .sqpoll_cpu = -1 };
	struct nv_ring r;
	char err[256];
	int ret;

	CHECK_EQ_I64(nv_ring_setup(&r, &o, err, sizeof(err)), 0);
	if (!r.ok)
		return;
	/* READ/WRITE came in 5.6, SQE128 (which the engine needs anyway) in 5.19 */
	CHECK_EQ_I64(nv_ring_has_rw(&r), 1);
	ret = nv_ring_limit_iowq(&r, 2);
	CHECK(ret == 0 || ret == -EINVAL);
	nv_ring_exit(&r);
}

/*
 * A ring's IO punted to io-wq (IOSQE_ASYNC) starts a worker named after
 * this thread; none before; autogroup read as the sysctl says.
 */
TEST(iowq_workers_and_autogroup)
{
	struct nv_ring_opts o = { .depth = 4, .sqpoll_cpu = -1 };
	pid_t tid = (pid_t)syscall(SYS_gettid);
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct nv_ring r;
	char err[256];
	FILE *f;
	int c;

	CHECK_EQ_I64(nv_ring_iowq_workers(tid), 0);
	CHECK_EQ_I64(nv_ring_setup(&r, &o, err, sizeof(err)), 0);
	if (!r.ok)
		return;
	sqe = io_uring_get_sqe(&r.ring);
	io_uring_prep_nop(sqe);
	sqe->flags |= IOSQE_ASYNC;
	CHECK_EQ_I64(io_uring_submit_and_wait(&r.ring, 1), 1);
	CHECK_EQ_I64(io_uring_peek_cqe(&r.ring, &cqe), 0);
	CHECK(nv_ring_iowq_workers(tid) >= 1);
	CHECK_EQ_I64(nv_ring_iowq_workers(tid + 1000000), 0);	/* no such thread's */
	nv_ring_exit(&r);
	f = fopen("/proc/sys/kernel/sched_autogroup_enabled", "r");
	c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	if (c == '0' || c == '1')
		CHECK_EQ_I64(nv_sched_autogroup(), c - '0');
	else
		CHECK(nv_sched_autogroup() < 0);
}

TEST(features_text)
{
	struct nv_ring r;
	char buf[160];

	memset(&r, 0, sizeof(r));
	nv_ring_features(&r, buf, sizeof(buf));
	CHECK_STR(buf, "none");
	r.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32 | IORING_SETUP_DEFER_TASKRUN;
	r.fd_registered = 1;
	nv_ring_features(&r, buf, sizeof(buf));
	CHECK_STR(buf, "SQE128,CQE32,DEFER_TASKRUN,REGISTERED_RING_FD");
	r.fd_registered = 0;
	nv_ring_features(&r, buf, 8);	/* cut, still terminated */
	CHECK_EQ_U64(strlen(buf), 7);
}

TEST(setup_why_messages)
{
	char m[256];

	nv_ring_setup_why(ENOSYS, 0, -1, m, sizeof(m));
	CHECK(strstr(m, "this kernel has no io_uring") != NULL);
	nv_ring_setup_why(EPERM, 0, 2, m, sizeof(m));
	CHECK(strstr(m, "kernel.io_uring_disabled=2); set it to 0") != NULL);
	CHECK(strstr(m, "io_uring_group") == NULL);
	nv_ring_setup_why(EPERM, 0, 1, m, sizeof(m));
	CHECK(strstr(m, "or run as a member of kernel.io_uring_group") != NULL);
	nv_ring_setup_why(EPERM, IORING_SETUP_SQPOLL, 0, m, sizeof(m));
	CHECK(strstr(m, "sqthread_poll needs CAP_SYS_NICE") != NULL);
	nv_ring_setup_why(EINVAL, IORING_SETUP_SQE128, -1, m, sizeof(m));
	CHECK(strstr(m, "needs Linux 5.19+") != NULL);
	nv_ring_setup_why(ENOMEM, 0, -1, m, sizeof(m));
	CHECK_STR(m, "io_uring_setup failed: Cannot allocate memory");
}

int main(void)
{
	struct io_uring probe;
	int ret = io_uring_queue_init(2, &probe, 0);

	if (ret == -ENOSYS || ret == -EPERM)
		ring_skip = 1;
	else if (!ret)
		io_uring_queue_exit(&probe);
	RUN(features_text);
	RUN(setup_why_messages);
	if (ring_skip) {
		printf("SKIP: test_sys_ring/kernel_rings (io_uring_setup: %s)\n", strerror(-ret));
		return check_summary();
	}
	RUN(setup_plain);
	RUN(setup_big_sqe);
	RUN(setup_refused);
	RUN(probe_and_iowq);
	RUN(iowq_workers_and_autogroup);
	return check_summary();
}
