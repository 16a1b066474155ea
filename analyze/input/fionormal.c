/*
 * fionormal.c - fio's normal text output (2.x and 3.x) into a struct nv_run.
 *
 * The reference is fio's stat.c (show_thread_status_normal, show_ddir_status,
 * show_lat, show_clat_percentiles, show_latencies, show_disk_util): a job
 * entry starts at "NAME: (groupid=N, jobs=M): err= E: pid=P", and the lines
 * after it are its directions ("read: IOPS=..., BW=...(14.4GiB/60001msec)",
 * 2.x "read : io=..., bw=..., iops=..., runt= 60001msec"), their
 * slat/clat/lat lines (each with its own unit), percentile lists, bw/iops
 * sample lines, then the job's latency buckets, cpu and issued IO counts.
 * The lines are read by their leading words, so indentation lost in a paste
 * does not matter, and lines that are none of fio's are skipped.
 *
 * Units: sizes with "KiB" are 1024-based, "kB"/"MB" 1000-based, 2.x's "KB"
 * 1024-based (fio's default kb_base); counts with "k"/"M" are 1000-based.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/input/fioladder.h"
#include "analyze/input/fionormal.h"
#include "analyze/input/fiotext.h"

struct fn_opts {		/* "NAME: (g=0): rw=randread, bs=(R) 4096B-4096B, ..." */
	char *name;
	char *rw;
	char *desc;
	uint64_t bs[3];
};

struct fn_state {
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
	struct nv_run *run;
	size_t cap;
	struct nv_job *job;		/* the entry being read, or NULL */
	int dir;			/* its direction being read, -1 none */
	struct nv_latstat *pct;		/* a percentile list being read */
	double pct_mult;
	bool disks;			/* after "Disk stats" */
	bool fmt3;			/* the entry's direction lines are 3.x's */
	double io[NV_DIR_NR], io_prec[NV_DIR_NR];	/* printed io= / (14.4GiB/...) */
	bool have_issued;
	uint64_t issued[4];
	struct fn_opts *opts;
	size_t nopts;
	size_t *oslot, omask;		/* opts by name: index + 1, 0 empty (fn_opts_index) */
};

static int fn_fail(struct fn_state *st, const char *what, const char *text)
{
	int n = (int)strcspn(text, "\n");

	snprintf(st->err, st->errlen, "%s:%u: %s in \"%.*s\"", st->path, st->line, what,
		 n > 60 ? 60 : n, text);
	return -EINVAL;
}

/* key=NUMBER into *val (times mult; prec from the printed digits, scaled by pf). */
static int fn_keyval(struct fn_state *st, const char *line, const char *key, double mult,
		     double pf, struct nv_val *val)
{
	const char *p, *e;
	double v, place;
	char what[64];

	if (!nv_fiotext_key(line, key, &p))
		return 0;
	if (nv_fiotext_num(p, &e, &v, &place)) {
		snprintf(what, sizeof(what), "%s= is not a number", key);
		return fn_fail(st, what, line);
	}
	val->v = v * mult;
	val->src = NV_SRC_FIO;
	val->prec = (float)(place * mult * pf);
	return 0;
}

/* ---- options lines and job entries -------------------------------------- */

static uint64_t fn_bs_one(const char *s)
{
	char tok[32];
	size_t n = strcspn(s, "-,/ ");
	const char *b = s + n;

	if (n == 0 || n >= sizeof(tok) || *b != '-')
		return 0;
	memcpy(tok, s, n);
	tok[n] = '\0';
	if (strncmp(b + 1, tok, n) || (b[1 + n] && !strchr(",/ ", b[1 + n])))
		return 0;	/* a bs range: no fixed size */
	if (n > 1 && tok[n - 1] == 'B' && isdigit((unsigned char)tok[n - 2]))
		tok[n - 1] = '\0';	/* 3.x "4096B" */
	/* fio prints sizes in true binary units, 3.x "128KiB" and 2.x "16M": the
	 * former read as kb_base=1000 reads KiB, the latter as kb_base=1024 reads M. */
	return nv_fio_bs_parse(tok, NV_DIR_READ, strchr(tok, 'i') ? 1000 : 1024);
}

/* The slot of name in st's table: its own, or the empty one it would take. */
static size_t fn_opts_slot(const struct fn_state *st, const char *name)
{
	size_t h = (size_t)nv_hash(name, strlen(name)) & st->omask;

	while (st->oslot[h] && strcmp(st->opts[st->oslot[h] - 1].name, name))
		h = (h + 1) & st->omask;
	return h;
}

