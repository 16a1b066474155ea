/*
 * runset.c - RUN arguments: repeats, '+' joins and results directories
 * (runset.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/common.h"
#include "analyze/input/hosts.h"
#include "analyze/input/multiout.h"
#include "analyze/input/runset.h"

/* A growing array of runs being loaded. */
struct runvec {
	size_t n, cap;
	struct nv_run *v;
};

/* Return: a new zeroed slot at the end of rv, or NULL (out of memory). */
static struct nv_run *runvec_push(struct runvec *rv)
{
	if (rv->n == rv->cap) {
		size_t cap = rv->cap ? rv->cap * 2 : 8;
		struct nv_run *nv = realloc(rv->v, cap * sizeof(*nv));

		if (!nv)
			return NULL;
		rv->v = nv;
		rv->cap = cap;
	}
	memset(&rv->v[rv->n], 0, sizeof(rv->v[rv->n]));
	return &rv->v[rv->n];
}

static void runvec_free(struct runvec *rv)
{
	for (size_t i = 0; i < rv->n; i++)
		nv_run_free(&rv->v[i]);
	free(rv->v);
	memset(rv, 0, sizeof(*rv));
}

/* "dir/psync-run1.json" -> "psync-run1"; "results/i7i/" -> "i7i" (dir: no extension cut). */
static void path_stem(char *buf, size_t n, const char *path, bool dir)
{
	size_t len = strlen(path);
	const char *b;
	char *dot;

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (b = path + len; b > path && b[-1] != '/'; b--)
		;
	snprintf(buf, n, "%.*s", (int)(path + len - b), b);
	dot = dir ? NULL : strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = 0;
}

static bool is_json_name(const char *f)
{
	size_t len = strlen(f);

	return len > 5 && f[0] != '.' && !strcmp(f + len - 5, ".json");
}

/* Names in version order: the numbers in them by value (x@iodepth=4 before
 * x@iodepth=16, bs 4k before 64k before 128k). */
static int cmp_name(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names of the *.json files directly in dir, in version order.
 * Return: 0 and *names (each and the array to free), or -errno with err set.
 */
static int list_json(const char *dir, char ***names, size_t *n, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0;
	int ret = 0;

	*names = NULL;
	*n = 0;
	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open the directory: %s", dir, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		if (!is_json_name(de->d_name))
			continue;
		if (*n == cap) {
			char **nn = realloc(*names, (cap = cap ? cap * 2 : 16) * sizeof(*nn));

			if (!nn) {
				ret = -ENOMEM;
				break;
			}
			*names = nn;
		}
		if (!((*names)[*n] = strdup(de->d_name))) {
			ret = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (ret)
		snprintf(err, errlen, "%s: out of memory", dir);
	else if (!*n)
		snprintf(err, errlen, "%s: no fio JSON file (*.json) in this directory; a results "
			 "directory is what jobs/run -o DIR writes", dir), ret = -ENOENT;
	else
		qsort(*names, *n, sizeof(**names), cmp_name);
	return ret;
}

/*
 * A note on run for each DIR/NAME.json.failed: a point of `jobs/run
 * --sweep` that fio failed on (its JSON kept aside, not read).
 * Return: nothing.
 */
static void note_failed_points(const char *dir, struct nv_run *run)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 12 && de->d_name[0] != '.' &&
		    !strcmp(de->d_name + len - 12, ".json.failed"))
			nv_note_add(&run->notes, &run->nnotes,
				    "%s/%s: a point fio failed on (jobs/run --sweep, see the "
				    "directory's *.points): left out, its jobs absent", dir,
				    de->d_name);
	}
	if (d)
		closedir(d);
}

