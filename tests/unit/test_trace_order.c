/*
 * test_trace_order.c - nv_tan_run on traces whose completion times go back
 * (trace_series.c: such a record joins the interval open when it is read):
 * the slow IOs of the spike episodes found wherever their completions land
 * in their trace (trace_spikes.c), and a record completing before time 0.
 *
 * A job of 3 generated thread traces (4k reads, no slow tail, 5 ms
 * intervals of about 3000 IOs) with bursts of 6 slow IOs (30 ms) in
 * intervals 7 and 10 of thread 0, whose p99.9 they raise to 30 ms, so
 * that those intervals' slow IOs are read again.  Thread 0 also holds slow
 * IOs whose completions go back 3 or 4 intervals: pass 1 counts such an IO
 * in the interval open when it is read (10, or 14 where it is the only
 * one: found among pass 1's candidates), not in the one its completion time
 * falls in (7 or 10), so the reread and the candidates must place it alike;
 * the index entry of the block holding the first no longer says where
 * interval 10 starts.  The same when intervals spill (NVANALYZE_SERIES_CAP):
 * every spiky interval read again.
 * Every slow IO is found, once, for 1 and 4 workers, in the job's traces
 * merged into one, and the intervals that show them are the ones that
 * nvanalyze watch's stream closes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_util.h"
#include "analyze/stats/trace_find.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_stream.h"

#define NTH 3
#define PER 30000
#define IV 5000000ull		/* the interval, ns */
#define SLOW 30000000ull	/* a burst's IOs' latency */
#define BACK_SLOW 1000000ull	/* a slow IO going back, below its interval's cut */
#define NSLOW (2 * 6 + 2)	/* the slow IOs written */

/* Return: the first record of r[0..n) completing at or after t. */
static size_t at_time(const struct nvt_record *r, size_t n, uint64_t t)
{
	size_t i = 0;

	while (i < n && r[i].complete_ns < t)
		i++;
	return i;
}

/* Thread 0's anomalies (t0: the job's start).  Return: nothing. */
static void add_slow(struct nvt_record *r, uint64_t t0)
{
	static const unsigned burst[] = { 7, 10 };
	size_t i;

	for (unsigned b = 0; b < 2; b++) {	/* in order: latency only */
		i = at_time(r, PER, t0 + burst[b] * IV + IV / 3);
		for (unsigned k = 0; k < 6; k++)
			r[i + 40 * k].submit_ns = r[i + 40 * k].complete_ns - SLOW;
	}
	/* read in interval 10, completing in 7: below interval 10's cut */
	i = at_time(r, PER, t0 + 10 * IV + IV * 2 / 3);
	r[i].complete_ns -= 3 * IV;
	r[i].submit_ns = r[i].complete_ns - BACK_SLOW;
	/* read in interval 14 (where it is its only slow IO), completing in 10 */
	i = at_time(r, PER, t0 + 14 * IV + IV * 2 / 3);
	r[i].complete_ns -= 4 * IV;
	r[i].submit_ns = r[i].complete_ns - SLOW;
}

/* The job: NTH thread traces in paths[0..NTH), all merged by completion
 * (ties: the lower thread) in paths[NTH].  Return: 0 or -errno. */
static int make_job(char **paths)
{
	struct nvt_record *r = calloc(NTH * PER, sizeof(*r)), *m = calloc(NTH * PER, sizeof(*m));
	uint64_t t0 = UINT64_MAX;
	char name[32];
	int err = 0;

	if (!r || !m) {
		free(r);
		free(m);
		return -ENOMEM;
	}
	for (size_t t = 0; t < NTH; t++) {
		struct gen g;

		gen_init(&g, GEN_RANDREAD, 4, 77 + t);
		g.tail_per_mille = 0;
		g.now = 1000000000ull;	/* the threads side by side */
		for (size_t i = 0; i < PER; i++)
			gen_record(&g, &r[t * PER + i]);
		if (r[t * PER].submit_ns < t0)
			t0 = r[t * PER].submit_ns;
	}
	add_slow(r, t0);
	for (size_t t = 0; t < NTH && !err; t++) {
		snprintf(name, sizeof(name), "spiky.%zu.nvt", t + 1);
		paths[t] = strdup(tpath(name));
		err = paths[t] ? put_job_trace(paths[t], "spiky", r + t * PER, PER) : -ENOMEM;
	}
	if (!err)
		err = merge_by_completion(r, NTH, PER, m);
	paths[NTH] = strdup(tpath("merged.nvt"));
	if (!err)
		err = paths[NTH] ? put_job_trace(paths[NTH], "spiky", m, NTH * PER) : -ENOMEM;
	free(r);
	free(m);
	return err;
}

