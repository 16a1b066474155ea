/*
 * pctlevels.c - percentile level lists (see pctlevels.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/stats/pctlevels.h"

#define RESOLUTION 1e-7	/* exact.c takes a level to 1e-7: diskspd's 9-nines */
#define DECIMALS 7

void nv_pctl_default(struct nv_pctl *l)
{
	static const enum nv_pct def[] = { NV_P50, NV_P95, NV_P99, NV_P999, NV_P9999 };

	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < sizeof(def) / sizeof(def[0]); i++)
		l->v[l->n++] = nv_pcts[def[i]].value;
}

bool nv_pctl_same(double a, double b)
{
	return fabs(a - b) < RESOLUTION / 10;
}

int nv_pctl_find(const struct nv_pctl *l, double p)
{
	for (size_t i = 0; i < l->n; i++)
		if (nv_pctl_same(l->v[i], p))
			return (int)i;
	return -1;
}

int nv_pctl_add(struct nv_pctl *l, double p)
{
	size_t i;

	if (!(p > 0 && p <= 100))
		return -EINVAL;
	if (nv_pctl_find(l, p) >= 0)
		return 0;
	if (l->n >= NV_PCTL_MAX)
		return -ENOSPC;
	for (i = l->n; i > 0 && l->v[i - 1] > p; i--)
		l->v[i] = l->v[i - 1];
	l->v[i] = p;
	l->n++;
	return 0;
}

void nv_pctl_name(char *buf, size_t n, double p)
{
	snprintf(buf, n, "p%.10g", round(p / RESOLUTION) * RESOLUTION);
}

void nv_pctl_fio_key(char *buf, size_t n, double p)
{
	/* fio's "%f" has 6 decimals: 99.9999999 would be "100.000000" */
	if (fabs(round(p * 1e6) / 1e6 - p) < RESOLUTION / 10)
		snprintf(buf, n, "%f", p);
	else
		snprintf(buf, n, "%.*f", DECIMALS, p);
}

/*
 * One level "X" or "pX": a number in (0, 100] with at most DECIMALS decimals.
 * Return: 0 with *p set, or -EINVAL with the reason in why.
 */
static int parse_level(const char *s, double *p, const char **why)
{
	const char *dot;

	if (*s == 'p')
		s++;
	if (nv_parse_double(s, p) || strpbrk(s, "eE+-")) {
		*why = "is not a number";
		return -EINVAL;
	}
	if (!(*p > 0 && *p <= 100)) {
		*why = "is not a percentile: levels lie in (0, 100], e.g. 99.9";
		return -EINVAL;
	}
	dot = strchr(s, '.');
	if (dot && strlen(dot + 1) > DECIMALS) {
		*why = "has more than 7 decimals (levels are taken to 0.0000001, diskspd's "
		       "9-nines: 99.9999999)";
		return -EINVAL;
	}
	return 0;
}

int nv_pctl_parse_name(const char *s, double *p)
{
	const char *why;

	return s[0] == 'p' ? parse_level(s, p, &why) : -EINVAL;
}

int nv_pctl_parse(const char *s, struct nv_pctl *l, char *err, size_t errlen)
{
	static const char form[] = "give levels separated by commas, e.g. "
				   "'--percentiles 1,50,99,99.9', or 'fio' for fio's own list";
	struct nv_pctl t;
	char *dup, *item, *save = NULL;
	const char *why = NULL;
	int ret = 0;

	memset(&t, 0, sizeof(t));
	if (!strcmp(s, "fio")) {
		t.fio = true;
		*l = t;
		return 0;
	}
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,")) {
		snprintf(err, errlen, "--percentiles '%s': an empty level; %s", s, form);
		return -EINVAL;
	}
	if (!(dup = strdup(s)))
		return -ENOMEM;
	for (item = strtok_r(dup, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		double p;

		if (parse_level(item, &p, &why)) {
			snprintf(err, errlen, "--percentiles '%s': '%s' %s; %s", s, item, why,
				 form);
			ret = -EINVAL;
		} else if (nv_pctl_find(&t, p) >= 0) {
			snprintf(err, errlen, "--percentiles '%s': '%s' is given twice; give "
				 "each level once", s, item);
			ret = -EINVAL;
		} else if (nv_pctl_add(&t, p)) {
			snprintf(err, errlen, "--percentiles '%s': more than %d levels; give at "
				 "most %d", s, NV_PCTL_MAX, NV_PCTL_MAX);
			ret = -EINVAL;
		}
	}
	free(dup);
	if (!ret)
		*l = t;
	return ret;
}

int nv_pctl_fio_value(const struct nv_latstat *ls, double p, double *v)
{
	for (unsigned i = 0; i < NV_PCT_NR; i++) {
		if (nv_pctl_same(nv_pcts[i].value, p) && ls->pct[i].src != NV_SRC_NONE) {
			*v = ls->pct[i].v;
			return ls->pct[i].src;
		}
	}
	for (size_t i = 0; i < ls->npoints; i++) {
		if (nv_pctl_same(ls->points[i].pct, p)) {
			*v = ls->points[i].ns;
			return NV_SRC_FIO;
		}
	}
	return NV_SRC_NONE;
}

int nv_pctl_fio_union(const struct nv_run *runs, size_t n, struct nv_pctl *l)
{
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < runs[i].njobs; j++) {
			const struct nv_job *job = &runs[i].jobs[j];

			for (unsigned d = 0; d < NV_DIR_NR; d++) {
				const struct nv_latstat *ls = &job->dir[d].lat[NV_LAT_CLAT];

				for (size_t k = 0; k < ls->npoints; k++)
					if (nv_pctl_add(l, ls->points[k].pct) == -ENOSPC)
						return -ENOSPC;
			}
		}
	}
	return 0;
}
