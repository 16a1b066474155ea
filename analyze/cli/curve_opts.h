/*
 * curve_opts.h - the comparison's load-curve options (--sla, --knee-p99,
 * --knee-iops, --steady-window, --steady-range, --steady-slope): their
 * getopt table entries, parsing with the messages, help text.
 */
#ifndef NV_ANALYZE_CURVE_OPTS_H
#define NV_ANALYZE_CURVE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "analyze/report/curves.h"

/* getopt codes, above the comparison's own (cmd_compare.c uses 256 ...). */
enum { NV_OPT_SLA = 512, NV_OPT_KNEE_P99, NV_OPT_KNEE_IOPS, NV_OPT_STEADY_WINDOW,
       NV_OPT_STEADY_RANGE, NV_OPT_STEADY_SLOPE, NV_OPT_CURVE_END };

/* The long options' entries, for the command's table. */
#define NV_CURVE_LONGOPTS \
	{ "sla", required_argument, NULL, NV_OPT_SLA }, \
	{ "knee-p99", required_argument, NULL, NV_OPT_KNEE_P99 }, \
	{ "knee-iops", required_argument, NULL, NV_OPT_KNEE_IOPS }, \
	{ "steady-window", required_argument, NULL, NV_OPT_STEADY_WINDOW }, \
	{ "steady-range", required_argument, NULL, NV_OPT_STEADY_RANGE }, \
	{ "steady-slope", required_argument, NULL, NV_OPT_STEADY_SLOPE }

/* Return: true when getopt's c is one of these options. */
bool nv_curve_opt_is(int c);

/*
 * Apply option c with its argument to o (start from nv_curve_opts_default()).
 * Return: 0, or 2 after printing a message naming the option, the value,
 * the range and an example (a usage error).
 */
int nv_curve_opt(int c, const char *arg, struct nv_curve_opts *o);

/* Return: nothing; o's SLA claims are freed. */
void nv_curve_opts_free(struct nv_curve_opts *o);

/* The options' help lines.  Return: nothing. */
void nv_curve_opts_usage(FILE *out);

#endif
