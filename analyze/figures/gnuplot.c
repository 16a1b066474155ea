/*
 * gnuplot.c - the gnuplot scripts of the figures (see gnuplot.h).  The
 * look (fonts, colours, line types, band_fill, p50_color ...) is in
 * plots/style.gp, which every script loads.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/figures/gnuplot.h"
#include "analyze/figures/gpquote.h"
#include "analyze/report/format.h"
#include "analyze/stats/trace_find.h"

void nv_gnuplot_head(FILE *f, const char *name)
{
	fprintf(f,
		"# Written by nvanalyze -o.  Rerun from this directory:\n"
		"#   gnuplot %s.gp                  (PNG)\n"
		"#   gnuplot -e \"fmt='svg'\" %s.gp   (SVG)\n"
		"out = \"%s\"\nload \"style.gp\"\nset datafile missing \"NaN\"\n",
		name, name, name);
}

/*
 * The latency kind in words: "submission", "completion", "total".
 * Return: a static string.
 */
static const char *lat_words(enum nv_latkind lat)
{
	return lat == NV_LAT_SLAT ? "submission" : lat == NV_LAT_CLAT ? "completion" : "total";
}

/*
 * Title, axes and key of a CDF or exceedance figure.
 * Return: nothing.
 */
static void cdf_axes(FILE *f, const struct nv_gp_cdf *p)
{
	const char *below = "below left Left reverse maxcols 1 font key_font";
	char t[300];

	nv_gnuplot_str(t, sizeof(t), p->key);
	if (p->key_below)	/* the key goes below: room under the x label */
		fprintf(f, "set bmargin %d\n", 5 + (int)(p->nkey * 3 / 2));
	fprintf(f, "set title \"%s · %s: %s latency (%s), %s\" noenhanced\n", t,
		nv_dir_name(p->dir), lat_words(p->lat), nv_latkind_name(p->lat),
		p->exceedance ? "exceedance 1 - CDF" : "CDF");
	fprintf(f,
		"set xlabel \"%s latency (µs, log scale)\"\nset logscale x\nset format x "
		"\"%%.10g\"\n", nv_latkind_name(p->lat));
	if (p->exceedance)
		fprintf(f,
			"set ylabel \"fraction of IOs at or above x (log scale)\"\n"
			"set logscale y\nset logscale y2\nset format y \"10^{%%L}\"\n"
			"set yrange [%g:1]\nset y2range [%g:1]\n"
			"set y2tics (\"p90\" 0.1, \"p99\" 0.01, \"p99.9\" 0.001, \"p99.99\" 1e-4, "
			"\"p99.999\" 1e-5, \"p99.9999\" 1e-6, \"p99.99999\" 1e-7) textcolor rgb "
			"\"#606060\"\n"
			"set key %s\n",
			p->ymin, p->ymin, p->key_below ? below : "top right");
	else
		fprintf(f, "set ylabel \"fraction of IOs ≤ x\"\nset yrange [0:1]\n"
			"set rmargin 6\nset ytics 0.1\nset key %s\n",
			p->key_below ? below : "bottom right");
}

/*
 * One curve of a CDF figure, after "plot " or ", ": its data, style and
 * key entry (NULL: none).
 * Return: nothing.
 */
static void cdf_curve(FILE *f, const struct nv_gp_cdf *p, const struct nv_gp_curve *c,
		      const char *style, const char *title)
{
	bool exact = c->src == NV_CDF_TRACE;
	char t[300];

	fprintf(f, "\\\n    \"%s\" using 1:%s with %s %s", c->data,
		p->exceedance ? "($3 > 0 ? $3 : 1/0)" : "2",
		c->src == NV_CDF_PCT ? "linespoints" : "steps", style);
	if (!title) {
		fprintf(f, " notitle");
		return;
	}
	nv_gnuplot_str(t, sizeof(t), title);
	fprintf(f, " title \"%s%s%s%s\" noenhanced", t, exact ? "" : " (",
		exact ? "" : nv_figdata_src_text(c->src), exact ? "" : ")");
}

/*
 * Curve i's value the many-curve figure ranks by (p50 or p99.9).
 * Return: microseconds, NAN when the curve does not reach it.
 */
