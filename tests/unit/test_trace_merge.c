/*
 * test_trace_merge.c - analyze/stats/trace_merge.c: a job of several thread
 * traces analysed apart and merged.  On 4 and 16 generated thread traces
 * (mixed operations with errors, --buckets and --percentiles; reads with
 * slow tails and a spike in one thread): 1 and 4 workers give the same
 * struct nv_tan, bit for bit, and it equals the analysis of one trace holding every thread's
 * records merged as the analysis merges them, by their next completions
 * (the intervals' exact percentiles, counts, spikes; the mean and standard
 * deviation bit for bit: exact sums), also where one thread's
 * completion times go back 3 intervals once (the spikes too: a slow IO is
 * placed in the interval pass 1 counted it in, test_trace_spikes.c).
 * Intervals that overflow their lists (NVANALYZE_SERIES_CAP) are resolved
 * the same.  A damaged trace is used up to the damage and a
 * missing one left out, each with a note, the same for any number of
 * workers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_util.h"
#include "analyze/stats/trace_stats.h"

#define MAXT 16
#define JOB "grouped"	/* the job's name in its traces' headers */

static bool ooo;	/* make_job: thread 2's completion times go back once */
static uint64_t gap_ns;	/* make_job: every thread idle this long halfway */

struct job {
	char *paths[MAXT + 1];	/* the thread traces, then the merged one */
	size_t n;
};

/*
 * nth generated thread streams of per records each (pattern pat, queue
 * depth qd) into job j: one trace per thread and one of them all merged by
 * completion (ties: the lower thread).  Return: 0 or -errno.
 */
static int make_job(struct job *j, size_t nth, enum gen_pattern pat, unsigned qd, size_t per)
{
	struct nvt_record *r = calloc(nth * per, sizeof(*r)), *m = calloc(nth * per, sizeof(*m));
	char name[64];
	int err = 0;

	if (!r || !m) {
		free(r);
		free(m);
		return -ENOMEM;
	}
	memset(j, 0, sizeof(*j));
	j->n = nth;
	for (size_t t = 0; t < nth && !err; t++) {
		struct gen g;

		gen_init(&g, pat, qd, 1000 + t);
		g.tail_per_mille = 3;
		for (size_t i = 0; i < per; i++)
			gen_record(&g, &r[t * per + i]);
		for (size_t i = per / 2; t == 5 && i < per / 2 + 3; i++)	/* a spike */
			r[t * per + i].submit_ns = r[t * per + i].complete_ns - 30000000;
		for (size_t i = per / 2; gap_ns && i < per; i++) {	/* every thread idle */
			r[t * per + i].submit_ns += gap_ns;
			r[t * per + i].complete_ns += gap_ns;
		}
		if (t == 2 && ooo) {	/* a completion out of order, 3 intervals back */
			r[t * per + per / 3].complete_ns -= 15000000;
			r[t * per + per / 3].submit_ns -= 15000000;
		}
		snprintf(name, sizeof(name), "grouped.%zu.nvt", t + 1);
		j->paths[t] = strdup(tpath(name));
		err = j->paths[t] ? put_job_trace(j->paths[t], JOB, r + t * per, per) : -ENOMEM;
	}
	if (!err)
		err = merge_by_completion(r, nth, per, m);
	j->paths[nth] = strdup(tpath("merged.nvt"));
	if (!err)
		err = j->paths[nth] ? put_job_trace(j->paths[nth], JOB, m, nth * per) : -ENOMEM;
	free(r);
	free(m);
	return err;
}

static void free_job(struct job *j)
{
	for (size_t i = 0; i <= j->n; i++) {
		if (j->paths[i])
			unlink(j->paths[i]);
		free(j->paths[i]);
	}
}

