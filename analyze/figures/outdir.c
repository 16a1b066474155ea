/*
 * outdir.c - nvanalyze -o DIR: the directory, its files and the list of
 * figures (see outdir.h).  The numbers come from figdata.c, the scripts'
 * text from gnuplot.c, rendering from plot.c, report.md from report_md.c.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/figures/figdata.h"
#include "analyze/figures/figset.h"
#include "analyze/figures/gnuplot.h"
#include "analyze/figures/outdir.h"
#include "analyze/figures/plot.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_sections.h"

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

int nv_outdir_open(const struct nv_figset *o, const char *rel, FILE **f)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", o->dir, rel);
	*f = fopen(path, "w");
	if (*f)
		return 0;
	err = -errno;
	snprintf(o->err, o->errlen, "-o: cannot write %s: %s", path, strerror(-err));
	return err;
}

int nv_outdir_close(const struct nv_figset *o, FILE *f, const char *rel)
{
	if (ferror(f) | fclose(f)) {
		snprintf(o->err, o->errlen, "-o: writing %s/%s failed", o->dir, rel);
		return -EIO;
	}
	return 0;
}

static struct nv_fig *new_fig(struct nv_figset *o, size_t block, const struct nv_jobtraces *jt,
			      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Add a figure named by fmt to the list.
 * Return: the figure, or NULL when the list is full (NV_FIGSET_MAX).
 */
