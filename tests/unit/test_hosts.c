/*
 * test_hosts.c - many-host runs (analyze/input/hosts.h): a client/server
 * JSON split into one run per host, keyed as one-host runs; hosts with
 * fewer jobs and "All clients" left out with a note; a host missing from
 * the JSON named from its status file; each entry's traces found by host
 * and job in DIR/HOST/traces/NAME.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/input/hosts.h"
#include "analyze/input/jobtraces.h"
#include "check.h"
#include "tmpdir.h"

/* One client_stats entry of job name on host, with read IOs. */
static void entry(char *buf, size_t n, const char *name, const char *host, int ios)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, "%s{\"jobname\":\"%s\",\"groupid\":0,\"error\":0,"
		 "\"job options\":{\"rw\":\"randread\",\"nv_trace\":\"/remote/traces\"},"
		 "\"read\":{\"io_bytes\":%d,\"total_ios\":%d,\"iops\":10.0,\"bw\":40,"
		 "\"runtime\":1000},\"hostname\":\"%s\"}", len > 60 ? "," : "", name, ios * 4096,
		 ios, host);
}

/* The run of a client JSON with hosts h1 (jobs a, b), h2 (a, b), h3 (a only). */
static int load(struct nv_run *run, const char *path, int with_h3)
{
	static char buf[8192];
	char err[256];

	snprintf(buf, sizeof(buf), "{\"fio version\":\"fio-3.33\",\"client_stats\":[");
	entry(buf, sizeof(buf), "a", "h2", 300);	/* fio lists hosts as they finish */
	entry(buf, sizeof(buf), "a", "h1", 100);
	entry(buf, sizeof(buf), "b", "h1", 200);
	entry(buf, sizeof(buf), "b", "h2", 400);
	if (with_h3)
		entry(buf, sizeof(buf), "a", "h3", 500);
	entry(buf, sizeof(buf), "All clients", "h2", 1000);
	strcat(buf, "]}");
	return nv_fio_parse(buf, strlen(buf), path, run, err, sizeof(err));
}

TEST(trace_dir)
{
	char b[64];

	CHECK(!nv_host_trace_dir(b, sizeof(b), "results/i7i/instance-suite.json", "h1"));
	CHECK_STR(b, "results/i7i/h1/traces/instance-suite");
	CHECK(!nv_host_trace_dir(b, sizeof(b), "suite.json", "10.0.0.7"));
	CHECK_STR(b, "10.0.0.7/traces/suite");
	CHECK(nv_host_trace_dir(b, sizeof(b), "a/s.json", "../x") == -EINVAL);
	CHECK(nv_host_trace_dir(b, sizeof(b), "a/s.json", "") == -EINVAL);
	CHECK(nv_host_trace_dir(b, 16, "results/i7i/s.json", "h1") == -ENAMETOOLONG);
}

TEST(split)
{
	struct nv_run run;
	struct nv_hostruns h;

	CHECK(!load(&run, "r/s.json", 1));
	CHECK(!nv_run_split_hosts(&run, NULL, &h));
	CHECK_EQ_U64(h.n, 2);	/* h3 holds 1 of 2 jobs: left out */
	if (h.n == 2) {
		CHECK_STR(h.hosts[0], "h1");
		CHECK_STR(h.hosts[1], "h2");
		CHECK_EQ_U64(h.runs[1].njobs, 2);
		CHECK_STR(h.runs[1].jobs[0].key, "a");
		CHECK_STR(h.runs[1].jobs[1].key, "b");
		CHECK_EQ_U64(h.runs[1].jobs[1].dir[NV_DIR_READ].ios, 400);
		CHECK_STR(nv_job_file(&h.runs[1], &h.runs[1].jobs[0]), "r/s.json");
		CHECK(h.runs[0].digest != h.runs[1].digest);
	}
	CHECK_EQ_U64(h.nnotes, 2);
	CHECK(h.nnotes == 2 && strstr(h.notes[0], "\"All clients\" sums left out"));
	CHECK(h.nnotes == 2 && strstr(h.notes[1], "host h3 holds 1 of the 2 jobs"));
	nv_hostruns_free(&h);
	nv_run_free(&run);
}

