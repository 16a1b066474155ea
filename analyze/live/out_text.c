/*
 * out_text.c - `nvanalyze watch --format text`: one line per closed
 * interval and operation, per finding and per job's end, flushed, for logs:
 *
 *   randrw read #12 12-13 s: 20,000 IO/s 81.9 MB/s p50 95.2 us p99 ... errors 0
 *
 * Values formatted as the reports format them (format.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/live/watch.h"
#include "analyze/report/format.h"

struct text {
	FILE *out;
};

/* Flush s's stream.  Return: 0, or -EIO (said on stderr). */
static int flushed(struct text *s)
{
	if (!ferror(s->out) && !fflush(s->out))
		return 0;
	fprintf(stderr, "nvanalyze watch: writing the lines: %s\n", strerror(errno));
	return -EIO;
}

/* "20,000 IO/s 81.9 MB/s p50 95.2 us p99 ... max ... errors N" into buf. */
static void rates(char *buf, size_t n, double iops, double mbps, uint64_t ios,
		  const uint64_t lat[4], uint64_t errors)
{
	static const char *const name[4] = { "p50", "p99", "p99.9", "max" };
	char v[4][32], io[32], mb[32];

	nv_fmt_value(io, sizeof(io), iops, NV_U_IOPS);
	nv_fmt_value(mb, sizeof(mb), mbps, NV_U_MBPS);
	for (unsigned i = 0; i < 4; i++)
		nv_fmt_value(v[i], sizeof(v[i]), (double)lat[i], NV_U_NS);
	if (!ios) {
		snprintf(buf, n, "no IO, errors %llu", (unsigned long long)errors);
		return;
	}
	snprintf(buf, n, "%s IO/s %s %s %s %s %s %s %s %s %s errors %llu", io, mb, name[0], v[0],
		 name[1], v[1], name[2], v[2], name[3], v[3], (unsigned long long)errors);
}

static int on_job(void *arg, const struct nv_live_job *j)
{
	struct text *s = arg;

	fprintf(s->out, "%s: job on %s, %zu thread%s, intervals of %g s\n", j->job, j->host,
		j->nthreads, j->nthreads == 1 ? "" : "s", (double)j->interval_ns / 1e9);
	return flushed(s);
}

static int on_interval(void *arg, const struct nv_live_interval *l)
{
	const struct nv_tan_iv *iv = &l->iv;
	const uint64_t lat[4] = { iv->p50_ns, iv->p99_ns, iv->p999_ns, iv->max_ns };
	struct text *s = arg;
	char r[256];

	rates(r, sizeof(r), iv->iops, iv->mb_per_s, iv->ios, lat, iv->errors);
	fprintf(s->out, "%s %s #%zu %.4g-%.4g s: %s\n", l->job, nv_live_op_name(iv->op),
		iv->index, iv->start_s, iv->end_s, r);
	return flushed(s);
}

static int on_finding(void *arg, const struct nv_live_finding *f)
{
	struct text *s = arg;

	if (f->job)
		fprintf(s->out, "%s %s at %.1f s: %s\n", f->job, f->kind, f->at_s, f->text);
	else
		fprintf(s->out, "watch %s: %s\n", f->kind, f->text);
	return flushed(s);
}

static int on_end(void *arg, const struct nv_live_end *e)
{
	const uint64_t lat[4] = { e->p50_ns, e->p99_ns, e->p999_ns, e->max_ns };
	struct text *s = arg;
	char r[256];

	rates(r, sizeof(r), e->iops, e->mb_per_s, e->ios, lat, e->errors);
	fprintf(s->out, "%s %s total over %.3g s%s: %s\n", e->job, e->op, e->span_s,
		e->complete ? "" : " (no footer: the complete blocks)", r);
	return flushed(s);
}

static void on_close(void *arg)
{
	free(arg);
}

int nv_live_text_sink(FILE *out, struct nv_live_sink *s)
{
	struct text *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->out = out;
	*s = (struct nv_live_sink){
		.job = on_job, .interval = on_interval, .finding = on_finding, .end = on_end,
		.close = on_close, .arg = t,
	};
	return 0;
}
