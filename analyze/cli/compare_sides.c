/*
 * compare_sides.c - the sides of a comparison: loaded, one per host, labelled,
 * priced; the baseline, the --pair columns, the latency kind.
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
#include "analyze/report/curves.h"
#include "analyze/cli/compare.h"

/* The only hostname of a client/server side, or NULL. */
static const char *side_host(const struct nv_side *s)
{
	const char *h = NULL;

	for (size_t k = 0; k < s->nruns; k++)
		for (size_t j = 0; j < s->runs[k].njobs; j++) {
			const char *jh = s->runs[k].jobs[j].host;

			if (jh && h && strcmp(jh, h))
				return NULL;
			if (jh)
				h = jh;
		}
	return h;
}

/* Unique labels: --label, else file names, else hostnames, else "#N". */
int assign_labels(struct side_store *st, size_t n, const struct opts *o)
{
	if (o->nlabels > n)
		return usage_error("%s", "more --label options than runs");
	for (size_t i = 0; i < n; i++) {
		st[i].label = i < o->nlabels ? strdup(o->labels[i]) : nv_runset_label(&st[i].rs);
		if (!st[i].label)
			return 2;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < n; k++) {
			const char *h = side_host(&st[k].side);
			char *nl;

			if (k == i || strcmp(st[i].label, st[k].label))
				continue;
			if (k < o->nlabels && i < o->nlabels)
				return usage_error("--label '%s' given twice", st[i].label);
			if (k < o->nlabels)
				continue;
			if (h && strcmp(h, st[k].label) && asprintf(&nl, "%s", h) >= 0) {
				free(st[k].label);
				st[k].label = nl;
			}
			if (!strcmp(st[i].label, st[k].label) &&
			    asprintf(&nl, "%s#%zu", st[k].label, k + 1) >= 0) {
				free(st[k].label);
				st[k].label = nl;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		st[i].side.label = st[i].label;
	return 0;
}

/*
 * Load one side (runset.h: repeats, '+' joins, results directories) and
 * print the warnings about its files.
 * Return: 0, or 2 after printing the error.
 */
int load_side(const char *arg, struct side_store *st)
{
	char err[1024];

	if (nv_runset_load(arg, &st->rs, err, sizeof(err))) {
		fprintf(stderr, "nvanalyze: %s\n", err);
		return 2;
	}
	for (size_t i = 0; i < st->rs.nnotes; i++)
		fprintf(stderr, "nvanalyze: warning: %s\n", st->rs.notes[i]);
	st->runs = st->rs.runs;
	st->side.runs = st->rs.runs;
	st->side.nruns = st->rs.nruns;
	return 0;
}

/*
 * One RUN, a many-host results directory: each host a side of its own
 * (nvanalyze results/fleet compares the hosts).  *st grows to the hosts.
 * Return: 0, or 2 after printing the error.
 */
int hosts_as_sides(struct side_store **st, size_t *n)
{
	size_t nh = nv_runset_groups(&(*st)[0].rs);
	struct nv_runset *rs;
	struct side_store *ns;

	if (*n != 1 || !(*st)[0].rs.hosts_of || nh < 2)
		return 0;
	if (nh > MAX_SIDES)
		return usage_error("%s: %zu %s, more than %d sides: %s", (*st)[0].rs.hosts_of, nh,
				   (*st)[0].rs.page ? "machines (outputs under their headings)"
						    : "hosts", MAX_SIDES,
				   (*st)[0].rs.page ? "--split none reads them as one run"
						    : "give it with another RUN to see the "
						      "hosts as repeats");
	rs = calloc(nh, sizeof(*rs));
	ns = rs ? realloc(*st, nh * sizeof(*ns)) : NULL;
	if (ns)
		*st = ns;
	if (!ns || nv_runset_split(&ns[0].rs, rs)) {
		free(rs);
		return usage_error("%s", "out of memory");
	}
	memset(ns, 0, nh * sizeof(*ns));
	for (size_t k = 0; k < nh; k++) {
		ns[k].rs = rs[k];
		ns[k].runs = rs[k].runs;
		ns[k].side.runs = rs[k].runs;
		ns[k].side.nruns = rs[k].nruns;
	}
	*n = nh;
	free(rs);
	return 0;
}

/*
 * The side a run label or 1-based position (len bytes of s) names
 * (nv_runset_find).
 * Return: 0 with *out set, or -ENOENT.
 */
int side_by_name(const struct side_store *st, size_t n, const char *s, size_t len,
		 size_t *out)
{
	const char *labels[MAX_SIDES];

	for (size_t i = 0; i < n && i < MAX_SIDES; i++)
		labels[i] = st[i].label;
	return nv_runset_find(labels, n < MAX_SIDES ? n : MAX_SIDES, s, len, out);
}

int apply_prices(struct side_store *st, size_t n, const struct opts *o)
{
	for (size_t p = 0; p < o->nprices; p++) {
		const char *eq = strrchr(o->prices[p], '=');
		double usd;
		size_t s;

		if (!eq || nv_parse_double(eq + 1, &usd) || usd <= 0)
			return usage_error("--price '%s': expected RUN=USD_PER_HOUR (RUN a "
					   "label or 1-based position), e.g. i7i.large=0.1888 "
					   "or 1=0.1888", o->prices[p]);
		if (side_by_name(st, n, o->prices[p], (size_t)(eq - o->prices[p]), &s))
			return usage_error("--price '%s': no run has that label or position (see "
					   "--label; positions 1 to %zu)", o->prices[p], n);
		st[s].side.price = usd;
		st[s].side.have_price = true;
	}
	return 0;
}


int find_baseline(const struct side_store *st, size_t n, const char *b, size_t *out)
{
	*out = n - 1;
	if (!b || !side_by_name(st, n, b, strlen(b), out))
		return 0;
	return usage_error("--baseline '%s': neither a run label nor a position", b);
}

/*
 * --pair A:B: the sides A and B (labels or positions; a label with ':' is
 * found by trying each ':').  2 after an error message.
 */
int find_pairs(const struct side_store *st, size_t n, const struct opts *o,
	       struct nv_pair *pairs)
{
	for (size_t i = 0; i < o->npairs; i++) {
		const char *s = o->pairs[i], *c = s;
		bool found = false;

		while (!found && (c = strchr(c, ':'))) {
			found = !side_by_name(st, n, s, (size_t)(c - s), &pairs[i].a) &&
				!side_by_name(st, n, c + 1, strlen(c + 1), &pairs[i].b);
			c++;
		}
		if (!found)
			return usage_error("--pair '%s': expected RUN:BASELINE, two run labels or "
					   "positions, e.g. --pair 1:2", s);
		if (pairs[i].a == pairs[i].b)
			return usage_error("--pair '%s': a run compared with itself", s);
	}
	return 0;
}

/*
 * Without --lat: fio's clat, unless a run comes from a tool that measures
 * from submission to completion (CrystalDiskMark, diskspd), whose latency is
 * fio's lat; then every side shows lat, like with like (the report's
 * "Latency:" line says so).
 */
static void default_lat(const struct side_store *st, size_t n, struct opts *o)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < st[i].side.nruns; k++)
			if (!nv_run_is_fio(&st[i].side.runs[k]))
				o->lat = NV_LAT_TOTAL;
}

/*
 * With --lat given, an active direction without that latency object is an
 * error naming the file and job (slat exists only for async engines).
 */
int check_lat(const struct side_store *st, size_t n, struct opts *o)
{
	if (!o->lat_given) {
		default_lat(st, n, o);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < st[i].side.nruns; k++) {
			const struct nv_run *run = &st[i].side.runs[k];

			for (size_t j = 0; j < run->njobs; j++)
				for (unsigned d = 0; d < NV_DIR_NR; d++) {
					const struct nv_dirstat *ds = &run->jobs[j].dir[d];

					if (d == NV_DIR_SYNC || !nv_dir_active(ds) ||
					    ds->lat[o->lat].mean.src)
						continue;
					fprintf(stderr,
						"nvanalyze: %s: job '%s' %s has no %s statistics "
						"(fio fills slat only for async engines); try "
						"another --lat\n",
						run->path, run->jobs[j].key,
						nv_dir_name((enum nv_dir)d),
						nv_latkind_name(o->lat));
					return 2;
				}
		}
	return 0;
}