static double rank_us(const struct nv_gp_cdf *p, size_t i)
{
	return p->exceedance ? p->curves[i].p999_us : p->curves[i].p50_us;
}

/*
 * The fastest, the median and the slowest curve by rank_us, into pick[3]
 * (ties: the first in order).
 * Return: how many curves have a value (0: pick unset).
 */
static size_t cdf_picks(const struct nv_gp_cdf *p, size_t pick[3])
{
	size_t n = 0, below, mid;

	for (size_t i = 0; i < p->ncurves; i++) {
		double v = rank_us(p, i);

		if (isnan(v))
			continue;
		if (!n || v < rank_us(p, pick[0]))
			pick[0] = i;
		if (!n || v > rank_us(p, pick[2]))
			pick[2] = i;
		n++;
	}
	mid = (n - 1) / 2;	/* the median: the curve with mid others below it */
	for (size_t i = 0; i < p->ncurves && n; i++) {
		double v = rank_us(p, i);

		if (isnan(v))
			continue;
		below = 0;
		for (size_t j = 0; j < p->ncurves; j++) {
			double w = rank_us(p, j);

			below += !isnan(w) && (w < v || (w == v && j < i));
		}
		if (below == mid)
			pick[1] = i;
	}
	return n;
}

/*
 * Many curves: each thin and grey, no key entry but the first's; then the
 * fastest, median and slowest over them, named.
 * Return: nothing.
 */
static void cdf_many(FILE *f, const struct nv_gp_cdf *p)
{
	static const char *const role[3] = { "fastest", "median", "slowest" };
	static const unsigned lt[3] = { 1, 7, 2 };
	size_t pick[3];
	char all[64], title[400], style[64];

	snprintf(all, sizeof(all), "each of the %zu curves", p->ncurves);
	for (size_t i = 0; i < p->ncurves; i++) {
		fprintf(f, "%s", i ? ", " : "");
		cdf_curve(f, p, &p->curves[i], "lc rgb \"#c0c0c0\" lw 0.5", i ? NULL : all);
	}
	if (!cdf_picks(p, pick))
		return;
	for (int k = 0; k < 3; k++) {
		const struct nv_gp_curve *c = &p->curves[pick[k]];

		if (k == 1 && (pick[1] == pick[0] || pick[1] == pick[2]))
			continue;	/* two or fewer curves with a value */
		if (k == 2 && pick[2] == pick[0])
			continue;
		snprintf(title, sizeof(title), "%s %s (%.4g us): %s", role[k],
			 p->exceedance ? "p99.9" : "p50", rank_us(p, pick[k]), c->title);
		snprintf(style, sizeof(style), "lt %u", lt[k]);
		fprintf(f, ", ");
		cdf_curve(f, p, c, style, title);
	}
}

bool nv_gnuplot_cdf_many(const struct nv_gp_curve *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].lt > NV_GP_CURVES_KEYED)
			return true;
	return false;
}

void nv_gnuplot_cdf(FILE *f, const struct nv_gp_cdf *p)
{
	char style[48];

	cdf_axes(f, p);
	fprintf(f, "plot ");
	if (nv_gnuplot_cdf_many(p->curves, p->ncurves)) {
		cdf_many(f, p);
	} else {
		for (size_t i = 0; i < p->ncurves; i++) {
			const struct nv_gp_curve *c = &p->curves[i];

			snprintf(style, sizeof(style), "lt %u", c->lt);
			if (c->dt)
				snprintf(style + strlen(style), sizeof(style) - strlen(style),
					 " dt %u", c->dt);
			fprintf(f, "%s", i ? ", " : "");
			cdf_curve(f, p, c, style, c->title);
		}
	}
	fprintf(f, "\n");
}

/*
 * The colour of a bar's label: by the change's verdict.
 * Return: a "#rrggbb" string.
 */
static const char *bar_color(const struct nv_row *row, size_t s, size_t base)
{
	if (s == base || !row->chg[s].have)
		return "#202020";
	return row->chg[s].verdict == NV_BETTER ? "#1a7f37" :
	       row->chg[s].verdict == NV_WORSE ? "#b42318" : "#404040";
}

/*
 * With many sides (nv_gnuplot_bars_many), the bars of row that get a label:
 * the lowest and the highest in % of the baseline, into *lo and *hi
 * (SIZE_MAX: none).
 * Return: nothing.
 */
