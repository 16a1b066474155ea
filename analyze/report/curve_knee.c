/*
 * curve_knee.c - the knee sentence of a line load curve (see curve_print.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

void nv_curve_knee_print(FILE *out, const struct nv_curves *c, const struct nv_curve *cv,
			 size_t s, enum nv_format f)
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
			"grew by less than %g%%, then and at every later point.\n",
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
