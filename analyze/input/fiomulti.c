/*
 * fiomulti.c - fio's normal, terse and JSON outputs in one file: the JSON is
 * the run, the text outputs are checked against it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/fioladder.h"
#include "analyze/input/fiomulti.h"
#include "analyze/input/fionormal.h"
#include "analyze/input/fioterse.h"

#define run_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

static bool fm_has_json(const char *text, size_t len)
{
	return memmem(text, len, "\"fio version\"", 13) || memmem(text, len, "\"jobs\"", 6);
}

bool nv_fiomulti_sniff(const char *text, size_t len)
{
	return fm_has_json(text, len) &&
	       (nv_fionormal_sniff(text, len) || nv_fioterse_sniff(text, len));
}

/*
 * One value: counted, and a note when the text's is outside its precision
 * and the JSON's (nv_fio_val_agrees).
 */
static void fm_val(struct nv_run *run, const char *fmt, const char *job, const char *what,
		   const struct nv_val *t, const struct nv_val *j, unsigned *n, unsigned *bad)
{
	if (!t->src || !j->src)
		return;
	(*n)++;
	if (nv_fio_val_agrees(t, j))
		return;
	(*bad)++;
	run_note(run, "%s: the %s output disagrees with the JSON: %s %s %.6g (+-%.3g) vs %.6g "
		 "(+-%.3g)", run->path, fmt, job, what, t->v, t->prec, j->v, j->prec);
}

/*
 * The job's latency buckets, row by row (nv_fio_ladder_cmp): counted, and
 * a note for a row outside the printed precision or no buckets at all.
 */
static void fm_buckets(struct nv_run *run, const char *fmt, const char *job,
		       const struct nv_jobextra *t, const struct nv_jobextra *j, unsigned *n,
		       unsigned *bad)
{
	struct nv_ladder_cmp c;

	if (nv_fio_ladder_cmp(t, j, &c)) {
		(*bad)++;
		run_note(run, "%s: the %s output has no latency buckets for %s (the JSON has %zu)",
			 run->path, fmt, job, j->nbuckets);
		return;
	}
	*n += (unsigned)c.rows;
	*bad += (unsigned)c.bad;
	if (c.bad)
		run_note(run, "%s: the %s output disagrees with the JSON: %s latency bucket "
			 "[%g, %g) ns %.2f%% vs %.6f%% (%zu buckets differ)", run->path, fmt, job,
			 c.lo, c.hi, c.text, c.json, c.bad);
}

/*
 * The text's direction to check against the JSON's direction d: its own,
 * except fio 2.x's terse unified_rw_reporting=1, which prints the mixed
 * totals as read (its JSON: one "mixed").  Return: the direction.
 */
static const struct nv_dirstat *fm_text_dir(const struct nv_job *t, const struct nv_job *j,
					    unsigned d)
{
	if (d == NV_DIR_MIXED && !t->dir[d].present && t->dir[NV_DIR_READ].present &&
	    !j->dir[NV_DIR_READ].present && nv_dir_active(&j->dir[d]))
		return &t->dir[NV_DIR_READ];
	return &t->dir[d];
}

/* Text job tj against JSON job jj: values counted in *n, disagreements in *bad. */
static void fm_job(struct nv_run *run, const char *fmt, const struct nv_job *tj,
		   const struct nv_job *jj, unsigned *n, unsigned *bad)
{
	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		const struct nv_dirstat *a = fm_text_dir(tj, jj, d), *b = &jj->dir[d];
		char what[48];

		if (!a->present || !nv_dir_active(b))
			continue;
		snprintf(what, sizeof(what), "%s iops", nv_dir_name(d));
		fm_val(run, fmt, jj->key, what, &a->iops, &b->iops, n, bad);
		snprintf(what, sizeof(what), "%s bw", nv_dir_name(d));
		fm_val(run, fmt, jj->key, what, &a->bw, &b->bw, n, bad);
		snprintf(what, sizeof(what), "%s runtime", nv_dir_name(d));
		fm_val(run, fmt, jj->key, what, &a->runtime_ms, &b->runtime_ms, n, bad);
		for (unsigned k = 0; k < NV_LAT_NR; k++) {
			snprintf(what, sizeof(what), "%s %s mean", nv_dir_name(d),
				 nv_latkind_name(k));
			fm_val(run, fmt, jj->key, what, &a->lat[k].mean, &b->lat[k].mean, n, bad);
		}
	}
	fm_buckets(run, fmt, jj->key, &tj->x, &jj->x, n, bad);
}

