/*
 * trace_spikes.c - nv_tan_run's latency spikes (trace_tan.h): after pass 1
 * the thresholds (findings.h) and the slow IOs among pass 1's candidates;
 * the intervals whose slow IOs the candidates may miss, read again; the
 * slow IOs chained into episodes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/findings.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

bool nv_tan_spike_is_episode(const struct nv_tan_spike *s)
{
	return s->slow_ios >= NV_SPIKE_EPISODE_MIN_IOS;
}

/*
 * Op k's slow IOs in interval i must be read again: its max reached the
 * threshold and the pass-1 candidates may miss some (their cut, the
 * interval's p99.9 or a little above, is at or above the threshold, or the
 * candidate list overflowed).
 */
static bool needs_reread(const struct state *st, unsigned k, size_t i)
{
	const struct nv_tan_point *p;

	if (!st->spiky[k] || i >= st->t->nint)
		return false;
	p = &st->t->series[k][i];
	return p->ios && p->max >= st->t->spike_threshold_ns[k] &&
	       (st->cand_overflow || st->cutx[k][i] >= st->t->spike_threshold_ns[k]);
}

static bool spiky_interval(const struct state *st, size_t i)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (needs_reread(st, k, i))
			return true;
	return false;
}

bool tan_any_spiky(const struct state *st)
{
	for (size_t i = 0; i < st->t->nint; i++)
		if (spiky_interval(st, i))
			return true;
	return false;
}

static int cmp_slow(const void *a, const void *b)
{
	const struct slow *x = a, *y = b;

	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return (x->submit > y->submit) - (x->submit < y->submit);
}

/*
 * Chains of slow IOs (latency >= threshold T), per operation: sorted by
 * submission, an IO submitted at most T after the current chain's latest
 * completion joins it (trace_stats.h: which chains are episodes).
 */
int tan_build_spikes(struct state *st)
{
	struct nv_tan *t = st->t;

	if (st->nslow)
		qsort(st->slow, st->nslow, sizeof(*st->slow), cmp_slow);
	for (size_t i = 0; i < st->nslow; i++) {
		const struct slow *x = &st->slow[i];
		uint64_t sub = x->submit > t->t0 ? x->submit - t->t0 : 0,
			 end = x->complete - t->t0;
		struct nv_tan_spike *sp = t->nspikes ? &t->spikes[t->nspikes - 1] : NULL;

		if (!sp || sp->op != x->op || sub > sp->end_ns + t->spike_threshold_ns[x->op]) {
			sp = realloc(t->spikes, (t->nspikes + 1) * sizeof(*sp));
			if (!sp)
				return -ENOMEM;
			t->spikes = sp;
			sp = &t->spikes[t->nspikes++];
			memset(sp, 0, sizeof(*sp));
			sp->op = x->op;
			sp->start_ns = sub;
		}
		sp->slow_ios++;
		if (end > sp->end_ns)
			sp->end_ns = end;
		if (x->complete - x->submit > sp->worst_ns)
			sp->worst_ns = x->complete - x->submit;
	}
	for (size_t i = 0; i < t->nspikes; i++) {
		t->spikes[i].first = (size_t)(t->spikes[i].start_ns / t->interval_ns);
		t->spikes[i].last = (size_t)(t->spikes[i].end_ns / t->interval_ns);
	}
	return 0;
}

