/*
 * test_curve.c - load curves: sweep recognition from job options, the
 * knee, the SLA search, steady state over rounds, round tags, fio's
 * steadystate and latency_target objects.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/input/fiojson.h"
#include "analyze/report/curves.h"
#include "analyze/stats/curve.h"
#include "analyze/stats/steady.h"

/* Options "k=v" ... as a jobmeta (free with nv_jobmeta_free). */
static struct nv_jobmeta meta(const char *const *kv, size_t n)
{
	json_t *o = json_object();
	struct nv_jobmeta m;

	for (size_t i = 0; i < n; i++) {
		char k[64];
		const char *eq = strchr(kv[i], '=');

		snprintf(k, sizeof(k), "%.*s", (int)(eq - kv[i]), kv[i]);
		json_object_set_new(o, k, json_string(eq + 1));
	}
	nv_jobmeta_parse(o, o, NULL, &m);
	json_decref(o);
	return m;
}

TEST(sweep_iodepth_any_order_default_depth)
{
	const char *a[] = { "rw=randread", "bs=4k", "iodepth=8" };
	const char *b[] = { "rw=randread", "bs=4k" };	/* iodepth 1: fio's default */
	const char *c[] = { "rw=randread", "bs=4k", "iodepth=2" };
	const char *d[] = { "rw=randwrite", "bs=4k", "iodepth=2" };	/* another family */
	struct nv_jobmeta m[4] = { meta(a, 3), meta(b, 2), meta(c, 3), meta(d, 3) };
	struct nv_sweep_job j[4] = {
		{ "qd8", &m[0], NV_DIR_READ }, { "qd1", &m[1], NV_DIR_READ },
		{ "qd2", &m[2], NV_DIR_READ }, { "w", &m[3], NV_DIR_WRITE },
	};
	struct nv_sweeps s;
	char buf[64];

	CHECK(!nv_sweeps_find(j, 4, &s));
	CHECK_EQ_U64(s.n, 1);
	if (s.n == 1) {
		CHECK_EQ_U64(s.s[0].nparams, 1);
		CHECK(s.s[0].param[0] == NV_SW_IODEPTH);
		CHECK_EQ_U64(s.s[0].npoints, 3);
		CHECK_EQ_U64(s.s[0].pt[0].job, 1);
		CHECK_EQ_U64(s.s[0].pt[1].job, 2);
		CHECK_EQ_U64(s.s[0].pt[2].job, 0);
		CHECK_STR(s.s[0].name, "qd");
		nv_sweep_point_name(buf, sizeof(buf), &s.s[0], 2);
		CHECK_STR(buf, "iodepth=8");
	}
	nv_sweeps_free(&s);
	for (int i = 0; i < 4; i++)
		nv_jobmeta_free(&m[i]);
}

/* jobs/run's names keep what is before '@' whole, a trailing digit too. */
TEST(sweep_family_name_before_at_whole)
{
	const char *a[] = { "rw=randread", "bs=4k", "iodepth=1", "numjobs=4" };
	const char *b[] = { "rw=randread", "bs=4k", "iodepth=16", "numjobs=4" };
	struct nv_jobmeta m[2] = { meta(a, 4), meta(b, 4) };
	struct nv_sweep_job j[2] = {
		{ "randread-qd64-j4@iodepth=1", &m[0], NV_DIR_READ },
		{ "randread-qd64-j4@iodepth=16", &m[1], NV_DIR_READ },
	};
	struct nv_sweeps s;

	CHECK(!nv_sweeps_find(j, 2, &s));
	CHECK_EQ_U64(s.n, 1);
	if (s.n == 1)
		CHECK_STR(s.s[0].name, "randread-qd64-j4");
	nv_sweeps_free(&s);
	for (int i = 0; i < 2; i++)
		nv_jobmeta_free(&m[i]);
}

