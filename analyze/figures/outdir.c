/*
 * outdir.c - nvanalyze -o DIR: tables, data files, gnuplot scripts, figures
 * and report.md (see outdir.h).
 *
 * Every figure is a standalone script: it sets `out`, loads style.gp and
 * plots files under data/, so a user can edit and rerun it from DIR.  The
 * scripts are rendered by running gnuplot in DIR (PNG, then SVG); its
 * messages go to DIR/gnuplot.log and a failure names the script.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/stats/exact.h"
#include "analyze/figures/outdir.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_sections.h"

#define MAXFIG 1024

struct fig {
	char name[256];		/* basename, no extension */
	char caption[512];
	size_t block;		/* report block, or SIZE_MAX for per-run figures */
	const struct nv_jobtraces *jt;
};

struct out {
	const char *dir;
	const struct nv_report *r;
	const struct nv_traceset *ts;
	const char *(*label)(const struct nv_run *, void *);
	void *arg;
	size_t nfig;
	struct fig *fig;
	bool approx_cdf;	/* some CDF came from fio's bins or percentiles */
};

void nv_slug(char *buf, size_t n, const char *s)
{
	size_t o = 0;
	bool us = false;

	for (; *s && o + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '-') {
			buf[o++] = (char)c;
			us = false;
		} else if (!us && o) {
			buf[o++] = '_';
			us = true;
		}
	}
	while (o && buf[o - 1] == '_')
		o--;
	if (!o && n > 1)
		buf[o++] = 'x';
	buf[o] = 0;
}

/* A gnuplot double-quoted string body: '"' and '\' escaped. */
static void gp_str(char *buf, size_t n, const char *s)
{
	size_t o = 0;

	for (; *s && o + 2 < n; s++) {
		if (*s == '"' || *s == '\\')
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o] = 0;
}

static FILE *open_out(const struct out *o, const char *rel)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", o->dir, rel);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "nvanalyze: -o: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static int close_out(const struct out *o, FILE *f, const char *rel)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "nvanalyze: -o: writing %s/%s failed\n", o->dir, rel);
		return 2;
	}
	return 0;
}

