/*
 * hosts.h - the results of a many-host run (jobs/run --host): one fio
 * client ran each job file on every host, so
 *
 *   DIR/NAME.json            the client's JSON: client_stats, one entry per
 *                            host and job (plus fio's "All clients" sums)
 *   DIR/HOST/traces/NAME/    HOST's traces of NAME.json, fetched by jobs/run
 *   DIR/HOST/status          "ok", or what failed on HOST
 *
 * HOST is the name the client was given, the "hostname" of the entries.
 * A results directory of such a run is one side whose repeats are its hosts
 * (runset.c); a client/server entry finds its traces by host and job
 * (jobtraces.c).
 */
#ifndef NV_ANALYZE_HOSTS_H
#define NV_ANALYZE_HOSTS_H

#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * The directory of host's traces of the entries of the fio JSON file json:
 * "JSONDIR/HOST/traces/STEM" (STEM: the file's name without ".json").
 * Return: 0, -EINVAL for a host that is no plain name (empty, '/', "." or
 * ".."), or -ENAMETOOLONG when it does not fit in buf (n bytes).
 */
int nv_host_trace_dir(char *buf, size_t n, const char *json, const char *host);

/* One run per host, from nv_run_split_hosts. */
struct nv_hostruns {
	size_t n;
	struct nv_run *runs;	/* [n], each holding one host's jobs */
	char **hosts;		/* [n] */
	size_t nnotes;
	char **notes;		/* what was left out, hosts missing: for stderr */
};

/*
 * Split run, loaded from the results directory dir (or NULL: a file), into
 * one run per host when it is client/server output naming hosts: each
 * host's entries, keyed by job name as a one-host run would be ("STEM:NAME"
 * when a name is in several files), sorted by host name.  The
 * "All clients" sums, and disk_util (not kept per host), are left out with
 * a note; hosts holding fewer jobs than the others are left out with a
 * note; so are hosts of dir (a subdirectory with a status file) that are
 * not in the JSON ("missing", with the status file's first failure).
 * run is emptied into out (free it with nv_run_free all the same).
 * Return: 0 with out->n = 0 when run names no host (nothing done), 0 and
 * out filled (free with nv_hostruns_free), or -ENOMEM.
 */
int nv_run_split_hosts(struct nv_run *run, const char *dir, struct nv_hostruns *out);

void nv_hostruns_free(struct nv_hostruns *h);

#endif
