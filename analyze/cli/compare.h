/*
 * compare.h - the parts of "nvanalyze [compare]" (cli/cmd_compare.c), private
 * to analyze/cli/compare_*.c and cmd_compare.c: the options, the sides, and
 * the steps that cmd_compare() runs in order.
 */
#ifndef NV_ANALYZE_CLI_COMPARE_H
#define NV_ANALYZE_CLI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/report/render.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/input/jobtraces.h"
#include "analyze/input/runset.h"
#include "analyze/cli/curve_opts.h"


#define MAX_SIDES 64

struct opts {
	enum nv_format format;
	enum nv_latkind lat;
	enum nv_aggregate agg;
	bool lat_given;
	const char *baseline;
	size_t nlabels;
	const char *labels[MAX_SIDES];
	struct nv_select sel;
	size_t nprices;
	char *prices[MAX_SIDES];
	size_t npairs;
	const char *pairs[MAX_SIDES];
	size_t nclaims;
	struct nv_claim *claims;
	size_t ntraces;
	const char *traces[MAX_SIDES * 4];
	bool no_traces;
	struct nv_tan_opts tan;
	unsigned workers;	/* -J: threads of the trace join (0: nv_pool_cpus) */
	const char *outdir;
	const char *figures;	/* --figures as given (NULL: not given) */
	unsigned formats;	/* --figures: figset.h's NV_FIG_* rendered with -o */
	struct nv_pctl levels;	/* --percentiles (stats/pctlevels.h) */
	struct nv_curve_opts curve;	/* load curves: --sla, --knee-*, --steady-* */
	bool help;		/* -h: the usage was printed */
};

struct side_store {
	struct nv_side side;
	struct nv_runset rs;
	struct nv_run *runs;	/* rs.runs */
	char *label;
};


/* compare_opts.c: the command line */
/* A usage error on stderr.  Return: 2. */
int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...);
/* The command line into *o.  Return: 0, or 2 after a usage error. */
int parse_opts(int argc, char **argv, struct opts *o);

/* compare_sides.c: the runs compared (each a side) */
/* Load one side.  Return: 0, or 2 after printing the error. */
int load_side(const char *arg, struct side_store *st);
/* A many-host side as one side per host.  Return: 0, or 2 after the error. */
int hosts_as_sides(struct side_store **st, size_t *n);
/* The sides' labels (-l, or derived).  Return: 0, or 2 after the error. */
int assign_labels(struct side_store *st, size_t n, const struct opts *o);
/* --price onto the sides.  Return: 0, or 2 after the error. */
int apply_prices(struct side_store *st, size_t n, const struct opts *o);
/* --lat checked against the sides (default chosen).  Return: 0, or 2. */
int check_lat(const struct side_store *st, size_t n, struct opts *o);
/* The side a run label or position names.  Return: 0 with *out set, or -ENOENT. */
int side_by_name(const struct side_store *st, size_t n, const char *s, size_t len,
		 size_t *out);
/* -b: the baseline's index into *out.  Return: 0, or 2 after the error. */
int find_baseline(const struct side_store *st, size_t n, const char *b, size_t *out);
/* --pair into pairs[o->npairs].  Return: 0, or 2 after the error. */
int find_pairs(const struct side_store *st, size_t n, const struct opts *o,
	       struct nv_pair *pairs);

/* compare_traces.c: the traces joined to the runs */
/* --percentiles checked against the runs.  Return: 0, or 2 after the error. */
int percentile_levels(struct side_store *st, size_t n, struct opts *o);
/* The traces found and joined.  Return: 0, -EIO (some failed), or 2. */
int load_traces(struct side_store *st, size_t n, struct opts *o, struct nv_traceset *ts,
		struct nv_tracejoin *tj);

/* compare_report.c: the report built, printed and written */
/* Build, print and write the report.  Return: the exit status (0, 1, 2). */
int compare_report(struct side_store *st, size_t n, const struct opts *o,
		   const struct nv_tracejoin *tj);

#endif
