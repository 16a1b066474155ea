/*
 * common.h - what every room of nvanalyze shares: checked parsing of command
 * line numbers, notes, the percentile table, a value with its source.
 */
#ifndef NV_ANALYZE_COMMON_H
#define NV_ANALYZE_COMMON_H

/*
 * Parse a whole string as a finite decimal number ("+50", "-2.5", "0.1888").
 * Leading blanks, trailing junk, empty strings, inf/nan and overflow are
 * rejected.  Returns 0 and sets *v, or -EINVAL / -ERANGE leaving *v alone.
 */
int nv_parse_double(const char *s, double *v);

/* The same for a positive integer index (1-based, e.g. --baseline 2). */
int nv_parse_index(const char *s, unsigned long *v);

/*
 * Append a printf-formatted message to a growing list of strings (*notes,
 * *n; the caller frees each and the array).  Out of memory drops the
 * message silently: notes are warnings, never data.
 */
#include <stddef.h>
void nv_note_add(char ***notes, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * FNV-1a of s[0..n): the digest that spots the same output loaded twice.
 * Return: the hash.
 */
#include <stdint.h>
uint64_t nv_hash(const char *s, size_t n);

/*
 * The latency percentiles nvanalyze reads and computes: fio's values
 * (input/fiojson.c), the traces' exact ones (stats/), the comparison rows
 * (report/model.c: a percentile metric names its entry here) and
 * `nvanalyze stat`.  Ascending.
 */
enum nv_pct { NV_P50, NV_P90, NV_P95, NV_P99, NV_P999, NV_P9999, NV_PCT_NR };

struct nv_pct_info {
	double value;		/* 99.9 */
	const char *name;	/* "p99.9" */
};

extern const struct nv_pct_info nv_pcts[NV_PCT_NR];

/*
 * The values of nv_pcts in order, for nv_exact_new.
 * Return: nothing; v[0..NV_PCT_NR) is filled.
 */
void nv_pct_values(double v[NV_PCT_NR]);

/*
 * A sorted copy of v[0..n) (ascending; n >= 1), for medians and ranks.
 * Return: the copy (the caller frees it), or NULL when out of memory.
 */
double *nv_sorted_copy(const double *v, size_t n);

/*
 * Where a value came from: NV_SRC_NONE missing (printed as missing, never as
 * zero), NV_SRC_FIO read from fio's output (input/fiojson.h), NV_SRC_EXACT
 * computed from nvengine traces (stats/trace_join.h), shown beside fio's.
 */
enum nv_src { NV_SRC_NONE = 0, NV_SRC_FIO, NV_SRC_EXACT };

/*
 * How a printed value was cut to its digits, and so where the true value
 * lies: NV_CUT_ROUND rounded, [v - prec, v + prec]; NV_CUT_DOWN truncated
 * (fio's integer divisions: terse latencies, min= and max=), [v, v + prec];
 * NV_CUT_UP rounded up (fio's normal-output percentiles), [v - prec, v].
 */
enum nv_cut { NV_CUT_ROUND = 0, NV_CUT_DOWN, NV_CUT_UP };

/*
 * prec: a value read from text that rounds (fio's normal output "IOPS=84.1k",
 * CrystalDiskMark's "MB/s" with three decimals) carries the width of its
 * printed rounding, in the value's own unit, on the side(s) cut says: the
 * true value lies in [v - prec, v + prec] when rounded.  0 means exact as
 * far as the source goes (JSON, traces, values recomputed from totals).
 * Values whose printed ranges overlap read "about equal" (stats/repeats.h).
 */
struct nv_val {
	double v;
	unsigned char src;	/* enum nv_src; NV_SRC_NONE = missing */
	float prec;		/* width of the printed rounding, 0: exact */
	unsigned char cut;	/* enum nv_cut: which side(s) of v prec lies on */
};

#endif
