/*
 * curve_text.c - what every load-curve table is made of (curve_print.h):
 * its heading, and a cell as the tables show it ("absent" where a side
 * lacks the point, "-" where it lacks the value).  Markdown or text.
 */
#include <stdio.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

void nv_curve_text_heading(FILE *out, enum nv_format f, int level, const char *title)
{
	if (f == NV_FMT_MD)
		fprintf(out, "%.*s %s\n\n", level, "####", title);
	else
		fprintf(out, "%s %s %s\n", level < 3 ? "==" : "--", title,
			level < 3 ? "==" : "--");
}

/* One cell of row (NULL: none) at block bi for side s, as the tables show it. */
void nv_curve_text_row(char *buf, size_t n, const struct nv_report *r, size_t bi,
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
void nv_curve_text_cell(char *buf, size_t n, const struct nv_report *r, size_t bi,
			enum nv_metric m, size_t s)
{
	nv_curve_text_row(buf, n, r, bi, nv_block_row(&r->blocks[bi], m), s);
}