/* nv_tan_run of paths[0..n) on workers threads.  Return: its result. */
static int run(char *const *paths, size_t n, unsigned workers, struct nv_tan *t)
{
	struct nv_tan_opts o = { .interval_ns = IV, .workers = workers };
	char err[1024];
	int ret = nv_tan_run((const char *const *)paths, n, &o, t, err, sizeof(err));

	if (ret)
		fprintf(stderr, "nv_tan_run: %s\n", err);
	return ret;
}

/* Return: the slow IOs of t's episodes and isolated slow IOs, the worst in *worst. */
static uint64_t slow_ios(const struct nv_tan *t, uint64_t *worst)
{
	uint64_t n = 0;

	*worst = 0;
	for (size_t i = 0; i < t->nspikes; i++) {
		n += t->spikes[i].slow_ios;
		if (t->spikes[i].worst_ns > *worst)
			*worst = t->spikes[i].worst_ns;
	}
	return n;
}

/* Return: true when a's and b's spikes and read series are the same. */
static bool same_spikes(const struct nv_tan *a, const struct nv_tan *b)
{
	return a->nint == b->nint && a->nspikes == b->nspikes &&
	       a->spike_threshold_ns[NVT_OP_READ] == b->spike_threshold_ns[NVT_OP_READ] &&
	       !memcmp(a->spikes, b->spikes, a->nspikes * sizeof(*a->spikes)) &&
	       !memcmp(a->series[NVT_OP_READ], b->series[NVT_OP_READ],
		       a->nint * sizeof(*a->series[NVT_OP_READ]));
}

/* The intervals watch's stream closes, kept. */
struct seen {
	struct nv_tan_iv iv[64];
	size_t n;
};

static int keep(void *arg, const struct nv_tan *t, const struct nv_tan_closed *c)
{
	struct seen *s = arg;

	(void)t;
	if (c->iv.op == NVT_OP_READ && s->n < 64)
		s->iv[s->n++] = c->iv;
	return 0;
}

/* Return: how many of the stream's intervals of paths[0..n) differ from t's. */
static int stream_differs(char *const *paths, size_t n, const struct nv_tan *t)
{
	struct nv_tan_stream_opts so = { .interval_ns = IV, .fn = keep };
	struct nv_tan_stream *ts = NULL;
	struct seen s = { .n = 0 };
	char err[256];
	size_t need;
	int rc = 1, bad = 0;

	so.arg = &s;
	if (nv_tan_stream_new(&ts, &so))
		return -1;
	for (size_t i = 0; i < n && !bad; i++)
		bad = nv_tan_stream_add(ts, paths[i], err, sizeof(err)) != 0;
	while (!bad && rc == 1)
		rc = nv_tan_stream_step(ts, &need, err, sizeof(err));
	nv_tan_stream_free(ts);
	if (bad || rc || s.n != t->nint)
		return -1;
	for (size_t k = 0; k < s.n; k++) {
		struct nv_tan_iv want;

		nv_tan_iv_of(t, NVT_OP_READ, s.iv[k].index, &want);
		bad += want.index != s.iv[k].index || want.start_s != s.iv[k].start_s ||
		       want.end_s != s.iv[k].end_s || want.ios != s.iv[k].ios ||
		       want.p50_ns != s.iv[k].p50_ns || want.p99_ns != s.iv[k].p99_ns ||
		       want.p999_ns != s.iv[k].p999_ns || want.max_ns != s.iv[k].max_ns;
	}
	return bad;
}

