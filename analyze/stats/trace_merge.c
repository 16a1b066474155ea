/*
 * trace_merge.c - pass 1 of a job of several thread traces (trace_tan.h:
 * tan_pass1_split): each trace analysed by itself, on the job's workers,
 * and the results merged in trace order.
 *
 * The traces go interval by interval together (a round per interval that
 * has IOs): in a round each trace's records that complete before the
 * interval's end are counted, on whichever worker takes it, into that
 * worker's interval buffers (trace_interval.c; lent to the trace for its
 * walk: tan_slot_lend) and the trace's own exact states per queue-depth class
 * (those of the class a buffer holds only at the close: trace_series.c
 * exact_run), and on to the end of the block it stopped in, into the
 * worker's buffers of the next interval (part_walk_on); then this thread
 * closes the interval from every worker's
 * buffers at once (the bucket counts summed, the k-th smallest found among
 * all their per-ns counts and lists: exact, in any order and any split),
 * keeps the slow-IO candidates at or above the largest cut, adds the IOs
 * each buffer held to the job's exact states (tan_defer_close) and clears
 * the buffers for the next round.  At the end the traces' totals, notes
 * and exact states are merged in trace order.  The output does not depend
 * on which worker ran what, or on how many there were: every value is
 * exact in any split (the exact states' sums are integers), so it is the
 * same for any -J.
 *
 * Time: t = 0 is the submission of the IO that completes first (ties: the
 * lower trace); a record completing before its trace's open interval (out
 * of order) joins it, as in a single trace: the interval the traces merged
 * by completion had open too (a merged stream takes a record only once no
 * other trace's next one completes earlier), so the series pass of spilled
 * intervals (trace_series.c), which reads them merged, divides them alike.
 * Memory: per trace its exact states (merged into the job's after a round,
 * or inside one once they list PAUSE_LISTED values: run_round) and, only
 * where a block reaches past the end of the interval after the round's (a
 * block longer than an interval), that block's rest, packed (part_round);
 * per worker a decoded block (in its scratch) and two sets of interval
 * buffers; independent of the number of IOs and of the run's length.
 *
 * A trace that cannot be opened is left out, one that is damaged further
 * on is used up to the damage (its later passes end there too: st->drop),
 * each with a note; the job fails only when no trace could be read.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"
#include "analyze/stats/workpool.h"

#define PART_VCAP_MIN (1u << 15)	/* latencies a trace's interval lists at least */
/* A trace's exact states per QD class count per ns below PART_DENSE (64 us:
 * at most 64 pages) and list the others, up to PART_OVF of them (then the
 * job's later passes resolve them); merged into the job's after a round
 * once they hold FOLD_LEAST values or list FOLD_LISTED (64 KiB: a trace's
 * slow IOs are not held twice for the whole run, nv_nop 4 x 4 M -2.5 MiB). */
#define PART_DENSE (1u << 16)
#define PART_OVF (1u << 22)
#define FOLD_LEAST (1u << 16)
#define FOLD_LISTED (1u << 13)
/* A trace whose state lists PAUSE_LISTED values inside a round stops there,
 * that state is folded, and it goes on in the same round (run_round): a
 * heavy tail is not held twice for a whole interval. */
#define PAUSE_LISTED (1u << 14)

struct split;

/* One thread trace of the job, analysed by itself up to each round's end. */
struct part {
	struct state st;	/* its own: st.t = &tan, its buffers and exact states */
	struct nv_tan tan;	/* its totals, notes, ramp and span (t0: the job's) */
	struct nv_tan_opts o;	/* the job's, the progress through part_progress */
	struct src s;
	struct split *sp;
	uint64_t head;		/* the interval of its next counted record, when live */
	uint64_t head_c, head_l;	/* that record's completion time and latency */
	bool live;		/* it has a next counted record */
	bool paused;		/* stopped inside the round at PAUSE_LISTED (part_walk) */
	bool used_up;		/* its block walked to the end into the next interval's
				 * sets: its next record is in the next block, its head
				 * the next interval (part_walk_on) */
	uint64_t records, bytes;	/* its progress counted in the job's */
	int ret;		/* its last round's */
	char err[1024];
};

