/*
 * trace_json.h - the trace sections for programs: `--format json` and
 * tables.json get a "traces" array, one object per traced job and run:
 * the IOs (and ramp IOs left out), the exact latency per operation and
 * queue depth, and the findings over time as numbers (throughput level or
 * throttling step, warm-up, spike episodes and isolated slow IOs) beside
 * their text, and the series (every interval of every operation, as
 * `nvanalyze watch` prints them).  Times in s from t = 0, latencies in ns, rates in MB/s
 * (10^6 bytes/s) and IO/s, as the keys say.
 */
#ifndef NV_ANALYZE_TRACE_JSON_H
#define NV_ANALYZE_TRACE_JSON_H

#include <stdio.h>

#include "analyze/report/model.h"
#include <jansson.h>

#include "analyze/stats/trace_find.h"
#include "analyze/stats/trace_join.h"

/*
 * One interval of one operation as a JSON object: the post-run
 * traces[i].series entries and nvanalyze watch's interval lines, one
 * writer for both: {"type":"interval","job","op","index","start_s","end_s",
 * "ios","bytes","errors","iops","MB_per_s","p50_ns","p99_ns","p99.9_ns",
 * "max_ns"}.  Return: the new object (NULL when out of memory).
 */
json_t *nv_tan_iv_json(const char *job, const struct nv_tan_iv *iv);

/*
 * Print r as JSON (render_json.c) with the "traces" array of tj's joined
 * jobs; label(run, arg) names the runs.
 * Return: 0, -ENOMEM, or -EIO if the stream failed.
 */
int nv_trace_json_print(FILE *out, const struct nv_report *r, const struct nv_tracejoin *tj,
			const char *(*label)(const struct nv_run *run, void *arg), void *arg);

#endif
