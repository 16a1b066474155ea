/*
 * hosts.c - many-host runs (hosts.h): each host a run, its traces by host.
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

/* The file name of path without its directory and its ".json" ("a/b.json" -> "b"). */
static void json_stem(char *buf, size_t n, const char *path)
{
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	snprintf(buf, n, "%.*s", (int)len, b);
}

int nv_host_trace_dir(char *buf, size_t n, const char *json, const char *host)
{
	const char *slash = strrchr(json, '/');
	char stem[256];
	int len;

	if (!*host || strchr(host, '/') || !strcmp(host, ".") || !strcmp(host, ".."))
		return -EINVAL;
	json_stem(stem, sizeof(stem), json);
	if (slash)
		len = snprintf(buf, n, "%.*s/%s/traces/%s", (int)(slash - json), json, host, stem);
	else
		len = snprintf(buf, n, "%s/traces/%s", host, stem);
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

/* The index of host h in hosts[0..n), or n. */
static size_t host_index(char *const *hosts, size_t n, const char *h)
{
	size_t i;

	for (i = 0; i < n && strcmp(hosts[i], h); i++)
		;
	return i;
}

static int cmp_host(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The distinct hosts of run, sorted by name (fio lists them in the order
 * they finished), into out->hosts.  Return: 0 or -ENOMEM.
 */
static int list_hosts(const struct nv_run *run, struct nv_hostruns *out)
{
	out->hosts = calloc(run->njobs + 1, sizeof(*out->hosts));
	if (!out->hosts)
		return -ENOMEM;
	for (size_t i = 0; i < run->njobs; i++) {
		const char *h = run->jobs[i].host;

		if (!h || host_index(out->hosts, out->n, h) < out->n)
			continue;
		if (!(out->hosts[out->n] = strdup(h)))
			return -ENOMEM;
		out->n++;
	}
	qsort(out->hosts, out->n, sizeof(*out->hosts), cmp_host);
	return 0;
}

/*
 * The key a one-host run gives job i of r: its name, " #N" among the
 * entries of that name in its file, "STEM:" when the name is in another
 * file of the run too.  Return: 0 or -ENOMEM.
 */
static int host_key(struct nv_run *r, size_t i)
{
	const struct nv_job *j = &r->jobs[i];
	unsigned nth = 0, total = 0;
	bool elsewhere = false;
	char stem[256] = "", num[32] = "", *k;

	for (size_t o = 0; o < r->njobs; o++) {
		if (strcmp(r->jobs[o].name, j->name))
			continue;
		if (r->jobs[o].part != j->part) {
			elsewhere = true;
			continue;
		}
		total++;
		nth += o < i;
	}
	if (total > 1)
		snprintf(num, sizeof(num), " #%u", nth + 1);
	if (elsewhere && r->nparts) {
		json_stem(stem, sizeof(stem) - 1, r->parts[j->part]);
		strcat(stem, ":");
	}
	if (asprintf(&k, "%s%s%s", stem, j->name, num) < 0)
		return -ENOMEM;
	free(r->jobs[i].key);
	r->jobs[i].key = k;
	return 0;
}

/* Run h of out: run's frame (path, parts, version) and the jobs of host h moved in. */
static int fill_host_run(struct nv_run *run, const char *host, struct nv_run *r)
{
	uint64_t hh = 1469598103934665603ull;
	size_t mine = 0;

	/* host's jobs only: hosts x jobs otherwise */
	for (size_t i = 0; i < run->njobs; i++)
		mine += run->jobs[i].host && !strcmp(run->jobs[i].host, host);
	for (const char *p = host; *p; p++)
		hh = (hh ^ (unsigned char)*p) * 1099511628211ull;
	memset(r, 0, sizeof(*r));
	r->client = true;
	r->objects = run->objects;
	r->digest = run->digest ^ hh;
	if (asprintf(&r->path, "%s@%s", run->path, host) < 0) {
		r->path = NULL;
		return -ENOMEM;
	}
	r->fio_version = strdup(run->fio_version);
	r->parts = calloc(run->nparts + 2, sizeof(*r->parts));
	r->jobs = calloc(mine + 1, sizeof(*r->jobs));
	if (!r->fio_version || !r->parts || !r->jobs)
		return -ENOMEM;
	/* a single file becomes the one part, so nv_job_file names it, not path@host */
	if (!run->nparts && !(r->parts[r->nparts++] = strdup(run->path)))
		return -ENOMEM;
	for (; r->nparts < run->nparts; r->nparts++)
		if (!(r->parts[r->nparts] = strdup(run->parts[r->nparts])))
			return -ENOMEM;
	for (size_t i = 0; i < run->njobs; i++) {
		if (!run->jobs[i].host || strcmp(run->jobs[i].host, host))
			continue;
		r->jobs[r->njobs++] = run->jobs[i];
		memset(&run->jobs[i], 0, sizeof(run->jobs[i]));
	}
	for (size_t i = 0; i < r->njobs; i++)
		if (host_key(r, i))
			return -ENOMEM;
	return 0;
}

/*
 * Drop the host runs holding fewer jobs than the fullest one, with a note;
 * their names move, in order, to out->hosts[out->n ..) (the caller frees them).
 */
static void drop_partial(struct nv_hostruns *out, const char *where)
{
	size_t most = 0, k = 0;

	for (size_t i = 0; i < out->n; i++)
		if (out->runs[i].njobs > most)
			most = out->runs[i].njobs;
	for (size_t i = 0; i < out->n; i++) {
		char *h = out->hosts[i];

		if (out->runs[i].njobs < most) {
			nv_note_add(&out->notes, &out->nnotes,
				    "%s: host %s holds %zu of the %zu jobs of the other hosts (a "
				    "job file failed there: see its status file): left out", where,
				    h, out->runs[i].njobs, most);
			nv_run_free(&out->runs[i]);
			continue;
		}
		/* kept: to slot k, the names dropped so far one slot up, behind it */
		memmove(&out->hosts[k + 1], &out->hosts[k], (i - k) * sizeof(*out->hosts));
		out->hosts[k] = h;
		out->runs[k++] = out->runs[i];
	}
	out->n = k;
}

/*
 * Hosts of dir (subdirectories with a status file) that are not among
 * out->hosts[0..nall) (the kept ones and those drop_partial left out,
 * noted already): a note each, with the first "failed" line of the
 * status file.
 */
static void note_missing(struct nv_hostruns *out, const char *dir, size_t nall)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[4096], line[512] = "";
		FILE *f;

		if (de->d_name[0] == '.' || host_index(out->hosts, nall, de->d_name) < nall)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s/status", dir, de->d_name) >=
		    sizeof(path) || !(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f) && strncmp(line, "failed", 6))
			;
		fclose(f);
		line[strcspn(line, "\n")] = 0;
		nv_note_add(&out->notes, &out->nnotes, "%s: host %s missing: %s (%s)", dir,
			    de->d_name, strncmp(line, "failed", 6) ? "no results" : line, path);
	}
	if (d)
		closedir(d);
}