/* Load every *.json of dir into rv. Return: 0 or -errno with err set. */
static int load_dir(const char *dir, struct runvec *rv, char *err, size_t errlen)
{
	size_t n, len = strlen(dir);
	char **names;
	int ret = list_json(dir, &names, &n, err, errlen);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (size_t i = 0; !ret && i < n; i++) {
		struct nv_run *run = runvec_push(rv);
		char *path;

		if (!run || asprintf(&path, "%.*s/%s", (int)len, dir, names[i]) < 0) {
			snprintf(err, errlen, "%s: out of memory", dir);
			ret = -ENOMEM;
			break;
		}
		ret = nv_input_load(path, run, err, errlen);
		free(path);
		if (!ret)
			rv->n++;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!ret)
		note_failed_points(dir, &rv->v[rv->n - 1]);
	return ret;
}

/* Load one PART (a file or a directory) into rv; *dir says which it was. */
static int load_part(const char *path, struct runvec *rv, bool *dir, char *err, size_t errlen)
{
	struct stat sb;
	struct nv_run *run;
	int ret;

	*dir = !stat(path, &sb) && S_ISDIR(sb.st_mode);
	if (*dir)
		return load_dir(path, rv, err, errlen);
	run = runvec_push(rv);
	if (!run) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = nv_input_load(path, run, err, errlen);
	if (!ret)
		rv->n++;
	return ret;
}

/* True when a job of another file of run has the key of job i. */
static bool key_elsewhere(const struct nv_run *run, size_t i)
{
	for (size_t k = 0; k < run->njobs; k++)
		if (run->jobs[k].part != run->jobs[i].part &&
		    !strcmp(run->jobs[k].key, run->jobs[i].key))
			return true;
	return false;
}

/* True when two parts of run are the same file (a page's tests of one machine). */
static bool parts_share_file(const struct nv_run *run)
{
	for (size_t p = 1; p < run->nparts; p++)
		for (size_t q = 0; q < p; q++)
			if (!strcmp(run->parts[p], run->parts[q]))
				return true;
	return false;
}

/*
 * Unique keys in a joined run: "STEM:KEY" for keys found in several files,
 * "KEY #N" (N: its part's place) when the parts are outputs of one file
 * (fio's own way with a name twice in one output, fiojson.c).
 */
static int join_keys(struct nv_run *run)
{
	char **fresh = calloc(run->njobs + 1, sizeof(*fresh));
	bool one_file = parts_share_file(run);
	int ret = 0;

	if (!fresh)
		return -ENOMEM;
	for (size_t i = 0; i < run->njobs && !ret; i++) {
		char stem[256];
		int r;

		if (!key_elsewhere(run, i))
			continue;
		if (one_file) {
			r = asprintf(&fresh[i], "%s #%zu", run->jobs[i].key,
				     run->jobs[i].part + 1);
		} else {
			path_stem(stem, sizeof(stem), run->parts[run->jobs[i].part], false);
			r = asprintf(&fresh[i], "%s:%s", stem, run->jobs[i].key);
		}
		if (r < 0) {
			fresh[i] = NULL;
			ret = -ENOMEM;
		}
	}
	for (size_t i = 0; i < run->njobs; i++) {
		if (!fresh[i])
			continue;
		if (ret) {
			free(fresh[i]);
			continue;
		}
		free(run->jobs[i].key);
		run->jobs[i].key = fresh[i];
	}
	free(fresh);
	return ret;
}

/* The fio versions of the parts, distinct ones joined with ", ". */
static char *join_versions(const struct nv_run *parts, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t p = 0; p < n; p++)
		len += strlen(parts[p].fio_version) + 2;
	s = calloc(1, len);
	for (size_t p = 0; s && p < n; p++) {
		bool seen = false;

		for (size_t q = 0; q < p && !seen; q++)
			seen = !strcmp(parts[q].fio_version, parts[p].fio_version);
		if (!seen)
			sprintf(s + strlen(s), "%s%s", *s ? ", " : "", parts[p].fio_version);
	}
	return s;
}

