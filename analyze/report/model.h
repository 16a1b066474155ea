/*
 * model.h - the report model: fio runs matched by job and direction into
 * blocks, one row per metric, one cell per side (the statistics of repeats
 * come from stats/repeats.h), the change against the baseline, prices and
 * claims.
 *
 * The result is a struct nv_report, which report/render.h renders; nothing
 * here prints.  All pure: the unit tests drive it with hand-made runs.
 */
#ifndef NV_ANALYZE_MODEL_H
#define NV_ANALYZE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"
#include "analyze/stats/trace_join.h"
#include "analyze/stats/repeats.h"
#include "analyze/stats/pctlevels.h"

/* In row order.  From NV_M_IO_BYTES on: the rest of fio's numbers of the job. */
enum nv_metric {
	NV_M_IOPS, NV_M_BW, NV_M_MIN, NV_M_MEAN, NV_M_P50, NV_M_P95, NV_M_P99, NV_M_P999,
	NV_M_P9999, NV_M_PCTL, NV_M_MAX, NV_M_STDEV,
	NV_M_IO_BYTES, NV_M_RUNTIME, NV_M_USR_CPU, NV_M_SYS_CPU, NV_M_CTX, NV_M_MAJF, NV_M_MINF,
	NV_M_BW_SMIN, NV_M_BW_SMAX, NV_M_BW_SMEAN, NV_M_BW_SDEV,
	NV_M_IOPS_SMIN, NV_M_IOPS_SMAX, NV_M_IOPS_SMEAN, NV_M_IOPS_SDEV, NV_M_ERROR,
	NV_M_PRICE, NV_M_COST, NV_M_COST_BW, NV_M_NR
};

/*
 * Percentile rows: the levels of --percentiles (nv_block_levels), in level
 * order where NV_M_P50 stands; a level of nv_pcts' with a metric of its own
 * (p50 ... p99.99) is that metric, any other NV_M_PCTL with its level in the
 * row (struct nv_row level).
 */
#define NV_M_IS_PCT(m) (((m) >= NV_M_P50 && (m) <= NV_M_P9999) || (m) == NV_M_PCTL)

/* Model units: IO/s, MB/s (10^6 bytes), ns, USD, bytes, % (CPU), plain counts. */
enum nv_unit { NV_U_IOPS, NV_U_MBPS, NV_U_NS, NV_U_USD_H, NV_U_USD_KIOPS, NV_U_BYTES, NV_U_PCT,
	       NV_U_COUNT, NV_U_USD_GBPS };

/*
 * A block's headline number, the suite summary's (report/summary.h) and
 * the cost row's: the rule (docs/analysis.md) gives IOPS for random jobs
 * (rw=rand*) and for small-block ones (block size, or measured bytes per IO,
 * below NV_SUMMARY_SMALL_BS); MB/s for the rest (sequential large-block).
 * --summary iops|bw|both overrides it.
 */
enum nv_headline { NV_HL_AUTO, NV_HL_IOPS, NV_HL_BW, NV_HL_BOTH };

#define NV_SUMMARY_SMALL_BS 65536	/* below: a small-block job */

struct nv_metric_info {
	const char *key;	/* claim name and JSON key stem: "iops", "p99.9" */
	const char *title;	/* row title: "IOPS", "p99.9" */
	enum nv_unit unit;
	bool higher_better;
	bool latency;		/* a latency statistic (from --lat's object) */
	bool neutral;		/* a change is neither better nor worse (runtime, error) */
	const char *json;	/* JSON key, units in it, when not key + the unit's suffix */
	const struct nv_pct_info *pct;	/* a percentile: its entry in nv_pcts, else NULL */
};

const struct nv_metric_info *nv_metric(enum nv_metric m);	/* NULL if out of range */
int nv_metric_parse(const char *s, enum nv_metric *m);	/* also "bandwidth", "stddev" */

/*
 * One metric of one job/direction in one run: the exact value from traces
 * where the direction has them (exact: the completion latencies of
 * nv_jobjoin_exact, or NULL), else fio's.  Price and cost are not in runs
 * (see nv_report).
 * Return: the value's source (NV_SRC_NONE: missing, *v untouched).
 */
int nv_metric_value(const struct nv_dirstat *ds, const struct nv_latstat *exact, enum nv_metric m,
		    enum nv_latkind lat, double *v);
/* The same, but always fio's own value.  Return: its source. */
int nv_metric_value_fio(const struct nv_dirstat *ds, enum nv_metric m, enum nv_latkind lat,
			double *v);
