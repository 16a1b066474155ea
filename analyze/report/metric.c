/*
 * metric.c - the metrics of the report model (model.h): their table, names,
 * units and directions; one metric's value of a job and direction (exact
 * from traces where there are, else fio's), costs from prices, the value
 * of a percentile level.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/model.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/common.h"

static const struct nv_metric_info metrics[NV_M_NR] = {
	[NV_M_IOPS]  = { "iops",   "IOPS",      NV_U_IOPS,      true,  false },
	[NV_M_BW]    = { "bw",     "bandwidth", NV_U_MBPS,      true,  false },
	[NV_M_MIN]   = { "min",    "min",       NV_U_NS,        false, true },
	[NV_M_MEAN]  = { "mean",   "mean",      NV_U_NS,        false, true },
	[NV_M_P50]   = { "p50",    "p50",       NV_U_NS, false, true, .pct = &nv_pcts[NV_P50] },
	[NV_M_P95]   = { "p95",    "p95",       NV_U_NS, false, true, .pct = &nv_pcts[NV_P95] },
	[NV_M_P99]   = { "p99",    "p99",       NV_U_NS, false, true, .pct = &nv_pcts[NV_P99] },
	[NV_M_P999]  = { "p99.9",  "p99.9",     NV_U_NS, false, true, .pct = &nv_pcts[NV_P999] },
	[NV_M_P9999] = { "p99.99", "p99.99",    NV_U_NS, false, true, .pct = &nv_pcts[NV_P9999] },
	[NV_M_PCTL]  = { "pct",    "percentile", NV_U_NS, false, true },
	[NV_M_MAX]   = { "max",    "max",       NV_U_NS,        false, true },
	[NV_M_STDEV] = { "stdev",  "stdev",     NV_U_NS,        false, true },
	[NV_M_IO_BYTES] = { "io_bytes", "IO total", NV_U_BYTES, true, false, false, "io_bytes" },
	[NV_M_RUNTIME] = { "runtime", "runtime", NV_U_NS, false, false, true, "runtime_ns" },
	[NV_M_USR_CPU] = { "usr_cpu", "CPU user", NV_U_PCT, false, false },
	[NV_M_SYS_CPU] = { "sys_cpu", "CPU system", NV_U_PCT, false, false },
	/* counts of the whole run: they grow with its IOs and length, so a change
	 * is not better or worse by itself (neutral) */
	[NV_M_CTX]   = { "ctx", "context switches", NV_U_COUNT, false, false, true,
			 "ctx_switches" },
	[NV_M_MAJF]  = { "majf", "major faults", NV_U_COUNT, false, false, true, "major_faults" },
	[NV_M_MINF]  = { "minf", "minor faults", NV_U_COUNT, false, false, true, "minor_faults" },
	[NV_M_BW_SMIN]  = { "bw_min",  "bw samples min",   NV_U_MBPS, true, false },
	[NV_M_BW_SMAX]  = { "bw_max",  "bw samples max",   NV_U_MBPS, true, false },
	[NV_M_BW_SMEAN] = { "bw_mean", "bw samples mean",  NV_U_MBPS, true, false },
	[NV_M_BW_SDEV]  = { "bw_dev",  "bw samples stdev", NV_U_MBPS, false, false },
	[NV_M_IOPS_SMIN]  = { "iops_min",  "IOPS samples min",   NV_U_IOPS, true, false },
	[NV_M_IOPS_SMAX]  = { "iops_max",  "IOPS samples max",   NV_U_IOPS, true, false },
	[NV_M_IOPS_SMEAN] = { "iops_mean", "IOPS samples mean",  NV_U_IOPS, true, false },
	[NV_M_IOPS_SDEV]  = { "iops_stdev", "IOPS samples stdev", NV_U_IOPS, false, false },
	[NV_M_ERROR] = { "error", "fio error (errno)", NV_U_COUNT, false, false, true,
			 "fio_error" },
	[NV_M_PRICE] = { "price",  "price",     NV_U_USD_H,     false, false },
	[NV_M_COST]  = { "cost",   "cost per 1k IOPS", NV_U_USD_KIOPS, false, false },
	[NV_M_COST_BW] = { "cost_bw", "cost per GB/s", NV_U_USD_GBPS, false, false },
};

static const struct {
	const char *alias;
	enum nv_metric m;
} metric_aliases[] = {
	{ "bandwidth", NV_M_BW }, { "stddev", NV_M_STDEV }, { "iops_stddev", NV_M_IOPS_SDEV },
	{ "cpu_usr", NV_M_USR_CPU }, { "cpu_sys", NV_M_SYS_CPU },
};

const struct nv_metric_info *nv_metric(enum nv_metric m)
{
	return (unsigned)m < NV_M_NR ? &metrics[m] : NULL;
}

int nv_metric_parse(const char *s, enum nv_metric *m)
{
	for (unsigned i = 0; i < NV_M_NR; i++) {
		if (!strcmp(s, metrics[i].key)) {
			*m = (enum nv_metric)i;
			return 0;
		}
	}
	for (unsigned i = 0; i < sizeof(metric_aliases) / sizeof(metric_aliases[0]); i++) {
		if (!strcmp(s, metric_aliases[i].alias)) {
			*m = metric_aliases[i].m;
			return 0;
		}
	}
	return -EINVAL;
}

/* x of metric m (its nv_val's unit) in the unit the tables use. */
static double metric_scale(enum nv_metric m, double x)
{
	if (metrics[m].unit == NV_U_MBPS)
		return x / 1e6;	/* bytes/s */
	return m == NV_M_RUNTIME ? x * 1e6 : x;	/* ms */
}