static struct nv_fig *new_fig(struct nv_figset *o, size_t block, const struct nv_jobtraces *jt,
			      const char *fmt, ...)
{
	struct nv_fig *f;
	va_list ap;

	if (o->nfig == NV_FIGSET_MAX)
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

/*
 * Create NAME.gp of a figure, with its head.
 * Return: 0, or -errno with the message in o->err.
 */
static int open_script(const struct nv_figset *o, const struct nv_fig *fg, FILE **f)
{
	char rel[300];
	int ret;

	snprintf(rel, sizeof(rel), "%s.gp", fg->name);
	ret = nv_outdir_open(o, rel, f);
	if (!ret)
		nv_gnuplot_head(*f, fg->name);
	return ret;
}

/* Return: 0, or -EIO with the message in o->err. */
static int close_script(const struct nv_figset *o, FILE *f, const struct nv_fig *fg)
{
	char rel[300];

	snprintf(rel, sizeof(rel), "%s.gp", fg->name);
	return nv_outdir_close(o, f, rel);
}

/* ---- CDFs -------------------------------------------------------------- */

static const struct nv_job *side_job(const struct nv_figset *o, size_t s, const char *key,
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

static const struct nv_jobtraces *find_jt(const struct nv_figset *o, const struct nv_run *run,
					  size_t j)
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
 * The CDF of side s in block b: from the traces, else fio's bins, else
 * fio's percentile list.
 * Return: 0 (c->src NV_CDF_NONE when the side has none), or -ENOMEM.
 */
static int side_cdf(const struct nv_figset *o, const struct nv_block *b, size_t s,
		    const struct nv_run **run, struct nv_cdf *c)
{
	const struct nv_jobtraces *jt;
	const struct nv_latstat *ls;
	const struct nv_job *j;
	int op = dir_op(b->dir), ret = 0;
	size_t ji;

	memset(c, 0, sizeof(*c));
	j = side_job(o, s, b->key, run, &ji);
	if (!j || !nv_dir_active(&j->dir[b->dir]))
		return 0;
	jt = find_jt(o, *run, ji);
	ls = &j->dir[b->dir].lat[b->lat];
	if (jt && op >= 0 && jt->tan.op[op].hist && jt->tan.op[op].records && b->lat == NV_LAT_CLAT)
		ret = nv_figdata_cdf_hist(jt->tan.op[op].hist, jt->tan.op[op].records, c);
	else if (ls->nbins)
		ret = nv_figdata_cdf_bins(ls->bins, ls->nbins, c);
	else if (ls->npoints)
		ret = nv_figdata_cdf_pcts(ls->points, ls->npoints, c);
	return ret == -ENOMEM ? ret : 0;
}

/*
 * Write data/NAME of side s's CDF in block b.
 * Return: 0 (*src NV_CDF_NONE when the side has no CDF), or -errno with the
 * message in o->err.
 */
static int write_cdf(struct nv_figset *o, const struct nv_block *b, size_t s, const char *rel,
		     double *ymin, enum nv_cdf_src *src)
{
	const struct nv_run *run = NULL;
	struct nv_cdf c;
	FILE *f;
	int ret;

	*src = NV_CDF_NONE;
	ret = side_cdf(o, b, s, &run, &c);
	if (ret || c.src == NV_CDF_NONE)
		return ret;
	ret = nv_outdir_open(o, rel, &f);
	if (ret)
		goto out;
	fprintf(f, "# %s %s, run %s (%s): %s\n# latency_us cdf exceedance(1-cdf)\n", b->key,
		nv_dir_name(b->dir), o->r->sides[s].label, run->path, nv_figdata_src_text(c.src));
	nv_figdata_cdf_write(f, &c);
	ret = nv_outdir_close(o, f, rel);
	if (ret)
		goto out;
	*ymin = fmin(*ymin, c.rarest);
	*src = c.src;
	if (c.src != NV_CDF_TRACE)
		o->approx_cdf = true;
out:
	nv_figdata_cdf_free(&c);
	return ret;
}

/*
 * The cdf_* or nines_* script of block bi.
 * Return: 0, or -errno with the message in o->err.
 */
static int cdf_script(struct nv_figset *o, size_t bi, bool exceedance, const enum nv_cdf_src *src,
		      double ymin, struct nv_fig **fig)
{
	const struct nv_block *b = &o->r->blocks[bi];
	size_t ns = o->r->nsides < 64 ? o->r->nsides : 64, longest = 0;
	char slug[200], lab[64][256], data[64][PATH_MAX];
	struct nv_gp_curve cv[64];
	struct nv_gp_cdf p = { .key = b->key, .dir = b->dir, .lat = b->lat,
			       .exceedance = exceedance, .ymin = ymin, .curves = cv };
	struct nv_fig *fg;
	FILE *f;
	int ret;

	nv_slug(slug, sizeof(slug), b->key);
	fg = new_fig(o, bi, NULL, "%s_%s_%s", exceedance ? "nines" : "cdf", slug, nv_dir_name(b->dir));
	*fig = fg;
	if (!fg)
		return 0;
	for (size_t s = 0; s < o->r->nsides; s++)
		if (strlen(o->r->sides[s].label) > longest)
			longest = strlen(o->r->sides[s].label);
	p.key_below = longest > 24;
	p.nkey = o->r->nsides;
	for (size_t s = 0; s < ns; s++) {
		if (src[s] == NV_CDF_NONE)
			continue;
		nv_slug(lab[s], sizeof(lab[s]), o->r->sides[s].label);
		snprintf(data[s], sizeof(data[s]), "data/cdf_%s_%s_%s.dat", slug, nv_dir_name(b->dir),
			 lab[s]);
		cv[p.ncurves++] = (struct nv_gp_curve){ .data = data[s], .title = o->r->sides[s].label,
							 .src = src[s], .lt = (unsigned)s + 1 };
	}
	ret = open_script(o, fg, &f);
	if (ret)
		return ret;
	nv_gnuplot_cdf(f, &p);
	return close_script(o, f, fg);
}

/*
 * cdf_* and nines_* of block bi, with their data.
 * Return: 0, or -errno with the message in o->err.
 */
static int block_cdfs(struct nv_figset *o, size_t bi)
{
	const struct nv_block *b = &o->r->blocks[bi];
	char slug[200], rel[PATH_MAX], lab[256];
	enum nv_cdf_src src[64] = { 0 };
	struct nv_fig *fc = NULL, *fn = NULL;
	double ymin = 0.1;
	bool any = false;
	int ret;

	nv_slug(slug, sizeof(slug), b->key);
	for (size_t s = 0; s < o->r->nsides && s < 64; s++) {
		nv_slug(lab, sizeof(lab), o->r->sides[s].label);
		snprintf(rel, sizeof(rel), "data/cdf_%s_%s_%s.dat", slug, nv_dir_name(b->dir), lab);
		ret = write_cdf(o, b, s, rel, &ymin, &src[s]);
		if (ret)
			return ret;
		any |= src[s] != NV_CDF_NONE;
	}
	if (!any)
		return 0;
	ymin = pow(10, floor(log10(ymin)) - 1);	/* a decade below the rarest point */
	ret = cdf_script(o, bi, false, src, ymin, &fc);
	if (!ret && fc)
		ret = cdf_script(o, bi, true, src, ymin, &fn);
	if (ret || !fc || !fn)
		return ret;
	snprintf(fc->caption, sizeof(fc->caption), "Latency CDF, all runs");
	snprintf(fn->caption, sizeof(fn->caption), "Exceedance (1 - CDF, log scale): the tail, p99 to p99.99");
	return 0;
}

/* ---- bars -------------------------------------------------------------- */

static const enum nv_metric bar_metrics[] = { NV_M_IOPS, NV_M_BW, NV_M_MEAN, NV_M_P99, NV_M_P999 };

/*
 * bars_* of block bi, with its data: only with two sides or more, for the
 * metrics the baseline has.
 * Return: 0, or -errno with the message in o->err.
 */
static int block_bars(struct nv_figset *o, size_t bi)
{
	const struct nv_report *r = o->r;
	const struct nv_block *b = &r->blocks[bi];
	size_t nm = 0, base = r->baseline;
	char slug[200], rel[PATH_MAX];
	const struct nv_row *rows[8];
	double ymax = 100;
	struct nv_fig *fg;
	FILE *f;
	int ret;

	for (size_t i = 0; i < sizeof(bar_metrics) / sizeof(bar_metrics[0]); i++) {
		const struct nv_row *row = nv_block_row(b, bar_metrics[i]);

		if (row && row->cells[base].n && row->cells[base].mean > 0)
			rows[nm++] = row;
	}
	if (!nm || r->nsides < 2)
		return 0;
	nv_slug(slug, sizeof(slug), b->key);
	fg = new_fig(o, bi, NULL, "bars_%s_%s", slug, nv_dir_name(b->dir));
	if (!fg)
		return 0;
	snprintf(rel, sizeof(rel), "data/%s.dat", fg->name);
	if ((ret = nv_outdir_open(o, rel, &f)))
		return ret;
	nv_figdata_bars_write(f, r, b, rows, nm, &ymax);
	if ((ret = nv_outdir_close(o, f, rel)) || (ret = open_script(o, fg, &f)))
		return ret;
	nv_gnuplot_bars(f, r, b, rows, nm, ymax, rel);
	if ((ret = close_script(o, f, fg)))
		return ret;
	snprintf(fg->caption, sizeof(fg->caption), "Headline metrics relative to %s, with the change",
		 r->sides[base].label);
	return 0;
}

/* ---- time series ------------------------------------------------------- */

/*
 * tput_* and one lat_* per operation of one traced job, with their data.
 * Return: 0, or -errno with the message in o->err.
 */
static int run_series(struct nv_figset *o, const struct nv_jobtraces *jt)
{
	const struct nv_tan *t = &jt->tan;
	const char *label = o->label(jt->run, o->arg);
	const char *key = jt->run->jobs[jt->job].key;
	char slug[200], lab[200], dat[PATH_MAX], title[600];
	double span = (double)t->span_ns / 1e9, tdiv = span > 3600 ? 60 : 1;
	unsigned col = 4;
	struct nv_fig *fg;
	FILE *f;
	int ret;

	if (!t->records || t->nint < 2)
		return 0;
	nv_slug(slug, sizeof(slug), key);
	nv_slug(lab, sizeof(lab), label);
	snprintf(dat, sizeof(dat), "data/ts_%s_%s.dat", slug, lab);
	snprintf(title, sizeof(title), "%s · %s", key, label);
	if ((ret = nv_outdir_open(o, dat, &f)))
		return ret;
	nv_figdata_series_write(f, jt, tdiv);
	if ((ret = nv_outdir_close(o, f, dat)))
		return ret;

	fg = new_fig(o, SIZE_MAX, jt, "tput_%s_%s", slug, lab);
	if (!fg)
		return 0;
	if ((ret = open_script(o, fg, &f)))
		return ret;
	nv_gnuplot_tput(f, title, t, dat, tdiv);
	if ((ret = close_script(o, f, fg)))
		return ret;
	snprintf(fg->caption, sizeof(fg->caption), "%s, %s: IOPS and MB/s over time", key, label);

	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		if (!t->series[op])
			continue;
		fg = new_fig(o, SIZE_MAX, jt, "lat_%s_%s_%s", slug, lab, nvt_op_name(op));
		if (!fg)
			return 0;
		if ((ret = open_script(o, fg, &f)))
			return ret;
		nv_gnuplot_lat(f, title, t, op, dat, col, tdiv);
		col += 6;
		if ((ret = close_script(o, f, fg)))
			return ret;
		snprintf(fg->caption, sizeof(fg->caption), "%s, %s: %s latency over time (p50–p99 band, "
			 "p99.9, max; spike episodes shaded)", key, label, nvt_op_name(op));
	}
	return 0;
}

/* ---- the directory ----------------------------------------------------- */

/*
 * DIR/style.gp, a copy of plots/style.gp.
 * Return: 0, or -errno with the message in o->err.
 */
static int copy_style(const struct nv_figset *o)
{
	char src[PATH_MAX], buf[8192];
	FILE *in, *out;
	size_t k;
	int ret;

	if (nv_plot_find_style(src, sizeof(src))) {
		snprintf(o->err, o->errlen, "-o: plots/style.gp not found (next to the nvanalyze "
			 "binary, or in $NVANALYZE_PLOTS)");
		return -ENOENT;
	}
	in = fopen(src, "r");
	if (!in) {
		ret = -errno;
		snprintf(o->err, o->errlen, "-o: cannot read %s: %s", src, strerror(-ret));
		return ret;
	}
	ret = nv_outdir_open(o, "style.gp", &out);
	if (ret) {
		fclose(in);
		return ret;
	}
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, out);
	fclose(in);
	return nv_outdir_close(o, out, "style.gp");
}

