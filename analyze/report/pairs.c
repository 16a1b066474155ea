/*
 * pairs.c - the pairs of sides the change columns compare (see pairs.h).
 */
#include <stdio.h>

#include "analyze/report/pairs.h"

void nv_pair_title(char *buf, size_t n, const struct nv_report *r, size_t p)
{
	snprintf(buf, n, "%s vs %s", r->sides[r->pairs[p].a].label, r->sides[r->pairs[p].b].label);
}
