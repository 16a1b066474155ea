/*
 * failalloc.h - allocation failure injection for the unit tests that link
 * with $(FAILALLOC_LDFLAGS) (Makefile: -Wl,--wrap=malloc,... for the
 * binaries named test_oom_*).  The linker sends the library's calls of
 * malloc, calloc, realloc, strdup, strndup and free here: allocation
 * number failalloc_at (counted from failalloc_arm, 0 = the first) returns
 * NULL, every other one is the real one.  The allocations made through
 * these wrappers and not yet freed are counted (failalloc_live), so that
 * a test can tell a leak on an error path.  Memory from elsewhere (libc's
 * own asprintf, jansson) is not counted, and freeing it is ignored here.
 */
#ifndef NV_FAILALLOC_H
#define NV_FAILALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void __wrap_free(void *p);

#define FAILALLOC_MAX 65536

static long failalloc_at = -1;	/* -1: never fail */
static long failalloc_count;	/* allocations since failalloc_arm */
static bool failalloc_failed;	/* the injected failure happened */
static void *failalloc_ptr[FAILALLOC_MAX];
static size_t failalloc_n;

/* Fail allocation number at (0-based) from now on; -1: none.  Return: nothing. */
static inline void failalloc_arm(long at)
{
	failalloc_at = at;
	failalloc_count = 0;
	failalloc_failed = false;
}

/* Stop failing; failalloc_failed still says whether it happened.  Return: nothing. */
static inline void failalloc_disarm(void)
{
	failalloc_at = -1;
}

/* Whether this allocation is the one to fail.  Return: true to fail it. */
static inline bool failalloc_now(void)
{
	if (failalloc_at < 0 || failalloc_count++ != failalloc_at)
		return false;
	failalloc_failed = true;
	return true;
}

static inline void failalloc_track(void *p)
{
	if (p && failalloc_n < FAILALLOC_MAX)
		failalloc_ptr[failalloc_n++] = p;
}

/* Forget p if tracked.  Return: nothing. */
static inline void failalloc_untrack(void *p)
{
	for (size_t i = failalloc_n; p && i-- > 0;)
		if (failalloc_ptr[i] == p) {
			failalloc_ptr[i] = failalloc_ptr[--failalloc_n];
			return;
		}
}

/* Return: the allocations made through the wrappers and not freed. */
static inline size_t failalloc_live(void)
{
	return failalloc_n;
}

void *__wrap_malloc(size_t n)
{
	void *p = failalloc_now() ? NULL : __real_malloc(n);

	failalloc_track(p);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = failalloc_now() ? NULL : __real_calloc(n, size);

	failalloc_track(p);
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q = failalloc_now() ? NULL : __real_realloc(p, n);

	if (q) {
		failalloc_untrack(p);
		failalloc_track(q);
	}
	return q;
}

char *__wrap_strdup(const char *s)
{
	char *p = failalloc_now() ? NULL : __real_strdup(s);

	failalloc_track(p);
	return p;
}

char *__wrap_strndup(const char *s, size_t n)
{
	char *p = failalloc_now() ? NULL : __real_strndup(s, n);

	failalloc_track(p);
	return p;
}

void __wrap_free(void *p)
{
	failalloc_untrack(p);
	__real_free(p);
}

#endif
