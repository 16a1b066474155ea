/*
 * readfile.h - a whole input file into memory.
 */
#ifndef NV_ANALYZE_READFILE_H
#define NV_ANALYZE_READFILE_H

#include <stddef.h>

/*
 * Read the whole file at path into *buf (malloc'ed, free it), *len bytes.
 * Return: 0, or -errno with "path: cannot open: ..." (or "read error",
 * "out of memory") in err and *buf NULL.
 */
int nv_readfile(const char *path, char **buf, size_t *len, char *err, size_t errlen);

#endif
