/*
 * readfile.c - a whole input file into memory, for the readers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/readfile.h"

int nv_readfile(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 0;
	int ret = 0;

	*buf = NULL;
	*len = 0;
	if (!fp) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	for (;;) {
		size_t n;

		if (*len == cap) {
			char *nb = realloc(*buf, cap ? cap * 2 : 65536);

			if (!nb) {
				ret = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", path);
				break;
			}
			*buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		n = fread(*buf + *len, 1, cap - *len, fp);
		*len += n;
		if (n == 0)
			break;
	}
	if (!ret && ferror(fp)) {
		ret = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	}
	fclose(fp);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}