/* Return: true when a and b are the same bits (exact sums: any order). */
static bool same_double(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

static bool same_latsum(const struct nv_latsum *a, const struct nv_latsum *b)
{
	return a->n == b->n && a->min == b->min && a->max == b->max &&
	       same_double(a->mean, b->mean) && same_double(a->stdev, b->stdev) &&
	       !memcmp(a->pct, b->pct, sizeof(a->pct)) && a->nlv == b->nlv &&
	       !memcmp(a->lv, b->lv, a->nlv * sizeof(a->lv[0]));
}

/*
 * a and b the same: every count, series point, percentile, spike and note;
 * bits: the passes too.
 * Return: true when they are.
 */
static bool same_tan(const struct nv_tan *a, const struct nv_tan *b, bool bits)
{
	bool ok = a->records == b->records && a->ramp_records == b->ramp_records &&
		  a->t0 == b->t0 && a->span_ns == b->span_ns && a->nint == b->nint &&
		  a->nqd == b->nqd && a->nspikes == b->nspikes &&
		  a->nnotes == b->nnotes &&
		  (!bits || a->passes == b->passes) &&
		  !memcmp(a->bucket, b->bucket, sizeof(a->bucket)) &&
		  !memcmp(a->spike_threshold_ns, b->spike_threshold_ns,
			  sizeof(a->spike_threshold_ns));

	for (unsigned k = 0; ok && k < NV_TAN_NOPS; k++) {
		const struct nv_tan_op *x = &a->op[k], *y = &b->op[k];

		ok = x->records == y->records && x->bytes == y->bytes && x->errors == y->errors &&
		     same_latsum(&x->lat, &y->lat) && x->hist_lo == y->hist_lo &&
		     x->hist_n == y->hist_n && !x->hist == !y->hist &&
		     (!x->hist || !memcmp(x->hist, y->hist, x->hist_n * sizeof(*x->hist))) &&
		     !a->series[k] == !b->series[k] &&
		     (!a->series[k] ||
		      !memcmp(a->series[k], b->series[k], a->nint * sizeof(*a->series[k])));
	}
	for (size_t i = 0; ok && i < a->nqd; i++)
		ok = a->qd[i].op == b->qd[i].op && a->qd[i].qd_lo == b->qd[i].qd_lo &&
		     same_latsum(&a->qd[i].lat, &b->qd[i].lat);
	for (size_t i = 0; ok && i < a->nspikes; i++)
		ok = !memcmp(&a->spikes[i], &b->spikes[i], sizeof(a->spikes[i]));
	for (size_t i = 0; ok && i < a->nnotes; i++)
		ok = !strcmp(a->notes[i], b->notes[i]);
	return ok;
}

/* nv_tan_run of paths[0..n) on workers threads.  Return: its result. */
static int run(char *const *paths, size_t n, unsigned workers, struct nv_tan *t)
{
	struct nv_tan_opts o = {
		.interval_ns = 5000000, .workers = workers,
		.nedges = 2, .edges = { 20000, 100000 },
		.nlevels = 1, .levels = { 99.99 },
	};
	char err[1024];
	int ret = nv_tan_run((const char *const *)paths, n, &o, t, err, sizeof(err));

	if (ret)
		fprintf(stderr, "nv_tan_run: %s\n", err);
	return ret;
}

/* Job j: 1 and 4 workers the same bit for bit, and the merged trace's results. */
static void check_job(struct job *j)
{
	struct nv_tan t1, t4, tm;

	CHECK(!run(j->paths, j->n, 1, &t1));
	CHECK(!run(j->paths, j->n, 4, &t4));
	CHECK(!run(j->paths + j->n, 1, 1, &tm));
	CHECK(t1.records > 0 && t1.nint > 3);
	CHECK(same_tan(&t1, &t4, true));
	CHECK(same_tan(&t1, &tm, false));
	nv_tan_free(&t1);
	nv_tan_free(&t4);
	nv_tan_free(&tm);
}

TEST(four_threads_mixed)
{
	struct job j;

	CHECK(!make_job(&j, 4, GEN_MIXED, 8, 30000));
	check_job(&j);
	free_job(&j);
}

TEST(sixteen_threads_spiky_reads)
{
	struct job j;
	struct nv_tan t;

	CHECK(!make_job(&j, 16, GEN_RANDREAD, 4, 6000));
	check_job(&j);
	CHECK(!run(j.paths, j.n, 3, &t));
	CHECK(t.nspikes > 0);	/* the slow tails: the candidates merged too */
	nv_tan_free(&t);
	free_job(&j);
}

/* A completion out of order: the same intervals as the merged stream's. */
TEST(out_of_order_completion)
{
	struct job j;

	ooo = true;
	CHECK(!make_job(&j, 4, GEN_MIXED, 8, 30000));
	check_job(&j);
	setenv("NVANALYZE_SERIES_CAP", "64", 1);
	check_job(&j);
	unsetenv("NVANALYZE_SERIES_CAP");
	ooo = false;
	free_job(&j);
}

/*
 * Every thread idle for 12 intervals halfway (mid-block): the threads that
 * went on to their block's end into the next interval's sets stop at the
 * first IO after the idle time, so no thread has the next interval as its
 * head and that interval is closed from the sets alone.
 */
TEST(idle_intervals_in_every_thread)
{
	struct job j;

	gap_ns = 60000000;
	CHECK(!make_job(&j, 4, GEN_RANDREAD, 8, 30000));
	check_job(&j);
	gap_ns = 0;
	free_job(&j);
}

/* Intervals whose lists overflow: resolved by a second read, the same. */
TEST(spilled_intervals)
{
	struct job j;

	CHECK(!make_job(&j, 4, GEN_MIXED, 8, 20000));
	setenv("NVANALYZE_SERIES_CAP", "64", 1);
	check_job(&j);
	setenv("NVANALYZE_SERIES_LIST", "64", 1);
	unsetenv("NVANALYZE_SERIES_CAP");
	check_job(&j);
	unsetenv("NVANALYZE_SERIES_LIST");
	free_job(&j);
}

/* Return: the index of the note of t that holds s, or -1. */
static long note_with(const struct nv_tan *t, const char *s)
{
	for (size_t i = 0; i < t->nnotes; i++)
		if (strstr(t->notes[i], s))
			return (long)i;
	return -1;
}

/* A byte of path's middle flipped.  Return: 0 or -errno. */
static int damage(const char *path)
{
	FILE *f = fopen(path, "r+b");
	long size;
	int c;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 2 || fseek(f, size / 2, SEEK_SET) ||
	    (c = fgetc(f)) == EOF || fseek(f, size / 2, SEEK_SET) || fputc(c ^ 0x04, f) == EOF) {
		if (f)
			fclose(f);
		return -EIO;
	}
	return fclose(f) ? -EIO : 0;
}

