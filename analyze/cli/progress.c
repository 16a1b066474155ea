/*
 * progress.c - the progress line on a terminal (see progress.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "analyze/common.h"
#include "analyze/cli/progress.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void nv_progress_start(struct nv_progress *p, FILE *out)
{
	const char *env = getenv("NVANALYZE_PROGRESS_DELAY");
	double d;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->on = isatty(fileno(out));
	p->start = now_s();
	p->delay = NV_PROGRESS_DELAY_S;
	if (env && !nv_parse_double(env, &d) && d >= 0)
		p->delay = d;
}

/* The terminal's width, or 80 when it does not say. */
static size_t columns(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

/*
 * The line's text: "nvanalyze: reading NAME (trace 1 of 2), pass 1: ...",
 * after "nvanalyze: jobs 3 of 12 done, 2 at work: " for a join of several jobs.
 */
static void line_text(char *buf, size_t n, const struct nv_tan_progress *t)
{
	const char *name = strrchr(t->path, '/') ? strrchr(t->path, '/') + 1 : t->path;
	size_t l = (size_t)snprintf(buf, n, "nvanalyze: ");

	/* the join's count over all workers first: kept when cut */
	if (t->njobs > 1 && l < n)
		l += (size_t)snprintf(buf + l, n - l, "jobs %zu of %zu done, %u at work: ",
				      t->jobs_done, t->njobs, t->jobs_busy);
	if (l < n)
		l += (size_t)snprintf(buf + l, n - l, "reading %s", name);
	if (t->nfiles > 1 && l < n)
		l += (size_t)snprintf(buf + l, n - l, " (trace %zu of %zu)", t->file + 1,
				      t->nfiles);
	if (l < n)
		l += (size_t)snprintf(buf + l, n - l, ", pass %u: %llu", t->pass,
				      (unsigned long long)t->records);
	if (l >= n)
		return;
	if (t->total)
		snprintf(buf + l, n - l, " of %llu records (%.0f%%)", (unsigned long long)t->total,
			 100.0 * (double)t->records / (double)t->total);
	else if (t->total_bytes)
		snprintf(buf + l, n - l, " records (%.0f%% of the bytes)",
			 100.0 * (double)t->bytes / (double)t->total_bytes);
	else
		snprintf(buf + l, n - l, " records");
}

void nv_progress_tan(const struct nv_tan_progress *t, void *arg)
{
	struct nv_progress *p = arg;
	char buf[512];
	size_t w;
	double now;

	if (!p->on || t->done)
		return;
	now = now_s();
	if (now - p->start < p->delay || (p->shown && now - p->last < 1.0 / NV_PROGRESS_HZ))
		return;
	p->last = now;
	line_text(buf, sizeof(buf), t);
	w = columns(p->out) - 1;	/* never wrap: \r returns to this line only */
	if (strlen(buf) > w)
		buf[w] = 0;
	fprintf(p->out, "\r%s\033[K", buf);
	fflush(p->out);
	p->shown = true;
}

void nv_progress_end(struct nv_progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->shown = false;
}