/* Move the jobs, disks and notes of parts into out (already holding path and parts). */
static int join_move(struct nv_run *parts, size_t n, struct nv_run *out)
{
	size_t njobs = 0, nnotes = 0, ndisks = 0;

	for (size_t p = 0; p < n; p++) {
		njobs += parts[p].njobs;
		nnotes += parts[p].nnotes;
		ndisks += parts[p].ndisks;
	}
	out->jobs = calloc(njobs + 1, sizeof(*out->jobs));
	out->notes = calloc(nnotes + 1, sizeof(*out->notes));
	out->disks = calloc(ndisks + 1, sizeof(*out->disks));
	if (!out->jobs || !out->notes || !out->disks)
		return -ENOMEM;
	for (size_t p = 0; p < n; p++) {
		for (size_t j = 0; j < parts[p].njobs; j++) {
			out->jobs[out->njobs] = parts[p].jobs[j];
			out->jobs[out->njobs++].part = p;
		}
		if (parts[p].nnotes)
			memcpy(out->notes + out->nnotes, parts[p].notes,
			       parts[p].nnotes * sizeof(char *));
		out->nnotes += parts[p].nnotes;
		if (parts[p].ndisks)
			memcpy(out->disks + out->ndisks, parts[p].disks,
			       parts[p].ndisks * sizeof(*out->disks));
		out->ndisks += parts[p].ndisks;
		out->client |= parts[p].client;
		out->objects += parts[p].objects;
		/* order-independent, so a+b and b+a are the same run */
		out->digest += parts[p].digest * 0x9e3779b97f4a7c15ull + (parts[p].digest >> 29);
		free(parts[p].jobs);
		free(parts[p].notes);
		free(parts[p].disks);
		parts[p].jobs = NULL;
		parts[p].notes = NULL;
		parts[p].disks = NULL;
		parts[p].njobs = parts[p].nnotes = parts[p].ndisks = 0;
	}
	return 0;
}

int nv_run_join(struct nv_run *parts, size_t n, const char *path, struct nv_run *out)
{
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->path = strdup(path);
	out->parts = calloc(n + 1, sizeof(*out->parts));
	out->fio_version = join_versions(parts, n);
	if (!out->path || !out->parts || !out->fio_version)
		goto fail;
	for (; out->nparts < n; out->nparts++)
		if (!(out->parts[out->nparts] = strdup(parts[out->nparts].path)))
			goto fail;
	ret = join_move(parts, n, out);
	if (!ret)
		ret = join_keys(out);
	if (!ret)
		return 0;
fail:
	nv_run_free(out);
	return ret;
}

/* Label of a repeat made of files only: the directory they all are in, or "". */
static void common_dir(char *buf, size_t n, const struct nv_run *parts, size_t np)
{
	const char *p0 = parts[0].path, *s0 = strrchr(p0, '/');

	*buf = 0;
	if (!s0 || s0 == p0)
		return;
	for (size_t p = 1; p < np; p++) {
		const char *s = strrchr(parts[p].path, '/');

		if (!s || s - parts[p].path != s0 - p0 ||
		    strncmp(p0, parts[p].path, (size_t)(s0 - p0)))
			return;
	}
	snprintf(buf, n, "%.*s", (int)(s0 - p0), p0);
	path_stem(buf, n, buf, true);
	if (!strcmp(buf, ".") || !strcmp(buf, ".."))
		*buf = 0;
}

/*
 * Load one REPEAT (PART[+PART...]) into *out, its default label into *label.
 * Return: 0 or -errno with err set.
 */