struct split {
	struct state *st;	/* the job's */
	struct part *p;		/* [st->npaths] */
	size_t *item;		/* the parts of a round */
	struct ibuf **bufs;	/* [nscr * NVT_OP__MAX]: an interval's buffers */
	uint64_t end;		/* the round's end, CLOCK_MONOTONIC ns (0: first records) */
	uint64_t end_next;	/* the end of the interval after it */
	pthread_mutex_t lock;	/* the job's progress callback and counts; the scratches */
	uint64_t records, bytes;	/* read in pass 1, every trace */
	struct nvt_scratch *scr;	/* [nscr]: what a worker reads blocks in, lent */
	bool *scr_busy;		/* to the part it walks (nvt_reader_scratch) */
	struct state *slot;	/* [nscr]: the interval buffers scr[k]'s parts count
				 * into, lent with it (tan_slot_lend) */
	struct state *next;	/* [nscr]: the same for the interval after the round's,
				 * where a walk goes on to its block's end */
	unsigned nscr;
	size_t pause;		/* PAUSE_LISTED (tests: NVANALYZE_PAUSE_LISTED) */
};

/*
 * A trace's progress (its state's callback) as the job's: its records and
 * bytes counted in the job's, one call at a time into the caller's.
 * Return: nothing.
 */
static void part_progress(const struct nv_tan_progress *q, void *arg)
{
	struct part *pt = arg;
	struct split *sp = pt->sp;
	struct state *st = sp->st;
	struct nv_tan_progress p;

	pthread_mutex_lock(&sp->lock);
	if (q->records > pt->records) {	/* a trace read again (rewind) counts once */
		sp->records += q->records - pt->records;
		pt->records = q->records;
	}
	if (q->bytes > pt->bytes) {
		sp->bytes += q->bytes - pt->bytes;
		pt->bytes = q->bytes;
	}
	p = (struct nv_tan_progress){
		.path = q->path, .file = (size_t)(pt - sp->p), .nfiles = st->npaths, .pass = 1,
		.records = sp->records, .total = st->footers_known ? st->footer_records : 0,
		.bytes = sp->bytes, .total_bytes = st->total_bytes,
	};
	st->o->progress(&p, st->o->progress_arg);
	pthread_mutex_unlock(&sp->lock);
}

/* Part i's state: the job's options and limits, its own results.  Return: nothing. */
static void part_init(struct split *sp, size_t i, size_t vcap)
{
	struct state *st = sp->st;
	struct part *pt = &sp->p[i];

	pt->sp = sp;
	pt->o = *st->o;
	if (st->o->progress) {
		pt->o.progress = part_progress;
		pt->o.progress_arg = pt;
	}
	pt->tan.interval_ns = st->t->interval_ns;
	pt->tan.nedges = st->t->nedges;
	memcpy(pt->tan.edges, st->t->edges, sizeof(pt->tan.edges));
	pt->st = (struct state){
		.t = &pt->tan, .o = &pt->o, .paths = st->paths + i, .npaths = 1, .err = pt->err,
		.errlen = sizeof(pt->err), .footers_known = true, .vcap = vcap, .dense = st->dense,
		.qx_dense = PART_DENSE, .qx_ovf = PART_OVF,
	};
	nv_opstats_init(&pt->st.ops);
	pt->s.want = TAN_PASS1_COLS;
}

/* Return: nothing; part pt's memory freed (its results merged or not wanted). */
static void part_free(struct part *pt)
{
	struct state *st = &pt->st;

	nvt_reader_close(pt->s.r);
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		tan_ibuf_free(&st->ib[k]);
		free(st->cutx[k]);
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			nv_exact_free(st->qx[k][q]);
	}
	nv_opstats_free(&st->ops);
	free(st->hall);
	free(st->scratch);
	nv_tan_free(&pt->tan);
}

/* Return: the most values one of st's exact states per QD class lists. */
static size_t part_listed(const struct state *st)
{
	size_t n = 0;

	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			if (st->qx[k][q] && nv_exact_listed(st->qx[k][q]) > n)
				n = nv_exact_listed(st->qx[k][q]);
	return n;
}

/*
 * Part pt's records of its current block from s->i on that complete before
 * end (records before a stop at or after it: the interval's, as in a
 * merged stream), into the buffers it was lent, its totals and exact
 * states; *stopped set when it stopped at such a record (else the block is
 * used up).
 * Return: 0 or -errno (pt->err set).
 */
