/*
 * test_trace_wait.c - the finding when tracing held the IO loop names the
 * cause the footer shows (disk, CPU or both, with the seconds), and the
 * disturbance line is there below the finding's threshold too.
 * The rule for a trace older than the writer-time keys (its CPU time against
 * the wait) is unchanged; today's writer cannot write such a trace.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analyze/stats/trace_wait.h"
#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"

/*
 * A one-record trace of 10 s traced time whose header ends with the nx
 * pairs of extra and whose footer starts with kv.
 */
static struct nvt_reader *trace_with_hdr(const char *name, const struct nvt_kv *extra, size_t nx,
					 const struct nvt_kv *kv, size_t n)
{
	struct nvt_record rec = { .submit_ns = 1, .complete_ns = 2, .length = 4096, .qd = 1 };
	struct nvt_kv foot[8], hdr[4] = { { "clock.monotonic_ns", "1000000000" } };
	struct nvt_reader *r = NULL;
	struct nvt_writer *w;
	const char *path = tpath(name);

	if (nx)	/* extra may be NULL then: memcpy's arguments must not be */
		memcpy(hdr + 1, extra, nx * sizeof(*extra));
	foot[0] = (struct nvt_kv){ "clock.end_monotonic_ns", "11000000000" };
	memcpy(foot + 1, kv, n * sizeof(*kv));
	if (nvt_writer_open(&w, path, hdr, nx + 1, NULL) || nvt_writer_append(w, &rec) ||
	    nvt_writer_close(w, foot, n + 1) || nvt_reader_open(&r, path))
		return NULL;
	return r;
}

/* A one-record trace of 10 s traced time whose footer starts with kv. */
static struct nvt_reader *trace_with(const char *name, const struct nvt_kv *kv, size_t n)
{
	return trace_with_hdr(name, NULL, 0, kv, n);
}

/* The finding of a trace with these writer times (seconds); "" if none. */
static const char *finding(const char *name, const char *wait, const char *write,
			   const char *sync, const char *runq)
{
	static char line[512];
	struct nvt_kv kv[] = {
		{ "writer.io_wait_ns", wait }, { "writer.io_waits", "7" },
		{ "writer.cpu_ns", "100000000" }, { "writer.write_ns", write },
		{ "writer.fdatasync_ns", sync }, { "writer.runq_wait_ns", runq },
	};
	struct nvt_reader *r = trace_with(name, kv, 6);

	line[0] = 0;
	if (!r)
		return "(no trace)";
	if (nv_trace_wait_finding(r, 0, line, sizeof(line)) != 1)
		line[0] = 0;
	nvt_reader_close(r);
	return line;
}

TEST(cause_named)
{
	const char *f;

	f = finding("cpu.nvt", "2000000000", "10000000", "0", "1500000000");
	printf("info: trace_wait: %s\n", f);
	CHECK(strstr(f, "tracing held the IO loop for 2.0 s of 10.0 s (20.0%, 7 waits)") != NULL);
	CHECK(strstr(f, "the trace writer was denied CPU (1.50 s waiting for one, "
		      "0.01 s in write/fdatasync") != NULL);

	f = finding("disk.nvt", "2000000000", "1200000000", "600000000", "3000000");
	CHECK(strstr(f, "the trace directory's disk is too slow for the trace (the writer "
		      "spent 1.80 s in write/fdatasync, 0.00 s waiting for a CPU)") != NULL);

	f = finding("both.nvt", "2000000000", "900000000", "0", "1000000000");
	CHECK(strstr(f, "both the trace directory's disk (the writer spent 0.90 s in "
		      "write/fdatasync) and the CPU (1.00 s waiting for one)") != NULL);

	CHECK_STR(finding("small.nvt", "50000000", "0", "0", "40000000"), "");
	CHECK(strstr(finding("nosync.nvt", "2000000000", "900000000", "0", "0"),
		     "its longest fdatasync") == NULL);
}

/* A disk cause names the longest fdatasync where the footer has one (not 0). */
TEST(longest_fdatasync_named)
{
	struct nvt_kv kv[] = {
		{ "writer.io_wait_ns", "2000000000" }, { "writer.io_waits", "3" },
		{ "writer.write_ns", "10000000" }, { "writer.fdatasync_ns", "2600000000" },
		{ "writer.runq_wait_ns", "0" }, { "writer.fdatasync_max_ns", "1300000000" },
	};
	struct nvt_reader *r = trace_with("maxsync.nvt", kv, 6);
	char line[512] = "";

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_I64(nv_trace_wait_finding(r, 0, line, sizeof(line)), 1);
	CHECK(strstr(line, "the trace directory's disk is too slow for the trace (the writer "
		     "spent 2.61 s in write/fdatasync, 0.00 s waiting for a CPU), its longest "
		     "fdatasync 1.30 s;") != NULL);
	nvt_reader_close(r);
}

