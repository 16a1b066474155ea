/*
 * fiojson_dir.c - one direction of a fio JSON job (fiojson.c): the names of
 * directions and latency kinds, whether a direction ran; its counts,
 * bandwidth and IOPS with their samples, its latencies (slat, clat, lat in
 * ns or us) with percentiles and bins; and the JSON numbers every part of
 * the reader takes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <jansson.h>

#include "analyze/common.h"
#include "analyze/input/fiojson.h"
#include "analyze/input/fioladder.h"
#include "analyze/input/fiojson_parts.h"

/* ---- names ------------------------------------------------------------ */

static const char *const dir_names[NV_DIR_NR] = {
	[NV_DIR_READ] = "read",
	[NV_DIR_WRITE] = "write",
	[NV_DIR_TRIM] = "trim",
	[NV_DIR_SYNC] = "sync",
	[NV_DIR_MIXED] = "mixed",
};

static const char *const lat_names[NV_LAT_NR] = {
	[NV_LAT_SLAT] = "slat",
	[NV_LAT_CLAT] = "clat",
	[NV_LAT_TOTAL] = "lat",
};

const char *nv_dir_name(enum nv_dir d)
{
	return (unsigned)d < NV_DIR_NR ? dir_names[d] : "?";
}

int nv_dir_parse(const char *s, enum nv_dir *d)
{
	for (unsigned i = 0; i < NV_DIR_NR; i++) {
		if (!strcmp(s, dir_names[i])) {
			*d = (enum nv_dir)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *nv_latkind_name(enum nv_latkind k)
{
	return (unsigned)k < NV_LAT_NR ? lat_names[k] : "?";
}

int nv_latkind_parse(const char *s, enum nv_latkind *k)
{
	for (unsigned i = 0; i < NV_LAT_NR; i++) {
		if (!strcmp(s, lat_names[i])) {
			*k = (enum nv_latkind)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool nv_dir_has_lat(const struct nv_dirstat *ds)
{
	for (unsigned k = 0; k < NV_LAT_NR; k++)
		if (ds->lat[k].mean.src || ds->lat[k].max.src)
			return true;
	return false;
}

bool nv_dir_active(const struct nv_dirstat *ds)
{
	if (!ds->present)
		return false;
	if (nv_dir_has_lat(ds))
		return true;
	if (ds->have_ios)
		return ds->ios > 0;
	return ds->io_bytes > 0 || (ds->iops.src && ds->iops.v > 0);
}

/* ---- numbers ----------------------------------------------------------- */

/* A number member (integer or real) of o; false if absent or not a number. */
bool fj_get_num(const json_t *o, const char *key, double *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_number(x))
		return false;
	*v = json_number_value(x);
	return isfinite(*v);
}

/* A non-negative integer member, exact; an integral real is accepted too. */
bool fj_get_u64(const json_t *o, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (json_is_integer(x) && json_integer_value(x) >= 0) {
		*v = (uint64_t)json_integer_value(x);
		return true;
	}
	if (json_is_real(x) && json_real_value(x) >= 0 && json_real_value(x) < 1.8e19 &&
	    json_real_value(x) == floor(json_real_value(x))) {
		*v = (uint64_t)json_real_value(x);
		return true;
	}
	return false;
}

bool nv_fio_val_agrees(const struct nv_val *t, const struct nv_val *j)
{
	if (!t->src || !j->src)
		return true;
	return fabs(t->v - j->v) <=
	       t->prec + j->prec + NV_FIO_JSON_REAL_PREC + 1e-9 * fabs(j->v) + 1e-9;
}

/* *val set to v, from fio.  Return: nothing. */
void fj_set_val(struct nv_val *val, double v)
{
	val->v = v;
	val->src = NV_SRC_FIO;
}

/* ---- one direction ----------------------------------------------------- */

/*
 * The percentile object: keys are fio's "%f" of the percentile ("99.900000",
 * old fio also "0.00" duplicates), values the latency in the object's unit.
 * Only the percentiles in nv_pcts (common.h) are kept; others are ignored.
 */
static int cmp_pctpt(const void *a, const void *b)
{
	const struct nv_pctpt *x = a, *y = b;

	return (x->pct > y->pct) - (x->pct < y->pct);
}

static int cmp_bin(const void *a, const void *b)
{
	const struct nv_bin *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

/*
 * fio's "percentile" object: the whole list (ls->points) and the table's
 * percentiles.  Nothing is dropped: without memory for the list, nothing.
 * Return: 0 or -ENOMEM.
 */
static int parse_percentiles(const json_t *po, double mult, struct nv_latstat *ls)
{
	const char *k;
	json_t *v;

	ls->points = calloc(json_object_size(po) + 1, sizeof(*ls->points));
	if (!ls->points)
		return -ENOMEM;
	json_object_foreach((json_t *)po, k, v) {
		char *end;
		double p = strtod(k, &end);

		if (*end || p <= 0 || p > 100 || !json_is_number(v))
			continue;
		ls->points[ls->npoints].pct = p;
		ls->points[ls->npoints++].ns = json_number_value(v) * mult;
		for (unsigned i = 0; i < NV_PCT_NR; i++)
			if (fabs(p - nv_pcts[i].value) < 1e-6)
				fj_set_val(&ls->pct[i], json_number_value(v) * mult);
	}
	qsort(ls->points, ls->npoints, sizeof(*ls->points), cmp_pctpt);
	return 0;
}

/*
 * json+ "bins": {"VALUE": count, ...}, VALUE in the object's unit.
 * Return: 0 or -ENOMEM.
 */
static int parse_bins(const json_t *bo, double mult, struct nv_latstat *ls)
{
	const char *k;
	json_t *v;

	ls->bins = calloc(json_object_size(bo) + 1, sizeof(*ls->bins));
	if (!ls->bins)
		return -ENOMEM;
	json_object_foreach((json_t *)bo, k, v) {
		char *end;
		double ns = strtod(k, &end) * mult;

		if (*end || ns < 0 || !json_is_integer(v) || json_integer_value(v) <= 0)
			continue;
		ls->bins[ls->nbins].ns = ns;
		ls->bins[ls->nbins++].count = (uint64_t)json_integer_value(v);
	}
	qsort(ls->bins, ls->nbins, sizeof(*ls->bins), cmp_bin);
	return 0;
}

int nv_fio_bin_range(double ns, double *lo, double *hi)
{
	uint64_t v = (uint64_t)ns, half;
	unsigned e;

	if (!(ns >= 0) || ns != (double)v || ns >= 1.8e19)
		return -EINVAL;
	if (v < 128) {
		*lo = *hi = ns;
		return 0;
	}
	e = 63u - (unsigned)__builtin_clzll(v) - 6;	/* bin width 2^e, e >= 1 */
	half = 1ull << (e - 1);
	if ((v - half) % (1ull << e))
		return -EINVAL;		/* not the middle of a bin */
	*lo = (double)(v - half);
	*hi = (double)(v - half + (1ull << e) - 1);
	return 0;
}

/*
 * One latency object of a direction.  Missing (left NV_SRC_NONE) when the
 * object is absent, fio says N = 0, or (old fio, no "N") the direction had
 * no IOs or min, max and mean are all zero: the statistic was not collected.
 * N > 0 is read whatever the IO count: fio's sync direction of an
 * fdatasync= run says total_ios 0 but holds the fdatasync latencies.
 * Return: 0 or -ENOMEM.
 */
static int parse_lat(const json_t *dobj, enum nv_latkind k, bool active, struct nv_latstat *ls)
{
	char key[16];
	double mult = 1, min = 0, max = 0, mean = 0, v;
	uint64_t n;
	json_t *o;

	snprintf(key, sizeof(key), "%s_ns", lat_names[k]);
	o = json_object_get(dobj, key);
	if (!json_is_object(o)) {
		o = json_object_get(dobj, lat_names[k]);
		mult = 1000;
	}
	if (!json_is_object(o))
		return 0;
	if (fj_get_u64(o, "N", &n)) {
		if (n == 0)
			return 0;
	} else {
		if (!active)
			return 0;
		fj_get_num(o, "min", &min);
		fj_get_num(o, "max", &max);
		fj_get_num(o, "mean", &mean);
		if (min == 0 && max == 0 && mean == 0)
			return 0;
	}
	if (fj_get_num(o, "min", &v))
		fj_set_val(&ls->min, v * mult);
	if (fj_get_num(o, "max", &v))
		fj_set_val(&ls->max, v * mult);
	if (fj_get_num(o, "mean", &v))
		fj_set_val(&ls->mean, v * mult);
	if (fj_get_num(o, "stddev", &v))
		fj_set_val(&ls->stdev, v * mult);
	if (json_is_object(json_object_get(o, "bins")) &&
	    parse_bins(json_object_get(o, "bins"), mult, ls))
		return -ENOMEM;
	o = json_object_get(o, "percentile");
	if (json_is_object(o))
		return parse_percentiles(o, mult, ls);
	return 0;
}

/*
 * io_bytes is bytes when fio also prints io_kbytes; before that (fio 2.x) it
 * was KiB.  Without io_kbytes, cross-check against bw (KiB/s) * runtime (ms)
 * and take the unit that fits; with nothing to check against, KiB.
 */
static uint64_t dir_io_bytes(const json_t *d)
{
	uint64_t b = 0, kb;
	double bw, rt;

	fj_get_u64(d, "io_bytes", &b);
	if (fj_get_u64(d, "io_kbytes", &kb))
		return b;
	if (fj_get_num(d, "bw", &bw) && fj_get_num(d, "runtime", &rt) && bw > 0 && rt > 0) {
		double kib = bw * rt / 1000.0;

		if (fabs((double)b - kib * 1024) < fabs((double)b - kib))
			return b;
	}
	return b * 1024;
}

/*
 * fio's samples of bandwidth (KiB/s: mult 1024) or IOPS: PREFIX_min, _max,
 * _mean, the deviation under devkey, PREFIX_samples.  fio 2.x prints the
 * bandwidth ones without samples and zeros for a direction without IO.
 * With PREFIX_samples 0 (a run shorter than one sample) the zeros fio
 * prints are no statistics: all stay missing.
 */
static void parse_samples(const json_t *d, const char *prefix, const char *devkey, double mult,
			  struct nv_samples *s)
{
	static const char *const sfx[] = { "_min", "_max", "_mean" };
	struct nv_val *dst[] = { &s->min, &s->max, &s->mean };
	char key[32];
	double v;

	snprintf(key, sizeof(key), "%s_samples", prefix);
	if (fj_get_num(d, key, &v) && v == 0)
		return;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, sfx[i]);
		if (fj_get_num(d, key, &v))
			fj_set_val(dst[i], v * mult);
	}
	if (fj_get_num(d, devkey, &v))
		fj_set_val(&s->dev, v * mult);
	snprintf(key, sizeof(key), "%s_samples", prefix);
	if (fj_get_num(d, key, &v))
		fj_set_val(&s->n, v);
}

/* One direction's object.  Return: 0 or -ENOMEM. */
int fj_parse_dir(const json_t *d, struct nv_dirstat *ds)
{
	double v;

	ds->present = true;
	ds->have_ios = fj_get_u64(d, "total_ios", &ds->ios);
	ds->have_io_bytes = json_object_get(d, "io_bytes") != NULL;
	ds->io_bytes = dir_io_bytes(d);
	if (fj_get_num(d, "runtime", &v))
		fj_set_val(&ds->runtime_ms, v);
	parse_samples(d, "bw", "bw_dev", 1024, &ds->bw_samples);
	parse_samples(d, "iops", "iops_stddev", 1, &ds->iops_samples);
	if (fj_get_num(d, "iops", &v))
		fj_set_val(&ds->iops, v);
	if (fj_get_num(d, "bw_bytes", &v))
		fj_set_val(&ds->bw, v);
	else if (fj_get_num(d, "bw", &v)) {
		/* whole KiB/s, fio's integer division: up to 1 KiB/s below */
		fj_set_val(&ds->bw, v * 1024);
		ds->bw.prec = 1024;
	}
	for (unsigned k = 0; k < NV_LAT_NR; k++)
		if (parse_lat(d, (enum nv_latkind)k, nv_dir_active(ds), &ds->lat[k]))
			return -ENOMEM;
	return 0;
}

/*
 * fio's latency buckets: "latency_ns" (fio >= 3), "latency_us", "latency_ms"
 * map an upper edge in the object's unit ("250") or ">=2000" to a share in
 * %, onto fio's ladder (fioladder.h; its ns rungs when "latency_ns" is
 * there).  A key that is no rung of the ladder (no fio writes one) is not
 * a bucket and is left out.  0 or -ENOMEM (fiojson_parts.h).
 */
int fj_parse_buckets(const json_t *e, struct nv_jobextra *x)
{
	static const struct { const char *key; double mult; } objs[] = {
		{ "latency_ns", 1 }, { "latency_us", 1e3 }, { "latency_ms", 1e6 },
	};
	size_t n = 0;

	for (unsigned i = 0; i < 3; i++)
		n += json_object_size(json_object_get(e, objs[i].key));
	if (!n)
		return 0;
	if (nv_fio_ladder_init(x, json_object_get(e, "latency_ns") != NULL))
		return -ENOMEM;
	for (unsigned i = 0; i < 3; i++) {
		const char *k;
		json_t *v;

		json_object_foreach(json_object_get(e, objs[i].key), k, v) {
			bool ge = !strncmp(k, ">=", 2);
			char *end;
			double edge = strtod(ge ? k + 2 : k, &end) * objs[i].mult;

			if (!*end && edge > 0 && json_is_number(v))
				nv_fio_ladder_set(x, edge, ge, json_number_value(v));
		}
	}
	return 0;
}
