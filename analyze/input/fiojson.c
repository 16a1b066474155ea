/*
 * fiojson.c - read fio's JSON output (fio 2.x .. 3.4x) into struct nv_run.
 *
 * The quirks handled, by fio version and origin:
 *  - latency objects "slat"/"clat"/"lat" in microseconds (fio < 2.99) or
 *    "slat_ns"/"clat_ns"/"lat_ns" in nanoseconds; both become nanoseconds;
 *  - "io_bytes" in KiB (old fio, no "io_kbytes") or bytes; "bw" in KiB/s,
 *    "bw_bytes" in bytes/s (fio >= 3.2); "iops" an integer or a float;
 *  - duplicate "0.00" keys in "percentile" (fio <= 3.3; the parser keeps
 *    the last, and percentiles <= 0 are ignored anyway); absent percentile
 *    objects, or percentile lists without a value we show: left missing;
 *  - "jobs" (local) or "client_stats" (client/server, with "hostname" and
 *    an "All clients" aggregate); "job options"/"global options" as an
 *    object or an array of per-host objects;
 *  - framing: text before the JSON (fio's warnings), text after it
 *    (json,normal), several objects (status-interval snapshots: the last is
 *    used), a UTF-8 or UTF-16 byte order mark (Windows redirections).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <jansson.h>

#include "analyze/common.h"
#include "analyze/input/fiojson.h"
#include "analyze/input/readfile.h"


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

bool nv_dir_active(const struct nv_dirstat *ds)
{
	if (!ds->present)
		return false;
	if (ds->have_ios)
		return ds->ios > 0;
	return ds->io_bytes > 0 || (ds->iops.src && ds->iops.v > 0);
}

bool nv_run_is_fio(const struct nv_run *run)
{
	return !run->format || !strncmp(run->format, "fio", 3);
}

#define run_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/* ---- numbers ----------------------------------------------------------- */

/* A number member (integer or real) of o; false if absent or not a number. */
static bool get_num(const json_t *o, const char *key, double *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_number(x))
		return false;
	*v = json_number_value(x);
	return isfinite(*v);
}

/* A non-negative integer member, exact; an integral real is accepted too. */
static bool get_u64(const json_t *o, const char *key, uint64_t *v)
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

static void set_val(struct nv_val *val, double v)
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
				set_val(&ls->pct[i], json_number_value(v) * mult);
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
 * object is absent, the direction had no IOs, fio says N = 0, or (old fio,
 * no "N") min, max and mean are all zero: the statistic was not collected.
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
	if (!json_is_object(o) || !active)
		return 0;
	if (get_u64(o, "N", &n)) {
		if (n == 0)
			return 0;
	} else {
		get_num(o, "min", &min);
		get_num(o, "max", &max);
		get_num(o, "mean", &mean);
		if (min == 0 && max == 0 && mean == 0)
			return 0;
	}
	if (get_num(o, "min", &v))
		set_val(&ls->min, v * mult);
	if (get_num(o, "max", &v))
		set_val(&ls->max, v * mult);
	if (get_num(o, "mean", &v))
		set_val(&ls->mean, v * mult);
	if (get_num(o, "stddev", &v))
		set_val(&ls->stdev, v * mult);
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

	get_u64(d, "io_bytes", &b);
	if (get_u64(d, "io_kbytes", &kb))
		return b;
	if (get_num(d, "bw", &bw) && get_num(d, "runtime", &rt) && bw > 0 && rt > 0) {
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
	if (get_num(d, key, &v) && v == 0)
		return;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, sfx[i]);
		if (get_num(d, key, &v))
			set_val(dst[i], v * mult);
	}
	if (get_num(d, devkey, &v))
		set_val(&s->dev, v * mult);
	snprintf(key, sizeof(key), "%s_samples", prefix);
	if (get_num(d, key, &v))
		set_val(&s->n, v);
}