/*
 * Render every figure as PNG and SVG (when gnuplot is found); a script
 * gnuplot fails on is named in o->err, the others are still rendered.
 * Return: 0, or -EIO (some script failed).
 */
static int render_all(const struct nv_figset *o, struct nv_outdir_result *res)
{
	char log[PATH_MAX];
	size_t bad = 0;
	FILE *f;

	snprintf(log, sizeof(log), "%s/gnuplot.log", o->dir);
	if ((f = fopen(log, "w")))
		fclose(f);
	res->gnuplot = nv_plot_have_gnuplot();
	if (!res->gnuplot)
		return 0;
	for (size_t i = 0; i < o->nfig; i++) {
		if (nv_plot_render(o->dir, o->fig[i].name, "png") ||
		    nv_plot_render(o->dir, o->fig[i].name, "svg")) {
			if (!bad++)
				snprintf(o->err, o->errlen, "-o: gnuplot failed on %s/%s.gp (see %s)",
					 o->dir, o->fig[i].name, log);
		}
	}
	if (bad > 1) {
		size_t len = strlen(o->err);

		snprintf(o->err + len, o->errlen - len, " and on %zu other scripts", bad - 1);
	}
	res->rendered = true;
	return bad ? -EIO : 0;
}

/*
 * DIR/tables.md (with the trace sections), tables.csv, tables.json.
 * Return: 0, or -errno with the message in o->err.
 */