TEST(summary_below_threshold)
{
	struct nvt_kv kv[] = {
		{ "writer.io_wait_ns", "50000000" }, { "writer.io_waits", "1" },
		{ "writer.ring_high", "3" }, { "writer.ring_chunks", "4" },
		{ "writer.cpu_ns", "31" },
	};
	struct nvt_reader *r = trace_with("sum.nvt", kv, 5);
	char line[256] = "";

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_I64(nv_trace_wait_finding(r, 0, line, sizeof(line)), 0);
	CHECK_EQ_I64(nv_trace_wait_summary(r, 0, line, sizeof(line)), 1);
	CHECK_STR(line, "IO loop held by tracing 0.500% of 10.0 s (1 wait), "
		  "trace ring high-water 3 of 4 chunks, writer 31 ns CPU per record");
	nvt_reader_close(r);
}

/*
 * A job's traces together: waits and traced time summed, the fullest ring
 * (5 of 40 is less full than 3 of 4 by share), the writer's CPU over every
 * record.
 */
TEST(disturb_of_a_job)
{
	struct nvt_kv a[] = {
		{ "writer.io_wait_ns", "0" }, { "writer.io_waits", "0" },
		{ "writer.ring_high", "3" }, { "writer.ring_chunks", "4" },
		{ "writer.cpu_ns", "40" },
	}, b[] = {
		{ "writer.io_wait_ns", "20000000" }, { "writer.io_waits", "2" },
		{ "writer.ring_high", "5" }, { "writer.ring_chunks", "40" },
		{ "writer.cpu_ns", "20" },
	};
	struct nvt_reader *ra = trace_with("ja.nvt", a, 5), *rb = trace_with("jb.nvt", b, 5);
	struct nv_trace_disturb d = { 0 };
	char line[256] = "";

	CHECK(ra && rb);
	if (!ra || !rb)
		goto out;
	CHECK_EQ_I64(nv_trace_disturb_add(ra, 0, &d), 1);
	CHECK_EQ_I64(nv_trace_disturb_add(rb, 0, &d), 1);
	CHECK_EQ_U64(d.traces, 2);
	CHECK_EQ_U64(d.traced_ns, 20000000000ull);
	CHECK_EQ_U64(d.ring_high, 3);
	nv_trace_disturb_line(&d, line, sizeof(line));
	CHECK_STR(line, "IO loop held by tracing 0.100% of 20.0 s, 2 traces' time summed "
		  "(2 waits), "
		  "trace ring high-water 3 of 4 chunks, writer 30 ns CPU per record");
out:
	nvt_reader_close(ra);
	nvt_reader_close(rb);
}

/*
 * io-wq IO of a fio job process under autogroup: the tracing line warns that
 * the writer can stall it only when the writer was a thread of that process
 * (older engines); a writer in a session of its own (writer.process =
 * own-session) was outside the job's group: no warning.
 */
TEST(iowq_note_only_for_a_writer_in_the_group)
{
	static const struct nvt_kv job[] = {
		{ "job.thread", "0" }, { "kernel.sched_autogroup", "1" },
	};
	struct nvt_kv in_group[] = { { "iowq.workers", "2" } }, own[] = {
		{ "iowq.workers", "2" }, { "writer.process", "own-session" },
	};
	struct nvt_reader *ra = trace_with_hdr("grp.nvt", job, 2, in_group, 1);
	struct nvt_reader *rb = trace_with_hdr("own.nvt", job, 2, own, 2);
	struct nv_trace_disturb da = { 0 }, db = { 0 };
	char line[512] = "";

	CHECK(ra && rb);
	if (!ra || !rb)
		goto out;
	CHECK_EQ_I64(nv_trace_disturb_add(ra, 0, &da), 1);
	CHECK_EQ_I64(nv_trace_disturb_add(rb, 0, &db), 1);
	CHECK_EQ_U64(da.grouped, 1);
	CHECK_EQ_U64(db.grouped, 0);
	nv_trace_disturb_line(&da, line, sizeof(line));
	CHECK(strstr(line, "; the IO of 1 of 1 traces ran on io-wq workers of a fio job process "
		  "under autogroup") != NULL);
	nv_trace_disturb_line(&db, line, sizeof(line));
	CHECK(strstr(line, "io-wq") == NULL);
out:
	nvt_reader_close(ra);
	nvt_reader_close(rb);
}

int main(void)
{
	if (tmpdir_make("test_trace_wait"))
		return 1;
	RUN(cause_named);
	RUN(summary_below_threshold);
	RUN(disturb_of_a_job);
	RUN(longest_fdatasync_named);
	RUN(iowq_note_only_for_a_writer_in_the_group);
	tmpdir_remove();
	return check_summary();
}
