/*
 * progress.h - the progress line of a long trace analysis on a terminal:
 * the trace being read, records done / total where known (else the share
 * of the bytes), the pass; rewritten in place at most NV_PROGRESS_HZ times
 * a second, shown only once the work has lasted NV_PROGRESS_DELAY_S
 * seconds (environment NVANALYZE_PROGRESS_DELAY overrides it, e.g. 0 in
 * tests), and erased when done.  Never written when the stream is not a
 * terminal (redirected output stays free of it).
 *
 * The library reports where it is through a callback (stats/trace_stats.h,
 * struct nv_tan_progress); only this CLI file prints.
 */
#ifndef NV_ANALYZE_CLI_PROGRESS_H
#define NV_ANALYZE_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze/stats/trace_stats.h"

#define NV_PROGRESS_DELAY_S 2.0		/* no line for work shorter than this */
#define NV_PROGRESS_HZ 4		/* at most this many updates a second */

struct nv_progress {
	FILE *out;
	bool on;		/* out is a terminal */
	bool shown;		/* a line is on the screen */
	double start, last, delay;
};

/*
 * Start timing a stage whose progress goes to out (on only when out is a
 * terminal).
 * Return: nothing.
 */
void nv_progress_start(struct nv_progress *p, FILE *out);

/*
 * The nv_tan_opts callback (arg: a struct nv_progress): rewrites the line
 * when it is due.
 * Return: nothing.
 */
void nv_progress_tan(const struct nv_tan_progress *t, void *arg);

/*
 * Erase the line, if one is shown (before any other message).
 * Return: nothing.
 */
void nv_progress_end(struct nv_progress *p);

#endif
