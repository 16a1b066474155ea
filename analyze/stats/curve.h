/*
 * curve.h - load curves: sweeps recognised from fio job options, the knee
 * of a latency-throughput curve, and the SLA search over measured points.
 *
 * A sweep is a family of jobs whose options are the same but for the swept
 * ones (NV_SWEEP_KEYS: bs, rwmixread, numjobs, iodepth; an option a job does
 * not set has fio's default) and that did IO in the same direction, with at
 * least two points and no two jobs at the same point.  It does not matter
 * how the jobs were named (`randread@iodepth=32` by jobs/run, `[qd32]` in a
 * hand-written job file).  docs/analysis.md has the rules.
 *
 * Pure: the caller gives the jobs (name, options, direction) and the
 * numbers; nothing here prints.
 */
#ifndef NV_ANALYZE_CURVE_H
#define NV_ANALYZE_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/jobmeta.h"

/* The swept options, in the order of a point's name and of a matrix (rows, columns). */
enum nv_sweep_key { NV_SW_BS, NV_SW_RWMIX, NV_SW_NUMJOBS, NV_SW_IODEPTH, NV_SW_NR };

/* "bs", "rwmixread", "numjobs", "iodepth"; "?" if out of range. */
const char *nv_sweep_key_name(enum nv_sweep_key k);

/* One job offered to the recognition. */
struct nv_sweep_job {
	const char *name;		/* fio's job name (the family's name comes from it) */
	const struct nv_jobmeta *meta;	/* its options */
	int dir;			/* the direction it did IO in (enum nv_dir) */
};

/* One point of a sweep: a job and its swept values. */
struct nv_sweep_point {
	size_t job;			/* index in the jobs given */
	double v[NV_SW_NR];		/* the swept options' values (bs in bytes) */
};

struct nv_sweep {
	char *name;			/* "randread", "qd", or "rw=randread" */
	int dir;
	unsigned nparams;		/* swept options that vary: 1 a curve, 2 a matrix */
	enum nv_sweep_key param[NV_SW_NR];	/* those, in enum order */
	size_t npoints;
	struct nv_sweep_point *pt;	/* ascending by param[0], then param[1] ... */
};

struct nv_sweeps {
	size_t n;
	struct nv_sweep *s;
};

/*
 * Find the sweeps among jobs[0..n): group them by direction and options but
 * the swept ones; a group is a sweep when a swept option varies and no two
 * of its jobs are at the same point.  Sweeps come in the order of their
 * first job.
 * Return: 0 (out->n 0: none), or -ENOMEM.  Free with nv_sweeps_free.
 */
int nv_sweeps_find(const struct nv_sweep_job *jobs, size_t n, struct nv_sweeps *out);
void nv_sweeps_free(struct nv_sweeps *s);

/*
 * A swept value as it reads: "32", "4k", "128k", "1m", "70".
 * Return: nothing; the text is in buf.
 */
void nv_sweep_value_text(char *buf, size_t n, enum nv_sweep_key k, double v);

/*
 * A point's name: "iodepth=32", "bs=4k,iodepth=32" (the swept parameters).
 * Return: nothing; the text is in buf.
 */
void nv_sweep_point_name(char *buf, size_t n, const struct nv_sweep *s, size_t i);

/*
 * The distinct values of swept option k among the points of s, ascending,
 * into v (at most max of them).
 * Return: their number.
 */
size_t nv_sweep_values(const struct nv_sweep *s, enum nv_sweep_key k, double *v, size_t max);

/* The knee rule's thresholds (--knee-p99, --knee-iops). */
struct nv_knee_opts {
	double lat_factor;	/* p99 grows by more than this factor (default 2) ... */
	double tput_pct;	/* ... while IOPS grows by less than this % (default 10) */
};

#define NV_KNEE_LAT_DEFAULT 2.0
#define NV_KNEE_TPUT_DEFAULT 10.0

/*
 * The knee of a curve: the first point i whose latency lat[i] is more than
 * o->lat_factor times the previous present point's while its throughput
 * tput[i] grew by less than o->tput_pct % over that point's, and no later
 * point's grew by that much either (a dip of noise before more throughput is
 * not a knee).  Points with a NAN (absent) or non-positive value are skipped.
 * Return: the index, or -1 when there is none; *prev is the point compared with.
 */
long nv_knee_find(const double *tput, const double *lat, size_t n, const struct nv_knee_opts *o,
		  size_t *prev);

/* A point's verdict against an SLA (as a --claim's: report/claims.h). */
enum nv_sla_verdict { NV_SLA_MET, NV_SLA_NOT_MET, NV_SLA_CANNOT_TELL, NV_SLA_ABSENT };

/* The answer of an SLA search over one run's points. */
struct nv_sla_answer {
	long best;		/* the met point of highest throughput, -1: none */
	long first_fail;	/* the first point in sweep order not met, -1: none */
	long first_unsure;	/* the first point that cannot tell, -1: none */
	long first_absent;	/* the first point without the SLA's metric, -1: none */
	/* the points without it (not run, or the metric not measured) */
	size_t nabsent;
};

/*
 * The SLA search over points 0..n) in sweep order with verdicts v[] and
 * throughputs tput[] (no interpolation: measured points only).  A point
 * NV_SLA_ABSENT is counted in a->nabsent, never taken for met: with every
 * point absent there is no answer (a->nabsent == n), with some absent the
 * answer holds for the measured points only.
 * Return: nothing; *a is filled.
 */
void nv_sla_search(const enum nv_sla_verdict *v, const double *tput, size_t n,
		   struct nv_sla_answer *a);

#endif
