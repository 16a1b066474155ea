/*
 * report_md.c - DIR/report.md of `nvanalyze -o`: a page that reads as the
 * studies do, on its own (GitHub, any Markdown viewer) and as report.html
 * (report_html.c): the title and the contents, then the sections of
 * md_sections in their order -- what a study puts first first: the load
 * curves when the runs sweep a job option, the summary table with its
 * figure, the claims and their verdicts, then each job with its tables and
 * figures.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/figures/figset.h"
#include "analyze/publish/anchors.h"
#include "analyze/publish/report_md.h"
#include "analyze/report/curves.h"
#include "analyze/report/escape.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_sections.h"

/*
 * text[0..len) with brackets as parentheses (they would end a link's text).
 * Return: nothing.
 */
static void put_unbracketed(FILE *f, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fputc(text[i] == '[' ? '(' : text[i] == ']' ? ')' : text[i], f);
}

/*
 * "![caption](NAME.png)" (NAME.svg when no PNG is rendered): the caption,
 * from the inputs' names, escaped.
 * Return: nothing.
 */
static void md_fig(FILE *f, const struct nv_figset *o, const struct nv_fig *fg)
{
	char cap[4 * sizeof(fg->caption)];	/* an escape is at most 4 bytes */

	nv_esc_str(cap, sizeof(cap), fg->caption, NV_FMT_MD);
	fputs("![", f);
	put_unbracketed(f, cap, strlen(cap));
	fprintf(f, "](%s.%s)\n\n", fg->name, nv_figset_link_ext(o));
}

/*
 * The image links of the figures of block (SIZE_MAX: per-run) and jt.
 * Return: nothing.
 */
static void md_figs(FILE *f, const struct nv_figset *o, size_t block, const struct nv_jobjoin *jt)
{
	for (size_t i = 0; i < o->nfig; i++)
		if (o->fig[i].block == block && o->fig[i].jt == jt && !o->fig[i].summary)
			md_fig(f, o, &o->fig[i]);
}

/*
 * What nvanalyze warned about the inputs on stderr (a host of a many-host
 * run missing, its traces not fetched, traces that do not match fio's
 * counts ...), beside the runs, so that the page says it too.
 * Return: nothing.
 */
static void md_warnings(FILE *f, const struct nv_report *r)
{
	if (!r->nwarnings)
		return;
	fprintf(f, "**Warnings about the inputs** (as nvanalyze printed them):\n\n");
	for (size_t i = 0; i < r->nwarnings; i++) {
		fputs("- ", f);
		nv_esc_fputs(f, r->warnings[i], NV_FMT_MD);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/*
 * "## Summary": the suite summary table, its figure, the runs compared and
 * how to read a change, the warnings about the inputs.
 * Return: 0 or -ENOMEM.
 */
static int md_summary(FILE *f, const struct nv_figset *o)
{
	int ret;

	fprintf(f, "## Summary\n\n");
	ret = nv_render_md_part(f, o->r, NV_MD_SUMMARY, SIZE_MAX);
	for (size_t i = 0; i < o->nfig; i++)
		if (o->fig[i].summary)
			md_fig(f, o, &o->fig[i]);
	if (!ret)
		ret = nv_render_md_part(f, o->r, NV_MD_RUNS, SIZE_MAX);
	md_warnings(f, o->r);
	return ret;
}

/* "## Claims" with their verdicts, when --claim gave some.  Return: 0 or -ENOMEM. */
static int md_claims(FILE *f, const struct nv_figset *o)
{
	if (!o->r->nclaims)
		return 0;
	fprintf(f, "## Claims\n\n");
	return nv_render_md_part(f, o->r, NV_MD_CLAIMS, SIZE_MAX);
}

/*
 * "## Per job": each job · direction's tables, then its figures (beside
 * them in report.html).
 * Return: 0 or -ENOMEM.
 */
static int md_jobs(FILE *f, const struct nv_figset *o)
{
	const struct nv_report *r = o->r;
	size_t shown = 0;

	fprintf(f, "## Per job\n\n");
	if (o->approx_cdf)
		fprintf(f, "CDFs marked *approx.* come from fio's latency bins (json+: each "
			   "bin's value is up to 0.78%% off) or from fio's percentile list (a "
			   "few points); the others from the traces (every IO, in bins of "
			   "0.4%%).\n\n");
	for (size_t i = 0; i < r->nblocks; i++) {
		if (!r->blocks[i].active)
			continue;
		if (nv_render_md_part(f, r, NV_MD_BLOCKS, i))
			return -ENOMEM;
		md_figs(f, o, i, NULL);
		shown++;
	}
	return shown ? 0 : nv_render_md_part(f, r, NV_MD_BLOCKS, SIZE_MAX); /* "No job ..." */
}

/*
 * "## Other fio results": disk_util, unmatched jobs, job errors, when
 * there are some.
 * Return: 0 or -ENOMEM.
 */
static int md_other(FILE *f, const struct nv_figset *o)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = nv_render_md_part(m, o->r, NV_MD_OTHER, SIZE_MAX);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret && n)
		fprintf(f, "## Other fio results\n\n%s", text);
	free(text);
	return ret;
}

/*
 * "## From the traces": each traced job of each run, its sections, then its
 * figures.
 * Return: 0 or -ENOMEM.
 */
static int md_traces(FILE *f, const struct nv_figset *o)
{
	if (!o->tj->n)
		return 0;
	fprintf(f, "## From the traces\n\n");
	for (size_t i = 0; i < o->tj->n; i++) {
		struct nv_tracejoin one = { .ts = o->tj->ts, .n = 1, .j = &o->tj->j[i] };

		if (nv_trace_sections_print(f, &one, nv_report_run_label, (void *)o->r, NV_FMT_MD))
			return -ENOMEM;
		md_figs(f, o, SIZE_MAX, &o->tj->j[i]);
	}
	return 0;
}

