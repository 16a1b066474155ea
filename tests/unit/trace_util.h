/*
 * trace_util.h - helpers of the trace writer tests: a footer key's value
 * and the tid of a named thread.
 */
#ifndef NV_TRACE_UTIL_H
#define NV_TRACE_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "trace/nvtrace.h"

/* The footer's key of the trace at path as a number; UINT64_MAX when it cannot be read. */
static inline uint64_t footer_u64(const char *path, const char *key)
{
	struct nvt_reader *r;
	const char *v = NULL;
	uint64_t x = UINT64_MAX;

	if (!nvt_reader_open(&r, path) && !nvt_reader_footer_get(r, key, &v) && v)
		x = strtoull(v, NULL, 10);
	nvt_reader_close(r);
	return x;
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

#endif
