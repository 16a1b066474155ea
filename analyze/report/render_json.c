/*
 * render_json.c - the report as JSON for programs: built with jansson and
 * written by a small emitter that prints every real as the shortest text that
 * reads back exactly; units in the keys, missing values null.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze/report/claims.h"
#include "analyze/report/curves.h"
#include "analyze/report/fiotables.h"
#include "analyze/report/json_value.h"
#include "analyze/report/pairs.h"
#include "analyze/report/pctrows.h"
#include "analyze/report/render.h"
#include "analyze/report/summary.h"

/*
 * The key k of an object member at depth (its n-th: 0 the first), up to
 * its value: the separator, the indent, the quoted key and ": ".
 * Return: nothing.
 */
static void emit_key(FILE *out, const char *k, int depth, size_t n)
{
	json_t *ks = nv_json_value_str(k);
	char *kd = ks ? json_dumps(ks, JSON_ENCODE_ANY) : NULL;

	if (depth < 0)	/* one line */
		fprintf(out, "%s%s:", n ? "," : "", kd ? kd : "\"\"");
	else
		fprintf(out, "%s%*s%s: ", n ? ",\n" : "", 2 * (depth + 1), "",
			kd ? kd : "\"\"");
	free(kd);
	json_decref(ks);
}

/*
 * The members of object v at depth, each key and value, without the
 * braces around them.
 * Return: how many were written.
 */
static size_t emit_members(FILE *out, const json_t *v, int depth)
{
	const char *k;
	json_t *x;
	size_t n = 0;

	json_object_foreach((json_t *)v, k, x) {
		emit_key(out, k, depth, n++);
		nv_render_json_emit(out, x, depth < 0 ? depth : depth + 1);
	}
	return n;
}

/*
 * Write v as indented JSON; reals as their shortest exact text (jansson's
 * own dumper prints "%.17g", e.g. 0.10000000000000001).  Objects keep their
 * insertion order.
 */
void nv_render_json_emit(FILE *out, const json_t *v, int depth)
{
	char buf[64];
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (!json_object_size(v)) {
			fputs("{}", out);
			break;
		}
		fputs(depth < 0 ? "{" : "{\n", out);
		emit_members(out, v, depth);
		if (depth < 0)
			fputs("}", out);
		else
			fprintf(out, "\n%*s}", 2 * depth, "");
		break;
	case JSON_ARRAY:
		if (!json_array_size(v)) {
			fputs("[]", out);
			break;
		}
		fputs("[\n", out);
		json_array_foreach(v, i, x) {
			fprintf(out, "%s%*s", i ? ",\n" : "", 2 * (depth + 1), "");
			nv_render_json_emit(out, x, depth + 1);
		}
		fprintf(out, "\n%*s]", 2 * depth, "");
		break;
	case JSON_REAL:
		nv_fmt_exact(buf, sizeof(buf), json_real_value(v));
		fputs(buf, out);
		break;
	default: {
		char *d = json_dumps(v, JSON_ENCODE_ANY);

		fputs(d ? d : "null", out);
		free(d);
	}
	}
}

/*
 * The JSON key of a metric (a percentile: of level): "iops", "bw_MB_per_s",
 * "clat_p99.9_ns", "clat_p99.5_ns" ...
 */
static void json_key(char *buf, size_t n, const struct nv_block *b, enum nv_metric m, double level)
{
	const struct nv_metric_info *mi = nv_metric(m);
	char name[32];

	if (NV_M_IS_PCT(m)) {
		nv_pctl_name(name, sizeof(name), level);
		snprintf(buf, n, "%s_%s_ns", nv_latkind_name(b->lat), name);
	} else if (mi->latency)
		snprintf(buf, n, "%s_%s_ns", nv_latkind_name(b->lat), mi->key);
	else if (mi->json)
		snprintf(buf, n, "%s", mi->json);
	else if (mi->unit == NV_U_MBPS)
		snprintf(buf, n, "%s_MB_per_s", mi->key);
	else if (mi->unit == NV_U_PCT)
		snprintf(buf, n, "%s_pct", mi->key);
	else if (m == NV_M_PRICE)
		snprintf(buf, n, "price_usd_per_hour");
	else if (m == NV_M_COST)
		snprintf(buf, n, "cost_usd_per_hour_per_1k_iops");
	else if (m == NV_M_COST_BW)
		snprintf(buf, n, "cost_usd_per_hour_per_GB_per_s");
	else
		snprintf(buf, n, "%s", mi->key);
}

static void jset_suffix(json_t *o, const char *key, const char *suffix, json_t *v)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", key, suffix);
	nv_json_value_set(o, buf, v);
}

