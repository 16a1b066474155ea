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
#include "analyze/input/fionormal_parts.h"
#include "analyze/input/fiotext.h"

int fn_fail(struct fn_state *st, const char *what, const char *text)
{
	int n = (int)strcspn(text, "\n");

	snprintf(st->err, st->errlen, "%s:%u: %s in \"%.*s\"", st->path, st->line, what,
		 n > 60 ? 60 : n, text);
	return -EINVAL;
}

/* key=NUMBER into *val (times mult; prec from the printed digits, scaled by pf). */
int fn_keyval(struct fn_state *st, const char *line, const char *key, double mult,
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

/*
 * A fractional size of the options line, "12.5KiB" (num2str's three
 * digits; 2.x "12.5K"): the bytes when they come out whole (bs=12800),
 * else 0, unknown (bs=12345 prints "12.1KiB").  Return: the bytes or 0.
 */
static uint64_t fn_bs_frac(const char *tok)
{
	static const char pfx[] = "KMGTPE";
	char *e;
	double v = strtod(tok, &e), b;
	const char *k = *e ? strchr(pfx, toupper((unsigned char)*e)) : NULL;

	if (*e && (!k || (e[1] && strcmp(e + 1, "iB") && strcmp(e + 1, "B"))))
		return 0;	/* fio prints binary units here: "KiB", 2.x "K" */
	b = k ? v * pow(1024, (double)(k - pfx + 1)) : v;
	return b > 0 && fabs(b - round(b)) < 1e-6 ? (uint64_t)llround(b) : 0;
}

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
	if (strchr(tok, '.'))
		return fn_bs_frac(tok);
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
	st->mixed0 = false;
	st->kbase = 1024;
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
	v[ri] = (struct nv_val){ x, NV_SRC_FIO, (float)(place * pf), NV_CUT_ROUND };
	if (wi < 0)
		return 0;
	if (*e != '/' || nv_fiotext_num(e + 1, &e, &x, &place))
		return fn_fail(st, "a disk counter that is not N/N", line);
	v[wi] = (struct nv_val){ x, NV_SRC_FIO, 0, NV_CUT_ROUND };
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
	if (fn_word(s, "Run status group", &rest)) {
		st->status = true;
		return fn_finish(st);
	}
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
	if (!ret && !st.status)	/* every fio output ends with one: cut short */
		nv_note_add(&run->notes, &run->nnotes, "%s:%u: no \"Run status group\" line "
			    "after the job sections (fio stopped while it wrote them, or the "
			    "output was cut or pasted in part): the lines there are read, a "
			    "value whose line is missing shows as -", path, st.line);
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