TEST(damaged_and_missing_traces)
{
	struct job j;
	struct nv_tan t1, t4, good;
	char *gone;

	CHECK(!make_job(&j, 4, GEN_RANDREAD, 8, 20000));
	CHECK(!run(j.paths, j.n, 1, &good));
	CHECK(!damage(j.paths[1]));
	CHECK(!run(j.paths, j.n, 1, &t1));
	CHECK(!run(j.paths, j.n, 4, &t4));
	CHECK(same_tan(&t1, &t4, true));
	CHECK(t1.records < good.records && t1.records > good.records * 3 / 4);
	CHECK(note_with(&t1, j.paths[1]) >= 0 &&
	      strstr(t1.notes[note_with(&t1, j.paths[1])], "the rest of this trace is left out"));
	nv_tan_free(&t1);
	nv_tan_free(&t4);

	gone = j.paths[1];	/* a trace that is not there: left out */
	j.paths[1] = strdup(tpath("not-there.nvt"));
	CHECK(!run(j.paths, j.n, 1, &t1));
	CHECK(!run(j.paths, j.n, 4, &t4));
	CHECK(same_tan(&t1, &t4, true));
	CHECK(t1.records == good.records * 3 / 4);
	CHECK(note_with(&t1, "not-there.nvt: ") >= 0 &&
	      note_with(&t1, "this trace is left out") >= 0);
	nv_tan_free(&t1);
	nv_tan_free(&t4);
	nv_tan_free(&good);
	free(j.paths[1]);
	j.paths[1] = gone;

	free_job(&j);
}

/* No trace gives a record (one missing, one damaged in its only block): the job fails. */
TEST(no_trace_readable)
{
	struct nvt_record r[500];
	char *paths[2] = { strdup(tpath("gone.nvt")), strdup(tpath("one.nvt")) };
	struct nv_tan t;
	struct gen g;

	gen_init(&g, GEN_RANDREAD, 8, 7);
	for (size_t i = 0; i < 500; i++)
		gen_record(&g, &r[i]);
	CHECK(paths[0] && paths[1] && !put_job_trace(paths[1], JOB, r, 500) && !damage(paths[1]));
	CHECK(run(paths, 2, 1, &t) < 0);
	CHECK(run(paths, 2, 4, &t) < 0);
	unlink(paths[1]);
	free(paths[0]);
	free(paths[1]);
}

int main(void)
{
	if (tmpdir_make("trace_merge"))
		return 1;
	RUN(four_threads_mixed);
	RUN(sixteen_threads_spiky_reads);
	RUN(out_of_order_completion);
	RUN(idle_intervals_in_every_thread);
	RUN(spilled_intervals);
	RUN(damaged_and_missing_traces);
	RUN(no_trace_readable);
	tmpdir_remove();
	return check_summary();
}
