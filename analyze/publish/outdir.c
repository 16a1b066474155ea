/*
 * outdir.c - nvanalyze -o DIR: the directory, its files and their list
 * (outdir.h).  The figures come from analyze/figures/ (figset.h), the pages
 * from report_md.c and report_html.c, which write into streams opened here.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/figures/curve_figs.h"
#include "analyze/figures/figset.h"
#include "analyze/figures/plot.h"
#include "analyze/publish/manifest.h"
#include "analyze/publish/outdir.h"
#include "analyze/publish/report_html.h"
#include "analyze/publish/report_md.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_json.h"
#include "analyze/report/trace_sections.h"

/* The figures' files go into the manifest.  Return: nothing. */
static void wrote(void *arg, const char *rel)
{
	nv_manifest_add(arg, rel);
}

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
	ret = nv_figset_open(o, "style.gp", &out);
	if (ret) {
		fclose(in);
		return ret;
	}
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, out);
	fclose(in);
	return nv_figset_close(o, out, "style.gp");
}

/*
 * DIR/tables.md (with the trace sections), tables.csv, tables.json.
 * Return: 0, or -errno with the message in o->err.
 */
static int write_tables(const struct nv_figset *o)
{
	static const struct { const char *name; enum nv_format f; } t[] = {
		{ "tables.md", NV_FMT_MD }, { "tables.csv", NV_FMT_CSV },
		{ "tables.json", NV_FMT_JSON },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		FILE *f;
		int bad, ret = nv_figset_open(o, t[i].name, &f);

		if (ret)
			return ret;
		bad = t[i].f == NV_FMT_JSON
			      ? nv_trace_json_print(f, o->r, o->tj, nv_report_run_label,
						    (void *)o->r)
			      : nv_report_print(f, o->r, t[i].f);
		if (t[i].f == NV_FMT_MD && !bad)
			bad = nv_trace_sections_print(f, o->tj, nv_report_run_label, (void *)o->r,
						      NV_FMT_MD);
		if (t[i].f == NV_FMT_CSV && !bad)
			bad = nv_trace_disturb_csv(f, o->tj, nv_report_run_label, (void *)o->r);
		ret = nv_figset_close(o, f, t[i].name);
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
 * DIR with its missing parents, and DIR/data, created unless they exist.
 * Return: 0, or -errno with a message naming the directory in err.
 */
static int make_dirs(const char *dir, char *err, size_t errlen)
{
	char sub[PATH_MAX];
	struct stat st;
	int ret;

	snprintf(sub, sizeof(sub), "%s", dir);
	for (char *p = sub + 1; *p; p++) {	/* the parents, as mkdir -p */
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(sub, 0755) && errno != EEXIST) {
			ret = -errno;
			snprintf(err, errlen, "-o %s: cannot create %s: %s", dir, sub,
				 strerror(-ret));
			return ret;
		}
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "-o %s: cannot create the directory: %s", dir,
			 strerror(-ret));
		return ret;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-o %s: exists and is not a directory; give a directory",
			 dir);
		return -ENOTDIR;
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
 * DIR/report.md (report_md.h).
 * Return: 0, or -errno with the message in o->err.
 */
static int write_md(const struct nv_figset *o, bool rendered)
{
	FILE *f;
	int ret = nv_figset_open(o, "report.md", &f);

	if (ret)
		return ret;
	ret = nv_report_md_put(f, o, rendered);
	if (ret) {
		fclose(f);
		snprintf(o->err, o->errlen, "-o: writing %s/report.md failed", o->dir);
		return ret;
	}
	return nv_figset_close(o, f, "report.md");
}

/*
 * DIR/report.html from DIR/report.md (report_html.h); *nfigs: the figures
 * inlined.
 * Return: 0, or -errno with the message in o->err.
 */
static int write_html(const struct nv_figset *o, unsigned *nfigs)
{
	struct nv_html_src src;
	FILE *f;
	int ret;

	*nfigs = 0;
	ret = nv_report_html_read(o->dir, &src, o->err, o->errlen);
	if (ret)
		return ret;
	ret = nv_figset_open(o, "report.html", &f);
	if (!ret) {
		*nfigs = nv_report_html_put(f, o, &src);
		ret = nv_figset_close(o, f, "report.html");
	}
	nv_report_html_src_free(&src);
	return ret;
}

/*
 * The tables written on a thread of their own, beside the figures' data,
 * scripts and rendering, when the run has workers to spare (-J 2 or more;
 * with one, before the figures, as one core): into a copy of the figure
 * set's context with a list of names and a message buffer of its own, so
 * the two never write the same memory.  Reads the report, as the figures
 * do, and nothing else they share.  A table that cannot be written stops
 * neither the figures nor report.md, whichever way the tables ran.
 */
struct tables_job {
	struct nv_figset o;	/* the caller's, with its own list and message */
	struct nv_manifest files;	/* the tables' names, in the order written */
	char err[512];
	pthread_t th;
	bool beside;		/* on its own thread (joined by tables_wait) */
	int ret;
};

/* The thread's body.  Return: NULL (j->ret says). */
static void *tables_run(void *arg)
{
	struct tables_job *j = arg;

	j->ret = write_tables(&j->o);
	return NULL;
}

/*
 * The tables of o's report started beside the figures when o->workers > 1
 * (or a thread cannot be made: then written now, as with one worker).
 * Return: nothing (tables_wait gives the result and its message).
 */
static void tables_start(struct tables_job *j, const struct nv_figset *o)
{
	j->o = *o;
	j->o.wrote_arg = &j->files;
	j->o.err = j->err;
	j->o.errlen = sizeof(j->err);
	j->err[0] = 0;
	j->beside = o->workers > 1 && !pthread_create(&j->th, NULL, tables_run, j);
	if (!j->beside)
		tables_run(j);
}

/*
 * After the figures: the tables' thread joined, their names added to files
 * (before figs, the figures' names: the order of a run with one worker),
 * their message in o->err when they failed (first, as with one worker).
 * Return: the tables' result when it is an error, else fig_ret.
 */
static int tables_wait(struct tables_job *j, const struct nv_figset *o, int fig_ret,
		       struct nv_manifest *files, const struct nv_manifest *figs)
{
	if (j->beside)
		pthread_join(j->th, NULL);
	for (size_t i = 0; i < j->files.n; i++)
		nv_manifest_add(files, j->files.rel[i]);
	for (size_t i = 0; i < figs->n; i++)
		nv_manifest_add(files, figs->rel[i]);
	files->oom |= j->files.oom || figs->oom;
	nv_manifest_free(&j->files);
	if (!j->ret)
		return fig_ret;
	snprintf(o->err, o->errlen, "%s", j->err);
	return j->ret;
}

int nv_outdir_write(const char *dir, const struct nv_report *r, const struct nv_tracejoin *tj,
		    unsigned formats, struct nv_outdir_result *res, char *err, size_t errlen)
{
	struct nv_manifest files = { 0 }, figs = { 0 };
	struct tables_job tables = { 0 };
	char scratch[512];	/* a manifest message after an earlier error */
	struct nv_figset o = { .dir = dir, .r = r, .tj = tj, .err = err, .errlen = errlen,
			       .wrote = wrote, .wrote_arg = &files, .formats = formats };
	int ret, mret;

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
	o.workers = tj ? tj->workers : 1;
	o.wrote_arg = &figs;	/* listed after the tables' (tables_wait) */
	if (!ret)	/* the figures are written whether or not the tables were */
		tables_start(&tables, &o);
	if (!ret)
		ret = nv_curve_figs_write(&o);	/* load curves first */
	if (!ret)
		ret = nv_figset_write(&o);
	res->nfig = o.nfig;
	if (!ret)
		ret = nv_figset_render(&o, &res->gnuplot, &res->rendered);
	ret = tables_wait(&tables, &o, ret, &files, &figs);
	o.wrote_arg = &files;
	if (ret) {	/* report.md still, but the first message stays, whole */
		char *keep = strdup(err);

		if (keep) {
			write_md(&o, res->rendered);
			snprintf(err, errlen, "%s", keep);
			free(keep);
		}
	} else {
		ret = write_md(&o, res->rendered);
	}
	if (!ret)	/* report.md as one self-contained page */
		ret = write_html(&o, &res->html_figs);
	/* the earlier report's files that were not written again go (on success) */
	mret = nv_manifest_commit(dir, &files, !ret, ret ? scratch : err,
				  ret ? sizeof(scratch) : errlen);
	if (!ret)
		ret = mret;
out:
	nv_manifest_free(&figs);
	nv_manifest_free(&files);
	free(o.fig);
	return ret;
}
