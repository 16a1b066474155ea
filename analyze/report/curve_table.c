/*
 * curve_table.c - the load curves for people (Markdown and text): the
 * section, per sweep one table per run with the change per point, then the
 * knee (curve_knee.c) and the matrix (curve_matrix.c); the SLA answers
 * (curve_sla.c); fio's latency-target and steady-state results
 * (curve_fio.c); the rounds (curve_rounds.c).  See curves.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

/* The throughput columns of a point table, before the latency levels (curves->lat). */
static const enum nv_metric tput_metrics[] = { NV_M_IOPS, NV_M_BW };
#define NTM (sizeof(tput_metrics) / sizeof(tput_metrics[0]))

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

	nv_curve_text_row(buf, n, c->r, bi,
		 m < NTM ? nv_block_row(b, tput_metrics[m])
			 : nv_block_level_row(b, c->lat.v[m - NTM]),
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
	nv_curve_text_heading(out, f, 3, title);
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
			nv_curve_knee_print(out, c, cv, s, f);
			fputc('\n', out);	/* a paragraph each */
		}
	}
	for (size_t s = 0; cv->grid && s < r->nsides; s++)
		if (nv_curve_matrix_print(out, c, cv, s, f))
			return -ENOMEM;
	return 0;
}

int nv_curves_print(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	if (!nv_curves_any(c))
		return 0;
	nv_curve_text_heading(out, f, 2, "Load curves and steady state");
	for (size_t i = 0; i < c->n; i++)
		if (print_curve(out, c, &c->c[i], f))
			return -ENOMEM;
	if (nv_curve_sla_print(out, c, f))
		return -ENOMEM;
	if (c->have_lt && nv_curve_fio_print_lt(out, c, f))
		return -ENOMEM;
	if (c->have_ss && nv_curve_fio_print_ss(out, c, f))
		return -ENOMEM;
	for (size_t i = 0; i < c->nrounds; i++)
		if (nv_curve_rounds_print(out, c, &c->rounds[i], f))
			return -ENOMEM;
	return 0;
}
