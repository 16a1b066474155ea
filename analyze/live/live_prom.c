/*
 * live_prom.c - GET /metrics: a snapshot of the watch (live_state.h) in
 * Prometheus' text exposition format, version 0.0.4 (which OpenMetrics
 * scrapers read too).  Every label value goes through escape.h's
 * nv_esc_prom_label; latencies are exact decimals of seconds (ns / 10^9).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "analyze/live/live_state.h"
#include "analyze/report/escape.h"

/* A metric family: its name, type and HELP line (docs/prometheus.md). */
struct family {
	const char *name, *type, *help;
};

static const struct family fam_ios = {
	"nvengine_ios_total", "counter",
	"IOs completed in the closed intervals of the job and operation",
};
static const struct family fam_bytes = {
	"nvengine_bytes_total", "counter",
	"Bytes transferred in the closed intervals of the job and operation",
};
static const struct family fam_errors = {
	"nvengine_errors_total", "counter",
	"IOs completed with an error in the closed intervals of the job and operation",
};
static const struct family fam_ilat = {
	"nvengine_interval_latency_seconds", "gauge",
	"Exact completion latency quantile of the last closed interval, stamped with its end",
};
static const struct family fam_hist = {
	"nvengine_latency_seconds", "histogram",
	"Completion latency of the closed intervals, fixed 1-2-5 buckets from 1 us to 10 s",
};
static const struct family fam_wait = {
	"nvengine_trace_io_wait_seconds_total", "counter",
	"Time the IO loop waited on the trace writer so far",
};
static const struct family fam_behind = {
	"nvengine_trace_writer_behind_seconds", "gauge",
	"How far the newest complete trace block of the job is behind now",
};
static const struct family fam_seen = {
	"nvengine_jobs_seen", "gauge", "Jobs whose traces the watch has seen",
};
static const struct family fam_ended = {
	"nvengine_jobs_ended", "gauge", "Jobs whose traces have all ended",
};
static const struct family fam_dropped = {
	"nvengine_live_dropped_total", "counter",
	"Records not served: past the endpoint's limits of jobs and series",
};

/* The quantile label of each gauge and its field. */
static const struct {
	const char *q;
	size_t off;
} quantiles[] = {
	{ .q = "0.5", .off = offsetof(struct nv_tan_iv, p50_ns) },
	{ .q = "0.99", .off = offsetof(struct nv_tan_iv, p99_ns) },
	{ .q = "0.999", .off = offsetof(struct nv_tan_iv, p999_ns) },
	{ .q = "1", .off = offsetof(struct nv_tan_iv, max_ns) },
};

/*
 * The HELP and TYPE lines of fm.
 * Return: nothing.
 */
static void put_head(FILE *f, const struct family *fm)
{
	fprintf(f, "# HELP %s %s.\n# TYPE %s %s\n", fm->name, fm->help, fm->name, fm->type);
}

char *nv_live_prom_labels(const char *job, const char *op, const char *host)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	fputs("fio_job=\"", f);
	nv_esc_prom_label(f, job);
	if (op) {
		fputs("\",op=\"", f);
		nv_esc_prom_label(f, op);
	}
	fputs("\",host=\"", f);
	nv_esc_prom_label(f, host);
	fputc('"', f);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * name{LABELS,extra="..."} with the value to follow: labels the escaped
 * set of nv_live_prom_labels, extra NULL or a label of a constant value.
 * Return: nothing.
 */
static void put_series(FILE *f, const char *name, const char *labels, const char *extra,
		       const char *extra_value)
{
	fputs(name, f);
	fputc('{', f);
	fputs(labels, f);
	if (extra)
		fprintf(f, ",%s=\"%s\"", extra, extra_value);
	fputs("} ", f);
}

/*
 * ns as seconds, an exact decimal.
 * Return: nothing.
 */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

/*
 * A counter of every series: the field at off of its totals.
 * Return: nothing.
 */
static void put_counter(FILE *f, const struct nv_live_snap *sn, const struct family *fm,
			size_t off)
{
	put_head(f, fm);
	for (size_t i = 0; i < sn->nseries; i++) {
		const struct nv_live_series_copy *c = &sn->series[i];

		put_series(f, fm->name, c->s->prom, NULL, NULL);
		fprintf(f, "%" PRIu64 "\n", *(const uint64_t *)((const char *)&c->t + off));
	}
}

