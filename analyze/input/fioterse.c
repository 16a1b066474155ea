/*
 * fioterse.c - fio's terse output (versions 2, 3, 4, 5) into a struct nv_run.
 *
 * The reference is fio's stat.c, show_thread_status_terse_all and
 * show_ddir_status_terse: one line a job,
 *   3;fio-3.33;NAME;GROUPID;ERROR;<read>;<write>[;<trim>];CPU...;DEPTHS...;
 *   LAT_US...;LAT_MS...[;DISK;...[;slaves;...]][;ERRORS][;DESCRIPTION]
 * (version 2 has no fio version field; versions 2, 4 and 5 have trim, 3 not;
 * unified_rw_reporting prints one "mixed" direction).  A direction is
 *   io KiB;bw KiB/s;iops;runtime ms; slat min;max;mean;dev (usec);
 *   clat (4, usec); 20 percentiles "P%=V" (usec); lat (4, usec);
 *   bw min;max;agg%;mean;dev (KiB/s) [v5: ;bw samples;iops min;max;mean;
 *   dev;samples].
 * fio truncates the integers it prints (iops, KiB, min, max and the
 * percentiles in usec): the true value lies up to one unit above them
 * (NV_CUT_DOWN); the means print with six decimals.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/fioladder.h"
#include "analyze/input/fioterse.h"
#include "analyze/input/fiotext.h"

#define TD_BASE 41	/* fields of a direction, versions 2-4 */
#define TD_V5 47
#define TD_PCTS 20
#define TD_TAIL 34	/* cpu 5, IO depths 7, usec buckets 10, msec buckets 12 */

struct td_line {
	char **f;
	size_t n;
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
};

static int td_fail(struct td_line *t, size_t i, const char *what)
{
	snprintf(t->err, t->errlen, "%s:%u: field %zu (\"%.30s\") %s", t->path, t->line, i + 1,
		 i < t->n ? t->f[i] : "", what);
	return -EINVAL;
}

/* Field i as a number (a '%' at its end allowed when pct). */
static int td_num(struct td_line *t, size_t i, bool pct, double *v)
{
	char *e;

	if (i >= t->n || !t->f[i][0])
		return td_fail(t, i, "is missing");
	*v = strtod(t->f[i], &e);
	if (pct && *e == '%')
		e++;
	if (*e || !isfinite(*v) || *v < 0)
		return td_fail(t, i, "is not a number");
	return 0;
}

/* Field i times mult; prec one unit (prec == mult) is a truncated integer. */
static int td_val(struct td_line *t, size_t i, double mult, double prec, struct nv_val *out)
{
	double v;
	int r = td_num(t, i, true, &v);	/* CPU and agg fields end with '%' */

	if (!r)
		*out = (struct nv_val){ v * mult, NV_SRC_FIO, (float)prec,
					prec > 0 && prec == mult ? NV_CUT_DOWN : NV_CUT_ROUND };
	return r;
}

/* min;max;mean;dev in usec at i; all zero means the kind was not measured. */
static int td_lat(struct td_line *t, size_t i, struct nv_latstat *ls)
{
	struct nv_val *dst[4] = { &ls->min, &ls->max, &ls->mean, &ls->stdev };
	double any = 0;
	int r = 0;

	for (unsigned k = 0; k < 4 && !r; k++) {
		r = td_val(t, i + k, 1e3, k < 2 ? 1e3 : 5e-4, dst[k]);
		any += dst[k]->v;
	}
	if (!r && any == 0)
		for (unsigned k = 0; k < 4; k++)
			*dst[k] = (struct nv_val){ 0 };
	return r;
}

/* The 20 "P%=V" fields at i ("0%=0": unused) into ls. */
static int td_pcts(struct td_line *t, size_t i, struct nv_latstat *ls)
{
	ls->points = calloc(TD_PCTS, sizeof(*ls->points));
	if (!ls->points)
		return -ENOMEM;
	for (size_t k = 0; k < TD_PCTS; k++) {
		char *e, *eq = i + k < t->n ? strchr(t->f[i + k], '=') : NULL;
		double p, v;

		if (!eq)
			return td_fail(t, i + k, "is not a percentile (P%=V)");
		p = strtod(t->f[i + k], &e);
		if (*e != '%' || e + 1 != eq)
			return td_fail(t, i + k, "is not a percentile (P%=V)");
		v = strtod(eq + 1, &e);
		if (*e || !isfinite(v))
			return td_fail(t, i + k, "has a value that is not a number");
		if (!(p > 0 && p <= 100))
			continue;
		ls->points[ls->npoints++] = (struct nv_pctpt){ p, v * 1e3 };
		for (unsigned l = 0; l < NV_PCT_NR; l++)
			if (fabs(p - nv_pcts[l].value) < 1e-6)
				ls->pct[l] = (struct nv_val){ v * 1e3, NV_SRC_FIO, 1e3,
							      NV_CUT_DOWN };
	}
	return 0;
}