/* One direction's object.  Return: 0 or -ENOMEM. */
static int parse_dir(const json_t *d, struct nv_dirstat *ds)
{
	double v;

	ds->present = true;
	ds->have_ios = get_u64(d, "total_ios", &ds->ios);
	ds->have_io_bytes = json_object_get(d, "io_bytes") != NULL;
	ds->io_bytes = dir_io_bytes(d);
	if (get_num(d, "runtime", &v))
		set_val(&ds->runtime_ms, v);
	parse_samples(d, "bw", "bw_dev", 1024, &ds->bw_samples);
	parse_samples(d, "iops", "iops_stddev", 1, &ds->iops_samples);
	if (get_num(d, "iops", &v))
		set_val(&ds->iops, v);
	if (get_num(d, "bw_bytes", &v))
		set_val(&ds->bw, v);
	else if (get_num(d, "bw", &v))
		set_val(&ds->bw, v * 1024);
	for (unsigned k = 0; k < NV_LAT_NR; k++)
		if (parse_lat(d, (enum nv_latkind)k, nv_dir_active(ds), &ds->lat[k]))
			return -ENOMEM;
	return 0;
}

/* ---- one job ----------------------------------------------------------- */

/*
 * "job options" / "global options" may be an object, or (client mode in some
 * fio versions) an array of per-host objects: take the one whose "hostname"
 * matches, else the first without a hostname, else the first object.
 */
static const json_t *options_for(const json_t *o, const char *host)
{
	size_t i;
	json_t *e;

	if (json_is_object(o))
		return o;
	if (!json_is_array(o))
		return NULL;
	json_array_foreach(o, i, e) {
		const char *h = json_string_value(json_object_get(e, "hostname"));

		if (json_is_object(e) && host && h && !strcmp(h, host))
			return e;
	}
	json_array_foreach(o, i, e)
		if (json_is_object(e) && !json_object_get(e, "hostname"))
			return e;
	json_array_foreach(o, i, e)
		if (json_is_object(e))
			return e;
	return NULL;
}

static const char *option(const json_t *jopt, const json_t *gopt, const char *name)
{
	const char *s = json_string_value(json_object_get(jopt, name));

	return s ? s : json_string_value(json_object_get(gopt, name));
}

/* A short description of the workload: "rw=randread bs=4k iodepth=32 ...". */
static char *job_desc(const json_t *jopt, const json_t *gopt)
{
	static const char *const keys[] = { "rw",      "rwmixread", "bs",
					    "iodepth", "numjobs",   "ioengine" };
	char buf[512] = "";
	size_t len = 0;

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = option(jopt, gopt, keys[i]);
		int n;

		if (!v)
			continue;
		n = snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", len ? " " : "", keys[i], v);
		if (n < 0 || (size_t)n >= sizeof(buf) - len)
			break;
		len += (size_t)n;
	}
	return strdup(buf);
}

unsigned nv_fio_kb_base(const char *opt)
{
	return opt && !strcmp(opt, "1000") ? 1000 : 1024;
}

uint64_t nv_fio_bs_parse(const char *s, enum nv_dir d, unsigned kb)
{
	static const char *const units = "kmgtp";
	unsigned want = d == NV_DIR_WRITE ? 1 : d == NV_DIR_TRIM ? 2 : 0;
	const char *f = s;
	uint64_t bytes;
	char *end;
	double num;

	for (unsigned i = 0; i < want; i++) {
		const char *c = strchr(f, ',');

		if (!c)
			break;	/* a value not ended by a comma applies to the rest */
		f = c + 1;
	}
	if (!*f || *f == ',')
		return 4096;	/* an empty field: fio's default */
	num = strtod(f, &end);
	if (end == f || !(num > 0) || num > 1e18)
		return 0;
	bytes = (uint64_t)num;
	if (kb != 1000)
		kb = 1024;
	if (*end && strchr(units, tolower((unsigned char)*end))) {
		const char *u0 = strchr(units, tolower((unsigned char)*end));
		unsigned mult = kb;

		end++;
		if (tolower((unsigned char)end[0]) == 'i' && tolower((unsigned char)end[1]) == 'b') {
			mult = kb == 1000 ? 1024 : 1000;	/* "KiB": the other base (fio) */
			end += 2;
		} else if (tolower((unsigned char)*end) == 'i') {
			end++;		/* "Ki": fio reads the "k" alone */
		} else if (tolower((unsigned char)*end) == 'b') {
			end++;
		}
		for (const char *u = units; u <= u0; u++)
			bytes *= mult;
	}
	return *end && *end != ',' ? 0 : bytes;
}

