/*
 * trace_stats.c - the analysis of one job's traces (see trace_stats.h).
 *
 * Pass 1 merges the traces by completion time (one block per trace held),
 * closes intervals as completion time moves past them and feeds the
 * pass-1 state of the exact percentiles.  At its end the spike thresholds
 * and episode intervals are known (findings.h).  Passes 2.. read each file
 * in turn: exact percentiles that are still pending, and (pass 2 only) the
 * IOs at or above a spike threshold, which give each episode its start, end
 * and worst latency.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/common.h"
#include "analyze/stats/exact.h"
#include "analyze/stats/findings.h"
#include "analyze/stats/trace_wait.h"
#include "analyze/stats/opstats.h"
#include "analyze/stats/trace_check.h"
#include "analyze/stats/trace_stats.h"


unsigned nv_tan_qd_class(unsigned qd)
{
	unsigned c = 0;

	if (qd <= 1)
		return 0;
	while (c < NV_TAN_NQD - 1 && (1u << c) < qd)
		c++;
	return c;
}

void nv_tan_qd_range(unsigned cls, unsigned *lo, unsigned *hi)
{
	*lo = cls ? (1u << (cls - 1)) + 1 : 1;
	*hi = cls < NV_TAN_NQD - 1 ? 1u << cls : 65535;
}

unsigned nv_tan_nops(const struct nv_tan *t)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NVT_OP__MAX; i++)
		n += t->op[i].records > 0;
	return n;
}

/* Per-run state that is not part of the result. */
struct src {
	struct nvt_reader *r;
	const struct nvt_record *recs;
	size_t n, i;
	bool done;
	uint64_t counted;	/* bytes of this file counted in done_bytes */
	size_t file;		/* its index in paths */
	uint64_t ramp_end;	/* IOs submitted before this are fio's ramp (0: none) */
};

struct ibuf {			/* latencies of the open interval, one op */
	uint64_t *v;		/* latencies, in completion order */
	uint64_t *cpl;		/* their completion times (op buffers only) */
	size_t n, cap;
	uint64_t bytes, max;
};

#define MAX_CANDIDATES (1u << 22)	/* 96 MiB of slow-IO candidates at most */

struct state {
	struct nv_tan *t;
	const struct nv_tan_opts *o;
	const char *const *paths;
	size_t npaths;
	struct nv_opstats ops;	/* exact latency per operation and of all (opstats.h) */
	struct nv_exact *qx[NVT_OP__MAX][NV_TAN_NQD];
	struct ibuf ib[NV_TAN_NOPS];
	size_t cap;		/* allocated intervals per series */
	size_t cur;		/* the open interval */
	bool any;
	bool spiky[NV_TAN_NOPS];	/* some interval's max reached the threshold */
	struct slow { uint64_t submit, complete; unsigned op; } *slow;
	size_t nslow, slowcap;
	/* Pass 1 keeps the IOs at or above their interval's p99.9 (0.1%): the
	 * slow IOs are among them wherever the interval's p99.9 is below the
	 * spike threshold, so only intervals where it is not are read again. */
	struct slow *cand;
	size_t ncand, candcap;
	bool cand_overflow;
	uint64_t *scratch;
	size_t scratchcap;
	/* progress (nv_tan_opts' callback) */
	uint64_t total_bytes, done_bytes;
	uint64_t pass_records;	/* records of blocks read in this pass */
	uint64_t footer_records;	/* pass 1's total from the footers ... */
	bool footers_known;	/* ... when every trace has one */
	uint64_t pass1_records;	/* a whole pass's records, after pass 1 */
	bool seeking;		/* the spike pass: no total */
	unsigned pass;
	char *err;
	size_t errlen;
};

#define add_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/* Tell the caller where the analysis is (s: the trace just read, or NULL). */
static void progress(struct state *st, const struct src *s, bool done)
{
	struct nv_tan_progress p = {
		.path = s ? nvt_reader_path(s->r) : st->paths[0],
		.file = s ? s->file : 0,
		.nfiles = st->npaths,
		.pass = st->pass + 1,
		.records = st->pass_records,
		.bytes = st->done_bytes,
		.total_bytes = st->total_bytes,
		.done = done,
	};

	if (!st->o->progress)
		return;
	if (st->pass == 0 && st->footers_known)
		p.total = st->footer_records;
	else if (st->pass > 0 && !st->seeking)
		p.total = st->pass1_records;
	st->o->progress(&p, st->o->progress_arg);
}

