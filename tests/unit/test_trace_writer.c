/*
 * test_trace_writer.c - the trace writer under errors and load: a full disk,
 * files it cannot open, appends in place, back-pressure with tiny chunks,
 * fdatasync, a block half written when the disk fills, its thread's class.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_roundtrip.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

TEST(enospc_sticky)
{
	struct nvt_writer_opts o = { .block_records = 16 };
	struct nvt_writer *w;
	struct nvt_record rec = { 1, 2, 0, 4096, 0, 1, 0, 0 };
	char msg[256];
	int err = 0;

	if (access("/dev/full", W_OK)) {
		printf("SKIP: test_trace/enospc_sticky (no /dev/full)\n");
		return;
	}
	CHECK_EQ_I64(nvt_writer_open(&w, "/dev/full", hdr_kv, 5, &o), 0);
	for (int i = 0; i < 100000 && !err; i++)
		err = nvt_writer_append(w, &rec);
	CHECK_EQ_I64(err, -ENOSPC);
	CHECK_STR(nvt_writer_strerror(w), "write /dev/full: No space left on device");
	CHECK_EQ_I64(nvt_writer_append(w, &rec), -ENOSPC);	/* sticky */
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -ENOSPC);
	CHECK_STR(msg, "write /dev/full: No space left on device");
}

TEST(open_errors)
{
	struct nvt_writer *w = (struct nvt_writer *)1;
	struct nvt_writer_opts bad = { .zlevel = 10 };
	struct nvt_kv badkv[] = { { "", "x" } };
	struct nvt_record r = { 0 };

	CHECK_EQ_I64(nvt_writer_open(&w, "/nonexistent-dir/x.nvt", NULL, 0, NULL), -ENOENT);
	CHECK(w == NULL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), NULL, 0, &bad), -EINVAL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), badkv, 1, NULL), -EINVAL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), NULL, 0, NULL), 0);
	r.op = NVT_OP__MAX;
	CHECK_EQ_I64(nvt_writer_append(w, &r), -EINVAL);
	r.op = 0;
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	/* a bad footer kv is reported, and the records still land */
	CHECK_EQ_I64(nvt_writer_close(w, badkv, 1), -EINVAL);
	{
		int rc = 1;
		struct nvt_read_info info;

		CHECK_EQ_I64(read_compare(tpath("x.nvt"), &r, 1, &rc, &info), 1);
		CHECK_EQ_I64(rc, 0);
		CHECK_EQ_I64(info.footer, 1);
	}
}

/*
 * Records written in place (nvt_append_slot, as the engine does) read back
 * as written; a chunk is sealed when full and block_ns after its first
 * completion; a record with a bad op fails the writer when its block is
 * encoded, and the slots then say so.
 */
TEST(append_slot_in_place)
{
	struct nvt_writer_opts o = { .block_records = 100, .block_ns = 70000 };
	struct nvt_record *want = malloc(20000 * sizeof(*want));
	const struct nvt_cols *c;
	struct nvt_appender *a;
	struct nvt_reader *rd;
	struct nvt_writer *w;
	unsigned full = 0, timed = 0;
	char msg[256];
	struct gen g;
	int rc = 1;

	CHECK(want != NULL);
	if (!want)
		return;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("slot.nvt"), hdr_kv, 5, &o), 0);
	a = nvt_writer_appender(w);
	gen_init(&g, GEN_MIXED, 32, 11);
	for (size_t i = 0; i < 20000; i++) {
		struct nvt_record *slot;

		gen_record(&g, &want[i]);
		slot = nvt_append_slot(a, want[i].complete_ns);
		CHECK(slot != NULL);
		if (!slot)
			break;
		*slot = want[i];
	}
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(read_compare(tpath("slot.nvt"), want, 20000, &rc, NULL), 20000);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(nvt_reader_open(&rd, tpath("slot.nvt")), 0);
	while (nvt_reader_next_cols(rd, 0, &c) == 1) {
		CHECK(c->n <= 100);
		CHECK(c->max_complete_ns - c->complete_ns[0] < 70000);
		full += c->n == 100;
		timed += c->n < 100;
	}
	nvt_reader_close(rd);
	printf("info: in-place blocks: %u full, %u sealed by time\n", full, timed);
	CHECK(full > 0 && timed > 1);

	/* a bad op, written in place: caught by the writer thread, sticky */
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("slotbad.nvt"), NULL, 0, &o), 0);
	a = nvt_writer_appender(w);
	for (size_t i = 0; i < 20000; i++) {
		struct nvt_record *slot = nvt_append_slot(a, want[i].complete_ns);

		if (!slot)
			break;
		*slot = want[i];
		if (i == 150)
			slot->op = NVT_OP__MAX;
	}
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EINVAL);
	CHECK(strstr(msg, "encode block for") && strstr(msg, "slotbad.nvt"));
	free(want);
}

