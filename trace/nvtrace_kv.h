/*
 * nvtrace_kv.h - a growable list of owned key/value strings: what a trace
 * header or footer is built from before nvt_writer_open() /
 * nvt_writer_close() copy it into the file.
 */
#ifndef NVTRACE_KV_H
#define NVTRACE_KV_H

#include <stddef.h>

#include "trace/nvtrace.h"

struct nvt_kvlist {
	struct nvt_kv *kv;	/* [n], keys and values owned by the list */
	size_t n, cap;
	int oom;		/* an allocation failed: the list is incomplete */
};

/*
 * Append KEY=printf(FMT, ...) to @l.  Once an allocation fails the list is
 * marked incomplete (l->oom) and every later call does nothing, so a caller
 * builds the whole list and checks l->oom once.
 * Return: nothing; l->oom tells whether every pair was stored.
 */
void nvt_kvlist_add(struct nvt_kvlist *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Append a copy of every pair of @src to @l (the same rule for failures).
 * Return: nothing; l->oom tells whether every pair was stored.
 */
void nvt_kvlist_extend(struct nvt_kvlist *l, const struct nvt_kvlist *src);

/* Free the pairs of @l and make it empty again.  Return: nothing. */
void nvt_kvlist_free(struct nvt_kvlist *l);

#endif
