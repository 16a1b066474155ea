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
		[NV_FMT_MD] = "md", [NV_FMT_TEXT] = "text", [NV_FMT_CSV] = "csv", [NV_FMT_JSON] = "json",
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

/* About four significant digits, grouped above 1000: "316.5", "8,854", "70.42". */
static void fmt_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		fmt_grouped(buf, n, v);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, n, "%.2f", v);
	else if (a >= 1 || a == 0)
		snprintf(buf, n, "%.3g", v);
	else
		snprintf(buf, n, "%.3g", v);
}

/* Latency from nanoseconds in ns/us/ms/s, three significant digits. */
static void fmt_ns(char *buf, size_t n, double ns)
{
	static const struct { double div; const char *unit; } scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	unsigned i = 0;
	double x;

	while (i < 3 && fabs(ns) < scale[i].div * 0.9995)
		i++;
	x = ns / scale[i].div;
	if (fabs(x) >= 99.95 || i == 3)
		snprintf(buf, n, "%.0f %s", x, scale[i].unit);
	else if (fabs(x) >= 9.995)
		snprintf(buf, n, "%.1f %s", x, scale[i].unit);
	else
		snprintf(buf, n, "%.2f %s", x, scale[i].unit);
}

void nv_fmt_value(char *buf, size_t n, double v, enum nv_unit u)
{
	char num[64];

	switch (u) {
	case NV_U_IOPS:
		if (fabs(v) >= 100 || v == 0)
			fmt_grouped(buf, n, v);
		else
			fmt_sig(buf, n, v);
		break;
	case NV_U_MBPS:
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s MB/s", num);
		break;
	case NV_U_NS:
		fmt_ns(buf, n, v);
		break;
	case NV_U_USD_H:
		snprintf(buf, n, "$%g/h", v);
		break;
	case NV_U_USD_KIOPS:
		snprintf(buf, n, "$%.3g", v);
		break;
	}
}

static void fmt_pct(char *buf, size_t n, double pct)
{
	if (fabs(pct) < 0.05)
		pct = 0;	/* no "-0.0%" */
	snprintf(buf, n, "%+.1f%%", pct);
}

void nv_fmt_change(char *buf, size_t n, const struct nv_change *c)
{
	char p[32], lo[32], hi[32];
	const char *mark = c->verdict == NV_BETTER ? " (better)" : c->verdict == NV_WORSE ? " (worse)" : "";

	if (!c->have) {
		snprintf(buf, n, "n/a");
		return;
	}
	fmt_pct(p, sizeof(p), c->pct);
	if (!c->have_ci) {
		snprintf(buf, n, "%s%s", p, mark);
		return;
	}
	fmt_pct(lo, sizeof(lo), c->lo);
	fmt_pct(hi, sizeof(hi), c->hi);
	snprintf(buf, n, "%s%s [%s, %s]", p, c->noise ? " within noise" : mark, lo, hi);
}

void nv_fmt_row_title(char *buf, size_t n, const struct nv_block *b, enum nv_metric m)
{
	const struct nv_metric_info *mi = nv_metric(m);

	if (mi->latency)
		snprintf(buf, n, "%s %s", nv_latkind_name(b->lat), mi->title);
	else
		snprintf(buf, n, "%s", mi->title);
}

