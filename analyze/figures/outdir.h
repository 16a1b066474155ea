/*
 * outdir.h - `nvanalyze -o DIR`: the comparison and trace analysis as a
 * directory a user can publish or rework:
 *
 *   DIR/report.md            tables, findings over time, the figures
 *   DIR/tables.md .csv .json the comparison in nvanalyze's formats
 *   DIR/data/NAME.dat         every number plotted (whitespace columns, # header)
 *   DIR/style.gp             copy of plots/style.gp, loaded by every script
 *   DIR/NAME.gp               one standalone gnuplot script per figure
 *   DIR/NAME.png .svg       rendered when gnuplot is installed
 *   DIR/gnuplot.log          gnuplot's messages (empty when all went well)
 *
 * Figures: per job and direction, the latency CDF of every run overlaid
 * (cdf_*), the exceedance 1-CDF on a log scale (nines_*) and the headline
 * metrics as bars with the change written on them (bars_*); per job and run
 * with traces, latency over time as percentile bands (lat_*) and IOPS/MB/s
 * over time (tput_*).  CDFs come from the traces (0.4% bins), else from
 * fio's json+ bins (approximate, fio's bins are up to 0.78% off), else from
 * fio's percentile list (approximate, a few points).
 */
#ifndef NV_ANALYZE_OUTDIR_H
#define NV_ANALYZE_OUTDIR_H

#include "analyze/report/compare.h"
#include "analyze/input/jobtraces.h"

/*
 * Write DIR (created if missing).  Returns 0, or 2 after printing an error
 * naming the file.  A missing gnuplot is not an error: the scripts are
 * written and a message says how to render them.
 */
int nv_outdir_write(const char *dir, const struct nv_report *r, const struct nv_traceset *ts,
		    const char *(*label)(const struct nv_run *run, void *arg), void *arg);

/* "rand read #1@host" -> "rand_read_1_host": [A-Za-z0-9.-] kept, runs of others as one '_'. */
void nv_slug(char *buf, size_t n, const char *s);

#endif
