/*
 * trace_find.c - the rules applied to one job's series (trace_find.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/trace_find.h"

/* The length of interval i in seconds (its real length for the last one). */
static double interval_s(const struct nv_tan *t, size_t i)
{
	double full = (double)t->interval_ns / 1e9;

	if (i + 1 < t->nint)
		return full;
	return fmax((double)(t->span_ns - i * t->interval_ns) / 1e9, 1e-9);
}

bool nv_tan_full(const struct nv_tan *t, size_t i)
{
	return i + 1 < t->nint || t->span_ns >= t->nint * t->interval_ns;
}

double nv_tan_mbps(const struct nv_tan *t, unsigned op, size_t i)
{
	return t->series[op] ? (double)t->series[op][i].bytes / 1e6 / interval_s(t, i) : 0;
}

double nv_tan_iops(const struct nv_tan *t, unsigned op, size_t i)
{
	return t->series[op] ? (double)t->series[op][i].ios / interval_s(t, i) : 0;
}

void nv_tan_iv_of(const struct nv_tan *t, unsigned op, size_t i, struct nv_tan_iv *iv)
{
	const struct nv_tan_point *p = &t->series[op][i];

	iv->op = op;
	iv->index = i;
	iv->start_s = (double)i * (double)t->interval_ns / 1e9;
	iv->end_s = iv->start_s + interval_s(t, i);
	iv->ios = p->ios;
	iv->bytes = p->bytes;
	iv->errors = p->errors;
	iv->iops = nv_tan_iops(t, op, i);
	iv->mb_per_s = nv_tan_mbps(t, op, i);
	iv->p50_ns = p->p50;
	iv->p99_ns = p->p99;
	iv->p999_ns = p->p999;
	iv->max_ns = p->max;
}

void nv_tan_find(const struct nv_tan *t, struct nv_tan_find *f)
{
	double *x;

	memset(f, 0, sizeof(*f));
	f->nfull = t->nint && !nv_tan_full(t, t->nint - 1) ? t->nint - 1 : t->nint;
	x = calloc(f->nfull + 1, sizeof(*x));
	if (!x)
		return;
	for (size_t i = 0; i < f->nfull; i++)
		x[i] = nv_tan_mbps(t, NV_TAN_ALL, i);
	f->median_mbps = nv_median(x, f->nfull);
	nv_find_step(x, f->nfull, NV_STEP_MIN_DROP, &f->step);
	nv_find_warmup(x, f->step.found ? f->step.at : f->nfull, &f->warm);
	free(x);
}
