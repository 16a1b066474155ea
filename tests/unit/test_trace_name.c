/*
 * test_trace_name.c - the trace file naming rule DIR/JOB.THREAD.nvt
 * (trace/nvtrace_name.c), case by case as docs/trace-format.md states it,
 * and the trace directory (created when only its last component is missing).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/nvtrace_name.h"
#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"

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

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

TEST(dir_created_once)
{
	char msg[512] = "";
	int created = -1;

	CHECK_EQ_I64(nv_trace_dir_prepare(tpath("new"), &created, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(created, 1);
	CHECK(is_dir(tpath("new")));
	/* a second job thread finds it there */
	CHECK_EQ_I64(nv_trace_dir_prepare(tpath("new/"), &created, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(created, 0);
}

TEST(dir_relative_in_cwd)
{
	char cwd[4096], msg[512] = "";
	int created = -1;

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_EQ_I64(chdir(tmpdir), 0);
	CHECK_EQ_I64(nv_trace_dir_prepare("traces", &created, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(created, 1);
	CHECK(is_dir(tpath("traces")));
	CHECK_EQ_I64(chdir(cwd), 0);
}

TEST(dir_missing_parent)
{
	char msg[512] = "";
	int created = -1;

	CHECK_EQ_I64(nv_trace_dir_prepare(tpath("nope/traces"), &created, msg, sizeof(msg)),
		     -ENOENT);
	CHECK_EQ_I64(created, 0);
	CHECK(!is_dir(tpath("nope")));
	CHECK(strstr(msg, tpath("nope")) && strstr(msg, "does not exist"));
}

TEST(dir_not_a_directory)
{
	char msg[512] = "";
	int created = -1;
	FILE *f = fopen(tpath("file"), "w");

	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK_EQ_I64(nv_trace_dir_prepare(tpath("file"), &created, msg, sizeof(msg)), -ENOTDIR);
	CHECK(strstr(msg, tpath("file")) && strstr(msg, "not a directory"));
	CHECK_EQ_I64(nv_trace_dir_prepare(tpath("file/sub"), &created, msg, sizeof(msg)),
		     -ENOTDIR);
	CHECK(strstr(msg, "parent") && strstr(msg, tpath("file")));
	CHECK_EQ_I64(nv_trace_dir_prepare("", &created, msg, sizeof(msg)), -EINVAL);
}

int main(void)
{
	if (tmpdir_make("test_trace_name"))
		return 1;
	RUN(dir_job_thread);
	RUN(unsafe_characters);
	RUN(limits);
	RUN(dir_created_once);
	RUN(dir_relative_in_cwd);
	RUN(dir_missing_parent);
	RUN(dir_not_a_directory);
	tmpdir_remove();
	return check_summary();
}
