/*
 * curve_json.c - the load curves in --format json (and -o's tables.json):
 * the sweeps with every point's numbers per run and the knees, the SLA
 * answers, fio's latency-target and steady-state results, the rounds.
 * Keys follow the comparison's: iops, bw_MB_per_s, p50_ns ...; absent
 * points and missing values are null.  See curves.h.
 */
#include <math.h>
#include <stdint.h>

#include "analyze/report/curves.h"
#include "analyze/report/json_value.h"
#include "analyze/report/render.h"

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : NULL;
}

static json_t *point_name(const struct nv_sweep *sw, long p)
{
	char buf[128];

	if (p < 0)
		return NULL;
	nv_sweep_point_name(buf, sizeof(buf), sw, (size_t)p);
	return nv_json_value_str(buf);
}

/* One run's numbers at block bi, or NULL when the run lacks the point. */
static json_t *point_run(const struct nv_report *r, size_t bi, size_t s)
{
	static const struct { enum nv_metric m; const char *key; } keys[] = {
		{ NV_M_IOPS, "iops" }, { NV_M_BW, "bw_MB_per_s" }, { NV_M_P50, "p50_ns" },
		{ NV_M_P99, "p99_ns" }, { NV_M_P999, "p99.9_ns" },
	};
	const struct nv_block *b = &r->blocks[bi];
	const struct nv_row *p99 = nv_block_row(b, NV_M_P99);
	json_t *o;

	if (!b->present[s])
		return NULL;
	o = json_object();
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const struct nv_row *row = nv_block_row(b, keys[k].m);

		nv_json_value_set(o, keys[k].key, row && row->cells[s].n ?
				  json_real(row->cells[s].value) : NULL);
	}
	nv_json_value_set(o, "exact", json_boolean(p99 && p99->cells[s].src == NV_SRC_EXACT));
	nv_json_value_set(o, "job", nv_json_value_str(b->key));
	return o;
}

static json_t *sweep_json(const struct nv_curves *c, const struct nv_curve *cv)
{
	const struct nv_report *r = c->r;
	json_t *o = json_object(), *params = json_array(), *pts = json_array();
	json_t *knees = json_object();

	nv_json_value_set(o, "name", nv_json_value_str(cv->sw->name));
	nv_json_value_set(o, "direction",
			  nv_json_value_str(nv_dir_name((enum nv_dir)cv->sw->dir)));
	for (unsigned k = 0; k < cv->sw->nparams; k++)
		json_array_append_new(params,
				      nv_json_value_str(nv_sweep_key_name(cv->sw->param[k])));
	nv_json_value_set(o, "parameters", params);
	nv_json_value_set(o, "throughput", nv_json_value_str(nv_metric(cv->tput)->key));
	for (size_t p = 0; p < cv->sw->npoints; p++) {
		json_t *pt = json_object(), *runs = json_object();

		for (unsigned k = 0; k < cv->sw->nparams; k++)
			nv_json_value_set(pt, nv_sweep_key_name(cv->sw->param[k]),
					  json_real(cv->sw->pt[p].v[cv->sw->param[k]]));
		for (size_t s = 0; s < r->nsides; s++)
			nv_json_value_set(runs, r->sides[s].label, point_run(r, cv->block[p], s));
		nv_json_value_set(pt, "runs", runs);
		json_array_append_new(pts, pt);
	}
	nv_json_value_set(o, "points", pts);
	for (size_t s = 0; cv->line && cv->load && s < r->nsides; s++) {
		json_t *k = NULL;

		if (cv->knee[s] >= 0) {
			k = json_object();
			nv_json_value_set(k, "point", point_name(cv->sw, cv->knee[s]));
			nv_json_value_set(k, "from", point_name(cv->sw, (long)cv->knee_prev[s]));
		}
		nv_json_value_set(knees, r->sides[s].label, k);
	}
	nv_json_value_set(o, "knee", cv->line && cv->load ? knees : NULL);
	if (!cv->line || !cv->load)
		json_decref(knees);
	return o;
}