/* Every slow IO of the job in paths[0..NTH] found, the same for any -J,
 * merged, and watched. */
static void check_job(char **paths)
{
	struct nv_tan t1, t4, tm;
	uint64_t worst;

	CHECK_EQ_I64(run(paths, NTH, 1, &t1), 0);
	CHECK_EQ_I64(run(paths, NTH, 4, &t4), 0);
	CHECK_EQ_I64(run(paths + NTH, 1, 1, &tm), 0);
	CHECK(t1.nint > 15 && t1.spike_threshold_ns[NVT_OP_READ] > 0 &&
	      t1.spike_threshold_ns[NVT_OP_READ] <= BACK_SLOW);
	CHECK(t1.series[NVT_OP_READ][10].max == SLOW && t1.series[NVT_OP_READ][14].max == SLOW);
	CHECK_EQ_I64(slow_ios(&t1, &worst), NSLOW);
	CHECK_EQ_I64(worst, SLOW);
	CHECK(same_spikes(&t1, &t4));
	CHECK_EQ_I64(slow_ios(&tm, &worst), NSLOW);
	CHECK(same_spikes(&t1, &tm));
	CHECK_EQ_I64(stream_differs(paths, NTH, &t1), 0);
	CHECK_EQ_I64(stream_differs(paths + NTH, 1, &tm), 0);
	nv_tan_free(&t1);
	nv_tan_free(&t4);
	nv_tan_free(&tm);
}

TEST(slow_ios_completing_out_of_order)
{
	char *paths[NTH + 1] = { NULL };

	CHECK_EQ_I64(make_job(paths), 0);
	check_job(paths);
	setenv("NVANALYZE_SERIES_CAP", "64", 1);
	check_job(paths);
	unsetenv("NVANALYZE_SERIES_CAP");
	for (size_t i = 0; i <= NTH; i++) {
		if (paths[i])
			unlink(paths[i]);
		free(paths[i]);
	}
}

/* Return: the records of path with latency >= thr, or -1 when it cannot be read. */
static long at_or_above(const char *path, uint64_t thr)
{
	struct nvt_reader *r;
	const struct nvt_record *x;
	size_t n;
	long cnt = 0;
	int rc;

	if (nvt_reader_open(&r, path))
		return -1;
	while ((rc = nvt_reader_next_block(r, &x, &n)) == 1)
		for (size_t i = 0; i < n; i++)
			cnt += x[i].complete_ns - x[i].submit_ns >= thr;
	nvt_reader_close(r);
	return rc ? -1 : cnt;
}

/*
 * In order, but the last record of a block and the first of the next
 * complete at the same ns, the start of a spiky interval: the reread seeks
 * to the block before (the index says where a block's first completion is,
 * not that none before it is as late).
 */
TEST(slow_io_at_a_block_boundary)
{
	struct nvt_record *r = calloc(PER, sizeof(*r));
	char *path = strdup(tpath("tie.nvt"));
	struct nv_tan t;
	struct gen g;
	uint64_t x, d, worst;
	size_t b = 10 * 1024, i;	/* the first record of block 10 (put_job_trace's 1024) */

	CHECK(r && path);
	if (!r || !path)
		goto out;
	gen_init(&g, GEN_RANDREAD, 4, 5);
	g.tail_per_mille = 0;
	for (i = 0; i < PER; i++)
		gen_record(&g, &r[i]);
	x = r[b].complete_ns;
	r[b - 1].complete_ns = x;	/* the tie */
	d = IV - (x - r[0].submit_ns) % IV;	/* t0 moved back: x an interval's start */
	r[0].submit_ns -= d;
	for (i = b - 1; i < b + 5; i++)	/* the interval's burst, from the tied ones on */
		r[i].submit_ns = r[i].complete_ns - SLOW;
	CHECK_EQ_I64(put_job_trace(path, "spiky", r, PER), 0);
	CHECK_EQ_I64(run(&path, 1, 1, &t), 0);
	CHECK_EQ_I64(t.t0, r[0].submit_ns);
	CHECK_EQ_I64((x - t.t0) % IV, 0);
	CHECK(t.spike_threshold_ns[NVT_OP_READ] > 0);
	CHECK_EQ_I64(slow_ios(&t, &worst), at_or_above(path, t.spike_threshold_ns[NVT_OP_READ]));
	CHECK_EQ_I64(worst, SLOW);
	nv_tan_free(&t);
	unlink(path);
out:
	free(path);
	free(r);
}

