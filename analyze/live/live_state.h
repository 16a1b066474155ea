/*
 * live_state.h - what the HTTP output keeps of a watch (private to
 * live_state.c, live_prom.c, live_page.c and live_http.c): per job and op
 * the counters, the histogram and a ring of the last NV_LIVE_RING closed
 * intervals; per job its health; a ring of the last findings.  The
 * watcher's hooks update it under mu; a request copies what it shows under
 * mu (nv_live_snap) and renders the copy without it.  Jobs and series are
 * never freed before the state, and their names never change, so a copy
 * may point at them.
 *
 * Memory: at most NV_LIVE_MAX_JOBS jobs and NV_LIVE_MAX_SERIES series
 * (each ~NV_LIVE_RING * 112 bytes), NV_LIVE_FINDINGS findings of at most
 * NV_LIVE_TEXT bytes: about 18 MiB at the limits, whatever the run's
 * length; records past a limit are counted (nvengine_live_dropped_total).
 */
#ifndef NV_ANALYZE_LIVE_STATE_H
#define NV_ANALYZE_LIVE_STATE_H

#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/live/live.h"

#define NV_LIVE_RING		300	/* intervals kept per job and op (5 min at 1 s) */
#define NV_LIVE_MAX_SERIES	512
#define NV_LIVE_MAX_JOBS	256
#define NV_LIVE_FINDINGS	256
#define NV_LIVE_TEXT		512	/* a finding's kind and text, bytes kept */

/* A job of the watch: names fixed at its first record. */
struct nv_live_jobrec {
	char *job, *host;
	char *label;			/* job as escape.h's text form (the page shows it) */
	char *prom;			/* fio_job="...",host="..." (escaped, live_prom.c) */
	size_t nthreads;
	uint64_t interval_ns;
	int64_t start_unix_ms;
	bool health;			/* a health record came */
	double io_wait_s, behind_s;
	bool ended, complete;		/* an end record came; with every footer */
};

/* One closed interval as the page and the gauges show it. */
struct nv_live_point {
	uint64_t seq;			/* the state's record sequence number */
	struct nv_tan_iv iv;		/* as nv_live_interval's */
	int64_t end_unix_ms;
};

/* The cumulative values of a series (copied whole by a snapshot). */
struct nv_live_totals {
	uint64_t ios, bytes, errors;
	uint64_t lat_sum_ns;
	uint64_t le[NV_LIVE_NLE], le_inf;	/* per bucket, not cumulative */
	bool have_last;
	struct nv_live_point last;		/* the last closed interval */
};

/* A job and op. */
struct nv_live_series {
	struct nv_live_jobrec *jr;
	char *op;
	char *prom;				/* fio_job="...",op="...",host="..." */
	struct nv_live_totals t;
	struct nv_live_point ring[NV_LIVE_RING];
	size_t head, n;				/* the next slot, slots used */
};

/* A finding as kept. */
struct nv_live_note {
	uint64_t seq;
	struct nv_live_jobrec *jr;		/* NULL: about the watch */
	double at_s;
	char kind[32];
	char text[NV_LIVE_TEXT];
};

struct nv_live_state {
	pthread_mutex_t mu;
	uint64_t seq;				/* intervals and findings so far */
	struct nv_live_jobrec *jobs[NV_LIVE_MAX_JOBS];
	size_t njobs;
	struct nv_live_series *series[NV_LIVE_MAX_SERIES];
	size_t nseries;
	struct nv_live_note notes[NV_LIVE_FINDINGS];
	size_t nnotes;				/* findings so far (the ring: the last) */
	size_t jobs_seen, jobs_ended;		/* of the last health record */
	char *host;				/* the host of the last record, or NULL */
	uint64_t dropped;			/* records past a limit */
};

/* What one request shows, copied under mu (nv_live_snap). */
struct nv_live_snap {
	size_t nseries, njobs;
	struct nv_live_series_copy {
		const struct nv_live_series *s;	/* names only: s->jr, s->op */
		struct nv_live_totals t;
	} *series;
	struct nv_live_jobrec *jobs;		/* copies (the names point into the state) */
	struct nv_live_point *points;		/* the ring's intervals with seq > since */
	size_t *point_series;			/* their series' index */
	size_t npoints;
	struct nv_live_note *notes;		/* findings with seq > since */
	size_t nnotes;
	uint64_t seq, dropped;
	size_t jobs_seen, jobs_ended;
	const char *host;
};

/*
 * Initialize st (empty).
 * Return: 0, or -errno of pthread_mutex_init.
 */
int nv_live_state_init(struct nv_live_state *st);

/*
 * Free everything st holds (no hook or request may run).
 * Return: nothing.
 */
void nv_live_state_free(struct nv_live_state *st);

/*
 * The sink's hooks over st (arg is st): each copies its record under mu.
 * Return: nothing; out filled.
 */
void nv_live_state_hooks(struct nv_live_state *st, struct nv_live_sink *out);

/*
 * Copy into sn what a request shows: every series' totals and every job,
 * the intervals and findings with seq > since (points when want_points).
 * Return: 0, or -ENOMEM (sn holds nothing to free then).
 */
int nv_live_snap(struct nv_live_state *st, uint64_t since, bool want_points,
		 struct nv_live_snap *sn);

/*
 * Free a snapshot's copies.
 * Return: nothing.
 */
void nv_live_snap_free(struct nv_live_snap *sn);

/*
 * The label set of a job (op NULL) or of a job and op, escaped once for
 * every /metrics: fio_job="...",op="...",host="..." (no braces).
 * Return: the string (the caller frees it), or NULL when out of memory.
 */
char *nv_live_prom_labels(const char *job, const char *op, const char *host);

/*
 * /metrics: sn in Prometheus' text exposition format (version 0.0.4),
 * written to f.
 * Return: 0, or -EIO when f failed.
 */
int nv_live_prom_put(FILE *f, const struct nv_live_snap *sn);

/*
 * /api/intervals: sn as one JSON object written to f (docs/prometheus.md,
 * "The live page").
 * Return: 0, -ENOMEM or -EIO.
 */
int nv_live_json_put(FILE *f, const struct nv_live_snap *sn);

/*
 * /: the live page, its jobs and findings so far from sn (the script
 * fetches the rest), written to f.
 * Return: 0, or -EIO when f failed.
 */
int nv_live_page_put(FILE *f, const struct nv_live_snap *sn);

#endif