static int td_dir(struct td_line *t, size_t i, int ver, struct nv_dirstat *ds)
{
	double kib;
	int r = td_num(t, i, false, &kib);

	ds->present = true;
	ds->have_io_bytes = !r;
	ds->io_bytes = (uint64_t)kib * 1024;
	if (!r)
		r = td_val(t, i + 1, 1024, 1024, &ds->bw);
	if (!r)
		r = td_val(t, i + 2, 1, 1, &ds->iops);
	if (!r)
		r = td_val(t, i + 3, 1, 0, &ds->runtime_ms);
	if (!r)
		r = td_lat(t, i + 4, &ds->lat[NV_LAT_SLAT]);
	if (!r)
		r = td_lat(t, i + 8, &ds->lat[NV_LAT_CLAT]);
	if (!r)
		r = td_pcts(t, i + 12, &ds->lat[NV_LAT_CLAT]);
	if (!r)
		r = td_lat(t, i + 32, &ds->lat[NV_LAT_TOTAL]);
	if (!r)
		r = td_val(t, i + 36, 1024, 0, &ds->bw_samples.min);
	if (!r)
		r = td_val(t, i + 37, 1024, 0, &ds->bw_samples.max);
	if (!r)
		r = td_val(t, i + 39, 1024, 5e-4, &ds->bw_samples.mean);
	if (!r)
		r = td_val(t, i + 40, 1024, 5e-4, &ds->bw_samples.dev);
	if (r || ver != 5)
		return r;
	r = td_val(t, i + 41, 1, 0, &ds->bw_samples.n);
	if (!r)
		r = td_val(t, i + 42, 1, 0, &ds->iops_samples.min);
	if (!r)
		r = td_val(t, i + 43, 1, 0, &ds->iops_samples.max);
	if (!r)
		r = td_val(t, i + 44, 1, 5e-7, &ds->iops_samples.mean);
	if (!r)
		r = td_val(t, i + 45, 1, 5e-7, &ds->iops_samples.dev);
	if (!r)
		r = td_val(t, i + 46, 1, 0, &ds->iops_samples.n);
	return r;
}

static bool td_is_pct(const struct td_line *t, size_t i)
{
	size_t l = i < t->n ? strlen(t->f[i]) : 0;

	return l > 1 && t->f[i][l - 1] == '%' && !strchr(t->f[i], '=');
}

/*
 * How many directions the line has: the usual (2 for version 3, else 3), or
 * one (unified_rw_reporting=mixed), or one more (=both): the one where the
 * CPU fields (two "N%") follow.  Return: the count, 0 if none fits.
 */
static unsigned td_ndirs(const struct td_line *t, size_t first, int ver)
{
	unsigned usual = ver == 3 ? 2 : 3, per = ver == 5 ? TD_V5 : TD_BASE;
	const unsigned tries[3] = { usual, 1, usual + 1 };

	for (unsigned k = 0; k < 3; k++) {
		size_t c = first + tries[k] * per;

		if (c + TD_TAIL <= t->n && td_is_pct(t, c) && td_is_pct(t, c + 1))
			return tries[k];
	}
	return 0;
}

/* ";name;8 counters;util%" blocks after the buckets, md's ";slaves;..." merged in. */
static int td_disks(struct td_line *t, size_t i, struct nv_run *run)
{
	while (i + 9 <= t->n && td_is_pct(t, i + 8)) {
		bool slaves = !strcmp(t->f[i], "slaves") && run->ndisks;
		struct nv_disk *dk;
		int r = 0;

		if (!slaves) {
			struct nv_disk *nd = realloc(run->disks, (run->ndisks + 1) * sizeof(*nd));

			if (!nd)
				return -ENOMEM;
			run->disks = nd;
			dk = &nd[run->ndisks];
			memset(dk, 0, sizeof(*dk));
			dk->name = strdup(t->f[i]);
			if (!dk->name)
				return -ENOMEM;
			run->ndisks++;
		} else {
			dk = &run->disks[run->ndisks - 1];
			dk->aggr = true;
		}
		for (unsigned k = 0; k < NV_DISK_NR && !r; k++) {
			struct nv_val *v = slaves ? &dk->aggr_v[k] : &dk->v[k];
			double x;

			r = td_num(t, i + 1 + k, k == NV_DISK_UTIL, &x);
			if (!r)
				*v = (struct nv_val){ x, NV_SRC_FIO, k == NV_DISK_UTIL ? 5e-3f : 0,
						      NV_CUT_ROUND };
		}
		if (r)
			return r;
		i += 9;
	}
	return 0;
}

