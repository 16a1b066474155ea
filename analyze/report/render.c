/*
 * render.c - nvanalyze's output formats.
 *
 * Markdown and text share one path: each block becomes a grid of strings
 * (header row, one row per metric), printed either as a Markdown table or
 * padded to column widths.  CSV is one wide table (plus the claims after a
 * blank line); JSON is built with jansson and written by a small emitter
 * that prints every real as the shortest text that reads back exactly.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze/report/render.h"

int nv_format_parse(const char *s, enum nv_format *f)
{
	static const char *const names[] = {
		[NV_FMT_MD] = "md", [NV_FMT_TEXT] = "text", [NV_FMT_CSV] = "csv", [NV_FMT_JSON] = "json",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum nv_format)i;
			return 0;
		}
	}
	if (!strcmp(s, "markdown")) {
		*f = NV_FMT_MD;
		return 0;
	}
	return -EINVAL;
}

/* ---- number formatting ------------------------------------------------- */

void nv_fmt_exact(char *buf, size_t n, double v)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, n, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* An integer with thousands separators: 77282 -> "77,282". */
static void fmt_grouped(char *buf, size_t n, double v)
{
	char digits[64], out[96];
	size_t len, o = 0;
	int neg = v < 0;

	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	len = strlen(digits);
	if (neg)
		out[o++] = '-';
	for (size_t i = 0; i < len && o < sizeof(out) - 2; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
	snprintf(buf, n, "%s", out);
}

/* About four significant digits, grouped above 1000: "316.5", "8,854", "70.42". */
static void fmt_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		fmt_grouped(buf, n, v);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, n, "%.2f", v);
	else if (a >= 1 || a == 0)
		snprintf(buf, n, "%.3g", v);
	else
		snprintf(buf, n, "%.3g", v);
}

/* Latency from nanoseconds in ns/us/ms/s, three significant digits. */
static void fmt_ns(char *buf, size_t n, double ns)
{
	static const struct { double div; const char *unit; } scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	unsigned i = 0;
	double x;

	while (i < 3 && fabs(ns) < scale[i].div * 0.9995)
		i++;
	x = ns / scale[i].div;
	if (fabs(x) >= 99.95 || i == 3)
		snprintf(buf, n, "%.0f %s", x, scale[i].unit);
	else if (fabs(x) >= 9.995)
		snprintf(buf, n, "%.1f %s", x, scale[i].unit);
	else
		snprintf(buf, n, "%.2f %s", x, scale[i].unit);
}

void nv_fmt_value(char *buf, size_t n, double v, enum nv_unit u)
{
	char num[64];

	switch (u) {
	case NV_U_IOPS:
		if (fabs(v) >= 100 || v == 0)
			fmt_grouped(buf, n, v);
		else
			fmt_sig(buf, n, v);
		break;
	case NV_U_MBPS:
		fmt_sig(num, sizeof(num), v);
		snprintf(buf, n, "%s MB/s", num);
		break;
	case NV_U_NS:
		fmt_ns(buf, n, v);
		break;
	case NV_U_USD_H:
		snprintf(buf, n, "$%g/h", v);
		break;
	case NV_U_USD_KIOPS:
		snprintf(buf, n, "$%.3g", v);
		break;
	}
}

static void fmt_pct(char *buf, size_t n, double pct)
{
	if (fabs(pct) < 0.05)
		pct = 0;	/* no "-0.0%" */
	snprintf(buf, n, "%+.1f%%", pct);
}

void nv_fmt_change(char *buf, size_t n, const struct nv_change *c)
{
	char p[32], lo[32], hi[32];
	const char *mark = c->verdict == NV_BETTER ? " (better)" : c->verdict == NV_WORSE ? " (worse)" : "";

	if (!c->have) {
		snprintf(buf, n, "n/a");
		return;
	}
	fmt_pct(p, sizeof(p), c->pct);
	if (!c->have_ci) {
		snprintf(buf, n, "%s%s", p, mark);
		return;
	}
	fmt_pct(lo, sizeof(lo), c->lo);
	fmt_pct(hi, sizeof(hi), c->hi);
	snprintf(buf, n, "%s%s [%s, %s]", p, c->noise ? " within noise" : mark, lo, hi);
}

