/*
 * test_jobtraces.c - input/jobtraces.c: --trace arguments, which job a
 * trace is for, one entry per job, the expected file names, and -j/-d on
 * the traces.
 */
#include <errno.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/input/jobtraces.h"
#include "trace/nvtrace.h"

TEST(trace_arguments)
{
	struct nv_trace_arg a;
	char err[256];

	CHECK(nv_trace_arg_parse("2:randread=a.nvt,b.nvt", &a, err, sizeof(err)) == 0);
	CHECK_STR(a.run, "2");
	CHECK_STR(a.job, "randread");
	CHECK(a.npaths == 2 && !strcmp(a.paths[0], "a.nvt") && !strcmp(a.paths[1], "b.nvt"));
	nv_trace_arg_free(&a);
	CHECK(nv_trace_arg_parse("x.nvt", &a, err, sizeof(err)) == 0);
	CHECK(!a.run && !a.job && a.npaths == 1);
	nv_trace_arg_free(&a);
}

TEST(pattern)
{
	char buf[256];

	CHECK(nv_trace_pattern(buf, sizeof(buf), "/t", "rr", 3) == 0);
	CHECK_STR(buf, "/t/rr.3.nvt");
	CHECK(nv_trace_pattern(buf, sizeof(buf), "/t", "j", 0) == 0);
	CHECK_STR(buf, "/t/j.*.nvt");
}

static void mkrun(struct nv_run *run, struct nv_job *jobs, size_t n)
{
	static char *names[] = { "a", "b", "c" };

	memset(run, 0, sizeof(*run));
	memset(jobs, 0, n * sizeof(*jobs));
	run->path = "x.json";
	run->jobs = jobs;
	run->njobs = n;
	for (size_t i = 0; i < n; i++)
		jobs[i].name = jobs[i].key = names[i];
}

TEST(one_entry_per_job)
{
	struct nv_run run;
	struct nv_job jobs[2];
	struct nv_traceset ts = { 0 };
	char *p1[] = { "a.0.nvt" }, *p2[] = { "a.1.nvt", "a.2.nvt" };

	mkrun(&run, jobs, 2);
	CHECK(nv_traces_add(&ts, &run, 0, p1, 1, false) == 0);
	CHECK(nv_traces_add(&ts, &run, 0, p2, 2, true) == 0);
	CHECK(nv_traces_add(&ts, &run, 1, p1, 1, false) == 0);
	CHECK_EQ_U64(ts.n, 2);
	if (ts.n == 2) {
		CHECK(ts.jt[0].run == &run && ts.jt[0].job == 0 && ts.jt[0].npaths == 3);
		CHECK(ts.jt[0].explicit_ && !ts.jt[1].explicit_);
		CHECK_STR(ts.jt[0].paths[2], "a.2.nvt");
	}
	nv_traceset_free(&ts);
	CHECK(ts.n == 0 && ts.jt == NULL);
}

TEST(job_of_a_trace_argument)
{
	struct nv_run run;
	struct nv_job jobs[2];
	struct nv_trace_arg a = { .job = "b", .npaths = 1, .paths = (char *[]){ "none.nvt" } };
	char err[256];
	size_t j = 9;

	mkrun(&run, jobs, 2);
	CHECK(nv_trace_arg_job(&run, &a, &j, err, sizeof(err)) == 0 && j == 1);
	a.job = "zz";
	CHECK_EQ_I64(nv_trace_arg_job(&run, &a, &j, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "no job 'zz' in x.json");
	a.job = NULL;	/* two jobs, no name: the header must say, and the file is missing */
	CHECK(nv_trace_arg_job(&run, &a, &j, err, sizeof(err)) < 0);
	CHECK(strstr(err, "none.nvt") != NULL || !strcmp(err, "cannot open"));
	mkrun(&run, jobs, 1);
	/* the only one */
	CHECK(nv_trace_arg_job(&run, &a, &j, err, sizeof(err)) == 0 && j == 0);
}

static bool keep_second(const struct nv_run *run, size_t job, void *arg)
{
	(void)run;
	(void)arg;
	return job == 1;
}

TEST(selection)
{
	struct nv_run run;
	struct nv_job jobs[2];
	struct nv_traceset ts = { 0 };
	char *p[] = { "t.nvt" };

	mkrun(&run, jobs, 2);
	CHECK(!nv_traces_add(&ts, &run, 0, p, 1, false) &&
	      !nv_traces_add(&ts, &run, 1, p, 1, false));
	nv_traces_select(&ts, keep_second, NULL, 1u << NV_DIR_WRITE);
	CHECK(ts.n == 2 && ts.jt[0].unselected && !ts.jt[1].unselected);
	CHECK(nv_traces_op_shown(&ts, NVT_OP_WRITE) && !nv_traces_op_shown(&ts, NVT_OP_READ));
	CHECK(nv_traces_op_shown(&ts, NVT_OP_ZEROES));	/* write zeroes count as writes */
	CHECK(!nv_traces_op_shown(&ts, NVT_OP_FLUSH));	/* flush is sync */
	CHECK(nv_op_dir(NVT_OP_TRIM) == NV_DIR_TRIM && nv_op_dir(NVT_OP_FLUSH) == -1);
	nv_traceset_free(&ts);
}

int main(void)
{
	RUN(trace_arguments);
	RUN(pattern);
	RUN(one_entry_per_job);
	RUN(job_of_a_trace_argument);
	RUN(selection);
	return check_summary();
}
