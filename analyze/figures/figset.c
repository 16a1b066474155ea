/*
 * figset.c - the figures of an `nvanalyze -o DIR` report (figset.h): which
 * figures, their data files and scripts, rendering them.  The numbers come
 * from figdata.c, the scripts' text from gnuplot.c, rendering from plot.c;
 * the directory and the pages around the figures are analyze/publish/.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/figures/figdata.h"
#include "analyze/figures/figset.h"
#include "analyze/figures/gnuplot.h"
#include "analyze/figures/plot.h"
#include "analyze/report/format.h"
#include "analyze/report/summary.h"
#include "analyze/stats/workpool.h"

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

void nv_figset_wrote(const struct nv_figset *o, const char *rel)
{
	if (o->wrote)
		o->wrote(o->wrote_arg, rel);
}

int nv_figset_open(const struct nv_figset *o, const char *rel, FILE **f)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", o->dir, rel);
	nv_figset_wrote(o, rel);
	*f = fopen(path, "w");
	if (*f)
		return 0;
	err = -errno;
	snprintf(o->err, o->errlen, "-o: cannot write %s: %s", path, strerror(-err));
	return err;
}

int nv_figset_close(const struct nv_figset *o, FILE *f, const char *rel)
{
	if (ferror(f) | fclose(f)) {
		snprintf(o->err, o->errlen, "-o: writing %s/%s failed", o->dir, rel);
		return -EIO;
	}
	return 0;
}

static struct nv_fig *new_fig(struct nv_figset *o, size_t block, const struct nv_jobjoin *jt,
			      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Whether a figure of the list is named name.
 * Return: true if one is.
 */
static bool fig_named(const struct nv_figset *o, const char *name)
{
	for (size_t i = 0; i < o->nfig; i++)
		if (!strcmp(o->fig[i].name, name))
			return true;
	return false;
}

/*
 * Add a figure named by fmt to the list; a name already taken (two labels
 * with the same slug) gets "_2", "_3" ...
 * Return: the figure, or NULL when the list is full (NV_FIGSET_MAX).
 */
static struct nv_fig *new_fig(struct nv_figset *o, size_t block, const struct nv_jobjoin *jt,
			      const char *fmt, ...)
{
	struct nv_fig *f;
	va_list ap;

	if (o->nfig == NV_FIGSET_MAX)
		return NULL;
	f = &o->fig[o->nfig];
	memset(f, 0, sizeof(*f));
	va_start(ap, fmt);
	vsnprintf(f->name, sizeof(f->name), fmt, ap);
	va_end(ap);
	if (fig_named(o, f->name)) {
		char base[sizeof(f->name)];

		snprintf(base, sizeof(base), "%s", f->name);
		for (unsigned k = 2; fig_named(o, f->name); k++)
			snprintf(f->name, sizeof(f->name), "%.240s_%u", base, k);
	}
	o->nfig++;
	f->block = block;
	f->jt = jt;
	return f;
}

struct nv_fig *nv_figset_add(struct nv_figset *o, size_t block, const struct nv_jobjoin *jt,
			     const char *name)
{
	return new_fig(o, block, jt, "%s", name);
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
	ret = nv_figset_open(o, rel, f);
	if (!ret)
		nv_gnuplot_head(*f, fg->name);
	return ret;
}

/* Return: 0, or -EIO with the message in o->err. */
static int close_script(const struct nv_figset *o, FILE *f, const struct nv_fig *fg)
{
	char rel[300];

	snprintf(rel, sizeof(rel), "%s.gp", fg->name);
	return nv_figset_close(o, f, rel);
}

/* ---- CDFs -------------------------------------------------------------- */

/* The curves of one block's CDF figure, with the names of their data files. */
struct cdf_set {
	size_t n;
	struct nv_gp_curve cv[NV_FIGSET_MAX];
	char data[NV_FIGSET_MAX][PATH_MAX / 4];
	char title[NV_FIGSET_MAX][300];
	double ymin;
	bool pooled, per_run;	/* some side's repeats pooled / drawn one by one */
};

/*
 * The data file's first line: what the curve shows, from which files.
 * Return: nothing.
 */
