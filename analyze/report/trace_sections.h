/*
 * trace_sections.h - the trace sections of nvanalyze's output: exact latency
 * by operation and by queue depth, and the behaviour over time in words and
 * numbers (throttling, warm-up, spike episodes), for every job with traces.
 */
#ifndef NV_ANALYZE_TRACE_SECTIONS_H
#define NV_ANALYZE_TRACE_SECTIONS_H

#include <stdio.h>

#include "analyze/input/jobtraces.h"
#include "analyze/report/render.h"
#include "analyze/stats/trace_find.h"
#include "analyze/stats/trace_join.h"

/*
 * One line per finding, in words, into buf (each line "- ...\n"); the spike
 * lines only for the operations ts shows (-d; ts NULL: all).
 * Return: the number of findings (lines).
 */
size_t nv_tan_describe(const struct nv_tan *t, const struct nv_traceset *ts, char *buf, size_t n);

/*
 * The sections for every joined job of tj, in format f (Markdown or text);
 * label(run, arg) names the runs.
 * Return: 0, or -ENOMEM.
 */
int nv_trace_sections_print(FILE *out, const struct nv_tracejoin *tj,
			    const char *(*label)(const struct nv_run *run, void *arg), void *arg,
			    enum nv_format f);

/*
 * Tracing's disturbance of every joined job of tj as CSV (after a blank
 * line: "job,run,metric,unit,value", a row per number of the trace
 * sections' "Tracing:" line), for the CSV output that has no trace
 * sections; nothing when no job's traces have the writer's wait key.
 * Return: 0.
 */
int nv_trace_disturb_csv(FILE *out, const struct nv_tracejoin *tj,
			 const char *(*label)(const struct nv_run *run, void *arg), void *arg);

#endif
