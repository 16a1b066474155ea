/*
 * format.c - how numbers and changes read in the tables: values with their
 * units ("77,282", "316.5 MB/s", "72.0 us"), changes ("+50.1% (better)"),
 * the row titles, the output format names, and the shortest exact text of a
 * double (CSV and JSON).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/format.h"

int nv_format_parse(const char *s, enum nv_format *f)
{
	static const char *const names[] = {
		[NV_FMT_MD] = "md", [NV_FMT_TEXT] = "text", [NV_FMT_CSV] = "csv",
		[NV_FMT_JSON] = "json",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum nv_format)i;
			return 0;
		}
	}
	if (!strcmp(s, "markdown")) {
		*f = NV_FMT_MD;
		return 0;
	}
	return -EINVAL;
}

void nv_fmt_exact(char *buf, size_t n, double v)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, n, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void nv_fmt_decimal(char *buf, size_t n, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return;
	}
	for (int p = 0; p <= 340; p++) {
		snprintf(buf, n, "%.*f", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* An integer with thousands separators: 77282 -> "77,282". */
static void fmt_grouped(char *buf, size_t n, double v)
{
	char digits[64], out[96];
	size_t len, o = 0;
	int neg = v < 0;

	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	len = strlen(digits);
	if (neg)
		out[o++] = '-';
	for (size_t i = 0; i < len && o < sizeof(out) - 2; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
	snprintf(buf, n, "%s", out);
}

/*
 * Three or four significant digits, grouped above 1000; two decimals from 1
 * to 100, trailing zeros kept, so that a column reads alike ("15.03%" above
 * "3.80%", not "3.8%"); below 1 three significant digits as fio prints them:
 * "8,854", "316.5", "70.42", "3.80", "0.11".
 */
static void fmt_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		fmt_grouped(buf, n, v);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3g", v);
}

/*
 * Dollars to three significant digits, always in fixed notation so that a
 * column of costs reads alike: "$0.000117", "$0.0000602", "$1.23", "$1235".
 */
static void fmt_usd(char *buf, size_t n, double v)
{
	int d = 0;

	if (v != 0 && isfinite(v))
		d = 2 - (int)floor(log10(fabs(v)));
	snprintf(buf, n, "$%.*f", d > 0 ? d : 0, v);
}

struct nv_display nv_display;

/*
 * A value in the largest unit of scale[0..nscale) (largest first) that ref
 * reaches, three significant digits (thousands grouped when v is much
 * larger than ref): "8.30 us", "3,620 us", "14.4 GB".
 */
struct scale_unit {
	double div;
	const char *unit;
};

static void fmt_scaled(char *buf, size_t n, double v, double ref, const struct scale_unit *scale,
		       unsigned nscale)
{
	unsigned i = 0;
	double x;
	char num[64];

	while (i + 1 < nscale && fabs(ref) < scale[i].div * 0.9995)
		i++;
	x = v / scale[i].div;
	if (fabs(x) >= 999.5)
		fmt_grouped(num, sizeof(num), x);
	else if (fabs(x) >= 99.95 || scale[i].div == 1)
		snprintf(num, sizeof(num), "%.0f", x);
	else if (fabs(x) >= 9.995)
		snprintf(num, sizeof(num), "%.1f", x);
	else
		snprintf(num, sizeof(num), "%.2f", x);
	snprintf(buf, n, "%s %s", num, scale[i].unit);
}

static void fmt_ns(char *buf, size_t n, double ns, double ref)
{
	static const struct scale_unit scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};

	fmt_scaled(buf, n, ns, ref, scale, 4);
}

static void fmt_bytes(char *buf, size_t n, double b, double ref)
{
	static const struct scale_unit si[] = {
		{ 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "kB" }, { 1, "B" },
	};
	static const struct scale_unit bin[] = {
		{ 1099511627776.0, "TiB" }, { 1073741824.0, "GiB" }, { 1048576.0, "MiB" },
		{ 1024.0, "KiB" }, { 1, "B" },
	};

	fmt_scaled(buf, n, b, ref, nv_display.binary ? bin : si, 5);
}

double nv_row_ref(const struct nv_cell *cells, size_t n)
{
	double ref = 0;

	for (size_t i = 0; i < n; i++)
		if (cells[i].n && cells[i].value != 0 && (ref == 0 || fabs(cells[i].value) < ref))
			ref = fabs(cells[i].value);
	return ref;
}

void nv_fmt_value(char *buf, size_t n, double v, enum nv_unit u)
{
	nv_fmt_value_in(buf, n, v, u, v);
}

void nv_fmt_value_in(char *buf, size_t n, double v, enum nv_unit u, double ref)
{
	char num[64];

	switch (u) {
	case NV_U_IOPS:
		if (fabs(v) >= 100 || v == floor(v))	/* fio's iops_min: "3" */
			fmt_grouped(buf, n, v);
		else
			fmt_sig(buf, n, v);
		break;
	case NV_U_MBPS:
		fmt_sig(num, sizeof(num), nv_display.binary ? v * 1e6 / 1048576 : v);
		snprintf(buf, n, "%s %s", num, nv_display.binary ? "MiB/s" : "MB/s");
		break;
	case NV_U_NS:
		fmt_ns(buf, n, v, ref);
		break;
	case NV_U_BYTES:
		fmt_bytes(buf, n, v, ref);
		break;
	case NV_U_PCT:
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s%%", num);
		break;
	case NV_U_COUNT:
		if (v == floor(v))
			fmt_grouped(buf, n, v);
		else
			fmt_sig(buf, n, v);
		break;
	case NV_U_USD_H:
		nv_fmt_decimal(num, sizeof(num), v);	/* as given: "$0.1888/h" */
		snprintf(buf, n, "$%s/h", num);
		break;
	case NV_U_USD_KIOPS:
	case NV_U_USD_GBPS:
		fmt_usd(buf, n, v);
		break;
	}
}

