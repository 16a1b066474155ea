/*
 * findings.c - throttling, warm-up and spike rules (see findings.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/findings.h"

double nv_median(const double *v, size_t n)
{
	double *c, m;

	if (!n)
		return 0;
	c = nv_sorted_copy(v, n);
	if (!c)
		return NAN;
	m = c[(n - 1) / 2];
	free(c);
	return m;
}

uint64_t nv_spike_threshold(const uint64_t *p999, const uint64_t *ios, size_t n, double factor)
{
	double *v = calloc(n ? n : 1, sizeof(*v)), med;
	size_t k = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (ios[i])
			v[k++] = (double)p999[i];
	med = nv_median(v, k);
	free(v);
	if (!k || !(med > 0))
		return 0;
	return (uint64_t)ceil(med * factor);
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = n ? s / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : 0;
}

void nv_find_step(const double *x, size_t n, double min_drop, struct nv_step *s)
{
	double *pre, *pre2, best = INFINITY, m1, v1, m2, v2, se;
	size_t m, k;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		if (!i || x[i] > s->peak) {
			s->peak = x[i];
			s->peak_at = i;
		}
	if (n < NV_FIND_MIN_INTERVALS)
		return;
	pre = calloc(n + 1, sizeof(*pre));
	pre2 = calloc(n + 1, sizeof(*pre2));
	if (!pre || !pre2)
		goto out;
	for (size_t i = 0; i < n; i++) {	/* centred on x[0] for precision */
		pre[i + 1] = pre[i] + (x[i] - x[0]);
		pre2[i + 1] = pre2[i] + (x[i] - x[0]) * (x[i] - x[0]);
	}
	m = n / 20 > 2 ? n / 20 : 2;
	for (k = m; k + m <= n; k++) {
		double a = pre[k], b = pre[n] - pre[k];
		double sse = (pre2[k] - a * a / (double)k) +
			     (pre2[n] - pre2[k] - b * b / (double)(n - k));

		if (k == m || sse < best - 1e-12 * fabs(best)) {
			best = sse;
			s->at = k;
		}
	}
	mean_var(x, s->at, &m1, &v1);
	mean_var(x + s->at, n - s->at, &m2, &v2);
	s->before = m1;
	s->after = m2;
	se = sqrt(v1 / (double)s->at + v2 / (double)(n - s->at));
	s->found = nv_median(x + s->at, n - s->at) <= (1 - min_drop) * nv_median(x, s->at) &&
		   m1 - m2 > 3 * se;
out:
	free(pre);
	free(pre2);
}

void nv_find_warmup(const double *x, size_t n, struct nv_warmup *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	if (n < NV_FIND_MIN_INTERVALS)
		return;
	w->steady = nv_median(x + n / 2, n - n / 2);
	for (i = 0; i < n; i++) {
		size_t j, end = i + 3 < n ? i + 3 : n;

		for (j = i; j < end && x[j] >= 0.9 * w->steady; j++)
			;
		if (j == end)
			break;
	}
	if (i == 0 || i >= n)
		return;
	for (size_t k = 0; k < i; k++)
		w->during += x[k];
	w->during /= (double)i;
	w->end = i;
	w->found = w->during <= 0.85 * w->steady;
}

void nv_fmt_rate(char *buf, size_t n, double mbps)
{
	if (fabs(mbps) >= 999.5)
		snprintf(buf, n, "%.3g GB/s", mbps / 1000);
	else if (fabs(mbps) >= 0.9995)
		snprintf(buf, n, "%.3g MB/s", mbps);
	else
		snprintf(buf, n, "%.3g kB/s", mbps * 1000);
}

void nv_fmt_time(char *buf, size_t n, double seconds)
{
	long long t;

	if (seconds < 59.95) {
		snprintf(buf, n, "%.1f s", seconds);
		return;
	}
	t = llround(seconds);
	if (t >= 3600)
		snprintf(buf, n, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, n, "%lld:%02lld", t / 60, t % 60);
}
