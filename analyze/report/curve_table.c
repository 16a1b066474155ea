/*
 * curve_table.c - the load curves for people (Markdown and text): per sweep
 * one table per run with the change per point, the knee, the matrix of a
 * two-parameter sweep; the SLA answers; fio's latency-target and
 * steady-state results; the rounds' steady state.  See curves.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curves.h"
#include "analyze/report/render.h"

/* The throughput columns of a point table, before the latency levels (curves->lat). */
static const enum nv_metric tput_metrics[] = { NV_M_IOPS, NV_M_BW };
#define NTM (sizeof(tput_metrics) / sizeof(tput_metrics[0]))

static void heading(FILE *out, enum nv_format f, int level, const char *title)
{
	if (f == NV_FMT_MD)
		fprintf(out, "%.*s %s\n\n", level, "####", title);
	else
		fprintf(out, "%s %s %s\n", level < 3 ? "==" : "--", title,
			level < 3 ? "==" : "--");
}

/* One cell of row (NULL: none) at block bi for side s, as the tables show it. */
static void row_text(char *buf, size_t n, const struct nv_report *r, size_t bi,
		     const struct nv_row *row, size_t s)
{
	const struct nv_block *b = &r->blocks[bi];

	if (!b->present[s]) {
		snprintf(buf, n, "absent");
		return;
	}
	if (!row) {
		snprintf(buf, n, "-");
		return;
	}
	nv_render_md_cell(buf, n, &row->cells[s], &r->sides[s], nv_metric(row->metric)->unit,
			  row->cells[s].value);
}

/* One cell of metric m at block bi for side s. */
static void cell_text(char *buf, size_t n, const struct nv_report *r, size_t bi, enum nv_metric m,
		      size_t s)
{
	row_text(buf, n, r, bi, nv_block_row(&r->blocks[bi], m), s);
}

/* Point table column m: a throughput metric, then the curves' latency levels. */
static void column_title(char *buf, size_t n, const struct nv_curves *c,
			 const struct nv_block *b, size_t m)
{
	double l;

	if (m < NTM) {
		nv_fmt_metric_title(buf, n, b, tput_metrics[m]);
		return;
	}
	l = c->lat.v[m - NTM];
	nv_fmt_row_title(buf, n, b, &(struct nv_row){ .metric = nv_level_metric(l), .level = l });
}

static void column_text(char *buf, size_t n, const struct nv_curves *c, size_t bi, size_t m,
			size_t s)
{
	const struct nv_block *b = &c->r->blocks[bi];

	row_text(buf, n, c->r, bi,
		 m < NTM ? nv_block_row(b, tput_metrics[m]) : nv_block_level_row(b, c->lat.v[m - NTM]),
		 s);
}

/* The table of side s of curve cv: the points, their numbers, the change vs the baseline. */
static int side_table(FILE *out, const struct nv_curves *c, const struct nv_curve *cv, size_t s,
		      enum nv_format f)
{
	const struct nv_report *r = c->r;
	const struct nv_sweep *sw = cv->sw;
	const struct nv_block *b0 = &r->blocks[cv->block[0]];
	bool chg = r->nsides > 1 && s != r->baseline;
	size_t npm = NTM + c->lat.n;
	size_t cols = sw->nparams + npm + (chg ? 2 : 0);
	struct nv_grid g;
	char buf[256];

