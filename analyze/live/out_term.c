/*
 * out_term.c - `nvanalyze watch` on a terminal: the screen redrawn as
 * intervals close, like top: per job and operation a row of the last
 * interval and one of the run so far (IO/s, MB/s, p50, p99, p99.9, max,
 * errors), a sparkline of p99 over the last minute, the latest findings;
 * at the end the totals (exact, the post-run analysis's).  The so-far
 * percentiles come from the intervals' bucket counts summed: to 1/256 of a
 * power of two, marked "~".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/live/watch.h"
#include "analyze/report/format.h"
#include "analyze/stats/exact.h"

#define SPARK_S 60.0		/* the sparkline's window */
#define SPARK_MAX 120		/* its points at most */
#define NFIND 6			/* findings shown */

struct row {
	char *job, *op;
	struct nv_tan_iv last;	/* the last interval */
	bool have_last;
	uint64_t ios, bytes, errors, max;
	double end_s;
	uint64_t *hist;		/* the intervals' bucket counts summed */
	unsigned lo, hi;
	uint64_t spark[SPARK_MAX];
	size_t nspark;		/* values in spark, newest at (nspark - 1) % SPARK_MAX */
	struct nv_live_end end;
	bool ended;
};

struct term {
	FILE *out;
	struct row *rows;
	size_t nrows;
	size_t spark_n;		/* points in the window: SPARK_S / interval */
	char *find[NFIND];
	size_t nfind;
	size_t jobs, jobs_ended;
	bool utf8;
	double drawn;		/* when the screen was last drawn (monotonic s) */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The row of job and op, added at the end.  Return: it, or NULL (out of memory). */
static struct row *row_of(struct term *t, const char *job, const char *op)
{
	struct row *r;

	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].job, job) && !strcmp(t->rows[i].op, op))
			return &t->rows[i];
	if (!(r = realloc(t->rows, (t->nrows + 1) * sizeof(*r))))
		return NULL;
	t->rows = r;
	r = &t->rows[t->nrows];
	memset(r, 0, sizeof(*r));
	r->job = strdup(job);
	r->op = strdup(op);
	if (!r->job || !r->op) {
		free(r->job);
		free(r->op);
		return NULL;
	}
	t->nrows++;
	return r;
}

