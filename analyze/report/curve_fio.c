/*
 * curve_fio.c - fio's latency-target and steady-state results (see curve_print.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/curve_print.h"
#include "analyze/report/render.h"

/* Each run's jobs with fio's latency_target or steadystate result: grid rows. */
static size_t count_jobs(const struct nv_report *r, bool ss)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++)
			n += ss ? r->runs[i].run->jobs[j].meta.ss.present :
				  r->runs[i].run->jobs[j].meta.lt.present;
	return n;
}

static void fmt_num(char *buf, size_t n, double v, enum nv_unit u)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		nv_fmt_value(buf, n, v, u);
}

/*
 * A table of nrows rows under the header row hdr[0..ncols).
 * Return: 0 or -ENOMEM.
 */
static int grid_with_header(struct nv_grid *g, size_t nrows, const char *const *hdr, size_t ncols)
{
	if (nv_grid_init(g, nrows + 1, ncols))
		return -ENOMEM;
	for (size_t k = 0; k < ncols; k++)
		nv_grid_set(g, 0, k, hdr[k]);
	return 0;
}

int nv_curve_fio_print_lt(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	static const char *const hdr[] = { "job", "run", "target", "percentile", "window",
					   "depth meeting it" };
	const struct nv_report *r = c->r;
	struct nv_grid g;
	size_t row = 1;
	char buf[128];

	if (grid_with_header(&g, count_jobs(r, false), hdr, sizeof(hdr) / sizeof(hdr[0])))
		return -ENOMEM;
	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			const struct nv_job *jb = &r->runs[i].run->jobs[j];
			const struct nv_lattarget *lt = &jb->meta.lt;

			if (!lt->present)
				continue;
			nv_grid_set(&g, row, 0, jb->key);
			nv_grid_set(&g, row, 1, r->runs[i].label);
			fmt_num(buf, sizeof(buf), lt->target_ns, NV_U_NS);
			nv_grid_set(&g, row, 2, lt->target_ns > 0 ? buf : "0 (none)");
			snprintf(buf, sizeof(buf), "%g%%", lt->percentile);
			nv_grid_set(&g, row, 3, buf);
			fmt_num(buf, sizeof(buf), lt->window_ns, NV_U_NS);
			nv_grid_set(&g, row, 4, buf);
			snprintf(buf, sizeof(buf), "%g", lt->depth);
			nv_grid_set(&g, row++, 5, buf);
		}
	nv_curve_text_heading(out, f, 3, "fio's latency target (latency_target=)");
	nv_grid_print(out, &g, f);
	fprintf(out, "\nAs fio wrote them: the highest queue depth whose IOs met the target "
		"(latency_depth).\n\n");
	nv_grid_free(&g);
	return 0;
}

int nv_curve_fio_print_ss(FILE *out, const struct nv_curves *c, enum nv_format f)
{
	static const char *const hdr[] = { "job", "run", "criterion", "window", "attained",
					   "stopped at", "last value", "max deviation", "slope",
					   "IOPS mean", "MB/s mean" };
	const struct nv_report *r = c->r;
	struct nv_grid g;
	size_t row = 1;
	char buf[128];

	if (grid_with_header(&g, count_jobs(r, true), hdr, sizeof(hdr) / sizeof(hdr[0])))
		return -ENOMEM;
	for (size_t i = 0; i < r->nruns; i++)
		for (size_t j = 0; j < r->runs[i].run->njobs; j++) {
			const struct nv_job *jb = &r->runs[i].run->jobs[j];
			const struct nv_steadystate *ss = &jb->meta.ss;

			if (!ss->present)
				continue;
			nv_grid_set(&g, row, 0, jb->key);
			nv_grid_set(&g, row, 1, r->runs[i].label);
			nv_grid_set(&g, row, 2, ss->ss ? ss->ss : "-");
			snprintf(buf, sizeof(buf), "%g s", ss->duration);
			nv_grid_set(&g, row, 3, buf);
			nv_grid_set(&g, row, 4, ss->attained ? "yes" : "no");
			snprintf(buf, sizeof(buf), "%g s", ss->elapsed);
			nv_grid_set(&g, row, 5, isnan(ss->elapsed) ? "-" : buf);
			nv_grid_set(&g, row, 6, ss->criterion ? ss->criterion : "-");
			nv_fmt_exact(buf, sizeof(buf), ss->max_deviation);
			nv_grid_set(&g, row, 7, buf);
			nv_fmt_exact(buf, sizeof(buf), ss->slope);
			nv_grid_set(&g, row, 8, buf);
			fmt_num(buf, sizeof(buf), ss->iops_mean, NV_U_IOPS);
			nv_grid_set(&g, row, 9, buf);
			fmt_num(buf, sizeof(buf), ss->bw_mean / 1e6, NV_U_MBPS);
			nv_grid_set(&g, row++, 10, buf);
		}
	nv_curve_text_heading(out, f, 3, "fio's steady state (steadystate=)");
	nv_grid_print(out, &g, f);
	fprintf(out, "\nAs fio wrote them: the criterion and its limit, whether the last window "
		"met it, the job's elapsed seconds when fio wrote the result (a job that attains "
		"steady state stops there), the criterion's last value, and the means over the "
		"window.\n\n");
	nv_grid_free(&g);
	return 0;
}
