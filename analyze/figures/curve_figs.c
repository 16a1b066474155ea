/*
 * curve_figs.c - the load-curve figures of `nvanalyze -o` (see curve_figs.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyze/figures/curve_figs.h"
#include "analyze/figures/gnuplot.h"
#include "analyze/report/curves.h"
#include "analyze/stats/repeats.h"

/*
 * The data column of latency level k of the curves (curves->lat): three
 * each (value, interval) after the point and the throughput's three.
 */
#define LAT_COL(k) (5 + 3 * (unsigned)(k))

/*
 * A row's value for side s and its 95% interval (the t interval of the
 * mean with repeats, else the value itself), divided by div.  False when
 * missing (row NULL: the block has no such row).
 */
static bool row_range(const struct nv_row *row, size_t s, double div, double v[3])
{
	const struct nv_cell *c = row ? &row->cells[s] : NULL;
	double half;

	if (!c || !c->n)
		return false;
	half = nv_repeats_mean_half(c);
	v[0] = c->value / div;
	v[1] = (c->mean - half) / div;
	v[2] = (c->mean + half) / div;
	return true;
}

/*
 * Whether some side has latency level l and the throughput at some point of cv.
 * Return: true when a curve of l has a point to draw.
 */
static bool any_point(const struct nv_report *r, const struct nv_curve *cv, double l)
{
	double v[3];

	for (size_t s = 0; s < r->nsides; s++)
		for (size_t p = 0; p < cv->sw->npoints; p++) {
			const struct nv_block *b = &r->blocks[cv->block[p]];

			if (row_range(nv_block_level_row(b, l), s, 1, v) &&
			    row_range(nv_block_row(b, cv->tput), s, 1, v))
				return true;
		}
	return false;
}

/* The swept parameters as words: "iodepth", "numjobs and iodepth". */
static void params_text(char *buf, size_t n, const struct nv_sweep *sw)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned k = 0; k < sw->nparams && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					!k ? "" : k + 1 == sw->nparams ? " and " : ", ",
					nv_sweep_key_name(sw->param[k]));
}

/*
 * A line curve's data: per run (gnuplot index = run order) a row per point
 * with the throughput and some latency level: the swept value, throughput
 * and its interval, then each level of lat in us with its interval ("-":
 * not measured, gnuplot's missing value), then 1 when exact.
 */
static void curve_data(FILE *f, const struct nv_report *r, const struct nv_curve *cv,
		       const struct nv_pctl *lat)
{
	char params[128], dname[300], dlab[300];

	params_text(params, sizeof(params), cv->sw);
	nv_gnuplot_data_str(dname, sizeof(dname), cv->sw->name);	/* a comment: one line */
	fprintf(f,
		"# load curve %s · %s, %s sweep: one block per run (gnuplot index, run order)\n"
		"# point %s %s_lo %s_hi",
		dname, nv_dir_name((enum nv_dir)cv->sw->dir), params,
		nv_metric(cv->tput)->key, nv_metric(cv->tput)->key, nv_metric(cv->tput)->key);
	for (size_t k = 0; k < lat->n; k++) {
		nv_pctl_name(params, sizeof(params), lat->v[k]);
		fprintf(f, " %s_us lo hi", params);
	}
	fprintf(f, " exact\n");
	for (size_t s = 0; s < r->nsides; s++) {
		nv_gnuplot_data_str(dlab, sizeof(dlab), r->sides[s].label);
		fprintf(f, "# run %s\n", dlab);
		for (size_t p = 0; p < cv->sw->npoints; p++) {
			const struct nv_block *b = &r->blocks[cv->block[p]];
			const struct nv_row *ex = NULL;
			double t[3], l[NV_PCTL_MAX][3];
			bool has[NV_PCTL_MAX], any = false;
			char pv[128];

			for (size_t k = 0; k < lat->n; k++) {
				const struct nv_row *row = nv_block_level_row(b, lat->v[k]);

				has[k] = row_range(row, s, 1e3, l[k]);
				if (has[k] && !ex)
					ex = row;
				any |= has[k];
			}
			if (!row_range(nv_block_row(b, cv->tput), s, 1, t) || !any) {
				nv_sweep_point_name(pv, sizeof(pv), cv->sw, p);
				fprintf(f, "# %s absent\n", pv);
				continue;
			}
			/* the label: the value, or the point's name */
			if (cv->sw->nparams == 1)
				nv_sweep_value_text(pv, sizeof(pv), cv->sw->param[0],
						    cv->sw->pt[p].v[cv->sw->param[0]]);
			else
				nv_sweep_point_name(pv, sizeof(pv), cv->sw, p);
			fprintf(f, "%s %.10g %.10g %.10g", pv, t[0], t[1], t[2]);
			for (size_t k = 0; k < lat->n; k++)
				if (has[k])
					fprintf(f, " %.10g %.10g %.10g", l[k][0], l[k][1],
						l[k][2]);
				else
					fprintf(f, " - - -");
			fprintf(f, " %d\n", ex->cells[s].src == NV_SRC_EXACT);
		}
		fprintf(f, "\n\n");
	}
}

