/*
 * test_trace_name.c - the trace file naming rule DIR/JOB.THREAD.nvt
 * (trace/nvtrace_name.c), case by case as docs/trace-format.md states it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "trace/nvtrace_name.h"
#include "tests/unit/check.h"

/* The name of job @job, thread @thread, in @dir (the test buffer holds 4096 bytes). */
static const char *name_of(const char *dir, const char *job, unsigned int thread)
{
	static char buf[4096];

	if (nv_trace_filename(buf, sizeof(buf), dir, job, thread))
		return "(error)";
	return buf;
}

/* The document's example, and plain names. */
TEST(dir_job_thread)
{
	CHECK_STR(name_of("/tmp/t/", "rand/read", 3), "/tmp/t/rand_read.3.nvt");
	CHECK_STR(name_of("/tmp/t", "seqwrite", 12), "/tmp/t/seqwrite.12.nvt");
	CHECK_STR(name_of("d//", "a b ü", 0), "d/a b ü.0.nvt");
	CHECK_STR(name_of("/", "j", 1), "//j.1.nvt");
}

/* '/', control characters and a leading '.' become '_'; an empty name is "job". */
TEST(unsafe_characters)
{
	CHECK_STR(name_of("d", ".hidden", 1), "d/_hidden.1.nvt");
	CHECK_STR(name_of("d", "a.b", 1), "d/a.b.1.nvt");
	CHECK_STR(name_of("d", "x\ty\x7fz\x01", 2), "d/x_y_z_.2.nvt");
	CHECK_STR(name_of("d", "../up", 2), "d/_._up.2.nvt");
	CHECK_STR(name_of("d", "", 4), "d/job.4.nvt");
	CHECK_STR(name_of("d", NULL, 4), "d/job.4.nvt");
}

/* Job names are cut to 255 bytes; a path that does not fit and an empty dir are errors. */
TEST(limits)
{
	char job[400], want[300], buf[32];

	memset(job, 'j', sizeof(job) - 1);
	job[sizeof(job) - 1] = 0;
	memset(want, 0, sizeof(want));
	memcpy(want, "d/", 2);
	memset(want + 2, 'j', 255);
	strcat(want, ".7.nvt");
	CHECK_STR(name_of("d", job, 7), want);
	CHECK_EQ_I64(nv_trace_filename(buf, sizeof(buf), "/a/rather/longer/directory", "job", 1),
		     -ENAMETOOLONG);
	CHECK_EQ_I64(nv_trace_filename(buf, sizeof(buf), "", "job", 1), -EINVAL);
	CHECK_EQ_I64(nv_trace_filename(buf, sizeof(buf), NULL, "job", 1), -EINVAL);
}

int main(void)
{
	RUN(dir_job_thread);
	RUN(unsafe_characters);
	RUN(limits);
	return check_summary();
}
