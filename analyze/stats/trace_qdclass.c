/*
 * trace_qdclass.c - the exact latency states per operation and queue-depth
 * class of pass 1 (trace_tan.h): a queue depth's class, the states made on
 * first use, fed IO by IO or held in the open interval's buffer until it
 * closes (tan_exact_run: the class a buffer holds), and folded into the
 * operations' states after pass 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

#define FIRST_LOOK 4096	/* IOs first_class counts */

unsigned nv_tan_qd_class(unsigned qd)
{
	unsigned c;

	if (qd <= 1)
		return 0;
	c = 32u - (unsigned)__builtin_clz(qd - 1);	/* the least c with 2^c >= qd */
	return c < NV_TAN_NQD - 1 ? c : NV_TAN_NQD - 1;
}

void nv_tan_qd_range(unsigned cls, unsigned *lo, unsigned *hi)
{
	*lo = cls ? (1u << (cls - 1)) + 1 : 1;
	*hi = cls < NV_TAN_NQD - 1 ? 1u << cls : 65535;
}

/* Op op's state for queue-depth class q, made on first use.  Return: it, or NULL. */
static struct nv_exact *qd_state(struct state *st, unsigned op, unsigned q)
{
	if (!st->qx[op][q]) {
		if (nv_opstats_exact_new(&st->qx[op][q]))
			return NULL;
		/* the next trace's state of this class: the same pages */
		nv_exact_set_role(st->qx[op][q], NV_OPSTATS_ROLES + op * NV_TAN_NQD + q);
		if (st->qx_dense)
			nv_exact_set_single(st->qx[op][q], st->qx_dense, st->qx_ovf);
	}
	return st->qx[op][q];
}

int tan_feed_exact(struct state *st, const struct src *s, size_t a, size_t b)
{
	const struct nvt_cols *c = s->c;
	bool one_op = c->uniform & NVT_COL_OP;
	struct nv_exact *e;
	int err;

	if (a == b)
		return 0;
	/* pass 1 feeds the classes only; tan_fold_exact makes the operations' */
	if (st->pass > 0 &&
	    (err = nv_opstats_add_block(&st->ops, c->op + a, c->latency_ns + a, b - a, one_op)))
		return err;
	if (one_op && (c->uniform & NVT_COL_QD)) {	/* one state: no classes to find */
		if (!(e = qd_state(st, c->op[a], nv_tan_qd_class(c->qd[a]))))
			return -ENOMEM;
		nv_exact_add_many(e, c->latency_ns + a, b - a);
		return 0;
	}
	for (size_t g = a, i; g < b; g = i) {	/* runs of one operation and class */
		unsigned op = c->op[g], q = nv_tan_qd_class(c->qd[g]), lo, hi;

		nv_tan_qd_range(q, &lo, &hi);
		lo = q ? lo : 0;	/* class 0 holds qd 0 too */
		i = g + 1;
		if (one_op)
			while (i < b && c->qd[i] >= lo && c->qd[i] <= hi)
				i++;
		else
			while (i < b && c->op[i] == op && c->qd[i] >= lo && c->qd[i] <= hi)
				i++;
		if (!(e = qd_state(st, op, q)))
			return -ENOMEM;
		nv_exact_add_many(e, c->latency_ns + g, i - g);
	}
	return 0;
}

int tan_fold_exact(struct state *st)
{
	int err = 0;

	for (unsigned k = 0; k < NVT_OP__MAX && !err; k++) {
		int big = -1;	/* the class with most IOs first: its counts move */

		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			if (st->qx[k][q] && (big < 0 || nv_exact_count(st->qx[k][q]) >
							nv_exact_count(st->qx[k][big])))
				big = (int)q;
		if (big >= 0)
			err = nv_opstats_merge(&st->ops, k, st->qx[k][big]);
		for (unsigned q = 0; q < NV_TAN_NQD && !err; q++)
			if (st->qx[k][q] && (int)q != big)
				err = nv_opstats_merge(&st->ops, k, st->qx[k][q]);
	}
	if (!err)
		err = nv_opstats_merge_all(&st->ops);
	return tan_merge_failed(st, err);
}

int tan_merge_failed(struct state *st, int err)
{
	if (err)
		snprintf(st->err, st->errlen, "%s: %s", st->paths[0],
			 err == -ENOMEM ? "out of memory" :
			 "internal error: merging exact states");
	return err;
}