static int write_tables(const struct nv_figset *o)
{
	static const struct { const char *name; enum nv_format f; } t[] = {
		{ "tables.md", NV_FMT_MD }, { "tables.csv", NV_FMT_CSV }, { "tables.json", NV_FMT_JSON },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		FILE *f;
		int bad, ret = nv_outdir_open(o, t[i].name, &f);

		if (ret)
			return ret;
		bad = nv_report_print(f, o->r, t[i].f);
		if (t[i].f == NV_FMT_MD && !bad)
			bad = nv_tracereport_print(f, o->ts, o->label, o->arg, NV_FMT_MD);
		ret = nv_outdir_close(o, f, t[i].name);
		if (ret)
			return ret;
		if (bad) {
			snprintf(o->err, o->errlen, "-o: writing %s/%s failed", o->dir, t[i].name);
			return bad;
		}
	}
	return 0;
}

/*
 * DIR and DIR/data, created unless they exist.
 * Return: 0, or -errno with a message naming the directory in err.
 */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
	char sub[PATH_MAX];
	int ret;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "-o %s: cannot create the directory: %s", dir, strerror(-ret));
		return ret;
	}
	snprintf(sub, sizeof(sub), "%s/data", dir);
	if (mkdir(sub, 0755) && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "-o: cannot create %s: %s", sub, strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * Every figure of the report and the traces, with its data and script.
 * Return: 0, or -errno with the message in o->err.
 */
static int write_figures(struct nv_figset *o)
{
	const struct nv_report *r = o->r;
	int ret = 0;

	for (size_t i = 0; !ret && i < r->nblocks; i++) {
		if (!r->blocks[i].active)
			continue;
		ret = block_cdfs(o, i);
		if (!ret)
			ret = block_bars(o, i);
	}
	for (size_t i = 0; !ret && i < o->ts->n; i++)
		if (o->ts->jt[i].analyzed)
			ret = run_series(o, &o->ts->jt[i]);
	return ret;
}

int nv_outdir_write(const char *dir, const struct nv_report *r, const struct nv_traceset *ts,
		    const char *(*label)(const struct nv_run *run, void *arg), void *arg,
		    struct nv_outdir_result *res, char *err, size_t errlen)
{
	struct nv_figset o = { .dir = dir, .r = r, .ts = ts, .label = label, .arg = arg,
			       .err = err, .errlen = errlen };
	int ret;

	memset(res, 0, sizeof(*res));
	o.fig = calloc(NV_FIGSET_MAX, sizeof(*o.fig));
	if (!o.fig) {
		snprintf(err, errlen, "-o %s: out of memory", dir);
		return -ENOMEM;
	}
	ret = make_dirs(dir, err, errlen);
	if (ret)
		goto out;
	ret = copy_style(&o);
	if (!ret)
		ret = write_tables(&o);
	if (!ret)
		ret = write_figures(&o);
	res->nfig = o.nfig;
	if (!ret)
		ret = render_all(&o, res);
	if (ret) {	/* report.md still, but the first message stays */
		char keep[512];

		snprintf(keep, sizeof(keep), "%s", err);
		nv_report_md_write(&o, res->rendered);
		snprintf(err, errlen, "%s", keep);
	} else {
		ret = nv_report_md_write(&o, res->rendered);
	}
out:
	free(o.fig);
	return ret;
}
