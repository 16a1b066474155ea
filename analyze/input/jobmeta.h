/*
 * jobmeta.h - what a fio job's JSON entry says beyond its statistics: every
 * option it ran with (its "job options" over the "global options"), fio's
 * steady-state result ("steadystate", fio >= 2.19) and fio's latency-target
 * result ("latency_depth" ...).  Read by fiojson.c for each job; used by the
 * load curves (stats/curve.h) and their report (report/curve_table.h).
 */
#ifndef NV_ANALYZE_JOBMETA_H
#define NV_ANALYZE_JOBMETA_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* One option as fio wrote it: "iodepth" = "32". */
struct nv_jobopt {
	char *key, *val;
};

/* fio's "steadystate" object of a job (stat.c show_thread_status_json). */
struct nv_steadystate {
	bool present;
	char *ss;		/* "iops:0.500000%", "bw_slope:2.000000%" */
	double duration;	/* s: the window fio judged */
	bool attained;
	char *criterion;	/* the last value of the criterion: "0.485780%" */
	double max_deviation, slope;
	double bw_mean, iops_mean;	/* over the window; bytes/s, IO/s */
	/* the job's "elapsed" s (NAN if absent): when fio stopped it */
	double elapsed;
	size_t ndata;		/* per-second samples of the window */
	double *iops, *bw;	/* [ndata] */
};

/* fio's latency_target result (present when the job set latency_target=). */
struct nv_lattarget {
	bool present;
	double depth;		/* the highest queue depth that met the target */
	double target_ns;	/* ns (fio 3 converts the option to ns before writing it) */
	double percentile;	/* % of IOs that must meet it */
	double window_ns;	/* the sample window: fio writes usec, kept in ns */
};

struct nv_jobmeta {
	size_t nopts;
	struct nv_jobopt *opts;	/* the job's over the global ones, sorted by key */
	unsigned bs_kb;		/* the kb_base bs= was parsed under: 1000 or 1024 */
	struct nv_steadystate ss;
	struct nv_lattarget lt;
};

/*
 * Read m from a job's entry e with its options object jopt and the
 * global options gopt (either may be NULL).
 * Return: 0 or -ENOMEM (m then holds what was read: free it).
 */
int nv_jobmeta_parse(const json_t *e, const json_t *jopt, const json_t *gopt,
		     struct nv_jobmeta *m);

/*
 * The value of option key, or NULL when the job does not set it.
 * Return: a string owned by m.
 */
const char *nv_jobmeta_opt(const struct nv_jobmeta *m, const char *key);

/* Return: nothing; m is emptied. */
void nv_jobmeta_free(struct nv_jobmeta *m);

/*
 * A job's kb_base option text (NULL: not set) as nv_fio_bs_parse (fiojson.h) takes it.
 * Return: 1000 for "1000", else 1024 (fio's default).
 */
unsigned nv_fio_kb_base(const char *opt);

#endif
