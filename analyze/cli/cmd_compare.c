/*
 * cmd_compare.c - "nvanalyze [compare] [options] SIDE..." where each SIDE is
 * a fio JSON file or comma-separated repeats of one configuration.
 *
 * Exit status: 0 printed, 1 a --claim not met, 2 usage error or bad input.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/cli/commands.h"
#include "analyze/common.h"
#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/report/summary.h"
#include "analyze/report/pairs.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/stats/workpool.h"
#include "analyze/cli/progress.h"
#include "analyze/input/fiojson.h"
#include "analyze/report/render.h"
#include "analyze/publish/outdir.h"
#include "analyze/report/trace_json.h"
#include "analyze/report/trace_sections.h"
#include "analyze/input/jobtraces.h"
#include "analyze/input/runset.h"
#include "analyze/cli/curve_opts.h"
#include "analyze/cli/compare.h"
#include "analyze/report/curves.h"

/*
 * The comparison's steps in order: options, sides (loaded, one per host,
 * labelled, priced), the latency kind and levels, the traces, the report.
 * Return: the exit status (commands.h): 0, 1 a claim not met, 2 bad input.
 */
int cmd_compare(int argc, char **argv)
{
	struct opts o = { .format = NV_FMT_MD, .lat = NV_LAT_CLAT,
			  .sel = { .same_below = NV_SAME_BELOW_DEFAULT }, .formats = NV_FIG_PNG,
			  .curve = nv_curve_opts_default() };
	struct nv_traceset ts = { 0 };
	struct nv_tracejoin tj = { 0 };
	struct side_store *st = NULL;
	size_t n = 0;
	int ret;

	nv_pctl_default(&o.levels);
	ret = parse_opts(argc, argv, &o);

	if (ret || o.help)
		goto out;
	if (optind >= argc) {
		ret = usage_error("%s", "no fio JSON file given");
		goto out;
	}
	if (argc - optind > MAX_SIDES) {
		ret = usage_error("%s", "too many runs");
		goto out;
	}
	st = calloc((size_t)(argc - optind), sizeof(*st));
	if (!st) {
		ret = 2;
		goto out;
	}
	for (int i = optind; i < argc && !ret; i++)
		ret = load_side(argv[i], &st[n++]);
	if (!ret)
		ret = hosts_as_sides(&st, &n);
	if (!ret)
		ret = assign_labels(st, n, &o);
	if (!ret)
		ret = apply_prices(st, n, &o);
	if (!ret)
		ret = check_lat(st, n, &o);
	if (!ret)
		ret = percentile_levels(st, n, &o);
	if (!ret)
		ret = load_traces(st, n, &o, &ts, &tj);
	if (!ret || ret == -EIO) {	/* -EIO: a trace failed, the others are in tj */
		int rep = compare_report(st, n, &o, &tj);

		ret = rep ? rep : (ret ? 2 : 0);
	}
out:
	nv_trace_join_free(&tj);
	nv_traceset_free(&ts);
	for (size_t i = 0; st && i < n; i++) {
		nv_runset_free(&st[i].rs);
		free(st[i].label);
	}
	free(st);
	for (size_t i = 0; i < o.nclaims; i++)
		nv_claim_free(&o.claims[i]);
	free(o.claims);
	nv_curve_opts_free(&o.curve);
	free(o.sel.jobs);
	return ret;
}
