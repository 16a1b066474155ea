/*
 * live_state.c - the state the HTTP output serves (live_state.h): the
 * watcher's records kept under a lock, bounded, and copied for a request.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/live/live_state.h"
#include "analyze/report/escape.h"

int nv_live_state_init(struct nv_live_state *st)
{
	memset(st, 0, sizeof(*st));
	return -pthread_mutex_init(&st->mu, NULL);
}

/*
 * A job record freed.
 * Return: nothing.
 */
static void jobrec_free(struct nv_live_jobrec *jr)
{
	free(jr->job);
	free(jr->host);
	free(jr->label);
	free(jr->prom);
	free(jr);
}

void nv_live_state_free(struct nv_live_state *st)
{
	for (size_t i = 0; i < st->nseries; i++) {
		free(st->series[i]->op);
		free(st->series[i]->prom);
		free(st->series[i]);
	}
	for (size_t i = 0; i < st->njobs; i++)
		jobrec_free(st->jobs[i]);
	pthread_mutex_destroy(&st->mu);
	memset(st, 0, sizeof(*st));
}

/*
 * A record past a limit: counted, said once.
 * Return: 0 (the watch goes on).
 */
static int dropped(struct nv_live_state *st, const char *what)
{
	if (!st->dropped++)
		fprintf(stderr, "nvanalyze watch: --listen: more than %s; the rest is counted in "
			"nvengine_live_dropped_total and not served\n", what);
	return 0;
}

/*
 * The record of job on host (NULL host: ""), created at its first record.
 * Return: it, or NULL past NV_LIVE_MAX_JOBS or out of memory.
 */
static struct nv_live_jobrec *job_of(struct nv_live_state *st, const char *job, const char *host)
{
	struct nv_live_jobrec *jr;

	host = host ? host : "";
	for (size_t i = 0; i < st->njobs; i++)
		if (!strcmp(st->jobs[i]->job, job) && !strcmp(st->jobs[i]->host, host))
			return st->jobs[i];
	if (st->njobs == NV_LIVE_MAX_JOBS || !(jr = calloc(1, sizeof(*jr))))
		return NULL;
	jr->job = strdup(job);
	jr->host = strdup(host);
	jr->label = nv_esc_dup(job, NV_FMT_TEXT);
	jr->prom = nv_live_prom_labels(job, NULL, host);
	if (!jr->job || !jr->host || !jr->label || !jr->prom) {
		jobrec_free(jr);
		return NULL;
	}
	st->jobs[st->njobs++] = jr;
	if (!st->host)
		st->host = jr->host;
	return jr;
}

/*
 * The series of jr's op, created at its first interval.
 * Return: it, or NULL past NV_LIVE_MAX_SERIES or out of memory.
 */
static struct nv_live_series *series_of(struct nv_live_state *st, struct nv_live_jobrec *jr,
					const char *op)
{
	struct nv_live_series *s;

	for (size_t i = 0; i < st->nseries; i++)
		if (st->series[i]->jr == jr && !strcmp(st->series[i]->op, op))
			return st->series[i];
	if (st->nseries == NV_LIVE_MAX_SERIES || !(s = calloc(1, sizeof(*s))))
		return NULL;
	s->jr = jr;
	s->op = strdup(op);
	s->prom = nv_live_prom_labels(jr->job, op, jr->host);
	if (!s->op || !s->prom) {
		free(s->op);
		free(s->prom);
		free(s);
		return NULL;
	}
	st->series[st->nseries++] = s;
	return s;
}

/* The hooks (live.h): each under the lock, O(jobs + series) at most. */
static int hook_job(void *arg, const struct nv_live_job *j)
{
	struct nv_live_state *st = arg;
	struct nv_live_jobrec *jr;

	pthread_mutex_lock(&st->mu);
	jr = job_of(st, j->job, j->host);
	if (jr) {
		jr->nthreads = j->nthreads;
		jr->interval_ns = j->interval_ns;
		jr->start_unix_ms = j->start_unix_ms;
	} else {
		dropped(st, "256 jobs");
	}
	pthread_mutex_unlock(&st->mu);
	return 0;
}

/*
 * iv added to s: the counters, the histogram, the last interval, the ring.
 * Return: nothing.
 */
static void series_add(struct nv_live_series *s, const struct nv_live_interval *iv, uint64_t seq)
{
	struct nv_live_point p = { .seq = seq, .iv = iv->iv, .end_unix_ms = iv->end_unix_ms };

	s->t.ios += iv->iv.ios;
	s->t.bytes += iv->iv.bytes;
	s->t.errors += iv->iv.errors;
	s->t.lat_sum_ns += iv->lat_sum_ns;
	for (size_t i = 0; i < NV_LIVE_NLE; i++)
		s->t.le[i] += iv->le[i];
	s->t.le_inf += iv->le_inf;
	s->t.last = p;
	s->t.have_last = true;
	s->ring[s->head] = p;
	s->head = (s->head + 1) % NV_LIVE_RING;
	if (s->n < NV_LIVE_RING)
		s->n++;
}

static int hook_interval(void *arg, const struct nv_live_interval *iv)
{
	struct nv_live_state *st = arg;
	struct nv_live_jobrec *jr;
	struct nv_live_series *s = NULL;

	pthread_mutex_lock(&st->mu);
	jr = job_of(st, iv->job, iv->host);
	if (jr)
		s = series_of(st, jr, nv_live_op_name(iv->iv.op));
	if (s)
		series_add(s, iv, ++st->seq);
	else
		dropped(st, jr ? "512 jobs and ops" : "256 jobs");
	pthread_mutex_unlock(&st->mu);
	return 0;
}

/*
 * src into dst (n bytes), cut at a character boundary with "..." when
 * longer (a finding's text is one line; the kept part is what is shown).
 * Return: nothing.
 */
