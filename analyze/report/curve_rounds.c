/*
 * curve_rounds.c - the rounds' table and steady state (see curve_print.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

int nv_curve_rounds_print(FILE *out, const struct nv_curves *c, const struct nv_rounds *rs,
			enum nv_format f)
{
	const struct nv_report *r = c->r;
	const struct nv_steady_opts *o = &c->o.steady;
	const char *em = f == NV_FMT_MD ? "**" : "";
	struct nv_grid g;
	char buf[256];

	snprintf(buf, sizeof(buf), "Rounds of %s · %s: %zu rounds", rs->name,
		 nv_dir_name(rs->dir), rs->n);
	nv_curve_text_heading(out, f, 3, buf);
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
				nv_curve_text_cell(buf, sizeof(buf), r, rs->block[k],
						   rs->metric, s);
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