static int add_slow(struct state *st, const struct nvt_record *x)
{
	if (st->nslow == st->slowcap) {
		size_t nc = st->slowcap ? st->slowcap * 2 : 1024;
		struct slow *n = realloc(st->slow, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->slow = n;
		st->slowcap = nc;
	}
	st->slow[st->nslow++] = (struct slow){ x->submit_ns, x->complete_ns, x->op };
	return 0;
}

/*
 * After pass 1: per operation the spike threshold (findings.h) and whether
 * any interval reached it (then pass 2 collects the IOs at or above it).
 */
int tan_plan_spikes(struct state *st)
{
	struct nv_tan *t = st->t;
	uint64_t *p999 = calloc(t->nint + 1, sizeof(*p999)),
		 *ios = calloc(t->nint + 1, sizeof(*ios));
	double f = st->o->spike_factor > 0 ? st->o->spike_factor : 10;

	t->spike_factor = f;

	if (!p999 || !ios) {
		free(p999);
		free(ios);
		return -ENOMEM;
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		const struct nv_tan_point *p = t->series[k];

		if (!p)
			continue;
		for (size_t i = 0; i < t->nint; i++) {
			p999[i] = p[i].p999;
			ios[i] = p[i].ios;
		}
		t->spike_threshold_ns[k] = nv_spike_threshold(p999, ios, t->nint, f);
		for (size_t i = 0; t->spike_threshold_ns[k] && i < t->nint; i++)
			if (p[i].ios && p[i].max >= t->spike_threshold_ns[k])
				st->spiky[k] = true;
	}
	free(p999);
	free(ios);
	for (size_t i = 0; !st->cand_overflow && i < st->ncand; i++) {
		const struct slow *c = &st->cand[i];
		size_t iv = (size_t)((c->complete - t->t0) / t->interval_ns);

		if (st->spiky[c->op] && c->complete - c->submit >= t->spike_threshold_ns[c->op] &&
		    !needs_reread(st, c->op, iv) &&
		    add_slow(st, &(struct nvt_record){ .submit_ns = c->submit,
						       .complete_ns = c->complete,
						       .op = (uint8_t)c->op }))
			return -ENOMEM;
	}
	free(st->cand);
	st->cand = NULL;
	st->ncand = st->candcap = 0;
	return 0;
}

/* A slow IO (pass 2): collect it for the episodes. */
int tan_spike_record(struct state *st, unsigned op, uint64_t submit, uint64_t complete)
{
	if (!st->spiky[op] || complete - submit < st->t->spike_threshold_ns[op] ||
	    complete < st->t->t0 ||
	    !needs_reread(st, op, (size_t)((complete - st->t->t0) / st->t->interval_ns)))
		return 0;
	if (add_slow(st, &(struct nvt_record){ .submit_ns = submit, .complete_ns = complete,
					       .op = (uint8_t)op })) {
		snprintf(st->err, st->errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/*
 * The slow IOs only: for each run of intervals where some operation's max
 * reached its threshold, seek (footer index) to its start and read until
 * its end; slow IOs complete inside those intervals, by their definition.
 * A file without index is read whole.
 */
int tan_spike_pass(struct state *st)
{
	struct nv_tan *t = st->t;
	int err = 0;

	for (size_t f = 0; f < st->npaths && !err; f++) {
		struct src s = { 0 };
		bool whole = false;

		s.want = NVT_COL_LATENCY | NVT_COL_OP;
		if ((err = tan_open_src(st, f, &s)))
			return err;
		for (size_t a = 0; a < t->nint && !err && !whole; a++) {
			size_t b = a;
			uint64_t lo, hi;

			while (b < t->nint && spiky_interval(st, b))
				b++;
			if (b == a)
				continue;
			lo = t->t0 + a * t->interval_ns;
			hi = t->t0 + b * t->interval_ns;
			s.seen = UINT64_MAX;	/* record numbers unknown after a seek */
			/* a damaged trace is read from its start to where pass 1 ended it */
			if (!s.r || (st->drop && st->drop[f]) || nvt_reader_seek_time(s.r, lo)) {
				whole = true; /* no index: from the start, which is where we are */
				lo = 0;
				hi = UINT64_MAX;
			}
			s.done = false;
			while (!err && !(err = tan_src_next(st, &s)) && !s.done) {
				size_t i = 0;

				for (; i < s.n && s.c->complete_ns[i] < hi; i++)
					if (s.c->complete_ns[i] >= lo && !tan_in_ramp(&s, i) &&
					    (err = tan_spike_record(st, s.c->op[i],
								    s.c->complete_ns[i] -
									    s.c->latency_ns[i],
								    s.c->complete_ns[i])))
						break;
				if (i < s.n)
					break;
			}
			a = b;
		}
		nvt_reader_close(s.r);
	}
	return err;
}
