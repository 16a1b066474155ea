/*
 * steady.c - steady state over rounds (see steady.h).
 */
#include <math.h>
#include <string.h>

#include "analyze/stats/steady.h"

/* The least-squares slope of v[0..n) against 0..n-1 (n >= 2). */
static double ls_slope(const double *v, size_t n)
{
	double xm = (double)(n - 1) / 2, ym = 0, sxy = 0, sxx = 0;

	for (size_t i = 0; i < n; i++)
		ym += v[i];
	ym /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += ((double)i - xm) * (v[i] - ym);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	return sxy / sxx;
}

void nv_steady_find(const double *v, size_t n, const struct nv_steady_opts *o,
		    struct nv_steady *st)
{
	size_t w = o->window;

	memset(st, 0, sizeof(*st));
	if (w < 2 || n < w)
		return;
	for (size_t k = 0; k + w <= n; k++) {
		double lo = INFINITY, hi = -INFINITY, mean = 0, slope;
		bool ok = true;

		for (size_t i = k; i < k + w; i++) {
			ok &= isfinite(v[i]);
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
			mean += v[i];
		}
		mean /= (double)w;
		if (!ok || !(mean > 0))
			continue;
		slope = ls_slope(v + k, w);
		if (hi - lo <= o->range_pct / 100 * mean &&
		    fabs(slope) * (double)(w - 1) <= o->slope_pct / 100 * mean) {
			st->reached = true;
			st->first = k;
			st->mean = mean;
			st->range = hi - lo;
			st->slope = slope;
			return;
		}
	}
}
