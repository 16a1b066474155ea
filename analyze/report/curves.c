/*
 * curves.c - the load curves of a report (see curves.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curves.h"

struct nv_curve_opts nv_curve_opts_default(void)
{
	return (struct nv_curve_opts){
		.knee = {NV_KNEE_LAT_DEFAULT, NV_KNEE_TPUT_DEFAULT},
		.steady = {NV_STEADY_WINDOW_DEFAULT, NV_STEADY_RANGE_DEFAULT,
			   NV_STEADY_SLOPE_DEFAULT},
	};
}

unsigned long nv_round_of(const char *name, char *base, size_t n)
{
	const char *at = strchr(name, '@'), *t;
	unsigned long k = 0;
	size_t len;

	if (!at)
		return 0;
	for (t = at + 1; *t; t = strchr(t, ',') ? strchr(t, ',') + 1 : t + strlen(t)) {
		char *end;

		if (strncmp(t, "round=", 6))
			continue;
		k = strtoul(t + 6, &end, 10);
		if ((*end && *end != ',') || !k)
			return 0;
		break;
	}
	if (!k)
		return 0;
	/* the name without "round=K" (and its comma, or the '@' when it was the only tag) */
	len = (size_t)(t - name);
	if (len && name[len - 1] == ',')
		len--;
	snprintf(base, n, "%.*s", (int)len, name);
	t = strchr(t, ',');
	if (t) {
		size_t bl = strlen(base);

		snprintf(base + bl, n - bl, "%s%s", base[bl - 1] == '@' ? "" : ",", t + 1);
	} else if (len && base[strlen(base) - 1] == '@') {
		base[strlen(base) - 1] = 0;
	}
	return k;
}

/*
 * Whether curve cv is a line (its points ordered by the first parameter
 * alone: one parameter, or several that rise together as in a suite's
 * qd1 and qd64-j4 jobs) and whether it is a grid (two parameters, more
 * points than values of either: a matrix).  0 or -ENOMEM.
 */
static int curve_shape(struct nv_curve *cv)
{
	const struct nv_sweep *sw = cv->sw;
	double *v = calloc(sw->npoints, sizeof(*v));
	size_t n0, n1;

	if (!v)
		return -ENOMEM;
	n0 = nv_sweep_values(sw, sw->param[0], v, sw->npoints);
	n1 = sw->nparams > 1 ? nv_sweep_values(sw, sw->param[1], v, sw->npoints) : 0;
	cv->line = n0 == sw->npoints;
	cv->load = true;
	/* bs, rwmixread: the work, not the load */
	for (unsigned k = 0; k < sw->nparams; k++)
		cv->load &= sw->param[k] == NV_SW_IODEPTH || sw->param[k] == NV_SW_NUMJOBS;
	cv->grid = sw->nparams == 2 && sw->npoints > n0 && sw->npoints > n1;
	free(v);
	return 0;
}

/* The sweeps among the active blocks (one job offered per block). */
static int find_sweeps(struct nv_curves *c)
{
	const struct nv_report *r = c->r;
	struct nv_sweep_job *jobs = calloc(r->nblocks + 1, sizeof(*jobs));
	size_t *map = calloc(r->nblocks + 1, sizeof(*map));
	size_t n = 0;
	int ret = -ENOMEM;

	if (!jobs || !map)
		goto out;
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];
		const struct nv_job *j = nv_block_job(r, b);

		if (!b->active || b->dir == NV_DIR_SYNC || !j)
			continue;
		jobs[n] = (struct nv_sweep_job){
			.name = j->name, .meta = &j->meta, .dir = (int)b->dir};
		map[n++] = i;
	}
	ret = nv_sweeps_find(jobs, n, &c->sweeps);
	if (ret)
		goto out;
	c->c = calloc(c->sweeps.n + 1, sizeof(*c->c));
	if (!c->c) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t s = 0; s < c->sweeps.n; s++) {
		struct nv_curve *cv = &c->c[c->n++];
		const struct nv_sweep *sw = &c->sweeps.s[s];

		cv->sw = sw;
		cv->block = calloc(sw->npoints, sizeof(*cv->block));
		cv->knee = calloc(r->nsides, sizeof(*cv->knee));
		cv->knee_prev = calloc(r->nsides, sizeof(*cv->knee_prev));
		if (!cv->block || !cv->knee || !cv->knee_prev) {
			ret = -ENOMEM;
			goto out;
		}
		for (size_t p = 0; p < sw->npoints; p++)
			cv->block[p] = map[sw->pt[p].job];
		if ((ret = curve_shape(cv)))
			goto out;
		cv->tput = nv_block_headline(r, &r->blocks[cv->block[0]]) == NV_HL_BW
				   ? NV_M_BW
				   : NV_M_IOPS;
	}
out:
	free(jobs);
	free(map);
	return ret;
}

