/*
 * render_csv.c - the report as CSV for programs: one wide table (a row per
 * job, direction and metric; every number at full precision, units in a
 * column, missing values empty), after the summary's rows and before the
 * claims, blank lines between.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/render.h"
#include "analyze/report/claims.h"
#include "analyze/report/summary.h"
#include "analyze/report/pairs.h"

static void csv_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, bool have, double v)
{
	char buf[400] = "";

	if (have)	/* one format for every number: plain decimal, exact */
		nv_fmt_decimal(buf, sizeof(buf), v);
	csv_field(out, buf, false);
}

static const char *const unit_names[] = {
	[NV_U_IOPS] = "IO/s", [NV_U_MBPS] = "MB/s", [NV_U_NS] = "ns",
	[NV_U_USD_H] = "USD/h", [NV_U_USD_KIOPS] = "USD/h per 1k IOPS",
	[NV_U_BYTES] = "bytes", [NV_U_PCT] = "%", [NV_U_COUNT] = "count",
};

static void csv_header(FILE *out, const struct nv_report *r, bool rep)
{
	char buf[256];

	fputs("job,direction,metric,unit", out);
	for (size_t s = 0; s < r->nsides; s++) {
		if (!rep) {
			csv_field(out, r->sides[s].label, false);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s %s", r->sides[s].label, nv_aggregate_name(r->agg));
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s stdev", r->sides[s].label);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s n", r->sides[s].label);
		csv_field(out, buf, false);
	}
	for (size_t p = 0; p < r->npairs; p++) {
		char title[200];

		nv_pair_title(title, sizeof(title), r, p);
		snprintf(buf, sizeof(buf), "%s %%", title);
		csv_field(out, buf, false);
		if (!rep)
			continue;
		snprintf(buf, sizeof(buf), "%s ci95 low %%", title);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s ci95 high %%", title);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s verdict", title);
		csv_field(out, buf, false);
	}
	fputc('\n', out);
}

/* One metric row of a block: values (with stdev and n for repeats), changes. */
static void csv_row(FILE *out, const struct nv_report *r, const struct nv_block *b,
		    const struct nv_row *row, bool rep)
{
	char buf[256];

	csv_field(out, b->key, true);
	csv_field(out, nv_dir_name(b->dir), false);
	nv_fmt_row_title(buf, sizeof(buf), b, row->metric);
	csv_field(out, buf, false);
	csv_field(out, unit_names[nv_metric(row->metric)->unit], false);
	for (size_t s = 0; s < r->nsides; s++) {
		csv_num(out, row->cells[s].n > 0, row->cells[s].value);
		if (!rep)
			continue;
		csv_num(out, row->cells[s].n > 1, row->cells[s].sd);
		csv_num(out, true, (double)row->cells[s].n);
	}
	for (size_t p = 0; p < r->npairs; p++) {
		csv_num(out, row->pchg[p].have, row->pchg[p].pct);
		if (!rep)
			continue;
		csv_num(out, row->pchg[p].have_ci, row->pchg[p].lo);
		csv_num(out, row->pchg[p].have_ci, row->pchg[p].hi);
		csv_field(out, row->pchg[p].have ? nv_change_verdict_name(&row->pchg[p]) : "",
			  false);
	}
	fputc('\n', out);
}

/*
 * The summary (report/summary.h), then a blank line, then every row.
 * Return: 0 or -ENOMEM.
 */
int nv_render_csv(FILE *out, const struct nv_report *r)
{
	bool rep = nv_report_repeats(r);
	struct nv_summary_row *sum;
	size_t nsum;

	if (nv_summary_build(r, (enum nv_headline)nv_display.headline, &sum, &nsum))
		return -ENOMEM;
	if (nsum) {
		csv_header(out, r, rep);
		for (size_t i = 0; i < nsum; i++)
			csv_row(out, r, &r->blocks[sum[i].block], sum[i].row, rep);
		fputc('\n', out);
	}
	free(sum);
	csv_header(out, r, rep);
	for (size_t i = 0; i < r->nblocks; i++)
		for (size_t k = 0; r->blocks[i].active && k < r->blocks[i].nrows; k++)
			csv_row(out, r, &r->blocks[i], &r->blocks[i].rows[k], rep);
	if (!r->nclaims)
		return 0;
	fputs("\njob,direction,run,baseline,claim,measured,unit,verdict\n", out);
	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];
		bool chg = c->claim->kind == NV_CLAIM_CHANGE;

		csv_field(out, r->blocks[c->block].key, true);
		csv_field(out, nv_dir_name(r->blocks[c->block].dir), false);
		csv_field(out, r->sides[c->side].label, false);
		csv_field(out, chg ? r->sides[c->base].label : "", false);
		csv_field(out, c->claim->text, false);
		csv_num(out, chg ? c->chg.have : c->cell.n > 0, chg ? c->chg.pct : c->cell.mean);
		csv_field(out, chg ? "%" : unit_names[nv_metric(c->claim->metric)->unit], false);
		csv_field(out, nv_claim_verdict_name(c->verdict), false);
		fputc('\n', out);
	}
	return 0;
}
