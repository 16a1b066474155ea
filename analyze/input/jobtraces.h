/*
 * jobtraces.h - which nvengine traces belong to which job of a fio run (read
 * only: the analysis and the join with fio's values are stats/trace_join.h).
 *
 * Discovery: a job whose options (job or global) contain nv_trace=DIR wrote
 * DIR/NAME.THREAD.nvt per job thread (trace/nvtrace_name.h: NAME is the
 * job name with unsafe characters as '_', THREAD fio's thread number).  For
 * the JSON entries of one name and DIR (E of them) and the T files found:
 * E == 1 takes all T (numjobs with group_reporting, or one thread); E == T
 * pairs them in order (numjobs without group_reporting: fio prints the
 * clones in thread order); anything else cannot be paired (a warning; use
 * --trace).  No file for a job that named nv_trace is a warning naming the
 * expected path.
 *
 * Explicit: --trace [RUN:][JOB=]FILE[,FILE...] (see nv_trace_arg_parse).
 */
#ifndef NV_ANALYZE_JOBTRACES_H
#define NV_ANALYZE_JOBTRACES_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

struct nv_jobtraces {
	const struct nv_run *run;
	size_t job;		/* index in run->jobs */
	bool explicit_;		/* from --trace */
	size_t npaths;
	char **paths;
	bool unselected;	/* left out by -j/-d (nv_traces_select): never analyzed */
};

struct nv_traceset {
	size_t n;
	struct nv_jobtraces *jt;
	size_t nnotes;
	char **notes;		/* warnings for stderr */
	size_t ninfos;
	char **infos;		/* the normal workflow said in words, for -v */
	unsigned dirs;		/* directions shown (-d): bit mask of enum nv_dir, 0 = all */
};

/* A parsed --trace argument; run and job are NULL when not given. */
struct nv_trace_arg {
	char *run, *job;
	size_t npaths;
	char **paths;
};

/*
 * "[RUN:][JOB=]FILE[,FILE...]": RUN a run label or 1-based position, JOB a
 * job key.  A whole argument that names an existing file is one FILE.
 * 0 or -EINVAL with err set.  Free with nv_trace_arg_free.
 */
int nv_trace_arg_parse(const char *s, struct nv_trace_arg *a, char *err, size_t errlen);
void nv_trace_arg_free(struct nv_trace_arg *a);

/*
 * Find the traces of every job of run that named nv_trace (skipping jobs
 * that already have explicit traces in ts).  Adds entries and notes to ts.
 * 0 or -ENOMEM.
 */
int nv_traces_discover(const struct nv_run *run, struct nv_traceset *ts);

/*
 * Add traces for job `job` of run (one entry per job: paths are appended
 * to an existing one); explicit_ marks the entry as given by --trace.
 * Return: 0 or -ENOMEM.
 */
int nv_traces_add(struct nv_traceset *ts, const struct nv_run *run, size_t job, char **paths,
		  size_t npaths, bool explicit_);

/*
 * The job of run a --trace argument is for: the one named (a->job: a job
 * key), the run's only job, or the job the first trace's header names
 * (job.name, a key or a unique name).
 * Return: 0 with *job set; -ENOENT with "no job 'X' in FILE" / "more than
 * one job 'X' in FILE" in err; or -errno when the trace cannot be read,
 * the reader's message in err.
 */
int nv_trace_arg_job(const struct nv_run *run, const struct nv_trace_arg *a, size_t *job,
		     char *err, size_t errlen);

/*
 * The expected trace of a job: "DIR/NAME.THREAD.nvt", or "DIR/NAME.*.nvt"
 * for thread 0.  0 or -ENAMETOOLONG.
 */
int nv_trace_pattern(char *buf, size_t n, const char *dir, const char *jobname, unsigned thread);

void nv_traceset_free(struct nv_traceset *ts);

/* The direction of a trace operation, or -1 (flush, zeroes ... have none). */
int nv_op_dir(unsigned op);

/*
 * -j/-d for the traces: an entry whose job keep(run, job, arg) refuses is
 * marked unselected (not analyzed, so neither reported nor plotted); dirs
 * (a bit mask of enum nv_dir, 0 = all) limits the operations shown.
 * Return: nothing.
 */
void nv_traces_select(struct nv_traceset *ts,
		      bool (*keep)(const struct nv_run *run, size_t job, void *arg), void *arg,
		      unsigned dirs);

/*
 * Whether operation op is shown under -d: its fio direction (flush: sync;
 * write zeroes, uncorrectable, verify: write) is among ts->dirs.
 * Return: true when shown.
 */
bool nv_traces_op_shown(const struct nv_traceset *ts, unsigned op);

#endif
