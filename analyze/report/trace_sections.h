/*
 * trace_sections.h - the trace sections of nvanalyze's output: exact latency
 * by operation and by queue depth, and the behaviour over time in words and
 * numbers (throttling, warm-up, spike episodes), for every job with traces.
 */
#ifndef NV_ANALYZE_TRACEREPORT_H
#define NV_ANALYZE_TRACEREPORT_H

#include <stdio.h>

#include "analyze/stats/findings.h"
#include "analyze/report/render.h"
#include "analyze/input/jobtraces.h"

/* The rules applied to one job's series (MB/s of all operations). */
struct nv_tan_find {
	size_t nfull;		/* full intervals the rules used (the last, partial one is left out) */
	double median_mbps;
	struct nv_step step;
	struct nv_warmup warm;	/* over the intervals before the step, if any */
};

/*
 * Whether interval i is full (every one but a last, partial one).
 * Return: true for a full interval.
 */
bool nv_tan_full(const struct nv_tan *t, size_t i);

/* MB/s of interval i (its real length for the last one). */
double nv_tan_mbps(const struct nv_tan *t, unsigned op, size_t i);
double nv_tan_iops(const struct nv_tan *t, unsigned op, size_t i);

void nv_tan_find(const struct nv_tan *t, struct nv_tan_find *f);

/*
 * One line per finding, in words, into buf (each line "- ...\n"); the spike
 * lines only for the operations ts shows (-d; ts NULL: all).
 * Return: the number of findings (lines).
 */
size_t nv_tan_describe(const struct nv_tan *t, const struct nv_traceset *ts, char *buf, size_t n);

/* The sections for every analyzed entry; label(run) names the runs. */
int nv_tracereport_print(FILE *out, const struct nv_traceset *ts,
			 const char *(*label)(const struct nv_run *run, void *arg), void *arg,
			 enum nv_format f);

#endif