static json_t *jnum(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

/*
 * --buckets: "trace_latency_buckets", the exact counts and shares of the
 * direction's IOs from the side's traces ([from_ns, to_ns), to_ns null for
 * the last); left out when the side has no traces.
 * Return: 0 or -ENOMEM (o freed).
 */
static int json_trace_buckets(json_t *o, const struct nv_block *b, size_t s)
{
	uint64_t cnt[NV_TAN_MAXEDGES + 1], tot = 0;
	const uint64_t *edges;
	size_t ne;
	json_t *arr;

	if (!nv_side_trace_buckets(b, s, cnt, &ne, &edges))
		return 0;
	if (!(arr = json_array())) {
		json_decref(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i <= ne; i++)
		tot += cnt[i];
	for (size_t i = 0; i <= ne; i++) {
		json_t *e = json_object();

		nv_json_value_set(e, "from_ns", json_integer(i ? (json_int_t)edges[i - 1] : 0));
		nv_json_value_set(e, "to_ns", i < ne ? json_integer((json_int_t)edges[i]) : NULL);
		nv_json_value_set(e, "ios", json_integer((json_int_t)cnt[i]));
		nv_json_value_set(e, "share_pct",
				  jnum(tot > 0, tot ? 100.0 * (double)cnt[i] / (double)tot : 0));
		json_array_append_new(arr, e);
	}
	nv_json_value_set(o, "trace_latency_buckets", arr);
	return 0;
}

/*
 * "fio_latency_buckets": fio's shares of the job's IOs by completion latency
 * ([from_ns, to_ns), to_ns null for the last), mean over the side's runs,
 * in the rows every side shares (nv_side_buckets).
 * Return: 0 or -ENOMEM (o freed).
 */
static int json_buckets(json_t *o, const struct nv_report *r, const struct nv_block *b,
			size_t s)
{
	struct nv_side_bucket *bk;
	json_t *arr;
	size_t n;

	if (nv_side_buckets(r, b, s, &bk, &n) || !(arr = json_array())) {
		json_decref(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();

		nv_json_value_set(e, "from_ns", json_real(bk[i].lo_ns));
		nv_json_value_set(e, "to_ns", jnum(isfinite(bk[i].hi_ns), bk[i].hi_ns));
		nv_json_value_set(e, "share_pct", jnum(bk[i].n > 0, bk[i].pct));
		nv_json_value_set(e, "runs", json_integer((json_int_t)bk[i].n));
		json_array_append_new(arr, e);
	}
	free(bk);
	nv_json_value_set(o, "fio_latency_buckets", arr);
	return json_trace_buckets(o, b, s);
}

/*
 * "fio_clat_percentiles_ns": every level fio reported for the block's
 * latency, keyed as fio keys them ("99.500000"), the side's runs aggregated
 * (whatever --percentiles chose); left out when fio reported none.
 * Return: 0 or -ENOMEM (o freed).
 */
static int json_fio_levels(const struct nv_report *r, const struct nv_block *b, size_t s,
			   json_t *o)
{
	struct nv_pctl lv;
	char key[64];
	json_t *p;

	nv_block_fio_levels(r, b, &lv);
	if (!lv.n)
		return 0;
	if (!(p = json_object())) {
		json_decref(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < lv.n; i++) {
		struct nv_cell c;

		nv_side_fio_level(r, b, s, lv.v[i], &c, NULL);
		nv_pctl_fio_key(key, sizeof(key), lv.v[i]);
		nv_json_value_set(p, key, jnum(c.n > 0, c.value));
	}
	snprintf(key, sizeof(key), "fio_%s_percentiles_ns", nv_latkind_name(b->lat));
	nv_json_value_set(o, key, p);
	return 0;
}

static json_t *json_side_values(const struct nv_report *r, const struct nv_block *b, size_t s)
{
	json_t *o = json_object();
	bool rep = r->sides[s].nruns > 1;
	char key[96];

	nv_json_value_set(o, "runs", json_integer((json_int_t)r->sides[s].nruns));
	nv_json_value_set(o, "present", json_boolean(b->present[s]));
	for (size_t k = 0; k < b->nrows; k++) {
		const struct nv_cell *c = &b->rows[k].cells[s];

		json_key(key, sizeof(key), b, b->rows[k].metric, b->rows[k].level);
		nv_json_value_set(o, key, jnum(c->n > 0, c->value));
		if (b->rows[k].above_max && b->rows[k].above_max[s])
			jset_suffix(o, key, "_above_max", json_true());
		if (c->src == NV_SRC_EXACT) {
			const struct nv_cell *f = b->rows[k].fio ? &b->rows[k].fio[s] : NULL;

			jset_suffix(o, key, "_source", nv_json_value_str("exact"));
			jset_suffix(o, key, "_fio", jnum(f && f->n > 0, f ? f->value : 0));
		}
		if (!rep)
			continue;
		jset_suffix(o, key, "_stdev", jnum(c->n > 1, c->sd));
		jset_suffix(o, key, "_min", jnum(c->n > 0, c->min));
		jset_suffix(o, key, "_max", jnum(c->n > 0, c->max));
		jset_suffix(o, key, "_n", json_integer((json_int_t)c->n));
	}
	if (json_fio_levels(r, b, s, o))
		return NULL;
	return json_buckets(o, r, b, s) ? NULL : o;
}

/*
 * The key of pair p in "changes": the compared side's label when it is
 * compared with the baseline, else "A vs B".  Return: nothing; in buf.
 */
static void pair_key(char *buf, size_t n, const struct nv_report *r, size_t p)
{
	if (r->pairs[p].b == r->baseline)
		snprintf(buf, n, "%s", r->sides[r->pairs[p].a].label);
	else
		nv_pair_title(buf, n, r, p);
}

static json_t *json_side_changes(const struct nv_block *b, size_t p)
{
	json_t *o = json_object();
	char key[96];

	for (size_t k = 0; k < b->nrows; k++) {
		const struct nv_change *ch = &b->rows[k].pchg[p];

		json_key(key, sizeof(key), b, b->rows[k].metric, b->rows[k].level);
		jset_suffix(o, key, "_change_pct", jnum(ch->have, ch->pct));
		jset_suffix(o, key, "_verdict",
			    ch->have ? nv_json_value_str(nv_change_verdict_name(ch)) : NULL);
		if (!ch->have_ci && ch->why == NV_CI_SINGLE) {
			jset_suffix(o, key, "_about_equal",
				    ch->have ? json_boolean(nv_change_about_equal(ch)) : NULL);
			/* only text inputs: JSON's values do not round */
			if (ch->within_prec)
				jset_suffix(o, key, "_within_printed_precision", json_true());
			continue;
		}
		if (!ch->have)
			continue;
		jset_suffix(o, key, "_n", json_integer((json_int_t)ch->n));
		jset_suffix(o, key, "_n_baseline", json_integer((json_int_t)ch->nbase));
		if (!ch->have_ci) {
			jset_suffix(o, key, "_no_interval",
				    nv_json_value_str(ch->why == NV_CI_FEW_RUNS
						      ? "fewer than 3 runs on a side"
						      : "a value <= 0 (no logarithm)"));
			continue;
		}
		jset_suffix(o, key, "_ratio_gm_pct", json_real(ch->gm_pct));
		jset_suffix(o, key, "_ci95_low_pct", json_real(ch->lo));
		jset_suffix(o, key, "_ci95_high_pct", json_real(ch->hi));
		jset_suffix(o, key, "_within_noise", json_boolean(ch->noise));
	}
	return o;
}

static json_t *json_block(const struct nv_report *r, const struct nv_block *b)
{
	json_t *o = json_object(), *sides = json_object(), *chg = json_object();

	nv_json_value_set(o, "job", nv_json_value_str(b->key));
	nv_json_value_set(o, "direction", nv_json_value_str(nv_dir_name(b->dir)));
	nv_json_value_set(o, "description", nv_json_value_str(b->desc ? b->desc : ""));
	nv_json_value_set(o, "latency", nv_json_value_str(nv_latkind_name(b->lat)));
	nv_json_value_set(o, "active", json_boolean(b->active));
	nv_json_value_set(o, "error", json_integer(b->error));
	char key[200];

	for (size_t s = 0; s < r->nsides; s++)
		nv_json_value_set(sides, r->sides[s].label, json_side_values(r, b, s));
	for (size_t p = 0; p < r->npairs; p++) {
		pair_key(key, sizeof(key), r, p);
		nv_json_value_set(chg, key, json_side_changes(b, p));
	}
	nv_json_value_set(o, "sides", sides);
	nv_json_value_set(o, "changes", chg);
	return o;
}

/*
 * fio's disk_util of a side: one object per device it has, each counter
 * under its key with the unit ("read_ticks_ms", "util_pct"), an md
 * array's aggregate as "aggr_*"; means over the side's runs.
 * Return: the array (NULL when out of memory, which jset stores as null).
 */
static json_t *json_disks(const struct nv_report *r, const struct nv_side *side)
{
	const char **names;
	size_t n;
	json_t *arr = json_array();

	if (!arr || nv_report_disks(r, &names, &n)) {
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		bool any = false;
		double v;

		nv_json_value_set(o, "name", nv_json_value_str(names[i]));
		for (unsigned f = 0; f < NV_DISK_NR; f++) {
			size_t have = nv_side_disk(side, names[i], f, false, &v);

			any |= have > 0;
			nv_json_value_set(o, nv_disk_key(f), jnum(have > 0, v));
		}
		for (unsigned f = 0; f < NV_DISK_NR; f++)
			if (nv_side_disk(side, names[i], f, true, &v))
				jset_suffix(o, "aggr_", nv_disk_key(f), json_real(v));
		if (any)
			json_array_append_new(arr, o);
		else
			json_decref(o);
	}
	free(names);
	return arr;
}

static json_t *json_sides(const struct nv_report *r)
{
	json_t *arr = json_array();

	for (size_t s = 0; s < r->nsides; s++) {
		json_t *o = json_object(), *files = json_array(), *vers = json_array();
		json_t *fmts = json_array(), *descs = json_array(), *lines = json_array();
		bool any_line = false;

		nv_json_value_set(o, "label", nv_json_value_str(r->sides[s].label));
		for (size_t k = 0; k < r->sides[s].nruns; k++) {
			const struct nv_run *run = &r->sides[s].runs[k];

			json_array_append_new(files, nv_json_value_str(run->path));
			json_array_append_new(lines, run->line ? json_integer(run->line)
							       : json_null());
			any_line |= run->line > 0;
			json_array_append_new(vers, nv_json_value_str(run->fio_version));
			json_array_append_new(fmts, json_string(run->format ? run->format
									    : "fio-json"));
			json_array_append_new(descs, run->desc ? nv_json_value_str(run->desc)
							       : json_null());
		}
		nv_json_value_set(o, "files", files);
		if (any_line)	/* outputs of a file of several: their first lines */
			nv_json_value_set(o, "lines", lines);
		else
			json_decref(lines);
		nv_json_value_set(o, "fio_versions", vers);
		nv_json_value_set(o, "formats", fmts);
		nv_json_value_set(o, "descriptions", descs);
		nv_json_value_set(o, "price_usd_per_hour",
				  jnum(r->sides[s].have_price, r->sides[s].price));
		nv_json_value_set(o, "disk_util", json_disks(r, &r->sides[s]));
		json_array_append_new(arr, o);
	}
	return arr;
}

/*
 * The summary (report/summary.h): per row the job, direction, and under the
 * metric's key ("iops", "bw_MB_per_s") each side's value and under
 * KEY_change_pct each compared side's change.
 * Return: the array (NULL when out of memory).
 */
static json_t *json_summary(const struct nv_report *r)
{
	struct nv_summary_row *rows;
	json_t *arr = json_array();
	size_t n;
	char mkey[96], key[200];

	if (!arr || nv_summary_build(r, (enum nv_headline)nv_display.headline, &rows, &n)) {
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct nv_block *b = &r->blocks[rows[i].block];
		const struct nv_row *row = rows[i].row;
		json_t *o = json_object(), *vals = json_object(), *chg = json_object();

		nv_json_value_set(o, "job", nv_json_value_str(b->key));
		nv_json_value_set(o, "direction", nv_json_value_str(nv_dir_name(b->dir)));
		json_key(mkey, sizeof(mkey), b, row->metric, row->level);
		for (size_t s = 0; s < r->nsides; s++)
			nv_json_value_set(vals, r->sides[s].label,
					  jnum(row->cells[s].n > 0, row->cells[s].value));
		for (size_t p = 0; p < r->npairs; p++) {
			pair_key(key, sizeof(key), r, p);
			nv_json_value_set(chg, key, jnum(row->pchg[p].have, row->pchg[p].pct));
		}
		nv_json_value_set(o, mkey, vals);
		jset_suffix(o, mkey, "_change_pct", chg);
		json_array_append_new(arr, o);
	}
	free(rows);
	return arr;
}

static const char *claim_op_text(enum nv_claim_op op)
{
	return op == NV_CLAIM_LE ? "<=" : op == NV_CLAIM_LT ? "<" : op == NV_CLAIM_GE ? ">=" : ">";
}

static json_t *json_claims(const struct nv_report *r)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];
		json_t *o = json_object();

		const struct nv_block *b = &r->blocks[c->block];
		char key[96];

		nv_json_value_set(o, "job", nv_json_value_str(b->key));
		nv_json_value_set(o, "direction", nv_json_value_str(nv_dir_name(b->dir)));
		nv_json_value_set(o, "run", nv_json_value_str(r->sides[c->side].label));
		nv_json_value_set(o, "claim", nv_json_value_str(c->claim->text));
		nv_claim_metric_name(key, sizeof(key), c->claim);
		nv_json_value_set(o, "metric", nv_json_value_str(key));
		if (c->claim->kind == NV_CLAIM_CHANGE) {
			nv_json_value_set(o, "baseline",
					  nv_json_value_str(r->sides[c->base].label));
			nv_json_value_set(o, "claimed_change_pct", json_real(c->claim->pct));
			nv_json_value_set(o, "tolerance_pct",
					  jnum(c->claim->have_tol, c->claim->tol));
			nv_json_value_set(o, "measured_change_pct",
					  jnum(c->chg.have, c->chg.pct));
			nv_json_value_set(o, "ci95_low_pct", jnum(c->chg.have_ci, c->chg.lo));
			nv_json_value_set(o, "ci95_high_pct", jnum(c->chg.have_ci, c->chg.hi));
		} else {
			json_key(key, sizeof(key), b, c->claim->metric, c->claim->level);
			nv_json_value_set(o, "operator",
					  nv_json_value_str(claim_op_text(c->claim->op)));
			jset_suffix(o, key, "_bound", json_real(c->claim->value));
			jset_suffix(o, key, "_measured", jnum(c->cell.n > 0, c->cell.mean));
		}
		nv_json_value_set(o, "verdict",
				  nv_json_value_str(nv_claim_verdict_name(c->verdict)));
		json_array_append_new(arr, o);
	}
	return arr;
}

int nv_render_json(FILE *out, const struct nv_report *r)
{
	return nv_render_json_with(out, r, NULL);
}

/*
 * The array of st's elements as the value of a member at depth, as
 * nv_render_json_emit writes an array, each element built, written and
 * freed in turn.
 * Return: nothing.
 */
static void emit_stream(FILE *out, const struct nv_json_stream *st, int depth)
{
	if (!st->n) {
		fputs("[]", out);
		return;
	}
	fputs("[\n", out);
	for (size_t i = 0; i < st->n; i++) {
		json_t *x = st->element(i, st->arg);

		fprintf(out, "%s%*s", i ? ",\n" : "", 2 * (depth + 1), "");
		if (x)
			nv_render_json_emit(out, x, depth + 1);
		else
			fputs("null", out);
		json_decref(x);
	}
	fprintf(out, "\n%*s]", 2 * depth, "");
}

int nv_render_json_with(FILE *out, const struct nv_report *r, const struct nv_json_stream *traces)
{
	json_t *root = json_object(), *blocks = json_array(), *unm = json_array();
	size_t n;

	if (!root || !blocks || !unm) {
		json_decref(root);
		json_decref(blocks);
		json_decref(unm);
		return -ENOMEM;
	}
	nv_json_value_set(root, "latency", nv_json_value_str(nv_latkind_name(r->lat)));
	nv_json_value_set(root, "aggregate", nv_json_value_str(nv_aggregate_name(r->agg)));
	nv_json_value_set(root, "baseline", nv_json_value_str(r->sides[r->baseline].label));
	nv_json_value_set(root, "sides", json_sides(r));
	nv_json_value_set(root, "about_equal_below_pct", json_real(r->same_below));
	nv_json_value_set(root, "summary", json_summary(r));
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		json_array_append_new(blocks, json_block(r, b));
		for (size_t s = 0; b->active && s < r->nsides; s++) {
			json_t *u;

			if (b->present[s])
				continue;
			u = json_object();
			nv_json_value_set(u, "job", nv_json_value_str(b->key));
			nv_json_value_set(u, "direction",
					  nv_json_value_str(nv_dir_name(b->dir)));
			nv_json_value_set(u, "missing_in", nv_json_value_str(r->sides[s].label));
			json_array_append_new(unm, u);
		}
	}
	nv_json_value_set(root, "results", blocks);
	nv_json_value_set(root, "unmatched", unm);
	nv_json_value_set(root, "claims", json_claims(r));
	if (r->curves && nv_curves_any(r->curves))	/* load curves (report/curve_json.c) */
		nv_json_value_set(root, "load_curves", nv_curves_json(r->curves));
	/* root as nv_render_json_emit writes it, "traces" last, element by element */
	fputs("{\n", out);
	n = emit_members(out, root, 0);
	if (traces) {
		emit_key(out, "traces", 0, n);
		emit_stream(out, traces, 1);
	}
	fputs("\n}\n", out);
	json_decref(root);
	return 0;
}