/*
 * The gauges of the last closed interval's quantiles, with its end as the
 * sample's timestamp (none when the trace gave no wall clock).
 * Return: nothing.
 */
static void put_quantiles(FILE *f, const struct nv_live_snap *sn)
{
	put_head(f, &fam_ilat);
	for (size_t i = 0; i < sn->nseries; i++) {
		const struct nv_live_series_copy *c = &sn->series[i];

		if (!c->t.have_last)
			continue;
		for (size_t q = 0; q < sizeof(quantiles) / sizeof(quantiles[0]); q++) {
			put_series(f, fam_ilat.name, c->s->prom, "quantile",
				   quantiles[q].q);
			put_seconds(f, *(const uint64_t *)((const char *)&c->t.last.iv +
							   quantiles[q].off));
			if (c->t.last.end_unix_ms > 0)
				fprintf(f, " %" PRId64, c->t.last.end_unix_ms);
			fputc('\n', f);
		}
	}
}

/*
 * The classic histogram of every series: cumulative buckets, sum, count.
 * Return: nothing.
 */
static void put_histograms(FILE *f, const struct nv_live_snap *sn)
{
	put_head(f, &fam_hist);
	for (size_t i = 0; i < sn->nseries; i++) {
		const struct nv_live_series_copy *c = &sn->series[i];
		uint64_t cum = 0;
		char le[32];

		for (size_t b = 0; b < NV_LIVE_NLE; b++) {
			cum += c->t.le[b];
			snprintf(le, sizeof(le), "%g", (double)nv_live_le_ns[b] / 1e9);
			put_series(f, "nvengine_latency_seconds_bucket", c->s->prom, "le", le);
			fprintf(f, "%" PRIu64 "\n", cum);
		}
		cum += c->t.le_inf;
		put_series(f, "nvengine_latency_seconds_bucket", c->s->prom, "le", "+Inf");
		fprintf(f, "%" PRIu64 "\n", cum);
		put_series(f, "nvengine_latency_seconds_sum", c->s->prom, NULL, NULL);
		put_seconds(f, c->t.lat_sum_ns);
		fputc('\n', f);
		put_series(f, "nvengine_latency_seconds_count", c->s->prom, NULL, NULL);
		fprintf(f, "%" PRIu64 "\n", cum);
	}
}

/*
 * Tracing's health: per job its waits and how far behind, the watch's jobs.
 * Return: nothing.
 */
static void put_health(FILE *f, const struct nv_live_snap *sn)
{
	const struct family *per_job[] = { &fam_wait, &fam_behind };

	for (size_t k = 0; k < 2; k++) {
		put_head(f, per_job[k]);
		for (size_t i = 0; i < sn->njobs; i++) {
			const struct nv_live_jobrec *jr = &sn->jobs[i];

			if (!jr->health)
				continue;
			put_series(f, per_job[k]->name, jr->prom, NULL, NULL);
			fprintf(f, "%.9f\n", k ? jr->behind_s : jr->io_wait_s);
		}
	}
	put_head(f, &fam_seen);
	fputs("nvengine_jobs_seen{host=\"", f);
	nv_esc_prom_label(f, sn->host ? sn->host : "");
	fprintf(f, "\"} %zu\n", sn->jobs_seen);
	put_head(f, &fam_ended);
	fputs("nvengine_jobs_ended{host=\"", f);
	nv_esc_prom_label(f, sn->host ? sn->host : "");
	fprintf(f, "\"} %zu\n", sn->jobs_ended);
	put_head(f, &fam_dropped);
	fputs("nvengine_live_dropped_total{host=\"", f);
	nv_esc_prom_label(f, sn->host ? sn->host : "");
	fprintf(f, "\"} %" PRIu64 "\n", sn->dropped);
}

int nv_live_prom_put(FILE *f, const struct nv_live_snap *sn)
{
	put_counter(f, sn, &fam_ios, offsetof(struct nv_live_totals, ios));
	put_counter(f, sn, &fam_bytes, offsetof(struct nv_live_totals, bytes));
	put_counter(f, sn, &fam_errors, offsetof(struct nv_live_totals, errors));
	put_quantiles(f, sn);
	put_histograms(f, sn);
	put_health(f, sn);
	return ferror(f) ? -EIO : 0;
}
