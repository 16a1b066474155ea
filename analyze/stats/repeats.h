/*
 * repeats.h - the statistics of repeated runs: one side's values of a metric
 * over its runs (the aggregate, mean, sample standard deviation, range), and
 * the change of one side against the baseline with a 95% interval of the
 * ratio (Welch's t on the logarithms) and the verdict read from it.
 *
 * Pure arithmetic on arrays of values; the report model (report/model.h)
 * collects the values and keeps the results in its cells and rows.
 */
#ifndef NV_ANALYZE_REPEATS_H
#define NV_ANALYZE_REPEATS_H

#include <stdbool.h>
#include <stddef.h>

/* How a side's runs become the one value the tables show (--aggregate). */
enum nv_aggregate { NV_AGG_MEAN, NV_AGG_MEDIAN, NV_AGG_BEST, NV_AGG_MIN, NV_AGG_MAX, NV_AGG_NR };

/* "mean", "median", "best", "min", "max"; "?" if out of range. */
const char *nv_aggregate_name(enum nv_aggregate a);
/* Return: 0 and *a set, or -EINVAL for a name not in nv_aggregate_name's list. */
int nv_aggregate_parse(const char *s, enum nv_aggregate *a);

/* The n values one side has for a metric. */
struct nv_cell {
	size_t n;		/* values present (0: missing) */
	size_t absent;		/* runs of the side without this job/direction */
	double value;		/* the aggregate (--aggregate): shown, and compared */
	double mean, sd, median, min, max;
	bool positive;		/* every value > 0: lmean and lsd are set */
	double lmean, lsd;	/* mean and sample stdev of the natural logarithms */
	unsigned char src;	/* enum nv_src of the values (EXACT if any is) */
	/* the largest printed width of the values (nv_val.prec), on cut's side(s) */
	double prec;
	unsigned char cut;	/* enum nv_cut (common.h) of the values; ROUND if they differ */
};

/*
 * Summarize v[0..n): n, the aggregate agg as value ("best": the max when
 * higher_better, else the min), mean, sample stdev (0 for n < 2), median,
 * min, max, and the mean and stdev of ln v when every v > 0; absent and
 * src are left for the caller.
 * Return: nothing; n == 0 gives a cell with every number 0.
 */
void nv_repeats_cell(const double *v, size_t n, enum nv_aggregate agg, bool higher_better,
		     struct nv_cell *c);

/* Fewest runs per side for an interval, and fewest without a warning. */
#define NV_REPEATS_MIN_CI 3
#define NV_REPEATS_MIN_QUIET 5

enum nv_verdict { NV_SAME, NV_BETTER, NV_WORSE };

/* Why a change has no interval (read only when it has none). */
enum nv_no_ci { NV_CI_SINGLE, NV_CI_FEW_RUNS, NV_CI_NOT_POSITIVE };

struct nv_change {
	bool have;		/* both cells present, baseline value != 0 */
	double pct;		/* 100 * (value - base) / base, of the aggregates */
	size_t n, nbase;	/* runs with the metric: this side, the baseline */
	bool have_ci;		/* an interval: both sides >= NV_REPEATS_MIN_CI, all > 0 */
	enum nv_no_ci why;	/* when !have_ci: one run a side, too few, a value <= 0 */
	double gm_pct;		/* the ratio of geometric means as a change, % */
	double lo, hi;		/* its 95% interval, in % (always > -100%) */
	bool noise;		/* the interval contains 0: within noise (~) */
	enum nv_verdict verdict;	/* from the interval (see nv_repeats_change) */
	bool within_prec;	/* one run a side, printed ranges overlap: no verdict */
	bool about_equal;	/* one run a side, under the threshold (nv_repeats_about_equal) */
};

/* --same-below's default: single runs' changes under 5% read as about equal. */
#define NV_SAME_BELOW_DEFAULT 5.0

/*
 * The change of side a against base, for a metric whose direction is
 * higher_better.  pct compares the aggregates (what the tables show).  The
 * interval is Welch's t interval on the logarithms of the runs' values,
 * mapped back: with x = ln v per run, d = mean(x_a) - mean(x_b),
 * se^2 = s_a^2/n_a + s_b^2/n_b and Welch-Satterthwaite's df,
 * [100 (exp(d - t se) - 1), 100 (exp(d + t se) - 1)] with t the 0.975
 * quantile of Student's t (docs/analysis.md).  It needs
 * NV_REPEATS_MIN_CI runs per side and values > 0.  With it the verdict is
 * read from it: better or worse when it excludes 0, else within noise;
 * with one run a side, by the sign of pct, unless the values were read
 * rounded (nv_cell.prec, cut) and their printed ranges overlap (a
 * truncated 6 is [6, 7), a rounded one [5.5, 6.5]: within_prec, no
 * verdict); for repeats without an interval
 * there is none (NV_SAME, noise false).  Claims (report/claims.c) read
 * have_ci, lo and hi ("cannot tell" without an interval).
 * Return: nothing; ch->have is false when a cell is empty or base's value is 0.
 */
void nv_repeats_change(const struct nv_cell *a, const struct nv_cell *base, bool higher_better,
		       struct nv_change *ch);

/*
 * The one "about equal" rule (docs/analysis.md), applied to a change of one
 * run a side after nv_repeats_change, before any output reads it: the
 * change as printed (percent, one decimal) under below % either way, or
 * within the printed precision, is about equal (ch->about_equal) and has no
 * verdict (NV_SAME); so is a change that prints as 0.0% (below 0: off).
 * Tables, JSON, figures and claims all read ch->verdict and about_equal.
 * Return: nothing; other changes are left alone.
 */
void nv_repeats_about_equal(struct nv_change *ch, double below);

/*
 * The verdict as a word.
 * Return: "better", "worse", "about equal" (one run a side,
 * nv_repeats_about_equal, a change other than 0), "within noise" (the
 * interval holds 0), "cannot tell" (repeats without an interval) or "same"
 * (no change).
 */
const char *nv_change_verdict_name(const struct nv_change *ch);

/*
 * Student t inverse CDF.
 * Return: t with P(T <= t) = p for df degrees of freedom; NAN when p is not
 * in (0, 1) or df <= 0.
 */
double nv_repeats_t_quantile(double p, double df);

/*
 * The half-width of the 95% t interval of c's mean over its c->n repeats
 * (t(0.975, n - 1) * sd / sqrt(n)).
 * Return: the half-width; 0 with fewer than 2 repeats.
 */
double nv_repeats_mean_half(const struct nv_cell *c);

#endif