	if (nv_grid_init(&g, sw->npoints + 1, cols))
		return -ENOMEM;
	for (unsigned k = 0; k < sw->nparams; k++)
		nv_grid_set(&g, 0, k, nv_sweep_key_name(sw->param[k]));
	for (size_t m = 0; m < npm; m++) {
		column_title(buf, sizeof(buf), c, b0, m);
		nv_grid_set(&g, 0, sw->nparams + m, buf);
	}
	if (chg) {
		snprintf(buf, sizeof(buf), "%s vs %s", nv_metric(cv->tput)->title,
			 r->sides[r->baseline].label);
		nv_grid_set(&g, 0, cols - 2, buf);
		nv_fmt_metric_title(buf, sizeof(buf) - 40, b0, NV_M_P99);
		snprintf(buf + strlen(buf), 40, " vs %.30s", r->sides[r->baseline].label);
		nv_grid_set(&g, 0, cols - 1, buf);
	}
	for (size_t p = 0; p < sw->npoints; p++) {
		size_t bi = cv->block[p];

		for (unsigned k = 0; k < sw->nparams; k++) {
			nv_sweep_value_text(buf, sizeof(buf), sw->param[k],
					    sw->pt[p].v[sw->param[k]]);
			nv_grid_set(&g, p + 1, k, buf);
		}
		for (size_t m = 0; m < npm; m++) {
			column_text(buf, sizeof(buf), c, bi, m, s);
			nv_grid_set(&g, p + 1, sw->nparams + m, buf);
		}
		for (unsigned k = 0; chg && k < 2; k++) {
			const struct nv_row *row =
				nv_block_row(&r->blocks[bi], k ? NV_M_P99 : cv->tput);

			if (!r->blocks[bi].present[s] || !r->blocks[bi].present[r->baseline])
				snprintf(buf, sizeof(buf), "absent");
			else if (row)
				nv_fmt_change(buf, sizeof(buf), &row->chg[s]);
			else
				snprintf(buf, sizeof(buf), "-");
			nv_grid_set(&g, p + 1, cols - 2 + k, buf);
		}
	}
	fprintf(out, f == NV_FMT_MD ? "**%s**%s\n\n" : "%s%s:\n", r->sides[s].label,
		r->sides[s].nruns > 1 ? " (mean of the repeats ± their spread)" : "");
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	return 0;
}

/* The knee sentence of side s. */
static void knee_line(FILE *out, const struct nv_curves *c, const struct nv_curve *cv, size_t s,
		      enum nv_format f)
{
	const char *em = f == NV_FMT_MD ? "**" : "";
	const struct nv_report *r = c->r;
	const struct nv_block *b0 = &r->blocks[cv->block[0]];
	char title[64], pn[128], qn[128], a[64], b[64];
	long k = cv->knee[s];

	bool any = false;

	for (size_t p = 0; p < cv->sw->npoints; p++)
		any |= r->blocks[cv->block[p]].present[s];
	if (!any) {
		fprintf(out, "No knee (%s): the run has none of the sweep's points.\n",
			r->sides[s].label);
		return;
	}
	nv_fmt_metric_title(title, sizeof(title), b0, NV_M_P99);
	any = false;
	for (size_t p = 0; p < cv->sw->npoints; p++)
		any |= nv_block_row(&r->blocks[cv->block[p]], NV_M_P99) != NULL;
	if (!any) {
		fprintf(out, "No knee (%s): %s not measured (the knee rule is on p99: add 99 to "
			"--percentiles).\n", r->sides[s].label, title);
		return;
	}
	if (k < 0) {
		fprintf(out,
			"No knee (%s): %s never more than %gx the previous point's while %s "
			"grew by less than %g%%.\n",
			r->sides[s].label, title, c->o.knee.lat_factor, nv_metric(cv->tput)->title,
			c->o.knee.tput_pct);
		return;
	}
	{
		size_t p = (size_t)k, q = cv->knee_prev[s];
		double lp = nv_block_row(&r->blocks[cv->block[p]], NV_M_P99)->cells[s].value;
		double lq = nv_block_row(&r->blocks[cv->block[q]], NV_M_P99)->cells[s].value;
		double tp = nv_block_row(&r->blocks[cv->block[p]], cv->tput)->cells[s].value;
		double tq = nv_block_row(&r->blocks[cv->block[q]], cv->tput)->cells[s].value;

		nv_sweep_point_name(pn, sizeof(pn), cv->sw, p);
		nv_sweep_point_name(qn, sizeof(qn), cv->sw, q);
		nv_fmt_value(a, sizeof(a), lq, NV_U_NS);
		nv_fmt_value(b, sizeof(b), lp, NV_U_NS);
		fprintf(out,
			"%sKnee (%s): %s%s: %s %.2fx (%s to %s) while %s %+.1f%% (from %s; rule: "
			"%s > %gx, %s < +%g%%).\n",
			em, r->sides[s].label, pn, em, title, lp / lq, a, b,
			nv_metric(cv->tput)->title, 100 * (tp - tq) / tq, qn, title,
			c->o.knee.lat_factor, nv_metric(cv->tput)->title, c->o.knee.tput_pct);
	}
}

/* The point of a two-parameter sweep at (a, b), or -1. */
static long matrix_point(const struct nv_sweep *sw, double a, double b)
{
	for (size_t p = 0; p < sw->npoints; p++)
		if (sw->pt[p].v[sw->param[0]] == a && sw->pt[p].v[sw->param[1]] == b)
			return (long)p;
	return -1;
}