/* ---- grids (Markdown and text) ----------------------------------------- */

int nv_grid_init(struct nv_grid *g, size_t rows, size_t cols)
{
	g->rows = rows;
	g->cols = cols;
	g->cell = calloc(rows * cols, sizeof(*g->cell));
	return g->cell ? 0 : -ENOMEM;
}

void nv_grid_set(struct nv_grid *g, size_t r, size_t c, const char *s)
{
	free(g->cell[r * g->cols + c]);
	g->cell[r * g->cols + c] = strdup(s);
}

static const char *grid_get(const struct nv_grid *g, size_t r, size_t c)
{
	const char *s = g->cell[r * g->cols + c];

	return s ? s : "";
}

void nv_grid_free(struct nv_grid *g)
{
	for (size_t i = 0; i < g->rows * g->cols; i++)
		free(g->cell[i]);
	free(g->cell);
}

/* Display width: UTF-8 continuation bytes do not count. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Markdown: first column left-aligned, the rest right-aligned. */
void nv_grid_print(FILE *out, const struct nv_grid *g, enum nv_format f)
{
	size_t *w = calloc(g->cols, sizeof(*w));

	if (!w)
		return;
	for (size_t r = 0; r < g->rows; r++)
		for (size_t c = 0; c < g->cols; c++)
			if (width(grid_get(g, r, c)) > w[c])
				w[c] = width(grid_get(g, r, c));
	for (size_t r = 0; r < g->rows; r++) {
		for (size_t c = 0; c < g->cols; c++) {
			const char *s = grid_get(g, r, c);
			int pad = (int)(w[c] - width(s));

			if (f == NV_FMT_MD && !c)
				fprintf(out, "| %s%*s |", s, pad, "");
			else if (f == NV_FMT_MD)
				fprintf(out, " %*s%s |", pad, "", s);
			else if (!c)
				fprintf(out, "%s%*s", s, pad, "");
			else
				fprintf(out, "  %*s%s", pad, "", s);
		}
		fputc('\n', out);
		if (r == 0) {
			for (size_t c = 0; c < g->cols; c++) {
				if (f == NV_FMT_MD) {
					fputs(c ? " " : "| ", out);
					for (size_t i = 0; i + 1 < w[c]; i++)
						fputc('-', out);
					fputs(c ? ": |" : "- |", out);
				} else {
					fputs(c ? "  " : "", out);
					for (size_t i = 0; i < w[c]; i++)
						fputc('-', out);
				}
			}
			fputc('\n', out);
		}
	}
	free(w);
}

static void side_header(char *buf, size_t n, const struct nv_side *s)
{
	if (s->nruns > 1)
		snprintf(buf, n, "%s (%zu runs)", s->label, s->nruns);
	else
		snprintf(buf, n, "%s", s->label);
}

static void row_title(char *buf, size_t n, const struct nv_block *b, enum nv_metric m)
{
	const struct nv_metric_info *mi = nv_metric(m);

	if (mi->latency)
		snprintf(buf, n, "%s %s", nv_latkind_name(b->lat), mi->title);
	else
		snprintf(buf, n, "%s", mi->title);
}

/* A value cell: "77,282", "77,282 ±1.6%", "-" (missing), "absent". */
static void fmt_cell(char *buf, size_t n, const struct nv_cell *c, const struct nv_side *s,
		     enum nv_unit u)
{
	char v[64], extra[64] = "";
	size_t len;

	if (!c->n) {
		snprintf(buf, n, "%s", c->absent == s->nruns ? "absent" : "-");
		return;
	}
	nv_fmt_value(v, sizeof(v), c->mean, u);
	len = 0;
	if (c->n > 1)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, " ±%.1f%%",
				c->mean ? 100 * c->sd / fabs(c->mean) : 0.0);
	if (c->n != s->nruns && s->nruns > 1 && len < sizeof(extra))
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, " (n=%zu)", c->n);
	if (c->src == NV_SRC_EXACT && len < sizeof(extra))
		snprintf(extra + len, sizeof(extra) - len, " (exact)");
	snprintf(buf, n, "%s%s", v, extra);
}

