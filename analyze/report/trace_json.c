/*
 * trace_json.c - the trace sections as JSON (trace_json.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze/report/json_value.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_json.h"
#include "analyze/report/trace_sections.h"

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* Exact latency summary in ns: {"n", "mean_ns", "p50_ns" ..., "max_ns"}. */
static json_t *lat_json(const struct nv_latsum *l)
{
	json_t *o = json_object();
	char key[64];

	nv_json_value_set(o, "ios", jint(l->n));
	nv_json_value_set(o, "mean_ns", json_real(l->mean));
	nv_json_value_set(o, "stdev_ns", json_real(l->stdev));
	nv_json_value_set(o, "min_ns", jint(l->min));
	for (unsigned i = 0; i < NV_PCT_NR; i++) {
		snprintf(key, sizeof(key), "%s_ns", nv_pcts[i].name);
		nv_json_value_set(o, key, jint(l->pct[i]));
	}
	nv_json_value_set(o, "max_ns", jint(l->max));
	return o;
}

/* Per operation shown (and "all" with several): IOs, errors, rates, latency. */
static json_t *ops_json(const struct nv_traceset *ts, const struct nv_tan *t)
{
	double span = (double)t->span_ns / 1e9;
	json_t *arr = json_array();
	unsigned shown = 0;

	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		shown += t->op[op].records && nv_traces_op_shown(ts, op);
	for (unsigned op = 0; op < NV_TAN_NOPS; op++) {
		const struct nv_tan_op *o = &t->op[op];
		json_t *x;

		if (op == NV_TAN_ALL ? shown < 2 : !o->records || !nv_traces_op_shown(ts, op))
			continue;
		x = json_object();
		nv_json_value_set(x, "op",
				  json_string(op == NV_TAN_ALL ? "all" : nvt_op_name(op)));
		nv_json_value_set(x, "ios", jint(o->records));
		nv_json_value_set(x, "errors", jint(o->errors));
		nv_json_value_set(x, "bytes", jint(o->bytes));
		nv_json_value_set(x, "iops", json_real(span > 0 ? (double)o->records / span : 0));
		nv_json_value_set(x, "MB_per_s",
				  json_real(span > 0 ? (double)o->bytes / 1e6 / span : 0));
		nv_json_value_set(x, "latency", lat_json(&o->lat));
		json_array_append_new(arr, x);
	}
	return arr;
}

static json_t *qd_json(const struct nv_traceset *ts, const struct nv_tan *t)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < t->nqd; i++) {
		const struct nv_tan_qd *q = &t->qd[i];
		json_t *x;

		if (!nv_traces_op_shown(ts, q->op))
			continue;
		x = json_object();
		nv_json_value_set(x, "op", json_string(nvt_op_name(q->op)));
		nv_json_value_set(x, "qd_min", jint(q->qd_lo));
		nv_json_value_set(x, "qd_max", jint(q->qd_hi));
		nv_json_value_set(x, "latency", lat_json(&q->lat));
		json_array_append_new(arr, x);
	}
	return arr;
}

/* The throughput rule's outcome: "too_short", "throttling" or "steady". */
static json_t *tput_json(const struct nv_tan *t, const struct nv_tan_find *f)
{
	double iv = (double)t->interval_ns / 1e9;
	json_t *o = json_object();

	nv_json_value_set(o, "full_intervals", jint(f->nfull));
	nv_json_value_set(o, "median_MB_per_s", json_real(f->median_mbps));
	if (f->nfull < NV_FIND_MIN_INTERVALS) {
		nv_json_value_set(o, "verdict", json_string("too_short"));
		nv_json_value_set(o, "intervals_needed", jint(NV_FIND_MIN_INTERVALS));
		return o;
	}
	nv_json_value_set(o, "verdict", json_string(f->step.found ? "throttling" : "steady"));
	nv_json_value_set(o, "peak_MB_per_s", json_real(f->step.peak));
	nv_json_value_set(o, "peak_at_s", json_real((double)f->step.peak_at * iv));
	if (f->step.found) {
		nv_json_value_set(o, "before_MB_per_s", json_real(f->step.before));
		nv_json_value_set(o, "after_MB_per_s", json_real(f->step.after));
		nv_json_value_set(o, "at_s", json_real((double)f->step.at * iv));
	}
	return o;
}

