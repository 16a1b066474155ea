/*
 * live_json.c - GET /api/intervals?since=SEQ: the intervals and findings
 * of a snapshot (live_state.h) newer than SEQ as one JSON object, what the
 * live page's script draws (docs/prometheus.md, "The live page").  Strings
 * through json_value.h (bytes that are not UTF-8 as U+FFFD).
 */
#include <errno.h>
#include <stdio.h>

#include <jansson.h>

#include "analyze/live/live_state.h"
#include "analyze/report/json_value.h"

/* The fields of each "points" row, in order (the object's "fields"). */
static const char *const point_fields[] = {
	"series", "seq", "index", "start_s", "end_s", "end_unix_ms", "ios", "bytes", "errors",
	"iops", "MB_per_s", "p50_ns", "p99_ns", "p99.9_ns", "max_ns",
};

/*
 * One "series" entry: its id, job (as given and as the page shows it),
 * host, op, interval and whether the job has ended.
 * Return: the object, or NULL when out of memory.
 */
static json_t *series_json(size_t id, const struct nv_live_series_copy *c,
			   const struct nv_live_jobrec *jr)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	nv_json_value_set(o, "id", json_integer((json_int_t)id));
	nv_json_value_set(o, "job", nv_json_value_str(jr->job));
	nv_json_value_set(o, "label", nv_json_value_str(jr->label));
	nv_json_value_set(o, "host", nv_json_value_str(jr->host));
	nv_json_value_set(o, "op", nv_json_value_str(c->s->op));
	nv_json_value_set(o, "interval_s", json_real((double)jr->interval_ns / 1e9));
	nv_json_value_set(o, "ended", json_boolean(jr->ended));
	return o;
}

/*
 * The job record of a series in the snapshot (its copy: ended, health).
 * Return: it (the series' own record when the copy is not found).
 */
static const struct nv_live_jobrec *job_copy(const struct nv_live_snap *sn,
					     const struct nv_live_series *s)
{
	for (size_t i = 0; i < sn->njobs; i++)
		if (sn->jobs[i].job == s->jr->job)
			return &sn->jobs[i];
	return s->jr;
}

/*
 * One "points" row (point_fields' order).
 * Return: the array, or NULL when out of memory.
 */
static json_t *point_json(size_t series, const struct nv_live_point *p)
{
	json_t *a = json_array();

	if (!a)
		return NULL;
	json_array_append_new(a, json_integer((json_int_t)series));
	json_array_append_new(a, json_integer((json_int_t)p->seq));
	json_array_append_new(a, json_integer((json_int_t)p->iv.index));
	json_array_append_new(a, json_real(p->iv.start_s));
	json_array_append_new(a, json_real(p->iv.end_s));
	json_array_append_new(a, json_integer(p->end_unix_ms));
	json_array_append_new(a, json_integer((json_int_t)p->iv.ios));
	json_array_append_new(a, json_integer((json_int_t)p->iv.bytes));
	json_array_append_new(a, json_integer((json_int_t)p->iv.errors));
	json_array_append_new(a, json_real(p->iv.iops));
	json_array_append_new(a, json_real(p->iv.mb_per_s));
	json_array_append_new(a, json_integer((json_int_t)p->iv.p50_ns));
	json_array_append_new(a, json_integer((json_int_t)p->iv.p99_ns));
	json_array_append_new(a, json_integer((json_int_t)p->iv.p999_ns));
	json_array_append_new(a, json_integer((json_int_t)p->iv.max_ns));
	return a;
}

/*
 * One "findings" entry (job, label and host null for the watch's own).
 * Return: the object, or NULL when out of memory.
 */
static json_t *note_json(const struct nv_live_note *n)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	nv_json_value_set(o, "seq", json_integer((json_int_t)n->seq));
	nv_json_value_set(o, "job", n->jr ? nv_json_value_str(n->jr->job) : NULL);
	nv_json_value_set(o, "label", n->jr ? nv_json_value_str(n->jr->label) : NULL);
	nv_json_value_set(o, "host", n->jr ? nv_json_value_str(n->jr->host) : NULL);
	nv_json_value_set(o, "at_s", json_real(n->at_s));
	nv_json_value_set(o, "kind", nv_json_value_str(n->kind));
	nv_json_value_set(o, "text", nv_json_value_str(n->text));
	return o;
}

/*
 * The object of a snapshot.
 * Return: it, or NULL when out of memory.
 */
static json_t *snap_json(const struct nv_live_snap *sn)
{
	json_t *o = json_object(), *series = json_array(), *points = json_array();
	json_t *notes = json_array(), *fields = json_array();

	if (!o || !series || !points || !notes || !fields)
		goto fail;
	for (size_t i = 0; i < sizeof(point_fields) / sizeof(point_fields[0]); i++)
		json_array_append_new(fields, json_string(point_fields[i]));
	for (size_t i = 0; i < sn->nseries; i++)
		json_array_append_new(series, series_json(i, &sn->series[i],
							  job_copy(sn, sn->series[i].s)));
	for (size_t i = 0; i < sn->npoints; i++)
		json_array_append_new(points, point_json(sn->point_series[i], &sn->points[i]));
	for (size_t i = 0; i < sn->nnotes; i++)
		json_array_append_new(notes, note_json(&sn->notes[i]));
	nv_json_value_set(o, "seq", json_integer((json_int_t)sn->seq));
	nv_json_value_set(o, "host", sn->host ? nv_json_value_str(sn->host) : NULL);
	nv_json_value_set(o, "jobs_seen", json_integer((json_int_t)sn->jobs_seen));
	nv_json_value_set(o, "jobs_ended", json_integer((json_int_t)sn->jobs_ended));
	nv_json_value_set(o, "dropped", json_integer((json_int_t)sn->dropped));
	nv_json_value_set(o, "series", series);
	nv_json_value_set(o, "fields", fields);
	nv_json_value_set(o, "points", points);
	nv_json_value_set(o, "findings", notes);
	return o;
fail:
	json_decref(o);
	json_decref(series);
	json_decref(points);
	json_decref(notes);
	json_decref(fields);
	return NULL;
}

int nv_live_json_put(FILE *f, const struct nv_live_snap *sn)
{
	json_t *o = snap_json(sn);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = json_dumpf(o, f, JSON_COMPACT) ? -ENOMEM : 0;
	json_decref(o);
	if (!ret)
		fputc('\n', f);
	return ret ? ret : ferror(f) ? -EIO : 0;
}