/* The value behind metric m of a direction, NULL for none. */
static const struct nv_val *metric_val(const struct nv_dirstat *ds, const struct nv_latstat *ls,
				       enum nv_metric m)
{
	switch (m) {
	case NV_M_IOPS:  return &ds->iops;
	case NV_M_BW:    return &ds->bw;
	case NV_M_MIN:   return &ls->min;
	case NV_M_MEAN:  return &ls->mean;
	case NV_M_P50: case NV_M_P95: case NV_M_P99: case NV_M_P999: case NV_M_P9999:
		return &ls->pct[metrics[m].pct - nv_pcts];
	case NV_M_MAX:   return &ls->max;
	case NV_M_STDEV: return &ls->stdev;
	case NV_M_RUNTIME: return &ds->runtime_ms;
	case NV_M_BW_SMIN: return &ds->bw_samples.min;
	case NV_M_BW_SMAX: return &ds->bw_samples.max;
	case NV_M_BW_SMEAN: return &ds->bw_samples.mean;
	case NV_M_BW_SDEV: return &ds->bw_samples.dev;
	case NV_M_IOPS_SMIN: return &ds->iops_samples.min;
	case NV_M_IOPS_SMAX: return &ds->iops_samples.max;
	case NV_M_IOPS_SMEAN: return &ds->iops_samples.mean;
	case NV_M_IOPS_SDEV: return &ds->iops_samples.dev;
	default:
		return NULL;
	}
}

int nv_metric_value_prec(const struct nv_dirstat *ds, const struct nv_latstat *exact,
			 enum nv_metric m, enum nv_latkind lat, double *v, double *prec,
			 unsigned char *cut)
{
	const struct nv_latstat *ls = &ds->lat[(unsigned)lat < NV_LAT_NR ? lat : NV_LAT_CLAT];
	const struct nv_val *val;

	if (exact && ls == &ds->lat[NV_LAT_CLAT])
		ls = exact;	/* the traces' values, where there are */
	if (!ds->present)
		return NV_SRC_NONE;
	if (prec) {
		*prec = 0;
		*cut = NV_CUT_ROUND;
	}
	if (m == NV_M_IO_BYTES) {
		if (!ds->have_io_bytes)
			return NV_SRC_NONE;
		*v = (double)ds->io_bytes;
		return NV_SRC_FIO;
	}
	val = metric_val(ds, ls, m);
	if (!val || val->src == NV_SRC_NONE)
		return NV_SRC_NONE;
	*v = metric_scale(m, val->v);
	if (prec) {
		*prec = metric_scale(m, val->prec);
		*cut = val->cut;
	}
	return val->src;
}

int nv_job_metric_value(const struct nv_job *j, enum nv_metric m, double *v, double *prec,
			unsigned char *cut)
{
	const struct nv_val *val;

	switch (m) {
	case NV_M_USR_CPU: val = &j->x.usr_cpu; break;
	case NV_M_SYS_CPU: val = &j->x.sys_cpu; break;
	case NV_M_CTX:     val = &j->x.ctx; break;
	case NV_M_MAJF:    val = &j->x.majf; break;
	case NV_M_MINF:    val = &j->x.minf; break;
	case NV_M_ERROR:
		*v = j->error;
		*prec = 0;
		*cut = NV_CUT_ROUND;
		return j->have_error ? NV_SRC_FIO : NV_SRC_NONE;
	default:
		return NV_SRC_NONE;
	}
	*v = val->v;
	*prec = val->prec;
	*cut = val->cut;
	return val->src;
}

int nv_metric_value(const struct nv_dirstat *ds, const struct nv_latstat *exact, enum nv_metric m,
		    enum nv_latkind lat, double *v)
{
	return nv_metric_value_prec(ds, exact, m, lat, v, NULL, NULL);
}

int nv_metric_value_fio(const struct nv_dirstat *ds, enum nv_metric m, enum nv_latkind lat,
			double *v)
{
	return nv_metric_value_prec(ds, NULL, m, lat, v, NULL, NULL);
}

double nv_cost_per_kiops(double usd_per_hour, double iops)
{
	return iops > 0 ? usd_per_hour / (iops / 1000) : NAN;
}

double nv_cost_per_gbps(double usd_per_hour, double mbps)
{
	return nv_cost_per_kiops(usd_per_hour, mbps);	/* the same: per 1000 of the rate */
}

enum nv_metric nv_level_metric(double p)
{
	for (unsigned m = NV_M_P50; m <= NV_M_P9999; m++)
		if (nv_pctl_same(nv_metric((enum nv_metric)m)->pct->value, p))
			return (enum nv_metric)m;
	return NV_M_PCTL;
}

bool nv_level_above_max(const struct nv_job *j, enum nv_dir d, enum nv_latkind lat, double v)
{
	const struct nv_val *max = &j->dir[d].lat[lat].max;

	return max->src == NV_SRC_FIO && v > max->v;
}

int nv_level_value(const struct nv_source *src, enum nv_dir d, enum nv_latkind lat, double p,
		   bool fio, double *v)
{
	const struct nv_dirstat *ds = &src->job->dir[d];
	int got;

	if (!ds->present || (unsigned)lat >= NV_LAT_NR)
		return NV_SRC_NONE;
	if (!fio && lat == NV_LAT_CLAT && (got = nv_jobjoin_level(src->traces, d, p, v)))
		return got;
	return nv_pctl_fio_value(&ds->lat[lat], p, v);
}
