/*
 * fionormal_dir.c - one direction of fio's normal output and the job's
 * numbers: the direction line, its latency, percentile and sample lines,
 * the job's latency buckets, and the exact values of a finished entry
 * (fionormal_parts.h; the file and its lines: fionormal.c).
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
#include "analyze/input/fionormal_parts.h"
#include "analyze/input/fiotext.h"

/*
 * unified_rw_reporting=both's misprinted mixed direction (fn_mixed_zero):
 * its IOs, bytes, IOPS and bandwidth are the read, write and trim ones
 * summed over its own runtime, as fio's JSON computes them; without issued
 * counts only the bytes, and a note says the rest is missing.
 */
static void fn_mixed_sums(struct fn_state *st, struct nv_job *j)
{
	struct nv_dirstat *m = &j->dir[NV_DIR_MIXED];
	double rt = m->runtime_ms.v, prec = 0;
	uint64_t ios = 0, bytes = 0;

	for (unsigned d = 0; d < 3; d++) {
		const struct nv_dirstat *ds = &j->dir[d];

		ios += ds->ios;
		bytes += ds->io_bytes;
		prec += ds->bw.src && ds->bw.prec == 0 ? 0 : st->io_prec[d];
	}
	m->have_io_bytes = true;
	m->io_bytes = bytes;
	if (!st->have_issued || !(rt > 0)) {
		nv_note_add(&st->run->notes, &st->run->nnotes, "%s: job %s: fio printed the mixed "
			    "direction as \"IOPS=0, BW=0 (0)\" (unified_rw_reporting=both, fio "
			    "< 3.39) and no issued counts: its IOPS and bandwidth are missing",
			    st->path, j->name);
		return;
	}
	m->have_ios = true;
	m->ios = ios;
	m->iops = (struct nv_val){ (double)ios * 1000.0 / rt, NV_SRC_FIO, 0, NV_CUT_ROUND };
	m->bw = (struct nv_val){ (double)(bytes * 1000 / (uint64_t)rt), NV_SRC_FIO,
				 (float)(prec * 1000.0 / rt), NV_CUT_ROUND };
}

/*
 * fio 2.x prints sizes in "KB", "MB" of the job's kb_base: 1024 by default,
 * 1000 under kb_base=1000, which the text does not say.  The issued counts
 * times bs tell: when they match a direction's io= read with KB = 1000 and
 * not with 1024, the job's io= and bw= are rescaled (the bw samples are
 * KiB/s whatever the base) and a note says so.  Return: nothing.
 */
static void fn_kb_base(struct fn_state *st, struct nv_job *j)
{
	const double f = 1000.0 / 1024;
	bool k1000 = false;

	for (unsigned d = 0; d < 3 && !k1000; d++) {
		double want = (double)st->issued[d] * (double)j->bs[d];

		if (!j->bs[d] || !st->issued[d] || fabs(want - st->io[d]) <= st->io_prec[d])
			continue;
		k1000 = fabs(want - st->io[d] * f) <= st->io_prec[d] * f;
	}
	if (!k1000)
		return;
	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		st->io[d] *= f;
		st->io_prec[d] *= f;
		j->dir[d].bw.v *= f;
		j->dir[d].bw.prec *= (float)f;
	}
	nv_note_add(&st->run->notes, &st->run->nnotes, "%s: job %s: fio 2.x's \"KB\" read as "
		    "1000 bytes (kb_base=1000): the issued IOs times bs match io= so, not as KiB",
		    st->path, j->name);
}

/*
 * The exact values of a finished entry: fio computes iops and bw from the
 * IO count, the bytes and the direction's runtime (show_ddir_status), all
 * of which the text holds when issued counts and a fixed bs are printed.
 */