static json_t *warmup_json(const struct nv_tan *t, const struct nv_tan_find *f)
{
	json_t *o = json_object();

	nv_json_value_set(o, "found", json_boolean(f->warm.found));
	if (f->warm.found) {
		nv_json_value_set(o, "end_s",
				  json_real((double)f->warm.end * (double)t->interval_ns / 1e9));
		nv_json_value_set(o, "during_MB_per_s", json_real(f->warm.during));
		nv_json_value_set(o, "steady_MB_per_s", json_real(f->warm.steady));
	}
	return o;
}

/* One operation's episodes and isolated slow IOs. */
static json_t *spikes_op_json(const struct nv_tan *t, unsigned op)
{
	json_t *o = json_object(), *eps = json_array();
	uint64_t single = 0, worst = 0;
	double worst_at = 0;

	nv_json_value_set(o, "op", json_string(nvt_op_name(op)));
	nv_json_value_set(o, "threshold_ns", jint(t->spike_threshold_ns[op]));
	nv_json_value_set(o, "factor", json_real(t->spike_factor));
	for (size_t i = 0; i < t->nspikes; i++) {
		const struct nv_tan_spike *s = &t->spikes[i];
		json_t *e;

		if (s->op != op)
			continue;
		if (!nv_tan_spike_is_episode(s)) {
			single++;
			if (s->worst_ns > worst) {
				worst = s->worst_ns;
				worst_at = (double)s->start_ns / 1e9;
			}
			continue;
		}
		e = json_object();
		nv_json_value_set(e, "start_s", json_real((double)s->start_ns / 1e9));
		nv_json_value_set(e, "length_s",
				  json_real((double)(s->end_ns - s->start_ns) / 1e9));
		nv_json_value_set(e, "worst_ns", jint(s->worst_ns));
		nv_json_value_set(e, "slow_ios", jint(s->slow_ios));
		json_array_append_new(eps, e);
	}
	nv_json_value_set(o, "episodes", eps);
	nv_json_value_set(o, "isolated_slow_ios", jint(single));
	nv_json_value_set(o, "isolated_worst_ns", single ? jint(worst) : NULL);
	nv_json_value_set(o, "isolated_worst_at_s", single ? json_real(worst_at) : NULL);
	return o;
}

/* The findings: numbers, and the lines of text the other formats print. */
static json_t *findings_json(const struct nv_traceset *ts, const struct nv_tan *t)
{
	json_t *o = json_object(), *sp = json_array(), *lines = json_array();
	struct nv_tan_find f;
	char *text = malloc(16384);

	nv_tan_find(t, &f);
	nv_json_value_set(o, "interval_s", json_real((double)t->interval_ns / 1e9));
	nv_json_value_set(o, "throughput", tput_json(t, &f));
	nv_json_value_set(o, "warmup", warmup_json(t, &f));
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (t->series[op] && t->spike_threshold_ns[op] && nv_traces_op_shown(ts, op))
			json_array_append_new(sp, spikes_op_json(t, op));
	nv_json_value_set(o, "spikes", sp);
	if (text) {
		nv_tan_describe(t, ts, text, 16384);
		for (char *sv, *l = strtok_r(text, "\n", &sv); l; l = strtok_r(NULL, "\n", &sv))
			json_array_append_new(lines,
					      json_string(l[0] == '-' && l[1] == ' ' ? l + 2 : l));
	}
	free(text);
	nv_json_value_set(o, "text", lines);
	return o;
}

/*
 * Tracing's own disturbance of the job's IO loops (nv_trace_disturb), at
 * any size: null when no trace has the writer's wait key; with
 * iowq_autogroup_traces where some trace's IO ran where the writer can
 * stall it (docs/trace.md).  Return: it.
 */
static json_t *tracing_json(const struct nv_trace_disturb *d)
{
	json_t *o;

	if (!d->traces)
		return NULL;
	o = json_object();
	nv_json_value_set(o, "io_loop_wait_share", json_real(d->traced_ns ?
			  (double)d->wait_ns / (double)d->traced_ns : 0));
	nv_json_value_set(o, "io_loop_waits", jint(d->waits));
	nv_json_value_set(o, "io_loop_wait_ns", jint(d->wait_ns));
	nv_json_value_set(o, "traced_s", json_real((double)d->traced_ns / 1e9));
	nv_json_value_set(o, "ring_high", d->rings ? jint(d->ring_high) : NULL);
	nv_json_value_set(o, "ring_chunks", d->rings ? jint(d->ring_chunks) : NULL);
	nv_json_value_set(o, "writer_cpu_ns_per_record",
			  d->cpus && d->records ?
			  json_real((double)d->cpu_ns / (double)d->records) : NULL);
	if (d->grouped)	/* only then: the key would be 0 for every other job */
		nv_json_value_set(o, "iowq_autogroup_traces", jint(d->grouped));
	return o;
}