static int walk_block(struct part *pt, uint64_t end, bool *stopped)
{
	struct state *st = &pt->st;
	struct src *s = &pt->s;
	const struct nvt_cols *c = s->c;
	uint64_t t0 = pt->tan.t0, last = 0;
	size_t a = s->i, e, i;
	int err;

	*stopped = false;
	while (s->i < s->n) {
		a = s->i;
		e = tan_counted_run(st, s, &a, s->n);
		if (!s->ramp_end && c->max_complete_ns < end) {	/* the block's rest */
			i = e;	/* every record counted: its latest is the span's */
			last = c->max_complete_ns > last ? c->max_complete_ns : last;
		} else {	/* the span on the way */
			for (i = a; i < e && c->complete_ns[i] < end; i++)
				last = c->complete_ns[i] > last ? c->complete_ns[i] : last;
		}
		if (last >= t0 && last - t0 > pt->tan.span_ns)
			pt->tan.span_ns = last - t0;
		if (i > a && (err = tan_interval_run(st, c, a, i))) {
			snprintf(pt->err, sizeof(pt->err), "%s: out of memory", st->paths[0]);
			return err;
		}
		s->i = i;
		if (i < e) {
			*stopped = true;
			return 0;
		}
	}
	return 0;
}

/*
 * Part pt's records up to the round's end (before: their interval's
 * buffers, totals and exact states), stopping at its first counted record
 * at or after it (pt->live) or its end, or before, once one of its exact
 * states lists PAUSE_LISTED values (pt->paused: the run's records so far
 * counted).
 * Return: 0 or -errno (pt->err set).
 */
static int part_walk(struct part *pt, uint64_t end)
{
	struct src *s = &pt->s;
	bool stopped;
	int err;

	pt->live = false;
	while (!s->done) {
		if (s->i == s->n) {
			if ((err = tan_src_next(&pt->st, s)))
				return err;
			continue;
		}
		if ((err = walk_block(pt, end, &stopped)))
			return err;
		if (stopped) {
			pt->live = true;
			return 0;
		}
		if (part_listed(&pt->st) >= pt->sp->pause) {	/* folded, then on */
			pt->live = pt->paused = true;
			return 0;
		}
	}
	return 0;
}

/*
 * Part pt, stopped at the round's end inside a block, on through that
 * block into the next interval's sets (lent), up to end (the next
 * interval's): the rest of the block is not held between rounds (packed,
 * it was most of a job of many threads' memory: half a block a thread).
 * Used up, its head is the next interval (pt->used_up); else it stopped at
 * a record at or after end, its head.
 * Return: 0 or -errno (pt->err set).
 */
static int part_walk_on(struct part *pt, uint64_t end)
{
	bool stopped;
	int err = walk_block(pt, end, &stopped);

	pt->used_up = !err && !stopped;
	return err;
}

/*
 * Part pt, which the first round walked to its first counted record (its
 * head), read again from its start by the next round: its decoded block is
 * not held meanwhile.  What that round counted is undone: the ramp's IOs
 * before the head (counted again), the progress (part_progress counts a
 * record once).  A trace that cannot be opened again is cut there (its
 * error set).  Return: 0 or -errno.
 */
static int part_rewind(struct part *pt, uint64_t ramp_records)
{
	struct src *s = &pt->s;
	int err;

	nvt_reader_close(s->r);
	*s = (struct src){ .want = s->want, .file = s->file, .ramp_end = s->ramp_end };
	pt->tan.ramp_records = ramp_records;
	pt->st.done_bytes = 0;
	pt->st.pass_records = 0;
	if ((err = nvt_reader_open(&s->r, pt->st.paths[0])))
		snprintf(pt->err, sizeof(pt->err), "%s: %s", pt->st.paths[0],
			 s->r ? nvt_reader_strerror(s->r) : strerror(-err));
	return err;
}

/* Part pt's block held until it goes on: its rest only, packed (the whole
 * block as it is when that cannot be had).  Return: nothing. */
static void part_keep_rest(struct part *pt)
{
	if (!nvt_reader_keep_rest(pt->s.r, pt->s.i)) {
		pt->s.n -= pt->s.i;
		pt->s.i = 0;
	}
}

/* Return: a scratch no part is using (one per worker, so there is one), or NULL. */
static struct nvt_scratch *scratch_take(struct split *sp)
{
	struct nvt_scratch *got = NULL;

