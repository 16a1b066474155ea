/*
 * jobtraces.c - which traces belong to which job: discovery, --trace (jobtraces.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/common.h"
#include "analyze/input/hosts.h"
#include "analyze/input/jobtraces.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_name.h"

int nv_op_dir(unsigned op)
{
	switch (op) {
	case NVT_OP_READ: return NV_DIR_READ;
	case NVT_OP_WRITE: return NV_DIR_WRITE;
	case NVT_OP_TRIM: return NV_DIR_TRIM;
	default: return -1;
	}
}

void nv_traces_select(struct nv_traceset *ts,
		      bool (*keep)(const struct nv_run *run, size_t job, void *arg), void *arg,
		      unsigned dirs)
{
	ts->dirs = dirs;
	for (size_t i = 0; i < ts->n; i++)
		ts->jt[i].unselected = !keep(ts->jt[i].run, ts->jt[i].job, arg);
}

bool nv_traces_op_shown(const struct nv_traceset *ts, unsigned op)
{
	int d = op == NVT_OP_FLUSH    ? NV_DIR_SYNC
		: op >= NVT_OP_ZEROES ? NV_DIR_WRITE
				      : nv_op_dir(op);

	return !ts->dirs || (d >= 0 && (ts->dirs & (1u << d)));
}

#define ts_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

static int split_paths(const char *s, char ***paths, size_t *n)
{
	struct stat sb;
	char *copy = strdup(s), *save = NULL, *tok;

	*n = 0;
	*paths = calloc(strlen(s) / 2 + 2, sizeof(**paths));
	if (!copy || !*paths) {
		free(copy);
		return -ENOMEM;
	}
	if (!stat(s, &sb)) {
		(*paths)[(*n)++] = copy;
		return 0;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!((*paths)[(*n)++] = strdup(tok))) {
			free(copy);
			return -ENOMEM;
		}
	free(copy);
	return 0;
}

int nv_trace_arg_parse(const char *s, struct nv_trace_arg *a, char *err, size_t errlen)
{
	struct stat sb;
	const char *p = s, *colon, *eq;
	int ret;

	memset(a, 0, sizeof(*a));
	if (stat(s, &sb)) {
		colon = strchr(p, ':');
		if (colon && colon > p && !strchr(colon + 1, ':') &&
		    memchr(p, '/', (size_t)(colon - p)) == NULL) {
			a->run = strndup(p, (size_t)(colon - p));
			p = colon + 1;
		}
		eq = strchr(p, '=');
		if (eq && eq > p) {
			a->job = strndup(p, (size_t)(eq - p));
			p = eq + 1;
		}
	}
	if (!*p) {
		snprintf(err, errlen,
			 "--trace '%s': no trace file (expected [RUN:][JOB=]FILE[,FILE...])", s);
		nv_trace_arg_free(a);
		return -EINVAL;
	}
	ret = split_paths(p, &a->paths, &a->npaths);
	if (ret || !a->npaths) {
		snprintf(err, errlen, "--trace '%s': %s", s,
			 ret ? "out of memory" : "no trace file");
		nv_trace_arg_free(a);
		return -EINVAL;
	}
	return 0;
}

void nv_trace_arg_free(struct nv_trace_arg *a)
{
	free(a->run);
	free(a->job);
	for (size_t i = 0; i < a->npaths; i++)
		free(a->paths[i]);
	free(a->paths);
	memset(a, 0, sizeof(*a));
}

int nv_trace_pattern(char *buf, size_t n, const char *dir, const char *jobname, unsigned thread)
{
	int ret = nv_trace_filename(buf, n, dir, jobname, thread);
	size_t len;

	if (ret || thread)
		return ret;
	len = strlen(buf);	/* "DIR/NAME.0.nvt" -> "DIR/NAME.*.nvt" */
	buf[len - 5] = '*';
	return 0;
}

static struct nv_jobtraces *find_entry(struct nv_traceset *ts, const struct nv_run *run,
				       size_t job)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->jt[i].run == run && ts->jt[i].job == job)
			return &ts->jt[i];
	return NULL;
}