static void cdf_header(FILE *f, const struct nv_figset *o, const struct nv_block *b, size_t s,
		       const struct nv_side_cdf *sc, size_t i)
{
	const char *src = nv_figdata_src_text(sc->curve[i].src);
	const struct nv_source *x = &b->src[s][sc->pooled ? 0 : sc->src[i]];
	char k[300], lab[300], path[600];

	nv_gnuplot_data_str(k, sizeof(k), b->key);
	nv_gnuplot_data_str(lab, sizeof(lab),
			    sc->pooled ? o->r->sides[s].label
				       : nv_report_run_label(x->rp, (void *)o->r));
	if (sc->pooled > 1) {
		fprintf(f, "# %s %s, side %s: the IOs of %zu runs pooled (", k,
			nv_dir_name(b->dir), lab, sc->pooled);
		for (size_t j = 0; j < b->nsrc[s]; j++) {
			nv_gnuplot_data_str(path, sizeof(path), b->src[s][j].rp->path);
			fprintf(f, "%s%s", j ? ", " : "", path);
		}
		fprintf(f, "): %s, %" PRIu64 " IOs\n", src, sc->curve[i].ios);
	} else {
		nv_gnuplot_data_str(path, sizeof(path), x->rp->path);
		fprintf(f, "# %s %s, run %s (%s): %s\n", k, nv_dir_name(b->dir), lab, path, src);
	}
	fprintf(f, "# latency_us cdf exceedance(fraction of IOs at or above)\n");
}

/*
 * Write side s's CDF curves of block b to data/ and add them to cs.
 * Return: 0, or -errno with the message in o->err.
 */
static int side_cdfs(struct nv_figset *o, const struct nv_block *b, size_t s, struct cdf_set *cs)
{
	const struct nv_side *side = &o->r->sides[s];
	char slug[200], lab[256];
	struct nv_side_cdf sc;
	int ret = nv_figdata_side_cdf(b, s, &sc);

	if (ret) {
		snprintf(o->err, o->errlen, "-o: out of memory");
		return ret;
	}
	nv_slug(slug, sizeof(slug), b->key);
	for (size_t i = 0; i < sc.ncurves && cs->n < NV_FIGSET_MAX && !ret; i++) {
		const struct nv_source *x = &b->src[s][sc.pooled ? 0 : sc.src[i]];
		struct nv_gp_curve *c = &cs->cv[cs->n];
		FILE *f;

		nv_slug(lab, sizeof(lab),
			sc.pooled ? side->label : nv_report_run_label(x->rp, (void *)o->r));
		snprintf(cs->data[cs->n], sizeof(cs->data[cs->n]), "data/cdf_%.100s_%s_%.100s.dat",
			 slug, nv_dir_name(b->dir), lab);
		if (sc.pooled > 1)
			snprintf(cs->title[cs->n], sizeof(cs->title[cs->n]),
				 "%s (%zu runs pooled)", side->label, sc.pooled);
		else
			snprintf(cs->title[cs->n], sizeof(cs->title[cs->n]), "%s", sc.pooled ?
				 side->label : nv_report_run_label(x->rp, (void *)o->r));
		if ((ret = nv_figset_open(o, cs->data[cs->n], &f)))
			break;
		cdf_header(f, o, b, s, &sc, i);
		nv_figdata_cdf_write(f, &sc.curve[i]);
		if ((ret = nv_figset_close(o, f, cs->data[cs->n])))
			break;
		*c = (struct nv_gp_curve){ .data = cs->data[cs->n], .title = cs->title[cs->n],
					   .src = sc.curve[i].src, .lt = (unsigned)s + 1,
					   .dt = sc.pooled ? 0 : (unsigned)i + 1,
					   .p50_us = nv_figdata_cdf_at(&sc.curve[i], 0.5),
					   .p999_us = nv_figdata_cdf_at(&sc.curve[i], 1e-3) };
		cs->n++;
		cs->ymin = fmin(cs->ymin, sc.curve[i].rarest);
		if (sc.curve[i].src != NV_CDF_TRACE)
			o->approx_cdf = true;
	}
	cs->pooled |= sc.pooled > 1;
	cs->per_run |= sc.ncurves && !sc.pooled;
	nv_figdata_side_cdf_free(&sc);
	return ret;
}

/*
 * How a CDF figure shows repeats, for its caption.
 * Return: a static string ("" without repeats).
 */