static void bar_extremes(const struct nv_report *r, const struct nv_row *row, size_t *lo,
			 size_t *hi)
{
	*lo = *hi = SIZE_MAX;
	for (size_t s = 0; s < r->nsides; s++) {
		if (!row->cells[s].n)
			continue;
		if (*lo == SIZE_MAX || row->cells[s].value < row->cells[*lo].value)
			*lo = s;
		if (*hi == SIZE_MAX || row->cells[s].value > row->cells[*hi].value)
			*hi = s;
	}
}

/*
 * One vertical label per bar (readable for any number of runs): the value
 * and, for the other sides, the change with its verdict (its interval and
 * run counts are in the tables: a label stays short enough to fit).  With
 * many sides only the lowest, the highest and the baseline's, each with
 * its side's name.
 * Return: nothing.
 */
static void bar_labels(FILE *f, const struct nv_report *r, const struct nv_row *row, size_t m)
{
	size_t ns = r->nsides, base = r->baseline, lo = SIZE_MAX, hi = SIZE_MAX;
	enum nv_unit u = nv_metric(row->metric)->unit;
	bool many = nv_gnuplot_bars_many(r);
	char v[64], c[96], name[300];

	if (many)
		bar_extremes(r, row, &lo, &hi);
	for (size_t s = 0; s < ns; s++) {
		const struct nv_cell *cell = &row->cells[s];
		double x = (double)m + ((double)s - (double)(ns - 1) / 2) / (double)(ns + 1);
		double y = cell->n ? 100 * cell->value / row->cells[base].value : 0;

		if (!cell->n || (many && s != lo && s != hi && s != base))
			continue;
		nv_fmt_value(v, sizeof(v), cell->value, u);
		c[0] = name[0] = 0;
		if (s != base && row->chg[s].have) {
			char ch[80], *cut;

			nv_fmt_change(ch, sizeof(ch), &row->chg[s]);
			if ((cut = strstr(ch, " [")) || (cut = strstr(ch, " n=")))
				*cut = 0;	/* the interval and n are in the table */
			snprintf(c, sizeof(c), "  %s", ch);
		}
		if (many) {
			nv_gnuplot_str(name, sizeof(name) - 2, r->sides[s].label);
			strcat(name, ": ");
		}
		fprintf(f, "set label \"%s%s%s\" at %.4f,%.4g left rotate by 90 offset 0,0.5 "
			"font label_font textcolor rgb \"%s\" noenhanced\n", name, v, c, x, y,
			bar_color(row, s, base));
	}
}

bool nv_gnuplot_bars_many(const struct nv_report *r)
{
	return r->nsides > NV_GP_CURVES_KEYED;
}

/*
 * A bar's style and key entry (title[0] 0: none) in a bar chart: a line
 * type per side, or with many sides grey bars under one key entry and the
 * baseline's dark.
 * Return: nothing.
 */
static void bar_style(const struct nv_report *r, size_t s, char *style, size_t slen,
		      char *title, size_t tlen)
{
	size_t base = r->baseline;
	char t[300];

	nv_gnuplot_str(t, sizeof(t), r->sides[s].label);
	if (!nv_gnuplot_bars_many(r)) {
		snprintf(style, slen, "lt %zu", s + 1);
		snprintf(title, tlen, "%s%s", t, s == base ? " (baseline)" : "");
		return;
	}
	snprintf(style, slen, "lc rgb \"%s\"", s == base ? "#303030" : "#b0b0b0");
	if (s == base)
		snprintf(title, tlen, "%s (baseline)", t);
	else if (s == (base ? 0 : 1))	/* the first other side */
		snprintf(title, tlen, "each of the %zu other sides", r->nsides - 1);
	else
		title[0] = 0;
}

/* What a bar chart shows: its title and y label, its clusters. */
struct bars_plot {
	const char *title;		/* escaped for a gnuplot string */
	const char *ylabel;		/* escaped */
	const struct nv_row *const *rows;	/* a cluster per row */
	size_t nrows;
	double ymax;			/* the largest bar, % of the baseline */
	const char *data;
	bool slant;			/* long cluster names: slanted */
};

/*
 * A bar chart: one cluster per row, one bar per side in % of the baseline
 * (read from data), each labelled with its value and change.
 * Return: nothing.
 */