/* Side s's matrix of a two-parameter curve: rows param[0], columns param[1]. */
static int matrix(FILE *out, const struct nv_curves *c, const struct nv_curve *cv, size_t s,
		  enum nv_format f)
{
	const struct nv_report *r = c->r;
	const struct nv_sweep *sw = cv->sw;
	double *rv = calloc(2 * sw->npoints, sizeof(*rv)), *cvv = rv + sw->npoints;
	size_t nr, nc;
	struct nv_grid g;
	char buf[256];

	if (!rv)
		return -ENOMEM;
	nr = nv_sweep_values(sw, sw->param[0], rv, sw->npoints);
	nc = nv_sweep_values(sw, sw->param[1], cvv, sw->npoints);
	if (nv_grid_init(&g, nr + 1, nc + 1)) {
		free(rv);
		return -ENOMEM;
	}
	snprintf(buf, sizeof(buf), "%s \\ %s", nv_sweep_key_name(sw->param[0]),
		 nv_sweep_key_name(sw->param[1]));
	nv_grid_set(&g, 0, 0, buf);
	for (size_t j = 0; j < nc; j++) {
		nv_sweep_value_text(buf, sizeof(buf), sw->param[1], cvv[j]);
		nv_grid_set(&g, 0, j + 1, buf);
	}
	for (size_t i = 0; i < nr; i++) {
		nv_sweep_value_text(buf, sizeof(buf), sw->param[0], rv[i]);
		nv_grid_set(&g, i + 1, 0, buf);
		for (size_t j = 0; j < nc; j++) {
			long p = matrix_point(sw, rv[i], cvv[j]);

			if (p < 0)
				snprintf(buf, sizeof(buf), "not run");
			else
				cell_text(buf, sizeof(buf), r, cv->block[p], cv->tput, s);
			nv_grid_set(&g, i + 1, j + 1, buf);
		}
	}
	fprintf(out, f == NV_FMT_MD ? "**%s**: %s by %s (rows) and %s (columns)\n\n" :
		"%s: %s by %s (rows) and %s (columns)\n", r->sides[s].label,
		nv_metric(cv->tput)->title, nv_sweep_key_name(sw->param[0]),
		nv_sweep_key_name(sw->param[1]));
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	free(rv);
	return 0;
}

static int print_curve(FILE *out, const struct nv_curves *c, const struct nv_curve *cv,
		       enum nv_format f)
{
	const struct nv_report *r = c->r;
	char title[512], params[128] = "";
	size_t len = 0;

	for (unsigned k = 0; k < cv->sw->nparams; k++)
		len += (size_t)snprintf(params + len, sizeof(params) - len, "%s%s",
					k ? " x " : "", nv_sweep_key_name(cv->sw->param[k]));
	snprintf(title, sizeof(title), "%s · %s: %s sweep, %zu points", cv->sw->name,
		 nv_dir_name((enum nv_dir)cv->sw->dir), params, cv->sw->npoints);
	heading(out, f, 3, title);
	for (size_t s = 0; s < r->nsides; s++)
		if (side_table(out, c, cv, s, f))
			return -ENOMEM;
	if (cv->line && !cv->load)
		fprintf(out, "No knee: a knee is where added load stops adding throughput (an "
			"iodepth or numjobs sweep); a %s sweep changes the work of each IO, so "
			"its throughput falls or rises by nature.\n\n",
			nv_sweep_key_name(cv->sw->param[0]));
	if (cv->line && cv->load) {
		for (size_t s = 0; s < r->nsides; s++) {
			knee_line(out, c, cv, s, f);
			fputc('\n', out);	/* a paragraph each */
		}
	}
	for (size_t s = 0; cv->grid && s < r->nsides; s++)
		if (matrix(out, c, cv, s, f))
			return -ENOMEM;
	return 0;
}

/* "iodepth=8: 95,000 IOPS, clat p99 812 us" */
static void sla_point(char *buf, size_t n, const struct nv_curves *c,
		      const struct nv_sla_result *sr, size_t s, long p)
{
	const struct nv_curve *cv = &c->c[sr->curve];
	const struct nv_report *r = c->r;
	const struct nv_block *b = &r->blocks[cv->block[p]];
	const struct nv_row *row;
	char pn[128], t[64], v[64], title[64];

	nv_sweep_point_name(pn, sizeof(pn), cv->sw, (size_t)p);
	cell_text(t, sizeof(t), r, cv->block[p], cv->tput, s);
	row = nv_claim_row(b, sr->claim);
	if (row)
		nv_render_md_cell(v, sizeof(v), &row->cells[s], &r->sides[s],
				  nv_metric(row->metric)->unit, row->cells[s].value);
	else
		snprintf(v, sizeof(v), "-");
	nv_fmt_row_title(title, sizeof(title), b, &(struct nv_row){ .metric = sr->claim->metric,
								.level = sr->claim->level });
	snprintf(buf, n, "%s: %s %s, %s %s", pn, t, cv->tput == NV_M_BW ? "" : "IOPS", title, v);
}

