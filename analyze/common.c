/*
 * common.c - checked number parsing for nvanalyze's options.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"

const struct nv_pct_info nv_pcts[NV_PCT_NR] = {
	[NV_P50] = { 50, "p50" }, [NV_P90] = { 90, "p90" }, [NV_P95] = { 95, "p95" },
	[NV_P99] = { 99, "p99" }, [NV_P999] = { 99.9, "p99.9" }, [NV_P9999] = { 99.99, "p99.99" },
};

void nv_pct_values(double v[NV_PCT_NR])
{
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		v[i] = nv_pcts[i].value;
}

int nv_parse_double(const char *s, double *v)
{
	char *end;
	double d;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	for (const char *p = s; *p; p++)	/* digits, sign, point, exponent only */
		if (!isdigit((unsigned char)*p) && *p != '+' && *p != '-' && *p != '.' &&
		    *p != 'e' && *p != 'E')
			return -EINVAL;
	errno = 0;
	d = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(d))
		return -ERANGE;
	*v = d;
	return 0;
}

int nv_parse_index(const char *s, unsigned long *v)
{
	char *end;
	unsigned long n;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (*end || errno == ERANGE)
		return -EINVAL;
	if (n == 0)
		return -ERANGE;
	*v = n;
	return 0;
}

void nv_note_add(char ***notes, size_t *n, const char *fmt, ...)
{
	char *s, **nn;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	nn = realloc(*notes, (*n + 1) * sizeof(*nn));
	if (!nn) {
		free(s);
		return;
	}
	*notes = nn;
	(*notes)[(*n)++] = s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double *nv_sorted_copy(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

uint64_t nv_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}
