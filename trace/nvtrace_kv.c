/*
 * nvtrace_kv.c - key/value lists for trace headers and footers (see
 * nvtrace_kv.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/nvtrace_kv.h"

/* Room for one more pair.  Return: 0, or -1 with l->oom set. */
static int nvt_kvlist_grow(struct nvt_kvlist *l)
{
	size_t cap;
	struct nvt_kv *nkv;

	if (l->n < l->cap)
		return 0;
	cap = l->cap ? 2 * l->cap : 32;
	nkv = realloc(l->kv, cap * sizeof(*nkv));
	if (!nkv) {
		l->oom = 1;
		return -1;
	}
	l->kv = nkv;
	l->cap = cap;
	return 0;
}

/* Store the owned strings @k and @v as the next pair (both freed on failure). Return: nothing. */
static void nvt_kvlist_put(struct nvt_kvlist *l, char *k, char *v)
{
	if (!k || !v || nvt_kvlist_grow(l)) {
		free(k);
		free(v);
		l->oom = 1;
		return;
	}
	l->kv[l->n].key = k;
	l->kv[l->n].value = v;
	l->n++;
}

void nvt_kvlist_add(struct nvt_kvlist *l, const char *key, const char *fmt, ...)
{
	char *v;
	va_list ap;

	if (l->oom)
		return;
	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	nvt_kvlist_put(l, strdup(key), v);
}

void nvt_kvlist_extend(struct nvt_kvlist *l, const struct nvt_kvlist *src)
{
	size_t i;

	if (src->oom)
		l->oom = 1;
	for (i = 0; i < src->n && !l->oom; i++)
		nvt_kvlist_put(l, strdup(src->kv[i].key), strdup(src->kv[i].value));
}

void nvt_kvlist_free(struct nvt_kvlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free((char *)l->kv[i].key);
		free((char *)l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof(*l));
}