	pthread_mutex_lock(&sp->lock);
	for (unsigned k = 0; k < sp->nscr && !got; k++)
		if (!sp->scr_busy[k]) {
			sp->scr_busy[k] = true;
			got = &sp->scr[k];
		}
	pthread_mutex_unlock(&sp->lock);
	return got;
}

/* Return: nothing; s (scratch_take's, or NULL) free for another part. */
static void scratch_give(struct split *sp, struct nvt_scratch *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&sp->lock);
	sp->scr_busy[s - sp->scr] = false;
	pthread_mutex_unlock(&sp->lock);
}

/*
 * Work item i of a round (workpool.h): its part walked, its reader reading
 * in a scratch of the worker's (its own buffers hold no block meanwhile),
 * its IOs counted into the worker's interval buffers (tan_slot_lend); its head
 * noted.  A part that reached its end closes its reader.  In the
 * first round (end 0: time 0 is known from every part's head) the parts
 * past the first nscr read again from their start by the next round
 * (part_rewind) rather than hold a block each: a job of many short thread
 * traces (64 threads of a fraction of a second) then holds nscr decoded
 * blocks, not one per thread, for the price of decoding the others' first
 * blocks twice.  Nothing else depends on nscr.  A part that stops inside
 * a block in a later round goes on through that block into the next
 * interval's sets (part_walk_on); where the block reaches past that
 * interval too, it keeps the block's rest only, packed, until the next round
 * takes it back (nvt_reader_keep_rest, nvt_reader_unpack_rest: 10 bytes a
 * record, not 27).  Held by every thread between rounds, half a block each,
 * the rests were most of a job of many threads' memory: 64 threads of
 * nv_nop 46.2 -> 19.1 MiB, of gen_trace 36.2 -> 17.8 MiB.
 * Return: its result.
 */
static int part_round(size_t i, void *arg)
{
	struct split *sp = arg;
	struct part *pt = &sp->p[sp->item[i]];
	struct nvt_scratch *scr = scratch_take(sp);
	struct state *slot = scr ? &sp->slot[scr - sp->scr] : NULL;
	struct state *next = scr ? &sp->next[scr - sp->scr] : NULL;

	if (!slot) {	/* as many as workers: cannot happen */
		snprintf(pt->err, sizeof(pt->err), "%s: out of memory", pt->st.paths[0]);
		return pt->ret = -ENOMEM;
	}
	nvt_reader_scratch(pt->s.r, scr);
	tan_slot_lend(&pt->st, slot);
	if (pt->s.r && nvt_reader_unpack_rest(pt->s.r) < 0) {
		snprintf(pt->err, sizeof(pt->err), "%s: out of memory", pt->st.paths[0]);
		pt->ret = -ENOMEM;
	} else {
		pt->ret = part_walk(pt, sp->end);
	}
	tan_slot_lend(&pt->st, slot);
	if (!pt->ret && pt->live && !pt->paused && sp->end) {
		tan_slot_lend(&pt->st, next);
		pt->ret = part_walk_on(pt, sp->end_next);
		tan_slot_lend(&pt->st, next);
	}
	nvt_reader_scratch(pt->s.r, NULL);
	scratch_give(sp, scr);
	if (!pt->ret && pt->paused) {	/* on from there in this round */
		part_keep_rest(pt);
	} else if (!pt->ret && pt->live) {
		if (!pt->used_up) {
			pt->head_c = pt->s.c->complete_ns[pt->s.i];
			pt->head_l = pt->s.c->latency_ns[pt->s.i];
		}
		if (!sp->end && sp->item[i] >= sp->nscr)	/* no ramp IO counted before */
			pt->ret = part_rewind(pt, 0);
		else
			part_keep_rest(pt);
	}
	if (!pt->ret && pt->s.done) {	/* its notes taken: the columns go too */
		nvt_reader_close(pt->s.r);
		pt->s.r = NULL;
	}
	return pt->ret;
}

/* Return: the interval of part pt's next record (time t0 of the job). */
static uint64_t part_head(const struct part *pt, uint64_t t0, uint64_t interval)
{
	return pt->head_c > t0 ? (pt->head_c - t0) / interval : 0;
}

/*
 * After a round: a part that failed is used up to there, with a note (its
 * later passes end there too); the live parts' next intervals.
 * Return: 0, or -ENOMEM (st->err set).
 */