static int block_grid(const struct nv_report *r, const struct nv_block *b, struct nv_grid *g)
{
	size_t cols = 1 + r->nsides + (r->nsides - 1);
	char buf[256];
	size_t c;

	if (nv_grid_init(g, b->nrows + 1, cols))
		return -ENOMEM;
	nv_grid_set(g, 0, 0, "metric");
	for (size_t s = 0; s < r->nsides; s++) {
		side_header(buf, sizeof(buf), &r->sides[s]);
		nv_grid_set(g, 0, 1 + s, buf);
	}
	c = 1 + r->nsides;
	for (size_t s = 0; s < r->nsides; s++) {
		if (s == r->baseline)
			continue;
		snprintf(buf, sizeof(buf), "%s vs %s", r->sides[s].label, r->sides[r->baseline].label);
		nv_grid_set(g, 0, c++, buf);
	}
	for (size_t i = 0; i < b->nrows; i++) {
		const struct nv_row *row = &b->rows[i];
		enum nv_unit u = nv_metric(row->metric)->unit;

		row_title(buf, sizeof(buf), b, row->metric);
		nv_grid_set(g, i + 1, 0, buf);
		for (size_t s = 0; s < r->nsides; s++) {
			fmt_cell(buf, sizeof(buf), &row->cells[s], &r->sides[s], u);
			nv_grid_set(g, i + 1, 1 + s, buf);
		}
		c = 1 + r->nsides;
		for (size_t s = 0; s < r->nsides; s++) {
			if (s == r->baseline)
				continue;
			nv_fmt_change(buf, sizeof(buf), &row->chg[s]);
			nv_grid_set(g, i + 1, c++, buf);
		}
	}
	return 0;
}

/* Whether the sides ran the job with different options. */
static bool descs_differ(const struct nv_report *r, const struct nv_block *b)
{
	for (size_t s = 0; s < r->nsides; s++) {
		if (b->sdesc[s] && b->desc && strcmp(b->sdesc[s], b->desc))
			return true;
	}
	return false;
}

/*
 * The block's heading and workload line; when the runs' options differ
 * (passthrough vs block, two engines) one line per run label.
 */
static void print_block_title(FILE *out, const struct nv_report *r, const struct nv_block *b,
			      enum nv_format f)
{
	fprintf(out, f == NV_FMT_MD ? "### %s · %s\n\n" : "== %s · %s ==\n", b->key, nv_dir_name(b->dir));
	if (descs_differ(r, b)) {
		for (size_t s = 0; s < r->nsides; s++) {
			if (!b->sdesc[s])
				continue;
			fprintf(out, f == NV_FMT_MD ? "- %s: `%s`\n" : "%s: %s\n", r->sides[s].label, b->sdesc[s]);
		}
	} else if (b->desc && *b->desc) {
		fprintf(out, f == NV_FMT_MD ? "`%s`\n" : "%s\n", b->desc);
	}
	if (b->error)
		fprintf(out, "fio reported error %d (%s) for this job\n", b->error, strerror(b->error));
	if (b->dir == NV_DIR_SYNC)
		fprintf(out, "sync latencies are fio's fsync/fdatasync latencies (total)\n");
	fputc('\n', out);
}

static void print_heading(FILE *out, const struct nv_report *r, enum nv_format f)
{
	fprintf(out, f == NV_FMT_MD ? "## fio results\n\n" : "fio results\n\n");
	for (size_t s = 0; s < r->nsides; s++) {
		fprintf(out, f == NV_FMT_MD ? "- **%s**%s:" : "- %s%s:", r->sides[s].label,
			r->nsides > 1 && s == r->baseline ? " (baseline)" : "");
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			fprintf(out, "%s %s (%s)", k ? "," : "", r->sides[s].runs[k].path,
				r->sides[s].runs[k].fio_version);
		if (r->sides[s].have_price)
			fprintf(out, ", $%g/h", r->sides[s].price);
		fputc('\n', out);
	}
	fprintf(out, "\nLatency: %s (%s). Bandwidth: 1 MB/s = 10^6 bytes/s.",
		nv_latkind_name(r->lat),
		r->lat == NV_LAT_SLAT ? "submission" : r->lat == NV_LAT_CLAT ? "completion" : "total");
	for (size_t s = 0; s < r->nsides; s++) {
		if (r->sides[s].nruns > 1) {
			fprintf(out, " Repeated runs: mean ±stdev (%% of mean); change with Welch 95%% interval.");
			break;
		}
	}
	fprintf(out, "\n\n");
}