static int load_repeat(const char *text, struct nv_run *out, char **label, char *err,
		       size_t errlen)
{
	struct stat sb;
	struct runvec rv = { 0 };
	bool whole = !stat(text, &sb), dir = false, anydir = false;
	char *copy = strdup(text), *save = NULL, *tok, name[256] = "";
	size_t npieces = 0;
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", text);
		return -ENOMEM;
	}
	for (tok = whole ? copy : strtok_r(copy, "+", &save); tok && !ret;
	     tok = whole ? NULL : strtok_r(NULL, "+", &save), npieces++) {
		ret = load_part(tok, &rv, &dir, err, errlen);
		if (!npieces)
			path_stem(name, sizeof(name), tok, dir);
		anydir |= dir;
	}
	free(copy);
	if (!ret && !rv.n) {
		snprintf(err, errlen, "run '%s' names no file", text);
		ret = -EINVAL;
	}
	if (!ret && npieces > 1 && !anydir)
		common_dir(name, sizeof(name), rv.v, rv.n);
	if (!ret && !*name)
		path_stem(name, sizeof(name), rv.v[0].path, false);
	if (!ret && npieces == 1 && !dir) {
		*out = rv.v[0];	/* a plain file: no join */
		rv.n = 0;
	} else if (!ret && nv_run_join(rv.v, rv.n, text, out)) {
		snprintf(err, errlen, "%s: out of memory", text);
		ret = -ENOMEM;
	}
	if (!ret && !(*label = strdup(name))) {
		nv_run_free(out);
		snprintf(err, errlen, "%s: out of memory", text);
		ret = -ENOMEM;
	}
	runvec_free(&rv);
	return ret;
}

/* True when run holds a job keyed key. */
/* "randread, seqwrite, ..." (at most 6 keys) into buf. */
static void list_keys(char *buf, size_t n, const struct nv_run *run)
{
	size_t len = 0;

	snprintf(buf, n, "%s", run->njobs ? "" : "no job");
	for (size_t j = 0; j < run->njobs && j <= 6 && len < n; j++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", j ? ", " : "",
					j < 6 ? run->jobs[j].key : "...");
}

/*
 * Repeats must hold the same jobs; files holding different ones are parts
 * of one run.  Return: 0, or -EINVAL with err saying how to join them.
 */
static int check_repeats(const char *arg, const struct nv_runset *rs, char *err, size_t errlen)
{
	char ka[512], kb[512];

	for (size_t k = 1; k < rs->nruns; k++) {
		const struct nv_run *a = &rs->runs[0], *b = &rs->runs[k];

		if (nv_run_same_jobs(a, b))
			continue;
		list_keys(ka, sizeof(ka), a);
		list_keys(kb, sizeof(kb), b);
		snprintf(err, errlen,
			 "run '%s': %s and %s hold different jobs (%s: %s; %s: %s), so "
			 "they are not repeats of one configuration; if they are parts of one run "
			 "of a suite, join them with '+' (%s+%s) or give the directory that holds "
			 "them",
			 arg, a->path, b->path, a->path, ka, b->path, kb, a->path, b->path);
		return -EINVAL;
	}
	return 0;
}

/* Room for one more repeat in rs. Return: 0 or -ENOMEM. */
static int grow(struct nv_runset *rs)
{
	struct nv_run *nr;
	char **nl;
	size_t cap = rs->cap ? rs->cap * 2 : 8;

	if (rs->nruns < rs->cap)
		return 0;
	nr = realloc(rs->runs, cap * sizeof(*nr));
	if (nr)
		rs->runs = nr;
	nl = nr ? realloc(rs->labels, cap * sizeof(*nl)) : NULL;
	if (!nl)
		return -ENOMEM;
	rs->labels = nl;
	memset(rs->runs + rs->cap, 0, (cap - rs->cap) * sizeof(*nr));
	memset(rs->labels + rs->cap, 0, (cap - rs->cap) * sizeof(*nl));
	rs->cap = cap;
	return 0;
}

/* Add the loaded repeat at rs->runs[rs->nruns] unless it repeats one already there. */
static void add_repeat(struct nv_runset *rs)
{
	struct nv_run *run = &rs->runs[rs->nruns];

	for (size_t i = 0; i < run->nnotes; i++)
		nv_note_add(&rs->notes, &rs->nnotes, "%s", run->notes[i]);
	for (size_t k = 0; k < rs->nruns; k++) {
		if (rs->runs[k].digest != run->digest || (rs->page && rs->labels[k] &&
							   rs->labels[rs->nruns] &&
							   strcmp(rs->labels[k],
								  rs->labels[rs->nruns])))
			continue;	/* on a page: only a repeat of one machine */
		nv_note_add(&rs->notes, &rs->nnotes,
			    "%s is the same fio output as %s; counted once", run->path,
			    rs->runs[k].path);
		nv_run_free(run);
		free(rs->labels[rs->nruns]);
		rs->labels[rs->nruns] = NULL;
		return;
	}
	rs->nruns++;
}