void fn_exact(struct fn_state *st, struct nv_job *j)
{
	static const int issued_of[NV_DIR_NR] = { 0, 1, 2, 3, -1 };
	uint64_t bs_mixed = j->bs[0] == j->bs[1] && j->bs[1] == j->bs[2] ? j->bs[0] : 0;

	if (!st->fmt3 && st->have_issued)
		fn_kb_base(st, j);
	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		struct nv_dirstat *ds = &j->dir[d];
		double rt = ds->runtime_ms.v, bytes = st->io[d];
		uint64_t bs = d < 3 ? j->bs[d] : d == NV_DIR_MIXED ? bs_mixed : 0;
		bool exact = false;

		if (!ds->present)
			continue;
		if (st->have_issued && (issued_of[d] >= 0 || !st->mixed0)) {
			/* fio's mixed direction: the read, write and trim IOs summed
			 * (unified_rw_reporting=1 prints them all as read's) */
			ds->have_ios = true;
			ds->ios = issued_of[d] >= 0 ? st->issued[issued_of[d]] :
				  st->issued[0] + st->issued[1] + st->issued[2];
			exact = bs && fabs((double)ds->ios * (double)bs - bytes) <= st->io_prec[d];
			if (exact)
				bytes = (double)ds->ios * (double)bs;
		}
		ds->have_io_bytes = exact || st->io_prec[d] > 0;
		ds->io_bytes = (uint64_t)llround(bytes);
		if (!(rt > 0))
			continue;
		if (ds->have_ios)
			ds->iops = (struct nv_val){ (double)ds->ios * 1000.0 / rt, NV_SRC_FIO, 0,
						    NV_CUT_ROUND };
		if (exact)	/* fio: (1000 * io_bytes) / runtime in integers */
			ds->bw = (struct nv_val){ (double)(ds->io_bytes * 1000 / (uint64_t)rt),
						  NV_SRC_FIO, 0, NV_CUT_ROUND };
	}
	if (st->mixed0)
		fn_mixed_sums(st, j);
}

int fn_dirname(const char *s, size_t *n)
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

/*
 * fio up to 3.38 with unified_rw_reporting=both prints its mixed direction
 * as "mixed: IOPS=0, BW=0 (0)(0B/1001msec)": num2str's bare 0, while its
 * JSON holds the read and write sums (fixed in fio commit 6f3de5ce).
 * Return: true for that line's "IOPS=0, BW=0 (0)".
 */
static bool fn_mixed_zero(const char *rest)
{
	const char *p;

	return nv_fiotext_key(rest, "IOPS", &p) && !strncmp(p, "0, BW=0 (0)(", 12);
}

/* 3.x "IOPS=1964, BW=246MiB/s (257MB/s)(14.4GiB/60001msec)"; 2.x "io=, bw=, iops=, runt=". */
int fn_dir(struct fn_state *st, int d, const char *line, const char *rest)
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
	if (!old && d == NV_DIR_MIXED && fn_mixed_zero(rest)) {
		st->mixed0 = true;	/* fio_exact: from the other directions */
		ds->iops = (struct nv_val){ 0 };
	} else if (nv_fiotext_key(rest, old ? "bw" : "BW", &p)) {
		if (nv_fiotext_size(p, &e, old, &v, &prec) || strncmp(e, "/s", 2))
			return fn_fail(st, "bandwidth with no unit fio prints (nor its bare "
					   "\"BW=0 (0)\" of unified_rw_reporting=both)", line);
		ds->bw = (struct nv_val){ v, NV_SRC_FIO, (float)prec, NV_CUT_ROUND };
		if (!old)	/* fio prints kb_base's unit first: "200MB/s (191MiB/s)" */
			st->kbase = memmem(p, (size_t)(e - p), "iB", 2) ||
				    memmem(p, (size_t)(e - p), "ibit", 4) ? 1024 : 1000;
	}
	if (old && nv_fiotext_key(rest, "io", &p)) {
		if (nv_fiotext_size(p, &e, old, &st->io[d], &st->io_prec[d]))
			return fn_fail(st, "io= with no unit fio prints", line);
	}
	if (old && nv_fiotext_key(rest, "runt", &p)) {
		if (nv_fiotext_num(p, &e, &v, &prec) || strncmp(e, "msec", 4))
			return fn_fail(st, "runt= is not N msec", line);
		ds->runtime_ms = (struct nv_val){ v, NV_SRC_FIO, 0, NV_CUT_ROUND };
	}
	q = strstr(rest, "msec)");
	if (!old && q) {
		for (p = q; p > rest && p[-1] != '('; p--)
			;
		if (nv_fiotext_size(p, &e, false, &st->io[d], &st->io_prec[d]) || *e != '/' ||
		    nv_fiotext_num(e + 1, &e, &v, &prec) || e != q)
			return fn_fail(st, "(SIZE/Nmsec) does not read", line);
		ds->runtime_ms = (struct nv_val){ v, NV_SRC_FIO, 0, NV_CUT_ROUND };
	}
	if (!ds->iops.src && !ds->bw.src && !st->mixed0)
		return fn_fail(st, "a direction line with neither IOPS nor BW", line);
	return 0;
}