json_t *nv_tan_iv_json(const char *job, const struct nv_tan_iv *iv)
{
	json_t *o = json_object();

	nv_json_value_set(o, "type", json_string("interval"));
	nv_json_value_set(o, "job", nv_json_value_str(job));
	nv_json_value_set(o, "op", json_string(iv->op == NV_TAN_ALL ? "all" :
					       nvt_op_name(iv->op)));
	nv_json_value_set(o, "index", jint(iv->index));
	nv_json_value_set(o, "start_s", json_real(iv->start_s));
	nv_json_value_set(o, "end_s", json_real(iv->end_s));
	nv_json_value_set(o, "ios", jint(iv->ios));
	nv_json_value_set(o, "bytes", jint(iv->bytes));
	nv_json_value_set(o, "errors", jint(iv->errors));
	nv_json_value_set(o, "iops", json_real(iv->iops));
	nv_json_value_set(o, "MB_per_s", json_real(iv->mb_per_s));
	nv_json_value_set(o, "p50_ns", jint(iv->p50_ns));
	nv_json_value_set(o, "p99_ns", jint(iv->p99_ns));
	nv_json_value_set(o, "p99.9_ns", jint(iv->p999_ns));
	nv_json_value_set(o, "max_ns", jint(iv->max_ns));
	return o;
}

/* The series: per operation shown (and "all" with several), every interval. */
static json_t *series_json(const struct nv_traceset *ts, const struct nv_tan *t,
			   const char *job)
{
	json_t *arr = json_array();
	unsigned shown = 0;
	struct nv_tan_iv iv;

	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		shown += t->series[op] && nv_traces_op_shown(ts, op);
	for (unsigned op = 0; op < NV_TAN_NOPS; op++) {
		if (!t->series[op] || (op == NV_TAN_ALL ? shown < 2 : !nv_traces_op_shown(ts, op)))
			continue;
		for (size_t i = 0; i < t->nint; i++) {
			nv_tan_iv_of(t, op, i, &iv);
			json_array_append_new(arr, nv_tan_iv_json(job, &iv));
		}
	}
	return arr;
}

static json_t *entry_json(const struct nv_traceset *ts, const struct nv_jobjoin *jj,
			  const char *run_label)
{
	const struct nv_jobtraces *e = jj->jt;
	const struct nv_tan *t = &jj->tan;
	json_t *o = json_object(), *paths = json_array();

	nv_json_value_set(o, "job", json_string(e->run->jobs[e->job].key));
	nv_json_value_set(o, "run", json_string(run_label));
	for (size_t k = 0; k < e->npaths; k++)
		json_array_append_new(paths, json_string(e->paths[k]));
	nv_json_value_set(o, "trace_files", paths);
	nv_json_value_set(o, "ios", jint(t->records));
	nv_json_value_set(o, "ramp_time_s",
			  t->ramp_ns ? json_real((double)t->ramp_ns / 1e9) : NULL);
	nv_json_value_set(o, "ramp_ios_left_out", jint(t->ramp_records));
	nv_json_value_set(o, "span_s", json_real((double)t->span_ns / 1e9));
	nv_json_value_set(o, "passes", jint(t->passes));
	nv_json_value_set(o, "tracing", tracing_json(&t->disturb));
	nv_json_value_set(o, "operations", ops_json(ts, t));
	nv_json_value_set(o, "queue_depth", qd_json(ts, t));
	nv_json_value_set(o, "findings", t->records ? findings_json(ts, t) : NULL);
	nv_json_value_set(o, "series", series_json(ts, t, e->run->jobs[e->job].key));
	return o;
}

struct entries {
	const struct nv_tracejoin *tj;
	const char *(*label)(const struct nv_run *run, void *arg);
	void *arg;
};

/* Entry i of the "traces" array (an nv_json_stream element).  Return: it, or NULL. */
static json_t *entry_at(size_t i, void *arg)
{
	const struct entries *e = arg;

	return entry_json(e->tj->ts, &e->tj->j[i], e->label(e->tj->j[i].jt->run, e->arg));
}

int nv_trace_json_print(FILE *out, const struct nv_report *r, const struct nv_tracejoin *tj,
			const char *(*label)(const struct nv_run *run, void *arg), void *arg)
{
	struct entries e = { .tj = tj, .label = label, .arg = arg };
	struct nv_json_stream st = { .n = tj->n, .element = entry_at, .arg = &e };
	int ret;

	/* one entry in memory at a time: 64 traces' findings were 4 MiB of objects */
	ret = nv_render_json_with(out, r, &st);
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