static struct fig *new_fig(struct out *o, size_t block, const struct nv_jobtraces *jt,
			   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static struct fig *new_fig(struct out *o, size_t block, const struct nv_jobtraces *jt,
			   const char *fmt, ...)
{
	struct fig *f;
	va_list ap;

	if (o->nfig == MAXFIG)
		return NULL;
	f = &o->fig[o->nfig++];
	memset(f, 0, sizeof(*f));
	va_start(ap, fmt);
	vsnprintf(f->name, sizeof(f->name), fmt, ap);
	va_end(ap);
	f->block = block;
	f->jt = jt;
	return f;
}

/* The script's first lines: how to rerun it, out, style. */
static void gp_head(FILE *f, const char *name)
{
	fprintf(f, "# Written by nvanalyze -o.  Rerun from this directory:\n"
		"#   gnuplot %s.gp                  (PNG)\n"
		"#   gnuplot -e \"fmt='svg'\" %s.gp   (SVG)\n"
		"out = \"%s\"\nload \"style.gp\"\nset datafile missing \"NaN\"\n", name, name, name);
}

/* Create NAME.gp of a figure with its head; NULL after an error. */
static FILE *open_script(const struct out *o, const struct fig *fg)
{
	char rel[300];
	FILE *f;

	snprintf(rel, sizeof(rel), "%s.gp", fg->name);
	f = open_out(o, rel);
	if (f)
		gp_head(f, fg->name);
	return f;
}

static int close_script(const struct out *o, FILE *f, const struct fig *fg)
{
	char rel[300];

	snprintf(rel, sizeof(rel), "%s.gp", fg->name);
	return close_out(o, f, rel);
}

/* ---- CDF data ---------------------------------------------------------- */

enum cdf_src { CDF_NONE, CDF_TRACE, CDF_BINS, CDF_PCT };

static const char *const cdf_src_text[] = {
	[CDF_NONE] = "", [CDF_TRACE] = "trace", [CDF_BINS] = "fio bins, approx.",
	[CDF_PCT] = "fio percentiles, approx.",
};

static const struct nv_job *side_job(const struct out *o, size_t s, const char *key,
				     const struct nv_run **run, size_t *jidx)
{
	const struct nv_side *side = &o->r->sides[s];

	for (size_t k = 0; k < side->nruns; k++)
		for (size_t j = 0; j < side->runs[k].njobs; j++)
			if (!strcmp(side->runs[k].jobs[j].key, key)) {
				*run = &side->runs[k];
				*jidx = j;
				return &side->runs[k].jobs[j];
			}
	return NULL;
}

static const struct nv_jobtraces *find_jt(const struct out *o, const struct nv_run *run, size_t j)
{
	for (size_t i = 0; i < o->ts->n; i++)
		if (o->ts->jt[i].run == run && o->ts->jt[i].job == j && o->ts->jt[i].analyzed)
			return &o->ts->jt[i];
	return NULL;
}

static int dir_op(enum nv_dir d)
{
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (nv_op_dir(op) == (int)d)
			return (int)op;
	return -1;
}

/*
 * Write data/NAME: "latency_us cdf exceedance" rows.  From the trace
 * histogram: one row per non-empty bucket at its upper end; from fio's
 * bins: at the bin's value; from the percentile list: its points.
 */
static enum cdf_src write_cdf(struct out *o, const struct nv_block *b, size_t s, const char *rel,
			      double *ymin)
{
	const struct nv_run *run;
	const struct nv_jobtraces *jt;
	const struct nv_job *j;
	const struct nv_latstat *ls;
	enum cdf_src src = CDF_NONE;
	size_t ji;
	int op = dir_op(b->dir);
	FILE *f;

	j = side_job(o, s, b->key, &run, &ji);
	if (!j || !nv_dir_active(&j->dir[b->dir]))
		return CDF_NONE;
	jt = find_jt(o, run, ji);
	ls = &j->dir[b->dir].lat[b->lat];
	if (jt && op >= 0 && jt->tan.op[op].hist && jt->tan.op[op].records && b->lat == NV_LAT_CLAT)
		src = CDF_TRACE;
	else if (ls->nbins)
		src = CDF_BINS;
	else if (ls->npoints)
		src = CDF_PCT;
	else
		return CDF_NONE;
	f = open_out(o, rel);
	if (!f)
		return CDF_NONE;
	fprintf(f, "# %s %s, run %s (%s): %s\n# latency_us cdf exceedance(1-cdf)\n", b->key,
		nv_dir_name(b->dir), o->r->sides[s].label, run->path, cdf_src_text[src]);
	if (src == CDF_TRACE) {
		const uint64_t *h = jt->tan.op[op].hist;
		uint64_t n = jt->tan.op[op].records, cum = 0;

		*ymin = fmin(*ymin, 1.0 / (double)n);
		for (unsigned k = 0; k < NV_EXACT_NBUCKETS; k++) {
			uint64_t lo, hi;

			if (!h[k])
				continue;
			nv_exact_bucket_range(k, &lo, &hi);
			if (!cum)
				fprintf(f, "%.6g 0 1\n", (double)lo / 1e3);
			cum += h[k];
			fprintf(f, "%.6g %.9g %.9g\n", (double)hi / 1e3, (double)cum / (double)n,
				(double)(n - cum) / (double)n);
		}
	} else if (src == CDF_BINS) {
		uint64_t n = 0, cum = 0;

		for (size_t k = 0; k < ls->nbins; k++)
			n += ls->bins[k].count;
		*ymin = fmin(*ymin, 1.0 / (double)n);
		for (size_t k = 0; k < ls->nbins; k++) {
			if (!cum)
				fprintf(f, "%.6g 0 1\n", ls->bins[k].ns / 1e3);
			cum += ls->bins[k].count;
			fprintf(f, "%.6g %.9g %.9g\n", ls->bins[k].ns / 1e3, (double)cum / (double)n,
				(double)(n - cum) / (double)n);
		}
	} else {
		for (size_t k = 0; k < ls->npoints; k++)
			if (ls->points[k].pct < 100)
				*ymin = fmin(*ymin, 1 - ls->points[k].pct / 100);
		for (size_t k = 0; k < ls->npoints; k++)
			fprintf(f, "%.6g %.9g %.9g\n", ls->points[k].ns / 1e3, ls->points[k].pct / 100,
				1 - ls->points[k].pct / 100);
	}
	if (close_out(o, f, rel))
		return CDF_NONE;
	if (src != CDF_TRACE)
		o->approx_cdf = true;
	return src;
}

/* cdf_* and nines_* of one block. */
static int block_cdfs(struct out *o, size_t bi)
{
	const struct nv_block *b = &o->r->blocks[bi];
	char slug[200], rel[PATH_MAX], lab[256], t[300];
	enum cdf_src src[64] = { 0 };
	struct fig *fc = NULL, *fn = NULL;
	double ymin = 0.1;
	size_t longest = 0;
	bool any = false;
	FILE *f;

	nv_slug(slug, sizeof(slug), b->key);
	for (size_t s = 0; s < o->r->nsides && s < 64; s++) {
		nv_slug(lab, sizeof(lab), o->r->sides[s].label);
		snprintf(rel, sizeof(rel), "data/cdf_%s_%s_%s.dat", slug, nv_dir_name(b->dir), lab);
		src[s] = write_cdf(o, b, s, rel, &ymin);
		any |= src[s] != CDF_NONE;
	}
	if (!any)
		return 0;
	ymin = pow(10, floor(log10(ymin)) - 1);	/* a decade below the rarest point */
	for (size_t s = 0; s < o->r->nsides; s++)
		if (strlen(o->r->sides[s].label) > longest)
			longest = strlen(o->r->sides[s].label);
	for (int kind = 0; kind < 2; kind++) {
		struct fig *fg = new_fig(o, bi, NULL, "%s_%s_%s", kind ? "nines" : "cdf", slug,
					 nv_dir_name(b->dir));
		size_t k = 0;

		if (!fg)
			return 0;
		if (kind)
			fn = fg;
		else
			fc = fg;
		f = open_script(o, fg);
		if (!f)
			return 2;
		gp_str(t, sizeof(t), b->key);
		if (longest > 24)	/* the key goes below: room under the x label */
			fprintf(f, "set bmargin %d\n", 5 + (int)(o->r->nsides * 3 / 2));
		fprintf(f, "set title \"%s · %s: %s latency (%s), %s\" noenhanced\n", t, nv_dir_name(b->dir),
			b->lat == NV_LAT_SLAT ? "submission" : b->lat == NV_LAT_CLAT ? "completion" : "total",
			nv_latkind_name(b->lat), kind ? "exceedance 1 - CDF" : "CDF");
		fprintf(f, "set xlabel \"%s latency (µs, log scale)\"\nset logscale x\nset format x \"%%.10g\"\n",
			nv_latkind_name(b->lat));
		if (kind) {
			fprintf(f, "set ylabel \"fraction of IOs slower than x (log scale)\"\n"
				"set logscale y\nset logscale y2\nset format y \"10^{%%L}\"\n"
				"set yrange [%g:1]\nset y2range [%g:1]\n"
				"set y2tics (\"p90\" 0.1, \"p99\" 0.01, \"p99.9\" 0.001, \"p99.99\" 1e-4, "
				"\"p99.999\" 1e-5, \"p99.9999\" 1e-6, \"p99.99999\" 1e-7) textcolor rgb \"#606060\"\n"
				"set key %s\n", ymin, ymin, longest > 24 ? "below left Left reverse maxcols 1 font key_font" : "top right");
		} else {
			fprintf(f, "set ylabel \"fraction of IOs ≤ x\"\nset yrange [0:1]\nset rmargin 6\n"
				"set ytics 0.1\nset key %s\n", longest > 24 ? "below left Left reverse maxcols 1 font key_font" : "bottom right");
		}
		fprintf(f, "plot ");
		for (size_t s = 0; s < o->r->nsides && s < 64; s++) {
			if (src[s] == CDF_NONE)
				continue;
			nv_slug(lab, sizeof(lab), o->r->sides[s].label);
			gp_str(t, sizeof(t), o->r->sides[s].label);
			fprintf(f, "%s\\\n    \"data/cdf_%s_%s_%s.dat\" using 1:%s with %s lt %zu title \"%s%s%s%s\" noenhanced",
				k++ ? ", " : "", slug, nv_dir_name(b->dir), lab, kind ? "($3 > 0 ? $3 : 1/0)" : "2",
				src[s] == CDF_PCT ? "linespoints" : "steps", s + 1, t,
				src[s] == CDF_TRACE ? "" : " (", src[s] == CDF_TRACE ? "" : cdf_src_text[src[s]],
				src[s] == CDF_TRACE ? "" : ")");
		}
		fprintf(f, "\n");
		if (close_script(o, f, fg))
			return 2;
	}
	if (!fc || !fn)
		return 0;
	snprintf(fc->caption, sizeof(fc->caption), "Latency CDF, all runs");
	snprintf(fn->caption, sizeof(fn->caption), "Exceedance (1 - CDF, log scale): the tail, p99 to p99.99");
	return 0;
}

/* ---- bars -------------------------------------------------------------- */

static const enum nv_metric bar_metrics[] = { NV_M_IOPS, NV_M_BW, NV_M_MEAN, NV_M_P99, NV_M_P999 };

static const struct nv_row *find_row(const struct nv_block *b, enum nv_metric m)
{
	for (size_t i = 0; i < b->nrows; i++)
		if (b->rows[i].metric == m)
			return &b->rows[i];
	return NULL;
}

static int block_bars(struct out *o, size_t bi)
{
	const struct nv_report *r = o->r;
	const struct nv_block *b = &r->blocks[bi];
	size_t ns = r->nsides, nm = 0, base = r->baseline;
	char slug[200], rel[PATH_MAX], t[300], v[64], c[96];
	const struct nv_row *rows[8];
	double ymax = 100;
	struct fig *fg;
	FILE *f;

	for (size_t i = 0; i < sizeof(bar_metrics) / sizeof(bar_metrics[0]); i++) {
		const struct nv_row *row = find_row(b, bar_metrics[i]);

		if (row && row->cells[base].n && row->cells[base].mean > 0)
			rows[nm++] = row;
	}
	if (!nm || ns < 2)
		return 0;
	nv_slug(slug, sizeof(slug), b->key);
	fg = new_fig(o, bi, NULL, "bars_%s_%s", slug, nv_dir_name(b->dir));
	if (!fg)
		return 0;
	snprintf(rel, sizeof(rel), "data/%s.dat", fg->name);
	f = open_out(o, rel);
	if (!f)
		return 2;
	fprintf(f, "# %s %s: each metric in %% of the baseline %s\n# metric", b->key, nv_dir_name(b->dir),
		r->sides[base].label);
	for (size_t s = 0; s < ns; s++)
		fprintf(f, " \"%s\"", r->sides[s].label);
	fprintf(f, "\n");
	for (size_t m = 0; m < nm; m++) {
		const struct nv_metric_info *mi = nv_metric(rows[m]->metric);

		fprintf(f, "\"%s%s\"", mi->latency ? "latency " : "", mi->title);
		for (size_t s = 0; s < ns; s++) {
			const struct nv_cell *cell = &rows[m]->cells[s];
			double pct = cell->n ? 100 * cell->mean / rows[m]->cells[base].mean : NAN;

			fprintf(f, " %.6g", pct);
			if (pct > ymax)
				ymax = pct;
		}
		fprintf(f, "\n");
	}
	if (close_out(o, f, rel))
		return 2;
	f = open_script(o, fg);
	if (!f)
		return 2;
	gp_str(t, sizeof(t), b->key);
	fprintf(f, "set title \"%s · %s: headline metrics relative to %s\" noenhanced\n", t,
		nv_dir_name(b->dir), r->sides[base].label);
	fprintf(f, "set ylabel \"%% of %s (IOPS, MB/s: higher is better; latency: lower)\" noenhanced\n"
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.85 border rgb \"#404040\"\nset boxwidth 1\n"
		"set yrange [0:%.0f]\nset xrange [-0.6:%.1f]\nset xtics nomirror scale 0\n"
		"set grid noxtics nomxtics\nset key below horizontal\nset datafile missing \"nan\"\n",
		r->sides[base].label, ymax * 1.6 + 10, (double)nm - 0.4);
	for (size_t m = 0; m < nm; m++) {
		enum nv_unit u = nv_metric(rows[m]->metric)->unit;

		for (size_t s = 0; s < ns; s++) {
			const struct nv_cell *cell = &rows[m]->cells[s];
			double x = (double)m + ((double)s - (double)(ns - 1) / 2) / (double)(ns + 1);
			double y = cell->n ? 100 * cell->mean / rows[m]->cells[base].mean : 0;

			if (!cell->n)
				continue;
			nv_fmt_value(v, sizeof(v), cell->mean, u);
			c[0] = 0;
			if (s != base && rows[m]->chg[s].have) {
				char ch[80];

				nv_fmt_change(ch, sizeof(ch), &rows[m]->chg[s]);
				snprintf(c, sizeof(c), "  %s", ch);
			}
			/* one label per bar, vertical: readable for any number of runs */
			fprintf(f, "set label \"%s%s\" at %.4f,%.4g left rotate by 90 offset 0,0.5 "
				"font label_font textcolor rgb \"%s\" noenhanced\n", v, c, x, y,
				s == base || !rows[m]->chg[s].have ? "#202020" :
				rows[m]->chg[s].verdict == NV_BETTER ? "#1a7f37" :
				rows[m]->chg[s].verdict == NV_WORSE ? "#b42318" : "#404040");
		}
	}
	fprintf(f, "plot ");
	for (size_t s = 0; s < ns; s++) {
		gp_str(t, sizeof(t), r->sides[s].label);
		fprintf(f, "%s\\\n    \"data/%s.dat\" using %zu%s lt %zu title \"%s%s\" noenhanced",
			s ? ", " : "", fg->name, s + 2, s ? "" : ":xtic(1)", s + 1, t,
			s == base ? " (baseline)" : "");
	}
	fprintf(f, "\n");
	if (close_script(o, f, fg))
		return 2;
	snprintf(fg->caption, sizeof(fg->caption), "Headline metrics relative to %s, with the change",
		 r->sides[base].label);
	return 0;
}

/* ---- time series ------------------------------------------------------- */

/* data/ts_*.dat of one traced job: t, all ops, then per op. */
static int write_series(struct out *o, const struct nv_jobtraces *jt, const char *rel, double tdiv)
{
	const struct nv_tan *t = &jt->tan;
	FILE *f = open_out(o, rel);

	if (!f)
		return 2;
	fprintf(f, "# %s: %zu intervals of %g s; t = interval middle\n# t iops_all mbps_all",
		jt->paths[0], t->nint, (double)t->interval_ns / 1e9);
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (t->series[op])
			fprintf(f, " %s_iops %s_mbps %s_p50_us %s_p99_us %s_p999_us %s_max_us",
				nvt_op_name(op), nvt_op_name(op), nvt_op_name(op), nvt_op_name(op),
				nvt_op_name(op), nvt_op_name(op));
	fprintf(f, "\n");
	for (size_t i = 0; i < t->nint; i++) {
		double end = fmin((double)(i + 1) * (double)t->interval_ns, (double)t->span_ns);

		fprintf(f, "%.6g %.6g %.6g", ((double)i * (double)t->interval_ns + end) / 2 / 1e9 / tdiv,
			nv_tan_iops(t, NV_TAN_ALL, i), nv_tan_mbps(t, NV_TAN_ALL, i));
		for (unsigned op = 0; op < NVT_OP__MAX; op++) {
			const struct nv_tan_point *p = t->series[op] ? &t->series[op][i] : NULL;

			if (!p)
				continue;
			fprintf(f, " %.6g %.6g", nv_tan_iops(t, op, i), nv_tan_mbps(t, op, i));
			if (p->ios)
				fprintf(f, " %.6g %.6g %.6g %.6g", (double)p->p50 / 1e3, (double)p->p99 / 1e3,
					(double)p->p999 / 1e3, (double)p->max / 1e3);
			else
				fprintf(f, " NaN NaN NaN NaN");
		}
		fprintf(f, "\n");
	}
	return close_out(o, f, rel);
}

static int run_series(struct out *o, const struct nv_jobtraces *jt)
{
	const struct nv_tan *t = &jt->tan;
	const char *label = o->label(jt->run, o->arg);
	const char *key = jt->run->jobs[jt->job].key;
	char slug[200], lab[200], dat[PATH_MAX], tk[300], tl[300], x[64];
	double span = (double)t->span_ns / 1e9, tdiv = span > 3600 ? 60 : 1;
	const char *tunit = tdiv > 1 ? "min" : "s";
	struct nv_tan_find fd;
	unsigned col = 4;
	struct fig *fg;
	FILE *f;

	if (!t->records || t->nint < 2)
		return 0;
	nv_slug(slug, sizeof(slug), key);
	nv_slug(lab, sizeof(lab), label);
	snprintf(dat, sizeof(dat), "data/ts_%s_%s.dat", slug, lab);
	if (write_series(o, jt, dat, tdiv))
		return 2;
	gp_str(tk, sizeof(tk), key);
	gp_str(tl, sizeof(tl), label);
	nv_tan_find(t, &fd);

	fg = new_fig(o, SIZE_MAX, jt, "tput_%s_%s", slug, lab);
	if (!fg)
		return 0;
	if (!(f = open_script(o, fg)))
		return 2;
	fprintf(f, "set title \"%s · %s: throughput per %g s interval\" noenhanced\n", tk, tl,
		(double)t->interval_ns / 1e9);
	fprintf(f, "set xlabel \"time since the first IO (%s)\"\nset ylabel \"IOPS\"\n"
		"set y2label \"MB/s (10^6 bytes/s)\" offset -0.8,0\nset y2tics nomirror\nset ytics nomirror\n"
		"set yrange [0:*]\nset y2range [0:*]\nset offsets 0, 0, graph 0.08, 0\n"
		"set key bottom right\n", tunit);
	if (fd.step.found) {
		nv_fmt_rate(x, sizeof(x), fd.step.after);
		fprintf(f, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 1.5 lc rgb \"#b42318\"\n"
			"set label \"throttled to %s\" at %.6g, graph 0.95 left offset 0.5,0 textcolor rgb \"#b42318\"\n",
			(double)fd.step.at * (double)t->interval_ns / 1e9 / tdiv,
			(double)fd.step.at * (double)t->interval_ns / 1e9 / tdiv, x,
			(double)fd.step.at * (double)t->interval_ns / 1e9 / tdiv);
	}
	fprintf(f, "plot \"%s\" using 1:2 axes x1y1 with linespoints lt 1 ps 0.5 title \"IOPS\", \\\n"
		"     \"%s\" using 1:3 axes x1y2 with lines lt 2 dt 2 title \"MB/s\"\n", dat, dat);
	if (close_script(o, f, fg))
		return 2;
	snprintf(fg->caption, sizeof(fg->caption), "%s, %s: IOPS and MB/s over time", key, label);

	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		if (!t->series[op])
			continue;
		fg = new_fig(o, SIZE_MAX, jt, "lat_%s_%s_%s", slug, lab, nvt_op_name(op));
		if (!fg)
			return 0;
		if (!(f = open_script(o, fg)))
			return 2;
		fprintf(f, "set title \"%s · %s: %s latency per %g s interval (exact)\" noenhanced\n", tk, tl,
			nvt_op_name(op), (double)t->interval_ns / 1e9);
		fprintf(f, "set xlabel \"time since the first IO (%s)\"\n"
			"set ylabel \"latency (µs, log scale)\"\nset logscale y\nset format y \"%%.10g\"\n"
			"set key outside right top\n",
			tunit);
		for (size_t i = 0; i < t->nspikes; i++)
			if (t->spikes[i].op == op)
				fprintf(f, "set object rect from %.6g, graph 0 to %.6g, graph 1 behind "
					"fc rgb \"#fde0dd\" fs solid 1.0 noborder\n",
					(double)t->spikes[i].start_ns / 1e9 / tdiv,
					fmax((double)t->spikes[i].end_ns / 1e9,
					     (double)t->spikes[i].start_ns / 1e9 + span / 400) / tdiv);
		fprintf(f, "plot \"%s\" using 1:%u:%u with filledcurves fc rgb band_fill fs solid 0.6 "
			"title \"p50–p99\", \\\n"
			"     \"\" using 1:%u with lines lw 2 lc rgb p50_color title \"p50\", \\\n"
			"     \"\" using 1:%u with lines lw 1.5 dt 2 lc rgb p999_color title \"p99.9\", \\\n"
			"     \"\" using 1:%u with points pt 7 ps 0.5 lc rgb max_color title \"max\"\n",
			dat, col + 2, col + 3, col + 2, col + 4, col + 5);
		col += 6;
		if (close_script(o, f, fg))
			return 2;
		snprintf(fg->caption, sizeof(fg->caption), "%s, %s: %s latency over time (p50–p99 band, "
			 "p99.9, max; spike episodes shaded)", key, label, nvt_op_name(op));
	}
	return 0;
}