TEST(sweep_matrix_named_by_jobs_run)
{
	const char *kv[4][3] = {
		{"rw=randrw", "bs=4k", "iodepth=1"},
		{"rw=randrw", "bs=4k", "iodepth=4"},
		{"rw=randrw", "blocksize=64k", "iodepth=1"},
		{"rw=randrw", "bs=64k", "iodepth=4"},
	};
	const char *names[4] = { "mix@bs=4k,iodepth=1", "mix@bs=4k,iodepth=4",
				 "mix@bs=64k,iodepth=1", "mix@bs=64k,iodepth=4" };
	struct nv_jobmeta m[4];
	struct nv_sweep_job j[4];
	struct nv_sweeps s;
	char buf[64];

	for (int i = 0; i < 4; i++) {
		m[i] = meta(kv[3 - i], 3);
		j[i] = (struct nv_sweep_job){ names[3 - i], &m[i], NV_DIR_READ };
	}
	CHECK(!nv_sweeps_find(j, 4, &s));
	CHECK_EQ_U64(s.n, 1);
	if (s.n == 1) {
		CHECK_EQ_U64(s.s[0].nparams, 2);
		CHECK(s.s[0].param[0] == NV_SW_BS && s.s[0].param[1] == NV_SW_IODEPTH);
		CHECK_STR(s.s[0].name, "mix");
		nv_sweep_point_name(buf, sizeof(buf), &s.s[0], 0);
		CHECK_STR(buf, "bs=4k,iodepth=1");
		nv_sweep_point_name(buf, sizeof(buf), &s.s[0], 3);
		CHECK_STR(buf, "bs=64k,iodepth=4");
	}
	nv_sweeps_free(&s);
	for (int i = 0; i < 4; i++)
		nv_jobmeta_free(&m[i]);
}

TEST(no_sweep_same_point_or_other_option)
{
	const char *a[] = { "rw=randread", "iodepth=4" };
	const char *b[] = { "rw=randread", "iodepth=4" };	/* same point: rounds, repeats */
	const char *c[] = { "rw=randread", "iodepth=8", "size=1g" };	/* another option */
	struct nv_jobmeta m[3] = { meta(a, 2), meta(b, 2), meta(c, 3) };
	struct nv_sweep_job j[3] = {
		{ "x@round=1", &m[0], NV_DIR_READ }, { "x@round=2", &m[1], NV_DIR_READ },
		{ "y", &m[2], NV_DIR_READ },
	};
	struct nv_sweeps s;

	CHECK(!nv_sweeps_find(j, 3, &s));
	CHECK_EQ_U64(s.n, 0);
	nv_sweeps_free(&s);
	for (int i = 0; i < 3; i++)
		nv_jobmeta_free(&m[i]);
}

/*
 * A sweep's bs under the kb_base set before it, as fio parses (and as the
 * JSON reader's bs): "bs=4k" then "kb_base=1000" is 4096 bytes,
 * "kb_base=1000" then "bs=8k" 8000; global options before the job's.
 */
TEST(sweep_bs_under_kb_base_before_it)
{
	const char *a[] = { "rw=randread", "bs=4k", "kb_base=1000" };
	const char *b[] = { "rw=randread", "kb_base=1000", "bs=8k" };
	struct nv_jobmeta m[2] = { meta(a, 3), meta(b, 3) };
	struct nv_sweep_job j[2] = {
		{ "a", &m[0], NV_DIR_READ }, { "b", &m[1], NV_DIR_READ },
	};
	json_t *g = json_pack("{s:s}", "kb_base", "1000");
	json_t *jo = json_pack("{s:s}", "bs", "4k");
	struct nv_jobmeta gm;
	struct nv_sweeps s;

	CHECK(!nv_sweeps_find(j, 2, &s));
	CHECK_EQ_U64(s.n, 1);
	if (s.n == 1 && s.s[0].npoints == 2) {
		CHECK(s.s[0].pt[0].v[NV_SW_BS] == 4096);
		CHECK(s.s[0].pt[1].v[NV_SW_BS] == 8000);
	}
	nv_sweeps_free(&s);
	CHECK(!nv_jobmeta_parse(jo, jo, g, &gm));	/* global kb_base, the job's bs */
	CHECK_EQ_U64(gm.bs_kb, 1000);
	nv_jobmeta_free(&gm);
	CHECK(!nv_jobmeta_parse(g, g, jo, &gm));	/* global bs, the job's kb_base */
	CHECK_EQ_U64(gm.bs_kb, 1024);
	nv_jobmeta_free(&gm);
	json_decref(g);
	json_decref(jo);
	for (int i = 0; i < 2; i++)
		nv_jobmeta_free(&m[i]);
}

