/*
 * pairs.c - the pairs of sides the change columns compare (see pairs.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/pairs.h"

/* The changes of one row for pairs p[0..n). Return: 0 or -ENOMEM. */
static int row_changes(struct nv_row *row, const struct nv_pair *p, size_t n)
{
	const struct nv_metric_info *mi = nv_metric(row->metric);
	struct nv_change *ch = calloc(n ? n : 1, sizeof(*ch));

	if (!ch)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		nv_repeats_change(&row->cells[p[i].a], &row->cells[p[i].b], mi->higher_better, &ch[i]);
		if (mi->neutral)
			ch[i].verdict = NV_SAME;
	}
	free(row->pchg);
	row->pchg = ch;
	return 0;
}

int nv_report_pairs(struct nv_report *r, const struct nv_pair *p, size_t n)
{
	struct nv_pair *np;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i].a >= r->nsides || p[i].b >= r->nsides || p[i].a == p[i].b)
			return -EINVAL;
	np = calloc(n ? n : r->nsides, sizeof(*np));
	if (!np)
		return -ENOMEM;
	if (n) {
		memcpy(np, p, n * sizeof(*np));
		k = n;
	} else {
		for (size_t s = 0; s < r->nsides; s++)
			if (s != r->baseline)
				np[k++] = (struct nv_pair){ s, r->baseline };
	}
	for (size_t i = 0; i < r->nblocks; i++)
		for (size_t j = 0; j < r->blocks[i].nrows; j++)
			if (row_changes(&r->blocks[i].rows[j], np, k)) {
				free(np);
				return -ENOMEM;
			}
	free(r->pairs);
	r->pairs = np;
	r->npairs = k;
	return 0;
}

void nv_pair_title(char *buf, size_t n, const struct nv_report *r, size_t p)
{
	snprintf(buf, n, "%s vs %s", r->sides[r->pairs[p].a].label, r->sides[r->pairs[p].b].label);
}