static int round_end(struct split *sp, size_t nitems)
{
	struct state *st = sp->st;

	for (size_t j = 0; j < nitems; j++) {
		size_t i = sp->item[j];
		struct part *pt = &sp->p[i];

		if (pt->ret == -ENOMEM) {
			snprintf(st->err, st->errlen, "%s", pt->err);
			return -ENOMEM;
		}
		if (pt->ret) {
			add_note(&pt->tan, "%s: the rest of this trace is left out (the "
				 "job's other traces are analysed)", pt->err);
			st->drop[i] = TAN_CUT;
			st->t->damaged++;
			pt->live = pt->paused = false;
			pt->ret = 0;
		}
		if (pt->live && !pt->paused && st->any)
			pt->head = pt->used_up ? st->cur + 1 :
				   part_head(pt, st->t->t0, st->t->interval_ns);
		pt->used_up = false;
	}
	return 0;
}

/*
 * Open every trace (the footers' totals for the progress); one that cannot
 * be opened is left out with a note.
 * Return: 0, -ENOMEM, or the first trace's error when none could be opened.
 */
static int open_parts(struct split *sp)
{
	struct state *st = sp->st;
	int first = 0;
	size_t opened = 0;

	for (size_t i = 0; i < st->npaths; i++) {
		struct part *pt = &sp->p[i];
		int err = tan_open_src(&pt->st, 0, &pt->s);

		if (err == -ENOMEM) {
			snprintf(st->err, st->errlen, "%s", pt->err);
			return err;
		}
		if (err) {
			if (!first) {
				first = err;
				snprintf(st->err, st->errlen, "%s", pt->err);
			}
			add_note(&pt->tan, "%s: this trace is left out (the job's other "
				 "traces are analysed)", pt->err);
			st->drop[i] = TAN_LEFT_OUT;
			st->t->damaged++;
			continue;
		}
		opened++;
		pt->live = true;
		if (!pt->st.footers_known)
			st->footers_known = false;
		st->footer_records += pt->st.footer_records;
	}
	return opened ? 0 : first;
}

/* Time 0: the submission of the record that completes first (ties: the
 * lower trace), if any; st->any.  Return: nothing. */
static void find_t0(struct split *sp)
{
	struct state *st = sp->st;
	const struct part *best = NULL;

	for (size_t i = 0; i < st->npaths; i++) {
		const struct part *pt = &sp->p[i];

		if (pt->live && (!best || pt->head_c < best->head_c))
			best = pt;
	}
	if (!best)
		return;
	st->any = true;
	st->t->t0 = best->head_c - best->head_l;
	for (size_t i = 0; i < st->npaths; i++) {
		sp->p[i].tan.t0 = st->t->t0;
		if (sp->p[i].live)
			sp->p[i].head = part_head(&sp->p[i], st->t->t0, st->t->interval_ns);
	}
}

/* Return: true with the next round's interval in *k (the least next one of
 * a live part), false when every part is done. */
static bool next_round(const struct split *sp, uint64_t *k)
{
	bool any = false;

	for (size_t i = 0; i < sp->st->npaths; i++)
		if (sp->p[i].live && (!any || sp->p[i].head < *k)) {
			*k = sp->p[i].head;
			any = true;
		}
	return any;
}

/*
 * Close the open interval st->cur (trace_slots.c), the series of an
 * operation a part started, started.
 * Return: 0, -ENOMEM or -EINVAL.
 */
static int close_merged(struct split *sp)
{
	struct state *st = sp->st;
	int err;

	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		for (size_t i = 0; i < st->npaths; i++)
			if (sp->p[i].tan.series[k] && !st->t->series[k] &&
			    (err = tan_series_start(st, k)))
				return err;
	return tan_slots_close(st, sp->slot, sp->nscr, sp->bufs);
}

/*
 * After a round: the parts' exact states that hold FOLD_LEAST values or
 * more merged into the job's, in trace order.
 * Return: 0 or -errno (st->err set).
 */
static int fold_exact(struct split *sp)
{
	int err = 0;

	for (size_t i = 0; i < sp->st->npaths && !err; i++)
		err = tan_qd_fold(sp->st, &sp->p[i].st, FOLD_LEAST, FOLD_LISTED);
	return tan_merge_failed(sp->st, err);
}

