/*
 * test_findings.c - the rules over time (findings.c), the trace analysis on
 * written traces (tracean.c: series, exact per interval, spike episodes),
 * and the helpers of traces.c / outdir.c / fiojson.c it relies on.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/findings.h"
#include "analyze/input/fiojson.h"
#include "analyze/figures/outdir.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/input/jobtraces.h"
#include "tests/unit/check.h"

TEST(median)
{
	double v[] = { 5, 1, 4, 2, 3 }, w[] = { 4, 1, 3, 2 };

	CHECK(nv_median(v, 5) == 3);
	CHECK(nv_median(w, 4) == 2);	/* lower middle */
	CHECK(nv_median(v, 0) == 0);
	CHECK(v[0] == 5);		/* not reordered */
}

TEST(step_found)
{
	double x[40];

	for (int i = 0; i < 40; i++)
		x[i] = (i < 25 ? 1120 : 780) + (i % 3) * 5;
	struct nv_step s;

	nv_find_step(x, 40, NV_STEP_MIN_DROP, &s);
	CHECK(s.found);
	CHECK_EQ_U64(s.at, 25);
	CHECK(fabs(s.before - 1125) < 1);
	CHECK(fabs(s.after - 785) < 1);
}

TEST(step_not_found)
{
	double flat[30], dip[30], small[30], up[30];
	struct nv_step s;

	for (int i = 0; i < 30; i++) {
		flat[i] = 100 + (i % 5);
		dip[i] = (i >= 10 && i < 13) ? 20 : 100;	/* transient dip, recovers */
		small[i] = i < 15 ? 100 : 90;			/* 10% < 15% */
		up[i] = i < 15 ? 50 : 100;			/* a rise is no throttling */
	}
	nv_find_step(flat, 30, NV_STEP_MIN_DROP, &s);
	CHECK(!s.found);
	nv_find_step(dip, 30, NV_STEP_MIN_DROP, &s);
	CHECK(!s.found);
	nv_find_step(small, 30, NV_STEP_MIN_DROP, &s);
	CHECK(!s.found);
	nv_find_step(up, 30, NV_STEP_MIN_DROP, &s);
	CHECK(!s.found);
	nv_find_step(flat, 5, NV_STEP_MIN_DROP, &s);	/* too short */
	CHECK(!s.found);
}

TEST(warmup)
{
	double x[20], y[20], z[20];
	struct nv_warmup w;

	for (int i = 0; i < 20; i++) {
		x[i] = i < 4 ? 30 + 10 * i : 100;
		y[i] = 100;
		z[i] = i == 0 ? 88 : 100;	/* within noise: no warm-up */
	}
	nv_find_warmup(x, 20, &w);
	CHECK(w.found);
	CHECK_EQ_U64(w.end, 4);
	CHECK(fabs(w.during - 45) < 1e-9);
	CHECK(w.steady == 100);
	nv_find_warmup(y, 20, &w);
	CHECK(!w.found);
	nv_find_warmup(z, 20, &w);
	CHECK(!w.found);
}

TEST(spike_threshold)
{
	uint64_t p[] = { 100, 200, 999999, 150, 0 }, ios[] = { 1, 1, 1, 1, 0 };

	CHECK_EQ_U64(nv_spike_threshold(p, ios, 5, 10), 1500);	/* median of 4: 150 */
	CHECK_EQ_U64(nv_spike_threshold(p, ios + 4, 1, 10), 0);
}

TEST(formats)
{
	char b[64];

	nv_fmt_rate(b, sizeof(b), 1120);
	CHECK_STR(b, "1.12 GB/s");
	nv_fmt_rate(b, sizeof(b), 780);
	CHECK_STR(b, "780 MB/s");
	nv_fmt_time(b, sizeof(b), 602);
	CHECK_STR(b, "10:02");
	nv_fmt_time(b, sizeof(b), 3723);
	CHECK_STR(b, "1:02:03");
	nv_fmt_time(b, sizeof(b), 12.5);
	CHECK_STR(b, "12.5 s");
	nv_slug(b, sizeof(b), "rand read #1@host");
	CHECK_STR(b, "rand_read_1_host");
	nv_slug(b, sizeof(b), "///");
	CHECK_STR(b, "x");
}

TEST(fio_bins)
{
	double lo, hi;

	CHECK(!nv_fio_bin_range(100, &lo, &hi) && lo == 100 && hi == 100);
	/* 128..255: width 2, value = base + (k + 0.5) * 2 */
	CHECK(!nv_fio_bin_range(129, &lo, &hi) && lo == 128 && hi == 129);
	/* 8192..16383: width 128, e.g. bin k=3 -> 8192 + 3.5 * 128 = 8640 */
	CHECK(!nv_fio_bin_range(8640, &lo, &hi) && lo == 8576 && hi == 8703);
	CHECK(nv_fio_bin_range(8641, &lo, &hi) == -EINVAL);
	CHECK(nv_fio_bin_range(-1, &lo, &hi) == -EINVAL);
}