struct nv_exact *tan_qd_state(struct state *st, unsigned op, unsigned q)
{
	return qd_state(st, op, q);
}

int tan_defer_flush(struct state *from, unsigned op, struct state *to)
{
	int q = from->defer[op], err;
	struct nv_exact *e;

	if (q <= 0)
		return 0;
	if (!from->ncls[op][q - 1]) {	/* none of the class held came: no state made */
		from->ib[op].nminor = 0;
		from->defer[op] = 0;
		return 0;
	}
	if (!(e = tan_qd_state(to, op, (unsigned)q - 1)))
		return -ENOMEM;
	if ((err = tan_ibuf_exact(&from->ib[op], e)))
		return err;
	from->defer[op] = 0;
	return 0;
}

int tan_defer_close(struct state *from, struct state *to)
{
	int err = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		uint64_t most = 0;

		if (!err)
			err = tan_defer_flush(from, k, to);
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			if (from->ncls[k][q] > most) {
				most = from->ncls[k][q];
				from->major[k] = (int)q + 1;
			}
		memset(from->ncls[k], 0, sizeof(from->ncls[k]));
		from->defer[k] = 0;
	}
	return err;
}

/* Return: 0, or -ENOMEM; lat[0..n) (op's, of queue-depth class q) fed to st's
 * exact state of the class. */
static int exact_feed(struct state *st, unsigned op, unsigned q, const uint64_t *lat, size_t n)
{
	struct nv_exact *e = tan_qd_state(st, op, q);

	if (!e)
		return -ENOMEM;
	nv_exact_add_many(e, lat, n);
	return 0;
}

/*
 * The queue-depth class most of op's next IOs in block c from record a on
 * have (at most FIRST_LOOK of them; ties: the lower class), for an interval
 * with no last one to go by: a run starts at QD 1 and climbs to its depth,
 * so the first IO's class (QD 1's) would be held while nearly every other IO of
 * the first interval is noted, then, past IV_MINOR_MAX, fed IO by IO (a
 * quarter of nv_nop 4 x 4 M's IOs).
 * Return: the class.
 */
static unsigned first_class(const struct nvt_cols *c, unsigned op, size_t a)
{
	uint64_t n[NV_TAN_NQD] = { 0 };
	size_t end = c->n - a > FIRST_LOOK ? a + FIRST_LOOK : c->n;
	bool one_op = c->uniform & NVT_COL_OP;
	unsigned best = 0;

	for (size_t i = a; i < end; i++)
		if (one_op || c->op[i] == op)
			n[nv_tan_qd_class(c->qd[i])]++;
	for (unsigned k = 1; k < NV_TAN_NQD; k++)
		best = n[k] > n[best] ? k : best;
	return best;
}

int tan_exact_run(struct state *st, const struct nvt_cols *c, unsigned op, unsigned q,
		  size_t a, size_t b)
{
	const uint64_t *lat = c->latency_ns + a;
	struct ibuf *ib = &st->ib[op];
	int *d = &st->defer[op], err;
	size_t n = b - a;

	st->ncls[op][q] += n;
	if (!*d)
		*d = st->major[op] ? st->major[op] : (int)first_class(c, op, a) + 1;
	if (*d != TAN_DIRECT && !st->spilled && tan_ibuf_will_hold(ib, lat, n)) {
		if (*d == (int)q + 1)
			return 0;
		if (!(err = tan_ibuf_minor(ib, lat, n)))
			return exact_feed(st, op, q, lat, n);
		if (err != -ENOSPC)
			return err;
	}
	if ((err = tan_defer_flush(st, op, st)))
		return err;
	*d = TAN_DIRECT;
	return exact_feed(st, op, q, lat, n);
}

int tan_qd_fold(struct state *to, struct state *from, uint64_t least, size_t listed)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		for (unsigned q = 0; q < NV_TAN_NQD; q++) {
			struct nv_exact **x = &from->qx[k][q], *e;
			int err;

			if (!*x || (nv_exact_count(*x) < least && nv_exact_listed(*x) < listed))
				continue;
			if (!(e = qd_state(to, k, q)))
				return -ENOMEM;
			if ((err = nv_exact_merge(e, *x)))
				return err;
			nv_exact_free(*x);
			*x = NULL;
		}
	return 0;
}
