/*
 * trace_slots.c - the interval buffers of a job of thread traces
 * (trace_merge.c), one set per worker: lent to each thread trace the worker
 * walks (tan_slot_lend), an interval closed from every worker's set at once
 * (tan_slots_close).  The parts a worker walks count into one set (per-ns
 * counts of a few hundred KiB, mapped in once: 64 thread traces no longer
 * map 64 sets), and a close reads as many sets as there are workers.  What
 * it gives does not depend on which parts shared a set: the k-th smallest
 * among all the sets' counts and lists (tan_ibuf_kth), the candidates at or
 * above the largest cut, the IOs a set held added to the job's exact states
 * (exact in any split).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

/* Return: nothing; x[0..n) and y[0..n) exchanged. */
static void swap_bytes(void *x, void *y, size_t n)
{
	unsigned char *p = x, *q = y;

	for (size_t i = 0; i < n; i++) {
		unsigned char t = p[i];

		p[i] = q[i];
		q[i] = t;
	}
}

void tan_slot_lend(struct state *a, struct state *b)
{
	swap_bytes(a->ib, b->ib, sizeof(a->ib));
	swap_bytes(a->defer, b->defer, sizeof(a->defer));
	swap_bytes(a->major, b->major, sizeof(a->major));
	swap_bytes(a->ncls, b->ncls, sizeof(a->ncls));
	swap_bytes(&a->spilled, &b->spilled, sizeof(a->spilled));
}

/* Return: whether b (made, or not yet: a set that has not met its op) holds IOs. */
static bool buf_holds(const struct ibuf *b)
{
	return b->hist && b->ios;
}

/*
 * The buffers of op (NV_TAN_ALL: of every op) with IOs in the open
 * interval, every set's, into bufs.
 * Return: their number.
 */
static unsigned interval_bufs(struct state *slot, unsigned n, struct ibuf **bufs, unsigned op)
{
	unsigned nb = 0;

	for (unsigned w = 0; w < n; w++)
		for (unsigned k = 0; k < NVT_OP__MAX; k++) {
			struct ibuf *b = &slot[w].ib[k];

			if ((op == NV_TAN_ALL || k == op) && buf_holds(b))
				bufs[nb++] = b;
		}
	return nb;
}

bool tan_slots_hold(const struct state *slot, unsigned n)
{
	for (unsigned w = 0; w < n; w++)
		for (unsigned k = 0; k < NVT_OP__MAX; k++)
			if (buf_holds(&slot[w].ib[k]))
				return true;
	return false;
}

/*
 * Op k's point of st's open interval from bufs[0..nb); its slow-IO
 * candidates: the IOs at or above the largest of its p99.9 and the
 * buffers' cuts (each buffer holds every IO at or above its own cut).
 * Return: 0, -ENOMEM or -EINVAL.
 */
static int close_op(struct state *st, struct ibuf **bufs, unsigned nb, unsigned k,
		    struct pend *pd)
{
	struct nv_tan_point *p = &st->t->series[k][st->cur];
	uint64_t cut;
	int err;

	if (!nb) {
		memset(p, 0, sizeof(*p));
		return 0;
	}
	if ((err = tan_reduce_bufs(st, bufs, nb, p, pd ? pd->r[k] : NULL)))
		return err;
	if (pd) {	/* its slow IOs read again */
		st->cand_overflow = true;
		return 0;
	}
	cut = p->p999;
	for (unsigned j = 0; j < nb; j++)
		cut = bufs[j]->cut > cut ? bufs[j]->cut : cut;
	st->cutx[k][st->cur] = cut;
	for (unsigned j = 0; j < nb && !err; j++)
		err = tan_keep_cands(st, k, bufs[j], cut, NULL);
	return err;
}

int tan_slots_close(struct state *st, struct state *slot, unsigned n, struct ibuf **bufs)
{
	struct nv_tan *t = st->t;
	bool spilled = false;
	struct pend *pd = NULL;
	int only = -1, nops = 0, err = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (interval_bufs(slot, n, bufs, k)) {
			only = (int)k;
			nops++;
		}
	for (unsigned w = 0; w < n; w++)
		spilled |= slot[w].spilled;
	if (spilled && !(pd = tan_new_pend(st)))
		return -ENOMEM;
	if (pd)
		pd->only = nops == 1 ? only : -1;
	for (unsigned k = 0; k < NVT_OP__MAX && !err; k++)
		if (t->series[k])
			err = close_op(st, bufs, interval_bufs(slot, n, bufs, k), k, pd);
	if (!err && t->series[NV_TAN_ALL]) {
		if (nops == 1)
			t->series[NV_TAN_ALL][st->cur] = t->series[only][st->cur];
		else if (nops > 1)
			err = tan_reduce_bufs(st, bufs, interval_bufs(slot, n, bufs, NV_TAN_ALL),
					      &t->series[NV_TAN_ALL][st->cur],
					      pd ? pd->r[NV_TAN_ALL] : NULL);
	}
	for (unsigned w = 0; w < n; w++) {	/* exact: in any order */
		int e = tan_defer_close(&slot[w], st);

		err = err ? err : e;
		for (unsigned k = 0; k < NVT_OP__MAX; k++)
			if (slot[w].ib[k].hist)
				tan_ibuf_clear(&slot[w].ib[k]);
		slot[w].spilled = false;
	}
	return err;
}

void tan_slots_free(struct state *slot, unsigned n)
{
	for (unsigned w = 0; slot && w < n; w++)
		for (unsigned k = 0; k < NVT_OP__MAX; k++)
			tan_ibuf_free(&slot[w].ib[k]);
	free(slot);
}
