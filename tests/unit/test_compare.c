/*
 * test_compare.c - statistics, changes, claims, prices, formatting and the
 * report model (matching, missing values, the "exact" source label).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"
#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/report/render.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

TEST(t_quantiles)
{
	/* two-sided 95% critical values from the t table */
	CHECK(near(nv_repeats_t_quantile(0.975, 1), 12.706205, 1e-5));
	CHECK(near(nv_repeats_t_quantile(0.975, 2), 4.302653, 1e-6));
	CHECK(near(nv_repeats_t_quantile(0.975, 4), 2.776445, 1e-6));
	CHECK(near(nv_repeats_t_quantile(0.975, 10), 2.228139, 1e-6));
	CHECK(near(nv_repeats_t_quantile(0.975, 30), 2.042272, 1e-6));
	CHECK(near(nv_repeats_t_quantile(0.975, 1e7), 1.959964, 1e-5));
	CHECK(near(nv_repeats_t_quantile(0.025, 4), -2.776445, 1e-6));
	CHECK(isnan(nv_repeats_t_quantile(1.0, 4)) && isnan(nv_repeats_t_quantile(0.5, 0)));
}

TEST(cells_and_log_welch)
{
	double a[] = { 1, 2, 4 }, b[] = { 4, 8, 16 };
	struct nv_cell ca, cb;
	struct nv_change ch;
	char buf[128];

	nv_repeats_cell(a, 3, NV_AGG_MEAN, true, &ca);
	nv_repeats_cell(b, 3, NV_AGG_MEAN, true, &cb);
	CHECK(ca.n == 3 && near(ca.mean, 7.0 / 3, 1e-12) && ca.value == ca.mean && ca.median == 2);
	CHECK(ca.min == 1 && ca.max == 4 && ca.positive);
	/* ln a = {0, L, 2L}, ln b = {2L, 3L, 4L} with L = ln 2: means L and 3L, both sd L */
	CHECK(near(ca.lmean, M_LN2, 1e-12) && near(ca.lsd, M_LN2, 1e-12));
	CHECK(near(cb.lmean, 3 * M_LN2, 1e-12) && near(cb.lsd, M_LN2, 1e-12));
	/*
	 * d = -2L, se = L sqrt(1/3 + 1/3), equal variances and sizes: df = 4,
	 * t(0.975, 4) = 2.776445 (table); exp(d +- t se) = 2^(-2 +- t sqrt(2/3)).
	 * Means 7/3 vs 28/3: -75%; ratio of geometric means 2^-2: -75% too.
	 */
	nv_repeats_change(&ca, &cb, true, &ch);
	CHECK(ch.have && near(ch.pct, -75, 1e-9) && near(ch.gm_pct, -75, 1e-9));
	CHECK(ch.have_ci && ch.n == 3 && ch.nbase == 3);
	CHECK(near(ch.lo, 100 * (pow(2, -2 - 2.776445 * sqrt(2.0 / 3)) - 1), 1e-4));
	CHECK(near(ch.hi, 100 * (pow(2, -2 + 2.776445 * sqrt(2.0 / 3)) - 1), 1e-4));
	CHECK(ch.lo > -100 && ch.noise && ch.verdict == NV_SAME);	/* [-94.8%, +20.3%] */
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "-75.0% ~ within noise [-94.8%, +20.3%] n=3+3");
	CHECK_STR(nv_change_verdict_name(&ch), "within noise");

	/* separated samples: the interval excludes 0, the verdict is read from it */
	double c[] = { 10, 11, 12 }, d[] = { 20, 21, 22 };
	struct nv_cell cc, cd;

	nv_repeats_cell(c, 3, NV_AGG_MEAN, false, &cc);
	nv_repeats_cell(d, 3, NV_AGG_MEAN, false, &cd);
	nv_repeats_change(&cc, &cd, true, &ch);
	CHECK(ch.have_ci && !ch.noise && ch.hi < 0 && ch.lo > -100 && ch.verdict == NV_WORSE);
	nv_repeats_change(&cc, &cd, false, &ch);
	CHECK(ch.verdict == NV_BETTER);
	CHECK_STR(nv_change_verdict_name(&ch), "better");

	/* no spread on either side: the interval is the point */
	double two[] = { 2, 2, 2 }, one[] = { 1, 1, 1 };

	nv_repeats_cell(two, 3, NV_AGG_MEAN, true, &cc);
	nv_repeats_cell(one, 3, NV_AGG_MEAN, true, &cd);
	nv_repeats_change(&cc, &cd, true, &ch);
	CHECK(ch.have_ci && near(ch.lo, 100, 1e-9) && near(ch.hi, 100, 1e-9) && ch.verdict == NV_BETTER);

	/* two runs on a side: no interval, no verdict, the reason printed */
	nv_repeats_cell(a, 2, NV_AGG_MEAN, true, &ca);
	nv_repeats_change(&ca, &cb, true, &ch);
	CHECK(ch.have && !ch.have_ci && ch.why == NV_CI_FEW_RUNS && ch.verdict == NV_SAME);
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "-83.9% n=2+3, no interval: < 3 runs");
	CHECK_STR(nv_change_verdict_name(&ch), "cannot tell");

	/* a value of 0: no logarithm, no interval */
	double z[] = { 0, 1, 2 };

	nv_repeats_cell(z, 3, NV_AGG_MEAN, true, &ca);
	nv_repeats_change(&ca, &cb, true, &ch);
	CHECK(!ca.positive && !ch.have_ci && ch.why == NV_CI_NOT_POSITIVE);

	/* one run per side: a change and a verdict by its sign, no interval */
	nv_repeats_cell(a, 1, NV_AGG_MEAN, false, &ca);
	nv_repeats_cell(b, 1, NV_AGG_MEAN, false, &cb);
	nv_repeats_change(&ca, &cb, false, &ch);
	CHECK(ch.have && !ch.have_ci && ch.why == NV_CI_SINGLE && ch.verdict == NV_BETTER);
	CHECK(near(ch.pct, -75, 1e-12));

	/* missing or zero baseline: no change */
	nv_repeats_cell(a, 0, NV_AGG_MEAN, true, &cb);
	nv_repeats_change(&ca, &cb, true, &ch);
	CHECK(!ch.have);
}