/* A side's value of metric m at block bi; NAN when missing. */
static double cell_value(const struct nv_report *r, size_t bi, enum nv_metric m, size_t s)
{
	const struct nv_row *row = nv_block_row(&r->blocks[bi], m);

	return row && row->cells[s].n ? row->cells[s].value : NAN;
}

/* Each run's knee of each line load curve, on p99.  0 or -ENOMEM. */
static int find_knees(struct nv_curves *c)
{
	const struct nv_report *r = c->r;

	for (size_t i = 0; i < c->n; i++) {
		struct nv_curve *cv = &c->c[i];
		size_t np = cv->sw->npoints;
		double *t = calloc(np, sizeof(*t)), *l = calloc(np, sizeof(*l));

		if (!t || !l) {
			free(t);
			free(l);
			return -ENOMEM;
		}
		for (size_t s = 0; s < r->nsides; s++) {
			for (size_t p = 0; p < np; p++) {
				t[p] = cell_value(r, cv->block[p], cv->tput, s);
				l[p] = cell_value(r, cv->block[p], NV_M_P99, s);
			}
			cv->knee[s] = cv->line && cv->load ?
				      nv_knee_find(t, l, np, &c->o.knee, &cv->knee_prev[s]) : -1;
		}
		free(t);
		free(l);
	}
	return 0;
}

static bool sla_matches(const struct nv_curves *c, const struct nv_claim *cl,
			const struct nv_curve *cv)
{
	const struct nv_report *r = c->r;

	if (!cl->job)
		return true;
	for (size_t p = 0; p < cv->sw->npoints; p++) {
		const struct nv_block *b = &r->blocks[cv->block[p]];
		const struct nv_job *j = nv_block_job(r, b);

		if (!fnmatch(cl->job, b->key, 0) || (j && !fnmatch(cl->job, j->name, 0)) ||
		    !fnmatch(cl->job, cv->sw->name, 0))
			return true;
	}
	return false;
}

/* One SLA on one curve.  0 or -ENOMEM. */
static int sla_one(struct nv_curves *c, const struct nv_claim *cl, size_t ci)
{
	const struct nv_report *r = c->r;
	const struct nv_curve *cv = &c->c[ci];
	size_t np = cv->sw->npoints;
	struct nv_sla_result *n = realloc(c->sla, (c->nsla + 1) * sizeof(*n));
	double *t;

	if (!n)
		return -ENOMEM;
	c->sla = n;
	n = &c->sla[c->nsla];
	memset(n, 0, sizeof(*n));
	n->claim = cl;
	n->curve = ci;
	n->ans = calloc(r->nsides, sizeof(*n->ans));
	n->v = calloc(r->nsides * np, sizeof(*n->v));
	t = calloc(np, sizeof(*t));
	if (!n->ans || !n->v || !t) {
		free(n->ans);
		free(n->v);
		free(t);
		return -ENOMEM;
	}
	c->nsla++;
	for (size_t s = 0; s < r->nsides; s++) {
		enum nv_sla_verdict *v = &n->v[s * np];

		for (size_t p = 0; p < np; p++) {
			const struct nv_row *row = nv_claim_row(&r->blocks[cv->block[p]], cl);

			t[p] = cell_value(r, cv->block[p], cv->tput, s);
			if (!row || !row->cells[s].n)
				v[p] = NV_SLA_ABSENT;
			else
				switch (nv_claim_judge_abs(cl, &row->cells[s])) {
				case NV_CLAIM_MET: v[p] = NV_SLA_MET; break;
				case NV_CLAIM_NOT_MET: v[p] = NV_SLA_NOT_MET; break;
				default: v[p] = NV_SLA_CANNOT_TELL; break;
				}
		}
		nv_sla_search(v, t, np, &n->ans[s]);
	}
	free(t);
	return 0;
}

/*
 * Whether a run of the report was read from fio's normal or terse output,
 * which carry no job options to recognise a sweep by.
 * Return: true or false.
 */
static bool any_text_run(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++) {
			const char *f = r->sides[s].runs[k].format;

			if (f && (!strcmp(f, "fio-normal") || !strcmp(f, "fio-terse")))
				return true;
		}
	return false;
}

static int eval_sla(struct nv_curves *c, char *err, size_t errlen)
{
	for (size_t k = 0; k < c->o.nsla; k++) {
		const struct nv_claim *cl = &c->o.sla[k];
		bool any = false;

		if (nv_claim_kind_shown(cl, c->r->lat, "--sla", err, errlen))
			return -ENOENT;	/* a sweep's read and write show --lat's kind */
		for (size_t i = 0; i < c->n; i++) {
			if (!sla_matches(c, cl, &c->c[i]))
				continue;
			any = true;
			if (sla_one(c, cl, i))
				return -ENOMEM;
		}
		if (!any) {
			snprintf(
				err, errlen,
				"--sla '%s': %s; an SLA is searched over the points of "
				"a sweep (jobs that differ only in iodepth, numjobs, bs or "
				"rwmixread, "
				"see docs/analysis.md)",
				cl->text,
				c->n ? "no sweep matches its job pattern"
				: any_text_run(c->r)
					? "the input has no sweep (fio's normal and terse "
					  "outputs carry no job options to find one by: give "
					  "fio's JSON, --output-format=json or normal,json)"
					: "the input has no sweep");
			return -ENOENT;
		}
	}
	return 0;
}