static void copy_cut(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src), keep = len;

	if (len >= n) {
		keep = n - 4;
		while (keep && ((unsigned char)src[keep] & 0xc0) == 0x80)
			keep--;
	}
	memcpy(dst, src, keep);
	strcpy(dst + keep, len >= n ? "..." : "");
}

static int hook_finding(void *arg, const struct nv_live_finding *f)
{
	struct nv_live_state *st = arg;
	struct nv_live_note *n;

	pthread_mutex_lock(&st->mu);
	n = &st->notes[st->nnotes++ % NV_LIVE_FINDINGS];
	memset(n, 0, sizeof(*n));
	n->seq = ++st->seq;
	n->jr = f->job ? job_of(st, f->job, f->host) : NULL;
	n->at_s = f->at_s;
	copy_cut(n->kind, sizeof(n->kind), f->kind ? f->kind : "");
	copy_cut(n->text, sizeof(n->text), f->text ? f->text : "");
	pthread_mutex_unlock(&st->mu);
	return 0;
}

static int hook_health(void *arg, const struct nv_live_health *h)
{
	struct nv_live_state *st = arg;
	struct nv_live_jobrec *jr;

	pthread_mutex_lock(&st->mu);
	st->jobs_seen = h->jobs_seen;
	st->jobs_ended = h->jobs_ended;
	if (h->job && (jr = job_of(st, h->job, h->host))) {
		jr->health = true;
		jr->io_wait_s = h->io_wait_s;
		jr->behind_s = h->behind_s;
	}
	pthread_mutex_unlock(&st->mu);
	return 0;
}

static int hook_end(void *arg, const struct nv_live_end *e)
{
	struct nv_live_state *st = arg;
	struct nv_live_jobrec *jr;

	pthread_mutex_lock(&st->mu);
	if ((jr = job_of(st, e->job, e->host))) {
		jr->ended = true;
		jr->complete = e->complete;
	}
	pthread_mutex_unlock(&st->mu);
	return 0;
}

void nv_live_state_hooks(struct nv_live_state *st, struct nv_live_sink *out)
{
	*out = (struct nv_live_sink){
		.job = hook_job, .interval = hook_interval, .finding = hook_finding,
		.health = hook_health, .end = hook_end, .arg = st, .want_le = true,
	};
}

void nv_live_snap_free(struct nv_live_snap *sn)
{
	free(sn->series);
	free(sn->jobs);
	free(sn->points);
	free(sn->point_series);
	free(sn->notes);
	memset(sn, 0, sizeof(*sn));
}

/*
 * The intervals of the rings with seq > since copied into sn, oldest first
 * per series.
 * Return: 0 or -ENOMEM.
 */
static int snap_points(const struct nv_live_state *st, uint64_t since, struct nv_live_snap *sn)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nseries; i++)
		n += st->series[i]->n;
	sn->points = malloc((n ? n : 1) * sizeof(*sn->points));
	sn->point_series = malloc((n ? n : 1) * sizeof(*sn->point_series));
	if (!sn->points || !sn->point_series)
		return -ENOMEM;
	for (size_t i = 0; i < st->nseries; i++) {
		const struct nv_live_series *s = st->series[i];

		for (size_t k = 0; k < s->n; k++) {
			const struct nv_live_point *p =
				&s->ring[(s->head + NV_LIVE_RING - s->n + k) % NV_LIVE_RING];

			if (p->seq <= since)
				continue;
			sn->point_series[sn->npoints] = i;
			sn->points[sn->npoints++] = *p;
		}
	}
	return 0;
}

/*
 * The findings with seq > since copied into sn, oldest first.
 * Return: 0 or -ENOMEM.
 */
static int snap_notes(const struct nv_live_state *st, uint64_t since, struct nv_live_snap *sn)
{
	size_t kept = st->nnotes < NV_LIVE_FINDINGS ? st->nnotes : NV_LIVE_FINDINGS;

	if (!(sn->notes = malloc((kept ? kept : 1) * sizeof(*sn->notes))))
		return -ENOMEM;
	for (size_t k = st->nnotes - kept; k < st->nnotes; k++) {
		const struct nv_live_note *n = &st->notes[k % NV_LIVE_FINDINGS];

		if (n->seq > since)
			sn->notes[sn->nnotes++] = *n;
	}
	return 0;
}

int nv_live_snap(struct nv_live_state *st, uint64_t since, bool want_points,
		 struct nv_live_snap *sn)
{
	int ret = -ENOMEM;

	memset(sn, 0, sizeof(*sn));
	pthread_mutex_lock(&st->mu);
	sn->series = malloc((st->nseries ? st->nseries : 1) * sizeof(*sn->series));
	sn->jobs = malloc((st->njobs ? st->njobs : 1) * sizeof(*sn->jobs));
	if (!sn->series || !sn->jobs)
		goto out;
	for (size_t i = 0; i < st->nseries; i++) {
		sn->series[i].s = st->series[i];
		sn->series[i].t = st->series[i]->t;
	}
	for (size_t i = 0; i < st->njobs; i++)
		sn->jobs[i] = *st->jobs[i];
	sn->nseries = st->nseries;
	sn->njobs = st->njobs;
	if ((want_points && (ret = snap_points(st, since, sn))) ||
	    (ret = snap_notes(st, since, sn)))
		goto out;
	sn->seq = st->seq;
	sn->dropped = st->dropped;
	sn->jobs_seen = st->jobs_seen;
	sn->jobs_ended = st->jobs_ended;
	sn->host = st->host;
	ret = 0;
out:
	pthread_mutex_unlock(&st->mu);
	if (ret)
		nv_live_snap_free(sn);
	return ret;
}
