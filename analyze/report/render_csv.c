/*
 * render_csv.c - the report as CSV for programs: one wide table (a row per
 * job, direction and metric; every number at full precision, units in a
 * column, missing values empty), after the summary's rows and before the
 * claims, blank lines between.  A fio percentile above the job's max is
 * flagged by a "... fio_above_max" row under it (csv_above_row).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/render.h"
#include "analyze/report/claims.h"
#include "analyze/report/summary.h"
#include "analyze/report/pairs.h"
#include "analyze/report/pctrows.h"

void nv_render_csv_field(FILE *out, const char *s, bool first, bool text)
{
	bool formula = text && *s && strchr("=+-@\t\r", *s);

	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\"\n\r")) {
		fprintf(out, "%s%s", formula ? "'" : "", s);
		return;
	}
	fprintf(out, "\"%s", formula ? "'" : "");
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A text field (nv_render_csv_field).  Return: nothing. */
static void csv_field(FILE *out, const char *s, bool first)
{
	nv_render_csv_field(out, s, first, true);
}

static void csv_num(FILE *out, bool have, double v)
{
	char buf[400] = "";

	if (have)	/* one format for every number: plain decimal, exact */
		nv_fmt_decimal(buf, sizeof(buf), v);
	nv_render_csv_field(out, buf, false, false);
}

static const char *const unit_names[] = {
	[NV_U_IOPS] = "IO/s", [NV_U_MBPS] = "MB/s", [NV_U_NS] = "ns",
	[NV_U_USD_H] = "USD/h", [NV_U_USD_KIOPS] = "USD/h per 1k IOPS",
	[NV_U_USD_GBPS] = "USD/h per GB/s",
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

/*
 * The note row under a percentile row whose fio value lies above the job's
 * max for some side (fio reports the middle of a latency bin): metric
 * "TITLE fio_above_max", unit "flag", per side 1 (above), 0 (not) or empty
 * (no value); no change columns.  Nothing when no side is above.
 */
static void csv_above_row(FILE *out, const struct nv_report *r, const struct nv_block *b,
			  const char *title, const bool *above, const struct nv_cell *cells,
			  bool rep)
{
	char buf[300];
	bool any = false;

	for (size_t s = 0; above && s < r->nsides; s++)
		any |= above[s] && cells[s].n > 0;
	if (!any)
		return;
	csv_field(out, b->key, true);
	csv_field(out, nv_dir_name(b->dir), false);
	snprintf(buf, sizeof(buf), "%s fio_above_max", title);
	csv_field(out, buf, false);
	csv_field(out, "flag", false);
	for (size_t s = 0; s < r->nsides; s++) {
		csv_field(out, !cells[s].n ? "" : above[s] ? "1" : "0", false);
		if (rep)
			fputs(",,", out);
	}
	for (size_t p = 0; p < r->npairs; p++)
		fputs(rep ? ",,,," : ",", out);
	fputc('\n', out);
}

/* One metric row of a block: values (with stdev and n for repeats), changes. */
static void csv_row(FILE *out, const struct nv_report *r, const struct nv_block *b,
		    const struct nv_row *row, bool rep)
{
	char buf[256];

	csv_field(out, b->key, true);
	csv_field(out, nv_dir_name(b->dir), false);
	nv_fmt_row_title(buf, sizeof(buf), b, row);
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
	csv_above_row(out, r, b, buf, row->above_max, row->cells, rep);
}

/*
 * Every level fio reported for block b's latency, whatever --percentiles
 * chose: metric "clat fio 99.500000" (fio's key), each side's runs
 * aggregated, no change columns; a value above the max gets its note row.
 * Return: 0 or -ENOMEM.
 */
static int csv_fio_levels(FILE *out, const struct nv_report *r, const struct nv_block *b,
			  bool rep)
{
	struct nv_cell *c = calloc(r->nsides, sizeof(*c));
	bool *above = calloc(r->nsides, sizeof(*above));
	struct nv_pctl lv;
	char buf[96], key[48];

	if (!c || !above) {
		free(c);
		free(above);
		return -ENOMEM;
	}
	nv_block_fio_levels(r, b, &lv);
	for (size_t i = 0; i < lv.n; i++) {
		csv_field(out, b->key, true);
		csv_field(out, nv_dir_name(b->dir), false);
		nv_pctl_fio_key(key, sizeof(key), lv.v[i]);
		snprintf(buf, sizeof(buf), "%s fio %s", nv_latkind_name(b->lat), key);
		csv_field(out, buf, false);
		csv_field(out, unit_names[NV_U_NS], false);
		for (size_t s = 0; s < r->nsides; s++) {
			nv_side_fio_level(r, b, s, lv.v[i], &c[s], &above[s]);
			csv_num(out, c[s].n > 0, c[s].value);
			if (!rep)
				continue;
			csv_num(out, c[s].n > 1, c[s].sd);
			csv_num(out, true, (double)c[s].n);
		}
		for (size_t p = 0; p < r->npairs; p++)
			fputs(rep ? ",,,," : ",", out);
		fputc('\n', out);
		csv_above_row(out, r, b, buf, above, c, rep);
	}
	free(c);
	free(above);
	return 0;
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
	for (size_t i = 0; i < r->nblocks; i++) {
		for (size_t k = 0; r->blocks[i].active && k < r->blocks[i].nrows; k++)
			csv_row(out, r, &r->blocks[i], &r->blocks[i].rows[k], rep);
		if (r->blocks[i].active && csv_fio_levels(out, r, &r->blocks[i], rep))
			return -ENOMEM;
	}
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