/* ---- style, gnuplot ---------------------------------------------------- */

/* plots/style.gp: $NVANALYZE_PLOTS, else next to the binary or up to 3 levels above. */
static int find_style(char *buf, size_t n)
{
	const char *env = getenv("NVANALYZE_PLOTS");
	char exe[PATH_MAX];
	ssize_t len;

	if (env) {
		snprintf(buf, n, "%s/style.gp", env);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -ENOENT;
	exe[len] = 0;
	for (int up = 0; up < 4; up++) {
		char *sl = strrchr(exe, '/');

		if (!sl)
			break;
		*sl = 0;
		if ((size_t)snprintf(buf, n, "%s/plots/style.gp", exe) < n && !access(buf, R_OK))
			return 0;
		if ((size_t)snprintf(buf, n, "%s/share/nvanalyze/plots/style.gp", exe) < n &&
		    !access(buf, R_OK))
			return 0;
	}
	return -ENOENT;
}

static int copy_style(const struct out *o)
{
	char src[PATH_MAX], buf[8192];
	FILE *in, *out;
	size_t k;

	if (find_style(src, sizeof(src))) {
		fprintf(stderr, "nvanalyze: -o: plots/style.gp not found (next to the nvanalyze binary, or "
			"in $NVANALYZE_PLOTS)\n");
		return 2;
	}
	in = fopen(src, "r");
	if (!in) {
		fprintf(stderr, "nvanalyze: -o: cannot read %s: %s\n", src, strerror(errno));
		return 2;
	}
	out = open_out(o, "style.gp");
	if (!out) {
		fclose(in);
		return 2;
	}
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, out);
	fclose(in);
	return close_out(o, out, "style.gp");
}

