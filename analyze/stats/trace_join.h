/*
 * trace_join.h - the trace join: the stage that analyzes the traces of each
 * job (input/jobtraces.h says which files belong to which job) and joins
 * them with the job's fio run: per job, the traces' statistics and, per
 * direction, their exact completion latencies beside fio's.
 *
 * The fio run is only read: the exact values live here, and the report
 * reaches them through its sources (report/model.h struct nv_source).  When
 * a trace's record count for a direction differs from fio's total_ios, a
 * note says so and, for discovered traces, no exact values are given (the
 * traces belong to another run); explicit ones (--trace) are used as given.
 */
#ifndef NV_ANALYZE_TRACE_JOIN_H
#define NV_ANALYZE_TRACE_JOIN_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"
#include "analyze/input/jobtraces.h"
#include "analyze/stats/trace_stats.h"

/* One job's analyzed traces joined with its fio run. */
struct nv_jobjoin {
	const struct nv_jobtraces *jt;	/* the input: run, job, trace files */
	struct nv_tan tan;		/* the traces' statistics */
	bool exact[NV_DIR_NR];		/* exact_clat[d] holds the traces' values */
	struct nv_latstat exact_clat[NV_DIR_NR];	/* completion latencies (no bins/points),
							 * beside fio's lat[NV_LAT_CLAT] */
};

/* Every selected entry of a traceset, analyzed, in the traceset's order. */
struct nv_tracejoin {
	const struct nv_traceset *ts;	/* the input (its -d directions shown) */
	size_t n;
	struct nv_jobjoin *j;
	size_t nnotes;
	char **notes;			/* warnings for stderr, after the traceset's */
	size_t nfailed;
	char **failed;			/* the entries that could not be analyzed: their
					 * errors (naming the trace), in the traceset's order */
	unsigned workers;		/* the threads the join was given (at least 1): -J,
					 * also for the rendering of the figures */
};

/*
 * Analyze every entry of ts not left out by -j/-d and join it with its run
 * (see above), the entries on `workers` threads (stats/workpool.h; 0 or 1:
 * this thread only), each entry's traces by one worker, or with fewer
 * entries than workers an entry of several traces (a grouped job's
 * threads) on its share of them (trace_merge.c); the results are joined in
 * the traceset's order, so that they are the same whatever the number of
 * workers.  An entry that cannot be analyzed leaves the others analyzed:
 * its error is in tj->failed; an entry with some of its traces damaged or
 * missing is joined from the others (tan.damaged, its notes say which).
 * o's progress callback is called by one worker at a time, with the join's
 * jobs_done/njobs/jobs_busy.  Memory:
 * one analysis (trace_stats.h) per worker at a time, plus the results.
 * *tj is valid (free with nv_trace_join_free) whatever the result.
 * Return: 0, or the first failed entry's -errno with its message (naming
 * the trace: unreadable, damaged, out of memory) in err (-EIO: an entry
 * joined without some of its traces).
 */
int nv_trace_join(const struct nv_traceset *ts, const struct nv_tan_opts *o, unsigned workers,
		  struct nv_tracejoin *tj, char *err, size_t errlen);

/*
 * The joined traces of job `job` of run.
 * Return: the entry, or NULL (tj NULL, or the job has no analyzed traces).
 */
const struct nv_jobjoin *nv_trace_join_find(const struct nv_tracejoin *tj,
					    const struct nv_run *run, size_t job);

/*
 * The exact completion latencies of direction d of a joined job.
 * Return: them, or NULL (jj NULL, or no exact values for d).
 */
const struct nv_latstat *nv_jobjoin_exact(const struct nv_jobjoin *jj, enum nv_dir d);

/*
 * The exact value (ns, nearest rank over every IO) of completion latency
 * level p of direction d of a joined job: a level of nv_pcts from
 * nv_jobjoin_exact, any other from the levels nv_tan_opts asked for
 * (--percentiles).
 * Return: NV_SRC_EXACT with *v set, or NV_SRC_NONE (no exact values for d,
 * or p was not resolved).
 */
int nv_jobjoin_level(const struct nv_jobjoin *jj, enum nv_dir d, double p, double *v);

/* Free what nv_trace_join filled.  Return: nothing. */
void nv_trace_join_free(struct nv_tracejoin *tj);

#endif