/* The SLA's metric as the tables name it: "clat p99". */
static void sla_title(char *buf, size_t n, const struct nv_curves *c,
		      const struct nv_sla_result *sr)
{
	const struct nv_block *b = &c->r->blocks[c->c[sr->curve].block[0]];

	nv_fmt_row_title(buf, n, b, &(struct nv_row){ .metric = sr->claim->metric,
						      .level = sr->claim->level });
}

/*
 * Why side s's first absent point has no verdict: "iodepth=8: not run" or
 * "iodepth=8: clat p99 not measured", and how many more there are.
 */
static void sla_absent(char *buf, size_t n, const struct nv_curves *c,
		       const struct nv_sla_result *sr, size_t s)
{
	const struct nv_curve *cv = &c->c[sr->curve];
	const struct nv_sla_answer *a = &sr->ans[s];
	size_t p = (size_t)a->first_absent, len;
	char pn[128], title[64];

	nv_sweep_point_name(pn, sizeof(pn), cv->sw, p);
	sla_title(title, sizeof(title), c, sr);
	if (c->r->blocks[cv->block[p]].present[s])
		len = (size_t)snprintf(buf, n, "%s: %s not measured", pn, title);
	else
		len = (size_t)snprintf(buf, n, "%s: not run", pn);
	if (a->nabsent > 1 && len < n)
		snprintf(buf + len, n - len, " (and %zu more)", a->nabsent - 1);
}

/* Side s's row of the SLA table: best, first not met, cannot tell. */
static void sla_row(struct nv_grid *g, const struct nv_curves *c, const struct nv_sla_result *sr,
		    size_t s)
{
	const struct nv_sla_answer *a = &sr->ans[s];
	size_t np = c->c[sr->curve].sw->npoints;
	char buf[512], title[64];

	nv_grid_set(g, s + 1, 0, c->r->sides[s].label);
	if (a->nabsent == np) {	/* judged on nothing: no answer, not "every point meets it" */
		sla_title(title, sizeof(title), c, sr);
		snprintf(buf, sizeof(buf), "cannot tell: %s not measured", title);
		for (unsigned k = 1; k < 3; k++)
			nv_grid_set(g, s + 1, k, buf);
		sla_absent(buf, sizeof(buf), c, sr, s);
		nv_grid_set(g, s + 1, 3, buf);
		return;
	}
	if (a->best >= 0)
		sla_point(buf, sizeof(buf), c, sr, s, a->best);
	nv_grid_set(g, s + 1, 1, a->best >= 0 ? buf : "none");
	if (a->first_fail >= 0)
		sla_point(buf, sizeof(buf), c, sr, s, a->first_fail);
	else if (a->nabsent)
		snprintf(buf, sizeof(buf), "none of the %zu measured points", np - a->nabsent);
	nv_grid_set(g, s + 1, 2,
		    a->first_fail >= 0 || a->nabsent ? buf : "none: every point meets it");
	if (a->first_unsure >= 0) {
		sla_point(buf, sizeof(buf), c, sr, s, a->first_unsure);
		strncat(buf, " (the repeats' 95% interval straddles the bound)",
			sizeof(buf) - strlen(buf) - 1);
	} else if (a->nabsent) {
		sla_absent(buf, sizeof(buf), c, sr, s);
	}
	nv_grid_set(g, s + 1, 3, a->first_unsure >= 0 || a->nabsent ? buf : "-");
}