/*
 * Index st->opts[i] by name, the later line of a name replacing the earlier
 * (a table twice the lines, so that 10,000 jobs are not 10,000 scans).
 * Return: 0 or -ENOMEM.
 */
static int fn_opts_index(struct fn_state *st, size_t i)
{
	if (2 * (i + 1) > st->omask) {
		size_t n = st->omask ? 2 * (st->omask + 1) : 64;

		free(st->oslot);
		st->oslot = calloc(n, sizeof(*st->oslot));
		if (!st->oslot)
			return -ENOMEM;
		st->omask = n - 1;
		for (size_t k = 0; k < i; k++)
			st->oslot[fn_opts_slot(st, st->opts[k].name)] = k + 1;
	}
	st->oslot[fn_opts_slot(st, st->opts[i].name)] = i + 1;
	return 0;
}

/* "NAME: (g=0): rw=randread, bs=(R) 128KiB-128KiB, (W) ..., ioengine=psync". */
static int fn_options(struct fn_state *st, const char *line, const char *g)
{
	static const char *const tag[3] = { "(R) ", "(W) ", "(T) " };
	struct fn_opts *o, *no = realloc(st->opts, (st->nopts + 1) * sizeof(*no));
	const char *p, *tail = strstr(g, "): ");

	if (!no)
		return -ENOMEM;
	st->opts = no;
	o = &no[st->nopts++];
	memset(o, 0, sizeof(*o));
	o->name = strndup(line, (size_t)(g - line));
	o->desc = strdup(tail ? tail + 3 : "");
	if (nv_fiotext_key(line, "rw", &p))
		o->rw = strndup(p, strcspn(p, ", "));
	if (!o->name || !o->desc || (nv_fiotext_key(line, "rw", &p) && !o->rw) ||
	    fn_opts_index(st, st->nopts - 1))
		return -ENOMEM;
	if (!nv_fiotext_key(line, "bs", &p))
		return 0;
	for (unsigned d = 0; d < 3; d++) {
		const char *t = strstr(p, tag[d]);

		if (t)
			o->bs[d] = fn_bs_one(t + 4);
	}
	if (!strstr(p, tag[0])) {	/* 2.x: bs=4K-4K/4K-4K/4K-4K */
		for (unsigned d = 0; d < 3 && *p; d++) {
			o->bs[d] = fn_bs_one(p);
			p += strcspn(p, "/,");
			if (*p != '/')
				break;
			p++;
		}
	}
	return 0;
}

/* Return: the last options line of the job name, or NULL. */
static const struct fn_opts *fn_opts_for(const struct fn_state *st, const char *name)
{
	size_t h;

	if (!st->oslot)
		return NULL;
	h = fn_opts_slot(st, name);
	return st->oslot[h] ? &st->opts[st->oslot[h] - 1] : NULL;
}

/*
 * The exact values of a finished entry: fio computes iops and bw from the
 * IO count, the bytes and the direction's runtime (show_ddir_status), all
 * of which the text holds when issued counts and a fixed bs are printed.
 */
static void fn_exact(struct fn_state *st, struct nv_job *j)
{
	static const int issued_of[NV_DIR_NR] = { 0, 1, 2, 3, -1 };

	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		struct nv_dirstat *ds = &j->dir[d];
		double rt = ds->runtime_ms.v, bytes = st->io[d];
		uint64_t bs = d < 3 ? j->bs[d] : 0;

		bool exact = false;

		if (!ds->present)
			continue;
		if (st->have_issued && issued_of[d] >= 0) {
			ds->have_ios = true;
			ds->ios = st->issued[issued_of[d]];
			exact = bs && fabs((double)ds->ios * (double)bs - bytes) <= st->io_prec[d];
			if (exact)
				bytes = (double)ds->ios * (double)bs;
		}
		ds->have_io_bytes = exact || st->io_prec[d] > 0;
		ds->io_bytes = (uint64_t)llround(bytes);
		if (!(rt > 0))
			continue;
		if (ds->have_ios)
			ds->iops = (struct nv_val){ (double)ds->ios * 1000.0 / rt, NV_SRC_FIO, 0 };
		if (exact)	/* fio: (1000 * io_bytes) / runtime in integers */
			ds->bw = (struct nv_val){ (double)(ds->io_bytes * 1000 / (uint64_t)rt),
						  NV_SRC_FIO, 0 };
	}
}