static const char *repeats_note(const struct cdf_set *cs)
{
	if (cs->pooled && cs->per_run)
		return "; repeats: the IOs of a side's runs pooled where every run has traces "
		       "(or fio bins), else one curve per run";
	if (cs->pooled)
		return "; a side with repeats: the IOs of all its runs pooled";
	if (cs->per_run)
		return "; a side with repeats: one curve per run (dashed)";
	return "";
}

/*
 * How a CDF figure of many curves shows them, for its caption, into
 * note[0..len) ("" unless nv_gnuplot_cdf_many).
 * Return: note.
 */
static const char *many_note(const struct cdf_set *cs, const char *by, char *note, size_t len)
{
	*note = 0;
	if (nv_gnuplot_cdf_many(cs->cv, cs->n))
		snprintf(note, len, "; %zu curves, each in grey: the fastest, the median and "
			 "the slowest by %s in colour", cs->n, by);
	return note;
}

/*
 * The cdf_* or nines_* script of block bi.
 * Return: 0, or -errno with the message in o->err.
 */
static int cdf_script(struct nv_figset *o, size_t bi, bool exceedance, const struct cdf_set *cs,
		      struct nv_fig **fig)
{
	const struct nv_block *b = &o->r->blocks[bi];
	struct nv_gp_cdf p = { .key = b->key,
			       .dir = b->dir,
			       .lat = b->lat,
			       .exceedance = exceedance,
			       .ymin = pow(10, floor(log10(cs->ymin)) - 1), /* a decade below */
			       .nkey = cs->n > o->r->nsides ? cs->n : o->r->nsides,
			       .ncurves = cs->n,
			       .curves = cs->cv };
	char slug[200];
	struct nv_fig *fg;
	FILE *f;
	int ret;

	for (size_t i = 0; i < cs->n; i++)
		p.key_below |= strlen(cs->cv[i].title) > 24;
	nv_slug(slug, sizeof(slug), b->key);
	fg = new_fig(o, bi, NULL, "%s_%.100s_%s", exceedance ? "nines" : "cdf", slug,
		     nv_dir_name(b->dir));
	*fig = fg;
	if (!fg)
		return 0;
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
	struct nv_fig *fc = NULL, *fn = NULL;
	struct cdf_set *cs = calloc(1, sizeof(*cs));
	int ret = 0;

	if (!cs) {
		snprintf(o->err, o->errlen, "-o: out of memory");
		return -ENOMEM;
	}
	cs->ymin = 0.1;
	for (size_t s = 0; s < o->r->nsides && !ret; s++)
		ret = side_cdfs(o, b, s, cs);
	if (!ret && cs->n)
		ret = cdf_script(o, bi, false, cs, &fc);
	if (!ret && fc)
		ret = cdf_script(o, bi, true, cs, &fn);
	if (!ret && fc && fn) {
		bool rep = cs->pooled || cs->per_run;
		char note[160];

		snprintf(fc->caption, sizeof(fc->caption), "Latency CDF%s%s%s",
			 rep ? " of each side" : ", all runs", repeats_note(cs),
			 many_note(cs, "p50", note, sizeof(note)));
		snprintf(fn->caption, sizeof(fn->caption),
			 "Exceedance (1 - CDF, log scale): the tail, p99 to p99.99%s%s",
			 repeats_note(cs), many_note(cs, "p99.9", note, sizeof(note)));
	}
	free(cs);
	return ret;
}

/* ---- bars -------------------------------------------------------------- */

/* The caption's words for a bar chart of many sides (nv_gnuplot_bars_many). */
static const char many_bars[] = "each side a grey bar: the lowest, the highest and the baseline "
				"labelled with their name, value and change";

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

		if (row && row->cells[base].n && row->cells[base].value > 0)
			rows[nm++] = row;
	}
	if (!nm || r->nsides < 2)
		return 0;
	nv_slug(slug, sizeof(slug), b->key);
	fg = new_fig(o, bi, NULL, "bars_%.100s_%s", slug, nv_dir_name(b->dir));
	if (!fg)
		return 0;
	snprintf(rel, sizeof(rel), "data/%s.dat", fg->name);
	if ((ret = nv_figset_open(o, rel, &f)))
		return ret;
	nv_figdata_bars_write(f, r, b, rows, nm, &ymax);
	if ((ret = nv_figset_close(o, f, rel)) || (ret = open_script(o, fg, &f)))
		return ret;
	nv_gnuplot_bars(f, r, b, rows, nm, ymax, rel);
	if ((ret = close_script(o, f, fg)))
		return ret;
	snprintf(fg->caption, sizeof(fg->caption), "Headline metrics relative to %s, %s",
		 r->sides[base].label, nv_gnuplot_bars_many(r) ? many_bars : "with the change");
	return 0;
}