/*
 * nv_metric_value, and its printed width and cut (nv_val.prec, .cut) into
 * *prec and *cut when prec is not NULL.  Return: the value's source,
 * NV_SRC_NONE if absent.
 */
int nv_metric_value_prec(const struct nv_dirstat *ds, const struct nv_latstat *exact,
			 enum nv_metric m, enum nv_latkind lat, double *v, double *prec,
			 unsigned char *cut);
/*
 * A number of the job rather than of one direction (CPU, context switches,
 * page faults, its error) into *v, *prec and *cut.  Return: the source,
 * NV_SRC_NONE when absent or m is not one of those.
 */
int nv_job_metric_value(const struct nv_job *j, enum nv_metric m, double *v, double *prec,
			unsigned char *cut);

double nv_cost_per_kiops(double usd_per_hour, double iops);	/* NAN if iops <= 0 */
double nv_cost_per_gbps(double usd_per_hour, double mbps);	/* NAN if mbps <= 0 */



/* A side: one label, one or more runs (repeats). */
struct nv_side {
	const char *label;
	size_t nruns;
	const struct nv_run *runs;
	bool have_price;
	double price;		/* USD per hour */
	const struct nv_tracejoin *traces;	/* the runs' joined traces, or NULL */
};

/* Where a block's numbers of one side came from: one run that has the job. */
struct nv_source {
	size_t run;			/* index in the side's runs */
	const struct nv_run *rp;
	const struct nv_job *job;
	const struct nv_jobjoin *traces;	/* the job's joined traces, or NULL */
};

/* A run of the report and its label. */
struct nv_runinfo {
	const struct nv_run *run;
	size_t side, index;		/* its side, its position among the side's runs */
	char *label;			/* the side's; with repeats "LABEL run K" (K from 1) */
};

struct nv_row {
	enum nv_metric metric;
	double level;			/* percentile rows: the level (99.5), else 0 */
	bool *above_max;		/* [nsides] percentile rows: a run's fio value lies above
					 * its max (fio's bins), else NULL */
	struct nv_cell *cells;		/* [nsides] */
	struct nv_cell *fio; /* [nsides] fio's own values where cells are exact, else NULL */
	struct nv_change *chg;		/* [nsides]; the baseline's is empty */
	struct nv_change *pchg;		/* [npairs]: the change columns (report/pairs.h) */
};

/* A change column: side a compared with side b. */
struct nv_pair {
	size_t a, b;
};

struct nv_block {
	char *key;
	enum nv_dir dir;
	const char *desc;		/* from the first run that has the job */
	const char **sdesc;		/* [nsides]: each side's first run's, or NULL */
	enum nv_latkind lat;		/* the latency object used (sync: total) */
	bool active;			/* some run did IOs in this direction */
	int error;			/* the first non-zero job error seen */
	bool *present;			/* [nsides]: some run of the side has it */
	size_t *nsrc;			/* [nsides]: the side's runs that have it ... */
	struct nv_source **src;		/* [nsides][nsrc[s]]: ... in run order */
	size_t nrows;
	struct nv_row rows[NV_M_NR + NV_PCTL_MAX];
};

struct nv_claim_result;		/* report/claims.h */
struct nv_curves;		/* report/curves.h */

struct nv_report {
	size_t nsides, baseline;
	const struct nv_side *sides;
	enum nv_latkind lat;
	enum nv_aggregate agg;		/* how a side's runs become its value */
	size_t nruns;
	struct nv_runinfo *runs;	/* every run of every side, in order */
	size_t nblocks;
	struct nv_block *blocks;
	size_t npairs;
	struct nv_pair *pairs;		/* the change columns (report/pairs.h) */
	size_t nclaims;			/* filled by nv_claims_eval */
	struct nv_claim_result *claims;
	bool claims_failed;
	const struct nv_pctl *levels;	/* the percentile rows asked for (sel->levels) */
	enum nv_headline headline;	/* sel->headline: which cost rows */
	double same_below;		/* sel->same_below: the about-equal threshold, % */
	size_t nnotes;
	char **notes;			/* levels fio did not report (printed as missing) */
	size_t nwarnings;		/* the inputs' warnings (stderr), set by the caller */
	const char *const *warnings;	/* for the -o pages: a host missing, traces not
					 * fetched ... (not owned; not in nv_report_print) */
	const struct nv_curves *curves;	/* load curves (report/curves.h), or NULL */
};