/*
 * The entry read: exact values, and fio's whole ladder of buckets (the
 * JSON's; the text prints only the non-empty ones) for an entry with
 * directions but no bucket line.  Return: 0 or -ENOMEM.
 */
static int fn_finish(struct fn_state *st)
{
	struct nv_jobextra *x;
	bool dirs = false;

	if (!st->job)
		return 0;
	for (unsigned d = 0; d < NV_DIR_NR; d++)
		dirs |= st->job->dir[d].present;
	fn_exact(st, st->job);
	x = &st->job->x;
	st->job = NULL;
	st->dir = -1;
	st->pct = NULL;
	return dirs && !x->nbuckets ? nv_fio_ladder_init(x, st->fmt3) : 0;
}

/* "NAME: (groupid=0, jobs=1): err= 0: pid=27760: Mon Dec  2 04:27:48 2024". */
static int fn_entry(struct fn_state *st, const char *line, const char *g)
{
	struct nv_run *run = st->run;
	const struct fn_opts *o;
	struct nv_job *j;
	const char *p, *e;
	double v, place;
	int r = fn_finish(st);

	if (r)
		return r;
	if (run->njobs == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 8;
		struct nv_job *nj = realloc(run->jobs, cap * sizeof(*nj));

		if (!nj)
			return -ENOMEM;
		run->jobs = nj;
		st->cap = cap;
	}
	j = &run->jobs[run->njobs++];
	memset(j, 0, sizeof(*j));
	memset(st->io, 0, sizeof(st->io));
	memset(st->io_prec, 0, sizeof(st->io_prec));
	st->have_issued = false;
	st->fmt3 = false;
	st->job = j;
	st->disks = false;
	j->name = strndup(line, (size_t)(g - line));
	o = j->name ? fn_opts_for(st, j->name) : NULL;
	j->desc = strdup(o ? o->desc : "");
	if (o && o->rw)
		j->rw = strdup(o->rw);
	if (!j->name || !j->desc || (o && o->rw && !j->rw))
		return -ENOMEM;
	if (o)
		memcpy(j->bs, o->bs, sizeof(j->bs));
	if (nv_fiotext_key(line, "groupid", &p) && !nv_fiotext_num(p, &e, &v, &place))
		j->groupid = (int)v;
	if (nv_fiotext_key(line, "err", &p)) {
		if (nv_fiotext_num(p, &e, &v, &place))
			return fn_fail(st, "err= is not a number", line);
		j->error = (int)v;
		j->have_error = true;
	}
	return 0;
}

/* ---- a direction ---------------------------------------------------------- */

static int fn_dirname(const char *s, size_t *n)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "mixed" };

	for (unsigned d = 0; d < 5; d++) {
		size_t l = strlen(names[d]);
		const char *p = s + l;

		if (strncmp(s, names[d], l))
			continue;
		while (*p == ' ')
			p++;
		if (*p != ':')
			continue;
		*n = (size_t)(p + 1 - s);
		return (int)d;
	}
	return -1;
}

/* 3.x "IOPS=1964, BW=246MiB/s (257MB/s)(14.4GiB/60001msec)"; 2.x "io=, bw=, iops=, runt=". */
static int fn_dir(struct fn_state *st, int d, const char *line, const char *rest)
{
	struct nv_dirstat *ds = &st->job->dir[d];
	bool old = !strstr(rest, "IOPS=");
	const char *p, *e, *q;
	double v, prec;
	int r;

	st->dir = d;
	st->pct = NULL;
	st->fmt3 |= !old;
	ds->present = true;
	r = fn_keyval(st, rest, old ? "iops" : "IOPS", 1, 0.5, &ds->iops);
	if (r)
		return r;
	if (nv_fiotext_key(rest, old ? "bw" : "BW", &p)) {
		if (nv_fiotext_size(p, &e, old, &v, &prec) || strncmp(e, "/s", 2))
			return fn_fail(st, "bandwidth with no unit fio prints", line);
		ds->bw = (struct nv_val){ v, NV_SRC_FIO, (float)prec };
	}
	if (old && nv_fiotext_key(rest, "io", &p)) {
		if (nv_fiotext_size(p, &e, old, &st->io[d], &st->io_prec[d]))
			return fn_fail(st, "io= with no unit fio prints", line);
	}
	if (old && nv_fiotext_key(rest, "runt", &p)) {
		if (nv_fiotext_num(p, &e, &v, &prec) || strncmp(e, "msec", 4))
			return fn_fail(st, "runt= is not N msec", line);
		ds->runtime_ms = (struct nv_val){ v, NV_SRC_FIO, 0 };
	}
	q = strstr(rest, "msec)");
	if (!old && q) {
		for (p = q; p > rest && p[-1] != '('; p--)
			;
		if (nv_fiotext_size(p, &e, false, &st->io[d], &st->io_prec[d]) || *e != '/' ||
		    nv_fiotext_num(e + 1, &e, &v, &prec) || e != q)
			return fn_fail(st, "(SIZE/Nmsec) does not read", line);
		ds->runtime_ms = (struct nv_val){ v, NV_SRC_FIO, 0 };
	}
	if (!ds->iops.src && !ds->bw.src)
		return fn_fail(st, "a direction line with neither IOPS nor BW", line);
	return 0;
}