static json_t *sla_json(const struct nv_curves *c, const struct nv_sla_result *sr)
{
	const struct nv_sweep *sw = c->c[sr->curve].sw;
	json_t *o = json_object(), *runs = json_object();

	nv_json_value_set(o, "sla", nv_json_value_str(sr->claim->text));
	nv_json_value_set(o, "sweep", nv_json_value_str(sw->name));
	nv_json_value_set(o, "direction", nv_json_value_str(nv_dir_name((enum nv_dir)sw->dir)));
	for (size_t s = 0; s < c->r->nsides; s++) {
		json_t *a = json_object();

		nv_json_value_set(a, "best", point_name(sw, sr->ans[s].best));
		nv_json_value_set(a, "first_not_met", point_name(sw, sr->ans[s].first_fail));
		nv_json_value_set(a, "first_cannot_tell",
				  point_name(sw, sr->ans[s].first_unsure));
		nv_json_value_set(a, "first_absent", point_name(sw, sr->ans[s].first_absent));
		nv_json_value_set(a, "absent", json_integer((json_int_t)sr->ans[s].nabsent));
		nv_json_value_set(runs, c->r->sides[s].label, a);
	}
	nv_json_value_set(o, "runs", runs);
	return o;
}

static json_t *fio_results(const struct nv_report *r, bool ss)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			const struct nv_job *jb = &r->runs[i].run->jobs[j];
			const struct nv_steadystate *st = &jb->meta.ss;
			const struct nv_lattarget *lt = &jb->meta.lt;
			json_t *o;

			if (ss ? !st->present : !lt->present)
				continue;
			o = json_object();
			nv_json_value_set(o, "job", nv_json_value_str(jb->key));
			nv_json_value_set(o, "run", nv_json_value_str(r->runs[i].label));
			if (ss) {
				nv_json_value_set(o, "ss",
						  st->ss ? nv_json_value_str(st->ss) : NULL);
				nv_json_value_set(o, "duration_s", num_or_null(st->duration));
				nv_json_value_set(o, "attained", json_boolean(st->attained));
				nv_json_value_set(o, "elapsed_s", num_or_null(st->elapsed));
				nv_json_value_set(o, "criterion",
						  st->criterion ?
						  nv_json_value_str(st->criterion) : NULL);
				nv_json_value_set(o, "max_deviation",
						  num_or_null(st->max_deviation));
				nv_json_value_set(o, "slope", num_or_null(st->slope));
				nv_json_value_set(o, "iops_mean", num_or_null(st->iops_mean));
				nv_json_value_set(o, "bw_bytes_per_s_mean",
						  num_or_null(st->bw_mean));
			} else {
				nv_json_value_set(o, "latency_target_ns",
						  num_or_null(lt->target_ns));
				nv_json_value_set(o, "latency_percentile",
						  num_or_null(lt->percentile));
				nv_json_value_set(o, "latency_window_ns",
						  num_or_null(lt->window_ns));
				nv_json_value_set(o, "latency_depth", num_or_null(lt->depth));
			}
			json_array_append_new(a, o);
		}
	return a;
}

static json_t *rounds_json(const struct nv_curves *c, const struct nv_rounds *rs)
{
	json_t *o = json_object(), *runs = json_object();

	nv_json_value_set(o, "name", nv_json_value_str(rs->name));
	nv_json_value_set(o, "direction", nv_json_value_str(nv_dir_name(rs->dir)));
	nv_json_value_set(o, "metric", nv_json_value_str(nv_metric(rs->metric)->key));
	for (size_t s = 0; s < c->r->nsides; s++) {
		json_t *x = json_object(), *v = json_array();

		for (size_t k = 0; k < rs->n; k++)
			json_array_append_new(v, num_or_null(rs->v[s * rs->n + k]) ?: json_null());
		nv_json_value_set(x, "values", v);
		nv_json_value_set(x, "steady_from_round", rs->st[s].reached ?
				  json_integer((json_int_t)rs->st[s].first + 1) : NULL);
		nv_json_value_set(x, "value",
				  rs->st[s].reached ? json_real(rs->st[s].mean) : NULL);
		nv_json_value_set(runs, c->r->sides[s].label, x);
	}
	nv_json_value_set(o, "runs", runs);
	return o;
}

json_t *nv_curves_json(const struct nv_curves *c)
{
	json_t *o = json_object(), *sw = json_array(), *sla = json_array(), *rounds = json_array();

	for (size_t i = 0; i < c->n; i++)
		json_array_append_new(sw, sweep_json(c, &c->c[i]));
	for (size_t i = 0; i < c->nsla; i++)
		json_array_append_new(sla, sla_json(c, &c->sla[i]));
	for (size_t i = 0; i < c->nrounds; i++)
		json_array_append_new(rounds, rounds_json(c, &c->rounds[i]));
	nv_json_value_set(o, "sweeps", sw);
	nv_json_value_set(o, "sla", sla);
	nv_json_value_set(o, "fio_latency_target", fio_results(c->r, false));
	nv_json_value_set(o, "fio_steadystate", fio_results(c->r, true));
	nv_json_value_set(o, "rounds", rounds);
	return o;
}
