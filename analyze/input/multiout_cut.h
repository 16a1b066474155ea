/*
 * multiout_cut.h - a file of several tool outputs cut into them (private
 * to multiout.c): where each output starts (its tool's first line) and
 * ends, the outputs of a file of fio terse lines by the period of their
 * job names, and whether a normal output was cut before its end.
 */
#ifndef NV_ANALYZE_MULTIOUT_CUT_H
#define NV_ANALYZE_MULTIOUT_CUT_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/* One output of the file: its bytes, its run, who wrote it, where it starts. */
struct seg {
	size_t off, len;
	size_t at;		/* the offset of its first line of the tool's own */
	unsigned line;		/* that line's number (1-based) */
	struct nv_run run;
	bool have_pid, have_start;
	long long pid, start;	/* normal: pid=; JSON: timestamp - elapsed (s) */
	double runtime_ms;	/* the longest job runtime */
	bool one_name;		/* terse lines of one job name (period 1) */
	bool cut_short;		/* the file's last output, cut before its end */
};

/* A growing array of outputs. */
struct segs {
	size_t n, cap;
	struct seg *v;
};

/*
 * Cut text into outputs (multiout.h's rules) in s: offsets and lengths,
 * and where each output's own text starts (its first tool line).  The
 * terse lines right before a JSON object that starts the next output are
 * that output's (fio's terse,json writes each output's terse lines first).
 * Return: 0 or -ENOMEM.
 */
int nv_mo_cut(const char *text, size_t len, struct segs *s);

/*
 * True when output sg is a fio normal output without its end: a job's
 * header ("NAME: (groupid="), no "Run status group" line and no JSON of
 * its own (fio stopped while it wrote it).
 */
bool nv_mo_normal_cut_short(const char *text, const struct seg *sg);

/*
 * A file of fio terse lines (one a job, in the same order in each of fio's
 * outputs: --status-interval, or runs appended) cut into outputs in s: the
 * smallest period of the lines' job names that repeats at least twice;
 * *period is its lines (0: none, s left one output).  A last output of
 * fewer lines, each naming the job of its place (fio stopped while it
 * wrote them), is an output of its own, cut_short.  Each output's line
 * numbers are its first terse line's.  Return: 0 or -ENOMEM.
 */
int nv_mo_terse_cut(const char *text, size_t len, struct segs *s, size_t *period);

/* Free the runs of s and its array; s zeroed.  Return: nothing. */
void nv_mo_segs_free(struct segs *s);

#endif