/*
 * The repeat just loaded at rs->runs[rs->nruns] from the directory dir: a
 * many-host run becomes one repeat per host (hosts.h), labelled by host.
 * Return: 0 (also when it names no host: left as it is), or -ENOMEM.
 */
static int add_hosts(struct nv_runset *rs, const char *dir)
{
	struct nv_hostruns h;
	struct nv_run *run = &rs->runs[rs->nruns];
	char name[256];
	int ret = nv_run_split_hosts(run, dir, &h);

	if (ret || !h.n) {
		add_repeat(rs);
		return ret;
	}
	path_stem(name, sizeof(name), dir, true);
	nv_run_free(run);
	free(rs->labels[rs->nruns]);
	rs->labels[rs->nruns] = NULL;
	for (size_t i = 0; i < h.nnotes; i++)
		nv_note_add(&rs->notes, &rs->nnotes, "%s", h.notes[i]);
	for (size_t i = 0; i < h.n && !ret; i++) {
		if ((ret = grow(rs)))
			break;
		rs->runs[rs->nruns] = h.runs[i];
		memset(&h.runs[i], 0, sizeof(h.runs[i]));
		rs->labels[rs->nruns] = h.hosts[i];
		h.hosts[i] = NULL;
		add_repeat(rs);
	}
	if (!ret && !rs->hosts_of && !(rs->hosts_of = strdup(name))) {
		ret = -ENOMEM;
	} else if (!ret) {
		/* several directories: their common prefix (i7i-a,i7i-b -> i7i) */
		size_t i = 0;

		while (rs->hosts_of[i] && rs->hosts_of[i] == name[i])
			i++;
		while (i > 1 && strchr("-_. ", rs->hosts_of[i - 1]))
			i--;
		if (i)
			rs->hosts_of[i] = 0;
	}
	nv_hostruns_free(&h);
	return ret;
}

/*
 * Run i of page m with the runs joined to it (m->joined: the later runs of
 * its label up to the next one not joined, other tests of its machine) as
 * one run in *out, joined as '+' joins files (their jobs' keys told apart,
 * nv_run_join); alone, moved.  m's runs taken are left empty.
 * Return: 0 or -ENOMEM.
 */
static int join_machine(struct nv_multiout *m, size_t i, struct nv_run *out)
{
	struct nv_run *parts;
	size_t *at, n = 0;
	int ret = -ENOMEM;

	parts = calloc(m->n - i, sizeof(*parts));
	at = calloc(m->n - i, sizeof(*at));
	if (!parts || !at)
		goto out;
	at[n++] = i;
	for (size_t j = i + 1; m->joined && j < m->n; j++) {
		if (strcmp(m->labels[j], m->labels[i]))
			continue;
		if (!m->joined[j])
			break;	/* a repeat of the machine: a run of its own */
		at[n++] = j;
	}
	if (n == 1) {
		*out = m->runs[i];
		memset(&m->runs[i], 0, sizeof(m->runs[i]));
		ret = 0;
		goto out;
	}
	for (size_t p = 0; p < n; p++)
		parts[p] = m->runs[at[p]];
	ret = nv_run_join(parts, n, parts[0].path, out);
	if (!ret) {
		out->format = parts[0].format;
		out->line = parts[0].line;
		out->at = parts[0].at;
		out->text_after = parts[n - 1].text_after;
		if (parts[0].desc && !(out->desc = strdup(parts[0].desc)))
			ret = -ENOMEM;
	}
	for (size_t p = 0; p < n; p++) {
		nv_run_free(&parts[p]);
		memset(&m->runs[at[p]], 0, sizeof(m->runs[at[p]]));
	}
out:
	free(parts);
	free(at);
	return ret;
}