TEST(aggregates)
{
	double v[] = { 3, 1, 2 }, e[] = { 4, 1, 3, 2 };
	struct nv_cell c;
	enum nv_aggregate a;

	nv_repeats_cell(v, 3, NV_AGG_MEDIAN, true, &c);
	CHECK(c.value == 2 && c.mean == 2);
	nv_repeats_cell(e, 4, NV_AGG_MEDIAN, true, &c);
	CHECK(c.value == 2.5);
	nv_repeats_cell(v, 3, NV_AGG_BEST, true, &c);	/* IOPS: the highest */
	CHECK(c.value == 3);
	nv_repeats_cell(v, 3, NV_AGG_BEST, false, &c);	/* latency: the lowest */
	CHECK(c.value == 1);
	nv_repeats_cell(v, 3, NV_AGG_MIN, true, &c);
	CHECK(c.value == 1);
	nv_repeats_cell(v, 3, NV_AGG_MAX, false, &c);
	CHECK(c.value == 3);
	CHECK(nv_aggregate_parse("best", &a) == 0 && a == NV_AGG_BEST);
	CHECK(nv_aggregate_parse("average", &a) == -EINVAL);
	CHECK_STR(nv_aggregate_name(NV_AGG_MEDIAN), "median");
}

/* The example table: i7i.large vs i4i.large. */
TEST(example_table)
{
	struct nv_cell a = { .n = 1, .value = 77282 }, b = { .n = 1, .value = 51470 };
	struct nv_change ch;
	char buf[128];

	nv_repeats_change(&a, &b, true, &ch);
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+50.1% (better)");
	a.value = 72, b.value = 101;
	nv_repeats_change(&a, &b, false, &ch);
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "-28.7% (better)");
	a.value = 254, b.value = 119;
	nv_repeats_change(&a, &b, false, &ch);
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+113.4% (worse)");
	a.value = 10, b.value = 8;
	nv_repeats_change(&a, &b, false, &ch);
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+25.0% (worse)");

	/* $0.1888/h at 77,282 IOPS -> $0.00244 per 1k IOPS */
	CHECK(near(nv_cost_per_kiops(0.1888, 77282), 0.0024430010, 1e-9));
	nv_fmt_value(buf, sizeof(buf), nv_cost_per_kiops(0.1888, 77282), NV_U_USD_KIOPS);
	CHECK_STR(buf, "$0.00244");
	nv_fmt_value(buf, sizeof(buf), 0.1888, NV_U_USD_H);
	CHECK_STR(buf, "$0.1888/h");
	CHECK(isnan(nv_cost_per_kiops(0.1888, 0)));
}

