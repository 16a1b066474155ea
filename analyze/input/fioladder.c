/*
 * fioladder.c - fio's ladder of latency buckets and their alignment (see
 * fioladder.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "analyze/input/fioladder.h"

/* stat.c's ranges: the upper edge of each rung in its unit. */
static const double rung_edge[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
#define RUNGS (sizeof(rung_edge) / sizeof(rung_edge[0]))

/*
 * Upper edge (ns) of rung i of the whole ladder (ns rungs first).
 * Return: the edge, INFINITY for the last (">= 2000 ms").
 */
static double ladder_hi(size_t i)
{
	if (i < 3 * RUNGS)
		return rung_edge[i % RUNGS] * pow(1e3, (double)(i / RUNGS));
	return i == 3 * RUNGS ? 2e9 : INFINITY;
}

int nv_fio_ladder_init(struct nv_jobextra *x, bool ns)
{
	size_t first = ns ? 0 : NV_FIO_LADDER_NS, n = NV_FIO_LADDER_MAX - first;
	struct nv_latbucket *b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		b[i].lo_ns = i ? b[i - 1].hi_ns : 0;
		b[i].hi_ns = ladder_hi(first + i);
	}
	free(x->buckets);
	x->buckets = b;
	x->nbuckets = n;
	return 0;
}

int nv_fio_ladder_set(struct nv_jobextra *x, double hi_ns, bool ge, double pct)
{
	for (size_t i = 0; i < x->nbuckets; i++) {
		struct nv_latbucket *b = &x->buckets[i];
		bool hit = ge ? isinf(b->hi_ns) && fabs(b->lo_ns - hi_ns) < 1e-6 * hi_ns
			      : fabs(b->hi_ns - hi_ns) < 1e-6 * hi_ns;

		if (hit) {
			b->pct = pct;
			return 0;
		}
	}
	return -EINVAL;
}

/* Whether x's ladder has the upper edge hi.  Return: true when it has. */
static bool has_edge(const struct nv_jobextra *x, double hi)
{
	for (size_t i = 0; i < x->nbuckets; i++)
		if (x->buckets[i].hi_ns == hi)
			return true;
	return false;
}

size_t nv_fio_ladder_common(const struct nv_jobextra *const *xs, size_t n, double *hi)
{
	const struct nv_jobextra *first = NULL;
	size_t rows = 0;

	for (size_t k = 0; k < n && !first; k++)
		if (xs[k]->nbuckets)
			first = xs[k];
	for (size_t i = 0; first && i < first->nbuckets && rows < NV_FIO_LADDER_MAX; i++) {
		double e = first->buckets[i].hi_ns;
		bool all = true;

		for (size_t k = 0; k < n && all; k++)
			all = !xs[k]->nbuckets || has_edge(xs[k], e);
		if (all || isinf(e))
			hi[rows++] = e;
	}
	return rows;
}

int nv_fio_ladder_fold(const struct nv_jobextra *x, const double *hi, size_t nrows, double *pct)
{
	size_t r = 0;

	for (size_t i = 0; i < nrows; i++)
		pct[i] = 0;
	for (size_t i = 0; i < x->nbuckets; i++) {
		const struct nv_latbucket *b = &x->buckets[i];

		while (r < nrows && hi[r] < b->hi_ns)
			r++;
		if (r == nrows || (r > 0 && b->lo_ns < hi[r - 1]))
			return -EINVAL;
		pct[r] += b->pct;
	}
	return 0;
}

int nv_fio_ladder_cmp(const struct nv_jobextra *t, const struct nv_jobextra *j,
		      struct nv_ladder_cmp *c)
{
	const struct nv_jobextra *xs[2] = { t, j };
	double hi[NV_FIO_LADDER_MAX], tp[NV_FIO_LADDER_MAX], jp[NV_FIO_LADDER_MAX];
	size_t n = nv_fio_ladder_common(xs, 2, hi);

	*c = (struct nv_ladder_cmp){ 0 };
	if (!j->nbuckets)
		return 0;
	if (!t->nbuckets || nv_fio_ladder_fold(t, hi, n, tp) || nv_fio_ladder_fold(j, hi, n, jp))
		return -EINVAL;
	for (size_t r = 0; r < n; r++) {
		double lo = r ? hi[r - 1] : 0, tol = 0.005 + NV_FIO_JSON_REAL_PREC + 1e-9;

		for (size_t q = 0; q < j->nbuckets; q++)
			if (j->buckets[q].lo_ns > lo && j->buckets[q].hi_ns <= hi[r])
				tol += 0.01;
		if (tp[r] == 0 && jp[r] == 0)
			continue;	/* nothing in the row: no value compared */
		c->rows++;
		if (fabs(tp[r] - jp[r]) <= tol || c->bad++)
			continue;
		c->lo = lo;
		c->hi = hi[r];
		c->text = tp[r];
		c->json = jp[r];
	}
	return 0;
}