/*
 * Part pt's totals, --buckets, ramp, span, notes, disturbance and exact
 * states added to the job's (in trace order: the notes do not depend on
 * the workers).
 * Return: 0 or -errno.
 */
static int merge_part(struct state *st, struct part *pt)
{
	struct nv_tan *t = st->t;
	const struct nv_tan *u = &pt->tan;

	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		t->op[k].records += u->op[k].records;
		t->op[k].bytes += u->op[k].bytes;
		t->op[k].errors += u->op[k].errors;
	}
	for (unsigned k = 0; k < NV_TAN_NOPS; k++)
		for (size_t b = 0; b <= t->nedges; b++)
			t->bucket[k][b] += u->bucket[k][b];
	t->ramp_records += u->ramp_records;
	st->back |= pt->st.back;
	t->ramp_ns = u->ramp_ns ? u->ramp_ns : t->ramp_ns;
	t->ab_window = u->ab_window ? u->ab_window : t->ab_window;
	t->span_ns = u->span_ns > t->span_ns ? u->span_ns : t->span_ns;
	for (size_t i = 0; i < u->nnotes; i++)
		add_note(t, "%s", u->notes[i]);
	nv_trace_disturb_merge(&t->disturb, &u->disturb);
	return tan_qd_fold(st, &pt->st, 0, 0);
}

/*
 * Whether no trace gave a record because every one that could be opened was
 * damaged before its first: then the job fails with the first's error.
 * Return: 0, or -EINVAL with st->err set.
 */
static int no_records(struct split *sp)
{
	struct state *st = sp->st;

	if (st->any)
		return 0;
	for (size_t i = 0; i < st->npaths; i++)
		if (st->drop[i] == TAN_CUT) {
			snprintf(st->err, st->errlen, "%s", sp->p[i].err);
			return -EINVAL;
		}
	return 0;
}

/*
 * The parts of the round's items[0..n) that paused (part_walk): their exact
 * states that list sp->pause values (the one that paused at least) folded
 * as after a round (tan_qd_fold), in trace order, and the
 * parts made the items to go on with.  Where a part pauses can depend on
 * the workers (tan_qd_fold), what the job's states hold after the round
 * cannot.
 * Return: the number of such parts, or 0 with *err set (st->err set).
 */
static size_t fold_paused(struct split *sp, size_t n, int *err)
{
	size_t m = 0;

	for (size_t j = 0; j < n && !*err; j++) {
		struct part *pt = &sp->p[sp->item[j]];

		if (!pt->paused)
			continue;
		pt->paused = false;
		*err = tan_qd_fold(sp->st, &pt->st, FOLD_LEAST, sp->pause);
		*err = tan_merge_failed(sp->st, *err);
		sp->item[m++] = sp->item[j];	/* j >= m: still to be read */
	}
	return *err ? 0 : m;
}

/*
 * A round: the live parts whose next record is in interval k (all live
 * ones in the first round, end 0) walked to sp->end on the pool; those
 * that paused go on once their states are folded, until none does.
 * Return: 0 or -errno (st->err set).
 */
static int run_round(struct split *sp, struct nv_pool *pool, uint64_t k)
{
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < sp->st->npaths; i++)
		if (sp->p[i].live && sp->p[i].head <= k)
			sp->item[n++] = i;
	do {
		nv_pool_round(pool, n, part_round, sp);
		if ((err = round_end(sp, n)))
			return err;
	} while ((n = fold_paused(sp, n, &err)));
	return err;
}

/*
 * The rounds: the first record of every part (time 0), then each interval
 * with IOs walked by every part that has some there and closed (the parts
 * go on to their block's end into the next interval's sets, which are the
 * open interval's in the next round: that one is closed even when no part
 * is walked in it).
 * Return: 0 or -errno (st->err set).
 */