TEST(formatting)
{
	char buf[64];
	struct nv_change ch = { .have = true, .pct = 1.23, .have_ci = true, .lo = -3.14, .hi = 5.36,
				.noise = true, .verdict = NV_BETTER, .n = 3, .nbase = 4 };

	nv_fmt_value(buf, sizeof(buf), 77282.4, NV_U_IOPS);
	CHECK_STR(buf, "77,282");
	nv_fmt_value(buf, sizeof(buf), 1234567.0, NV_U_IOPS);
	CHECK_STR(buf, "1,234,567");
	nv_fmt_value(buf, sizeof(buf), 70.4235, NV_U_IOPS);
	CHECK_STR(buf, "70.42");
	nv_fmt_value(buf, sizeof(buf), 316.52, NV_U_MBPS);
	CHECK_STR(buf, "316.5 MB/s");
	nv_fmt_value(buf, sizeof(buf), 72000, NV_U_NS);
	CHECK_STR(buf, "72.0 us");
	nv_fmt_value(buf, sizeof(buf), 999.7, NV_U_NS);
	CHECK_STR(buf, "1.00 us");
	nv_fmt_value(buf, sizeof(buf), 46, NV_U_NS);
	CHECK_STR(buf, "46 ns");
	nv_fmt_value(buf, sizeof(buf), 4.09e9, NV_U_NS);
	CHECK_STR(buf, "4.09 s");
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+1.2% ~ within noise [-3.1%, +5.4%] n=3+4");
	ch.noise = false;
	ch.lo = 0.5;
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+1.2% (better) [+0.5%, +5.4%] n=3+4");
	ch.noise = true;
	ch.lo = -99.97;	/* never printed as -100.0%: a ratio above 0 */
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+1.2% ~ within noise [-99.97%, +5.4%] n=3+4");
	ch.lo = -99.9999912;
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "+1.2% ~ within noise [-99.99999%, +5.4%] n=3+4");
	ch.have = false;
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "n/a");
	nv_fmt_exact(buf, sizeof(buf), 0.1);
	CHECK_STR(buf, "0.1");
	nv_fmt_exact(buf, sizeof(buf), 49.781863);
	CHECK_STR(buf, "49.781863");
	nv_fmt_exact(buf, sizeof(buf), 1.0 / 3);
	CHECK(strtod(buf, NULL) == 1.0 / 3);
	/* CSV: one plain decimal format, exact, never an exponent */
	nv_fmt_decimal(buf, sizeof(buf), 880640);
	CHECK_STR(buf, "880640");
	nv_fmt_decimal(buf, sizeof(buf), 4554752);
	CHECK_STR(buf, "4554752");
	nv_fmt_decimal(buf, sizeof(buf), 1.5e-7);
	CHECK_STR(buf, "0.00000015");
	nv_fmt_decimal(buf, sizeof(buf), -12.5);
	CHECK_STR(buf, "-12.5");
	nv_fmt_decimal(buf, sizeof(buf), 1e22);
	CHECK_STR(buf, "10000000000000000000000");
}

