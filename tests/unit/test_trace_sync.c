/*
 * test_trace_sync.c - what the trace writer syncs, and when.
 *
 * This program defines fdatasync() and fsync() itself (the library is linked
 * statically, so the writer calls these), records each call (the file's
 * size at a data sync; whether the fd is a directory at an fsync), then
 * passes it on to the kernel.  The cases: the directory entry of a new trace
 * is synced, and after a sticky write error (a disk that fills part way
 * through a block) the complete blocks and the truncation are still synced.
 * It also defines write(), held shut while a case asks, to fall the writer
 * behind without any timing: nv_trace_sched=auto then promotes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"

static atomic_uint datasyncs;		/* fdatasync calls */
static atomic_llong datasync_size;	/* st_size of the file at the last one */
static atomic_uint dir_fsyncs;		/* fsync calls on a directory */

int fdatasync(int fd)
{
	struct stat st;

	if (!fstat(fd, &st))
		atomic_store(&datasync_size, (long long)st.st_size);
	atomic_fetch_add(&datasyncs, 1);
	return (int)syscall(SYS_fdatasync, fd);
}

int fsync(int fd)
{
	struct stat st;

	if (!fstat(fd, &st) && S_ISDIR(st.st_mode))
		atomic_fetch_add(&dir_fsyncs, 1);
	return (int)syscall(SYS_fsync, fd);
}

static atomic_int write_held;		/* write() waits while set */

ssize_t write(int fd, const void *buf, size_t n)
{
	while (atomic_load(&write_held))
		usleep(1000);
	return (ssize_t)syscall(SYS_write, fd, buf, n);
}

/* The policy of thread tid once it is want, polling; the last one seen. */
static int policy_becomes(pid_t tid, int want)
{
	int pol = -1;

	for (int i = 0; i < 2000 && pol != want; i++) {
		pol = sched_getscheduler(tid);
		if (pol != want)
			usleep(1000);
	}
	return pol;
}

static void counts_reset(void)
{
	atomic_store(&datasyncs, 0);
	atomic_store(&datasync_size, -1);
	atomic_store(&dir_fsyncs, 0);
}

/* With nv_trace_sync the new file's directory is synced; without, nothing is. */
TEST(dir_synced)
{
	struct nvt_writer_opts o = { .sync_ms = 1000 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct nvt_writer *w;

	counts_reset();
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("dir.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(atomic_load(&dir_fsyncs), 1);

	counts_reset();
	o.sync_ms = 0;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("nodir.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(atomic_load(&dir_fsyncs), 0);
	CHECK_EQ_U64(atomic_load(&datasyncs), 0);
}

/*
 * A disk that fills part way through a block (RLIMIT_FSIZE: write(2) stores
 * what fits, then fails): with a sync period far longer than the run, the
 * only sync is the one after the error, and it sees the file already cut
 * back to its complete blocks.
 */
TEST(synced_after_error)
{
	struct nvt_writer_opts o = { .block_records = 4096, .sync_ms = 3600000 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct rlimit old;
	struct nvt_writer *w;
	struct stat st;

	counts_reset();
	CHECK_EQ_I64(disk_fills_at(100000, &old), 0);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("full.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(append_until_error(w, &r), -EFBIG);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_I64(stat(tpath("full.nvt"), &st), 0);
	CHECK_EQ_U64(atomic_load(&datasyncs), 1);
	CHECK_EQ_I64(atomic_load(&datasync_size), (long long)st.st_size);
	CHECK(st.st_size > 0 && st.st_size < 100000);
}

/*
 * nv_trace_sched=auto: SCHED_IDLE while the ring is near empty; with the
 * writer stuck in write(2) and half the chunks sealed, the IO thread
 * promotes it to SCHED_OTHER; drained, it is SCHED_IDLE again.  The footer
 * counts the promotion and the ring's high-water mark.
 */
TEST(auto_promotes)
{
	struct nvt_writer_opts o = { .block_records = 16, .sched = NVT_SCHED_AUTO };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct nvt_writer *w;
	pid_t tid = -1;

	if (geteuid()) {
		printf("SKIP: test_trace_sync/auto_promotes (not root: SCHED_IDLE is one way)\n");
		return;
	}
	atomic_store(&write_held, 1);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("auto.nvt"), NULL, 0, &o), 0);
	for (int i = 0; i < 2000 && tid < 0; i++) {
		tid = thread_named("nvtrace-writer");
		if (tid < 0)
			usleep(1000);
	}
	CHECK_EQ_I64(policy_becomes(tid, SCHED_IDLE), SCHED_IDLE);
	for (int i = 0; i < 16 + 1; i++)	/* one chunk sealed: a quarter of the ring */
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	CHECK_EQ_I64(sched_getscheduler(tid), SCHED_IDLE);
	for (int i = 0; i < 16; i++)		/* two: half of it */
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	CHECK_EQ_I64(sched_getscheduler(tid), SCHED_OTHER);
	atomic_store(&write_held, 0);
	CHECK_EQ_I64(policy_becomes(tid, SCHED_IDLE), SCHED_IDLE);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(footer_u64(tpath("auto.nvt"), "writer.promotions"), 1);
	CHECK(footer_u64(tpath("auto.nvt"), "writer.ring_high") >= 2);
	CHECK_EQ_U64(footer_u64(tpath("auto.nvt"), "writer.ring_chunks"), 4);
}

int main(void)
{
	if (tmpdir_make("test_trace_sync"))
		return 1;
	RUN(dir_synced);
	RUN(synced_after_error);
	RUN(auto_promotes);
	tmpdir_remove();
	return check_summary();
}