/* Blocks present in some sides but not others; idle directions. */
static void print_unmatched(FILE *out, const struct nv_report *r, enum nv_format f)
{
	size_t idle = 0, lines = 0;

	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		if (!b->active) {
			idle++;
			continue;
		}
		for (size_t s = 0; s < r->nsides; s++) {
			if (b->present[s])
				continue;
			if (!lines++)
				fprintf(out, f == NV_FMT_MD ? "### Unmatched jobs\n\n" : "Unmatched jobs:\n");
			fprintf(out, "- %s · %s: not in %s\n", b->key, nv_dir_name(b->dir), r->sides[s].label);
		}
	}
	if (lines)
		fputc('\n', out);
	if (!idle)
		return;
	fprintf(out, "Directions without IOs (not shown):");
	for (size_t i = 0, k = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		if (!b->active)
			fprintf(out, "%s %s %s%s", k++ ? "," : "", b->key, nv_dir_name(b->dir),
				b->error ? " (job error)" : "");
	}
	fprintf(out, "\n\n");
}

static void claim_verdict(char *buf, size_t n, const struct nv_claim_result *c)
{
	if (!c->have)
		snprintf(buf, n, "not met (no data)");
	else
		snprintf(buf, n, "%s%s", c->met ? "met" : "not met",
			 c->uncertain ? " (within the 95% interval)" : "");
}

static int print_claims(FILE *out, const struct nv_report *r, enum nv_format f)
{
	struct nv_grid g;
	char buf[256];

	if (!r->nclaims)
		return 0;
	if (nv_grid_init(&g, r->nclaims + 1, 5))
		return -ENOMEM;
	nv_grid_set(&g, 0, 0, "job · direction");
	nv_grid_set(&g, 0, 1, "run");
	nv_grid_set(&g, 0, 2, "claim");
	nv_grid_set(&g, 0, 3, "measured");
	nv_grid_set(&g, 0, 4, "verdict");
	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];
		const struct nv_block *b = &r->blocks[c->block];

		snprintf(buf, sizeof(buf), "%s · %s", b->key, nv_dir_name(b->dir));
		nv_grid_set(&g, i + 1, 0, buf);
		snprintf(buf, sizeof(buf), "%s vs %s", r->sides[c->side].label, r->sides[r->baseline].label);
		nv_grid_set(&g, i + 1, 1, buf);
		nv_grid_set(&g, i + 1, 2, c->claim->text);
		nv_fmt_change(buf, sizeof(buf), &c->chg);
		nv_grid_set(&g, i + 1, 3, buf);
		claim_verdict(buf, sizeof(buf), c);
		nv_grid_set(&g, i + 1, 4, buf);
	}
	fprintf(out, f == NV_FMT_MD ? "### Claims\n\n" : "== Claims ==\n");
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	return 0;
}

static int print_human(FILE *out, const struct nv_report *r, enum nv_format f)
{
	size_t shown = 0;

	print_heading(out, r, f);
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];
		struct nv_grid g;

		if (!b->active)
			continue;
		if (block_grid(r, b, &g))
			return -ENOMEM;
		print_block_title(out, r, b, f);
		nv_grid_print(out, &g, f);
		fputc('\n', out);
		nv_grid_free(&g);
		shown++;
	}
	if (!shown)
		fprintf(out, "No job did any IO.\n\n");
	print_unmatched(out, r, f);
	for (size_t i = 0; i < r->nblocks; i++)
		if (r->blocks[i].error && r->blocks[i].dir == NV_DIR_READ)
			fprintf(out, "Job %s: fio error %d (%s)\n\n", r->blocks[i].key, r->blocks[i].error,
				strerror(r->blocks[i].error));
	return print_claims(out, r, f);
}