/*
 * The summary figure (o->fig[].summary) with its data: every summary row's
 * headline number, one bar per side relative to the baseline; only with
 * two sides or more and a baseline value in some row.
 * Return: 0, or -errno with the message in o->err.
 */
static int summary_fig(struct nv_figset *o)
{
	const struct nv_report *r = o->r;
	const char *rel = "data/summary.dat";
	struct nv_summary_row *rows;
	size_t n, k = 0;
	double ymax = 100;
	struct nv_fig *fg;
	FILE *f;
	int ret;

	if (r->nsides < 2)
		return 0;
	if (nv_summary_build(r, (enum nv_headline)nv_display.headline, &rows, &n)) {
		snprintf(o->err, o->errlen, "-o: out of memory");
		return -ENOMEM;
	}
	/* bars need the baseline's */
	for (size_t i = 0; i < n && k < NV_GP_SUMMARY_MAX; i++)
		if (rows[i].row->cells[r->baseline].n && rows[i].row->cells[r->baseline].value > 0)
			rows[k++] = rows[i];
	ret = 0;
	fg = k ? new_fig(o, SIZE_MAX, NULL, "summary") : NULL;
	if (!fg)
		goto out;
	fg->summary = true;
	if ((ret = nv_figset_open(o, rel, &f)))
		goto out;
	nv_figdata_summary_write(f, r, rows, k, &ymax);
	if ((ret = nv_figset_close(o, f, rel)) || (ret = open_script(o, fg, &f)))
		goto out;
	nv_gnuplot_summary(f, r, rows, k, ymax, rel);
	if ((ret = close_script(o, f, fg)))
		goto out;
	snprintf(fg->caption, sizeof(fg->caption),
		 "Summary: each job's headline number relative to %s, %s",
		 r->sides[r->baseline].label,
		 nv_gnuplot_bars_many(r) ? many_bars :
		 "with the value and the change on each bar");
out:
	free(rows);
	return ret;
}

/* ---- time series ------------------------------------------------------- */

/*
 * tput_* and one lat_* per operation of one traced job, with their data.
 * Return: 0, or -errno with the message in o->err.
 */
static int run_series(struct nv_figset *o, const struct nv_jobjoin *jt)
{
	const struct nv_tan *t = &jt->tan;
	const struct nv_run *run = jt->jt->run;
	const char *label = nv_report_run_label(run, (void *)o->r);
	const char *key = run->jobs[jt->jt->job].key;
	char slug[200], lab[200], dat[PATH_MAX], title[600], stem[256];
	double span = (double)t->span_ns / 1e9, tdiv = span > 3600 ? 60 : 1;
	unsigned col = 4;
	struct nv_fig *fg;
	FILE *f;
	int ret;

	if (!t->records || t->nint < 2)
		return 0;
	nv_slug(slug, sizeof(slug), key);
	nv_slug(lab, sizeof(lab), label);
	snprintf(title, sizeof(title), "%s · %s", key, label);
	fg = new_fig(o, SIZE_MAX, jt, "tput_%.100s_%.100s", slug, lab);
	if (!fg)
		return 0;
	/* unique: data, lat_* */
	snprintf(stem, sizeof(stem), "%s", fg->name + strlen("tput_"));
	snprintf(dat, sizeof(dat), "data/ts_%s.dat", stem);
	if ((ret = nv_figset_open(o, dat, &f)))
		return ret;
	nv_figdata_series_write(f, jt, tdiv);
	if ((ret = nv_figset_close(o, f, dat)))
		return ret;
	if ((ret = open_script(o, fg, &f)))
		return ret;
	nv_gnuplot_tput(f, title, t, dat, tdiv);
	if ((ret = close_script(o, f, fg)))
		return ret;
	snprintf(fg->caption, sizeof(fg->caption), "%s, %s: IOPS and MB/s over time", key, label);

	for (unsigned op = 0; op < NVT_OP__MAX; op++) {
		if (!t->series[op])
			continue;
		if (!nv_traces_op_shown(o->tj->ts,
					op)) { /* -d: its columns are there, unplotted */
			col += 6;
			continue;
		}
		fg = new_fig(o, SIZE_MAX, jt, "lat_%s_%s", stem, nvt_op_name(op));
		if (!fg)
			return 0;
		if ((ret = open_script(o, fg, &f)))
			return ret;
		nv_gnuplot_lat(f, title, t, op, dat, col, tdiv);
		col += 6;
		if ((ret = close_script(o, f, fg)))
			return ret;
		snprintf(fg->caption, sizeof(fg->caption),
			 "%s, %s: %s latency over time (p50–p99 band, "
			 "p99.9, max; spike episodes shaded)", key, label, nvt_op_name(op));
	}
	return 0;
}