/*
 * Whether text job key tk is a copy of JSON job key jk: "KEY #N", as the
 * text's reader names a job entry that appears again (the whole output
 * pasted twice, whose JSON object is counted once).
 */
static bool fm_copy_of(const char *tk, const char *jk)
{
	size_t n = strlen(jk);

	if (strncmp(tk, jk, n) || strncmp(tk + n, " #", 2) || !tk[n + 2])
		return false;
	return strspn(tk + n + 2, "0123456789") == strlen(tk + n + 2);
}

/*
 * Whether the text has a job entry of jj's own key: then it alone stands
 * for jj, else every copy of it (fm_copy_of).
 */
static bool fm_has_key(const struct nv_run *t, const struct nv_job *jj)
{
	for (size_t o = 0; o < t->njobs; o++)
		if (!strcmp(t->jobs[o].key, jj->key))
			return true;
	return false;
}

static void fm_compare(struct nv_run *run, const char *fmt, const struct nv_run *t)
{
	unsigned n = 0, bad = 0;
	size_t copies = 1;

	for (size_t i = 0; i < run->njobs; i++) {
		const struct nv_job *jj = &run->jobs[i];
		bool own = fm_has_key(t, jj);
		size_t ntj = 0;

		for (size_t o = 0; o < t->njobs; o++)
			if (own ? !strcmp(t->jobs[o].key, jj->key) :
				  fm_copy_of(t->jobs[o].key, jj->key)) {
				fm_job(run, fmt, &t->jobs[o], jj, &n, &bad);
				ntj++;
			}
		if (!ntj) {
			bad++;
			run_note(run, "%s: the %s output has no job %s", run->path, fmt, jj->key);
		}
		copies = ntj > copies ? ntj : copies;
	}
	if (!bad && n)
		run_note(run, "%s: the %s output agrees with the JSON (%u values within their "
			 "printed precision%s)", run->path, fmt, n,
			 copies > 1 ? "; its jobs appear more than once, as the JSON object: "
			 "the output pasted again" : "");
	else if (!bad)
		run_note(run, "%s: the %s output holds no value to compare with the JSON "
			 "(no job did IO); only the JSON is read", run->path, fmt);
}

/* Read the text output of one format from the file and compare it. */
static void fm_check(struct nv_run *run, const char *text, size_t len, const char *fmt,
		     int (*parse)(const char *, size_t, const char *, struct nv_run *, char *,
				  size_t))
{
	struct nv_run t;
	char err[512];

	if (parse(text, len, run->path, &t, err, sizeof(err))) {
		run_note(run, "%s: its %s output does not read (%s)", run->path, fmt, err);
		return;
	}
	fm_compare(run, fmt, &t);
	nv_run_free(&t);
}

int nv_fiomulti_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		      char *err, size_t errlen)
{
	bool normal = nv_fionormal_sniff(text, len), terse = nv_fioterse_sniff(text, len);
	int ret = normal || terse ? nv_fio_parse_beside_text(text, len, path, run, err, errlen)
				  : nv_fio_parse(text, len, path, run, err, errlen);

	if (ret)
		return ret;
	if (normal)
		fm_check(run, text, len, "normal", nv_fionormal_parse);
	if (terse)
		fm_check(run, text, len, "terse", nv_fioterse_parse);
	return 0;
}
