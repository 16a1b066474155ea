/*
 * trace_util.h - helpers of the trace writer tests: a footer key's value,
 * the tid of a named thread, the records of a trace checked in order, and
 * a disk that fills under a writer appending until it fails; of the
 * analysis tests: a job's thread traces written, and merged by completion.
 */
#ifndef NV_TRACE_UTIL_H
#define NV_TRACE_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "trace/nvtrace.h"

/* The footer value of key in the trace at path, copied into buf ("" if none).  Return: buf. */
static inline const char *footer_str(const char *path, const char *key, char *buf, size_t len)
{
	struct nvt_reader *r;
	const char *v = NULL;

	buf[0] = 0;
	if (!nvt_reader_open(&r, path) && !nvt_reader_footer_get(r, key, &v) && v)
		snprintf(buf, len, "%s", v);
	nvt_reader_close(r);
	return buf;
}

/* The footer's key of the trace at path as a number; UINT64_MAX when it cannot be read. */
static inline uint64_t footer_u64(const char *path, const char *key)
{
	char v[64];

	if (!*footer_str(path, key, v, sizeof(v)))
		return UINT64_MAX;
	return strtoull(v, NULL, 10);
}

/* The tid of this process's thread named name, or -1. */
static inline pid_t thread_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t tid = -1;

	if (!d)
		return -1;
	while (tid < 0 && (e = readdir(d))) {
		char p[300], comm[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, name, strlen(name)))
			tid = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return tid;
}

/*
 * Records of the trace at path whose offsets are 0, 4096, 8192, ... in order:
 * their count, or -1 on a gap or an error.
 */
static inline long records_in_order(const char *path)
{
	const struct nvt_record *rec;
	struct nvt_reader *r;
	long count = 0;
	size_t n;
	int rc;

	if (nvt_reader_open(&r, path)) {
		nvt_reader_close(r);
		return -1;
	}
	while ((rc = nvt_reader_next_block(r, &rec, &n)) == 1)
		for (size_t i = 0; i < n; i++, count++)
			if (rec[i].offset != (uint64_t)count * 4096)
				count = -1000000000L;
	nvt_reader_close(r);
	return rc == 0 && count >= 0 ? count : -1;
}

/*
 * A disk that fills at @bytes: RLIMIT_FSIZE set to it and SIGXFSZ ignored,
 * so that write(2) stores what fits, then fails with EFBIG.  *old gets the
 * limit to restore with setrlimit(RLIMIT_FSIZE, old).  Return: 0 or -errno.
 */
static inline int disk_fills_at(rlim_t bytes, struct rlimit *old)
{
	struct rlimit lim;

	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, old))
		return -errno;
	lim = *old;
	lim.rlim_cur = bytes;
	return setrlimit(RLIMIT_FSIZE, &lim) ? -errno : 0;
}

/*
 * Append copies of *r with rising times and scattered 4k offsets (blocks
 * that compress little) until an append fails, at most a million.
 * Return: the failed append's error, or 0.
 */
static inline int append_until_error(struct nvt_writer *w, struct nvt_record *r)
{
	int err = 0;

	for (int i = 0; i < 1000000 && !err; i++) {
		r->submit_ns = (uint64_t)i * 1000;
		r->complete_ns = r->submit_ns + 500 + (uint64_t)i * 7919 % 1000;
		r->offset = (uint64_t)i * 104729 % 262144 * 4096;
		err = nvt_writer_append(w, r);
	}
	return err;
}

/*
 * Records r[0..n) written to path as a job thread's trace (header: job.name
 * job, the clock; blocks of 1024 records).  Return: 0 or -errno.
 */
static inline int put_job_trace(const char *path, const char *job, const struct nvt_record *r,
				size_t n)
{
	const struct nvt_kv hdr[] = { { "job.name", job }, { "clock", "CLOCK_MONOTONIC" } };
	struct nvt_writer_opts wo = { .block_records = 1024 };
	struct nvt_writer *w;
	int err = nvt_writer_open(&w, path, hdr, 2, &wo);

	for (size_t i = 0; !err && i < n; i++)
		err = nvt_writer_append(w, &r[i]);
	if (err) {
		nvt_writer_close(w, NULL, 0);
		return err;
	}
	return nvt_writer_close(w, NULL, 0);
}

/*
 * The nth threads' records (per each, thread t's at r[t * per], each in
 * its trace's order) merged into m[0..nth * per) as the analysis merges
 * traces: the next record of the thread whose next one completes first
 * (ties: the lower thread).  Return: 0 or -ENOMEM.
 */
static inline int merge_by_completion(const struct nvt_record *r, size_t nth, size_t per,
				      struct nvt_record *m)
{
	size_t *at = calloc(nth ? nth : 1, sizeof(*at));

	if (!at)
		return -ENOMEM;
	for (size_t k = 0; k < nth * per; k++) {
		size_t best = nth;

		for (size_t t = 0; t < nth; t++) {
			const struct nvt_record *x = &r[t * per + at[t]];

			if (at[t] < per && (best == nth ||
					    x->complete_ns < r[best * per + at[best]].complete_ns))
				best = t;
		}
		m[k] = r[best * per + at[best]++];
	}
	free(at);
	return 0;
}

#endif