/* "## Files": what else the directory holds.  Return: 0. */
static int md_files(FILE *f, const struct nv_figset *o)
{
	(void)o;
	fprintf(f, "## Files\n\nWritten by `nvanalyze -o`; the same as one self-contained page: "
		   "[report.html](report.html).  Comparison tables: [tables.md](tables.md), "
		   "[tables.csv](tables.csv), [tables.json](tables.json); plotted numbers in "
		   "`data/`; each figure has its gnuplot script (`NAME.gp`, rerun with `gnuplot "
		   "NAME.gp` in this directory; `style.gp` holds the common style).\n\n");
	return 0;
}

/*
 * "## Load curve figures" and "## Load curves and steady state": a sweep's
 * figures (block SIZE_MAX, no traces), then its tables (report/curves.h);
 * nothing when the report has no curves.
 * Return: 0 or -ENOMEM.
 */
static int md_curves(FILE *f, const struct nv_figset *o)
{
	const struct nv_curves *c = o->r->curves;
	bool any = false;

	if (!c || !nv_curves_any(c))
		return 0;
	for (size_t i = 0; i < o->nfig; i++)
		any |= o->fig[i].block == SIZE_MAX && !o->fig[i].jt && !o->fig[i].summary;
	if (any)
		fprintf(f, "## Load curve figures\n\n");
	md_figs(f, o, SIZE_MAX, NULL);
	return nv_curves_print(f, c, NV_FMT_MD);
}

/* A section of the page: its "## " heading and body (nothing when it has none). */
typedef int md_section(FILE *f, const struct nv_figset *o);

/* The page's sections in their order. */
static md_section *const md_sections[] = {
	md_curves,	/* a sweep's load curves: figures, tables, SLA, steady state */
	md_summary,	/* the summary table, its figure, the runs, how to read them */
	md_claims,	/* the claims and their verdicts */
	md_jobs,	/* each job · direction: its tables, its figures */
	md_other,	/* disk_util, unmatched jobs, job errors */
	md_traces,	/* each traced job: its sections, its figures */
	md_files,	/* the directory's other files */
};

/*
 * The title, and a warning when the figures are not rendered.
 * Return: nothing.
 */
static void md_head(FILE *f, const struct nv_figset *o, bool rendered)
{
	fprintf(f, "# " NV_REPORT_MD_TITLE "\n\n");
	if (!rendered)
		fprintf(f, "**The figures are not rendered** (%s): run "
			"`for f in *.gp; do gnuplot \"$f\"; done` in this directory.\n\n",
			o->formats ? "gnuplot was not found" : "`--figures none`");
}

/*
 * The heading of a line, "## Text" (levels 1 to 6).
 * Return: its level, 0 when the line is no heading; *text its text.
 */
static size_t heading(const char *line, const char **text)
{
	size_t h = strspn(line, "#");

	*text = line + h + 1;
	return h >= 1 && h <= 6 && line[h] == ' ' ? h : 0;
}

/*
 * One link of the contents: "[text](#anchor)", brackets in text as
 * parentheses (they would end the link).
 * Return: nothing.
 */
static void toc_link(FILE *f, const char *text, size_t len, const char *anchor)
{
	fputc('[', f);
	put_unbracketed(f, text, len);
	fprintf(f, "](#%s)", anchor);
}

/*
 * "## Contents": a line per "## " section of body, its "### " headings
 * after it; the anchors as report.html and GitHub give them (anchors.h),
 * counting the title and this heading, which come first.
 * Return: 0 or -ENOMEM.
 */
static int md_contents(FILE *f, const char *body)
{
	struct nv_anchors a = { 0 };
	char anchor[256];
	size_t sub = 0, nsec = 0;
	int ret;

	fprintf(f, "## " NV_REPORT_MD_CONTENTS "\n\n");
	ret = nv_anchor_next(&a, NV_REPORT_MD_TITLE, strlen(NV_REPORT_MD_TITLE), anchor,
			     sizeof(anchor));
	if (!ret)
		ret = nv_anchor_next(&a, NV_REPORT_MD_CONTENTS, strlen(NV_REPORT_MD_CONTENTS),
				     anchor, sizeof(anchor));
	for (const char *l = body; !ret && *l;) {
		const char *e = strchrnul(l, '\n'), *text;
		size_t h = heading(l, &text), len = (size_t)(e - text);

		if (h && !(ret = nv_anchor_next(&a, text, len, anchor, sizeof(anchor)))) {
			if (h == 2) {
				fprintf(f, "%s- ", nsec++ ? "\n" : "");
				toc_link(f, text, len, anchor);
				sub = 0;
			} else if (h == 3 && nsec) {
				fprintf(f, "%s", sub++ ? ", " : ": ");
				toc_link(f, text, len, anchor);
			}
		}
		l = *e ? e + 1 : e;
	}
	fprintf(f, "\n\n");
	nv_anchors_free(&a);
	return ret;
}

int nv_report_md_put(FILE *f, const struct nv_figset *o, bool rendered)
{
	char *body = NULL;
	size_t n = 0;
	FILE *b = open_memstream(&body, &n);
	int ret = 0;

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(md_sections) / sizeof(md_sections[0]); i++)
		if (md_sections[i](b, o))
			ret = -ENOMEM;	/* the page is incomplete, the others still go */
	if (fclose(b) || !body) {
		free(body);
		return -ENOMEM;
	}
	md_head(f, o, rendered);
	if (md_contents(f, body))
		ret = -ENOMEM;
	fwrite(body, 1, n, f);
	free(body);
	return ret;
}
