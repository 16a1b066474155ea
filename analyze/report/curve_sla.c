/*
 * curve_sla.c - the SLA answers per sweep and run (see curve_print.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

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
	nv_curve_text_cell(t, sizeof(t), r, cv->block[p], cv->tput, s);
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
	if (a->nabsent == np) {
		/* judged on nothing: no answer, not "every point meets it" */
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

int nv_curve_sla_print(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	const struct nv_report *r = c->r;

	for (size_t i = 0; i < c->nsla; i++) {
		const struct nv_sla_result *sr = &c->sla[i];
		const struct nv_curve *cv = &c->c[sr->curve];
		struct nv_grid g;
		char buf[512];

		snprintf(buf, sizeof(buf), "SLA %s on %s · %s", sr->claim->text, cv->sw->name,
			 nv_dir_name((enum nv_dir)cv->sw->dir));
		nv_curve_text_heading(out, f, 3, buf);
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
