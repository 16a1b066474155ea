/*
 * plot.h - rendering the figures: finding plots/style.gp and gnuplot, and
 * running gnuplot in the output directory on one script, or on many
 * figures in one process.
 */
#ifndef NV_ANALYZE_PLOT_H
#define NV_ANALYZE_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
 * A gnuplot rendering figures one at a time, on request: started as
 * nv_plot_render starts it (dir, argv, environment, the log) with a socket
 * on its stdin (no SIGPIPE here when it is gone), so that workers pull the
 * next figure when they are done (a long figure does not hold up a fixed
 * share).
 */
struct nv_plot_proc {
	pid_t pid;
	int in, out, log_fd;	/* its stdin, its stdout, dir/gnuplot.log */
	unsigned long seq;	/* files rendered, the last one's mark */
	bool dead;		/* gone (or its stdin closed) */
	size_t have;
	char buf[4096];		/* its stdout, not yet a line */
};

/*
 * Start p's gnuplot in dir.
 * Return: 0, or -errno (no process; p needs no nv_plot_proc_stop).
 */
int nv_plot_proc_start(struct nv_plot_proc *p, const char *dir);

/*
 * Render NAME.gp as PNG (svg false) or SVG in p's gnuplot, as
 * nv_plot_render does in a fresh one: `reset session` first (nothing of
 * the figure before; fmt set for SVG only), the file closed after, so the
 * file is the one nv_plot_render writes.  gnuplot reading commands from
 * its stdin goes on after an error; its line after the file says whether it
 * met one (anything else it prints on stdout goes to the log).
 * Return: 0, -EIO when gnuplot failed on the script (see the log),
 * -ENAMETOOLONG when the name's escape does not fit, or -EPIPE when the
 * gnuplot is gone (every later call too).
 */
int nv_plot_proc_render(struct nv_plot_proc *p, const char *name, bool svg);

/*
 * Close p's input and wait for its gnuplot to end.
 * Return: 0 when it exited 0, -EIO when it failed, or -errno of waitpid.
 */
int nv_plot_proc_stop(struct nv_plot_proc *p);

#endif