struct nv_select {
	size_t njobs;
	char **jobs;		/* fnmatch patterns on the key or name; none = all */
	unsigned dirs;		/* bit mask of enum nv_dir; 0 = all */
	const struct nv_pctl *levels;	/* --percentiles; NULL: the default list */
	enum nv_headline headline;	/* --summary: cost per 1k IOPS for an IOPS
					 * headline, per GB/s for bandwidth, both */
	double same_below;	/* --same-below: single runs' about-equal threshold, %
				 * (0: off; a NULL sel: NV_SAME_BELOW_DEFAULT) */
};

/* Return: true when some side has more than one run (repeats). */
bool nv_report_repeats(const struct nv_report *r);

/*
 * Whether -j/-d select direction d of job j (sel NULL: everything).
 * Return: true when selected.
 */
bool nv_select_match(const struct nv_select *sel, const struct nv_job *j, enum nv_dir d);

/*
 * The row of metric m in block b.
 * Return: the row, or NULL when the block has no row for m.
 */
const struct nv_row *nv_block_row(const struct nv_block *b, enum nv_metric m);

/*
 * The percentile row of level p in block b (whichever metric it has).
 * Return: the row, or NULL when the block has no row for p.
 */
const struct nv_row *nv_block_level_row(const struct nv_block *b, double p);

/*
 * The headline of block b by the rule (enum nv_headline above).
 * Return: NV_HL_IOPS or NV_HL_BW.
 */
enum nv_headline nv_block_headline(const struct nv_report *r, const struct nv_block *b);

/*
 * The metric of a percentile row of level p: NV_M_P50 ... NV_M_P9999 for
 * their levels, NV_M_PCTL for any other.
 * Return: the metric.
 */
enum nv_metric nv_level_metric(double p);

/*
 * Level p (ns) of direction d of one source: with exact values from its
 * joined traces (completion latency, the traces agree with fio's counts:
 * stats/trace_join.h) the nearest rank over every IO, else the value fio
 * reported for exactly that level, never interpolated; fio: always fio's.
 * Return: the value's source, NV_SRC_NONE when neither has it (*v untouched).
 */
int nv_level_value(const struct nv_source *src, enum nv_dir d, enum nv_latkind lat, double p,
		   bool fio, double *v);

/*
 * Whether fio's value v of direction d of job j lies above the direction's
 * max of the same latency kind (fio reports the middle of a bin).
 * Return: true when it does.
 */
bool nv_level_above_max(const struct nv_job *j, enum nv_dir d, enum nv_latkind lat, double v);

/*
 * Every level fio reported for block b's latency in some side's runs.
 * Return: nothing; *out is set (ascending; n 0 when none).
 */
void nv_block_fio_levels(const struct nv_report *r, const struct nv_block *b,
			 struct nv_pctl *out);

/*
 * The levels of block b's percentile rows: want's list (NULL: the default),
 * or for "fio" every level some source's JSON holds for the block (the
 * default list when none holds any) and want's own (those of claims).
 * Return: nothing; *out is set (ascending).
 */
void nv_block_levels(const struct nv_report *r, const struct nv_block *b,
		     const struct nv_pctl *want, struct nv_pctl *out);

/*
 * The label of a run of report r (a void * for the callbacks of
 * trace_sections.h and figures/): its side's label, with repeats "LABEL
 * run K".
 * Return: the label, or "?" for a run not in the report.
 */
const char *nv_report_run_label(const struct nv_run *run, void *r);

/*
 * The job behind block b: the first source (in side order) that has it.
 * Return: the job, or NULL when no run has it.
 */
const struct nv_job *nv_block_job(const struct nv_report *r, const struct nv_block *b);

/*
 * Build the report: one block per job key and direction found in any run
 * (in first-seen order), each side's sources (runs, jobs, joined traces
 * from the side's trace join), rows for every metric, each side's runs
 * aggregated by agg, each row's change against the baseline and its change
 * columns: one per pair of pairs[0..npairs) (sides a vs b), or with npairs
 * 0 each side but the baseline vs the baseline (report/pairs.h).
 * Return: 0, -EINVAL for a pair out of range or of a side with itself, or
 * -ENOMEM.
 */
int nv_report_build(const struct nv_side *sides, size_t nsides, size_t baseline,
		    const struct nv_pair *pairs, size_t npairs, enum nv_latkind lat,
		    enum nv_aggregate agg, const struct nv_select *sel, struct nv_report *r);
void nv_report_free(struct nv_report *r);

#endif