int nv_traces_add(struct nv_traceset *ts, const struct nv_run *run, size_t job, char **paths,
		  size_t npaths, bool explicit_)
{
	struct nv_jobtraces *e = find_entry(ts, run, job), *n;
	char **np;

	if (!e) {
		n = realloc(ts->jt, (ts->n + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		ts->jt = n;
		e = &ts->jt[ts->n++];
		memset(e, 0, sizeof(*e));
		e->run = run;
		e->job = job;
	}
	e->explicit_ |= explicit_;
	np = realloc(e->paths, (e->npaths + npaths) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	e->paths = np;
	for (size_t i = 0; i < npaths; i++)
		if (!(e->paths[e->npaths++] = strdup(paths[i])))
			return -ENOMEM;
	return 0;
}

int nv_trace_arg_job(const struct nv_run *run, const struct nv_trace_arg *a, size_t *job,
		     char *err, size_t errlen)
{
	const char *name = a->job;
	struct nvt_reader *r = NULL;
	int found = -1, ret;

	if (!name && run->njobs == 1) {
		*job = 0;
		return 0;
	}
	if (!name) {
		if ((ret = nvt_reader_open(&r, a->paths[0]))) {
			snprintf(err, errlen, "%s", r ? nvt_reader_strerror(r) : "cannot open");
			nvt_reader_close(r);
			return ret < 0 ? ret : -EIO;
		}
		name = nvt_reader_get(r, "job.name");
	}
	for (size_t j = 0; name && j < run->njobs; j++)
		if (!strcmp(run->jobs[j].key, name) ||
		    (!a->job && !strcmp(run->jobs[j].name, name))) {
			if (found >= 0 && !a->job) {
				found = -2;
				break;
			}
			found = (int)j;
		}
	if (found < 0)
		snprintf(err, errlen, "%s job '%s' in %s", found == -2 ? "more than one" : "no",
			 name ? name : "?", run->path);
	else
		*job = (size_t)found;
	nvt_reader_close(r);
	return found < 0 ? -ENOENT : 0;
}

struct found {
	unsigned thread;
	char *path;
};

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	return (x->thread > y->thread) - (x->thread < y->thread);
}

/* The files DIR/NAME.<digits>.nvt, by thread number. */
static int list_traces(const char *dir, const char *name, struct found **out, size_t *n)
{
	char pat[4096], *star, *slash;
	size_t plen, slen;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (nv_trace_pattern(pat, sizeof(pat), dir, name, 0))
		return -ENAMETOOLONG;
	slash = strrchr(pat, '/');
	star = strrchr(pat, '*');
	*slash = 0;
	*star = 0;
	plen = strlen(slash + 1);	/* "NAME." */
	slen = strlen(star + 1);	/* ".nvt" */
	d = opendir(pat);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *f = de->d_name, *digits = f + plen;
		size_t len = strlen(f), nd;
		struct found *nf;

		if (len <= plen + slen || strncmp(f, slash + 1, plen) ||
		    strcmp(f + len - slen, star + 1))
			continue;
		nd = len - plen - slen;
		if (strspn(digits, "0123456789") != nd || nd > 9)
			continue;
		nf = realloc(*out, (*n + 1) * sizeof(*nf));
		if (!nf) {
			ret = -ENOMEM;
			break;
		}
		*out = nf;
		nf[*n].thread = (unsigned)strtoul(digits, NULL, 10);
		if (asprintf(&nf[*n].path, "%s/%s", pat, f) < 0) {
			ret = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_found);
	return ret;
}

/* The directory of the fio JSON file @json ("." when it names none) into @base. */
static void json_dir(const char *json, char *base, size_t len)
{
	const char *slash = strrchr(json, '/');

	if (slash && (size_t)(slash - json) < len) {
		memcpy(base, json, (size_t)(slash - json));
		base[slash - json] = 0;
	} else {
		snprintf(base, len, ".");
	}
}

/*
 * A relative nv_trace=DIR is relative to where fio ran, which is usually
 * where it wrote its JSON: list DIR next to the JSON file @json first (when
 * that is elsewhere), then DIR from nvanalyze's working directory.
 * Return: list_traces()'s result.
 */
static int list_traces_at(const char *json, const char *trace_dir, const char *name,
			  struct found **f, size_t *nf)
{
	char base[4096], dir[8192];
	int ret;

	if (trace_dir[0] != '/' && strchr(json, '/')) {
		json_dir(json, base, sizeof(base));
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", base, trace_dir) < sizeof(dir)) {
			ret = list_traces(dir, name, f, nf);
			if (ret || *nf)
				return ret;
			free(*f);
		}
	}
	return list_traces(trace_dir, name, f, nf);
}

/*
 * Results copied from the machine that ran fio (another host, a VM) keep
 * their layout but not their absolute paths: when nv_trace=DIR does not
 * exist here, look for DIR's trailing components next to the JSON file
 * (for /results/a/traces/job and a JSON in out/a/: out/a/job,
 * out/a/traces/job, out/a/a/traces/job, ...).  @json is the job's fio JSON
 * file.  On success @dir holds the directory used.
 * Return: list_traces()'s result.
 */
static int list_traces_near(const char *json, const char *trace_dir, const char *name,
			    struct found **f, size_t *nf, char *dir, size_t dirlen)
{
	char base[4096];
	const char *p;
	int ret;

	json_dir(json, base, sizeof(base));
	*f = NULL;
	*nf = 0;
	for (p = trace_dir + strlen(trace_dir); p > trace_dir; p--) {
		if (p[-1] != '/' || !p[0])
			continue;
		if ((size_t)snprintf(dir, dirlen, "%s/%s", base, p) >= dirlen)
			continue;
		ret = list_traces(dir, name, f, nf);
		if (ret || *nf)
			return ret;
	}
	return 0;
}

/*
 * The nf traces f found for the ne entries idx of one job name: E == 1
 * takes them all, E == T pairs them in order, else a note.  pat names them
 * in messages.  Frees f.  Return: 0 or -ENOMEM.
 */
static int pair_traces(const struct nv_run *run, const size_t *idx, size_t ne, struct found *f,
		       size_t nf, const char *pat, struct nv_traceset *ts)
{
	const struct nv_job *j = &run->jobs[idx[0]];
	int ret = 0;

	if (ne == 1) {
		for (size_t i = 0; i < nf && !ret; i++)
			ret = nv_traces_add(ts, run, idx[0], &f[i].path, 1, false);
	} else if (ne == nf) {
		for (size_t i = 0; i < nf && !ret; i++)
			ret = nv_traces_add(ts, run, idx[i], &f[i].path, 1, false);
	} else if (nf) {
		ts_note(ts, "%s: %zu entries of job '%s' but %zu traces %s: cannot pair them; "
			"using fio's values (give them with --trace)", nv_job_file(run, j), ne,
			j->name, nf, pat);
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i].path);
	free(f);
	return ret;
}