/* p99 over the window as a sparkline into buf (n bytes).  Return: nothing. */
static void sparkline(const struct term *t, const struct row *r, char *buf, size_t n)
{
	static const char *const u8[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					   "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[8] = { '_', '.', ',', '-', '=', '+', '*', '#' };
	size_t k = r->nspark < t->spark_n ? r->nspark : t->spark_n, len = 0;
	uint64_t lo = UINT64_MAX, hi = 0;

	buf[0] = 0;
	for (size_t i = r->nspark - k; i < r->nspark; i++) {
		uint64_t v = r->spark[i % SPARK_MAX];

		lo = v && v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	for (size_t i = r->nspark - k; i < r->nspark && len + 4 < n; i++) {
		uint64_t v = r->spark[i % SPARK_MAX];
		unsigned lv = 0;

		if (!v) {
			buf[len++] = ' ';
			continue;
		}
		if (hi > lo)	/* relative to the window's range */
			lv = (unsigned)((double)(v - lo) / (double)(hi - lo) * 7.0 + 0.5);
		if (t->utf8) {
			memcpy(buf + len, u8[lv], 3);
			len += 3;
		} else {
			buf[len++] = ascii[lv];
		}
	}
	buf[len] = 0;
}

/* One line of values.  Return: nothing. */
static void values(FILE *f, const char *label, double iops, double mbps,
		   const uint64_t lat[4], bool approx, uint64_t errors, const char *tail)
{
	char v[6][32];

	nv_fmt_value(v[0], sizeof(v[0]), iops, NV_U_IOPS);
	nv_fmt_value(v[1], sizeof(v[1]), mbps, NV_U_MBPS);
	for (unsigned i = 0; i < 4; i++) {
		v[2 + i][0] = approx && i < 3 ? '~' : ' ';
		nv_fmt_value(v[2 + i] + 1, sizeof(v[2 + i]) - 1, (double)lat[i], NV_U_NS);
	}
	fprintf(f, "%-24.24s %10s %12s %11s %11s %11s %11s %6llu  %s\033[K\n", label, v[0], v[1],
		v[2], v[3], v[4], v[5], (unsigned long long)errors, tail);
}

/* The run-so-far percentiles of r.  Return: nothing. */
static void so_far(const struct row *r, uint64_t lat[4])
{
	static const double lv[3] = { 50, 99, 99.9 };

	for (unsigned i = 0; i < 3; i++)
		lat[i] = r->ios ? nv_tan_hist_rank(r->hist, r->lo, r->hi,
						   nv_exact_rank(lv[i], r->ios) - 1) : 0;
	lat[3] = r->max;
}

/* Redraw the screen.  Return: 0 or -EIO. */
static int draw(struct term *t)
{
	FILE *f = t->out;
	char label[64], spark[SPARK_MAX * 3 + 1];

	t->drawn = now_s();
	fprintf(f, "\033[H");
	fprintf(f, "nvanalyze watch: %zu job%s, %zu ended\033[K\n\033[K\n", t->jobs,
		t->jobs == 1 ? "" : "s", t->jobs_ended);
	fprintf(f, "%-24s %10s %12s %11s %11s %11s %11s %6s  %s\033[K\n", "JOB OP", "IO/s",
		"MB/s", "p50", "p99", "p99.9", "max", "errors", "p99, last minute");
	for (size_t i = 0; i < t->nrows; i++) {
		struct row *r = &t->rows[i];
		const struct nv_tan_iv *l = &r->last;
		uint64_t lat[4] = { l->p50_ns, l->p99_ns, l->p999_ns, l->max_ns };
		double span = r->end_s > 0 ? r->end_s : 1;

		sparkline(t, r, spark, sizeof(spark));
		if (r->ended) {
			const struct nv_live_end *e = &r->end;
			uint64_t el[4] = { e->p50_ns, e->p99_ns, e->p999_ns, e->max_ns };

			snprintf(label, sizeof(label), "%s %s", r->job, r->op);
			values(f, label, e->iops, e->mb_per_s, el, false, e->errors,
			       e->complete ? "total" : "total (no footer)");
			continue;
		}
		snprintf(label, sizeof(label), "%s %s %g s", r->job, r->op, l->end_s);
		values(f, label, l->iops, l->mb_per_s, lat, false, l->errors, spark);
		so_far(r, lat);
		values(f, "  so far", (double)r->ios / span, (double)r->bytes / 1e6 / span, lat,
		       true, r->errors, "");
	}
	fprintf(f, "\033[K\nfindings:\033[K\n");
	for (size_t i = 0; i < t->nfind; i++)
		fprintf(f, "  %s\033[K\n", t->find[i]);
	fprintf(f, "\033[J");
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* Redraw unless drawn in the last 0.1 s (several rows close at once).  Return: draw's. */
static int redraw(struct term *t)
{
	return now_s() - t->drawn < 0.1 ? 0 : draw(t);
}

static int on_job(void *arg, const struct nv_live_job *j)
{
	struct term *t = arg;
	double n = SPARK_S / ((double)j->interval_ns / 1e9);

	t->jobs++;
	t->spark_n = n < 1 ? 1 : n > SPARK_MAX ? SPARK_MAX : (size_t)n;
	return redraw(t);
}

static int on_interval(void *arg, const struct nv_live_interval *l)
{
	const struct nv_tan_iv *iv = &l->iv;
	struct term *t = arg;
	struct row *r = row_of(t, l->job, nv_live_op_name(iv->op));

	if (!r || (!r->hist && !(r->hist = calloc(NV_EXACT_NBUCKETS, sizeof(*r->hist)))))
		return -ENOMEM;
	r->last = *iv;
	r->have_last = true;
	r->ios += iv->ios;
	r->bytes += iv->bytes;
	r->errors += iv->errors;
	r->max = iv->max_ns > r->max ? iv->max_ns : r->max;
	r->end_s = iv->end_s;
	if (l->hist) {
		if (r->ios == iv->ios)
			r->lo = l->hist_lo, r->hi = l->hist_hi;
		r->lo = l->hist_lo < r->lo ? l->hist_lo : r->lo;
		r->hi = l->hist_hi > r->hi ? l->hist_hi : r->hi;
		for (unsigned h = l->hist_lo; h <= l->hist_hi; h++)
			r->hist[h] += l->hist[h];
	}
	r->spark[r->nspark++ % SPARK_MAX] = iv->p99_ns;
	return redraw(t);
}

static int on_finding(void *arg, const struct nv_live_finding *f)
{
	struct term *t = arg;
	char *s;

	if (asprintf(&s, "%s%s%s at %.1f s: %s", f->job ? f->job : "watch", " ", f->kind,
		     f->at_s, f->text) < 0)
		return -ENOMEM;
	if (t->nfind == NFIND) {
		free(t->find[0]);
		memmove(t->find, t->find + 1, (NFIND - 1) * sizeof(t->find[0]));
		t->nfind--;
	}
	t->find[t->nfind++] = s;
	return draw(t);
}

static int on_end(void *arg, const struct nv_live_end *e)
{
	struct term *t = arg;
	struct row *r = row_of(t, e->job, e->op);

	if (!r)
		return -ENOMEM;
	r->end = *e;
	r->ended = true;
	t->jobs_ended = 0;
	for (size_t i = 0; i < t->nrows; i++)	/* a job ends with its rows */
		t->jobs_ended += t->rows[i].ended && (i + 1 == t->nrows ||
				 strcmp(t->rows[i + 1].job, t->rows[i].job));
	return draw(t);
}

static void on_close(void *arg)
{
	struct term *t = arg;

	draw(t);
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].job);
		free(t->rows[i].op);
		free(t->rows[i].hist);
	}
	for (size_t i = 0; i < t->nfind; i++)
		free(t->find[i]);
	free(t->rows);
	free(t);
}

int nv_live_term_sink(FILE *out, struct nv_live_sink *s)
{
	struct term *t = calloc(1, sizeof(*t));
	const char *lang = getenv("LC_ALL");

	if (!t)
		return -ENOMEM;
	if (!lang || !*lang)
		lang = getenv("LC_CTYPE");
	if (!lang || !*lang)
		lang = getenv("LANG");
	t->utf8 = lang && (strstr(lang, "UTF-8") || strstr(lang, "utf8") ||
			   strstr(lang, "UTF8") || strstr(lang, "utf-8"));
	t->out = out;
	t->spark_n = 60;
	fprintf(out, "\033[H\033[2J");
	*s = (struct nv_live_sink){
		.job = on_job, .interval = on_interval, .finding = on_finding, .end = on_end,
		.close = on_close, .arg = t,
	};
	return 0;
}