/* Tiny chunks, two of them: the appender must wait for the writer thread. */
TEST(backpressure_tiny_chunks)
{
	struct nvt_writer_opts o = { .block_records = 3, .nchunks = 2, .zlevel = 9 };
	struct nvt_record *want = NULL;
	struct nvt_read_info info;
	int rc = 0;

	CHECK_EQ_I64(write_trace(tpath("bp.nvt"), GEN_MIXED, 16, 5, 30000, &o, &want), 0);
	CHECK_EQ_I64(read_compare(tpath("bp.nvt"), want, 30000, &rc, &info), 30000);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_U64(info.blocks, 10000);
	free(want);
}

/* The appender really waits when the writer thread is behind, and counts it. */
TEST(backpressure_waits)
{
	struct nvt_writer_opts o = { .block_records = 1, .nchunks = 2, .zlevel = 9 };
	struct nvt_writer *w;
	struct nvt_record r = { 0 };
	struct nvt_read_info info;
	uint64_t waits;
	int rc = 1;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("wait.nvt"), NULL, 0, &o), 0);
	for (int i = 0; i < 20000; i++) {
		r.submit_ns = (uint64_t)i * 10;
		r.complete_ns = r.submit_ns + 5;
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	}
	waits = nvt_writer_waits(w);
	printf("backpressure: %" PRIu64 " waits in 20000 appends\n", waits);
	CHECK(waits > 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	read_compare(tpath("wait.nvt"), NULL, 0, &rc, &info);
	CHECK_EQ_U64(info.records, 20000);
	/* the footer has the count and the time the waits took */
	CHECK_EQ_U64(footer_u64(tpath("wait.nvt"), "writer.io_waits"), waits);
	CHECK(footer_u64(tpath("wait.nvt"), "writer.io_wait_ns") > 0);
}

/*
 * sync_ms: a block written while appends pause is synced within sync_ms
 * (the writer does not wait for the next block), syncs are at least sync_ms
 * apart, the footer says how many; 0 never syncs; too large is refused.
 */