bool nv_tan_spike_is_episode(const struct nv_tan_spike *s)
{
	return s->slow_ios >= NV_SPIKE_EPISODE_MIN_IOS;
}

/*
 * Where fio's ramp_time ended in s's trace (the header's job.ramp_time_us,
 * the footer's job.ramp_end_ns): s->ramp_end, 0 without a ramp, UINT64_MAX
 * when the ramp never ended (fio counted nothing).  A trace without footer
 * cannot say: its ramp IOs are kept, with a note (pass 1).  0 or -ENOMEM.
 */
static int ramp_of(struct state *st, struct src *s)
{
	const char *rt = nvt_reader_get(s->r, "job.ramp_time_us"), *end = NULL;
	uint64_t us = rt ? strtoull(rt, NULL, 10) : 0;
	int err;

	s->ramp_end = 0;
	if (!us)
		return 0;
	st->t->ramp_ns = us * 1000;
	err = nvt_reader_footer_get(s->r, "job.ramp_end_ns", &end);
	if (err == -ENOMEM)
		return err;
	if (err) {
		if (st->pass == 0)
			add_note(st->t,
				 "trace %s: no footer, so where fio's ramp_time ended is not "
				 "recorded: the ramp's IOs are counted too (fio left them out)",
				 nvt_reader_path(s->r));
		return 0;
	}
	s->ramp_end = end ? strtoull(end, NULL, 10) : UINT64_MAX;
	return 0;
}

/*
 * The engine option nv_trace_ab=N in s's header (engine.options): the trace
 * holds only every other window of N IOs, a benchmark of tracing's cost.
 * Noted once (pass 0).  Return: nothing.
 */
static void ab_of(struct state *st, struct src *s)
{
	const char *o = nvt_reader_get(s->r, "engine.options"), *p;
	uint64_t n;

	p = o ? strstr(o, "nv_trace_ab=") : NULL;
	if (!p || (p != o && p[-1] != ' '))
		return;
	n = strtoull(p + strlen("nv_trace_ab="), NULL, 10);
	if (!n)
		return;
	st->t->ab_window = n;
	if (st->pass == 0)
		add_note(st->t, "trace %s was made with nv_trace_ab=%" PRIu64 ", a benchmark of "
			 "tracing's cost: it holds only every other window of %" PRIu64 " IOs",
			 nvt_reader_path(s->r), n, n);
}

/*
 * Whether tracing held s's IO loop (trace_wait.h): noted once (pass 0), and
 * added to the job's disturbance at any size.  Return: 0 or -ENOMEM.
 */
static int wait_of(struct state *st, struct src *s)
{
	char line[512];
	int ret;

	if (st->pass != 0)
		return 0;
	ret = nv_trace_wait_finding(s->r, 0, line, sizeof(line));
	if (ret == 1)
		add_note(st->t, "trace %s: %s", nvt_reader_path(s->r), line);
	if (ret >= 0)
		ret = nv_trace_disturb_add(s->r, 0, &st->t->disturb);
	return ret < 0 ? ret : 0;
}

/* True when x was submitted during fio's ramp_time (fio did not count it). */
static bool in_ramp(const struct src *s, const struct nvt_record *x)
{
	return x->submit_ns < s->ramp_end;
}