static int rounds(struct split *sp, struct nv_pool *pool)
{
	struct state *st = sp->st;
	uint64_t k = 0;
	bool held = false;	/* the next interval's sets hold IOs */
	int err;

	sp->end = 0;
	if ((err = run_round(sp, pool, 0)))
		return err;
	find_t0(sp);
	for (;;) {
		bool more = next_round(sp, &k);
		struct state *cur = sp->slot;

		if (held && (!more || k > st->cur + 1)) {	/* closed even with no part */
			k = st->cur + 1;
			more = true;
		}
		if (!more)
			break;
		if ((err = tan_series_grow(st, (size_t)k + 1)))
			return err;
		st->cur = (size_t)k;	/* the intervals before: no IOs, zero */
		sp->end = st->t->t0 + (k + 1) * st->t->interval_ns;
		sp->end_next = sp->end + st->t->interval_ns;
		if ((err = run_round(sp, pool, k)))
			return err;
		if ((err = close_merged(sp))) {
			snprintf(st->err, st->errlen, "%s: %s", st->paths[0],
				 err == -ENOMEM ? "out of memory" :
				 "internal error: an interval's counts disagree");
			return err;
		}
		sp->slot = sp->next;	/* the next interval's sets are the open one's */
		sp->next = cur;
		held = tan_slots_hold(sp->slot, sp->nscr);
		if ((err = fold_exact(sp)))
			return err;
	}
	if (st->any)
		st->t->nint = st->cur + 1;
	return no_records(sp);
}

/* The parts' results merged into the job's, in order.  Return: 0 or -errno (st->err set). */
static int merge_parts(struct split *sp)
{
	struct state *st = sp->st;
	int err = 0;

	for (size_t i = 0; i < st->npaths && !err; i++)
		err = merge_part(st, &sp->p[i]);
	tan_merge_failed(st, err);
	tan_pass1_totals(st->t);
	st->pass_records = sp->records;
	st->done_bytes = sp->bytes;
	return err;
}

int tan_pass1_split(struct state *st)
{
	const char *pause = getenv("NVANALYZE_PAUSE_LISTED");	/* tests: pause often */
	struct split sp = { .st = st, .pause = pause ? strtoull(pause, NULL, 10) : 0 };
	size_t n = st->npaths, vcap = tan_series_vcap(&st->dense);
	struct nv_pool *pool = NULL;
	int err = -ENOMEM;

	sp.pause = sp.pause ? sp.pause : PAUSE_LISTED;
	sp.nscr = st->workers > 1 ? (st->workers < NV_POOL_MAX ? st->workers : NV_POOL_MAX) : 1;
	st->vcap = vcap;
	if (vcap == SERIES_VCAP) {	/* the job's list shared among its busy workers' */
		size_t busy = sp.nscr < n ? sp.nscr : n ? n : 1;

		vcap = vcap / busy > PART_VCAP_MIN ? vcap / busy : PART_VCAP_MIN;
	}
	sp.p = calloc(n, sizeof(*sp.p));
	sp.item = calloc(n, sizeof(*sp.item));
	sp.bufs = calloc(sp.nscr * NVT_OP__MAX, sizeof(*sp.bufs));
	sp.scr = calloc(sp.nscr, sizeof(*sp.scr));
	sp.scr_busy = calloc(sp.nscr, sizeof(*sp.scr_busy));
	sp.slot = calloc(sp.nscr, sizeof(*sp.slot));
	sp.next = calloc(sp.nscr, sizeof(*sp.next));
	st->drop = calloc(n, sizeof(*st->drop));
	if (!sp.p || !sp.item || !sp.bufs || !sp.scr || !sp.scr_busy || !sp.slot ||
	    !sp.next || !st->drop || pthread_mutex_init(&sp.lock, NULL)) {
		snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
		free(sp.p);
		free(sp.item);
		free(sp.bufs);
		free(sp.scr);
		free(sp.scr_busy);
		free(sp.slot);
		free(sp.next);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		part_init(&sp, i, vcap);
	if (!(err = open_parts(&sp)) && !(err = nv_pool_start(&pool, st->workers)))
		err = rounds(&sp, pool);
	else if (err == -ENOMEM)
		snprintf(st->err, st->errlen, "%s: out of memory", st->paths[0]);
	nv_pool_stop(pool);
	if (!err)
		err = merge_parts(&sp);
	for (size_t i = 0; i < n; i++)
		part_free(&sp.p[i]);
	pthread_mutex_destroy(&sp.lock);
	for (unsigned w = 0; w < sp.nscr; w++)
		nvt_scratch_free(&sp.scr[w]);
	tan_slots_free(sp.slot, sp.nscr);
	tan_slots_free(sp.next, sp.nscr);
	free(sp.scr);
	free(sp.scr_busy);
	free(sp.p);
	free(sp.item);
	free(sp.bufs);
	return err;
}