static void fmt_pct(char *buf, size_t n, double pct)
{
	if (fabs(pct) < 0.05)
		pct = 0;	/* no "-0.0%" */
	snprintf(buf, n, "%+.1f%%", pct);
}

/* A change of pct % as --change asks: "+110.0%", "2.10x" or "+110.0% 2.10x". */
static void fmt_chg(char *buf, size_t n, double pct)
{
	char p[32];

	fmt_pct(p, sizeof(p), pct);
	if (nv_display.change == NV_CHG_PCT)
		snprintf(buf, n, "%s", p);
	else if (nv_display.change == NV_CHG_RATIO)
		snprintf(buf, n, "%.2fx", 1 + pct / 100);
	else
		snprintf(buf, n, "%s %.2fx", p, 1 + pct / 100);
}

bool nv_change_about_equal(const struct nv_change *c)
{
	return c->have && c->about_equal;
}

/*
 * Decimals for v, at least d, so that a v above floor never prints as floor
 * or below.  Return: the decimals (at most 9).
 */
static int above_decimals(double v, int d, double floor)
{
	char t[64];

	for (; d < 9 && v > floor; d++) {
		snprintf(t, sizeof(t), "%.*f", d, v);
		if (atof(t) > floor)
			break;
	}
	return d;
}

/*
 * An interval bound: like fmt_chg, but a bound above -100% (a ratio above 0)
 * never prints as -100.0% or 0.00x: more decimals until it reads above.
 * Both bounds go through it, so that near -100% they print in order
 * ([-99.98%, -99.97%], not [-99.98%, -100.0%]).
 */
static void fmt_bound(char *buf, size_t n, double pct)
{
	int dp = above_decimals(pct, 1, -100), dr = above_decimals(1 + pct / 100, 2, 0);
	char t[96];
	size_t len;

	if (dp == 1 && dr == 2) {
		fmt_chg(buf, n, pct);
		return;
	}
	if (nv_display.change == NV_CHG_PCT)
		snprintf(t, sizeof(t), "%+.*f%%", dp, pct);
	else if (nv_display.change == NV_CHG_RATIO)
		snprintf(t, sizeof(t), "%.*fx", dr, 1 + pct / 100);
	else
		snprintf(t, sizeof(t), "%+.*f%% %.*fx", dp, pct, dr, 1 + pct / 100);
	len = strnlen(t, n ? n - 1 : 0);
	memcpy(buf, t, len);
	if (n)
		buf[len] = 0;
}

#define NV_STR_(x) #x
#define NV_STR(x) NV_STR_(x)

void nv_fmt_change(char *buf, size_t n, const struct nv_change *c)
{
	char p[48], lo[48], hi[48];
	const char *mark = c->verdict == NV_BETTER  ? " (better)"
			   : c->verdict == NV_WORSE ? " (worse)"
						    : "";

	if (!c->have) {
		snprintf(buf, n, "n/a");
		return;
	}
	fmt_chg(p, sizeof(p), c->pct);
	if (c->within_prec) {
		snprintf(buf, n, "about equal (within the printed precision)");
	} else if (!c->have_ci && c->why == NV_CI_SINGLE) {
		snprintf(buf, n, "%s%s", p,
			 nv_change_about_equal(c) && c->pct != 0 ? " (about equal)" : mark);
	} else if (!c->have_ci) {
		snprintf(buf, n, "%s n=%zu+%zu, no interval: %s", p, c->n, c->nbase,
			 c->why == NV_CI_FEW_RUNS ? "< " NV_STR(NV_REPEATS_MIN_CI) " runs"
						  : "a value <= 0");
	} else {
		fmt_bound(lo, sizeof(lo), c->lo);
		fmt_bound(hi, sizeof(hi), c->hi);
		snprintf(buf, n, "%s%s [%s, %s] n=%zu+%zu", p, c->noise ? " ~ within noise" : mark,
			 lo, hi, c->n, c->nbase);
	}
}

void nv_fmt_row_title(char *buf, size_t n, const struct nv_block *b, const struct nv_row *row)
{
	char name[32];

	if (!NV_M_IS_PCT(row->metric)) {
		nv_fmt_metric_title(buf, n, b, row->metric);
		return;
	}
	nv_pctl_name(name, sizeof(name), row->level);
	snprintf(buf, n, "%s %s", nv_latkind_name(b->lat), name);
}

void nv_fmt_metric_title(char *buf, size_t n, const struct nv_block *b, enum nv_metric m)
{
	const struct nv_metric_info *mi = nv_metric(m);

	if (mi->latency)
		snprintf(buf, n, "%s %s", nv_latkind_name(b->lat), mi->title);
	else
		snprintf(buf, n, "%s", mi->title);
}

