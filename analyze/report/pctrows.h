/*
 * pctrows.h - fio's whole percentile list beside the report's rows: the
 * value fio reported for any level of a block's side (JSON and CSV carry
 * every level fio reported, whatever --percentiles chose).
 *
 * The rows' own levels and values are the model's (report/model.h:
 * nv_block_levels, nv_level_value, struct nv_row above_max): exact from
 * traces, else fio's value of exactly that level, never interpolated.
 */
#ifndef NV_ANALYZE_PCTROWS_H
#define NV_ANALYZE_PCTROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/report/model.h"
#include "analyze/stats/pctlevels.h"

/*
 * fio's value of level p for side s of block b, its runs aggregated as the
 * report's (r->agg); *above: some run's value lies above its max
 * (nv_level_above_max; may be NULL).
 * Return: nothing; *c is set (n 0: no run has it).
 */
void nv_side_fio_level(const struct nv_report *r, const struct nv_block *b, size_t s, double p,
		       struct nv_cell *c, bool *above);

#endif