/*
 * min=, max= (integers fio truncates: one unit above them, NV_CUT_DOWN),
 * avg=, stdev= (half the last digit) of line in unit mult.
 * Return: 0 or -EINVAL naming the line.
 */
static int fn_four(struct fn_state *st, const char *line, double mult, struct nv_val *min,
		   struct nv_val *max, struct nv_val *mean, struct nv_val *dev)
{
	int r = fn_keyval(st, line, "min", mult, 1, min);

	if (!r)
		r = fn_keyval(st, line, "max", mult, 1, max);
	if (!r)
		r = fn_keyval(st, line, "avg", mult, 0.5, mean);
	if (!r)
		r = fn_keyval(st, line, "stdev", mult, 0.5, dev);
	min->cut = max->cut = NV_CUT_DOWN;
	return r;
}

/* "clat (usec): min=140, max=1613, avg=508.40, stdev=64.06" (min/max truncated). */
int fn_lat(struct fn_state *st, enum nv_latkind k, const char *line, double mult)
{
	struct nv_latstat *ls = &st->job->dir[st->dir].lat[k];
	int r = fn_four(st, line, mult, &ls->min, &ls->max, &ls->mean, &ls->stdev);

	if (!r && !ls->mean.src)
		return fn_fail(st, "a latency line without avg=", line);
	return r;
}

/* " |  1.00th=[  217],  5.00th=[  461], ..." into st->pct. */
int fn_pctline(struct fn_state *st, const char *line)
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
							     (float)(place * st->pct_mult),
							     NV_CUT_UP };	/* rounded up */
	}
	return 0;
}

/*
 * bw (  KiB/s): / iops : min=, max=, avg=, stdev=, samples= (min and max
 * integers, truncated once divided by kb_base for "MiB/s": one unit).
 */
int fn_samples(struct fn_state *st, const char *line, double mult, struct nv_samples *s)
{
	int r = fn_four(st, line, mult, &s->min, &s->max, &s->mean, &s->dev);

	if (!r)
		r = fn_keyval(st, line, "samples", 1, 0, &s->n);
	return r;
}

/*
 * "bw (  KiB/s): ..." with the unit's blanks removed.  fio keeps the samples
 * in KiB/s whatever it prints (stat.c __add_samples, show_ddir_status): the
 * label is "KiB", or "kB" under kb_base=1000, "Kibit"/"kbit" (x8) under
 * unit_base=1, "MiB"/"Mibit" once divided by kb_base; 2.x "KB", "Kbit".
 */
int fn_bwline(struct fn_state *st, const char *line)
{
	static const struct { const char *unit; double kib; bool mega; } units[] = {
		{ "KiB/s", 1, false }, { "kB/s", 1, false }, { "KB/s", 1, false },
		{ "Kibit/s", 1.0 / 8, false }, { "kbit/s", 1.0 / 8, false },
		{ "MiB/s", 1, true }, { "MB/s", 1, true }, { "Mibit/s", 1.0 / 8, true },
		{ "Kbit/s", 1.0 / 8, false }, { "Mbit/s", 1.0 / 8, true },
	};
	const char *p = strchr(line, '(') + 1;
	char unit[16];
	size_t n = 0;

	for (; *p && *p != ')' && n + 1 < sizeof(unit); p++)
		if (*p != ' ')
			unit[n++] = *p;
	unit[n] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return fn_samples(st, line, 1024 * units[i].kib *
					  (units[i].mega ? st->kbase : 1),
					  &st->job->dir[st->dir].bw_samples);
	return fn_fail(st, "a bw sample unit fio does not print", line);
}

/*
 * "lat (usec)   : 250=4.39%, 500=7.08%" and "lat (msec) : >=2000=0.01%":
 * the non-empty buckets of fio's ladder (fioladder.h), an edge its upper
 * one; the ns rungs are there for fio 3 (or an nsec line).
 * Return: 0, -EINVAL naming the line, or -ENOMEM.
 */
int fn_buckets(struct fn_state *st, const char *line, double mult)
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