/* rw= and bs= (also blocksize=) of a job, from its or the global options. */
static int job_options(const json_t *e, const json_t *gopts, const char *host, struct nv_job *job)
{
	const json_t *jo = options_for(json_object_get(e, "job options"), host);
	const json_t *go = options_for(gopts, host);
	const char *rw = option(jo, go, "rw"), *bs = option(jo, go, "bs");

	if (!rw)
		rw = option(jo, go, "readwrite");
	if (!bs)
		bs = option(jo, go, "blocksize");
	if (rw && !(job->rw = strdup(rw)))
		return -ENOMEM;
	for (unsigned d = 0; d < 3; d++)
		job->bs[d] = bs ? nv_fio_bs_parse(bs, (enum nv_dir)d,
						  nv_fio_kb_base(option(jo, go, "kb_base"))) : 0;
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct nv_latbucket *x = a, *y = b;

	return (x->hi_ns > y->hi_ns) - (x->hi_ns < y->hi_ns);
}

/*
 * fio's latency buckets: "latency_ns", "latency_us", "latency_ms" map an
 * upper edge in the object's unit ("250") or ">=2000" to a share in %.
 * Sorted by edge; each bucket starts at the edge before it (0 for the
 * first).  0 or -ENOMEM.
 */
static int parse_buckets(const json_t *e, struct nv_jobextra *x)
{
	static const struct { const char *key; double mult; } objs[] = {
		{ "latency_ns", 1 }, { "latency_us", 1e3 }, { "latency_ms", 1e6 },
	};
	size_t cap = 0;

	for (unsigned i = 0; i < 3; i++)
		cap += json_object_size(json_object_get(e, objs[i].key));
	if (!cap)
		return 0;
	x->buckets = calloc(cap, sizeof(*x->buckets));
	if (!x->buckets)
		return -ENOMEM;
	for (unsigned i = 0; i < 3; i++) {
		const char *k;
		json_t *v;

		json_object_foreach(json_object_get(e, objs[i].key), k, v) {
			bool ge = !strncmp(k, ">=", 2);
			char *end;
			double edge = strtod(ge ? k + 2 : k, &end) * objs[i].mult;

			if (*end || !(edge > 0) || !json_is_number(v))
				continue;
			x->buckets[x->nbuckets].lo_ns = ge ? edge : 0;
			x->buckets[x->nbuckets].hi_ns = ge ? INFINITY : edge;
			x->buckets[x->nbuckets++].pct = json_number_value(v);
		}
	}
	qsort(x->buckets, x->nbuckets, sizeof(*x->buckets), cmp_bucket);
	for (size_t i = 1; i < x->nbuckets; i++)
		if (isfinite(x->buckets[i].hi_ns))
			x->buckets[i].lo_ns = x->buckets[i - 1].hi_ns;
	return 0;
}

/* CPU, context switches, page faults and latency buckets of a job. */
static int parse_jobextra(const json_t *e, struct nv_jobextra *x)
{
	static const char *const keys[] = { "usr_cpu", "sys_cpu", "ctx", "majf", "minf" };
	struct nv_val *dst[] = { &x->usr_cpu, &x->sys_cpu, &x->ctx, &x->majf, &x->minf };
	double v;

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (get_num(e, keys[i], &v))
			set_val(dst[i], v);
	return parse_buckets(e, x);
}

