/*
 * opstats.c - exact latency statistics per operation and of all operations
 * (see opstats.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/opstats.h"

void nv_opstats_init(struct nv_opstats *s)
{
	memset(s, 0, sizeof(*s));
	s->first_op = -1;
}

int nv_opstats_exact_new(struct nv_exact **e)
{
	double v[NV_PCT_NR];

	nv_pct_values(v);
	return nv_exact_new(e, v, NV_PCT_NR);
}

void nv_opstats_set_extra(struct nv_opstats *s, const double *extra, size_t n)
{
	s->extra = extra;
	s->nextra = n;
}

/*
 * The state of op, created on its first value: nv_pcts' levels, then the
 * extra ones.
 * Return: 0 or -ENOMEM.
 */
static int need(struct nv_opstats *s, unsigned op)
{
	double v[NV_PCT_NR + NV_PCTL_MAX];
	int ret;

	if (s->ex[op])
		return 0;
	nv_pct_values(v);
	for (size_t i = 0; i < s->nextra && i < NV_PCTL_MAX; i++)
		v[NV_PCT_NR + i] = s->extra[i];
	ret = nv_exact_new(&s->ex[op], v, NV_PCT_NR + (s->nextra < NV_PCTL_MAX ?
							 s->nextra : NV_PCTL_MAX));
	if (!ret)	/* the next trace's state of op: the same pages */
		nv_exact_set_role(s->ex[op], 1 + op);
	return ret;
}

/*
 * The all-operations state, when a record of op is about to be added: made
 * from the first op's state at the first record of another op.
 * Return: 0, -ENOMEM or -EINVAL (after pass 1).
 */
static int need_all(struct nv_opstats *s, unsigned op)
{
	if (s->first_op < 0)
		s->first_op = (int)op;
	if (s->ex[NV_OPSTATS_ALL] || (int)op == s->first_op)
		return 0;
	return nv_exact_clone(s->ex[s->first_op], &s->ex[NV_OPSTATS_ALL]);
}

int nv_opstats_add(struct nv_opstats *s, unsigned op, uint64_t lat)
{
	int ret = need_all(s, op);

	if (ret || (ret = need(s, op)))
		return ret;
	nv_exact_add(s->ex[op], lat);
	if (s->ex[NV_OPSTATS_ALL])
		nv_exact_add(s->ex[NV_OPSTATS_ALL], lat);
	return 0;
}

/*
 * lat[0..n) into each op's state, in record order within each op (a stable
 * grouping by op, then one nv_exact_add_many per op).
 * Return: 0 or -ENOMEM.
 */
static int add_by_op(struct nv_opstats *s, const uint8_t *op, const uint64_t *lat, size_t n)
{
	size_t cnt[NVT_OP__MAX] = { 0 }, at[NVT_OP__MAX], sum = 0;

	if (n > s->scratch_cap) {
		uint64_t *p = realloc(s->scratch, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->scratch = p;
		s->scratch_cap = n;
	}
	for (size_t i = 0; i < n; i++)
		cnt[op[i]]++;
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		at[k] = sum;
		sum += cnt[k];
		if (cnt[k] && need(s, k))
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		s->scratch[at[op[i]]++] = lat[i];
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (cnt[k])
			nv_exact_add_many(s->ex[k], s->scratch + at[k] - cnt[k], cnt[k]);
	return 0;
}

int nv_opstats_add_block(struct nv_opstats *s, const uint8_t *op, const uint64_t *lat, size_t n,
			 bool uniform_op)
{
	size_t i = 0;
	int ret;

	if (!n)
		return 0;
	if (s->first_op < 0)
		s->first_op = op[0];
	if (!s->ex[NV_OPSTATS_ALL]) {	/* the first op's prefix, then the copy */
		if (!uniform_op)
			while (i < n && op[i] == s->first_op)
				i++;
		else if (op[0] == s->first_op)
			i = n;
		if ((ret = need(s, (unsigned)s->first_op)))
			return ret;
		nv_exact_add_many(s->ex[s->first_op], lat, i);
		if (i == n)
			return 0;
		if ((ret = need_all(s, op[i])))
			return ret;
	}
	nv_exact_add_many(s->ex[NV_OPSTATS_ALL], lat + i, n - i);
	if (!uniform_op)
		return add_by_op(s, op + i, lat + i, n - i);
	if ((ret = need(s, op[0])))
		return ret;
	nv_exact_add_many(s->ex[op[0]], lat + i, n - i);
	return 0;
}

int nv_opstats_merge(struct nv_opstats *s, unsigned op, struct nv_exact *src)
{
	int ret;

	if (op >= NVT_OP__MAX || s->ex[NV_OPSTATS_ALL])
		return -EINVAL;
	if ((ret = need(s, op)))
		return ret;
	if (s->first_op < 0)
		s->first_op = (int)op;
	return nv_exact_merge_move(s->ex[op], src);
}

int nv_opstats_merge_all(struct nv_opstats *s)
{
	unsigned nops = 0;
	int ret;

	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		nops += s->ex[k] != NULL;
	if (nops < 2 || s->ex[NV_OPSTATS_ALL])
		return 0;
	if ((ret = need(s, NV_OPSTATS_ALL)))
		return ret;
	for (unsigned k = 0; k < NVT_OP__MAX && !ret; k++)
		if (s->ex[k])
			ret = nv_exact_merge(s->ex[NV_OPSTATS_ALL], s->ex[k]);
	return ret;
}

int nv_opstats_end_pass(struct nv_opstats *s)
{
	int more = 0;

	for (unsigned k = 0; k <= NV_OPSTATS_ALL; k++) {
		int r = s->ex[k] ? nv_exact_end_pass(s->ex[k]) : 0;

		if (r < 0)
			return r;
		more |= r == 1;
	}
	return more;
}

const struct nv_exact *nv_opstats_get(const struct nv_opstats *s, unsigned op)
{
	if (op < NV_OPSTATS_ALL || s->ex[NV_OPSTATS_ALL])
		return op <= NV_OPSTATS_ALL ? s->ex[op] : NULL;
	for (unsigned k = 0; k < NVT_OP__MAX; k++)	/* one operation: the same IOs */
		if (s->ex[k])
			return s->ex[k];
	return NULL;
}

void nv_opstats_free(struct nv_opstats *s)
{
	for (unsigned k = 0; k <= NV_OPSTATS_ALL; k++)
		nv_exact_free(s->ex[k]);
	free(s->scratch);
	nv_opstats_init(s);
}