static int discover_group(const struct nv_run *run, const size_t *idx, size_t ne,
			  struct nv_traceset *ts)
{
	const struct nv_job *j = &run->jobs[idx[0]];
	const char *json = nv_job_file(run, j);
	struct found *f;
	size_t nf;
	char pat[4096], moved[4096];
	int ret = list_traces_at(json, j->trace_dir, j->name, &f, &nf);

	if (!ret && !nf) {
		free(f);
		ret = list_traces_near(json, j->trace_dir, j->name, &f, &nf, moved, sizeof(moved));
		if (!ret && nf)
			nv_note_add(&ts->infos, &ts->ninfos,
				    "%s: job '%s' traced to nv_trace=%s, not here: using the "
				    "traces in %s next to the JSON file",
				    json, j->key, j->trace_dir, moved);
	}
	if (ret)
		return ret;
	nv_trace_pattern(pat, sizeof(pat), j->trace_dir, j->name, 0);
	if (!nf)
		ts_note(ts, "%s: job '%s' wrote traces with nv_trace=%s, but no %s exists: "
			"using fio's binned percentiles (give the traces with --trace)",
			json, j->key, j->trace_dir, pat);
	return pair_traces(run, idx, ne, f, nf, pat, ts);
}

/*
 * The entries idx of one job name and host of a client/server run: their
 * traces where jobs/run --host puts them (hosts.h: DIR/HOST/traces/NAME/).
 * Return: 0 or -ENOMEM.
 */