static void bars_plot(FILE *f, const struct nv_report *r, const struct bars_plot *p)
{
	bool many = nv_gnuplot_bars_many(r);
	char t[340], style[48];

	fprintf(f, "set title \"%s\" noenhanced\nset ylabel \"%s\" noenhanced\n", p->title,
		p->ylabel);
	/* many sides: thin bars without borders, room above for names in the labels */
	fprintf(f,
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.85 %s\nset boxwidth 1\n"
		"set yrange [0:%.0f]\nset xrange [-0.6:%.1f]\nset xtics nomirror scale 0%s\n"
		"set grid noxtics nomxtics\nset key below horizontal\nset datafile missing "
		"\"nan\"\n", many ? "noborder" : "border rgb \"#404040\"",
		p->ymax * (many ? 2.0 : 1.6) + 10, (double)p->nrows - 0.4,
		p->slant ? " rotate by 25 right noenhanced" : " noenhanced");
	for (size_t m = 0; m < p->nrows; m++)
		bar_labels(f, r, p->rows[m], m);
	fprintf(f, "plot ");
	for (size_t s = 0; s < r->nsides; s++) {
		bar_style(r, s, style, sizeof(style), t, sizeof(t));
		fprintf(f, "%s\\\n    \"%s\" using %zu%s %s", s ? ", " : "", p->data, s + 2,
			s ? "" : ":xtic(1)", style);
		if (t[0])
			fprintf(f, " title \"%s\" noenhanced", t);
		else
			fprintf(f, " notitle");
	}
	fprintf(f, "\n");
}

void nv_gnuplot_bars(FILE *f, const struct nv_report *r, const struct nv_block *b,
		     const struct nv_row *const *rows, size_t nrows, double ymax, const char *data)
{
	char k[300], base[300], title[800], ylabel[400];

	nv_gnuplot_str(k, sizeof(k), b->key);
	nv_gnuplot_str(base, sizeof(base), r->sides[r->baseline].label);
	snprintf(title, sizeof(title), "%s · %s: headline metrics relative to %s", k,
		 nv_dir_name(b->dir), base);
	snprintf(ylabel, sizeof(ylabel), "%% of %s (IOPS, MB/s: higher is better; latency: lower)",
		 base);
	bars_plot(f, r, &(struct bars_plot){ .title = title, .ylabel = ylabel, .rows = rows,
					     .nrows = nrows, .ymax = ymax, .data = data });
}

void nv_gnuplot_summary(FILE *f, const struct nv_report *r, const struct nv_summary_row *rows,
			size_t nrows, double ymax, const char *data)
{
	const struct nv_row *crow[NV_GP_SUMMARY_MAX];
	char base[300], title[400], ylabel[400];
	size_t longest = 0;

	if (nrows > NV_GP_SUMMARY_MAX)
		nrows = NV_GP_SUMMARY_MAX;
	for (size_t i = 0; i < nrows; i++) {
		const struct nv_block *b = &r->blocks[rows[i].block];
		size_t len = strlen(b->key) + strlen(nv_dir_name(b->dir)) + 12;

		crow[i] = rows[i].row;
		longest = len > longest ? len : longest;
	}
	nv_gnuplot_str(base, sizeof(base), r->sides[r->baseline].label);
	snprintf(title, sizeof(title), "Summary: each job's headline number relative to %s",
		 base);
	snprintf(ylabel, sizeof(ylabel), "%% of %s (higher is better)", base);
	bars_plot(f, r, &(struct bars_plot){ .title = title, .ylabel = ylabel, .rows = crow,
					     .nrows = nrows, .ymax = ymax, .data = data,
					     .slant = nrows * longest > 90 });
}