static int print_sla(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	const struct nv_report *r = c->r;

	for (size_t i = 0; i < c->nsla; i++) {
		const struct nv_sla_result *sr = &c->sla[i];
		const struct nv_curve *cv = &c->c[sr->curve];
		struct nv_grid g;
		char buf[512];

		snprintf(buf, sizeof(buf), "SLA %s on %s · %s", sr->claim->text, cv->sw->name,
			 nv_dir_name((enum nv_dir)cv->sw->dir));
		heading(out, f, 3, buf);
		if (nv_grid_init(&g, r->nsides + 1, 4))
			return -ENOMEM;
		nv_grid_set(&g, 0, 0, "run");
		nv_grid_set(&g, 0, 1, "highest throughput meeting it");
		nv_grid_set(&g, 0, 2, "first point not meeting it");
		nv_grid_set(&g, 0, 3, "cannot tell");
		for (size_t s = 0; s < r->nsides; s++)
			sla_row(&g, c, sr, s);
		nv_grid_print(out, &g, f);
		fprintf(out, "\nMeasured points only, no interpolation%s.\n\n",
			r->nsides && nv_report_repeats(r) ? "; with repeats a point meets the SLA "
			"when the 95% interval of its mean does" : "");
		nv_grid_free(&g);
	}
	return 0;
}

/* Each run's jobs with fio's latency_target or steadystate result: grid rows. */
static size_t count_jobs(const struct nv_report *r, bool ss)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++)
			n += ss ? r->runs[i].run->jobs[j].meta.ss.present :
				  r->runs[i].run->jobs[j].meta.lt.present;
	return n;
}

static void fmt_num(char *buf, size_t n, double v, enum nv_unit u)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		nv_fmt_value(buf, n, v, u);
}

/*
 * A table of nrows rows under the header row hdr[0..ncols).
 * Return: 0 or -ENOMEM.
 */
static int grid_with_header(struct nv_grid *g, size_t nrows, const char *const *hdr, size_t ncols)
{
	if (nv_grid_init(g, nrows + 1, ncols))
		return -ENOMEM;
	for (size_t k = 0; k < ncols; k++)
		nv_grid_set(g, 0, k, hdr[k]);
	return 0;
}

static int print_lt(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	static const char *const hdr[] = { "job", "run", "target", "percentile", "window",
					   "depth meeting it" };
	const struct nv_report *r = c->r;
	struct nv_grid g;
	size_t row = 1;
	char buf[128];

	if (grid_with_header(&g, count_jobs(r, false), hdr, sizeof(hdr) / sizeof(hdr[0])))
		return -ENOMEM;
	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			const struct nv_job *jb = &r->runs[i].run->jobs[j];
			const struct nv_lattarget *lt = &jb->meta.lt;

			if (!lt->present)
				continue;
			nv_grid_set(&g, row, 0, jb->key);
			nv_grid_set(&g, row, 1, r->runs[i].label);
			fmt_num(buf, sizeof(buf), lt->target_ns, NV_U_NS);
			nv_grid_set(&g, row, 2, lt->target_ns > 0 ? buf : "0 (none)");
			snprintf(buf, sizeof(buf), "%g%%", lt->percentile);
			nv_grid_set(&g, row, 3, buf);
			fmt_num(buf, sizeof(buf), lt->window_ns, NV_U_NS);
			nv_grid_set(&g, row, 4, buf);
			snprintf(buf, sizeof(buf), "%g", lt->depth);
			nv_grid_set(&g, row++, 5, buf);
		}
	heading(out, f, 3, "fio's latency target (latency_target=)");
	nv_grid_print(out, &g, f);
	fprintf(out, "\nAs fio wrote them: the highest queue depth whose IOs met the target "
		"(latency_depth).\n\n");
	nv_grid_free(&g);
	return 0;
}

static int print_ss(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	static const char *const hdr[] = { "job", "run", "criterion", "window", "attained",
					   "stopped at", "last value", "max deviation", "slope",
					   "IOPS mean", "MB/s mean" };
	const struct nv_report *r = c->r;
	struct nv_grid g;
	size_t row = 1;
	char buf[128];

	if (grid_with_header(&g, count_jobs(r, true), hdr, sizeof(hdr) / sizeof(hdr[0])))
		return -ENOMEM;
	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			const struct nv_job *jb = &r->runs[i].run->jobs[j];
			const struct nv_steadystate *ss = &jb->meta.ss;

			if (!ss->present)
				continue;
			nv_grid_set(&g, row, 0, jb->key);
			nv_grid_set(&g, row, 1, r->runs[i].label);
			nv_grid_set(&g, row, 2, ss->ss ? ss->ss : "-");
			snprintf(buf, sizeof(buf), "%g s", ss->duration);
			nv_grid_set(&g, row, 3, buf);
			nv_grid_set(&g, row, 4, ss->attained ? "yes" : "no");
			snprintf(buf, sizeof(buf), "%g s", ss->elapsed);
			nv_grid_set(&g, row, 5, isnan(ss->elapsed) ? "-" : buf);
			nv_grid_set(&g, row, 6, ss->criterion ? ss->criterion : "-");
			nv_fmt_exact(buf, sizeof(buf), ss->max_deviation);
			nv_grid_set(&g, row, 7, buf);
			nv_fmt_exact(buf, sizeof(buf), ss->slope);
			nv_grid_set(&g, row, 8, buf);
			fmt_num(buf, sizeof(buf), ss->iops_mean, NV_U_IOPS);
			nv_grid_set(&g, row, 9, buf);
			fmt_num(buf, sizeof(buf), ss->bw_mean / 1e6, NV_U_MBPS);
			nv_grid_set(&g, row++, 10, buf);
		}
	heading(out, f, 3, "fio's steady state (steadystate=)");
	nv_grid_print(out, &g, f);
	fprintf(out, "\nAs fio wrote them: the criterion and its limit, whether the last window "
		"met it, the job's elapsed seconds when fio wrote the result (a job that attains "
		"steady state stops there), the criterion's last value, and the means over the "
		"window.\n\n");
	nv_grid_free(&g);
	return 0;
}

