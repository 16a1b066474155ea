/*
 * curve_figs.h - the load-curve figures of `nvanalyze -o` (report/curves.h):
 * per line sweep (curves.h), latency (log y) against throughput, one curve
 * per run, each point labelled with its swept value, the repeats' 95%
 * intervals as error bars: curve_p99_*, curve_p50_*, curve_p999_*; per
 * matrix sweep and run a heat map of the throughput (matrix_*).
 * Their data files hold every point.  Internal to analyze/figures/.
 */
#ifndef NV_ANALYZE_CURVE_FIGS_H
#define NV_ANALYZE_CURVE_FIGS_H

#include "analyze/figures/figset.h"

/*
 * Add the figures of o->r->curves (none when NULL) with their data and
 * scripts; they go in o's list with block SIZE_MAX and no traces.
 * Return: 0, or -errno with the message in o->err.
 */
int nv_curve_figs_write(struct nv_figset *o);

#endif
