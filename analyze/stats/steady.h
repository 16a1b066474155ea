/*
 * steady.h - SNIA-style steady state over rounds: a job run N times back
 * to back (jobs named NAME@round=K, docs/analysis.md), one value per
 * round; steady state is reached at the first window of w rounds whose
 * range (max - min) is within range_pct % of the window's mean and whose
 * least-squares line changes by no more than slope_pct % of the mean across
 * the window (|slope| x (w - 1), SNIA PTS's "slope excursion").
 */
#ifndef NV_ANALYZE_STEADY_H
#define NV_ANALYZE_STEADY_H

#include <stdbool.h>
#include <stddef.h>

struct nv_steady_opts {
	size_t window;		/* rounds in the window (default 5, at least 2) */
	double range_pct;	/* (max - min) <= range_pct % of the mean (default 20) */
	double slope_pct;	/* |slope| (w - 1) <= slope_pct % of the mean (default 10) */
};

#define NV_STEADY_WINDOW_DEFAULT 5
#define NV_STEADY_RANGE_DEFAULT 20.0
#define NV_STEADY_SLOPE_DEFAULT 10.0

struct nv_steady {
	bool reached;
	size_t first;		/* reached: the window's first round (index from 0) */
	double mean;		/* reached: the window's mean, the run's value */
	double range, slope;	/* reached: the window's max - min and slope per round */
};

/*
 * Judge v[0..n) (one value per round, in order; NAN: a round without the
 * value breaks every window holding it).
 * Return: nothing; st->reached false when no window qualifies (n < window
 * included).
 */
void nv_steady_find(const double *v, size_t n, const struct nv_steady_opts *o,
		    struct nv_steady *st);

#endif