static int open_src(struct state *st, size_t i, struct src *s)
{
	int err = nvt_reader_open(&s->r, st->paths[i]);
	uint64_t recs;
	bool opened = !err;

	s->file = i;
	if (!err)
		ab_of(st, s);
	if (!err && st->pass == 0 && st->o->progress) {	/* the footers' total, a hint */
		if (nvt_reader_footer_records(s->r, &recs))
			st->footers_known = false;
		else
			st->footer_records += recs;
	}
	if (!err)
		err = ramp_of(st, s);
	if (!err)
		err = wait_of(st, s);
	if (opened && err)	/* only -ENOMEM after a good open */
		snprintf(st->err, st->errlen, "%s: out of memory", st->paths[i]);
	else if (err) {
		if (s->r)
			snprintf(st->err, st->errlen, "%s", nvt_reader_strerror(s->r));
		else
			snprintf(st->err, st->errlen, "%s: %s", st->paths[i], strerror(-err));
	}
	if (err) {
		nvt_reader_close(s->r);
		s->r = NULL;
	}
	return err;
}

/* Note how a trace ended, once (pass 1; trace_check.h says it). */
static void note_end(struct state *st, struct nvt_reader *r)
{
	char what[PATH_MAX + 256];

	if (nv_trace_end_describe(r, what, sizeof(what)))
		add_note(st->t, "%s", what);
}

/* Refill s with its next block; s->done at the end.  0 or -errno. */
static int src_next(struct state *st, struct src *s)
{
	int err;

	do {
		err = nvt_reader_next_block(s->r, &s->recs, &s->n);
	} while (err == 1 && !s->n);
	s->i = 0;
	if (err < 0) {
		snprintf(st->err, st->errlen, "%s", nvt_reader_strerror(s->r));
		return err;
	}
	if (!err) {
		s->done = true;
		if (st->pass == 0)
			note_end(st, s->r);
	}
	if (st->o->progress) {
		struct nvt_read_info in;

		nvt_reader_info(s->r, &in);
		if (in.used_bytes > s->counted)
			st->done_bytes += in.used_bytes - s->counted;
		s->counted = in.used_bytes;
		st->pass_records += s->n;
		progress(st, s, false);
	}
	return 0;
}

/* The record validity rule (trace_check.h).  0, or -EINVAL with st->err set. */
static int check_record(struct state *st, const char *path, const struct nvt_record *x)
{
	uint64_t lat = x->complete_ns - x->submit_ns;
	char why[128];

	if (nv_trace_record_ok(x->op, lat, x->complete_ns))
		return 0;
	nv_trace_record_why(x->op, lat, x->complete_ns, why, sizeof(why));
	snprintf(st->err, st->errlen, "%s: a record %s", path, why);
	return -EINVAL;
}

static int grow_series(struct state *st, size_t need)
{
	size_t ncap = st->cap ? st->cap : 64;

	while (ncap < need)
		ncap *= 2;
	if (ncap == st->cap)
		return 0;
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		struct nv_tan_point *p;

		if (!st->t->series[k])
			continue;
		p = realloc(st->t->series[k], ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + st->cap, 0, (ncap - st->cap) * sizeof(*p));
		st->t->series[k] = p;
	}
	st->cap = ncap;
	return 0;
}

/* The first record of a new operation: its series and exact state. */
static int start_op(struct state *st, unsigned op)
{
	struct nv_tan *t = st->t;

	if (!st->cap)
		st->cap = 64;
	for (unsigned k = 0; k < 2; k++) {
		unsigned i = k ? NV_TAN_ALL : op;

		if (t->series[i])
			continue;
		t->series[i] = calloc(st->cap, sizeof(*t->series[i]));
		if (!t->series[i])
			return -ENOMEM;
	}
	return 0;
}

static int ibuf_push(struct ibuf *b, uint64_t v, uint32_t len, uint64_t complete)
{
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 4096;
		uint64_t *nv = realloc(b->v, nc * sizeof(*nv)), *nc2;

		if (!nv)
			return -ENOMEM;
		b->v = nv;
		nc2 = realloc(b->cpl, nc * sizeof(*nc2));
		if (!nc2)
			return -ENOMEM;
		b->cpl = nc2;
		b->cap = nc;
	}
	b->cpl[b->n] = complete;
	b->v[b->n++] = v;
	b->bytes += len;
	if (v > b->max)
		b->max = v;
	return 0;
}

/*
 * Exact p50/p99/p99.9/max of b's values into p.  Each selection leaves the
 * array partitioned around its rank, so the next (higher) rank is searched
 * only above it: about 3n work instead of 4 full selections.
 */