static int parse_job(const json_t *e, const json_t *gopts, bool client, struct nv_job *job)
{
	const char *name = json_string_value(json_object_get(e, "jobname"));
	const char *host = client ? json_string_value(json_object_get(e, "hostname")) : NULL;
	double v;

	if (!name)
		name = "(unnamed)";
	if (host && !strcmp(name, "All clients"))
		host = NULL;	/* the aggregate carries the last client's hostname */
	job->name = strdup(name);
	job->host = host ? strdup(host) : NULL;
	job->desc = job_desc(options_for(json_object_get(e, "job options"), host),
			     options_for(gopts, host));
	if (!job->name || (host && !job->host) || !job->desc)
		return -ENOMEM;
	{
		const char *td = option(options_for(json_object_get(e, "job options"), host),
					options_for(gopts, host), "nv_trace");

		if (td && *td && !(job->trace_dir = strdup(td)))
			return -ENOMEM;
	}
	if (get_num(e, "groupid", &v))
		job->groupid = (int)v;
	if (get_num(e, "error", &v)) {
		job->error = (int)v;
		job->have_error = true;
	}
	if (job_options(e, gopts, host, job) || parse_jobextra(e, &job->x))
		return -ENOMEM;
	if (nv_jobmeta_parse(e, options_for(json_object_get(e, "job options"), host),
			     options_for(gopts, host), &job->meta))	/* load curves */
		return -ENOMEM;
	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		const json_t *dobj = json_object_get(e, dir_names[d]);

		if (json_is_object(dobj) && parse_dir(dobj, &job->dir[d]))
			return -ENOMEM;
	}
	return 0;
}

static const struct nv_run *sort_run;	/* qsort's context (cmp_same_job) */

/* Return: 0 when jobs i and k have the same name and host, else non-zero. */
static int cmp_same_name(const struct nv_run *run, size_t i, size_t k)
{
	const struct nv_job *x = &run->jobs[i], *y = &run->jobs[k];

	return strcmp(x->name, y->name) ||
	       strcmp(x->host ? x->host : "", y->host ? y->host : "");
}

/* Jobs by name, host, then position: a repeated name's jobs side by side. */
static int cmp_same_job(const void *a, const void *b)
{
	const struct nv_job *x = &sort_run->jobs[*(const size_t *)a];
	const struct nv_job *y = &sort_run->jobs[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->host ? x->host : "", y->host ? y->host : "");
	if (!c)
		c = (x > y) - (x < y);
	return c;
}

/*
 * " #1", " #2"... after the keys of jobs whose name (and host) occur more
 * than once, numbered in file order: sorted, not each against each, so
 * 10,000 jobs take milliseconds.  Return: 0 or -ENOMEM.
 */
static int number_repeats(struct nv_run *run)
{
	size_t *ix = malloc((run->njobs + 1) * sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < run->njobs; i++)
		ix[i] = i;
	sort_run = run;
	qsort(ix, run->njobs, sizeof(*ix), cmp_same_job);
	for (size_t a = 0, b; a < run->njobs; a = b) {
		for (b = a + 1; b < run->njobs && !cmp_same_name(run, ix[a], ix[b]); b++)
			;
		for (size_t i = a; b - a > 1 && i < b; i++) {
			char *k;

			if (asprintf(&k, "%s #%zu", run->jobs[ix[i]].key, i - a + 1) < 0) {
				free(ix);
				return -ENOMEM;
			}
			free(run->jobs[ix[i]].key);
			run->jobs[ix[i]].key = k;
		}
	}
	free(ix);
	return 0;
}

/*
 * Matching keys, unique within the run: the job name; "name@host" when a
 * client/server file has several hosts; and " #1", " #2"... appended to
 * names that occur more than once (numjobs without group_reporting).
 */
int nv_run_assign_keys(struct nv_run *run)
{
	const char *host0 = NULL;
	bool multihost = false;

	for (size_t i = 0; i < run->njobs; i++) {
		const char *h = run->jobs[i].host;

		if (h && host0 && strcmp(h, host0))
			multihost = true;
		if (h && !host0)
			host0 = h;
	}
	for (size_t i = 0; i < run->njobs; i++) {
		struct nv_job *j = &run->jobs[i];
		int r = multihost && j->host ? asprintf(&j->key, "%s@%s", j->name, j->host)
					     : asprintf(&j->key, "%s", j->name);
		if (r < 0) {
			j->key = NULL;
			return -ENOMEM;
		}
	}
	return number_repeats(run);
}

/* ---- framing ----------------------------------------------------------- */

static bool is_fio_object(const json_t *o)
{
	return json_is_object(o) &&
	       (json_is_array(json_object_get(o, "jobs")) ||
		json_is_array(json_object_get(o, "client_stats")));
}

