/*
 * pctrows.c - percentile levels of the report (see pctrows.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/pctrows.h"

enum nv_metric nv_level_metric(double p)
{
	for (unsigned m = NV_M_P50; m <= NV_M_P9999; m++)
		if (nv_pctl_same(nv_metric((enum nv_metric)m)->pct->value, p))
			return (enum nv_metric)m;
	return NV_M_PCTL;
}

/* fio's value of level p in ls: its entry in nv_pcts, else its whole list. */
static int fio_level(const struct nv_latstat *ls, double p, double *v)
{
	for (unsigned i = 0; i < NV_PCT_NR; i++) {
		if (nv_pctl_same(nv_pcts[i].value, p) && ls->pct[i].src != NV_SRC_NONE) {
			*v = ls->pct[i].v;
			return ls->pct[i].src;
		}
	}
	for (size_t i = 0; i < ls->npoints; i++) {
		if (nv_pctl_same(ls->points[i].pct, p)) {
			*v = ls->points[i].ns;
			return NV_SRC_FIO;
		}
	}
	return NV_SRC_NONE;
}

/*
 * The exact value of level p of direction d from the source's traces: the
 * direction's entry in nv_pcts (put there by input/jobtraces.c), else the
 * level resolved for --percentiles by the operation of direction d.
 */
static int exact_level(const struct nv_source *src, const struct nv_dirstat *ds, enum nv_dir d,
		       double p, double *v)
{
	const struct nv_tan *t = src->traces ? &src->traces->tan : NULL;
	int got = NV_SRC_NONE;

	for (unsigned i = 0; i < NV_PCT_NR; i++) {
		if (nv_pctl_same(nv_pcts[i].value, p) && ds->exact_clat.pct[i].src) {
			*v = ds->exact_clat.pct[i].v;
			return ds->exact_clat.pct[i].src;
		}
	}
	for (size_t k = 0; t && k < t->nlevels; k++) {
		if (!nv_pctl_same(t->levels[k], p))
			continue;
		for (unsigned op = 0; op < NVT_OP__MAX; op++) {	/* jobtraces.c's: the last */
			const struct nv_latsum *l = &t->op[op].lat;

			if (nv_op_dir(op) == (int)d && t->op[op].records && k < l->nlv) {
				*v = (double)l->lv[k];
				got = NV_SRC_EXACT;
			}
		}
	}
	return got;
}

int nv_level_value(const struct nv_source *src, enum nv_dir d, enum nv_latkind lat, double p,
		   bool fio, double *v)
{
	const struct nv_dirstat *ds = &src->job->dir[d];
	int got;

	if (!ds->present || (unsigned)lat >= NV_LAT_NR)
		return NV_SRC_NONE;
	if (!fio && ds->exact && lat == NV_LAT_CLAT && (got = exact_level(src, ds, d, p, v)))
		return got;
	return fio_level(&ds->lat[lat], p, v);
}

bool nv_level_above_max(const struct nv_job *j, enum nv_dir d, enum nv_latkind lat, double v)
{
	const struct nv_val *max = &j->dir[d].lat[lat].max;

	return max->src == NV_SRC_FIO && v > max->v;
}

void nv_block_fio_levels(const struct nv_report *r, const struct nv_block *b,
			 struct nv_pctl *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t s = 0; s < r->nsides; s++) {
		for (size_t k = 0; k < b->nsrc[s]; k++) {
			const struct nv_latstat *ls = &b->src[s][k].job->dir[b->dir].lat[b->lat];

			for (size_t i = 0; i < ls->npoints; i++)
				nv_pctl_add(out, ls->points[i].pct);
		}
	}
}

void nv_block_levels(const struct nv_report *r, const struct nv_block *b,
		     const struct nv_pctl *want, struct nv_pctl *out)
{
	if (want && want->fio) {
		nv_block_fio_levels(r, b, out);
		if (!out->n)
			nv_pctl_default(out);
		for (size_t i = 0; i < want->n; i++)	/* levels claims added */
			nv_pctl_add(out, want->v[i]);
	} else if (want) {
		*out = *want;
	} else {
		nv_pctl_default(out);
	}
}

void nv_side_fio_level(const struct nv_report *r, const struct nv_block *b, size_t s, double p,
		       struct nv_cell *c)
{
	double *buf = calloc(b->nsrc[s] ? b->nsrc[s] : 1, sizeof(*buf));
	size_t n = 0;

	for (size_t k = 0; buf && k < b->nsrc[s]; k++)
		if (nv_level_value(&b->src[s][k], b->dir, b->lat, p, true, &buf[n]))
			n++;
	nv_repeats_cell(buf, n, r->agg, false, c);	/* out of memory: an empty cell */
	free(buf);
	c->absent = r->sides[s].nruns - b->nsrc[s];
	c->src = n ? NV_SRC_FIO : NV_SRC_NONE;
}

int nv_pctl_fio_union(const struct nv_run *runs, size_t n, struct nv_pctl *l)
{
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < runs[i].njobs; j++) {
			const struct nv_job *job = &runs[i].jobs[j];

			for (unsigned d = 0; d < NV_DIR_NR; d++) {
				const struct nv_latstat *ls = &job->dir[d].lat[NV_LAT_CLAT];

				for (size_t k = 0; k < ls->npoints; k++)
					if (nv_pctl_add(l, ls->points[k].pct) == -ENOSPC)
						return -ENOSPC;
			}
		}
	}
	return 0;
}
