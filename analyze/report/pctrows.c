/*
 * pctrows.c - fio's percentile list beside the rows (see pctrows.h).
 */
#include <stdlib.h>

#include "analyze/report/pctrows.h"

void nv_side_fio_level(const struct nv_report *r, const struct nv_block *b, size_t s, double p,
		       struct nv_cell *c, bool *above)
{
	double *buf = calloc(b->nsrc[s] ? b->nsrc[s] : 1, sizeof(*buf));
	size_t n = 0;

	if (above)
		*above = false;
	for (size_t k = 0; buf && k < b->nsrc[s]; k++) {
		if (!nv_level_value(&b->src[s][k], b->dir, b->lat, p, true, &buf[n]))
			continue;
		if (above && nv_level_above_max(b->src[s][k].job, b->dir, b->lat, buf[n]))
			*above = true;
		n++;
	}
	nv_repeats_cell(buf, n, r->agg, false, c);	/* out of memory: an empty cell */
	free(buf);
	c->absent = r->sides[s].nruns - b->nsrc[s];
	c->src = n ? NV_SRC_FIO : NV_SRC_NONE;
}