/* Return: the index after the ";DEV;8 counters;util%" blocks that start at i. */
static size_t td_disks_end(const struct td_line *t, size_t i)
{
	while (i + 9 <= t->n && td_is_pct(t, i + 8))
		i += 9;
	return i;
}

static bool td_is_int(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

/*
 * The tail after the disk blocks at i: continue_on_error's ";ERRORS;FIRST"
 * (two integers) and the job's description= text, which may hold ';' (the
 * rest of the line).  Return: the description, "" if none, NULL on ENOMEM.
 */
static char *td_desc(const struct td_line *t, size_t i)
{
	size_t len = 0;
	char *d;

	if (i + 2 <= t->n && td_is_int(t->f[i]) && td_is_int(t->f[i + 1]))
		i += 2;
	for (size_t k = i; k < t->n; k++)
		len += strlen(t->f[k]) + 1;
	d = calloc(1, len + 1);
	for (size_t k = i; d && k < t->n; k++) {
		if (k > i)
			strcat(d, ";");
		strcat(d, t->f[k]);
	}
	return d;
}

/*
 * The 22 latency buckets at i (lat_2us ... lat_1000us, lat_2ms ...
 * lat_2000ms, lat_>=2000ms, "%3.2f%%"): fio's ladder without its ns rungs
 * (stat_calc_lat_nu adds them to lat_2us), fioladder.h; a job that did no
 * IO prints lat_2us as "-nan%" (0/0): 0.
 * Return: 0, -EINVAL naming the field, or -ENOMEM.
 */
static int td_buckets(struct td_line *t, size_t i, struct nv_jobextra *x)
{
	int r = nv_fio_ladder_init(x, false);

	for (size_t k = 0; !r && k < x->nbuckets; k++) {
		const char *f = i + k < t->n ? t->f[i + k] : "";

		if (!strcmp(f, "-nan%") || !strcmp(f, "nan%"))
			continue;	/* a job without IOs: fio's 0/0, no share */
		r = td_num(t, i + k, true, &x->buckets[k].pct);
	}
	return r;
}

static int td_job(struct td_line *t, struct nv_run *run, size_t *cap)
{
	int ver = atoi(t->f[0]);
	size_t h = ver == 2 ? 1 : 2, first = h + 3, per = ver == 5 ? TD_V5 : TD_BASE, c;
	static const enum nv_dir order[4] = { NV_DIR_READ, NV_DIR_WRITE, NV_DIR_TRIM,
					      NV_DIR_MIXED };
	unsigned nd = td_ndirs(t, first, ver);
	double gid, err;
	struct nv_job *j;
	int r;

	if (!nd)
		return td_fail(t, first, "starts directions whose count fits no terse layout "
					 "(cut or garbled line?)");
	if (run->njobs == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct nv_job *nj = realloc(run->jobs, nc * sizeof(*nj));

		if (!nj)
			return -ENOMEM;
		run->jobs = nj;
		*cap = nc;
	}
	j = &run->jobs[run->njobs];
	memset(j, 0, sizeof(*j));
	run->njobs++;
	j->name = strdup(t->f[h]);
	if (!j->name)
		return -ENOMEM;
	r = td_num(t, h + 1, false, &gid);
	if (!r)
		r = td_num(t, h + 2, false, &err);
	if (r)
		return r;
	j->groupid = (int)gid;
	j->error = (int)err;
	j->have_error = true;
	for (unsigned d = 0; d < nd && !r; d++) {
		enum nv_dir dir = nd == 1 ? NV_DIR_MIXED : order[d];

		if (ver == 3 && d == 2)
			dir = NV_DIR_MIXED;
		r = td_dir(t, first + d * per, ver, &j->dir[dir]);
	}
	c = first + nd * per;
	if (!r)
		r = td_val(t, c, 1, 5e-7, &j->x.usr_cpu);
	if (!r)
		r = td_val(t, c + 1, 1, 5e-7, &j->x.sys_cpu);
	if (!r)
		r = td_val(t, c + 2, 1, 0, &j->x.ctx);
	if (!r)
		r = td_val(t, c + 3, 1, 0, &j->x.majf);
	if (!r)
		r = td_val(t, c + 4, 1, 0, &j->x.minf);
	if (!r)
		r = td_buckets(t, c + 12, &j->x);
	if (!r && !run->ndisks)
		r = td_disks(t, c + TD_TAIL, run);
	if (!r && !(j->desc = td_desc(t, ver == 2 ? t->n : td_disks_end(t, c + TD_TAIL))))
		r = -ENOMEM;
	return r;
}

bool nv_fioterse_is_line(const char *line, size_t n)
{
	size_t semis = 0;

	if (n < 4 || line[0] < '2' || line[0] > '5' || line[1] != ';')
		return false;
	if (line[0] != '2' && strncmp(line + 2, "fio-", 4))
		return false;
	for (size_t i = 0; i < n; i++)
		semis += line[i] == ';';
	return semis >= 40;
}

bool nv_fioterse_sniff(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (nv_fioterse_is_line(p, n))
			return true;
		p += n + 1;
	}
	return false;
}

