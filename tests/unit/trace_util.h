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
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

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

/*
 * n zeroed bytes shared with the trace writer processes this test starts
 * (each a fork: a plain global there is the writer's own copy), for the
 * counters and switches of a test's mocked write() or fdatasync().
 * Return: them; the test exits if mmap fails.
 */
static inline void *writer_shared(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/*
 * The pid of a child process of this one named name (the trace writer
 * process, nvtrace_proc.h), from each process's /proc/PID/stat
 * ("PID (COMM) STATE PPID ..."); zombies do not count.  Return: it, or -1.
 */
static inline pid_t child_named(const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t pid = -1, me = getpid();

	if (!d)
		return -1;
	while (pid < 0 && (e = readdir(d))) {
		char p[300], line[512] = "", state = 0, *rp;
		int ppid = 0;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(p, sizeof(p), "/proc/%s/stat", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && (rp = strrchr(line, ')')) &&
		    sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == me && state != 'Z' &&
		    !strncmp(strchr(line, '(') + 1, name, strlen(name)))
			pid = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return pid;
}

#endif
