/*
 * test_trace_sync.c - what the trace writer syncs, and when.
 *
 * This program defines fdatasync() and fsync() itself (the library is linked
 * statically, so the writer calls these), records each call (the file's
 * size at a data sync; whether the fd is a directory at an fsync), then
 * passes it on to the kernel.  The cases: the directory entry of a new trace
 * is synced, and after a sticky write error (a disk that fills part way
 * through a block) the complete blocks and the truncation are still synced.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "trace/nvtrace.h"

static char tmpdir[256];

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

static const char *tpath(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	return p;
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
	struct rlimit old, lim;
	struct nvt_writer *w;
	struct stat st;
	int err = 0;

	counts_reset();
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 100000;
	CHECK_EQ_I64(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("full.nvt"), NULL, 0, &o), 0);
	for (int i = 0; i < 1000000 && !err; i++) {
		r.submit_ns = (uint64_t)i * 1000;
		r.complete_ns = r.submit_ns + 500 + (uint64_t)i * 7919 % 1000;
		r.offset = (uint64_t)i * 104729 % 262144 * 4096;
		err = nvt_writer_append(w, &r);
	}
	CHECK_EQ_I64(err, -EFBIG);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_I64(stat(tpath("full.nvt"), &st), 0);
	CHECK_EQ_U64(atomic_load(&datasyncs), 1);
	CHECK_EQ_I64(atomic_load(&datasync_size), (long long)st.st_size);
	CHECK(st.st_size > 0 && st.st_size < 100000);
}

int main(void)
{
	const char *base = getenv("TESTTMP");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_trace_sync.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(dir_synced);
	RUN(synced_after_error);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	return check_summary();
}