/* Split line at ';' in place into t->f. Return: 0 or -ENOMEM. */
static int td_split(char *line, struct td_line *t)
{
	size_t cap = 1;

	for (const char *c = line; *c; c++)
		cap += *c == ';';
	t->f = malloc(cap * sizeof(*t->f));
	if (!t->f)
		return -ENOMEM;
	t->n = 0;
	for (char *s = line;;) {
		char *semi = strchr(s, ';');

		t->f[t->n++] = s;
		if (!semi)
			break;
		*semi = '\0';
		s = semi + 1;
	}
	return 0;
}

/* Version 2's description, on the line after its job: ";TEXT" (n bytes). */
static int td_v2_desc(struct nv_job *j, const char *line, size_t n)
{
	if (n && line[n - 1] == '\r')
		n--;
	free(j->desc);
	j->desc = strndup(line + 1, n - 1);
	return j->desc ? 0 : -ENOMEM;
}

/*
 * The run's description: the jobs' description= texts, each once, in
 * file order, "; " between.  Return: 0, or -ENOMEM.
 */
static int td_run_desc(struct nv_run *run)
{
	size_t len = 1;

	for (size_t i = 0; i < run->njobs; i++)
		len += strlen(run->jobs[i].desc) + 2;
	run->desc = calloc(1, len);
	if (!run->desc)
		return -ENOMEM;
	for (size_t i = 0; i < run->njobs; i++) {
		const char *d = run->jobs[i].desc;
		bool seen = !*d;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(run->jobs[k].desc, d);
		if (seen)
			continue;
		if (*run->desc)
			strcat(run->desc, "; ");
		strcat(run->desc, d);
	}
	if (!*run->desc) {
		free(run->desc);
		run->desc = NULL;
	}
	return 0;
}

int nv_fioterse_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		      char *err, size_t errlen)
{
	struct td_line t = { .path = path, .err = err, .errlen = errlen };
	const char *p = text, *end = text + len;
	size_t cap = 0;
	bool after_v2 = false;	/* the line before was a version 2 job's */
	int ret = 0;

	memset(run, 0, sizeof(*run));
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line;

		t.line++;
		if (after_v2 && n && p[0] == ';')
			ret = td_v2_desc(&run->jobs[run->njobs - 1], p, n);
		after_v2 = false;
		if (!ret && nv_fioterse_is_line(p, n)) {
			after_v2 = p[0] == '2';
			line = nv_fiotext_line(p, n);
			if (!line)
				ret = -ENOMEM;
			if (line && !(ret = td_split(line, &t))) {
				if (!run->fio_version)
					run->fio_version = strdup(line[0] == '2' ? "fio (terse v2)"
										   : t.f[1]);
				ret = run->fio_version ? td_job(&t, run, &cap) : -ENOMEM;
			}
			free(t.f);
			t.f = NULL;
			free(line);
		}
		p += n + 1;
	}
	if (!ret && !run->njobs) {
		snprintf(err, errlen, "%s: no fio terse line (\"3;fio-3.x;NAME;...\")", path);
		ret = -EINVAL;
	}
	if (!ret && !(run->path = strdup(path)))
		ret = -ENOMEM;
	if (!ret)
		ret = td_run_desc(run);
	if (!ret)
		ret = nv_run_assign_keys(run);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	if (ret)
		nv_run_free(run);
	return ret;
}