int nv_run_split_hosts(struct nv_run *run, const char *dir, struct nv_hostruns *out)
{
	size_t all = 0, nall;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!run->client || (ret = list_hosts(run, out)) || !out->n) {
		nv_hostruns_free(out);
		return run->client ? ret : 0;
	}
	out->runs = calloc(out->n, sizeof(*out->runs));
	if (!out->runs)
		goto nomem;
	for (size_t h = 0; h < out->n; h++)
		if (fill_host_run(run, out->hosts[h], &out->runs[h]))
			goto nomem;
	for (size_t i = 0; i < run->njobs; i++)
		all += run->jobs[i].name != NULL;
	if (all)
		nv_note_add(&out->notes, &out->nnotes, "%s: each host a run; fio's %zu "
			    "\"All clients\" sums left out", run->path, all);
	if (run->ndisks)
		nv_note_add(&out->notes, &out->nnotes, "%s: disk_util (%zu devices) left out: the "
			    "run has several hosts", run->path, run->ndisks);
	for (size_t i = 0; i < run->nnotes; i++)
		nv_note_add(&out->notes, &out->nnotes, "%s", run->notes[i]);
	nall = out->n;
	drop_partial(out, run->path);
	if (dir)
		note_missing(out, dir, nall);
	for (size_t h = out->n; h < nall; h++) {
		free(out->hosts[h]);
		out->hosts[h] = NULL;
	}
	return 0;
nomem:
	nv_hostruns_free(out);
	return -ENOMEM;
}

void nv_hostruns_free(struct nv_hostruns *h)
{
	for (size_t i = 0; i < h->n; i++) {
		if (h->runs)
			nv_run_free(&h->runs[i]);
		free(h->hosts[i]);
	}
	free(h->runs);
	free(h->hosts);
	for (size_t i = 0; i < h->nnotes; i++)
		free(h->notes[i]);
	free(h->notes);
	memset(h, 0, sizeof(*h));
}
