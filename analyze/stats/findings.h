/*
 * findings.h - behaviour over time from a throughput / latency time series:
 * burst then throttling, warm-up before steady state, latency spike
 * thresholds.  Pure and deterministic (no I/O, no randomness); the rules
 * are documented in docs/analysis.md and repeated above each function.
 */
#ifndef NV_ANALYZE_FINDINGS_H
#define NV_ANALYZE_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fewest full intervals for the step and warm-up rules. */
#define NV_FIND_MIN_INTERVALS 6

/* The median of v[0..n) (the lower middle for even n; 0 if n = 0); v is not changed. */
double nv_median(const double *v, size_t n);

/*
 * Spike threshold: factor times the median of the per-interval p99.9 of the
 * intervals that had IOs (p999[i] with ios[i] > 0).  0 when no interval had
 * IOs.  An interval whose max latency is >= the threshold is a spike
 * interval; consecutive spike intervals form one episode.
 */
uint64_t nv_spike_threshold(const uint64_t *p999, const uint64_t *ios, size_t n, double factor);

/*
 * Burst then throttling: the single change point of x[0..n) (throughput per
 * full interval) by least squares: k in [m, n-m] with m = max(2, n/20)
 * minimizing the summed squared deviations of x[0..k) and x[k..n) from
 * their means (the smallest such k on ties).  Reported (found) when
 * median(x[k..n)) <= (1 - min_drop) * median(x[0..k)) and the difference of
 * the means exceeds 3 standard errors (sqrt(s1^2/n1 + s2^2/n2)).  Needs
 * n >= NV_FIND_MIN_INTERVALS.
 */
struct nv_step {
	bool found;
	size_t at;		/* first interval of the lower level */
	double before, after;	/* means of x[0..at) and x[at..n) */
	double peak;		/* the largest x */
	size_t peak_at;
};

#define NV_STEP_MIN_DROP 0.15
void nv_find_step(const double *x, size_t n, double min_drop, struct nv_step *s);

/*
 * Warm-up: with the steady level L = median of the second half of x[0..n),
 * the warm-up ends at the first i where x[i], x[i+1] and x[i+2] are all
 * >= 0.9 L (fewer at the end: all that remain); found when i >= 1 and the
 * mean of x[0..i) is <= 0.85 L (a real ramp, not noise).  Needs
 * n >= NV_FIND_MIN_INTERVALS.  (The caller passes the intervals before a
 * throttling step, so that a drop is not mistaken for the steady level.)
 */
struct nv_warmup {
	bool found;
	size_t end;		/* intervals of warm-up */
	double during;		/* mean of x[0..end) */
	double steady;		/* L */
};

void nv_find_warmup(const double *x, size_t n, struct nv_warmup *w);

/*
 * Human text: "1.12 GB/s" / "780 MB/s" (x in MB/s, 3 significant digits);
 * "10:02" / "1:02:03" / "12.5 s" for a time from the start (>= 60 s as
 * [h:]mm:ss, else seconds).
 */
void nv_fmt_rate(char *buf, size_t n, double mbps);
void nv_fmt_time(char *buf, size_t n, double seconds);

#endif
