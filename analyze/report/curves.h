/*
 * curves.h - the load curves of a report: the sweeps (stats/curve.h) among
 * the report's blocks with each point's block, the knee and the SLA answers
 * per run, fio's steady-state and latency-target results, and rounds
 * (jobs named NAME@round=K) judged by the steady-state rule
 * (stats/steady.h).  Rendered by curve_table.c and, with -o, drawn by
 * figures/curve_figs.c.
 */
#ifndef NV_ANALYZE_CURVES_H
#define NV_ANALYZE_CURVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analyze/report/claims.h"
#include "analyze/report/format.h"
#include "analyze/report/model.h"
#include "analyze/stats/curve.h"
#include "analyze/stats/steady.h"

/* The options of the load curves (cli/curve_opts.c). */
struct nv_curve_opts {
	struct nv_knee_opts knee;
	struct nv_steady_opts steady;
	size_t nsla;
	struct nv_claim *sla;	/* --sla: absolute claims (METRIC OP VALUE) */
	struct nv_pctl lat;	/* --percentiles' levels as given; n 0: p50, p99, p99.9 */
};

/* Return: the defaults (knee 2x / 10%, steady 5 rounds / 20% / 10%, no SLA). */
struct nv_curve_opts nv_curve_opts_default(void);

/* One sweep of the report. */
struct nv_curve {
	const struct nv_sweep *sw;
	size_t *block;		/* [sw->npoints]: the report block of each point */
	enum nv_metric tput;	/* NV_M_IOPS or NV_M_BW (the summary's headline rule) */
	bool line;		/* one point per value of the first parameter: a curve, a knee */
	/* two parameters with more points than values of either: a matrix */
	bool grid;
	/* every swept option a load (iodepth, numjobs): a knee is judged */
	bool load;
	long *knee;		/* [nsides]: the knee point, -1 none (line load curves only) */
	size_t *knee_prev;	/* [nsides]: the point it is compared with */
};

/* One --sla on one sweep: per run the answer and each point's verdict. */
struct nv_sla_result {
	const struct nv_claim *claim;
	size_t curve;
	struct nv_sla_answer *ans;	/* [nsides] */
	enum nv_sla_verdict *v;		/* [nsides * npoints] */
};

/* Rounds of one job (NAME@round=K, K from 1) and direction. */
struct nv_rounds {
	char *name;		/* NAME */
	enum nv_dir dir;
	enum nv_metric metric;	/* the value judged: IOPS or MB/s */
	size_t n;		/* rounds: 1 .. n */
	size_t *block;		/* [n]: the block of round K at K - 1, SIZE_MAX if none */
	double *v;		/* [nsides * n]: each run's value per round, NAN if none */
	struct nv_steady *st;	/* [nsides] */
};

struct nv_curves {
	const struct nv_report *r;
	struct nv_curve_opts o;
	struct nv_sweeps sweeps;
	size_t n;
	struct nv_curve *c;	/* [n], one per sweep */
	size_t nsla;
	struct nv_sla_result *sla;
	size_t nrounds;
	struct nv_rounds *rounds;
	bool have_ss, have_lt;	/* some job has fio's steadystate / latency_target result */
	struct nv_pctl lat;	/* the latency levels of the curve tables and figures:
				 * o.lat, else p50, p99, p99.9 */
};

/*
 * Build the curves of r with options o (its SLA claims are referenced, not
 * copied).
 * Return: 0; -ENOENT with a message naming the --sla in err when an SLA
 * matches no sweep; -ENOMEM.  Free with nv_curves_free.
 */
int nv_curves_build(const struct nv_report *r, const struct nv_curve_opts *o,
		    struct nv_curves *c, char *err, size_t errlen);
void nv_curves_free(struct nv_curves *c);

/* Return: true when there is something to print (a sweep, rounds, fio's results). */
bool nv_curves_any(const struct nv_curves *c);

/*
 * Markdown (f NV_FMT_MD) or text: the load-curve tables (one per run, the
 * change per point), knees, matrices, SLA answers, fio's latency-target and
 * steady-state results, the rounds' steady state.
 * Return: 0 or -ENOMEM.
 */
int nv_curves_print(FILE *out, const struct nv_curves *c, enum nv_format f);

/*
 * The curves as one JSON object (the "load_curves" member of --format json):
 * sweeps (points with each run's numbers, knees), sla, fio_latency_target,
 * fio_steadystate, rounds.
 * Return: a new reference, or NULL when out of memory.
 */
json_t *nv_curves_json(const struct nv_curves *c);

/*
 * A job name's round: "precondition@round=3" gives 3 and the name without
 * the tag ("precondition"; other tags stay: "w@bs=4k,round=2" -> "w@bs=4k").
 * Return: the round (>= 1), or 0 when the name has no round tag.
 */
unsigned long nv_round_of(const char *name, char *base, size_t n);

#endif
