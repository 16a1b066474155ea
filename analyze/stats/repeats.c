/*
 * repeats.c - mean and spread of repeated runs, and the Welch interval of a
 * change (see repeats.h).  The t distribution is computed here from the
 * regularized incomplete beta function (no table, no libm extension).
 */
#include <math.h>
#include <string.h>

#include "analyze/stats/repeats.h"

void nv_repeats_cell(const double *v, size_t n, struct nv_cell *c)
{
	double sum = 0, ss = 0;

	c->n = n;
	c->mean = c->sd = c->min = c->max = 0;
	if (!n)
		return;
	c->min = c->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		c->min = fmin(c->min, v[i]);
		c->max = fmax(c->max, v[i]);
	}
	c->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - c->mean) * (v[i] - c->mean);
	c->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
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

void nv_repeats_change(const struct nv_cell *a, const struct nv_cell *base, bool higher_better,
		       struct nv_change *ch)
{
	double diff;

	memset(ch, 0, sizeof(*ch));
	if (!a->n || !base->n || base->mean == 0)
		return;
	diff = a->mean - base->mean;
	ch->have = true;
	ch->pct = 100 * diff / base->mean;
	if (diff != 0)
		ch->verdict = (diff > 0) == higher_better ? NV_BETTER : NV_WORSE;
	if (a->n >= 2 && base->n >= 2) {
		double va = a->sd * a->sd / (double)a->n, vb = base->sd * base->sd / (double)base->n;
		double se = sqrt(va + vb), half = 0;

		if (se > 0) {
			double df = (va + vb) * (va + vb) /
				    (va * va / (double)(a->n - 1) + vb * vb / (double)(base->n - 1));
			half = nv_repeats_t_quantile(0.975, df) * se;
		}
		ch->have_ci = true;
		ch->lo = 100 * (diff - half) / fabs(base->mean);
		ch->hi = 100 * (diff + half) / fabs(base->mean);
		ch->noise = ch->lo <= 0 && ch->hi >= 0;
	}
}