/* The rounds series of block b's job, found or added.  NULL: out of memory. */
static struct nv_rounds *rounds_for(struct nv_curves *c, const char *base, enum nv_dir d)
{
	struct nv_rounds *n;

	for (size_t i = 0; i < c->nrounds; i++)
		if (c->rounds[i].dir == d && !strcmp(c->rounds[i].name, base))
			return &c->rounds[i];
	n = realloc(c->rounds, (c->nrounds + 1) * sizeof(*n));
	if (!n)
		return NULL;
	c->rounds = n;
	n = &c->rounds[c->nrounds];
	memset(n, 0, sizeof(*n));
	n->dir = d;
	if (!(n->name = strdup(base)))
		return NULL;
	c->nrounds++;
	return n;
}

static int add_round(struct nv_rounds *rs, unsigned long k, size_t bi)
{
	if (k > rs->n) {
		size_t *nb = realloc(rs->block, k * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		for (size_t i = rs->n; i < k; i++)
			nb[i] = SIZE_MAX;
		rs->block = nb;
		rs->n = k;
	}
	rs->block[k - 1] = bi;
	return 0;
}

static int find_rounds(struct nv_curves *c)
{
	const struct nv_report *r = c->r;

	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];
		const struct nv_job *j = nv_block_job(r, b);
		struct nv_rounds *rs;
		char base[256];
		unsigned long k;

		if (!b->active || b->dir == NV_DIR_SYNC || !j)
			continue;
		k = nv_round_of(j->name, base, sizeof(base));
		if (!k || k > 100000)
			continue;
		rs = rounds_for(c, base, b->dir);
		if (!rs || add_round(rs, k, i))
			return -ENOMEM;
	}
	for (size_t i = 0; i < c->nrounds; i++) {
		struct nv_rounds *rs = &c->rounds[i];
		size_t first = 0;

		while (rs->block[first] == SIZE_MAX)
			first++;
		rs->metric = nv_block_headline(r, &r->blocks[rs->block[first]]) == NV_HL_BW ?
			     NV_M_BW : NV_M_IOPS;
		rs->v = calloc(r->nsides * rs->n, sizeof(*rs->v));
		rs->st = calloc(r->nsides, sizeof(*rs->st));
		if (!rs->v || !rs->st)
			return -ENOMEM;
		for (size_t s = 0; s < r->nsides; s++) {
			double *v = &rs->v[s * rs->n];

			for (size_t k = 0; k < rs->n; k++)
				v[k] = rs->block[k] == SIZE_MAX ? NAN :
				       cell_value(r, rs->block[k], rs->metric, s);
			nv_steady_find(v, rs->n, &c->o.steady, &rs->st[s]);
		}
	}
	return 0;
}

int nv_curves_build(const struct nv_report *r, const struct nv_curve_opts *o,
		    struct nv_curves *c, char *err, size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->o = *o;
	if (o->lat.n)
		c->lat = o->lat;
	else
		c->lat = (struct nv_pctl){ .n = 3, .v = { 50, 99, 99.9 } };
	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			c->have_ss |= r->runs[i].run->jobs[j].meta.ss.present;
			c->have_lt |= r->runs[i].run->jobs[j].meta.lt.present;
		}
	ret = find_sweeps(c);
	if (!ret)
		ret = find_knees(c);
	if (!ret)
		ret = find_rounds(c);
	if (!ret)
		ret = eval_sla(c, err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		nv_curves_free(c);
	return ret;
}

bool nv_curves_any(const struct nv_curves *c)
{
	return c->n || c->nrounds || c->have_ss || c->have_lt;
}

void nv_curves_free(struct nv_curves *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->c[i].block);
		free(c->c[i].knee);
		free(c->c[i].knee_prev);
	}
	free(c->c);
	for (size_t i = 0; i < c->nsla; i++) {
		free(c->sla[i].ans);
		free(c->sla[i].v);
	}
	free(c->sla);
	for (size_t i = 0; i < c->nrounds; i++) {
		free(c->rounds[i].name);
		free(c->rounds[i].block);
		free(c->rounds[i].v);
		free(c->rounds[i].st);
	}
	free(c->rounds);
	nv_sweeps_free(&c->sweeps);
	memset(c, 0, sizeof(*c));
}
