/*
 * fiotables.c - per-side latency buckets and disk utilisation (see fiotables.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/fiotables.h"
#include "analyze/input/fioladder.h"
#include "analyze/input/jobtraces.h"
#include <sys/types.h>

/*
 * The rows every source of every side of b can fill: fio's ladder edges
 * they all have (nv_fio_ladder_common) into hi.  Return: the rows (0: no
 * source has buckets), or -ENOMEM.
 */
static ssize_t block_rows(const struct nv_report *r, const struct nv_block *b, double *hi)
{
	const struct nv_jobextra **xs;
	size_t n = 0, rows;

	for (size_t s = 0; s < r->nsides; s++)
		n += b->nsrc[s];
	xs = calloc(n ? n : 1, sizeof(*xs));
	if (!xs)
		return -ENOMEM;
	n = 0;
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < b->nsrc[s]; k++)
			xs[n++] = &b->src[s][k].job->x;
	rows = nv_fio_ladder_common(xs, n, hi);
	free(xs);
	return (ssize_t)rows;
}

int nv_side_buckets(const struct nv_report *r, const struct nv_block *b, size_t s,
		    struct nv_side_bucket **out, size_t *n)
{
	double hi[NV_FIO_LADDER_MAX], pct[NV_FIO_LADDER_MAX];
	ssize_t rows = block_rows(r, b, hi);

	*out = NULL;
	*n = 0;
	if (rows <= 0)
		return (int)rows;
	*out = calloc((size_t)rows, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	*n = (size_t)rows;
	for (size_t i = 0; i < *n; i++) {
		(*out)[i].lo_ns = i ? hi[i - 1] : 0;
		(*out)[i].hi_ns = hi[i];
	}
	for (size_t k = 0; k < b->nsrc[s]; k++) {
		const struct nv_jobextra *x = &b->src[s][k].job->x;

		if (!x->nbuckets || nv_fio_ladder_fold(x, hi, *n, pct))
			continue;	/* the rows hold every ladder: fold cannot fail */
		for (size_t i = 0; i < *n; i++) {
			(*out)[i].pct += pct[i];
			(*out)[i].n++;
		}
	}
	for (size_t i = 0; i < *n; i++)
		if ((*out)[i].n)
			(*out)[i].pct /= (double)(*out)[i].n;
	return 0;
}

bool nv_block_has_buckets(const struct nv_report *r, const struct nv_block *b)
{
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < b->nsrc[s]; k++) {
			const struct nv_jobextra *x = &b->src[s][k].job->x;

			for (size_t q = 0; q < x->nbuckets; q++)
				if (x->buckets[q].pct > 0)
					return true;
		}
	return false;
}

size_t nv_side_trace_buckets(const struct nv_block *b, size_t s, uint64_t *counts,
			     size_t *nedges, const uint64_t **edges)
{
	size_t used = 0;

	*nedges = 0;
	*edges = NULL;
	for (size_t k = 0; k < b->nsrc[s]; k++) {
		const struct nv_jobjoin *jt = b->src[s][k].traces;

		if (!jt || !jt->tan.nedges)
			continue;
		if (!used) {
			*nedges = jt->tan.nedges;
			*edges = jt->tan.edges;
			memset(counts, 0, (*nedges + 1) * sizeof(*counts));
		}
		used++;
		for (unsigned op = 0; op < NVT_OP__MAX; op++)
			if (nv_op_dir(op) == (int)b->dir)
				for (size_t i = 0; i <= *nedges; i++)
					counts[i] += jt->tan.bucket[op][i];
	}
	return used;
}

int nv_report_disks(const struct nv_report *r, const char ***names, size_t *n)
{
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			cap += r->sides[s].runs[k].ndisks;
	if (!cap)
		return 0;
	if (!(*names = calloc(cap, sizeof(**names))))
		return -ENOMEM;
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			for (size_t d = 0; d < r->sides[s].runs[k].ndisks; d++) {
				const char *nm = r->sides[s].runs[k].disks[d].name;
				bool seen = false;

				for (size_t i = 0; i < *n && !seen; i++)
					seen = !strcmp((*names)[i], nm);
				if (!seen)
					(*names)[(*n)++] = nm;
			}
	return 0;
}

size_t nv_side_disk(const struct nv_side *s, const char *name, unsigned f, bool aggr, double *mean)
{
	size_t n = 0;
	double sum = 0;

	*mean = 0;
	if (f >= NV_DISK_NR)
		return 0;
	for (size_t k = 0; k < s->nruns; k++)
		for (size_t d = 0; d < s->runs[k].ndisks; d++) {
			const struct nv_disk *dk = &s->runs[k].disks[d];
			const struct nv_val *v = aggr ? &dk->aggr_v[f] : &dk->v[f];

			if (strcmp(dk->name, name) || !v->src)
				continue;
			sum += v->v;
			n++;
			break;
		}
	if (n)
		*mean = sum / (double)n;
	return n;
}