static void line_col(const char *buf, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Length of the valid UTF-8 sequence at p[0..n) (1 to 4), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t need;
	unsigned lo = 0x80, hi = 0xbf;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		need = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		need = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		need = 4;
	else
		return 0;
	/* overlong forms, surrogates and values above U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < need || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return need;
}

/* Offset of the first byte at or after off that is not valid UTF-8, or len. */
static size_t first_bad_utf8(const char *buf, size_t len, size_t off)
{
	const unsigned char *u = (const unsigned char *)buf;

	while (off < len) {
		size_t k = utf8_seq(u + off, len - off);

		if (!k)
			return off;
		off += k;
	}
	return len;
}

/*
 * "path:line:col" of a jansson error in a parse that started at offset off
 * of buf (len bytes; jansson counts from its own start).  A column jansson
 * gives as 0 (at the end of input) is left out.  Bytes that are not UTF-8
 * jansson reports without a column (outside strings without a line): the
 * position is then that of the first such byte.
 */
static void err_pos(char *out, size_t n, const char *path, const char *buf, size_t len,
		    size_t off, const json_error_t *e)
{
	int line, col, el = e->line > 0 ? e->line : 1;
	size_t bad;

	if (json_error_code(e) == json_error_invalid_utf8 &&
	    (bad = first_bad_utf8(buf, len, off)) < len) {
		line_col(buf, bad, &line, &col);
		snprintf(out, n, "%s:%d:%d", path, line, col);
		return;
	}
	line_col(buf, off, &line, &col);
	line += el - 1;
	col = el == 1 ? col + e->column - 1 : e->column;
	if (e->column > 0)
		snprintf(out, n, "%s:%d:%d", path, line, col);
	else
		snprintf(out, n, "%s:%d", path, line);
}

/* Is offset i a place a JSON object may start: '{' first in its line? */
static bool line_start_brace(const char *buf, size_t i)
{
	if (buf[i] != '{')
		return false;
	while (i > 0 && (buf[i - 1] == ' ' || buf[i - 1] == '\t'))
		i--;
	return i == 0 || buf[i - 1] == '\n' || buf[i - 1] == '\r';
}

/*
 * Convert a UTF-16 buffer (after its BOM) to UTF-8.  Windows PowerShell's
 * ">" writes fio's output that way.  Returns a malloc'ed buffer or NULL.
 */
static char *utf16_to_utf8(const unsigned char *p, size_t len, bool be, size_t *outlen)
{
	char *out = malloc(len / 2 * 3 + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint32_t c =
			be ? (uint32_t)(p[i] << 8 | p[i + 1]) : (uint32_t)(p[i + 1] << 8 | p[i]);

		if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
			uint32_t c2 = be ? (uint32_t)(p[i + 2] << 8 | p[i + 3])
					 : (uint32_t)(p[i + 3] << 8 | p[i + 2]);
			if (c2 >= 0xdc00 && c2 < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
				i += 2;
			}
		}
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = 0;
	*outlen = o;
	return out;
}

struct framing {
	json_t *last;		/* the object used (a reference) */
	unsigned objects, distinct;
	size_t before, after;	/* non-blank bytes outside the objects */
	json_error_t first_err;	/* the first parse error, if no object parsed */
	size_t first_err_off;
	bool have_err, first_not_fio, trailing_err;
	json_error_t trail_err;
	size_t trail_off;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Find the fio JSON objects in buf.  Every '{' is a candidate (fio's
 * messages, or a stray character, may precede the JSON on its line); each is
 * decoded with JSON_DISABLE_EOF_CHECK so that what follows it may be text or
 * another object.  Inner objects of a truncated file decode fine but are not
 * fio objects (no "jobs"/"client_stats"), so they are skipped.  After a
 * complete object, a failing candidate at the start of a line is reported as
 * an incomplete trailing object (an interrupted status-interval dump).  The
 * search stops at nesting too deep for jansson (crafted or damaged input).
 */
static void find_objects(const char *buf, size_t len, struct framing *f)
{
	size_t pos = 0, textstart = 0;

	while (pos < len) {
		json_error_t e;
		json_t *o;

		if (buf[pos] != '{') {
			pos++;
			continue;
		}
		o = json_loadb(buf + pos, len - pos, JSON_DISABLE_EOF_CHECK, &e);
		if (!o && json_error_code(&e) == json_error_stack_overflow) {
			/* Nested deeper than jansson goes (2048): so is every
			 * '{' inside, and trying each is quadratic.  No fio
			 * output looks like this; stop here. */
			if (!f->objects && !f->have_err) {
				f->first_err = e;
				f->first_err_off = pos;
				f->have_err = true;
			}
			break;
		}
		if (!is_fio_object(o)) {
			if (!o && !f->objects && !f->have_err) {
				f->first_err = e;
				f->first_err_off = pos;
				f->have_err = true;
			} else if (!o && f->objects && !f->trailing_err &&
				   line_start_brace(buf, pos)) {
				f->trail_err = e;
				f->trail_off = pos;
				f->trailing_err = true;
			} else if (o && !f->objects && !f->have_err) {
				f->first_not_fio = true;
			}
			json_decref(o);
			pos++;
			continue;
		}
		for (size_t i = textstart; i < pos; i++)
			if (!blank(buf[i]))
				*(f->objects ? &f->after : &f->before) += 1;
		f->objects++;
		if (!f->last || !json_equal(f->last, o))
			f->distinct++;
		json_decref(f->last);
		f->last = o;
		f->trailing_err = false;
		f->after = 0;
		pos += e.position;
		textstart = pos;
	}
	for (size_t i = textstart; i < len && f->objects; i++)
		if (!blank(buf[i]))
			f->after++;
}

static void framing_notes(struct nv_run *run, const char *buf, size_t len, const struct framing *f)
{
	char pos[512];

	if (f->before)
		run_note(run, "%s: %zu bytes of text before the JSON ignored (fio messages?)",
			 run->path, f->before);
	if (f->objects > 1 && f->distinct == 1)
		run_note(run, "%s: the same JSON object appears %u times; counted once",
			 run->path, f->objects);
	else if (f->objects > 1)
		run_note(run,
			 "%s: %u JSON objects (status-interval snapshots?); using the last one",
			 run->path, f->objects);
	if (f->trailing_err) {
		err_pos(pos, sizeof(pos), run->path, buf, len, f->trail_off, &f->trail_err);
		run_note(run, "%s: incomplete JSON object after the last complete one ignored: %s",
			 pos, f->trail_err.text);
	}
	if (f->after && !f->trailing_err)
		run_note(run, "%s: %zu bytes of text after the JSON ignored (json,normal output?)",
			 run->path, f->after);
}

static const char *const disk_fields[NV_DISK_NR] = {
	"read_ios", "write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks",
	"in_queue", "util",
};

static const char *const disk_keys[NV_DISK_NR] = {
	"read_ios", "write_ios", "read_merges", "write_merges", "read_ticks_ms",
	"write_ticks_ms", "in_queue_ms", "util_pct",
};

const char *nv_disk_field(unsigned i)
{
	return i < NV_DISK_NR ? disk_fields[i] : NULL;
}

const char *nv_disk_key(unsigned i)
{
	return i < NV_DISK_NR ? disk_keys[i] : NULL;
}

/*
 * fio's "disk_util" array.  An md array's aggregate of its members has the
 * same counters as "aggr_*", except that fio spells aggr_write_merge
 * without the s.  0 or -ENOMEM.
 */
static int parse_disks(const json_t *root, struct nv_run *run)
{
	const json_t *arr = json_object_get(root, "disk_util");
	size_t i;
	json_t *e;

	if (!json_array_size(arr))
		return 0;
	run->disks = calloc(json_array_size(arr), sizeof(*run->disks));
	if (!run->disks)
		return -ENOMEM;
	json_array_foreach(arr, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		struct nv_disk *dk = &run->disks[run->ndisks];
		double v;

		if (!json_is_object(e))
			continue;
		if (!(dk->name = strdup(name ? name : "?")))
			return -ENOMEM;
		run->ndisks++;
		for (unsigned f = 0; f < NV_DISK_NR; f++) {
			char key[40];

			if (get_num(e, disk_fields[f], &v))
				set_val(&dk->v[f], v);
			snprintf(key, sizeof(key), "aggr_%s",
				 f == NV_DISK_WRITE_MERGES ? "write_merge" : disk_fields[f]);
			if (get_num(e, key, &v)) {
				set_val(&dk->aggr_v[f], v);
				dk->aggr = true;
			}
		}
	}
	return 0;
}

static int parse_root(const json_t *root, struct nv_run *run)
{
	const json_t *arr = json_object_get(root, "client_stats");
	const json_t *gopts = json_object_get(root, "global options");
	const char *ver = json_string_value(json_object_get(root, "fio version"));
	size_t i;
	json_t *e;
	char *dump;

	run->client = json_is_array(arr);
	if (!run->client)
		arr = json_object_get(root, "jobs");
	run->fio_version = strdup(ver ? ver : "unknown");
	run->jobs = calloc(json_array_size(arr) + 1, sizeof(*run->jobs));
	if (!run->fio_version || !run->jobs)
		return -ENOMEM;
	json_array_foreach(arr, i, e) {
		if (!json_is_object(e))
			continue;
		run->njobs++;
		if (parse_job(e, gopts, run->client, &run->jobs[run->njobs - 1]))
			return -ENOMEM;
	}
	if (parse_disks(root, run))
		return -ENOMEM;
	dump = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
	run->digest = dump ? nv_hash(dump, strlen(dump)) : 0;
	free(dump);
	return nv_run_assign_keys(run);
}

int nv_fio_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		 char *err, size_t errlen)
{
	const unsigned char *u = (const unsigned char *)buf;
	struct framing f = { 0 };
	char *conv = NULL;
	int ret;

	memset(run, 0, sizeof(*run));
	run->path = strdup(path);
	if (!run->path) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
		conv = utf16_to_utf8(u + 2, len - 2, u[0] == 0xfe, &len);
		if (!conv) {
			snprintf(err, errlen, "%s: out of memory converting UTF-16", path);
			nv_run_free(run);
			return -ENOMEM;
		}
		buf = conv;
	} else if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		buf += 3;
		len -= 3;
	}
	find_objects(buf, len, &f);
	if (!f.objects) {
		ret = -EINVAL;
		if (f.have_err) {
			char pos[512];

			err_pos(pos, sizeof(pos), path, buf, len, f.first_err_off, &f.first_err);
			snprintf(err, errlen, "%s: not valid JSON: %s", pos, f.first_err.text);
		} else if (f.first_not_fio) {
			snprintf(err, errlen,
				 "%s: JSON but not fio output (no \"jobs\" or \"client_stats\" "
				 "array)", path);
		} else {
			snprintf(err, errlen, "%s: %s", path,
				 len ? "no JSON object found (not fio --output-format=json output?)"
				     : "empty file");
		}
		goto out;
	}
	framing_notes(run, buf, len, &f);
	ret = parse_root(f.last, run);
	if (ret)
		snprintf(err, errlen, "%s: out of memory", path);
	else
		run->objects = f.objects;