/* Return: the IOs of t's read series. */
static uint64_t ios_in_series(const struct nv_tan *t)
{
	uint64_t n = 0;

	for (size_t i = 0; i < t->nint; i++)
		n += t->series[NVT_OP_READ][i].ios;
	return n;
}

/*
 * A record completing before time 0 (the first record's submission): it
 * joins interval 0, stretches no span and is a slow IO at time 0, in one trace and in several, in
 * the spilled intervals' second read and in watch's stream.
 */
TEST(completion_before_time_0)
{
	struct nvt_record *r = calloc(PER, sizeof(*r));
	char *paths[2] = { strdup(tpath("early.1.nvt")), strdup(tpath("early.2.nvt")) };
	struct nv_tan t, t2, ts;
	struct gen g;
	uint64_t want;

	CHECK(r && paths[0] && paths[1]);
	if (!r || !paths[0] || !paths[1])
		goto out;
	gen_init(&g, GEN_RANDREAD, 4, 9);
	g.tail_per_mille = 0;
	for (size_t i = 0; i < PER; i++)
		gen_record(&g, &r[i]);
	want = r[PER - 1].complete_ns - r[0].submit_ns;
	r[3].complete_ns = r[0].submit_ns - 1000;	/* before time 0, a slow IO */
	r[3].submit_ns = r[3].complete_ns - SLOW;
	CHECK_EQ_I64(put_job_trace(paths[0], "spiky", r, PER), 0);
	for (size_t i = 0; i < PER; i++) {	/* a second thread, later */
		r[i].complete_ns += 1000;
		r[i].submit_ns += 1000;
	}
	CHECK_EQ_I64(put_job_trace(paths[1], "spiky", r, PER), 0);
	if (run(paths, 1, 1, &t)) {
		CHECK(!"one trace analysed");
		goto out;
	}
	CHECK_EQ_I64(t.span_ns, want);
	CHECK_EQ_I64(t.nint, want / IV + 1);
	CHECK_EQ_I64(ios_in_series(&t), PER);
	CHECK(t.nspikes == 1 && t.spikes[0].slow_ios == 1 && t.spikes[0].worst_ns == SLOW &&
	      t.spikes[0].start_ns == 0 && t.spikes[0].end_ns == 0);
	CHECK_EQ_I64(stream_differs(paths, 1, &t), 0);
	if (!run(paths, 2, 4, &t2)) {
		CHECK_EQ_I64(t2.span_ns, want + 1000);
		CHECK_EQ_I64(ios_in_series(&t2), 2 * PER);
		nv_tan_free(&t2);
	} else {
		CHECK(!"two traces analysed");
	}
	setenv("NVANALYZE_SERIES_CAP", "64", 1);
	if (!run(paths, 1, 1, &ts)) {
		CHECK_EQ_I64(ts.nint, t.nint);
		CHECK(ts.nint == t.nint && !memcmp(ts.series[NVT_OP_READ], t.series[NVT_OP_READ],
						   t.nint * sizeof(*t.series[NVT_OP_READ])));
		nv_tan_free(&ts);
	} else {
		CHECK(!"spilled intervals resolved");
	}
	unsetenv("NVANALYZE_SERIES_CAP");
	nv_tan_free(&t);
out:
	for (size_t i = 0; i < 2; i++) {
		if (paths[i])
			unlink(paths[i]);
		free(paths[i]);
	}
	free(r);
}

int main(void)
{
	if (tmpdir_make("trace_order"))
		return 1;
	RUN(slow_ios_completing_out_of_order);
	RUN(slow_io_at_a_block_boundary);
	RUN(completion_before_time_0);
	tmpdir_remove();
	return check_summary();
}
