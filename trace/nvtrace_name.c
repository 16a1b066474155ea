/*
 * nvtrace_name.c - trace file names (see nvtrace_name.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

		name[i] = (c == '/' || c < 0x20 || c == 0x7f || (i == 0 && c == '.')) ? '_' : (char)c;
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