TEST(trace_args)
{
	struct nv_trace_arg a;
	char err[200], buf[200];

	CHECK(!nv_trace_arg_parse("2:job one=x.nvt,y.nvt", &a, err, sizeof(err)));
	CHECK_STR(a.run, "2");
	CHECK_STR(a.job, "job one");
	CHECK_EQ_U64(a.npaths, 2);
	CHECK_STR(a.paths[1], "y.nvt");
	nv_trace_arg_free(&a);
	CHECK(!nv_trace_arg_parse("/d/x.nvt", &a, err, sizeof(err)));
	CHECK(!a.run && !a.job && a.npaths == 1);
	nv_trace_arg_free(&a);
	CHECK(nv_trace_arg_parse("a:j=", &a, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "no trace file"));
	CHECK(!nv_trace_pattern(buf, sizeof(buf), "/t/", "a/b", 0));
	CHECK_STR(buf, "/t/a_b.*.nvt");
	CHECK(!nv_trace_pattern(buf, sizeof(buf), "/t", "x", 7));
	CHECK_STR(buf, "/t/x.7.nvt");
}

/* Write records (completion order) to a temporary trace; returns its path. */
static char *write_trace(const struct nvt_record *r, size_t n)
{
	static char path[64];
	struct nvt_writer *w;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_findings.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	if (nvt_writer_open(&w, path, NULL, 0, NULL))
		return NULL;
	for (size_t i = 0; i < n; i++)
		nvt_writer_append(w, &r[i]);
	return nvt_writer_close(w, NULL, 0) ? NULL : path;
}

/*
 * 10 s of one IO per ms (latency 100 us + i % 50 us) with one 80 ms IO at
 * 5.5 s and two overlapping 40 ms ones at 7.2 s: series values against a
 * direct computation, and the episodes.
 */
TEST(series_and_spikes)
{
	size_t n = 10000;
	struct nvt_record *r = calloc(n, sizeof(*r));
	struct nv_tan_opts o = { .interval_ns = 1000000000ull };
	struct nv_tan t;
	char err[256], *path;
	const char *paths[1];

	for (size_t i = 0; i < n; i++) {
		uint64_t lat = 100000 + (i % 50) * 1000;

		if (i == 5500)
			lat = 80000000;
		if (i == 7200 || i == 7201)
			lat = 40000000 - (i - 7200) * 1000000;
		r[i].complete_ns = 5000000000ull + (i + 1) * 1000000ull;
		r[i].submit_ns = r[i].complete_ns - lat;
		r[i].length = 4096;
		r[i].qd = (uint16_t)(1 + i % 3);
	}
	/* completion order: the slow IOs complete at their slot time, fine */
	path = write_trace(r, n);
	CHECK(path != NULL);
	if (!path)
		return;
	paths[0] = path;
	CHECK(!nv_tan_run(paths, 1, &o, &t, err, sizeof(err)));
	CHECK_EQ_U64(t.records, n);
	CHECK_EQ_U64(t.t0, r[0].submit_ns);
	CHECK(t.nint >= 10);
	CHECK(t.series[NVT_OP_READ] && t.series[NV_TAN_ALL]);
	{
		/* interval 2: completions with complete - t0 in [2 s, 3 s) */
		uint64_t lo = t.t0 + 2000000000ull, hi = lo + 1000000000ull, cnt = 0, mx = 0;

		for (size_t i = 0; i < n; i++)
			if (r[i].complete_ns >= lo && r[i].complete_ns < hi) {
				cnt++;
				if (r[i].complete_ns - r[i].submit_ns > mx)
					mx = r[i].complete_ns - r[i].submit_ns;
			}
		CHECK_EQ_U64(t.series[NVT_OP_READ][2].ios, cnt);
		CHECK_EQ_U64(t.series[NVT_OP_READ][2].max, mx);
		CHECK_EQ_U64(t.series[NVT_OP_READ][2].bytes, cnt * 4096);
	}
	CHECK_EQ_U64(t.op[NVT_OP_READ].lat.max, 80000000);
	CHECK_EQ_U64(t.nspikes, 2);
	if (t.nspikes == 2) {
		CHECK_EQ_U64(t.spikes[0].worst_ns, 80000000);
		CHECK_EQ_U64(t.spikes[0].slow_ios, 1);
		CHECK_EQ_U64(t.spikes[0].start_ns, r[5500].submit_ns - t.t0);
		CHECK_EQ_U64(t.spikes[0].end_ns - t.spikes[0].start_ns, 80000000);
		CHECK_EQ_U64(t.spikes[1].slow_ios, 2);
		CHECK_EQ_U64(t.spikes[1].worst_ns, 40000000);
		CHECK_EQ_U64(t.spikes[1].start_ns, r[7200].submit_ns - t.t0);
		CHECK_EQ_U64(t.spikes[1].end_ns, r[7201].complete_ns - t.t0);
	}
	CHECK(t.nqd == 3);
	nv_tan_free(&t);
	unlink(path);
	free(r);
}

TEST(qd_classes)
{
	unsigned lo, hi;

	CHECK_EQ_U64(nv_tan_qd_class(1), 0);
	CHECK_EQ_U64(nv_tan_qd_class(2), 1);
	CHECK_EQ_U64(nv_tan_qd_class(3), 2);
	CHECK_EQ_U64(nv_tan_qd_class(4), 2);
	CHECK_EQ_U64(nv_tan_qd_class(5), 3);
	nv_tan_qd_range(3, &lo, &hi);
	CHECK(lo == 5 && hi == 8);
	nv_tan_qd_range(0, &lo, &hi);
	CHECK(lo == 1 && hi == 1);
}

int main(void)
{
	RUN(median);
	RUN(step_found);
	RUN(step_not_found);
	RUN(warmup);
	RUN(spike_threshold);
	RUN(formats);
	RUN(fio_bins);
	RUN(trace_args);
	RUN(series_and_spikes);
	RUN(qd_classes);
	return check_summary();
}
