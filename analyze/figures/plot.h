/*
 * plot.h - rendering the figures: finding plots/style.gp and gnuplot, and
 * running gnuplot on one script in the output directory.
 */
#ifndef NV_ANALYZE_PLOT_H
#define NV_ANALYZE_PLOT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The path of plots/style.gp: $NVANALYZE_PLOTS/style.gp, else plots/ or
 * share/nvanalyze/plots/ next to the binary or up to 3 levels above it.
 * Return: 0 with the path in buf, or -ENOENT.
 */
int nv_plot_find_style(char *buf, size_t n);

/*
 * The first executable gnuplot in an absolute directory of $PATH.
 * Return: 0 with its path in buf, or -ENOENT.
 */
int nv_plot_find_gnuplot(char *buf, size_t n);

/*
 * Whether an executable gnuplot is on $PATH (nv_plot_find_gnuplot).
 * Return: true if found.
 */
bool nv_plot_have_gnuplot(void);

/*
 * Run `gnuplot --default-settings -e "fmt='FMT'" NAME.gp` in dir, from an
 * argv (no shell), with no init file (~/.gnuplot, the system gnuplotrc) and
 * an environment of PATH, HOME, the locale, TMPDIR and TZ only (no
 * GNUPLOT_LIB ...), its stdout and stderr appended to dir/gnuplot.log.
 * Return: 0, -errno when it could not be started, or -EIO when gnuplot
 * failed (see the log).
 */
int nv_plot_render(const char *dir, const char *name, const char *fmt);

#endif