out:
	json_decref(f.last);
	free(conv);
	if (ret)
		nv_run_free(run);
	return ret;
}

const char *nv_job_file(const struct nv_run *run, const struct nv_job *job)
{
	return job->part < run->nparts ? run->parts[job->part] : run->path;
}

void nv_run_free(struct nv_run *run)
{
	for (size_t i = 0; i < run->njobs; i++) {
		free(run->jobs[i].name);
		free(run->jobs[i].host);
		free(run->jobs[i].key);
		free(run->jobs[i].desc);
		free(run->jobs[i].trace_dir);
		nv_jobmeta_free(&run->jobs[i].meta);
		free(run->jobs[i].rw);
		free(run->jobs[i].x.buckets);
		for (unsigned d = 0; d < NV_DIR_NR; d++)
			for (unsigned k = 0; k < NV_LAT_NR; k++) {
				free(run->jobs[i].dir[d].lat[k].bins);
				free(run->jobs[i].dir[d].lat[k].points);
			}
	}
	for (size_t i = 0; i < run->ndisks; i++)
		free(run->disks[i].name);
	free(run->disks);
	for (size_t i = 0; i < run->nnotes; i++)
		free(run->notes[i]);
	free(run->notes);
	for (size_t i = 0; i < run->nparts; i++)
		free(run->parts[i]);
	free(run->parts);
	free(run->jobs);
	free(run->path);
	free(run->fio_version);
	free(run->desc);
	memset(run, 0, sizeof(*run));
}
