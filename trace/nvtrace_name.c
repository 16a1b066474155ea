/*
 * nvtrace_name.c - trace file names (see nvtrace_name.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/nvtrace_name.h"

int nv_trace_filename(char *buf, size_t len, const char *dir, const char *jobname,
		      unsigned int thread_number)
{
	char name[256];
	size_t i, n, dl;
	int ret;

	if (!dir || !*dir)
		return -EINVAL;
	if (!jobname || !*jobname)
		jobname = "job";
	n = strlen(jobname);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)jobname[i];

		name[i] = (c == '/' || c < 0x20 || c == 0x7f || (i == 0 && c == '.')) ? '_'
			: (char)c;
	}
	name[n] = 0;
	dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	ret = snprintf(buf, len, "%.*s/%s.%u.nvt", (int)dl, dir, name, thread_number);
	if (ret < 0 || (size_t)ret >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The parent of @dir ("." for a single component) into @buf.  Return: 0 or -ENAMETOOLONG. */
static int nv_trace_dir_parent(char *buf, size_t len, const char *dir)
{
	size_t dl = strlen(dir);

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	while (dl > 0 && dir[dl - 1] != '/')
		dl--;
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	if (dl == 0)
		return snprintf(buf, len, ".") >= (int)len ? -ENAMETOOLONG : 0;
	if (dl >= len)
		return -ENAMETOOLONG;
	memcpy(buf, dir, dl);
	buf[dl] = 0;
	return 0;
}

/* @dir exists: it must be a writable directory.  Return: 0 or -errno. */
static int nv_trace_dir_usable(const char *dir, const struct stat *st, char *msg, size_t msglen)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(msg, msglen, "nv_trace=%s exists and is not a directory; "
			 "give a directory", dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		int err = errno;

		snprintf(msg, msglen, "nv_trace=%s: cannot write into the directory (%s); "
			 "give one this user can write", dir, strerror(err));
		return -err;
	}
	return 0;
}

int nv_trace_dir_prepare(const char *dir, int *created, char *msg, size_t msglen)
{
	char parent[4096];
	struct stat st;
	int err;

	*created = 0;
	if (!dir || !*dir) {
		snprintf(msg, msglen, "nv_trace is empty; give a directory");
		return -EINVAL;
	}
	if (!stat(dir, &st))
		return nv_trace_dir_usable(dir, &st, msg, msglen);
	if (nv_trace_dir_parent(parent, sizeof(parent), dir)) {
		snprintf(msg, msglen, "nv_trace=%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	if (stat(parent, &st)) {
		err = errno;
		snprintf(msg, msglen, "nv_trace=%s: its parent %s %s; create it first (only the "
			 "last component is created)", dir, parent,
			 err == ENOENT ? "does not exist" : strerror(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(msg, msglen, "nv_trace=%s: its parent %s is not a directory",
			 dir, parent);
		return -ENOTDIR;
	}
	if (mkdir(dir, 0777) == 0) {
		*created = 1;
		return 0;
	}
	err = errno;
	if (err == EEXIST && !stat(dir, &st))
		return nv_trace_dir_usable(dir, &st, msg, msglen);
	snprintf(msg, msglen, "nv_trace=%s: cannot create the directory in %s (%s)", dir, parent,
		 strerror(err));
	return -err;
}