static int print_rounds(FILE *out, const struct nv_curves *c, const struct nv_rounds *rs,
			enum nv_format f)
{
	const struct nv_report *r = c->r;
	const struct nv_steady_opts *o = &c->o.steady;
	const char *em = f == NV_FMT_MD ? "**" : "";
	struct nv_grid g;
	char buf[256];

	snprintf(buf, sizeof(buf), "Rounds of %s · %s: %zu rounds", rs->name, nv_dir_name(rs->dir),
		 rs->n);
	heading(out, f, 3, buf);
	if (nv_grid_init(&g, rs->n + 1, r->nsides + 1))
		return -ENOMEM;
	nv_grid_set(&g, 0, 0, "round");
	for (size_t s = 0; s < r->nsides; s++) {
		snprintf(buf, sizeof(buf), "%s %s", r->sides[s].label,
			 nv_metric(rs->metric)->title);
		nv_grid_set(&g, 0, s + 1, buf);
	}
	for (size_t k = 0; k < rs->n; k++) {
		snprintf(buf, sizeof(buf), "%zu", k + 1);
		nv_grid_set(&g, k + 1, 0, buf);
		for (size_t s = 0; s < r->nsides; s++) {
			if (rs->block[k] == SIZE_MAX)
				snprintf(buf, sizeof(buf), "absent");
			else
				cell_text(buf, sizeof(buf), r, rs->block[k], rs->metric, s);
			nv_grid_set(&g, k + 1, s + 1, buf);
		}
	}
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	for (size_t s = 0; s < r->nsides; s++) {
		const struct nv_steady *st = &rs->st[s];
		char v[64];

		if (!st->reached) {
			fprintf(out,
				"%s: steady state not reached (%zu rounds; the rule: %zu rounds "
				"in a row within %g%% range and %g%% slope excursion of their "
				"mean).\n",
				r->sides[s].label, rs->n, o->window, o->range_pct, o->slope_pct);
			continue;
		}
		nv_fmt_value(v, sizeof(v), st->mean, nv_metric(rs->metric)->unit);
		fprintf(out,
			"%s: %ssteady state from round %zu%s (rounds %zu-%zu: range %.1f%%, "
			"slope excursion %.1f%% of their mean); the run's %s: %s, the mean of "
			"rounds "
			"%zu-%zu.\n",
			r->sides[s].label, em, st->first + 1, em, st->first + 1,
			st->first + o->window, 100 * st->range / st->mean,
			100 * fabs(st->slope) * (double)(o->window - 1) / st->mean,
			nv_metric(rs->metric)->title, v, st->first + 1, st->first + o->window);
	}
	fputc('\n', out);
	return 0;
}

int nv_curves_print(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	if (!nv_curves_any(c))
		return 0;
	heading(out, f, 2, "Load curves and steady state");
	for (size_t i = 0; i < c->n; i++)
		if (print_curve(out, c, &c->c[i], f))
			return -ENOMEM;
	if (print_sla(out, c, f))
		return -ENOMEM;
	if (c->have_lt && print_lt(out, c, f))
		return -ENOMEM;
	if (c->have_ss && print_ss(out, c, f))
		return -ENOMEM;
	for (size_t i = 0; i < c->nrounds; i++)
		if (print_rounds(out, c, &c->rounds[i], f))
			return -ENOMEM;
	return 0;
}