/* ---- rendering --------------------------------------------------------- */

/*
 * Figures to render by nshare gnuplots: the files (every figure's PNG,
 * figures kind by kind, then every SVG in the same order) pulled in turn
 * from next by each.  A PNG costs about three times its SVG (cairo's
 * rasterizing and deflate), so the cheap files come last and even out
 * the gnuplots' shares at the end.
 */
struct render_work {
	const struct nv_figset *o;
	size_t nshare;
	size_t *order;		/* [o->nfig]: figure indexes, kind by kind */
	_Atomic size_t next;	/* the next file: position in order (+ nfig: SVG) */
	bool *done;		/* [2 * o->nfig]: figure f's PNG [2f], SVG [2f + 1] rendered */
	bool *failed;		/* [o->nfig] */
};

/*
 * The length of the kind of figure name (what comes before its first '_':
 * "lat", "tput", "cdf" ...; the whole name when it has none).
 * Return: the length.
 */
static size_t fig_kind_len(const char *name)
{
	const char *u = strchr(name, '_');

	return u ? (size_t)(u - name) : strlen(name);
}

/*
 * order[0..n) = the figures 0..n-1 grouped by kind, each kind in the order
 * of its first figure and its figures in list order (the list interleaves
 * kinds: tput_ and lat_ for each traced run in turn).
 * Return: nothing.
 */
static void fig_order(const struct nv_fig *fig, size_t n, size_t *order)
{
	bool *taken = calloc(n ? n : 1, sizeof(*taken));
	size_t k = 0;

	if (!taken) {	/* list order: dealt less evenly, rendered the same */
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = fig_kind_len(fig[i].name);

		if (taken[i])
			continue;
		for (size_t j = i; j < n; j++)
			if (!taken[j] && fig_kind_len(fig[j].name) == len &&
			    !strncmp(fig[j].name, fig[i].name, len)) {
				taken[j] = true;
				order[k++] = j;
			}
	}
	free(taken);
}

/*
 * Gnuplot s of the pool (a pool item): started, it renders the next file
 * not taken (w->next) until none is left or it is gone, so that a long
 * figure does not hold up a fixed share; a file it did not render is
 * rendered again on its own after the pool (render_alone).
 * Return: 0 (the results are the figures' slots).
 */
static int render_share(size_t s, void *arg)
{
	struct render_work *w = arg;
	struct nv_plot_proc p;
	size_t u;

	(void)s;
	if (nv_plot_proc_start(&p, w->o->dir))
		return 0;
	while ((u = atomic_fetch_add(&w->next, 1)) < 2 * w->o->nfig) {
		bool svg = u >= w->o->nfig;
		size_t f = w->order[svg ? u - w->o->nfig : u];
		int ret;

		if (w->done[2 * f + svg])	/* a format not asked for */
			continue;
		ret = nv_plot_proc_render(&p, w->o->fig[f].name, svg);

		if (!ret)
			w->done[2 * f + svg] = true;	/* each file's own slot: one writer */
		else if (ret == -EPIPE)
			break;
	}
	nv_plot_proc_stop(&p);
	return 0;
}

/*
 * A figure not rendered by the pool's gnuplots, each of its files again in
 * a gnuplot of its own (nv_plot_render), as before the pool, so that a
 * failure is the figure's own and named.
 * Return: nothing (w->failed[f] says).
 */
