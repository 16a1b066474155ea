/*
 * repeats.c - mean and spread of repeated runs, and the Welch interval of a
 * change (see repeats.h).  The t distribution is computed here from the
 * regularized incomplete beta function (no table, no libm extension).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/repeats.h"

static const char *const agg_names[NV_AGG_NR] = {
	[NV_AGG_MEAN] = "mean", [NV_AGG_MEDIAN] = "median", [NV_AGG_BEST] = "best",
	[NV_AGG_MIN] = "min", [NV_AGG_MAX] = "max",
};

const char *nv_aggregate_name(enum nv_aggregate a)
{
	return (unsigned)a < NV_AGG_NR ? agg_names[a] : "?";
}

int nv_aggregate_parse(const char *s, enum nv_aggregate *a)
{
	for (unsigned i = 0; i < NV_AGG_NR; i++)
		if (!strcmp(s, agg_names[i])) {
			*a = (enum nv_aggregate)i;
			return 0;
		}
	return -EINVAL;
}

/* Mean and sample stdev of v[0..n) (stdev 0 for n < 2); of ln v when logs. */
static void mean_sd(const double *v, size_t n, bool logs, double *mean, double *sd)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		sum += logs ? log(v[i]) : v[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (logs ? log(v[i]) : v[i]) - *mean;

		ss += d * d;
	}
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* The median of v[0..n) (the mean of the middle two for even n), from a sorted copy. */
static double median(const double *v, size_t n)
{
	double *s = nv_sorted_copy(v, n), m;

	if (!s)
		return NAN;
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

void nv_repeats_cell(const double *v, size_t n, enum nv_aggregate agg, bool higher_better,
		     struct nv_cell *c)
{
	c->n = n;
	c->value = c->mean = c->sd = c->median = c->min = c->max = c->lmean = c->lsd = 0;
	c->positive = false;
	c->prec = 0;
	c->cut = NV_CUT_ROUND;
	if (!n)
		return;
	c->min = c->max = v[0];
	c->positive = true;
	for (size_t i = 0; i < n; i++) {
		c->min = fmin(c->min, v[i]);
		c->max = fmax(c->max, v[i]);
		c->positive &= v[i] > 0;
	}
	mean_sd(v, n, false, &c->mean, &c->sd);
	if (c->positive)
		mean_sd(v, n, true, &c->lmean, &c->lsd);
	c->median = median(v, n);
	switch (agg) {
	case NV_AGG_MEDIAN: c->value = c->median; break;
	case NV_AGG_BEST:   c->value = higher_better ? c->max : c->min; break;
	case NV_AGG_MIN:    c->value = c->min; break;
	case NV_AGG_MAX:    c->value = c->max; break;
	default:            c->value = c->mean; break;
	}
}

/* ---- Student t --------------------------------------------------------- */

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

static double t_cdf(double t, double df)
{
	double tail = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));

	return t > 0 ? 1 - tail : tail;
}

/*
 * Inverse of the t CDF by bisection (monotone, so 200 halvings of a bracket
 * found by doubling reach double precision).  p outside (0, 1) or df <= 0
 * gives NAN.
 */
