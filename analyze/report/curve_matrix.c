/*
 * curve_matrix.c - the matrix of a two-parameter sweep (see curve_print.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

/* The point of a two-parameter sweep at (a, b), or -1. */
static long matrix_point(const struct nv_sweep *sw, double a, double b)
{
	for (size_t p = 0; p < sw->npoints; p++)
		if (sw->pt[p].v[sw->param[0]] == a && sw->pt[p].v[sw->param[1]] == b)
			return (long)p;
	return -1;
}

/* Side s's matrix of a two-parameter curve: rows param[0], columns param[1]. */
int nv_curve_matrix_print(FILE *out, const struct nv_curves *c, const struct nv_curve *cv,
			  size_t s, enum nv_format f)
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
				nv_curve_text_cell(buf, sizeof(buf), r, cv->block[p],
						   cv->tput, s);
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