/* "clat (usec): min=140, max=1613, avg=508.40, stdev=64.06" (min/max truncated). */
static int fn_lat(struct fn_state *st, enum nv_latkind k, const char *line, double mult)
{
	struct nv_latstat *ls = &st->job->dir[st->dir].lat[k];
	int r = fn_keyval(st, line, "min", mult, 1, &ls->min);

	if (!r)
		r = fn_keyval(st, line, "max", mult, 1, &ls->max);
	if (!r)
		r = fn_keyval(st, line, "avg", mult, 0.5, &ls->mean);
	if (!r)
		r = fn_keyval(st, line, "stdev", mult, 0.5, &ls->stdev);
	if (!r && !ls->mean.src)
		return fn_fail(st, "a latency line without avg=", line);
	return r;
}

/* " |  1.00th=[  217],  5.00th=[  461], ..." into st->pct. */
static int fn_pctline(struct fn_state *st, const char *line)
{
	struct nv_latstat *ls = st->pct;

	for (const char *t = strstr(line, "th=["); t; t = strstr(t + 4, "th=[")) {
		const char *s = t, *e;
		struct nv_pctpt *np;
		double p, v, place;

		while (s > line && (isdigit((unsigned char)s[-1]) || s[-1] == '.'))
			s--;
		if (nv_fiotext_num(s, &e, &p, &place) || e != t || !(p > 0 && p <= 100) ||
		    nv_fiotext_num(t + 4, &e, &v, &place) || (*e != ']' && *e != ' '))
			return fn_fail(st, "a percentile entry that does not read", line);
		np = realloc(ls->points, (ls->npoints + 1) * sizeof(*np));
		if (!np)
			return -ENOMEM;
		ls->points = np;
		np[ls->npoints++] = (struct nv_pctpt){ p, v * st->pct_mult };
		for (unsigned i = 0; i < NV_PCT_NR; i++)
			if (fabs(p - nv_pcts[i].value) < 1e-6)
				ls->pct[i] = (struct nv_val){ v * st->pct_mult, NV_SRC_FIO,
							     (float)(place * st->pct_mult) };
	}
	return 0;
}

/* bw (  KiB/s): / iops : min=, max=, avg=, stdev=, samples= */
static int fn_samples(struct fn_state *st, const char *line, double mult, struct nv_samples *s)
{
	int r = fn_keyval(st, line, "min", mult, 0.5, &s->min);

	if (!r)
		r = fn_keyval(st, line, "max", mult, 0.5, &s->max);
	if (!r)
		r = fn_keyval(st, line, "avg", mult, 0.5, &s->mean);
	if (!r)
		r = fn_keyval(st, line, "stdev", mult, 0.5, &s->dev);
	if (!r)
		r = fn_keyval(st, line, "samples", 1, 0, &s->n);
	return r;
}

/* "bw (  KiB/s): ..." with the unit's blanks removed. */
static int fn_bwline(struct fn_state *st, const char *line)
{
	const char *p = strchr(line, '(') + 1;
	char unit[16];
	size_t n = 0, ul;
	double m;

	for (; *p && *p != ')' && n + 1 < sizeof(unit); p++)
		if (*p != ' ')
			unit[n++] = *p;
	unit[n] = '\0';
	m = nv_fiotext_size_unit(unit, &ul, strstr(unit, "iB") == NULL);
	if (!m || strcmp(unit + ul, "/s"))
		return fn_fail(st, "a bw sample unit fio does not print", line);
	return fn_samples(st, line, m, &st->job->dir[st->dir].bw_samples);
}

