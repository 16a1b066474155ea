/*
 * watch.h - `nvanalyze watch`: the traces of a run followed while fio
 * writes them (watch.c: the directories and files, the ending rules;
 * watch_job.c: one job's traces, its intervals closed behind the watermark
 * of trace_stream.h, its faults), every record handed to the outputs
 * (live.h's sinks: out_jsonl.c, out_text.c, out_term.c, and the HTTP
 * endpoint of live_http.h).
 */
#ifndef NV_ANALYZE_WATCH_H
#define NV_ANALYZE_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/live/live.h"
#include "analyze/stats/trace_stream.h"

struct nv_watch_opts {
	char *const *args;	/* trace directories and trace files */
	size_t nargs;
	uint64_t interval_ns;	/* 0: 1 s */
	double idle_timeout_s;	/* > 0: end when no trace grew for this long */
	bool follow;		/* after every job ended, wait for the next ones */
	bool from_now;		/* leave out intervals that ended before the start */
	const char *host;	/* the host label, NULL: this host's name */
	struct nv_live_sink *sinks;	/* the outputs, called in order */
	size_t nsinks;
	FILE *log;		/* the watch's own lines (faults, ends), or NULL */
	volatile sig_atomic_t *stop;	/* set (SIGINT): print the totals and end */
	unsigned poll_ms;	/* 0: 200; the fallback poll and the faults' check */
};

/* How a watch ended (nv_watch_run's return, >= 0). */
enum nv_watch_end {
	NV_WATCH_DONE = 0,	/* every trace followed has its footer */
	NV_WATCH_STOPPED,	/* stop was set: the totals so far printed */
	NV_WATCH_INCOMPLETE,	/* some trace ended without its footer (fio killed, the file
				 * cut short or replaced, --idle-timeout) */
};

/*
 * Follow o->args until the run ends (enum nv_watch_end), every closed
 * interval, finding and end handed to the sinks.
 * Return: enum nv_watch_end, or -errno with err set (bad argument, an
 * output failed, out of memory).
 */
int nv_watch_run(const struct nv_watch_opts *o, char *err, size_t errlen);

/* The outputs (out_*.c).  Each fills *s (its arg allocated, freed by
 * s->close) and writes to out.  Return: 0 or -ENOMEM. */
int nv_live_jsonl_sink(FILE *out, struct nv_live_sink *s);	/* one JSON object a line */
int nv_live_text_sink(FILE *out, struct nv_live_sink *s);	/* lines for logs */
int nv_live_term_sink(FILE *out, struct nv_live_sink *s);	/* the screen, like top */

#endif
