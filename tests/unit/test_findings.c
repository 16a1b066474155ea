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
#include "analyze/figures/figset.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/input/jobtraces.h"
#include "analyze/report/trace_sections.h"
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
/* A trace of r[0..n) with header and footer kv pairs (may be NULL, 0). */
static char *write_trace_kv(const struct nvt_record *r, size_t n, const struct nvt_kv *hdr,
			    size_t nhdr, const struct nvt_kv *foot, size_t nfoot)
{
	static char path[64];
	struct nvt_writer *w;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_findings.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	if (nvt_writer_open(&w, path, hdr, nhdr, NULL))
		return NULL;
	for (size_t i = 0; i < n; i++)
		nvt_writer_append(w, &r[i]);
	return nvt_writer_close(w, foot, nfoot) ? NULL : path;
}

static char *write_trace(const struct nvt_record *r, size_t n)
{
	return write_trace_kv(r, n, NULL, 0, NULL, 0);
}

/* nv_tan_run on a trace of r[0..n) with these kv pairs; 0 when it worked. */
static int analyze_kv(const struct nvt_record *r, size_t n, const struct nvt_kv *hdr, size_t nhdr,
		      const struct nvt_kv *foot, size_t nfoot, const struct nv_tan_opts *o,
		      struct nv_tan *t)
{
	char err[256], *path = write_trace_kv(r, n, hdr, nhdr, foot, nfoot);
	const char *paths[1] = { path };
	int ret;

	if (!path)
		return -EIO;
	ret = nv_tan_run(paths, 1, o, t, err, sizeof(err));
	if (ret)
		fprintf(stderr, "%s\n", err);
	unlink(path);
	return ret;
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
	CHECK(t.nspikes == 2 && !nv_tan_spike_is_episode(&t.spikes[0]) &&
	      nv_tan_spike_is_episode(&t.spikes[1]));
	nv_tan_free(&t);
	unlink(path);
	free(r);
}

/*
 * QD 1, 10 s of IOs of about 100 us, one every 0.5 ms: scattered single
 * slow IOs (5 ms) are isolated slow IOs, not episodes; three slow IOs in a
 * row (each submitted right after the previous completed) are one episode.
 * The text names the factor given.
 */
TEST(spikes_qd1)
{
	size_t n = 20000, cnt = 0;
	struct nvt_record *r = calloc(n, sizeof(*r));
	struct nv_tan_opts o = { .interval_ns = 1000000000ull, .spike_factor = 20 };
	struct nv_tan t;
	char text[4096];
	uint64_t at = 1000000000ull;

	for (size_t i = 0; i < n; i++) {
		uint64_t lat = 100000 + (i % 7) * 1000;

		if (i % 2000 == 1000 || (i >= 8000 && i < 8003))
			lat = 5000000;
		r[i].submit_ns = at;
		r[i].complete_ns = at + lat;
		at = r[i].complete_ns + (lat > 1000000 ? 1000 : 500000 - lat);
		r[i].length = 4096;
		r[i].qd = 1;
	}
	CHECK(!analyze_kv(r, n, NULL, 0, NULL, 0, &o, &t));
	for (size_t i = 0; i < t.nspikes; i++)
		if (nv_tan_spike_is_episode(&t.spikes[i])) {
			cnt++;
			CHECK_EQ_U64(t.spikes[i].slow_ios, 3);
			CHECK_EQ_U64(t.spikes[i].start_ns, r[8000].submit_ns - t.t0);
		}
	CHECK_EQ_U64(cnt, 1);
	CHECK_EQ_U64(t.nspikes, 11);	/* 10 single ones, 1 episode */
	nv_tan_describe(&t, NULL, text, sizeof(text));
	CHECK(strstr(text, "20x the median interval p99.9") != NULL);
	CHECK(strstr(text, "1 episode: at ") != NULL);
	CHECK(strstr(text, "10 isolated slow IOs, worst 5.00 ms") != NULL);
	nv_tan_free(&t);
	free(r);
}

/*
 * A mixed trace: the all-operations entry has the IOs, bytes and errors of
 * every operation.
 */
TEST(all_row_totals)
{
	size_t n = 3000;
	struct nvt_record *r = calloc(n, sizeof(*r));
	struct nv_tan_opts o = { 0 };
	struct nv_tan t;
	uint64_t bytes = 0;

	for (size_t i = 0; i < n; i++) {
		r[i].complete_ns = 1000000000ull + (i + 1) * 100000ull;
		r[i].submit_ns = r[i].complete_ns - 50000;
		r[i].op = i % 3 ? NVT_OP_READ : NVT_OP_WRITE;
		r[i].length = i % 3 ? 4096 : 8192;
		r[i].status = i == 7 ? -5 : 0;
		bytes += r[i].length;
	}
	CHECK(!analyze_kv(r, n, NULL, 0, NULL, 0, &o, &t));
	CHECK_EQ_U64(t.op[NV_TAN_ALL].records, n);
	CHECK_EQ_U64(t.op[NV_TAN_ALL].bytes, bytes);
	CHECK_EQ_U64(t.op[NV_TAN_ALL].errors, 1);
	CHECK_EQ_U64(t.op[NVT_OP_WRITE].bytes, 1000 * 8192);
	nv_tan_free(&t);
	free(r);
}

/*
 * ramp_time: IOs submitted before the footer's job.ramp_end_ns are left out
 * (counted in ramp_records), t = 0 is the first IO after it; a footer
 * without the key (the ramp never ended) leaves nothing; a trace without
 * ramp_time in its header keeps everything.
 */
TEST(ramp_marked)
{
	size_t n = 2000;
	struct nvt_record *r = calloc(n, sizeof(*r));
	struct nv_tan_opts o = { 0 };
	struct nv_tan t;
	char end[32];
	struct nvt_kv hdr = { "job.ramp_time_us", "100000" }, foot = { "job.ramp_end_ns", end };

	for (size_t i = 0; i < n; i++) {	/* QD 4: IOs overlap the ramp's end */
		r[i].complete_ns = 1000000000ull + (i + 4) * 100000ull;
		r[i].submit_ns = r[i].complete_ns - 400000 + (i % 2) * 1000;
		r[i].length = 4096;
	}
	snprintf(end, sizeof(end), "%llu", (unsigned long long)r[500].submit_ns);
	CHECK(!analyze_kv(r, n, &hdr, 1, &foot, 1, &o, &t));
	CHECK_EQ_U64(t.records, n - 500);
	CHECK_EQ_U64(t.ramp_records, 500);
	CHECK_EQ_U64(t.op[NVT_OP_READ].records, n - 500);
	CHECK_EQ_U64(t.op[NVT_OP_READ].lat.n, n - 500);
	CHECK_EQ_U64(t.t0, r[500].submit_ns);
	CHECK_EQ_U64(t.ramp_ns, 100000000);
	nv_tan_free(&t);
	CHECK(!analyze_kv(r, n, &hdr, 1, NULL, 0, &o, &t));
	CHECK_EQ_U64(t.records, 0);
	CHECK_EQ_U64(t.ramp_records, n);
	nv_tan_free(&t);
	CHECK(!analyze_kv(r, n, NULL, 0, &foot, 1, &o, &t));
	CHECK_EQ_U64(t.records, n);
	CHECK_EQ_U64(t.ramp_records, 0);
	nv_tan_free(&t);
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
	RUN(spikes_qd1);
	RUN(all_row_totals);
	RUN(ramp_marked);
	RUN(qd_classes);
	return check_summary();
}