static int discover_host(const struct nv_run *run, const size_t *idx, size_t ne,
			 struct nv_traceset *ts)
{
	const struct nv_job *j = &run->jobs[idx[0]];
	const char *json = nv_job_file(run, j);
	char dir[4096], pat[8192], hostdir[4096];
	struct found *f = NULL;
	struct stat sb;
	size_t nf = 0;
	int ret;

	if (!nv_host_trace_dir(dir, sizeof(dir), json, j->host)) {
		memcpy(hostdir, dir, sizeof(dir));
		*strrchr(hostdir, '/') = 0;	/* DIR/HOST/traces/STEM -> DIR/HOST */
		*strrchr(hostdir, '/') = 0;
	}
	if (nv_host_trace_dir(dir, sizeof(dir), json, j->host) ||
	    stat(hostdir, &sb) || !S_ISDIR(sb.st_mode)) {
		ts_note(ts, "%s: job '%s' traced to %s on host %s: copy the traces here and give "
			"them with --trace", json, j->key, j->trace_dir, j->host);
		return 0;
	}
	ret = list_traces(dir, j->name, &f, &nf);
	if (ret)
		return ret;
	nv_trace_pattern(pat, sizeof(pat), dir, j->name, 0);
	if (!nf)
		ts_note(ts, "%s: job '%s' on host %s: fio's numbers: traces not fetched (no %s; "
			"see %s/status)", json, j->key, j->host, pat, hostdir);
	return pair_traces(run, idx, ne, f, nf, pat, ts);
}

int nv_traces_discover(const struct nv_run *run, struct nv_traceset *ts)
{
	size_t *idx = calloc(run->njobs + 1, sizeof(*idx));
	bool *done = calloc(run->njobs + 1, sizeof(*done));
	int ret = 0;

	if (!idx || !done) {
		free(idx);
		free(done);
		return -ENOMEM;
	}
	for (size_t i = 0; i < run->njobs && !ret; i++) {
		const struct nv_job *j = &run->jobs[i];
		size_t ne = 0;

		if (done[i] || !j->trace_dir)
			continue;
		for (size_t k = i; k < run->njobs; k++) {
			const struct nv_job *o = &run->jobs[k];

			if (!done[k] && o->trace_dir && o->part == j->part &&
			    !strcmp(o->name, j->name) &&
			    (j->host ? o->host && !strcmp(o->host, j->host) :
			     !o->host && !strcmp(o->trace_dir, j->trace_dir))) {
				done[k] = true;
				if (!find_entry(ts, run, k))
					idx[ne++] = k;
			}
		}
		if (ne)
			ret = j->host ? discover_host(run, idx, ne, ts)
				      : discover_group(run, idx, ne, ts);
	}
	free(idx);
	free(done);
	return ret;
}

void nv_traceset_free(struct nv_traceset *ts)
{
	for (size_t i = 0; i < ts->n; i++) {
		for (size_t k = 0; k < ts->jt[i].npaths; k++)
			free(ts->jt[i].paths[k]);
		free(ts->jt[i].paths);
	}
	free(ts->jt);
	for (size_t i = 0; i < ts->nnotes; i++)
		free(ts->notes[i]);
	for (size_t i = 0; i < ts->ninfos; i++)
		free(ts->infos[i]);
	free(ts->infos);
	free(ts->notes);
	memset(ts, 0, sizeof(*ts));
}