static void render_alone(struct render_work *w, size_t f)
{
	const char *name = w->o->fig[f].name;

	if (!w->done[2 * f] && nv_plot_render(w->o->dir, name, "png"))
		w->failed[f] = true;
	if (!w->done[2 * f + 1] && nv_plot_render(w->o->dir, name, "svg"))
		w->failed[f] = true;
}

int nv_figset_render(const struct nv_figset *o, bool *gnuplot, bool *rendered)
{
	struct render_work w = { .o = o };
	char log[PATH_MAX];
	size_t bad = 0;
	FILE *f;

	snprintf(log, sizeof(log), "%s/gnuplot.log", o->dir);
	nv_figset_wrote(o, "gnuplot.log");
	if ((f = fopen(log, "w")))
		fclose(f);
	*rendered = false;
	*gnuplot = o->formats && nv_plot_have_gnuplot();
	if (!*gnuplot)
		return 0;
	w.failed = calloc(o->nfig ? o->nfig : 1, sizeof(*w.failed));
	w.order = calloc(o->nfig ? o->nfig : 1, sizeof(*w.order));
	w.done = calloc(o->nfig ? 2 * o->nfig : 1, sizeof(*w.done));
	if (!w.failed || !w.order || !w.done) {
		free(w.failed);
		free(w.order);
		free(w.done);
		snprintf(o->err, o->errlen, "-o %s: out of memory", o->dir);
		return -ENOMEM;
	}
	fig_order(o->fig, o->nfig, w.order);
	for (size_t i = 0; i < o->nfig; i++) {
		char rel[300];

		w.done[2 * i] = !(o->formats & NV_FIG_PNG);	/* not asked: done */
		w.done[2 * i + 1] = !(o->formats & NV_FIG_SVG);
		snprintf(rel, sizeof(rel), "%s.png", o->fig[i].name);
		if (o->formats & NV_FIG_PNG)
			nv_figset_wrote(o, rel);
		snprintf(rel, sizeof(rel), "%s.svg", o->fig[i].name);
		if (o->formats & NV_FIG_SVG)
			nv_figset_wrote(o, rel);
	}
	w.nshare = o->workers ? o->workers : 1;	/* a gnuplot per worker, not per figure */
	if (w.nshare > o->nfig)
		w.nshare = o->nfig;
	if (w.nshare)
		nv_pool_run(w.nshare, (unsigned)w.nshare, render_share, &w);
	for (size_t i = 0; i < o->nfig; i++)
		if (!w.done[2 * i] || !w.done[2 * i + 1])
			render_alone(&w, i);
	for (size_t i = 0; i < o->nfig; i++)
		if (w.failed[i] && !bad++)
			snprintf(o->err, o->errlen, "-o: gnuplot failed on %s/%s.gp (see %s)",
				 o->dir, o->fig[i].name, log);
	free(w.failed);
	free(w.order);
	free(w.done);
	if (bad > 1) {
		size_t len = strlen(o->err);

		snprintf(o->err + len, o->errlen - len, " and on %zu other scripts", bad - 1);
	}
	*rendered = true;
	return bad ? -EIO : 0;
}

int nv_figset_formats_parse(const char *s, unsigned *formats)
{
	static const struct { const char *s; unsigned f; } names[] = {
		{ "png,svg", NV_FIG_ALL }, { "svg,png", NV_FIG_ALL }, { "png", NV_FIG_PNG },
		{ "svg", NV_FIG_SVG }, { "none", 0 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].s)) {
			*formats = names[i].f;
			return 0;
		}
	return -EINVAL;
}

const char *nv_figset_link_ext(const struct nv_figset *o)
{
	return o->formats & NV_FIG_PNG || !o->formats ? "png" : "svg";
}

int nv_figset_write(struct nv_figset *o)
{
	const struct nv_report *r = o->r;
	int ret = 0;

	ret = summary_fig(o);	/* the page opens with it */
	for (size_t i = 0; !ret && i < r->nblocks; i++) {
		if (!r->blocks[i].active)
			continue;
		ret = block_cdfs(o, i);
		if (!ret)
			ret = block_bars(o, i);
	}
	for (size_t i = 0; !ret && i < o->tj->n; i++)
		ret = run_series(o, &o->tj->j[i]);
	return ret;
}