TEST(knee)
{
	struct nv_knee_opts o = { 2, 10 };
	double t[] = { 10000, 20000, 40000, 42000, 43000 };
	double l[] = { 100, 110, 130, 300, 900 };
	double t2[] = { 10000, 20000, NAN, 40000 };
	double l2[] = { 100, 110, 999, 250 };
	double t3[] = { 50000, 95000, 93000, 141000, 161000, 163000 };
	double l3[] = { 80, 90, 200, 260, 300, 900 };
	size_t prev = 99;

	CHECK_EQ_I64(nv_knee_find(t, l, 5, &o, &prev), 3);
	CHECK_EQ_U64(prev, 2);
	o.lat_factor = 3;	/* 300/130 = 2.3 no longer; 900/300 = 3 is not more than 3 */
	CHECK_EQ_I64(nv_knee_find(t, l, 5, &o, &prev), -1);
	o.lat_factor = 2;
	o.tput_pct = 4;		/* 42000 is +5% over 40000: not a knee under 4% */
	CHECK_EQ_I64(nv_knee_find(t, l, 5, &o, &prev), 4);
	CHECK_EQ_U64(prev, 3);
	o.tput_pct = 10;	/* an absent point is skipped: 250 vs 110 with IOPS doubled */
	CHECK_EQ_I64(nv_knee_find(t2, l2, 4, &o, &prev), -1);
	/* a noisy dip at iodepth 4, then +52% and +70%: the knee is at 32 */
	CHECK_EQ_I64(nv_knee_find(t3, l3, 6, &o, &prev), 5);
	CHECK_EQ_U64(prev, 4);
}

TEST(sla_search)
{
	enum nv_sla_verdict v[] = { NV_SLA_MET, NV_SLA_MET, NV_SLA_ABSENT, NV_SLA_NOT_MET,
				    NV_SLA_CANNOT_TELL, NV_SLA_MET };
	double t[] = { 100, 300, 0, 400, 450, 200 };
	struct nv_sla_answer a;

	nv_sla_search(v, t, 6, &a);
	CHECK_EQ_I64(a.best, 1);
	CHECK_EQ_I64(a.first_fail, 3);
	CHECK_EQ_I64(a.first_unsure, 4);
	CHECK_EQ_I64(a.first_absent, 2);
	CHECK_EQ_U64(a.nabsent, 1);
	v[3] = v[4] = NV_SLA_MET;
	nv_sla_search(v, t, 6, &a);
	CHECK_EQ_I64(a.best, 4);
	CHECK_EQ_I64(a.first_fail, -1);
	CHECK_EQ_I64(a.first_unsure, -1);
	for (size_t i = 0; i < 6; i++)	/* the metric measured nowhere: no answer at all */
		v[i] = NV_SLA_ABSENT;
	nv_sla_search(v, t, 6, &a);
	CHECK_EQ_I64(a.best, -1);
	CHECK_EQ_I64(a.first_fail, -1);
	CHECK_EQ_I64(a.first_absent, 0);
	CHECK_EQ_U64(a.nabsent, 6);
}

static const struct nv_steady_opts so = { 5, 20, 10 };

TEST(steady_flat)
{
	double v[] = { 100, 101, 99, 100, 102, 100, 98 };
	struct nv_steady st;

	nv_steady_find(v, 7, &so, &st);
	CHECK(st.reached);
	CHECK_EQ_U64(st.first, 0);
	CHECK(fabs(st.mean - 100.4) < 1e-9);
}

TEST(steady_rising_then_flat)
{
	/* fresh-out-of-box falling to a plateau from the 5th round (index 4) */
	double v[] = { 400, 300, 200, 150, 100, 101, 99, 100, 100, 102 };
	struct nv_steady st;

	nv_steady_find(v, 10, &so, &st);
	CHECK(st.reached);
	CHECK_EQ_U64(st.first, 4);
	CHECK(fabs(st.mean - 100) < 1e-9);
}

TEST(steady_never)
{
	/* range 33% of the mean */
	double rising[] = { 100, 110, 120, 130, 140, 150, 160, 170 };
	double saw[] = { 100, 130, 100, 130, 100, 130, 100 };	/* range 26% of the mean */
	double few[] = { 100, 100, 100, 100 };
	struct nv_steady st;

	nv_steady_find(rising, 8, &so, &st);
	CHECK(!st.reached);
	nv_steady_find(saw, 7, &so, &st);
	CHECK(!st.reached);
	nv_steady_find(few, 4, &so, &st);
	CHECK(!st.reached);
}

