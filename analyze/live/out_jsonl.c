/*
 * out_jsonl.c - `nvanalyze watch --format jsonl`: one JSON object per line,
 * flushed: {"type":"job"} when a job's time 0 is known, {"type":"interval"}
 * per closed interval and operation (the post-run traces[i].series object,
 * one writer: trace_json.h), {"type":"finding"} as they happen and
 * {"type":"end"} with a job's totals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze/live/watch.h"
#include "analyze/report/json_value.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_json.h"

struct jsonl {
	FILE *out;
};

/* Print object o as one line (as -f json writes values) and free it.
 * Return: 0, or -EIO/-ENOMEM (said on stderr). */
static int line(struct jsonl *s, json_t *o)
{
	if (!o) {
		fprintf(stderr, "nvanalyze watch: out of memory\n");
		return -ENOMEM;
	}
	nv_render_json_emit(s->out, o, -1);
	json_decref(o);
	if (fputc('\n', s->out) == EOF || fflush(s->out)) {
		fprintf(stderr, "nvanalyze watch: writing the JSON lines: %s\n", strerror(errno));
		return -EIO;
	}
	return 0;
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static int on_job(void *arg, const struct nv_live_job *j)
{
	json_t *o = json_object();

	nv_json_value_set(o, "type", json_string("job"));
	nv_json_value_set(o, "job", nv_json_value_str(j->job));
	nv_json_value_set(o, "host", nv_json_value_str(j->host));
	nv_json_value_set(o, "threads", jint(j->nthreads));
	nv_json_value_set(o, "interval_s", json_real((double)j->interval_ns / 1e9));
	nv_json_value_set(o, "start_unix_ms", j->start_unix_ms ?
			  json_integer(j->start_unix_ms) : NULL);
	return line(arg, o);
}

static int on_interval(void *arg, const struct nv_live_interval *l)
{
	return line(arg, nv_tan_iv_json(l->job, &l->iv));
}

static int on_finding(void *arg, const struct nv_live_finding *f)
{
	json_t *o = json_object();

	nv_json_value_set(o, "type", json_string("finding"));
	nv_json_value_set(o, "job", f->job ? nv_json_value_str(f->job) : NULL);
	nv_json_value_set(o, "at_s", json_real(f->at_s));
	nv_json_value_set(o, "kind", json_string(f->kind));
	nv_json_value_set(o, "text", nv_json_value_str(f->text));
	return line(arg, o);
}

static int on_end(void *arg, const struct nv_live_end *e)
{
	json_t *o = json_object();

	nv_json_value_set(o, "type", json_string("end"));
	nv_json_value_set(o, "job", nv_json_value_str(e->job));
	nv_json_value_set(o, "op", json_string(e->op));
	nv_json_value_set(o, "complete", json_boolean(e->complete));
	nv_json_value_set(o, "span_s", json_real(e->span_s));
	nv_json_value_set(o, "ios", jint(e->ios));
	nv_json_value_set(o, "bytes", jint(e->bytes));
	nv_json_value_set(o, "errors", jint(e->errors));
	nv_json_value_set(o, "iops", json_real(e->iops));
	nv_json_value_set(o, "MB_per_s", json_real(e->mb_per_s));
	nv_json_value_set(o, "p50_ns", jint(e->p50_ns));
	nv_json_value_set(o, "p99_ns", jint(e->p99_ns));
	nv_json_value_set(o, "p99.9_ns", jint(e->p999_ns));
	nv_json_value_set(o, "max_ns", jint(e->max_ns));
	return line(arg, o);
}

static void on_close(void *arg)
{
	free(arg);
}

int nv_live_jsonl_sink(FILE *out, struct nv_live_sink *s)
{
	struct jsonl *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->out = out;
	*s = (struct nv_live_sink){
		.job = on_job, .interval = on_interval, .finding = on_finding, .end = on_end,
		.close = on_close, .arg = j,
	};
	return 0;
}