/* A host left out for holding fewer jobs, with a status file: one note, not "missing" too. */
TEST(partial_host_noted_once)
{
	char dir[400], p[512];
	struct nv_run run;
	struct nv_hostruns h;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", tpath("partial"));
	snprintf(p, sizeof(p), "%s/h3", dir);
	CHECK(!mkdir(dir, 0755) && !mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/h3/status", dir);
	if ((f = fopen(p, "w"))) {
		fputs("failed: b.fio: fio exited 1\n", f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/s.json", dir);
	CHECK(!load(&run, p, 1));
	CHECK(!nv_run_split_hosts(&run, dir, &h));
	CHECK_EQ_U64(h.n, 2);
	CHECK_EQ_U64(h.nnotes, 2);
	for (size_t i = 0; i < h.nnotes; i++)
		CHECK(!strstr(h.notes[i], "host h3 missing"));
	CHECK(h.nnotes == 2 && strstr(h.notes[1], "host h3 holds 1 of the 2 jobs"));
	nv_hostruns_free(&h);
	nv_run_free(&run);
}

/* A file run of one process (no hosts) is left as it is. */
TEST(not_client)
{
	const char *j = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\",\"groupid\":0,"
			"\"error\":0,\"read\":{\"total_ios\":1,\"io_bytes\":4096}}]}";
	struct nv_run run;
	struct nv_hostruns h;
	char err[128];

	CHECK(!nv_fio_parse(j, strlen(j), "x.json", &run, err, sizeof(err)));
	CHECK(!nv_run_split_hosts(&run, NULL, &h));
	CHECK_EQ_U64(h.n, 0);
	CHECK_EQ_U64(run.njobs, 1);
	nv_run_free(&run);
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
}

/* Entries find their traces by host and job; a host without them is named. */
TEST(traces_by_host)
{
	static const char *const sub[] = { "", "/h1", "/h1/traces", "/h1/traces/s", "/h2", "/h3" };
	char dir[512], p[600], json[600];
	struct nv_traceset ts = { 0 };
	struct nv_run run;
	struct nv_hostruns h;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", tpath("by_host"));
	snprintf(json, sizeof(json), "%s/s.json", dir);
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", dir, sub[i]);
		CHECK(!mkdir(p, 0755));
	}
	snprintf(p, sizeof(p), "%s/h1/traces/s/a.1.nvt", dir);
	touch(p);
	snprintf(p, sizeof(p), "%s/h1/traces/s/b.2.nvt", dir);
	touch(p);
	snprintf(p, sizeof(p), "%s/h3/status", dir);
	if ((f = fopen(p, "w"))) {
		fputs("failed: missing: cannot prepare it over ssh\n", f);
		fclose(f);
	}
	CHECK(!load(&run, json, 0));
	CHECK(!nv_run_split_hosts(&run, dir, &h));
	CHECK_EQ_U64(h.n, 2);
	CHECK(h.nnotes == 2 &&
	      strstr(h.notes[1], "host h3 missing: failed: missing: cannot prepare"));
	for (size_t i = 0; i < h.n; i++)
		CHECK(!nv_traces_discover(&h.runs[i], &ts));
	CHECK_EQ_U64(ts.n, 2);	/* h1's a and b */
	if (ts.n == 2) {
		CHECK(ts.jt[0].run == &h.runs[0] && ts.jt[0].job == 0 &&
		      strstr(ts.jt[0].paths[0], "/h1/traces/s/a.1.nvt"));
		CHECK(ts.jt[1].run == &h.runs[0] && ts.jt[1].job == 1 &&
		      strstr(ts.jt[1].paths[0], "/h1/traces/s/b.2.nvt"));
	}
	CHECK_EQ_U64(ts.nnotes, 2);	/* h2: a and b not fetched */
	CHECK(ts.nnotes && strstr(ts.notes[0], "on host h2: fio's numbers: traces not fetched"));
	nv_traceset_free(&ts);
	nv_hostruns_free(&h);
	nv_run_free(&run);
}

int main(void)
{
	if (tmpdir_make("test_hosts"))
		return 1;
	RUN(trace_dir);
	RUN(split);
	RUN(partial_host_noted_once);
	RUN(not_client);
	RUN(traces_by_host);
	tmpdir_remove();
	return check_summary();
}
