/*
 * fiojson.c - read fio's JSON output (fio 2.x .. 3.4x) into struct nv_run.
 *
 * The quirks handled, by fio version and origin:
 *  - latency objects "slat"/"clat"/"lat" in microseconds (fio < 2.99) or
 *    "slat_ns"/"clat_ns"/"lat_ns" in nanoseconds; both become nanoseconds;
 *  - "io_bytes" in KiB (old fio, no "io_kbytes") or bytes; "bw" in whole
 *    KiB/s (fio's integer division: its precision 1 KiB/s), "bw_bytes" in
 *    bytes/s (fio >= 3.2); "iops" an integer or a float;
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
#include "analyze/input/fiojson_parts.h"

bool nv_run_is_fio(const struct nv_run *run)
{
	return !run->format || !strncmp(run->format, "fio", 3);
}

bool nv_run_means_only(const struct nv_run *run)
{
	return run->format && !strcmp(run->format, "crystaldiskmark");
}

bool nv_run_no_latency(const struct nv_run *run)
{
	if (!run->format || strncmp(run->format, "diskspd", 7))
		return false;
	for (size_t j = 0; j < run->njobs; j++)
		for (int d = 0; d < NV_DIR_NR; d++)
			if (run->jobs[j].dir[d].lat[NV_LAT_TOTAL].npoints ||
			    run->jobs[j].dir[d].lat[NV_LAT_TOTAL].mean.src)
				return false;
	return true;
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
		if (tolower((unsigned char)end[0]) == 'i' &&
		    tolower((unsigned char)end[1]) == 'b') {
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

/*
 * rw= and bs= (also blocksize=) of a job, from its or the global options,
 * bs under the kb_base it was parsed under (job->meta, read before).
 */
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
		job->bs[d] = bs ? nv_fio_bs_parse(bs, (enum nv_dir)d, job->meta.bs_kb) : 0;
	return 0;
}

/* CPU, context switches, page faults and latency buckets of a job. */
static int parse_jobextra(const json_t *e, struct nv_jobextra *x)
{
	static const char *const keys[] = { "usr_cpu", "sys_cpu", "ctx", "majf", "minf" };
	struct nv_val *dst[] = { &x->usr_cpu, &x->sys_cpu, &x->ctx, &x->majf, &x->minf };
	double v;

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (fj_get_num(e, keys[i], &v))
			fj_set_val(dst[i], v);
	return fj_parse_buckets(e, x);
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
	if (fj_get_num(e, "groupid", &v))
		job->groupid = (int)v;
	if (fj_get_num(e, "error", &v)) {
		job->error = (int)v;
		job->have_error = true;
	}
	/* the options (load curves), and the kb_base bs= is read under */
	if (nv_jobmeta_parse(e, options_for(json_object_get(e, "job options"), host),
			     options_for(gopts, host), &job->meta))
		return -ENOMEM;
	if (job_options(e, gopts, host, job) || parse_jobextra(e, &job->x))
		return -ENOMEM;
	for (unsigned d = 0; d < NV_DIR_NR; d++) {
		const json_t *dobj = json_object_get(e, nv_dir_name(d));

		if (json_is_object(dobj) && fj_parse_dir(dobj, &job->dir[d]))
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

static bool has_key(const struct nv_run *run, const char *key)
{
	for (size_t j = 0; j < run->njobs; j++)
		if (!strcmp(run->jobs[j].key, key))
			return true;
	return false;
}

/* The header says what it does. */
bool nv_run_same_jobs(const struct nv_run *a, const struct nv_run *b)
{
	for (size_t j = 0; j < a->njobs; j++)
		if (!has_key(b, a->jobs[j].key))
			return false;
	for (size_t j = 0; j < b->njobs; j++)
		if (!has_key(a, b->jobs[j].key))
			return false;
	return true;
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

			if (fj_get_num(e, disk_fields[f], &v))
				fj_set_val(&dk->v[f], v);
			snprintf(key, sizeof(key), "aggr_%s",
				 f == NV_DISK_WRITE_MERGES ? "write_merge" : disk_fields[f]);
			if (fj_get_num(e, key, &v)) {
				fj_set_val(&dk->aggr_v[f], v);
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

/* nv_fio_parse; text_read: the text around the JSON is read by the caller. */
static int fio_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		     char *err, size_t errlen, bool text_read)
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
		conv = fj_utf16_to_utf8(u + 2, len - 2, u[0] == 0xfe, &len);
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
	fj_find_objects(buf, len, &f);
	if (!f.objects) {
		ret = -EINVAL;
		if (f.have_err) {
			char pos[512];

			fj_err_pos(pos, sizeof(pos), path, buf, len, f.first_err_off,
				   &f.first_err);
			snprintf(err, errlen, "%s: not valid JSON: %s", pos, f.first_err.text);
		} else if (f.first_not_fio) {
			snprintf(err, errlen,
				 "%s: JSON but not fio output (no \"jobs\" or \"client_stats\" "
				 "array)", path);
		} else {
			snprintf(err, errlen, "%s: %s", path,
				 len ? "no JSON object found "
				       "(not fio --output-format=json output?)"
				     : "empty file");
		}
		goto out;
	}
	fj_framing_notes(run, buf, len, &f, text_read);
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

int nv_fio_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		 char *err, size_t errlen)
{
	return fio_parse(buf, len, path, run, err, errlen, false);
}

int nv_fio_parse_beside_text(const char *buf, size_t len, const char *path, struct nv_run *run,
			     char *err, size_t errlen)
{
	return fio_parse(buf, len, path, run, err, errlen, true);
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