/* Latency level l's title in block b: "clat p99". */
static void level_title(char *buf, size_t n, const struct nv_block *b, double l)
{
	nv_fmt_row_title(buf, n, b, &(struct nv_row){ .metric = nv_level_metric(l), .level = l });
}

/* A throughput tick as it reads: "0", "250k", "1.5M", "800". */
static void tput_tick(char *buf, size_t n, double v)
{
	if (v >= 1e6)
		snprintf(buf, n, "%.3gM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.3gk", v / 1e3);
	else
		snprintf(buf, n, "%.3g", v);
}

/* A latency tick in us as it reads: "10 us", "1 ms", "2 s". */
static void lat_tick(char *buf, size_t n, double us)
{
	if (us >= 1e6)
		snprintf(buf, n, "%g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, n, "%g ms", us / 1e3);
	else
		snprintf(buf, n, "%g us", us);
}

/*
 * The latency ticks of points from lmin to lmax (us), on a y range
 * [lo, hi] around them: each decade from the one at or below lmin to the
 * first at or above lmax, or where fewer than two decades fall inside the
 * range (the points within a decade or so), 1, 2 and 5 x 10^k inside it,
 * so that the axis reads more than one value.
 */
static void lat_tics(FILE *f, double lmin, double lmax, double lo, double hi)
{
	static const double m125[] = { 1, 2, 5 };
	double first = pow(10, floor(log10(lmin)));
	unsigned inside = 0, n = 0;
	char b[32];

	for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
		inside += d >= lo;
	fprintf(f, "set ytics (");
	for (double d = first; inside >= 2 && n < 20; d *= 10) {
		lat_tick(b, sizeof(b), d);
		fprintf(f, "%s\"%s\" %.10g", n++ ? ", " : "", b, d);
		if (d >= lmax)
			break;
	}
	for (double d = pow(10, floor(log10(lo))); inside < 2 && d <= hi; d *= 10)
		for (size_t j = 0; j < sizeof(m125) / sizeof(m125[0]); j++) {
			if (d * m125[j] < lo || d * m125[j] > hi)
				continue;
			lat_tick(b, sizeof(b), d * m125[j]);
			fprintf(f, "%s\"%s\" %.10g", n++ ? ", " : "", b, d * m125[j]);
		}
	fprintf(f, ")\n");
}

/*
 * The ticks of the curve of level l: throughput from 0 in steps of 1, 2,
 * 2.5 or 5 x 10^k (about 5 of them), latency as lat_tics says (its unit in
 * the label: the y axis is in us).
 */
static void curve_tics(FILE *f, const struct nv_report *r, const struct nv_curve *cv, double l)
{
	double tmax = 0, lmin = INFINITY, lmax = 0, step, mag, t[3], v[3];
	static const double nice[] = { 1, 2, 2.5, 5, 10 };
	char b[32];

	for (size_t s = 0; s < r->nsides; s++)
		for (size_t p = 0; p < cv->sw->npoints; p++) {
			const struct nv_block *bk = &r->blocks[cv->block[p]];

			if (!row_range(nv_block_row(bk, cv->tput), s, 1, t) ||
			    !row_range(nv_block_level_row(bk, l), s, 1e3, v) || !(v[1] > 0))
				continue;
			tmax = fmax(tmax, t[2]);
			lmin = fmin(lmin, v[1]);
			lmax = fmax(lmax, v[2]);
		}
	if (!(tmax > 0) || !(lmax > 0))
		return;
	mag = pow(10, floor(log10(tmax / 5)));
	for (size_t i = 0; i < sizeof(nice) / sizeof(nice[0]); i++)
		if ((step = nice[i] * mag) >= tmax / 5)
			break;
	fprintf(f, "set xtics (");
	for (unsigned i = 0; i * step <= tmax * 1.05 + step; i++) {
		tput_tick(b, sizeof(b), i * step);
		fprintf(f, "%s\"%s\" %.10g", i ? ", " : "", b, i * step);
	}
	fprintf(f, ")\n");
	lat_tics(f, lmin, lmax, lmin / 1.5, lmax * 1.5);
	/* no point on an edge */
	fprintf(f, "set yrange [%.6g:%.6g]\n", lmin / 1.5, lmax * 1.5);
}

/* The script of the curve of latency level k (data column LAT_COL(k)). */
static void curve_script(FILE *f, const struct nv_report *r, const struct nv_curve *cv,
			 double l, size_t k, const char *data)
{
	const struct nv_block *b0 = &r->blocks[cv->block[0]];
	bool reps = nv_report_repeats(r);
	char name[300], t[300], params[128];
	unsigned col = LAT_COL(k);

	params_text(params, sizeof(params), cv->sw);
	nv_gnuplot_str(name, sizeof(name), cv->sw->name);
	level_title(t, sizeof(t), b0, l);
	fprintf(f, "set title \"%s · %s: %s against %s (points: %s)\" noenhanced\n", name,
		nv_dir_name((enum nv_dir)cv->sw->dir), t, nv_metric(cv->tput)->title, params);
	fprintf(f,
		"set xlabel \"%s%s\"\nset ylabel \"%s (log scale)\"\nset logscale y\n"
		"set format y \"%%g\"\nset format x \"%%.0f\"\n"
		"set datafile missing \"-\"\nset key top left\n"
		"set offsets graph 0.05, graph 0.1, 0, 0\n"
		"set xrange [0:*]\n",
		nv_metric(cv->tput)->title, cv->tput == NV_M_BW ? " (MB/s)" : "", t);
	curve_tics(f, r, cv, l);
	fprintf(f, "# each point is labelled with its %s%s\nplot ", params,
		reps ? "; error bars: the 95% interval of the repeats' mean" : "");
	for (size_t s = 0; s < r->nsides; s++) {
		nv_gnuplot_str(name, sizeof(name), r->sides[s].label);
		fprintf(f,
			"%s\\\n    \"%s\" index %zu using 2:%u with linespoints lt %zu "
			"title \"%s\" noenhanced",
			s ? ", " : "", data, s, col, s + 1, name);
		if (reps)
			fprintf(f,
				", \\\n    \"%s\" index %zu using 2:%u:3:4:%u:%u with xyerrorbars "
				"lt %zu pt 0 notitle",
				data, s, col, col + 1, col + 2, s + 1);
		fprintf(f,
			", \\\n    \"%s\" index %zu using 2:%u:(stringcolumn(1)) with labels "
			"offset char 0.6,0.7 left font label_font textcolor lt %zu notitle",
			data, s, col, s + 1);
	}
	fprintf(f, "\n");
}

/*
 * The order of the curve figures: p99 first (the knee's level), then the
 * others ascending.  Return: the index in lat of the k-th figure's level.
 */
static size_t fig_level(const struct nv_pctl *lat, size_t k)
{
	size_t i99 = lat->n;

	for (size_t i = 0; i < lat->n; i++)
		if (nv_pctl_same(lat->v[i], 99))
			i99 = i;
	if (i99 == lat->n)
		return k;
	if (k == 0)
		return i99;
	return k <= i99 ? k - 1 : k;
}

static int one_curve(struct nv_figset *o, const struct nv_curve *cv)
{
	const struct nv_report *r = o->r;
	const struct nv_pctl *lat = &r->curves->lat;
	char slug[200], base[256], rel[PATH_MAX];
	FILE *f;
	int ret;

	nv_slug(slug, sizeof(slug), cv->sw->name);
	snprintf(base, sizeof(base), "%s_%s", slug, nv_dir_name((enum nv_dir)cv->sw->dir));
	snprintf(rel, sizeof(rel), "data/curve_%s.dat", base);
	if ((ret = nv_figset_open(o, rel, &f)))
		return ret;
	curve_data(f, r, cv, lat);
	if ((ret = nv_figset_close(o, f, rel)))
		return ret;
	for (size_t i = 0; i < lat->n; i++) {
		size_t k = fig_level(lat, i);
		char name[300], title[64], tag[32];
		struct nv_fig *fg;

		if (!any_point(r, cv, lat->v[k]))
			continue;	/* a level no point measured: nothing to draw */
		/* "p99.9": a name's characters */
		nv_pctl_name(tag, sizeof(tag), lat->v[k]);
		snprintf(name, sizeof(name), "curve_%s_%s", tag, base);
		fg = nv_figset_add(o, SIZE_MAX, NULL, name);
		if (!fg)
			return 0;
		snprintf(name, sizeof(name), "%s.gp", fg->name);
		if ((ret = nv_figset_open(o, name, &f)))
			return ret;
		nv_gnuplot_head(f, fg->name);
		curve_script(f, r, cv, lat->v[k], k, rel);
		if ((ret = nv_figset_close(o, f, name)))
			return ret;
		level_title(title, sizeof(title), &r->blocks[cv->block[0]], lat->v[k]);
		snprintf(fg->caption, sizeof(fg->caption), "Load curve of %s · %s: %s against %s",
			 cv->sw->name, nv_dir_name((enum nv_dir)cv->sw->dir), title,
			 nv_metric(cv->tput)->title);
	}
	return 0;
}

static void tics(FILE *f, const char *axis, enum nv_sweep_key k, const double *v, size_t n)
{
	fprintf(f, "set %stics (", axis);
	for (size_t i = 0; i < n; i++) {
		char t[32];

		nv_sweep_value_text(t, sizeof(t), k, v[i]);
		fprintf(f, "%s\"%s\" %zu", i ? ", " : "", t, i);
	}
	fprintf(f, ") scale 0\nset %srange [-0.5:%zu.5]\n", axis, n - 1);
}

/*
 * The data line of the cell (row value a, column value b) at (x, y) of side
 * s's heat map: its value and label, or NaN and "not run" / "absent"
 * (a point not in the sweep, or one the run lacks).
 */
static void matrix_cell(FILE *f, const struct nv_report *r, const struct nv_curve *cv, size_t s,
			double a, double b, size_t x, size_t y)
{
	const struct nv_sweep *sw = cv->sw;
	const struct nv_row *row = NULL;
	char v[64];
	size_t p;

	for (p = 0; p < sw->npoints; p++)
		if (sw->pt[p].v[sw->param[0]] == a && sw->pt[p].v[sw->param[1]] == b)
			break;
	if (p < sw->npoints)
		row = nv_block_row(&r->blocks[cv->block[p]], cv->tput);
	if (!row || !row->cells[s].n) {
		fprintf(f, "%zu %zu NaN \"%s\"\n", x, y, p < sw->npoints ? "absent" : "not run");
		return;
	}
	nv_fmt_value(v, sizeof(v), row->cells[s].value, nv_metric(cv->tput)->unit);
	fprintf(f, "%zu %zu %.10g \"%s\"\n", x, y, row->cells[s].value, v);
}

/* Side s's heat map of a two-parameter curve. */
static int one_matrix(struct nv_figset *o, const struct nv_curve *cv, size_t s)
{
	enum { MAXV = 64 };
	const struct nv_report *r = o->r;
	const struct nv_sweep *sw = cv->sw;
	double rv[MAXV], cvv[MAXV];
	size_t nr = nv_sweep_values(sw, sw->param[0], rv, MAXV);
	size_t nc = nv_sweep_values(sw, sw->param[1], cvv, MAXV);
	char slug[200], lab[100], name[300], rel[PATH_MAX], t[300];
	struct nv_fig *fg;
	FILE *f;
	int ret;

	nv_slug(slug, sizeof(slug), sw->name);
	nv_slug(lab, sizeof(lab), r->sides[s].label);
	snprintf(name, sizeof(name), "matrix_%.100s_%s_%.60s", slug,
		 nv_dir_name((enum nv_dir)sw->dir), lab);
	if (!(fg = nv_figset_add(o, SIZE_MAX, NULL, name)))
		return 0;
	snprintf(rel, sizeof(rel), "data/%s.dat", fg->name);
	if ((ret = nv_figset_open(o, rel, &f)))
		return ret;
	nv_gnuplot_data_str(t, sizeof(t), r->sides[s].label);	/* a comment: one line */
	fprintf(f, "# %s by %s (rows, y) and %s (columns, x), run %s: column row value label\n"
		"# every cell of the grid; one without a value is NaN (not drawn) and labelled\n",
		nv_metric(cv->tput)->key, nv_sweep_key_name(sw->param[0]),
		nv_sweep_key_name(sw->param[1]), t);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++)
			matrix_cell(f, r, cv, s, rv[i], cvv[j], j, i);
	if ((ret = nv_figset_close(o, f, rel)))
		return ret;
	snprintf(name, sizeof(name), "%s.gp", fg->name);
	if ((ret = nv_figset_open(o, name, &f)))
		return ret;
	nv_gnuplot_head(f, fg->name);
	nv_gnuplot_str(t, sizeof(t), sw->name);
	nv_gnuplot_str(lab, sizeof(lab), r->sides[s].label);
	fprintf(f,
		"set title \"%s · %s: %s by %s and %s (%s)\" noenhanced\n"
		"set xlabel \"%s\"\nset ylabel \"%s\"\n"
		"set grid noxtics noytics nomxtics nomytics\n"
		"set palette defined (0 \"#f7fbff\", 0.5 \"#9ecae1\", 1 \"#3182bd\")\n"
		"set cbrange [0:*]\nset cblabel \"%s\"\nset format cb \"%%.0f\"\n"
		"unset key\n",
		t, nv_dir_name((enum nv_dir)sw->dir), nv_metric(cv->tput)->title,
		nv_sweep_key_name(sw->param[0]), nv_sweep_key_name(sw->param[1]), lab,
		nv_sweep_key_name(sw->param[1]), nv_sweep_key_name(sw->param[0]),
		nv_metric(cv->tput)->title);
	tics(f, "x", sw->param[1], cvv, nc);
	tics(f, "y", sw->param[0], rv, nr);
	/* boxes, not "with image": that needs every cell, and a missing one emptied the map */
	fprintf(f, "plot \"%s\" using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
		"lc palette, \\\n"
		"    \"%s\" using 1:2:4 with labels font change_font textcolor rgb \"#000000\"\n",
		rel, rel);
	if ((ret = nv_figset_close(o, f, name)))
		return ret;
	snprintf(fg->caption, sizeof(fg->caption), "%s of %s · %s by %s and %s, %s",
		 nv_metric(cv->tput)->title, sw->name, nv_dir_name((enum nv_dir)sw->dir),
		 nv_sweep_key_name(sw->param[0]), nv_sweep_key_name(sw->param[1]),
		 r->sides[s].label);
	return 0;
}

int nv_curve_figs_write(struct nv_figset *o)
{
	const struct nv_curves *c = o->r->curves;
	int ret = 0;

	for (size_t i = 0; c && !ret && i < c->n; i++) {
		if (c->c[i].line)
			ret = one_curve(o, &c->c[i]);
		for (size_t s = 0; !ret && c->c[i].grid && s < o->r->nsides; s++)
			ret = one_matrix(o, &c->c[i], s);
	}
	return ret;
}
