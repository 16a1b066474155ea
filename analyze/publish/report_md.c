/*
 * report_md.c - DIR/report.md of `nvanalyze -o`: a page that reads on its
 * own (GitHub, any Markdown viewer): the load curves (when the runs sweep
 * a job option), the comparison, the figures of each
 * block, the trace sections and each traced run's figures.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/figures/figset.h"
#include "analyze/publish/report_md.h"
#include "analyze/report/curves.h"
#include "analyze/report/render.h"
#include "analyze/report/trace_sections.h"

/*
 * The image links of the figures of block (SIZE_MAX: per-run) and jt.
 * Return: nothing.
 */
static void md_figs(FILE *f, const struct nv_figset *o, size_t block, const struct nv_jobjoin *jt)
{
	for (size_t i = 0; i < o->nfig; i++)
		if (o->fig[i].block == block && o->fig[i].jt == jt)
			fprintf(f, "![%s](%s.png)\n\n", o->fig[i].caption, o->fig[i].name);
}

/*
 * The page's head: what is where, and notes on rendering and sources.
 * Return: nothing.
 */
static void md_head(FILE *f, const struct nv_figset *o, bool rendered)
{
	fprintf(f, "# Storage benchmark report\n\nWritten by `nvanalyze -o`; the same as one "
		   "self-contained page: [report.html](report.html).  Comparison tables: "
		   "[tables.md](tables.md), [tables.csv](tables.csv), [tables.json](tables.json); "
		   "plotted numbers in `data/`; each figure has its gnuplot script (`NAME.gp`, "
		   "rerun with "
		   "`gnuplot NAME.gp` in this directory; `style.gp` holds the common style).\n\n");
	if (!rendered)
		fprintf(f, "**The figures are not rendered** (gnuplot was not found): run "
			"`for f in *.gp; do gnuplot \"$f\"; done` in this directory.\n\n");
	if (o->approx_cdf)
		fprintf(f, "CDFs marked *approx.* come from fio's latency bins (json+: each bin's "
			   "value is up to 0.78%% off) or from fio's percentile list (a few "
			   "points); the others from the traces (every IO, in bins of 0.4%%).\n\n");
}

/*
 * The page's opening section: the load-curve figures (block SIZE_MAX, no
 * traces), then their tables; nothing when the report has no curves.
 * Return: 0 or -ENOMEM.
 */
static int md_curves(FILE *f, const struct nv_figset *o)
{
	const struct nv_curves *c = o->r->curves;
	bool any = false;

	if (!c || !nv_curves_any(c))
		return 0;
	for (size_t i = 0; i < o->nfig; i++)
		any |= o->fig[i].block == SIZE_MAX && !o->fig[i].jt;
	if (any)
		fprintf(f, "## Load curve figures\n\n");
	md_figs(f, o, SIZE_MAX, NULL);
	return nv_curves_print(f, c, NV_FMT_MD);
}

/*
 * "## Figures": one section per block that has figures.
 * Return: nothing.
 */
static void md_block_figs(FILE *f, const struct nv_figset *o)
{
	const struct nv_report *r = o->r;

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
}

int nv_report_md_put(FILE *f, const struct nv_figset *o, bool rendered)
{
	int ret;

	md_head(f, o, rendered);
	ret = md_curves(f, o);	/* load curves first */
	if (!ret)
		ret = nv_report_print(f, o->r, NV_FMT_MD);
	md_block_figs(f, o);
	if (o->tj->ts->n) {
		fprintf(f, "## From the traces\n\n");
		if (nv_trace_sections_print(f, o->tj, nv_report_run_label, (void *)o->r, NV_FMT_MD))
			ret = -ENOMEM;
		for (size_t i = 0; i < o->tj->n; i++)
			md_figs(f, o, SIZE_MAX, &o->tj->j[i]);
	}
	return ret;
}
