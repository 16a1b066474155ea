/*
 * plot.h - rendering the figures: finding plots/style.gp and gnuplot, and
 * running gnuplot in the output directory on one script, or on many
 * figures in one process.
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
 * The path of libnvpngfast.so (plots/pngfast.c: gnuplot's PNGs encoded with
 * one row filter and deflate level 1, the same pixels for about half the
 * CPU): libnvpngfast.so or lib/nvanalyze/libnvpngfast.so next to the binary
 * or up to 3 levels above it; none when $NVANALYZE_PNGFAST is "0" (gnuplot's
 * own encoding) or the path holds a space or a colon (LD_PRELOAD's
 * separators).
 * Return: 0 with the path in buf, or -ENOENT.
 */
int nv_plot_find_pngfast(char *buf, size_t n);

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
 * GNUPLOT_LIB ...) and LD_PRELOAD=libnvpngfast.so (nv_plot_find_pngfast)
 * when found, its stdout and stderr appended to dir/gnuplot.log.
 * Started by posix_spawn: nothing of this process's memory is copied.
 * Return: 0, -errno when it could not be started, or -EIO when gnuplot
 * failed (see the log).
 */
int nv_plot_render(const char *dir, const char *name, const char *fmt);

/*
 * Render the figures names[0..n-1] in ONE gnuplot, started as
 * nv_plot_render starts it (dir, argv, environment, the log): a driver on
 * its stdin (an anonymous file; each name escaped by gpquote.h) runs, per
 * figure, NAME.gp for PNG and then with fmt = "svg", each after `reset
 * session` (nothing of the figure before, as in a fresh gnuplot) and with
 * the file closed after it, so the files are those nv_plot_render writes.
 * gnuplot reading a script on stdin goes on after an error; the figures it
 * rendered without one are done[k] (told on its stdout; anything else it
 * prints there goes to the log).  A figure not done is the caller's to
 * render again on its own (nv_plot_render) for a message of its own.
 * Return: 0 when gnuplot exited 0, -EIO when it failed, or -errno when it
 * could not be started (no figure done).
 */
int nv_plot_render_batch(const char *dir, const char *const *names, size_t n, bool *done);

#endif
