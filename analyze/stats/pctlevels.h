/*
 * pctlevels.h - a list of latency percentile levels (--percentiles): which
 * percentile rows the report prints and which levels the traces resolve
 * exactly.
 *
 * A level is a percentage in (0, 100], kept to 1e-7 (diskspd prints 3- to
 * 9-nines, 99.9999999; exact.c's resolution: 99.9999999 is distinct from
 * 100); two levels closer than 1e-8 are the same.
 * "fio" stands for every level the fio JSON holds (fio's percentile_list,
 * by default its 17 levels p1 ... p99.99), resolved per job later.
 */
#ifndef NV_ANALYZE_PCTLEVELS_H
#define NV_ANALYZE_PCTLEVELS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

#define NV_PCTL_MAX 64		/* levels in one list (fio's own list holds at most 64) */

struct nv_pctl {
	bool fio;		/* "fio": the levels of the JSON (v[] unused by the parser) */
	size_t n;
	double v[NV_PCTL_MAX];	/* ascending, distinct */
};

/*
 * The default list: nvanalyze's table rows before --percentiles (p50, p95,
 * p99, p99.9, p99.99).
 * Return: nothing; *l is set.
 */
void nv_pctl_default(struct nv_pctl *l);

/*
 * Parse --percentiles' argument: "fio", or levels separated by commas
 * ("1,5,25,50,75,90,99,99.9"; a leading 'p' is allowed: "p99.9"), sorted
 * here.  Refused: an empty list or item, a level <= 0 or > 100 or not a
 * number, more than 7 decimals, a level given twice, more than NV_PCTL_MAX.
 * Return: 0 with *l set; -EINVAL with a message naming the item and what
 * is allowed in err (*l untouched).
 */
int nv_pctl_parse(const char *s, struct nv_pctl *l, char *err, size_t errlen);

/*
 * Add level p to l (kept ascending) unless it is there already.
 * Return: 0, -EINVAL (p not in (0, 100]) or -ENOSPC (l is full).
 */
int nv_pctl_add(struct nv_pctl *l, double p);

/*
 * The index of level p in l.
 * Return: the index, or -1 when l does not hold p.
 */
int nv_pctl_find(const struct nv_pctl *l, double p);

/* Return: true when levels a and b are the same (within 1e-8). */
bool nv_pctl_same(double a, double b);

/*
 * The name of level p: "p99.5", "p50", "p99.99", "p99.9999999" (the level
 * to 7 decimals, no trailing zeros).
 * Return: nothing; in buf.
 */
void nv_pctl_name(char *buf, size_t n, double p);

/*
 * fio's key of level p in its JSON "percentile" object: "99.500000" (%f);
 * a level with 7 decimals, which fio's %f cannot key (diskspd's 9-nines),
 * "99.9999999".
 * Return: nothing; in buf.
 */
void nv_pctl_fio_key(char *buf, size_t n, double p);

/*
 * A level's name "pX" ("p99.5", "p25"; X as nv_pctl_parse takes it).
 * Return: 0 with *p set; -EINVAL when s is not such a name.
 */
int nv_pctl_parse_name(const char *s, double *p);

/*
 * fio's own value of exactly level p in ls (its nv_pcts entry, else its
 * whole percentile list), never interpolated.
 * Return: the value's source, NV_SRC_NONE when fio did not report p (*v
 * untouched).
 */
int nv_pctl_fio_value(const struct nv_latstat *ls, double p, double *v);

/*
 * Every completion latency level that some job of runs[0..n) reports
 * (for "fio" with traces: the levels the traces must resolve).
 * Return: 0, or -ENOSPC when there are more than NV_PCTL_MAX (l holds the
 * first ones).
 */
int nv_pctl_fio_union(const struct nv_run *runs, size_t n, struct nv_pctl *l);

#endif