TEST(cli_numbers)
{
	double v;
	unsigned long n;

	CHECK(nv_parse_double("0.1888", &v) == 0 && v == 0.1888);
	CHECK(nv_parse_double("+50", &v) == 0 && v == 50);
	CHECK(nv_parse_double("", &v) == -EINVAL);
	CHECK(nv_parse_double(" 1", &v) == -EINVAL);
	CHECK(nv_parse_double("1x", &v) == -EINVAL);
	CHECK(nv_parse_double("nan", &v) == -EINVAL);
	CHECK(nv_parse_double("1e999", &v) == -ERANGE);
	CHECK(nv_parse_index("2", &n) == 0 && n == 2);
	CHECK(nv_parse_index("0", &n) == -ERANGE);
	CHECK(nv_parse_index("-1", &n) == -EINVAL);
}

/* A run with one job "j" reading at iops (p99.9 missing unless given). */
static void mkrun(struct nv_run *run, struct nv_job *job, const char *name, double iops, double p999)
{
	memset(run, 0, sizeof(*run));
	memset(job, 0, sizeof(*job));
	run->path = (char *)"x.json";
	run->njobs = 1;
	run->jobs = job;
	job->name = job->key = (char *)name;
	job->desc = (char *)"";
	job->dir[NV_DIR_READ].present = true;
	job->dir[NV_DIR_READ].have_ios = true;
	job->dir[NV_DIR_READ].ios = 10;
	job->dir[NV_DIR_READ].iops = (struct nv_val){ iops, NV_SRC_FIO };
	job->dir[NV_DIR_READ].lat[NV_LAT_CLAT].mean = (struct nv_val){ 1000, NV_SRC_FIO };
	if (p999 > 0)	/* fio's binned value (the traces' exact one: mkexact) */
		job->dir[NV_DIR_READ].lat[NV_LAT_CLAT].pct[NV_P999] =
			(struct nv_val){ p999 * 1.01, NV_SRC_FIO };
}

/* The trace join of job 0 of run: an exact read p99.9 beside fio's. */
static void mkexact(struct nv_jobtraces *e, struct nv_jobjoin *jj, const struct nv_run *run,
		    double p999)
{
	memset(e, 0, sizeof(*e));
	memset(jj, 0, sizeof(*jj));
	e->run = run;
	jj->jt = e;
	jj->exact[NV_DIR_READ] = true;
	jj->exact_clat[NV_DIR_READ].pct[NV_P999] = (struct nv_val){ p999, NV_SRC_EXACT };
}

/* The percentile metrics name their entry of the one percentile table. */
TEST(percentile_table)
{
	unsigned n = 0;

	for (unsigned i = 1; i < NV_PCT_NR; i++)
		CHECK(nv_pcts[i - 1].value < nv_pcts[i].value);
	for (unsigned m = 0; m < NV_M_NR; m++) {
		const struct nv_metric_info *mi = nv_metric((enum nv_metric)m);

		if (!mi->pct)
			continue;
		n++;
		CHECK_STR(mi->key, mi->pct->name);
		CHECK(mi->latency && mi->pct >= nv_pcts && mi->pct < nv_pcts + NV_PCT_NR);
	}
	CHECK_EQ_U64(n, 5);	/* p50 p95 p99 p99.9 p99.99 are rows; p90 is not */
}