void nv_gnuplot_tput(FILE *f, const char *title, const struct nv_tan *t, const char *data,
		     double tdiv)
{
	struct nv_tan_find fd;
	char tt[600], x[64];

	nv_gnuplot_str(tt, sizeof(tt), title);
	nv_tan_find(t, &fd);
	fprintf(f, "set title \"%s: throughput per %g s interval\" noenhanced\n", tt,
		(double)t->interval_ns / 1e9);
	fprintf(f,
		"set xlabel \"time since the first IO (%s)\"\nset ylabel \"IOPS\"\n"
		"set y2label \"MB/s (10^6 bytes/s)\" offset -0.8,0\nset y2tics nomirror\nset "
		"ytics nomirror\n"
		"set yrange [0:*]\nset y2range [0:*]\nset offsets 0, 0, graph 0.08, 0\n"
		"set key bottom right\n",
		tdiv > 1 ? "min" : "s");
	/* the whole run, also when the partial last interval (NaN) leaves few points */
	fprintf(f, "set xrange [0:%.6g]\n", (double)t->span_ns / 1e9 / tdiv);
	if (fd.step.found) {
		double at = (double)fd.step.at * (double)t->interval_ns / 1e9 / tdiv;

		nv_fmt_rate(x, sizeof(x), fd.step.after);
		fprintf(f,
			"set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 1.5 lc rgb "
			"\"#b42318\"\n"
			"set label \"throttled to %s\" at %.6g, graph 0.95 left offset 0.5,0 "
			"textcolor rgb \"#b42318\"\n", at, at, x, at);
	}
	fprintf(f,
		"plot \"%s\" using 1:2 axes x1y1 with linespoints lt 1 ps 0.5 title \"IOPS\", \\\n"
		"     \"%s\" using 1:3 axes x1y2 with lines lt 2 dt 2 title \"MB/s\"\n",
		data, data);
}

/* One shaded span of the lat_* figure, [a, b] in the figure's time unit. */
static void lat_span(FILE *f, double a, double b)
{
	fprintf(f, "set object rect from %.6g, graph 0 to %.6g, graph 1 behind "
		"fc rgb \"#fde0dd\" fs solid 1.0 noborder\n", a, b);
}

/*
 * The spike episodes of op shaded, each at least span/400 wide so that a
 * short one shows; episodes whose shading overlaps drawn as their union
 * (the same picture: thousands of overlapping rectangles on a long run
 * made gnuplot's drawing grow with the IOs).  t->spikes are in order of
 * start within an operation.  Return: nothing.
 */
static void lat_spans(FILE *f, const struct nv_tan *t, unsigned op, double span, double tdiv)
{
	double a = 0, b = 0;
	bool open = false;

	for (size_t i = 0; i < t->nspikes; i++) {
		const struct nv_tan_spike *sp = &t->spikes[i];
		double s, e;

		if (sp->op != op || !nv_tan_spike_is_episode(sp))
			continue;
		s = (double)sp->start_ns / 1e9 / tdiv;
		e = fmax((double)sp->end_ns / 1e9, (double)sp->start_ns / 1e9 + span / 400) / tdiv;
		if (open && s <= b) {
			b = fmax(b, e);
			continue;
		}
		if (open)
			lat_span(f, a, b);
		a = s;
		b = e;
		open = true;
	}
	if (open)
		lat_span(f, a, b);
}

void nv_gnuplot_lat(FILE *f, const char *title, const struct nv_tan *t, unsigned op,
		    const char *data, unsigned col, double tdiv)
{
	double span = (double)t->span_ns / 1e9;
	char tt[600];

	nv_gnuplot_str(tt, sizeof(tt), title);
	fprintf(f, "set title \"%s: %s latency per %g s interval (exact)\" noenhanced\n", tt,
		nvt_op_name(op), (double)t->interval_ns / 1e9);
	fprintf(f, "set xlabel \"time since the first IO (%s)\"\n"
		"set ylabel \"latency (µs, log scale)\"\nset logscale y\n"
		"set format y \"%%.10g\"\nset key outside right top\n", tdiv > 1 ? "min" : "s");
	lat_spans(f, t, op, span, tdiv);
	fprintf(f,
		"plot \"%s\" using 1:%u:%u with filledcurves fc rgb band_fill fs solid 0.6 "
		"title \"p50–p99\", \\\n"
		"     \"\" using 1:%u with lines lw 2 lc rgb p50_color title \"p50\", \\\n"
		"     \"\" using 1:%u with lines lw 1.5 dt 2 lc rgb p999_color title \"p99.9\", "
		"\\\n"
		"     \"\" using 1:%u with points pt 7 ps 0.5 lc rgb max_color title \"max\"\n",
		data, col + 2, col + 3, col + 2, col + 4, col + 5);
}