TEST(writer_sync)
{
	struct nvt_writer_opts o = { .block_records = 16, .sync_ms = 20 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct timespec t0, t1;
	struct nvt_writer *w;
	uint64_t syncs, ms;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sync.nvt"), NULL, 0, &o), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 16 * 10; i++) {
		r.submit_ns = (uint64_t)i * 10;
		r.complete_ns = r.submit_ns + 5;
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
		if (i % 16 == 15)
			usleep(50000);	/* a block is sealed at the next append: 10 blocks */
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	ms = (uint64_t)(((int64_t)t1.tv_sec - t0.tv_sec) * 1000 +
			(t1.tv_nsec - t0.tv_nsec) / 1000000);
	syncs = footer_u64(tpath("sync.nvt"), "writer.syncs");
	printf("info: sync: %" PRIu64 " syncs in %" PRIu64 " ms at sync_ms=20\n", syncs, ms);
	CHECK(syncs >= 2);	/* a block every 50 ms, each synced: 10 when idle */
	CHECK(syncs <= ms / 20 + 2);	/* never more often than every 20 ms */
	CHECK_EQ_U64(footer_u64(tpath("sync.nvt"), "writer.sync_ms"), 20);

	o.sync_ms = 0;
	CHECK_EQ_I64(write_trace(tpath("nosync.nvt"), GEN_RANDREAD, 8, 1, 1000, &o, NULL), 0);
	CHECK_EQ_U64(footer_u64(tpath("nosync.nvt"), "writer.syncs"), 0);
	o.sync_ms = NVT_MAX_SYNC_MS + 1;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sync.nvt"), NULL, 0, &o), -EINVAL);
}

/*
 * A block cut short by a full disk (here RLIMIT_FSIZE: write(2) stores what
 * fits, then fails) is cut off again: the job's error says how far it got,
 * the file ends at the last complete block and reads back cleanly,
 * truncated, no byte unusable and no damage.
 */
TEST(half_written_block)
{
	struct nvt_writer_opts o = { .block_records = 4096 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct rlimit old;
	struct nvt_read_info info;
	struct nvt_writer *w;
	char msg[512];
	struct stat st;
	int rc = 1;
	long got;

	/* a few blocks of 4096 scattered records fit, the next one is cut */
	CHECK_EQ_I64(disk_fills_at(100000, &old), 0);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("half.nvt"), hdr_kv, 5, &o), 0);
	CHECK_EQ_I64(append_until_error(w, &r), -EFBIG);
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	printf("info: half_written_block: %s\n", msg);
	CHECK(strstr(msg, "half written") != NULL);
	CHECK(strstr(msg, "cut off, the file ends after its") != NULL);
	got = read_compare(tpath("half.nvt"), NULL, 0, &rc, &info);
	CHECK_EQ_I64(rc, 0);
	CHECK(got > 0 && got % 4096 == 0);
	CHECK_EQ_U64(info.unused_bytes, 0);
	CHECK_EQ_I64(info.truncated, 1);
	CHECK_EQ_I64(stat(tpath("half.nvt"), &st), 0);
	CHECK_EQ_U64((uint64_t)st.st_size, info.used_bytes);
}

/* The writer thread is named, runs SCHED_IDLE when asked and only then;
 * an unknown class is refused. */
TEST(writer_sched)
{
	struct nvt_writer_opts o = { .sched = NVT_SCHED_IDLE };
	struct nvt_writer *w;
	struct nvt_record r = { .submit_ns = 1, .complete_ns = 2, .length = 4096, .qd = 1 };
	pid_t tid;
	int pol = -2;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	/* the thread sets its class first thing; give it a moment to start */
	for (int i = 0; i < 200 && pol != SCHED_IDLE; i++) {
		tid = thread_named("nvtrace-writer");
		pol = tid > 0 ? sched_getscheduler(tid) : -1;
		if (pol != SCHED_IDLE)
			usleep(5000);
	}
	CHECK_EQ_I64(pol, SCHED_IDLE);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(thread_named("nvtrace-writer"), -1);

	o.sched = NVT_SCHED_NORMAL;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), 0);
	tid = -1;
	for (int i = 0; i < 200 && tid < 0; i++) {
		tid = thread_named("nvtrace-writer");
		if (tid < 0)
			usleep(5000);
	}
	CHECK(tid > 0);
	CHECK_EQ_I64(sched_getscheduler(tid), sched_getscheduler(0));
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);

	o.sched = (enum nvt_writer_sched)7;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), -EINVAL);
}

int main(void)
{
	if (tmpdir_make("test_trace_writer"))
		return 1;
	RUN(enospc_sticky);
	RUN(open_errors);
	RUN(append_slot_in_place);
	RUN(backpressure_tiny_chunks);
	RUN(backpressure_waits);
	RUN(writer_sync);
	RUN(half_written_block);
	RUN(writer_sched);
	tmpdir_remove();
	return check_summary();
}
