/*
 * watch_priv.h - the state watch.c (the directories, the loop, the ending)
 * and watch_job.c (one job: its traces, stream, records, faults) share.
 * Internal to analyze/live/watch*.c.
 */
#ifndef NV_ANALYZE_WATCH_PRIV_H
#define NV_ANALYZE_WATCH_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "analyze/live/live.h"
#include "analyze/stats/trace_stream.h"

/* It includes no header of watch.c's (watch.h), so no circle: its users
 * include watch.h beside it. */
struct nv_watch_opts;
struct wjob;

/* A trace file found (one job thread's). */
struct wtrace {
	char *path;
	unsigned thread;	/* THREAD of DIR/JOB.THREAD.nvt */
	dev_t dev;
	ino_t ino;
	struct wjob *job;
	size_t idx;		/* its index in the job's stream, once added */
	bool in_stream;
	bool left_out;		/* it could not be read: not in the stream */
	bool deleted_said;
	uint64_t size;		/* its size when last looked at */
	double grew_at;		/* when it last grew (monotonic s) */
	pid_t pid;		/* the header's job.pid, 0: not on this host */
	bool final;		/* its job ended: the file is not written any more ... */
	struct timespec mtime;	/* ... unless it is written again (a new run): then new */
};

/* A job: the traces of one DIR/JOB (fio's numjobs threads), combined. */
struct wjob {
	char *key;		/* DIR/JOB, the files' common part */
	char *name;		/* the header's job.name */
	struct wtrace **tr;	/* by thread number once started */
	size_t ntr;
	unsigned expect;	/* the header's job.numjobs, 0: not said */
	struct nv_tan_stream *ts;	/* once started */
	double first_at;	/* when its first trace was found (monotonic s) */
	double data_at;		/* when the merge last moved */
	uint64_t pos;		/* the merge's position then */
	int64_t off_ms;		/* wall clock - trace clock (ms), 0: unknown */
	size_t closed;		/* intervals handed out */
	bool started, announced, ended, stall_said;
	bool cut;		/* some trace cut before its footer */
	/* the job's findings as they happen (its all row, or its one operation's) */
	double *mbps;		/* MB/s per full interval */
	uint64_t *p99;		/* p99 per interval with IOs */
	double *tmp;		/* [cap]: p99 as doubles for their median */
	size_t nmb, np99, cap;
	bool step_said;
	size_t step_at;		/* the step's interval, once said */
	struct nv_watch *w;
};

struct nv_watch {
	const struct nv_watch_opts *o;
	struct wjob **jobs;
	size_t njobs;
	struct wtrace **tr;
	size_t ntr;
	char host[256];
	double start;		/* monotonic s at the start */
	uint64_t start_ns;	/* the same in ns (--from-now) */
	double grew_at;		/* when some trace last grew or appeared */
	double scanned, turned;	/* when the directories were last read, the last turn */
	bool scan_after_end;	/* read once more after every job ended */
	int failed;		/* an output's error: the watch stops */
	size_t ended;		/* jobs ended */
	size_t incomplete;	/* of them without every footer */
};

/* Return: CLOCK_MONOTONIC now in s. */
double watch_now(void);

/* The records handed to every output in order (watch.c); an output's error
 * stops the watch (w->failed).  Return: 0 or that error. */
int watch_job_rec(struct nv_watch *w, const struct nv_live_job *j);
int watch_interval_rec(struct nv_watch *w, const struct nv_live_interval *iv);
int watch_health_rec(struct nv_watch *w, const struct nv_live_health *h);
int watch_end_rec(struct nv_watch *w, const struct nv_live_end *e);

/* A finding (kind, one line) about job j (NULL: the watch), to the outputs
 * and the log.  Return: 0 or an output's error. */
int watch_say(struct nv_watch *w, const struct wjob *j, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Job j's next steps: started once its traces are in, blocks read, intervals
 * handed out, its waiting trace checked for faults, its end.
 * Return: 0 or -errno (an output failed, out of memory). */
int wjob_tick(struct nv_watch *w, struct wjob *j);

/* Job j's traces cut where they are (the watch ends without their footers:
 * --idle-timeout, Ctrl-C) and its end handed out.  Return: 0 or -errno. */
int wjob_stop(struct nv_watch *w, struct wjob *j);

/* Return: nothing; j freed. */
void wjob_free(struct wjob *j);

#endif