static bool have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *d, buf[PATH_MAX];
	bool found = false;

	if (!path || !(copy = strdup(path)))
		return false;
	for (d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/gnuplot", *d ? d : ".");
		found = !access(buf, X_OK);
	}
	free(copy);
	return found;
}

/* Run gnuplot in DIR on NAME.gp for fmt; stdout/stderr to gnuplot.log.  0 or -1. */
static int render(const struct out *o, const char *name, const char *fmt)
{
	char script[300], fmtarg[64], log[PATH_MAX];
	int status, fd;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(fmtarg, sizeof(fmtarg), "fmt='%s'", fmt);
	snprintf(log, sizeof(log), "%s/gnuplot.log", o->dir);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || chdir(o->dir))
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("gnuplot", "gnuplot", "-e", fmtarg, script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int render_all(const struct out *o, bool *rendered)
{
	char log[PATH_MAX];
	int bad = 0;
	FILE *f;

	*rendered = false;
	snprintf(log, sizeof(log), "%s/gnuplot.log", o->dir);
	if ((f = fopen(log, "w")))
		fclose(f);
	if (!have_gnuplot()) {
		fprintf(stderr, "nvanalyze: gnuplot not found: wrote %zu scripts in %s; render them with\n"
			"  cd %s && for f in *.gp; do gnuplot \"$f\"; gnuplot -e \"fmt='svg'\" \"$f\"; done\n"
			"(Debian: apt-get install gnuplot-nox)\n", o->nfig, o->dir, o->dir);
		return 0;
	}
	for (size_t i = 0; i < o->nfig; i++) {
		if (render(o, o->fig[i].name, "png") || render(o, o->fig[i].name, "svg")) {
			fprintf(stderr, "nvanalyze: -o: gnuplot failed on %s/%s.gp (see %s)\n", o->dir,
				o->fig[i].name, log);
			bad = 2;
		}
	}
	*rendered = true;
	return bad;
}

/* ---- report.md --------------------------------------------------------- */

static void md_figs(FILE *f, const struct out *o, size_t block, const struct nv_jobtraces *jt)
{
	for (size_t i = 0; i < o->nfig; i++)
		if (o->fig[i].block == block && o->fig[i].jt == jt)
			fprintf(f, "![%s](%s.png)\n\n", o->fig[i].caption, o->fig[i].name);
}

static int write_report(const struct out *o, bool rendered)
{
	const struct nv_report *r = o->r;
	FILE *f = open_out(o, "report.md");
	int ret;

	if (!f)
		return 2;
	fprintf(f, "# Storage benchmark report\n\nWritten by `nvanalyze -o`.  Comparison tables: "
		"[tables.md](tables.md), [tables.csv](tables.csv), [tables.json](tables.json); "
		"plotted numbers in `data/`; each figure has its gnuplot script (`NAME.gp`, rerun with "
		"`gnuplot NAME.gp` in this directory; `style.gp` holds the common style).\n\n");
	if (!rendered)
		fprintf(f, "**The figures are not rendered** (gnuplot was not found): run "
			"`for f in *.gp; do gnuplot \"$f\"; done` in this directory.\n\n");
	if (o->approx_cdf)
		fprintf(f, "CDFs marked *approx.* come from fio's latency bins (json+: each bin's "
			"value is up to 0.78%% off) or from fio's percentile list (a few points); the "
			"others from the traces (every IO, in bins of 0.4%%).\n\n");
	ret = nv_report_print(f, r, NV_FMT_MD);
	fprintf(f, "## Figures\n\n");
	for (size_t i = 0; i < r->nblocks; i++) {
		bool any = false;

		for (size_t k = 0; k < o->nfig; k++)
			any |= o->fig[k].block == i;
		if (!any)
			continue;
		fprintf(f, "### %s · %s\n\n", r->blocks[i].key, nv_dir_name(r->blocks[i].dir));
		md_figs(f, o, i, NULL);
	}
	if (o->ts->n) {
		fprintf(f, "## From the traces\n\n");
		if (nv_tracereport_print(f, o->ts, o->label, o->arg, NV_FMT_MD))
			ret = -ENOMEM;
		for (size_t i = 0; i < o->ts->n; i++)
			md_figs(f, o, SIZE_MAX, &o->ts->jt[i]);
	}
	if (ret) {
		fclose(f);
		fprintf(stderr, "nvanalyze: -o: writing %s/report.md failed\n", o->dir);
		return 2;
	}
	return close_out(o, f, "report.md");
}

static int write_tables(const struct out *o)
{
	static const struct { const char *name; enum nv_format f; } t[] = {
		{ "tables.md", NV_FMT_MD }, { "tables.csv", NV_FMT_CSV }, { "tables.json", NV_FMT_JSON },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		FILE *f = open_out(o, t[i].name);
		int bad;

		if (!f)
			return 2;
		bad = nv_report_print(f, o->r, t[i].f);
		if (t[i].f == NV_FMT_MD && !bad)
			bad = nv_tracereport_print(f, o->ts, o->label, o->arg, NV_FMT_MD);
		if (close_out(o, f, t[i].name) || bad)
			return 2;
	}
	return 0;
}

static int make_dirs(const char *dir)
{
	char sub[PATH_MAX];

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "nvanalyze: -o %s: cannot create the directory: %s\n", dir, strerror(errno));
		return 2;
	}
	snprintf(sub, sizeof(sub), "%s/data", dir);
	if (mkdir(sub, 0755) && errno != EEXIST) {
		fprintf(stderr, "nvanalyze: -o: cannot create %s: %s\n", sub, strerror(errno));
		return 2;
	}
	return 0;
}