TEST(steady_slope_only)
{
	/* range 8% of the mean (within 20%) but the line rises 8 across the window: 8% > 5% */
	double v[] = { 96, 98, 100, 102, 104 };
	struct nv_steady_opts o = { 5, 20, 5 };
	struct nv_steady st;

	nv_steady_find(v, 5, &o, &st);
	CHECK(!st.reached);
	o.slope_pct = 10;
	nv_steady_find(v, 5, &o, &st);
	CHECK(st.reached);
	CHECK(fabs(st.slope - 2) < 1e-9);
}

TEST(round_tags)
{
	char b[64];

	CHECK_EQ_U64(nv_round_of("precondition@round=3", b, sizeof(b)), 3);
	CHECK_STR(b, "precondition");
	CHECK_EQ_U64(nv_round_of("w@bs=4k,round=12", b, sizeof(b)), 12);
	CHECK_STR(b, "w@bs=4k");
	CHECK_EQ_U64(nv_round_of("w@round=2,iodepth=8", b, sizeof(b)), 2);
	CHECK_STR(b, "w@iodepth=8");
	CHECK_EQ_U64(nv_round_of("w@round=x", b, sizeof(b)), 0);
	CHECK_EQ_U64(nv_round_of("round=2", b, sizeof(b)), 0);
}

TEST(fio_steadystate_and_latency_target)
{
	static const char js[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"elapsed\": 12,"
		" \"job options\": {\"rw\": \"read\", \"iodepth\": \"4\"},"
		" \"latency_depth\": 2, \"latency_target\": 500000, \"latency_percentile\": 99.0,"
		" \"latency_window\": 1000000,"
		" \"steadystate\": {\"ss\": \"bw_slope:2.000000%\", \"duration\": 5,"
		" \"attained\": 1,"
		"  \"criterion\": \"0.4%\", \"max_deviation\": 1.5, \"slope\": 0.25,"
		"  \"data\": {\"bw_mean\": 1000, \"iops_mean\": 10, \"iops\": [9, 10, 11],"
		"  \"bw\": [900, 1000, 1100]}}},"
		" {\"jobname\": \"k\", \"latency_depth\": 1, \"latency_target\": 0}]}";
	struct nv_run run;
	char err[256];

	CHECK(!nv_fio_parse(js, sizeof(js) - 1, "t.json", &run, err, sizeof(err)));
	CHECK_STR(nv_jobmeta_opt(&run.jobs[0].meta, "iodepth"), "4");
	CHECK(run.jobs[0].meta.lt.present);
	CHECK(run.jobs[0].meta.lt.target_ns == 500000 && run.jobs[0].meta.lt.depth == 2);
	CHECK(run.jobs[0].meta.lt.window_ns == 1e9 && run.jobs[0].meta.lt.percentile == 99);
	CHECK(!run.jobs[1].meta.lt.present);	/* fio writes the depth without a target too */
	CHECK(run.jobs[0].meta.ss.present && run.jobs[0].meta.ss.attained);
	CHECK_STR(run.jobs[0].meta.ss.ss, "bw_slope:2.000000%");
	CHECK_STR(run.jobs[0].meta.ss.criterion, "0.4%");
	CHECK(run.jobs[0].meta.ss.elapsed == 12 && run.jobs[0].meta.ss.duration == 5);
	CHECK(run.jobs[0].meta.ss.ndata == 3 && run.jobs[0].meta.ss.bw[2] == 1100);
	CHECK(!run.jobs[1].meta.ss.present);
	nv_run_free(&run);
}

int main(void)
{
	RUN(sweep_iodepth_any_order_default_depth);
	RUN(sweep_family_name_before_at_whole);
	RUN(sweep_matrix_named_by_jobs_run);
	RUN(no_sweep_same_point_or_other_option);
	RUN(sweep_bs_under_kb_base_before_it);
	RUN(knee);
	RUN(sla_search);
	RUN(steady_flat);
	RUN(steady_rising_then_flat);
	RUN(steady_never);
	RUN(steady_slope_only);
	RUN(round_tags);
	RUN(fio_steadystate_and_latency_target);
	return check_summary();
}
