/*
 * trace_src.c - nv_tan_run's traces (trace_tan.h): opened with what their
 * header and footer say (ramp, nv_trace_ab, waits), read block by block
 * with the progress told, records checked (their queue-depth classes'
 * exact states: trace_qdclass.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/trace_check.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"
#include "analyze/stats/trace_wait.h"


/* Tell the caller where the analysis is (s: the trace just read, or NULL). */
void tan_progress(struct state *st, const struct src *s, bool done)
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

int tan_open_src(struct state *st, size_t i, struct src *s)
{
	uint64_t recs;
	bool opened;
	int err;

	s->file = i;
	if (st->drop && st->drop[i] == TAN_LEFT_OUT) {	/* pass 1 left it out */
		s->r = NULL;
		s->done = true;
		return 0;
	}
	err = nvt_reader_open(&s->r, st->paths[i]);
	opened = !err;
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

/*
 * Every record of s's block valid (trace_check.h), numbered in its file
 * unless the reader sought (s->seen UINT64_MAX).
 * Return: 0, or -EINVAL with st->err set.
 */
static int check_block(struct state *st, const struct src *s)
{
	char why[192];

	if (!nv_trace_cols_check(s->c, s->seen, why, sizeof(why)))
		return 0;
	snprintf(st->err, st->errlen, "%s: %s", nvt_reader_path(s->r), why);
	return -EINVAL;
}

/*
 * Pass 1: whether s's block goes back in completion time (before the
 * latest completion read before it, or within itself): then an index
 * cannot say where an interval's records start, st->back.  Return: nothing.
 */
static void note_order(struct state *st, struct src *s)
{
	st->back |= s->c->min_complete_ns < s->maxc || s->c->back;
	if (s->c->max_complete_ns > s->maxc)
		s->maxc = s->c->max_complete_ns;
}

int tan_src_next(struct state *st, struct src *s)
{
	int err;

	if (!s->r) {	/* left out (tan_open_src) */
		s->n = s->i = 0;
		s->done = true;
		return 0;
	}
	do {
		err = nvt_reader_next_cols(s->r, s->want | NVT_COL_LATENCY | NVT_COL_OP, &s->c);
	} while (err == 1 && !s->c->n);
	s->i = 0;
	s->n = err == 1 ? s->c->n : 0;
	if (err == -EAGAIN)	/* a reader in follow mode: the block is not complete yet */
		return err;
	if (err < 0 && st->drop && st->drop[s->file] == TAN_CUT && err != -ENOMEM) {
		s->n = 0;	/* where pass 1 found it damaged: its end */
		s->done = true;
		return 0;
	}
	if (err < 0) {
		snprintf(st->err, st->errlen, "%s", nvt_reader_strerror(s->r));
		return err;
	}
	if (!err) {
		s->done = true;
		if (st->pass == 0)
			note_end(st, s->r);
	}
	if (err == 1 && (err = check_block(st, s))) {
		if (st->drop && st->drop[s->file] == TAN_CUT) {
			s->n = 0;	/* as above */
			s->done = true;
			return 0;
		}
		return err;
	}
	if (s->seen != UINT64_MAX)
		s->seen += s->n;
	if (st->pass == 0 && s->n)
		note_order(st, s);
	if (st->o->progress) {
		struct nvt_read_info in;

		nvt_reader_info(s->r, &in);
		if (in.used_bytes > s->counted)
			st->done_bytes += in.used_bytes - s->counted;
		s->counted = in.used_bytes;
		st->pass_records += s->n;
		tan_progress(st, s, false);
	}
	return 0;
}

size_t tan_counted_run(struct state *st, const struct src *s, size_t *a, size_t b)
{
	size_t e;

	if (!s->ramp_end)
		return b;
	while (*a < b && tan_in_ramp(s, *a)) {
		st->t->ramp_records += st->pass == 0;	/* counted once */
		(*a)++;
	}
	for (e = *a; e < b && !tan_in_ramp(s, e); e++)
		;
	return e;
}
