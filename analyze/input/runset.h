/*
 * runset.h - one RUN argument of nvanalyze: the repeats of one
 * configuration, each one run of the suite made of one or more fio JSON files.
 *
 *   RUN    := REPEAT[,REPEAT...]        repeated runs (comma-separated)
 *   REPEAT := PART[+PART...]            one run made of several files
 *   PART   := FILE | DIRECTORY          a directory: all its *.json files
 *
 * A directory is what jobs/run writes (results/HOST/: NAME.json per job
 * file, traces in traces/NAME/): all its fio JSON files together are one
 * run of the suite.  Any argument or piece that names an existing file or
 * directory is taken whole (commas and '+' in names work).  The repeats
 * must hold the same set of jobs: files that hold different jobs are parts
 * of one run, and the message says how to join them.
 *
 * A results directory of a many-host run (jobs/run --host: the client's
 * JSON with an entry per host and job, hosts.h) gives one repeat per host,
 * labelled by host, the side labelled by the directory.
 */
#ifndef NV_ANALYZE_RUNSET_H
#define NV_ANALYZE_RUNSET_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

struct nv_runset {
	size_t nruns;
	struct nv_run *runs;	/* the repeats */
	char **labels;		/* [nruns]: each repeat's default label */
	size_t cap;		/* runs and labels allocated */
	char *hosts_of;		/* the repeats are the hosts of this directory, or the
				 * machines of this page (page set), or NULL */
	bool page;		/* the machines of one file's page (multiout.h) */
	size_t nnotes;
	char **notes;		/* warnings for stderr */
};

/*
 * Load the RUN argument arg.  The same fio output given twice as repeats is
 * counted once (a note).  Return: 0 and *rs filled (free with
 * nv_runset_free), or -errno / -EINVAL with a message naming the file, the
 * argument and the fix in err (and nothing to free).
 */
int nv_runset_load(const char *arg, struct nv_runset *rs, char *err, size_t errlen);

void nv_runset_free(struct nv_runset *rs);

/*
 * The number of different labels of rs's repeats: the sides
 * nv_runset_split makes.  Return: that number.
 */
size_t nv_runset_groups(const struct nv_runset *rs);

/*
 * Each label of rs's repeats its own runset (its runs, that label): the
 * hosts of one many-host directory, the machines of a page (a machine's
 * repeats together) as sides of their own.  rs is emptied.
 * Return: 0 and out[0..nv_runset_groups(rs)) filled (out has room for
 * them), or -ENOMEM (rs unchanged, out empty).
 */
int nv_runset_split(struct nv_runset *rs, struct nv_runset *out);

/*
 * Join parts[0..n) (each loaded from one file) into one run named path:
 * their jobs in order, each remembering its file (nv_job_file); a job name
 * found in several files gets the key "STEM:KEY" (STEM: its file's name
 * without .json) so that keys stay unique.  The parts are emptied into out
 * (free them with nv_run_free all the same).
 * Return: 0 or -ENOMEM.
 */
int nv_run_join(struct nv_run *parts, size_t n, const char *path, struct nv_run *out);

/*
 * The default label of a side: for a directory its name (results/i7i/ ->
 * i7i), for a file its name without extension, for a '+' join the name of
 * the directory all its files are in (else the first file's); for repeats
 * the common prefix of theirs without a trailing separator
 * (results/i7i-1,results/i7i-2 -> i7i), or the first one's; for the hosts
 * of a many-host directory its name.
 * Return: a string to free, or NULL (out of memory).
 */
char *nv_runset_label(const struct nv_runset *rs);

/*
 * The run a RUN argument names (--baseline, --pair, --price, --trace):
 * the len bytes at s as one of labels[0..n), else as a 1-based position.
 * Return: 0 with *out its index, or -ENOENT.
 */
int nv_runset_find(const char *const *labels, size_t n, const char *s, size_t len, size_t *out);

#endif