TEST(report)
{
	struct nv_run ra[2], rb, rc;
	struct nv_job ja[2], jb, jc;
	struct nv_jobtraces jt;
	struct nv_jobjoin jj;
	struct nv_tracejoin tj = { .n = 1, .j = &jj };
	struct nv_side sides[3] = {
		{ .label = "new", .nruns = 2, .runs = ra, .have_price = true, .price = 0.1888 },
		{ .label = "solo", .nruns = 1, .runs = &rc, .traces = &tj },
		{ .label = "old", .nruns = 1, .runs = &rb },
	};
	struct nv_claim claim = { .metric = NV_M_IOPS, .pct = 50, .text = (char *)"iops:+50%" };
	char err[200];
	struct nv_report r;
	const struct nv_row *row;

	mkrun(&ra[0], &ja[0], "j", 77282, 0);
	mkrun(&ra[1], &ja[1], "j", 77282, 0);
	mkrun(&rb, &jb, "j", 51470, 0);
	mkrun(&rc, &jc, "other", 10, 2000);
	mkexact(&jt, &jj, &rc, 2000);
	CHECK(nv_report_build(sides, 3, 2, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r) == 0);
	CHECK(nv_claims_eval(&r, &claim, 1, err, sizeof(err)) == 0);
	CHECK_EQ_U64(r.nblocks, 2);
	CHECK_STR(r.blocks[0].key, "j");
	CHECK(r.blocks[0].present[0] && !r.blocks[0].present[1] && r.blocks[0].present[2]);
	row = nv_block_row(&r.blocks[0], NV_M_IOPS);
	CHECK(row && row->cells[0].n == 2 && row->cells[0].mean == 77282);
	CHECK(row && row->cells[1].n == 0 && row->cells[1].absent == 1);
	CHECK(row && near(row->chg[0].pct, 50.149601709733, 1e-9));
	row = nv_block_row(&r.blocks[0], NV_M_P999);	/* missing everywhere: kept, empty */
	CHECK(row && row->cells[0].n == 0 && row->cells[2].n == 0 && !row->chg[0].have);
	CHECK(nv_block_row(&r.blocks[0], NV_M_P50) != NULL);
	CHECK(nv_block_row(&r.blocks[0], NV_M_BW) == NULL);	/* nobody has it */
	row = nv_block_row(&r.blocks[0], NV_M_COST);
	CHECK(row && row->cells[0].n == 2 && near(row->cells[0].mean, 0.0024430010, 1e-9));
	row = nv_block_row(&r.blocks[0], NV_M_PRICE);
	CHECK(row && row->cells[0].n == 1 && row->cells[2].n == 0);
	row = nv_block_row(&r.blocks[1], NV_M_P999);	/* the cell shows the exact value, fio's beside */
	CHECK(row && row->cells[1].src == NV_SRC_EXACT && row->cells[1].mean == 2000);
	CHECK(row && row->fio && row->fio[1].src == NV_SRC_FIO && row->fio[1].mean == 2020);
	CHECK(jc.dir[NV_DIR_READ].lat[NV_LAT_CLAT].pct[NV_P999].v == 2020);	/* not overwritten */
	/* claim: new vs old +50.1% but 2+1 runs, no interval: cannot tell */
	CHECK(r.nclaims >= 1 && r.claims[0].verdict == NV_CLAIM_CANNOT_TELL && r.claims[0].side == 0);
	CHECK(!row || !r.blocks[0].rows[0].chg[0].have_ci);
	/* "solo" has no job j and old no "other" */
	/* solo vs old for both jobs: no data on one side, which cannot tell */
	CHECK(r.nclaims == 3 && r.claims[1].verdict == NV_CLAIM_CANNOT_TELL);
	CHECK(r.claims[2].verdict == NV_CLAIM_CANNOT_TELL && r.claims[2].block == 1);
	CHECK(!r.claims_failed);
	nv_report_free(&r);

	struct nv_select sel = { .njobs = 1, .jobs = (char *[]){ "oth*" } };

	CHECK(nv_report_build(sides, 3, 0, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, &sel, &r) == 0);
	CHECK(r.nblocks == 1 && !strcmp(r.blocks[0].key, "other") && r.baseline == 0);
	nv_report_free(&r);
}

int main(void)
{
	RUN(t_quantiles);
	RUN(percentile_table);
	RUN(cells_and_log_welch);
	RUN(aggregates);
	RUN(example_table);
	RUN(formatting);
	RUN(cli_numbers);
	RUN(report);
	return check_summary();
}