/*
 * "lat (usec)   : 250=4.39%, 500=7.08%" and "lat (msec) : >=2000=0.01%":
 * the non-empty buckets of fio's ladder (fioladder.h), an edge its upper
 * one; the ns rungs are there for fio 3 (or an nsec line).
 * Return: 0, -EINVAL naming the line, or -ENOMEM.
 */
static int fn_buckets(struct fn_state *st, const char *line, double mult)
{
	struct nv_jobextra *x = &st->job->x;
	const char *p = strchr(line, ':');

	if (!p)
		return fn_fail(st, "a latency bucket line without ':'", line);
	if (!x->nbuckets && nv_fio_ladder_init(x, st->fmt3 || mult == 1))
		return -ENOMEM;
	for (p++; *p;) {
		bool ge;
		double edge, pct, place;
		const char *e;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		ge = !strncmp(p, ">=", 2);
		if (nv_fiotext_num(ge ? p + 2 : p, &e, &edge, &place) || *e != '=')
			return fn_fail(st, "a latency bucket that does not read", line);
		p = e + 1;
		if (*p == '<')
			p++;	/* "<0.01%": kept as its bound */
		if (nv_fiotext_num(p, &e, &pct, &place) || *e != '%')
			return fn_fail(st, "a latency bucket share without %", line);
		p = e + 1;
		if (nv_fio_ladder_set(x, edge * mult, ge, pct))
			return fn_fail(st, "a latency bucket edge that is not on fio's ladder "
					   "(2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000)",
					line);
	}
	return 0;
}

/*
 * "issued rwts: total=117861,0,0,0 ...", fio 3.0-3.2's "issued rwt:
 * total=R,W,T, short=..." (a separator after the last count) or 2.x
 * "issued : total=r=262144/w=0/d=0".  Return: 0, or -EINVAL naming the line.
 */
static int fn_issued(struct fn_state *st, const char *line)
{
	const char *p;
	char sep;

	if (!nv_fiotext_key(line, "total", &p))
		return fn_fail(st, "issued counts without total=", line);
	memset(st->issued, 0, sizeof(st->issued));
	sep = p[0] && p[1] == '=' ? '/' : ',';	/* 2.x "r=N/w=N/d=N", 3.x "N,N,N,N" */
	for (unsigned i = 0; i < 4; i++) {
		char *e;

		if (sep == '/' && p[0] && p[1] == '=')
			p += 2;
		if (!isdigit((unsigned char)*p))
			return fn_fail(st, "an issued count that is not a number", line);
		st->issued[i] = strtoull(p, &e, 10);
		p = e;
		if (*p != sep || !p[1] || isspace((unsigned char)p[1]))
			break;	/* the last count, with or without a separator after it */
		p++;
	}
	st->have_issued = true;
	return 0;
}

/* ---- Disk stats ------------------------------------------------------------ */

/* "a/b" or "N" after key= into v[ri] (and v[wi]). */
static int fn_pair(struct fn_state *st, const char *line, const char *key, struct nv_val *v,
		   int ri, int wi, double pf)
{
	const char *p, *e;
	double x, place;

	if (!nv_fiotext_key(line, key, &p))
		return 0;
	if (nv_fiotext_num(p, &e, &x, &place))
		return fn_fail(st, "a disk counter that is not a number", line);
	v[ri] = (struct nv_val){ x, NV_SRC_FIO, (float)(place * pf) };
	if (wi < 0)
		return 0;
	if (*e != '/' || nv_fiotext_num(e + 1, &e, &x, &place))
		return fn_fail(st, "a disk counter that is not N/N", line);
	v[wi] = (struct nv_val){ x, NV_SRC_FIO, 0 };
	return 0;
}

static int fn_disk_vals(struct fn_state *st, const char *line, bool aggr, struct nv_val *v)
{
	int r = fn_pair(st, line, aggr ? "aggrios" : "ios", v, NV_DISK_READ_IOS,
			NV_DISK_WRITE_IOS, 0);

	if (!r)
		r = fn_pair(st, line, aggr ? "aggrmerge" : "merge", v, NV_DISK_READ_MERGES,
			    NV_DISK_WRITE_MERGES, 0);
	if (!r)
		r = fn_pair(st, line, aggr ? "aggrticks" : "ticks", v, NV_DISK_READ_TICKS,
			    NV_DISK_WRITE_TICKS, 0);
	if (!r)
		r = fn_pair(st, line, aggr ? "aggrin_queue" : "in_queue", v, NV_DISK_IN_QUEUE,
			    -1, 0);
	if (!r)
		r = fn_pair(st, line, aggr ? "aggrutil" : "util", v, NV_DISK_UTIL, -1, 0.5);
	return r;
}

