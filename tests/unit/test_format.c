/*
 * test_format.c - report/format.c: values, units, prices and changes as text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"
#include "analyze/report/format.h"
#include "analyze/report/model.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

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
	/* issue 60 item 6: one fixed format for a column of costs, no exponent */
	nv_fmt_value(buf, sizeof(buf), 6.02e-05, NV_U_USD_KIOPS);
	CHECK_STR(buf, "$0.0000602");
	nv_fmt_value(buf, sizeof(buf), 0.000117, NV_U_USD_GBPS);
	CHECK_STR(buf, "$0.000117");
	nv_fmt_value(buf, sizeof(buf), 1234.6, NV_U_USD_KIOPS);
	CHECK_STR(buf, "$1235");
	nv_fmt_value(buf, sizeof(buf), 0.00001, NV_U_USD_H);
	CHECK_STR(buf, "$0.00001/h");
}

TEST(formatting)
{
	char buf[64];
	struct nv_change ch = { .have = true, .pct = 1.23, .have_ci = true, .lo = -3.14,
				.hi = 5.36, .noise = true, .verdict = NV_BETTER,
				.n = 3, .nbase = 4 };

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
	/* issue 60 item 5: both bounds near -100% in order, neither -100.0% */
	ch.noise = false, ch.verdict = NV_WORSE, ch.pct = -99.975;
	ch.lo = -99.98, ch.hi = -99.97;
	nv_fmt_change(buf, sizeof(buf), &ch);
	CHECK_STR(buf, "-100.0% (worse) [-99.98%, -99.97%] n=3+4");
	ch.noise = true, ch.verdict = NV_BETTER, ch.pct = 1.23, ch.hi = 5.36;
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

int main(void)
{
	RUN(example_table);
	RUN(formatting);
	return check_summary();
}