/*
 * The plain file path as repeats of rs: one, or each fio run of a file that
 * holds several (multiout.h), labelled STEM-1, STEM-2, ...; the machines of
 * a page (multiout.h) labelled by their headings, rs->page set, the tests of
 * one machine (m.joined) one run.
 * Return: 0 or -errno with err set.
 */
static int add_file(struct nv_runset *rs, const char *path, char *err, size_t errlen)
{
	struct nv_multiout m;
	char name[256];
	int ret = nv_multiout_load(path, &m, err, errlen);

	path_stem(name, sizeof(name), path, false);
	if (!ret && m.page) {
		rs->page = true;
		free(rs->hosts_of);
		if (!(rs->hosts_of = strdup(name)))
			ret = -ENOMEM;
	}
	for (size_t i = 0; !ret && i < m.n; i++) {
		char label[300];

		if (m.joined && m.joined[i])
			continue;	/* in the run of its machine (join_machine) */
		if (m.page)
			snprintf(label, sizeof(label), "%s", m.labels[i]);
		else if (m.n > 1)
			snprintf(label, sizeof(label), "%s-%zu", name, i + 1);
		else
			snprintf(label, sizeof(label), "%s", name);
		if (grow(rs) || !(rs->labels[rs->nruns] = strdup(label))) {
			ret = -ENOMEM;
			break;
		}
		if ((ret = join_machine(&m, i, &rs->runs[rs->nruns])))
			break;
		add_repeat(rs);
	}
	nv_multiout_free(&m);
	return ret;
}

int nv_runset_load(const char *arg, struct nv_runset *rs, char *err, size_t errlen)
{
	struct stat sb;
	char *copy = strdup(arg), *save = NULL, *tok;
	bool whole = !stat(arg, &sb);
	int ret = 0;

	memset(rs, 0, sizeof(*rs));
	if (!copy || grow(rs)) {
		snprintf(err, errlen, "%s: out of memory", arg);
		ret = -ENOMEM;
		goto out;
	}
	for (tok = whole ? copy : strtok_r(copy, ",", &save); tok && !ret;
	     tok = whole ? NULL : strtok_r(NULL, ",", &save)) {
		if (grow(rs)) {
			ret = -ENOMEM;
		} else if (!stat(tok, &sb) && S_ISREG(sb.st_mode)) {
			ret = add_file(rs, tok, err, errlen);
		} else if (!(ret = load_repeat(tok, &rs->runs[rs->nruns], &rs->labels[rs->nruns],
					       err, errlen))) {
			if (!stat(tok, &sb) && S_ISDIR(sb.st_mode))
				ret = add_hosts(rs, tok);
			else
				add_repeat(rs);
		}
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", arg);
	}
	if (!ret && !rs->nruns) {
		snprintf(err, errlen, "run '%s' names no file", arg);
		ret = -EINVAL;
	}
	if (!ret && !rs->page)
		ret = check_repeats(arg, rs, err, errlen);
out:
	free(copy);
	if (ret)
		nv_runset_free(rs);
	return ret;
}

/* qsort_r's order of repeat indices: by label, then by place (ctx: the labels). */
static int by_label(const void *a, const void *b, void *ctx)
{
	char *const *labels = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(labels[x], labels[y]);

	return c ? c : (x > y) - (x < y);
}

/*
 * The side of each repeat of rs: one per label, numbered in the order the
 * labels first appear, in O(n log n) (a page of 10,000 outputs); *n the
 * number of sides.  Return: side[nruns] (malloc'ed), or NULL.
 */
