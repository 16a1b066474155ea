/*
 * test_repeats.c - stats/repeats.c: Student's t, cells of repeats (aggregates,
 * spread, logs) and the log-scale Welch interval of a change (read as
 * report/format.c writes it).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"
#include "analyze/report/format.h"
#include "analyze/stats/repeats.h"

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

TEST(mean_half)
{
	double v[] = { 10, 12, 14, 16, 18 }, one = 7;
	struct nv_cell c;

	/* sd of 10..18 step 2 is sqrt(10); t(0.975, 4) = 2.776445 */
	nv_repeats_cell(v, 5, NV_AGG_MEAN, true, &c);
	CHECK(near(nv_repeats_mean_half(&c), 2.776445 * sqrt(10.0) / sqrt(5.0), 1e-5));
	nv_repeats_cell(&one, 1, NV_AGG_MEAN, true, &c);
	CHECK(nv_repeats_mean_half(&c) == 0);
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
	CHECK(ch.have_ci && near(ch.lo, 100, 1e-9) && near(ch.hi, 100, 1e-9) &&
	      ch.verdict == NV_BETTER);

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

/*
 * One value a side read from text: their printed ranges decide "within the
 * printed precision".  fio's truncated 6 and 4 us (terse) are [6, 7) and
 * [4, 5): apart, a verdict; 6 and 7 touch; rounded 6 and 4 +-1 overlap;
 * normal-output percentiles fio rounds up, 6 and 7 are (5, 6] and (6, 7].
 */
TEST(single_printed_ranges)
{
	double six = 6, four = 4, seven = 7;
	struct nv_cell a, b;
	struct nv_change ch;

	nv_repeats_cell(&six, 1, NV_AGG_MEAN, false, &a);
	nv_repeats_cell(&four, 1, NV_AGG_MEAN, false, &b);
	a.prec = b.prec = 1;
	a.cut = b.cut = NV_CUT_DOWN;
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(!ch.within_prec && ch.verdict == NV_WORSE);
	a.cut = b.cut = NV_CUT_UP;
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(!ch.within_prec && ch.verdict == NV_WORSE);
	a.cut = b.cut = NV_CUT_ROUND;
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(ch.within_prec && ch.verdict == NV_SAME);
	nv_repeats_cell(&seven, 1, NV_AGG_MEAN, false, &b);
	b.prec = 1;
	a.cut = b.cut = NV_CUT_DOWN;
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(ch.within_prec);
	b.prec = 0;	/* an exact 7 (JSON) against a truncated 6: [6, 7] holds it */
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(ch.within_prec);
	b.value = 5.5;	/* below [6, 7]: a verdict */
	nv_repeats_change(&a, &b, false, &ch);
	CHECK(!ch.within_prec && ch.verdict == NV_WORSE);
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

int main(void)
{
	RUN(t_quantiles);
	RUN(mean_half);
	RUN(cells_and_log_welch);
	RUN(aggregates);
	RUN(single_printed_ranges);
	return check_summary();
}
