/*
 * repeats.h - the statistics of repeated runs: one side's values of a metric
 * over its runs (mean, sample standard deviation, range), and the change of
 * one side against the baseline with a Welch 95% interval (Student's t).
 *
 * Pure arithmetic on arrays of values; the report model (report/model.h)
 * collects the values and keeps the results in its cells and rows.
 */
#ifndef NV_ANALYZE_REPEATS_H
#define NV_ANALYZE_REPEATS_H

#include <stdbool.h>
#include <stddef.h>

/* The n values one side has for a metric: mean, sample stdev, range. */
struct nv_cell {
	size_t n;		/* values present (0: missing) */
	size_t absent;		/* runs of the side without this job/direction */
	double mean, sd, min, max;
	unsigned char src;	/* enum nv_src of the values (EXACT if any is) */
};

/*
 * Summarize v[0..n): n, mean, sample stdev (0 for n < 2), min, max; absent
 * and src are left for the caller.
 * Return: nothing; n == 0 gives a cell with every number 0.
 */
void nv_repeats_cell(const double *v, size_t n, struct nv_cell *c);

enum nv_verdict { NV_SAME, NV_BETTER, NV_WORSE };

struct nv_change {
	bool have;		/* both cells present, baseline mean != 0 */
	double pct;		/* 100 * (mean - base) / base */
	bool have_ci;		/* both sides have >= 2 runs */
	double lo, hi;		/* Welch 95% interval of the change, in % of base */
	bool noise;		/* the interval spans zero */
	enum nv_verdict verdict;	/* by the point estimate and direction */
};

/*
 * Relative change of side a against base for a metric whose direction is
 * higher_better.  The interval is the Welch t interval of the difference of
 * means divided by the baseline mean (the baseline's own uncertainty in the
 * denominator is ignored).
 * Return: nothing; ch->have is false when a cell is empty or base's mean is 0.
 */
void nv_repeats_change(const struct nv_cell *a, const struct nv_cell *base, bool higher_better,
		       struct nv_change *ch);

/*
 * Student t inverse CDF.
 * Return: t with P(T <= t) = p for df degrees of freedom; NAN when p is not
 * in (0, 1) or df <= 0.
 */
double nv_repeats_t_quantile(double p, double df);

#endif