/* "nvme1n1: ios=117623/7, merge=0/3, ticks=59078/1, in_queue=59079, util=98.66%". */
static int fn_disk(struct fn_state *st, const char *line)
{
	struct nv_run *run = st->run;
	const char *colon = strchr(line, ':');
	struct nv_disk *nd, *dk;
	const char *p;

	if (!strncmp(line, "aggrios=", 8) && run->ndisks) {
		run->disks[run->ndisks - 1].aggr = true;
		return fn_disk_vals(st, line, true, run->disks[run->ndisks - 1].aggr_v);
	}
	if (!colon || !nv_fiotext_key(line, "ios", &p) || !nv_fiotext_key(line, "util", &p))
		return 0;
	nd = realloc(run->disks, (run->ndisks + 1) * sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	run->disks = nd;
	dk = &nd[run->ndisks];
	memset(dk, 0, sizeof(*dk));
	dk->name = strndup(line, (size_t)(colon - line));
	if (!dk->name)
		return -ENOMEM;
	run->ndisks++;
	if (nv_fiotext_key(line, "aggrios", &p)) {
		dk->aggr = true;
		if (fn_disk_vals(st, line, true, dk->aggr_v))
			return -EINVAL;
	}
	return fn_disk_vals(st, line, false, dk->v);
}

/* ---- lines ------------------------------------------------------------------- */

static bool fn_word(const char *s, const char *w, const char **rest)
{
	size_t n = strlen(w);

	if (strncmp(s, w, n))
		return false;
	*rest = s + n;
	return true;
}

/*
 * fsync's block after "fsync/fdatasync/sync_file_range:": "sync (usec): min=,
 * max=, avg=, stdev=" and "sync percentiles (usec):", the sync direction's
 * latency from submission to completion (the JSON's "sync" "lat_ns"); rest
 * follows "sync (" or "sync percentiles (".  Return: 0, or -EINVAL naming the line.
 */
static int fn_sync(struct fn_state *st, const char *line, const char *rest, bool pcts)
{
	struct nv_dirstat *ds = &st->job->dir[NV_DIR_SYNC];
	double m = nv_fiotext_time_unit(rest);

	if (!m)
		return fn_fail(st, "a latency unit that is not nsec, usec or msec", line);
	ds->present = true;
	st->pct = NULL;
	if (pcts) {
		st->pct_mult = m;
		st->pct = &ds->lat[NV_LAT_TOTAL];
		return 0;
	}
	if (!strstr(rest, "min="))
		return fn_fail(st, "a sync latency line without min=", line);
	st->dir = NV_DIR_SYNC;
	return fn_lat(st, NV_LAT_TOTAL, line, m);
}

/* A line inside a job entry; lines that are none of fio's are skipped. */
static int fn_jobline(struct fn_state *st, const char *s)
{
	static const char *const kinds[NV_LAT_NR] = { "slat (", "clat (", "lat (" };
	const char *rest;
	size_t n;
	int d = fn_dirname(s, &n);

	if (d >= 0 && (strstr(s, "IOPS=") || strstr(s, "iops=")))
		return fn_dir(st, d, s, s + n);
	if (fn_word(s, "sync (", &rest))
		return fn_sync(st, s, rest, false);
	if (fn_word(s, "sync percentiles (", &rest))
		return fn_sync(st, s, rest, true);
	for (unsigned k = 0; k < NV_LAT_NR; k++) {
		double m;

		if (!fn_word(s, kinds[k], &rest))
			continue;
		m = nv_fiotext_time_unit(rest);
		if (!m)
			return fn_fail(st, "a latency unit that is not nsec, usec or msec", s);
		if (strstr(rest, "min=") && st->dir >= 0)
			return fn_lat(st, (enum nv_latkind)k, s, m);
		if (k == NV_LAT_TOTAL && !strstr(rest, "min="))
			return fn_buckets(st, s, m);
		return 0;
	}
	for (unsigned k = 0; k < NV_LAT_NR; k++) {
		char w[32];

		snprintf(w, sizeof(w), "%.*spercentiles (", (int)strlen(kinds[k]) - 1, kinds[k]);
		if (!fn_word(s, w, &rest) || st->dir < 0)
			continue;
		st->pct_mult = nv_fiotext_time_unit(rest);
		if (!st->pct_mult)
			return fn_fail(st, "a percentile unit that is not nsec, usec or msec", s);
		st->pct = &st->job->dir[st->dir].lat[k];
		return 0;
	}
	if (st->pct && strstr(s, "th=["))
		return fn_pctline(st, s);
	st->pct = NULL;
	if (fn_word(s, "bw (", &rest) && st->dir >= 0 && strchr(rest, ')'))
		return fn_bwline(st, s);
	if (fn_word(s, "iops", &rest) && st->dir >= 0 && strstr(rest, "min="))
		return fn_samples(st, s, 1, &st->job->dir[st->dir].iops_samples);
	if (fn_word(s, "cpu", &rest) && strstr(rest, "usr=")) {
		int r = fn_keyval(st, s, "usr", 1, 0.5, &st->job->x.usr_cpu);

		if (!r)
			r = fn_keyval(st, s, "sys", 1, 0.5, &st->job->x.sys_cpu);
		if (!r)
			r = fn_keyval(st, s, "ctx", 1, 0, &st->job->x.ctx);
		if (!r)
			r = fn_keyval(st, s, "majf", 1, 0, &st->job->x.majf);
		if (!r)
			r = fn_keyval(st, s, "minf", 1, 0, &st->job->x.minf);
		return r;
	}
	if (fn_word(s, "issued", &rest) && strstr(rest, "total="))
		return fn_issued(st, s);
	return 0;
}

static int fn_line(struct fn_state *st, const char *s)
{
	const char *g, *rest;

	while (*s == ' ' || *s == '\t' || *s == '|')
		s++;
	if (!*s)
		return 0;
	if (!strncmp(s, "fio-", 4) && isdigit((unsigned char)s[4]) && !st->run->fio_version) {
		st->run->fio_version = strndup(s, strcspn(s, " \r\n"));
		return st->run->fio_version ? 0 : -ENOMEM;
	}
	if ((g = strstr(s, ": (groupid=")) && g > s)
		return fn_entry(st, s, g);
	if ((g = strstr(s, ": (g=")) && g > s)
		return fn_options(st, s, g);
	if (fn_word(s, "Run status group", &rest))
		return fn_finish(st);
	if (fn_word(s, "Disk stats", &rest)) {
		st->disks = true;
		return fn_finish(st);
	}
	if (st->disks)
		return fn_disk(st, s);
	if (!st->job)
		return 0;
	return fn_jobline(st, s);
}

/* ---- the file ----------------------------------------------------------------- */

bool nv_fionormal_sniff(const char *text, size_t len)
{
	return memmem(text, len, ": (groupid=", 11) &&
	       (memmem(text, len, "IOPS=", 5) || memmem(text, len, "iops=", 5));
}

int nv_fionormal_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		       char *err, size_t errlen)
{
	struct fn_state st = { .path = path, .err = err, .errlen = errlen, .run = run, .dir = -1 };
	const char *p = text, *end = text + len;
	char *line = NULL;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		st.line++;
		free(line);
		line = nv_fiotext_line(p, n);
		if (!line) {
			ret = -ENOMEM;
			break;
		}
		ret = fn_line(&st, line);
		p += n + 1;
	}
	free(line);
	if (!ret)
		ret = fn_finish(&st);
	if (!ret && !run->njobs) {
		snprintf(err, errlen, "%s:%u: fio normal output without a job entry "
			 "(\"NAME: (groupid=N, jobs=M): err= ...\"); is the file cut?",
			 path, st.line);
		ret = -EINVAL;
	}
	if (!ret && !run->fio_version)
		run->fio_version = strdup("fio (version not printed)");
	if (!ret && (!run->fio_version || !(run->path = strdup(path))))
		ret = -ENOMEM;
	if (!ret)
		ret = nv_run_assign_keys(run);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	for (size_t i = 0; i < st.nopts; i++) {
		free(st.opts[i].name);
		free(st.opts[i].rw);
		free(st.opts[i].desc);
	}
	free(st.opts);
	free(st.oslot);
	if (ret)
		nv_run_free(run);
	return ret;
}