/* ---- CSV --------------------------------------------------------------- */

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
	char buf[64] = "";

	if (have)
		nv_fmt_exact(buf, sizeof(buf), v);
	csv_field(out, buf, false);
}

static const char *const unit_names[] = {
	[NV_U_IOPS] = "IO/s", [NV_U_MBPS] = "MB/s", [NV_U_NS] = "ns",
	[NV_U_USD_H] = "USD/h", [NV_U_USD_KIOPS] = "USD/h per 1k IOPS",
};

static bool any_repeats(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		if (r->sides[s].nruns > 1)
			return true;
	return false;
}

static void csv_header(FILE *out, const struct nv_report *r, bool rep)
{
	char buf[256];

	fputs("job,direction,metric,unit", out);
	for (size_t s = 0; s < r->nsides; s++) {
		csv_field(out, r->sides[s].label, false);
		if (!rep)
			continue;
		snprintf(buf, sizeof(buf), "%s stdev", r->sides[s].label);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s n", r->sides[s].label);
		csv_field(out, buf, false);
	}
	for (size_t s = 0; s < r->nsides; s++) {
		const char *base = r->sides[r->baseline].label;

		if (s == r->baseline)
			continue;
		snprintf(buf, sizeof(buf), "%s vs %s %%", r->sides[s].label, base);
		csv_field(out, buf, false);
		if (!rep)
			continue;
		snprintf(buf, sizeof(buf), "%s vs %s ci95 low %%", r->sides[s].label, base);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s vs %s ci95 high %%", r->sides[s].label, base);
		csv_field(out, buf, false);
	}
	fputc('\n', out);
}

static void print_csv(FILE *out, const struct nv_report *r)
{
	bool rep = any_repeats(r);
	char buf[256];

	csv_header(out, r, rep);
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		for (size_t k = 0; b->active && k < b->nrows; k++) {
			const struct nv_row *row = &b->rows[k];

			csv_field(out, b->key, true);
			csv_field(out, nv_dir_name(b->dir), false);
			row_title(buf, sizeof(buf), b, row->metric);
			csv_field(out, buf, false);
			csv_field(out, unit_names[nv_metric(row->metric)->unit], false);
			for (size_t s = 0; s < r->nsides; s++) {
				csv_num(out, row->cells[s].n > 0, row->cells[s].mean);
				if (!rep)
					continue;
				csv_num(out, row->cells[s].n > 1, row->cells[s].sd);
				csv_num(out, true, (double)row->cells[s].n);
			}
			for (size_t s = 0; s < r->nsides; s++) {
				if (s == r->baseline)
					continue;
				csv_num(out, row->chg[s].have, row->chg[s].pct);
				if (!rep)
					continue;
				csv_num(out, row->chg[s].have_ci, row->chg[s].lo);
				csv_num(out, row->chg[s].have_ci, row->chg[s].hi);
			}
			fputc('\n', out);
		}
	}
	if (!r->nclaims)
		return;
	fputs("\njob,direction,run,claim,claimed %,measured %,verdict\n", out);
	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];

		csv_field(out, r->blocks[c->block].key, true);
		csv_field(out, nv_dir_name(r->blocks[c->block].dir), false);
		csv_field(out, r->sides[c->side].label, false);
		csv_field(out, c->claim->text, false);
		csv_num(out, true, c->claim->pct);
		csv_num(out, c->have, c->measured);
		csv_field(out, c->met ? "met" : "not met", false);
		fputc('\n', out);
	}
}

/* ---- JSON -------------------------------------------------------------- */

/*
 * Write v as indented JSON; reals as their shortest exact text (jansson's
 * own dumper prints "%.17g", e.g. 0.10000000000000001).  Objects keep their
 * insertion order.
 */