static void reduce(struct ibuf *b, uint64_t *a, struct nv_tan_point *p)
{
	size_t n = b->n, k50, k99, k999;

	p->ios = n;
	p->bytes = b->bytes;
	if (!n)
		return;
	k50 = nv_exact_rank(50, n) - 1;
	k99 = nv_exact_rank(99, n) - 1;
	k999 = nv_exact_rank(99.9, n) - 1;
	p->p50 = nv_select_kth(a, n, k50);
	p->p99 = k99 == k50 ? p->p50 : nv_select_kth(a + k50 + 1, n - k50 - 1, k99 - k50 - 1);
	p->p999 = k999 == k99 ? p->p99 : nv_select_kth(a + k99 + 1, n - k99 - 1, k999 - k99 - 1);
	p->max = b->max;
}

/* Keep op k's IOs of the closing interval at or above its p99.9. */
static int keep_candidates(struct state *st, unsigned k, uint64_t p999)
{
	const struct ibuf *b = &st->ib[k];

	for (size_t i = 0; i < b->n && !st->cand_overflow; i++) {
		if (b->v[i] < p999)
			continue;
		if (st->ncand == st->candcap) {
			size_t nc = st->candcap ? st->candcap * 2 : 1024;
			struct slow *n;

			if (nc > MAX_CANDIDATES) {
				st->cand_overflow = true; /* the slow IOs will be read again */
				break;
			}
			n = realloc(st->cand, nc * sizeof(*n));
			if (!n)
				return -ENOMEM;
			st->cand = n;
			st->candcap = nc;
		}
		st->cand[st->ncand++] = (struct slow){ b->cpl[i] - b->v[i], b->cpl[i], k };
	}
	return 0;
}

/* Reduce op k's buffer (selecting on a copy: b->v keeps its order). */
static int reduce_op(struct state *st, unsigned k, struct nv_tan_point *p)
{
	struct ibuf *b = &st->ib[k];

	if (b->n > st->scratchcap) {
		uint64_t *n = realloc(st->scratch, b->cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->scratch = n;
		st->scratchcap = b->cap;
	}
	if (b->n)
		memcpy(st->scratch, b->v, b->n * sizeof(*b->v));
	reduce(b, st->scratch, p);
	return b->n ? keep_candidates(st, k, p->p999) : 0;
}

/*
 * Close the open interval: series[k][st->cur] for every operation; the
 * all-operations point is a copy when one operation had every IO.
 */
static int close_interval(struct state *st)
{
	struct ibuf *all = &st->ib[NV_TAN_ALL];
	int only = -1, nonempty = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		if (!st->t->series[k] || !st->ib[k].n)
			continue;
		nonempty++;
		only = (int)k;
	}
	if (nonempty > 1) {	/* gather every op's values for the all row */
		for (unsigned k = 0; k < NVT_OP__MAX; k++)
			for (size_t i = 0; i < st->ib[k].n; i++)
				if (ibuf_push(all, st->ib[k].v[i], 0, 0))
					return -ENOMEM;
		for (unsigned k = 0; k < NVT_OP__MAX; k++)
			all->bytes += st->ib[k].bytes;
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (st->t->series[k] && reduce_op(st, k, &st->t->series[k][st->cur]))
			return -ENOMEM;
	if (st->t->series[NV_TAN_ALL]) {
		if (nonempty == 1)
			st->t->series[NV_TAN_ALL][st->cur] = st->t->series[only][st->cur];
		else
			reduce(all, all->v, &st->t->series[NV_TAN_ALL][st->cur]);
	}
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		st->ib[k].n = 0;
		st->ib[k].bytes = 0;
		st->ib[k].max = 0;
	}
	return 0;
}

/* --buckets: count an IO of op with latency lat in its bucket (and in all). */
static void count_bucket(struct nv_tan *t, unsigned op, uint64_t lat)
{
	size_t b = 0;

	while (b < t->nedges && lat >= t->edges[b])
		b++;
	t->bucket[op][b]++;
	t->bucket[NV_TAN_ALL][b]++;
}