int nv_outdir_write(const char *dir, const struct nv_report *r, const struct nv_traceset *ts,
		    const char *(*label)(const struct nv_run *run, void *arg), void *arg)
{
	struct out o = { .dir = dir, .r = r, .ts = ts, .label = label, .arg = arg };
	bool rendered = false;
	int ret;

	o.fig = calloc(MAXFIG, sizeof(*o.fig));
	if (!o.fig)
		return 2;
	ret = make_dirs(dir);
	if (!ret)
		ret = copy_style(&o);
	if (!ret)
		ret = write_tables(&o);
	for (size_t i = 0; !ret && i < r->nblocks; i++) {
		if (!r->blocks[i].active)
			continue;
		ret = block_cdfs(&o, i);
		if (!ret)
			ret = block_bars(&o, i);
	}
	for (size_t i = 0; !ret && i < ts->n; i++)
		if (ts->jt[i].analyzed)
			ret = run_series(&o, &ts->jt[i]);
	if (!ret)
		ret = render_all(&o, &rendered);
	if (!ret || ret == 2)
		ret |= write_report(&o, rendered);
	if (!ret)
		fprintf(stderr, "nvanalyze: wrote %s/report.md (%zu figures%s)\n", dir, o.nfig,
			rendered ? ", rendered" : ", not rendered");
	free(o.fig);
	return ret;
}