static void json_emit(FILE *out, const json_t *v, int depth)
{
	char buf[64];
	const char *k;
	json_t *x;
	size_t i, n = 0;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (!json_object_size(v)) {
			fputs("{}", out);
			break;
		}
		fputs("{\n", out);
		json_object_foreach((json_t *)v, k, x) {
			json_t *ks = json_string(k);
			char *kd = ks ? json_dumps(ks, JSON_ENCODE_ANY) : NULL;

			fprintf(out, "%s%*s%s: ", n++ ? ",\n" : "", 2 * (depth + 1), "", kd ? kd : "\"\"");
			free(kd);
			json_decref(ks);
			json_emit(out, x, depth + 1);
		}
		fprintf(out, "\n%*s}", 2 * depth, "");
		break;
	case JSON_ARRAY:
		if (!json_array_size(v)) {
			fputs("[]", out);
			break;
		}
		fputs("[\n", out);
		json_array_foreach(v, i, x) {
			fprintf(out, "%s%*s", i ? ",\n" : "", 2 * (depth + 1), "");
			json_emit(out, x, depth + 1);
		}
		fprintf(out, "\n%*s]", 2 * depth, "");
		break;
	case JSON_REAL:
		nv_fmt_exact(buf, sizeof(buf), json_real_value(v));
		fputs(buf, out);
		break;
	default: {
		char *d = json_dumps(v, JSON_ENCODE_ANY);

		fputs(d ? d : "null", out);
		free(d);
	}
	}
}

/* The JSON key of a metric: "iops", "bw_MB_per_s", "clat_p99.9_ns", ... */
static void json_key(char *buf, size_t n, const struct nv_block *b, enum nv_metric m)
{
	const struct nv_metric_info *mi = nv_metric(m);

	if (mi->latency)
		snprintf(buf, n, "%s_%s_ns", nv_latkind_name(b->lat), mi->key);
	else if (m == NV_M_BW)
		snprintf(buf, n, "bw_MB_per_s");
	else if (m == NV_M_PRICE)
		snprintf(buf, n, "price_usd_per_hour");
	else if (m == NV_M_COST)
		snprintf(buf, n, "cost_usd_per_hour_per_1k_iops");
	else
		snprintf(buf, n, "%s", mi->key);
}

static void jset(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v ? v : json_null());
}

static void jset_suffix(json_t *o, const char *key, const char *suffix, json_t *v)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", key, suffix);
	jset(o, buf, v);
}