/* Pass 1, one record in completion order. */
static int pass1_record(struct state *st, const struct nvt_record *x)
{
	struct nv_tan *t = st->t;
	uint64_t lat = x->complete_ns - x->submit_ns;
	size_t idx;
	int err;

	if (!st->any) {
		st->any = true;
		t->t0 = x->submit_ns;
	}
	idx = (size_t)((x->complete_ns - t->t0) / t->interval_ns);
	if (!t->series[x->op] && (err = start_op(st, x->op)))
		return err;
	if (idx >= st->cap && (err = grow_series(st, idx + 1)))
		return err;
	while (st->cur < idx) {
		if ((err = close_interval(st)))
			return err;
		st->cur++;
	}
	if ((err = ibuf_push(&st->ib[x->op], lat, x->length, x->complete_ns)))
		return err;
	{
		struct nv_tan_op *o = &t->op[x->op];
		unsigned qc = nv_tan_qd_class(x->qd);

		o->records++;
		o->bytes += x->length;
		o->errors += x->status != 0;
		t->op[NV_TAN_ALL].records++;
		t->op[NV_TAN_ALL].bytes += x->length;
		t->op[NV_TAN_ALL].errors += x->status != 0;
		if ((err = nv_opstats_add(&st->ops, x->op, lat)))
			return err;
		if (t->nedges)
			count_bucket(t, x->op, lat);
		if (!st->qx[x->op][qc] && nv_opstats_exact_new(&st->qx[x->op][qc]))
			return -ENOMEM;
		nv_exact_add(st->qx[x->op][qc], lat);
	}
	t->records++;
	if (x->complete_ns - t->t0 > t->span_ns)
		t->span_ns = x->complete_ns - t->t0;
	return 0;
}

/* Pass 1 over the merged traces. */
static int pass1(struct state *st, struct src *s)
{
	int err = 0;

	for (size_t i = 0; i < st->npaths; i++) {
		if ((err = open_src(st, i, &s[i])) || (err = src_next(st, &s[i])))
			return err;
	}
	for (;;) {
		struct src *best = NULL;
		const struct nvt_record *x;

		for (size_t i = 0; i < st->npaths; i++)
			if (!s[i].done && (!best || s[i].recs[s[i].i].complete_ns <
						     best->recs[best->i].complete_ns))
				best = &s[i];
		if (!best)
			break;
		x = &best->recs[best->i];
		if ((err = check_record(st, nvt_reader_path(best->r), x)))
			return err;
		if (in_ramp(best, x))
			st->t->ramp_records++;
		else if ((err = pass1_record(st, x))) {
			if (err == -ENOMEM)
				snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			return err;
		}
		if (++best->i == best->n && (err = src_next(st, best)))
			return err;
	}
	if (st->any) {
		if ((err = close_interval(st))) {
			snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
			return err;
		}
		st->t->nint = st->cur + 1;
	}
	return 0;
}

/*
 * Op k's slow IOs in interval i must be read again: its max reached the
 * threshold and the pass-1 candidates may miss some (its p99.9 is at or
 * above the threshold, or the candidate list overflowed).
 */
static bool needs_reread(const struct state *st, unsigned k, size_t i)
{
	const struct nv_tan_point *p;

	if (!st->spiky[k] || i >= st->t->nint)
		return false;
	p = &st->t->series[k][i];
	return p->ios && p->max >= st->t->spike_threshold_ns[k] &&
	       (st->cand_overflow || p->p999 >= st->t->spike_threshold_ns[k]);
}

static bool spiky_interval(const struct state *st, size_t i)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (needs_reread(st, k, i))
			return true;
	return false;
}

