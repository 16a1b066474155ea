/*
 * pctrows.h - latency percentiles at any level (--percentiles): the value
 * of a level for one run (exact from traces, else fio's own, never
 * interpolated), the levels of a block's rows, fio's whole percentile list
 * for JSON and CSV, and the mark of a fio value above the job's max.
 *
 * fio reports a percentile as the middle of its log-linear latency bin
 * (input/fiojson.h, nv_fio_bin_range), so the value of a high level can lie
 * above the largest IO (max): such a value is marked, not shown as if exact.
 */
#ifndef NV_ANALYZE_PCTROWS_H
#define NV_ANALYZE_PCTROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/report/model.h"
#include "analyze/stats/pctlevels.h"

/*
 * The metric of a percentile row of level p: NV_M_P50 ... NV_M_P9999 for
 * their levels, NV_M_PCTL for any other.
 * Return: the metric.
 */
enum nv_metric nv_level_metric(double p);

/*
 * Level p (ns) of direction d of one source: with exact values from its
 * traces (completion latency, the traces agree with fio's counts) the
 * nearest rank over every IO, else the value fio reported for exactly that
 * level; fio: always fio's.
 * Return: the value's source, NV_SRC_NONE when neither has it (*v untouched).
 */
int nv_level_value(const struct nv_source *src, enum nv_dir d, enum nv_latkind lat, double p,
		   bool fio, double *v);

/*
 * Whether a fio value v of direction d of job j lies above the direction's
 * max (of the same latency kind).
 * Return: true when it does.
 */
bool nv_level_above_max(const struct nv_job *j, enum nv_dir d, enum nv_latkind lat, double v);

/*
 * The levels of block b's percentile rows: want's list (NULL: the default),
 * or for "fio" every level some source's JSON holds for the block (the
 * default list when none holds any) and want's own (those of claims).
 * Return: nothing; *out is set (ascending).
 */
void nv_block_levels(const struct nv_report *r, const struct nv_block *b,
		     const struct nv_pctl *want, struct nv_pctl *out);

/*
 * Every level fio reported for block b's latency in some side's runs.
 * Return: nothing; *out is set (ascending; n 0 when none).
 */
void nv_block_fio_levels(const struct nv_report *r, const struct nv_block *b,
			 struct nv_pctl *out);

/*
 * fio's value of level p for side s of block b, its runs aggregated as the
 * report's (r->agg).
 * Return: nothing; *c is set (n 0: no run has it).
 */
void nv_side_fio_level(const struct nv_report *r, const struct nv_block *b, size_t s, double p,
		       struct nv_cell *c);

/*
 * Every completion latency level that some job of runs[0..n) reports
 * (for "fio" with traces: the levels the traces must resolve).
 * Return: 0, or -ENOSPC when there are more than NV_PCTL_MAX (l holds the
 * first ones).
 */
int nv_pctl_fio_union(const struct nv_run *runs, size_t n, struct nv_pctl *l);

#endif