static json_t *jnum(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

static json_t *json_side_values(const struct nv_report *r, const struct nv_block *b, size_t s)
{
	json_t *o = json_object();
	bool rep = r->sides[s].nruns > 1;
	char key[96];

	jset(o, "runs", json_integer((json_int_t)r->sides[s].nruns));
	jset(o, "present", json_boolean(b->present[s]));
	for (size_t k = 0; k < b->nrows; k++) {
		const struct nv_cell *c = &b->rows[k].cells[s];

		json_key(key, sizeof(key), b, b->rows[k].metric);
		jset(o, key, jnum(c->n > 0, c->mean));
		if (c->src == NV_SRC_EXACT) {
			const struct nv_cell *f = b->rows[k].fio ? &b->rows[k].fio[s] : NULL;

			jset_suffix(o, key, "_source", json_string("exact"));
			jset_suffix(o, key, "_fio", jnum(f && f->n > 0, f ? f->mean : 0));
		}
		if (!rep)
			continue;
		jset_suffix(o, key, "_stdev", jnum(c->n > 1, c->sd));
		jset_suffix(o, key, "_min", jnum(c->n > 0, c->min));
		jset_suffix(o, key, "_max", jnum(c->n > 0, c->max));
		jset_suffix(o, key, "_n", json_integer((json_int_t)c->n));
	}
	return o;
}

static json_t *json_side_changes(const struct nv_block *b, size_t s)
{
	static const char *const verdicts[] = { "same", "better", "worse" };
	json_t *o = json_object();
	char key[96];

	for (size_t k = 0; k < b->nrows; k++) {
		const struct nv_change *ch = &b->rows[k].chg[s];

		json_key(key, sizeof(key), b, b->rows[k].metric);
		jset_suffix(o, key, "_change_pct", jnum(ch->have, ch->pct));
		jset_suffix(o, key, "_verdict", ch->have ? json_string(verdicts[ch->verdict]) : NULL);
		if (!ch->have_ci)
			continue;
		jset_suffix(o, key, "_ci95_low_pct", json_real(ch->lo));
		jset_suffix(o, key, "_ci95_high_pct", json_real(ch->hi));
		jset_suffix(o, key, "_within_noise", json_boolean(ch->noise));
	}
	return o;
}

static json_t *json_block(const struct nv_report *r, const struct nv_block *b)
{
	json_t *o = json_object(), *sides = json_object(), *chg = json_object();

	jset(o, "job", json_string(b->key));
	jset(o, "direction", json_string(nv_dir_name(b->dir)));
	jset(o, "description", json_string(b->desc ? b->desc : ""));
	jset(o, "latency", json_string(nv_latkind_name(b->lat)));
	jset(o, "active", json_boolean(b->active));
	jset(o, "error", json_integer(b->error));
	for (size_t s = 0; s < r->nsides; s++) {
		jset(sides, r->sides[s].label, json_side_values(r, b, s));
		if (s != r->baseline)
			jset(chg, r->sides[s].label, json_side_changes(b, s));
	}
	jset(o, "sides", sides);
	jset(o, "changes", chg);
	return o;
}

static json_t *json_sides(const struct nv_report *r)
{
	json_t *arr = json_array();

	for (size_t s = 0; s < r->nsides; s++) {
		json_t *o = json_object(), *files = json_array(), *vers = json_array();

		jset(o, "label", json_string(r->sides[s].label));
		for (size_t k = 0; k < r->sides[s].nruns; k++) {
			json_array_append_new(files, json_string(r->sides[s].runs[k].path));
			json_array_append_new(vers, json_string(r->sides[s].runs[k].fio_version));
		}
		jset(o, "files", files);
		jset(o, "fio_versions", vers);
		jset(o, "price_usd_per_hour", jnum(r->sides[s].have_price, r->sides[s].price));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *json_claims(const struct nv_report *r)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];
		json_t *o = json_object();

		jset(o, "job", json_string(r->blocks[c->block].key));
		jset(o, "direction", json_string(nv_dir_name(r->blocks[c->block].dir)));
		jset(o, "run", json_string(r->sides[c->side].label));
		jset(o, "claim", json_string(c->claim->text));
		jset(o, "metric", json_string(nv_metric(c->claim->metric)->key));
		jset(o, "claimed_change_pct", json_real(c->claim->pct));
		jset(o, "measured_change_pct", jnum(c->have, c->measured));
		jset(o, "met", json_boolean(c->met));
		jset(o, "within_ci95", json_boolean(c->uncertain));
		json_array_append_new(arr, o);
	}
	return arr;
}

static int print_json(FILE *out, const struct nv_report *r)
{
	json_t *root = json_object(), *blocks = json_array(), *unm = json_array();

	if (!root || !blocks || !unm) {
		json_decref(root);
		json_decref(blocks);
		json_decref(unm);
		return -ENOMEM;
	}
	jset(root, "latency", json_string(nv_latkind_name(r->lat)));
	jset(root, "baseline", json_string(r->sides[r->baseline].label));
	jset(root, "sides", json_sides(r));
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		json_array_append_new(blocks, json_block(r, b));
		for (size_t s = 0; b->active && s < r->nsides; s++) {
			json_t *u;

			if (b->present[s])
				continue;
			u = json_object();
			jset(u, "job", json_string(b->key));
			jset(u, "direction", json_string(nv_dir_name(b->dir)));
			jset(u, "missing_in", json_string(r->sides[s].label));
			json_array_append_new(unm, u);
		}
	}
	jset(root, "results", blocks);
	jset(root, "unmatched", unm);
	jset(root, "claims", json_claims(r));
	json_emit(out, root, 0);
	fputc('\n', out);
	json_decref(root);
	return 0;
}

int nv_report_print(FILE *out, const struct nv_report *r, enum nv_format f)
{
	int ret = 0;

	switch (f) {
	case NV_FMT_MD:
	case NV_FMT_TEXT:
		ret = print_human(out, r, f);
		break;
	case NV_FMT_CSV:
		print_csv(out, r);
		break;
	case NV_FMT_JSON:
		ret = print_json(out, r);
		break;
	}
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