static bool any_spiky(const struct state *st)
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
static int build_spikes(struct state *st)
{
	struct nv_tan *t = st->t;

	if (st->nslow)
		qsort(st->slow, st->nslow, sizeof(*st->slow), cmp_slow);
	for (size_t i = 0; i < st->nslow; i++) {
		const struct slow *x = &st->slow[i];
		uint64_t sub = x->submit > t->t0 ? x->submit - t->t0 : 0, end = x->complete - t->t0;
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
static int plan_spikes(struct state *st)
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
static int spike_record(struct state *st, const struct nvt_record *x, uint64_t lat)
{
	if (!st->spiky[x->op] || lat < st->t->spike_threshold_ns[x->op] ||
	    x->complete_ns < st->t->t0 ||
	    !needs_reread(st, x->op, (size_t)((x->complete_ns - st->t->t0) / st->t->interval_ns)))
		return 0;
	if (add_slow(st, x)) {
		snprintf(st->err, st->errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/*
 * Passes 2..: every file in turn: pending percentiles (the all-operations
 * ones too in a mixed job: there they exist from pass 1, copied from the
 * first operation's state when a second operation showed up), and in pass
 * 2 the slow IOs.
 */
static int later_pass(struct state *st, bool spikes)
{
	int err = 0;

	for (size_t f = 0; f < st->npaths && !err; f++) {
		struct src s = { 0 };

		if ((err = open_src(st, f, &s)))
			return err;
		while (!(err = src_next(st, &s)) && !s.done) {
			for (size_t i = 0; i < s.n; i++) {
				const struct nvt_record *x = &s.recs[i];
				uint64_t lat = x->complete_ns - x->submit_ns;

				if ((err = check_record(st, st->paths[f], x)))
					break;
				if (in_ramp(&s, x))
					continue;
				if ((err = nv_opstats_add(&st->ops, x->op, lat)))
					break;
				nv_exact_add(st->qx[x->op][nv_tan_qd_class(x->qd)], lat);
				if (spikes && (err = spike_record(st, x, lat)))
					break;
			}
		}
		nvt_reader_close(s.r);
	}
	return err;
}

/*
 * The slow IOs only: for each run of intervals where some operation's max
 * reached its threshold, seek (footer index) to its start and read until
 * its end; slow IOs complete inside those intervals, by their definition.
 * A file without index is read whole.
 */
static int spike_pass(struct state *st)
{
	struct nv_tan *t = st->t;
	int err = 0;

	for (size_t f = 0; f < st->npaths && !err; f++) {
		struct src s = { 0 };
		bool whole = false;

		if ((err = open_src(st, f, &s)))
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
			if (nvt_reader_seek_time(s.r, lo)) {
				whole = true; /* no index: from the start, which is where we are */
				lo = 0;
				hi = UINT64_MAX;
			}
			s.done = false;
			while (!err && !(err = src_next(st, &s)) && !s.done) {
				size_t i = 0;

				for (; i < s.n && s.recs[i].complete_ns < hi; i++)
					if (s.recs[i].complete_ns >= lo &&
					    !in_ramp(&s, &s.recs[i]) &&
					    (err = spike_record(st, &s.recs[i],
								s.recs[i].complete_ns -
									s.recs[i].submit_ns)))
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

/* nlv: the extra levels e resolves after nv_pcts' (opstats.h). */
static void latsum(const struct nv_exact *e, size_t nlv, struct nv_latsum *l)
{
	l->n = nv_exact_count(e);
	l->min = nv_exact_min(e);
	l->max = nv_exact_max(e);
	l->mean = nv_exact_mean(e);
	l->stdev = nv_exact_stdev(e);
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		l->pct[i] = nv_exact_value(e, i);
	l->nlv = nlv;
	for (size_t i = 0; i < nlv; i++)
		l->lv[i] = nv_exact_value(e, NV_PCT_NR + i);
}

/* End a pass on every exact state: 1 if another pass is needed. */
static int end_pass(struct state *st)
{
	int more = nv_opstats_end_pass(&st->ops), r;

	if (more < 0)
		return more;
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			if (st->qx[k][q] && (r = nv_exact_end_pass(st->qx[k][q])) != 0) {
				if (r < 0)
					return r;
				more = 1;
			}
	}
	return more;
}

static int collect(struct state *st)
{
	struct nv_tan *t = st->t;

	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		const struct nv_exact *e = nv_opstats_get(&st->ops, k);
		const uint64_t *h;

		if (!e)
			continue;
		latsum(e, st->ops.nextra, &t->op[k].lat);
		h = nv_exact_hist(e);
		if (h) {
			t->op[k].hist = malloc(NV_EXACT_NBUCKETS * sizeof(*h));
			if (!t->op[k].hist)
				return -ENOMEM;
			memcpy(t->op[k].hist, h, NV_EXACT_NBUCKETS * sizeof(*h));
		}
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		for (unsigned q = 0; q < NV_TAN_NQD; q++) {
			struct nv_tan_qd *d;

			if (!st->qx[k][q] || !nv_exact_count(st->qx[k][q]))
				continue;
			d = realloc(t->qd, (t->nqd + 1) * sizeof(*d));
			if (!d)
				return -ENOMEM;
			t->qd = d;
			d = &t->qd[t->nqd++];
			d->op = k;
			nv_tan_qd_range(q, &d->qd_lo, &d->qd_hi);
			latsum(st->qx[k][q], 0, &d->lat);
		}
	return 0;
}

static uint64_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (uint64_t)sb.st_size;
}

int nv_tan_run(const char *const *paths, size_t n, const struct nv_tan_opts *o, struct nv_tan *t,
	       char *err, size_t errlen)
{
	struct state st = {
		.t = t, .o = o, .paths = paths, .npaths = n, .err = err, .errlen = errlen,
		.footers_known = true
	};
	struct src *s = calloc(n ? n : 1, sizeof(*s));
	bool spikes;
	int ret, more;

	nv_opstats_init(&st.ops);
	nv_opstats_set_extra(&st.ops, o->levels,
			     o->nlevels < NV_PCTL_MAX ? o->nlevels : NV_PCTL_MAX);
	memset(t, 0, sizeof(*t));
	t->interval_ns = o->interval_ns ? o->interval_ns : 1000000000ull;
	t->nedges = o->nedges < NV_TAN_MAXEDGES ? o->nedges : NV_TAN_MAXEDGES;
	memcpy(t->edges, o->edges, t->nedges * sizeof(t->edges[0]));
	t->nlevels = st.ops.nextra;
	memcpy(t->levels, o->levels, t->nlevels * sizeof(t->levels[0]));
	if (!s) {
		free(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		st.total_bytes += file_size(paths[i]);

	ret = pass1(&st, s);
	for (size_t i = 0; i < n; i++)
		nvt_reader_close(s[i].r);
	free(s);
	if (!ret)
		ret = plan_spikes(&st);
	spikes = !ret && any_spiky(&st);
	more = ret ? 0 : end_pass(&st);
	st.pass = t->passes = 1;
	st.pass1_records = st.pass_records;
	while (!ret && (more > 0 || spikes)) {
		st.done_bytes = 0;
		st.pass_records = 0;
		st.seeking = more <= 0;
		if (more > 0) {
			ret = later_pass(&st, spikes);
		} else {
			ret = spike_pass(&st);
		}
		spikes = false;
		st.pass++;
		if (!ret && more > 0)
			more = end_pass(&st);
		else
			more = 0;
		if (more < 0) {
			snprintf(err, errlen, "%s%s: the traces changed while they were being read",
				 paths[0], n > 1 ? " ..." : "");
			ret = more;
		}
	}
	t->passes = st.pass;
	progress(&st, NULL, true);
	if (!ret && ((ret = build_spikes(&st)) || (ret = collect(&st))))
		snprintf(err, errlen, "out of memory");
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		free(st.ib[k].v);
		for (unsigned q = 0; k < NVT_OP__MAX && q < NV_TAN_NQD; q++)
			nv_exact_free(st.qx[k][q]);
	}
	nv_opstats_free(&st.ops);
	free(st.slow);
	free(st.cand);
	free(st.scratch);
	for (unsigned k = 0; k < NV_TAN_NOPS; k++)
		free(st.ib[k].cpl);
	if (ret)
		nv_tan_free(t);
	return ret;
}

void nv_tan_free(struct nv_tan *t)
{
	for (unsigned k = 0; k < NV_TAN_NOPS; k++) {
		free(t->series[k]);
		free(t->op[k].hist);
	}
	free(t->qd);
	free(t->spikes);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	memset(t, 0, sizeof(*t));
}