static size_t *label_sides(const struct nv_runset *rs, size_t *n)
{
	size_t k = rs->nruns, *idx = malloc((k + 1) * sizeof(*idx));
	size_t *side = calloc(k + 1, sizeof(*side)), *first = calloc(k + 1, sizeof(*first));
	size_t *rank = calloc(k + 1, sizeof(*rank)), g = 0;

	*n = 0;
	if (!idx || !side || !first || !rank) {
		free(side);
		side = NULL;
		goto out;
	}
	for (size_t i = 0; i < k; i++)
		idx[i] = i;
	qsort_r(idx, k, sizeof(*idx), by_label, rs->labels);
	for (size_t i = 0; i < k; i++) {	/* groups in label order, each at its first */
		if (i && strcmp(rs->labels[idx[i]], rs->labels[idx[i - 1]]))
			g++;
		if (!i || g != side[idx[i - 1]])
			first[g] = idx[i];
		side[idx[i]] = g;
	}
	*n = k ? g + 1 : 0;
	for (size_t i = 0, r = 0; i < k; i++)	/* ranks: groups by their first repeat */
		if (first[side[i]] == i)
			rank[side[i]] = r++;
	for (size_t i = 0; i < k; i++)
		side[i] = rank[side[i]];
out:
	free(idx);
	free(first);
	free(rank);
	return side;
}

size_t nv_runset_groups(const struct nv_runset *rs)
{
	size_t n = rs->nruns, *side = label_sides(rs, &n);

	free(side);
	return side ? n : rs->nruns;
}

int nv_runset_split(struct nv_runset *rs, struct nv_runset *out)
{
	size_t n, *side = label_sides(rs, &n);
	int ret = side ? 0 : -ENOMEM;

	for (size_t g = 0; !ret && g < n; g++)
		memset(&out[g], 0, sizeof(out[g]));
	for (size_t k = 0; !ret && k < rs->nruns; k++) {	/* room first: nothing moved yet */
		struct nv_runset *o = &out[side[k]];

		ret = grow(o);
		o->nruns++;
	}
	for (size_t g = 0; g < n && side; g++)
		out[g].nruns = 0;
	if (ret) {
		for (size_t g = 0; g < n; g++)
			nv_runset_free(&out[g]);
		free(side);
		return ret;
	}
	for (size_t k = 0; k < rs->nruns; k++) {
		struct nv_runset *o = &out[side[k]];

		o->runs[o->nruns] = rs->runs[k];
		o->labels[o->nruns++] = rs->labels[k];
	}
	free(side);
	out[0].notes = rs->notes;
	out[0].nnotes = rs->nnotes;
	rs->notes = NULL;
	rs->nnotes = 0;
	rs->nruns = 0;
	nv_runset_free(rs);
	return 0;
}

void nv_runset_free(struct nv_runset *rs)
{
	for (size_t k = 0; k < rs->nruns; k++) {
		nv_run_free(&rs->runs[k]);
		free(rs->labels[k]);
	}
	for (size_t i = 0; i < rs->nnotes; i++)
		free(rs->notes[i]);
	free(rs->notes);
	free(rs->runs);
	free(rs->labels);
	free(rs->hosts_of);
	memset(rs, 0, sizeof(*rs));
}

char *nv_runset_label(const struct nv_runset *rs)
{
	const char *first = rs->labels[0];
	size_t len = strlen(first);
	char *s;

	if (rs->hosts_of)
		return strdup(rs->hosts_of);
	for (size_t k = 1; k < rs->nruns; k++) {
		size_t i = 0;

		while (i < len && first[i] == rs->labels[k][i])
			i++;
		len = i;
	}
	while (rs->nruns > 1 && len && strchr("-_. ", first[len - 1]))
		len--;
	if (!len)
		len = strlen(first);
	s = strndup(first, len);
	return s;
}

int nv_runset_find(const char *const *labels, size_t n, const char *s, size_t len, size_t *out)
{
	char pos[32];
	unsigned long idx;

	for (size_t i = 0; i < n; i++) {
		if (strlen(labels[i]) == len && !strncmp(labels[i], s, len)) {
			*out = i;
			return 0;
		}
	}
	if (len >= sizeof(pos))
		return -ENOENT;
	memcpy(pos, s, len);
	pos[len] = 0;
	if (!nv_parse_index(pos, &idx) && idx <= n) {
		*out = idx - 1;
		return 0;
	}
	return -ENOENT;
}