double nv_repeats_t_quantile(double p, double df)
{
	double lo, hi;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -nv_repeats_t_quantile(1 - p, df);
	lo = 0;
	hi = 1;
	while (t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double nv_repeats_mean_half(const struct nv_cell *c)
{
	if (c->n < 2)
		return 0;
	return nv_repeats_t_quantile(0.975, (double)(c->n - 1)) * c->sd / sqrt((double)c->n);
}

/*
 * Whether the printed ranges of two one-run cells overlap (common.h
 * nv_cut): fio's truncated 6 and 4 us are [6, 7) and [4, 5), apart; two
 * rounded values each +-prec.  Return: true when they can be equal.
 */
static bool ranges_overlap(const struct nv_cell *a, const struct nv_cell *b)
{
	double alo = a->value - (a->cut == NV_CUT_DOWN ? 0 : a->prec);
	double ahi = a->value + (a->cut == NV_CUT_UP ? 0 : a->prec);
	double blo = b->value - (b->cut == NV_CUT_DOWN ? 0 : b->prec);
	double bhi = b->value + (b->cut == NV_CUT_UP ? 0 : b->prec);

	return alo <= bhi && blo <= ahi;
}

/*
 * The interval of the ratio of geometric means of a over base, on ln:
 * Welch's t (Welch-Satterthwaite df); no spread on either side gives the
 * point.  lo, hi and gm as changes in %.
 */
static void log_welch(const struct nv_cell *a, const struct nv_cell *base, double *gm,
		      double *lo, double *hi)
{
	double va = a->lsd * a->lsd / (double)a->n, vb = base->lsd * base->lsd / (double)base->n;
	double d = a->lmean - base->lmean, se = sqrt(va + vb), half = 0;

	if (se > 0) {
		double df = (va + vb) * (va + vb) /
			    (va * va / (double)(a->n - 1) + vb * vb / (double)(base->n - 1));

		half = nv_repeats_t_quantile(0.975, df) * se;
	}
	*gm = 100 * expm1(d);
	*lo = 100 * expm1(d - half);
	*hi = 100 * expm1(d + half);
}

void nv_repeats_change(const struct nv_cell *a, const struct nv_cell *base, bool higher_better,
		       struct nv_change *ch)
{
	double diff;
	int dir;

	memset(ch, 0, sizeof(*ch));
	if (!a->n || !base->n || base->value == 0)
		return;
	diff = a->value - base->value;
	ch->have = true;
	ch->pct = 100 * diff / fabs(base->value);
	ch->n = a->n;
	ch->nbase = base->n;
	if (a->n == 1 && base->n == 1)
		ch->why = NV_CI_SINGLE;
	else if (a->n < NV_REPEATS_MIN_CI || base->n < NV_REPEATS_MIN_CI)
		ch->why = NV_CI_FEW_RUNS;
	else if (!a->positive || !base->positive)
		ch->why = NV_CI_NOT_POSITIVE;
	else
		ch->have_ci = true;
	if (ch->have_ci) {
		log_welch(a, base, &ch->gm_pct, &ch->lo, &ch->hi);
		ch->noise = ch->lo <= 0 && ch->hi >= 0;
		dir = ch->noise ? 0 : ch->lo > 0 ? 1 : -1;
	} else {	/* one run a side: by the sign; repeats without an interval: none */
		dir = ch->why == NV_CI_SINGLE ? (diff > 0) - (diff < 0) : 0;
	}
	if (ch->why == NV_CI_SINGLE && (a->prec > 0 || base->prec > 0) &&
	    ranges_overlap(a, base)) {
		ch->within_prec = true;
		dir = 0;
	}
	if (dir)
		ch->verdict = (dir > 0) == higher_better ? NV_BETTER : NV_WORSE;
}

/* pct as the tables print it: one decimal ("-5.0%" for -4.9988). */
static double printed_pct(double pct)
{
	char t[64];

	snprintf(t, sizeof(t), "%.1f", pct);
	return atof(t);
}

void nv_repeats_about_equal(struct nv_change *ch, double below)
{
	double shown;

	if (!ch->have || ch->have_ci || ch->why != NV_CI_SINGLE)
		return;
	shown = fabs(printed_pct(ch->pct));
	if (ch->within_prec || shown < below)
		ch->about_equal = true;
	if (ch->about_equal || shown == 0)
		ch->verdict = NV_SAME;
}

const char *nv_change_verdict_name(const struct nv_change *ch)
{
	if (ch->about_equal && ch->pct != 0)	/* an exact 0 is the same */
		return "about equal";
	if (ch->noise)
		return "within noise";
	if (ch->have && !ch->have_ci && ch->why != NV_CI_SINGLE)
		return "cannot tell";
	return ch->verdict == NV_BETTER ? "better" : ch->verdict == NV_WORSE ? "worse" : "same";
}
