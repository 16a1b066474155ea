/*
 * claims.h - --claim: what a study says, checked against the report.
 *
 * Grammar (docs/analysis.md has it with examples):
 *
 *	CLAIM  := [JOB ':'] METRIC ':' CHANGE	change against the baseline / pair
 *	        | [JOB ':'] METRIC OP VALUE	absolute, for every run
 *	CHANGE := NUM ['%'] [TOL] | NUM 'x'	"+50%", "-20", "+50%±2", "2.1x"
 *	TOL    := ('±' | '+-' | '+/-') NUM ['%']
 *	OP     := '<=' | '<' | '>=' | '>'
 *	VALUE  := NUM [UNIT]	latency: ns us ms s (required); bandwidth:
 *				B/s kB/s MB/s GB/s KiB/s MiB/s GiB/s (required;
 *				not KB/s: its K is 1024 to fio 2.x, 1000 to CDM);
 *				percentages: optional '%'; counts: plain
 *
 * JOB is an fnmatch glob on the job key or name (default: every job).
 * METRIC is a row's key ("iops", "bw", "mean") or a percentile of any level
 * "pX" ("p99.5", "p25": stats/pctlevels.h; the caller adds its row, see
 * nv_claims_levels); a latency statistic may name its kind as the JSON
 * keys do ("clat_mean", "lat_p99", "slat_max"): the tables' latency kind
 * (--lat) must be that one, bare names ("mean", "p99") are of that kind.
 * Verdicts: met, not met, or cannot tell (no data; or, with repeats, the
 * 95% interval lies on both sides of the claimed bound).
 */
#ifndef NV_ANALYZE_CLAIMS_H
#define NV_ANALYZE_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/report/model.h"

enum nv_claim_kind { NV_CLAIM_CHANGE, NV_CLAIM_ABS };
enum nv_claim_op { NV_CLAIM_LE, NV_CLAIM_LT, NV_CLAIM_GE, NV_CLAIM_GT };
enum nv_claim_verdict { NV_CLAIM_MET, NV_CLAIM_NOT_MET, NV_CLAIM_CANNOT_TELL };

struct nv_claim {
	char *text;		/* as given */
	char *job;		/* glob on the job key or name; NULL: every job */
	enum nv_metric metric;
	bool have_lat;		/* METRIC named a latency kind: "clat_mean", "lat_p99" ... */
	enum nv_latkind lat;	/* ... this one; it must be the tables' (--lat) */
	double level;		/* a percentile (any level: "p99.5", "p25"): its level */
	enum nv_claim_kind kind;
	double pct;		/* CHANGE: the claimed change in % (+50, -20) */
	bool have_tol;
	double tol;		/* CHANGE: ± percentage points */
	enum nv_claim_op op;	/* ABS */
	double value;		/* ABS: in the model's unit of the metric (ns, MB/s, ...) */
};

/*
 * A value with the unit of u: "3ms", "330MB/s" (latency and bandwidth need
 * one), "11800", "5%" (others: plain, '%' allowed).
 * Return: 0 with *v in the model's unit of u (ns, MB/s ...), or -EINVAL.
 */
int nv_parse_quantity(const char *s, enum nv_unit u, double *v);

/*
 * Parse one --claim argument into *c (free with nv_claim_free).
 * Return: 0; -EINVAL with a message naming the claim, the part at fault and
 * the expected form in err; -ENOMEM.
 */
int nv_claim_parse(const char *s, struct nv_claim *c, char *err, size_t errlen);
void nv_claim_free(struct nv_claim *c);

/*
 * The percentile levels claims[0..n) name, added to l (so that their rows
 * exist).
 * Return: 0, or -ENOSPC when l is full.
 */
int nv_claims_levels(const struct nv_claim *claims, size_t n, struct nv_pctl *l);

/*
 * The name of the claim's metric: its key ("iops"), a percentile's "p99.5",
 * with the latency kind the claim named: "lat_mean", "clat_p99".
 * Return: nothing; in buf.
 */
void nv_claim_metric_name(char *buf, size_t n, const struct nv_claim *c);

/*
 * Whether claim c can be judged on tables that show latency kind shown: it
 * names no kind, or that one.  opt ("--claim", "--sla") heads the message.
 * Return: 0, or -ENOENT with what to pass in err.
 */
int nv_claim_kind_shown(const struct nv_claim *c, enum nv_latkind shown, const char *opt,
			char *err, size_t errlen);

/* "met", "not met", "cannot tell". */
const char *nv_claim_verdict_name(enum nv_claim_verdict v);

/*
 * Judge a CHANGE claim by the measured change ch of a metric whose
 * direction is higher_better.  Without a tolerance +X% means "at least
 * +X%", -X% "at most -X%", 0% "not worse"; with ±T it means "within T
 * points of X".  With an interval (ch->have_ci) the verdict is met or not
 * met only when the whole interval agrees; repeats without one (fewer than
 * 3 runs a side) cannot tell; one run a side is judged by ch->pct, and 0%
 * by the verdict the tables print (about equal, same or better: met).
 * Return: the verdict (cannot tell when ch->have is false).
 */
enum nv_claim_verdict nv_claim_judge_change(const struct nv_claim *c, const struct nv_change *ch,
					    bool higher_better);

/*
 * Judge an ABS claim by one side's cell (its mean; with n >= 2 runs the
 * Student t 95% interval of the mean must hold the bound entirely).
 * Return: the verdict (cannot tell when the cell is empty).
 */
enum nv_claim_verdict nv_claim_judge_abs(const struct nv_claim *c, const struct nv_cell *cell);

/* One claim judged for one job/direction and one run (ABS) or pair (CHANGE). */
struct nv_claim_result {
	const struct nv_claim *claim;
	size_t block;		/* index in the report's blocks */
	size_t side;		/* ABS: the run judged; CHANGE: the side compared ... */
	size_t base;		/* ... with this one */
	struct nv_change chg;	/* CHANGE: the measured change */
	struct nv_cell cell;	/* ABS: the side's values */
	enum nv_claim_verdict verdict;
};

/*
 * Judge every claim on every active block its JOB glob matches that has a
 * row for its metric: CHANGE claims for each pair of the change columns
 * (report/pairs.h), ABS claims for each side.  Results go to r->claims; r->claims_failed is set
 * when one is not met.
 * Return: 0; -ENOENT with a message in err when a claim matches no job, none
 * of its jobs has the metric, or no run has a value of it to judge (a
 * percentile no run reports); -ENOMEM.
 */
int nv_claims_eval(struct nv_report *r, const struct nv_claim *claims, size_t nclaims,
		   char *err, size_t errlen);

/*
 * The row of block b that claim c is about: its percentile level's row, or
 * its metric's.
 * Return: the row, or NULL when b has none (or shows another latency kind
 * than the one the claim names).
 */
const struct nv_row *nv_claim_row(const struct nv_block *b, const struct nv_claim *c);

#endif
