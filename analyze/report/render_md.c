/*
 * render_md.c - the report for people: Markdown and aligned text share one
 * path.  Each block becomes a grid of strings (header row, one row per
 * metric), printed either as a Markdown table or padded to column widths;
 * then the unmatched jobs, job errors and the claims.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/escape.h"
#include "analyze/report/render.h"
#include "analyze/report/claims.h"
#include "analyze/report/summary.h"
#include "analyze/report/pairs.h"
#include "analyze/report/fiotables.h"
#include "analyze/input/fiojson.h"

static void side_header(char *buf, size_t n, const struct nv_side *s)
{
	if (s->nruns > 1)
		snprintf(buf, n, "%s (%zu runs)", s->label, s->nruns);
	else
		snprintf(buf, n, "%s", s->label);
}

/* A value cell: "77,282", "77,282 ±1.6%", "-" (missing), "absent". */
static void fmt_cell(char *buf, size_t n, const struct nv_cell *c, const struct nv_side *s,
		     enum nv_unit u, double ref)
{
	char v[64], extra[64] = "";
	size_t len;

	if (!c->n) {
		snprintf(buf, n, "%s", c->absent == s->nruns ? "absent" : "-");
		return;
	}
	nv_fmt_value_in(v, sizeof(v), c->value, u, ref);
	len = 0;
	if (c->n > 1)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, " ±%.1f%%",
				c->mean ? 100 * c->sd / fabs(c->mean) : 0.0);
	if (c->n != s->nruns && s->nruns > 1 && len < sizeof(extra))
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, " (n=%zu)", c->n);
	if (c->src == NV_SRC_EXACT && len < sizeof(extra))
		snprintf(extra + len, sizeof(extra) - len, " (exact)");
	snprintf(buf, n, "%s%s", v, extra);
}

/*
 * The suite summary (report/summary.h): job · direction, metric, one column
 * per run, the change columns.  Return: 0 or -ENOMEM.
 */
static int print_summary(FILE *out, const struct nv_report *r, enum nv_format f, const char *head)
{
	struct nv_summary_row *rows;
	struct nv_grid g;
	size_t n, c;
	char buf[256];

	if (nv_summary_build(r, (enum nv_headline)nv_display.headline, &rows, &n))
		return -ENOMEM;
	if (!n || nv_grid_init(&g, n + 1, 2 + r->nsides + r->npairs)) {
		free(rows);
		return n ? -ENOMEM : 0;
	}
	nv_grid_set(&g, 0, 0, "job · direction");
	nv_grid_set(&g, 0, 1, "metric");
	for (size_t s = 0; s < r->nsides; s++) {
		side_header(buf, sizeof(buf), &r->sides[s]);
		nv_grid_set(&g, 0, 2 + s, buf);
	}
	c = 2 + r->nsides;
	for (size_t p = 0; p < r->npairs; p++) {
		nv_pair_title(buf, sizeof(buf), r, p);
		nv_grid_set(&g, 0, c++, buf);
	}
	for (size_t i = 0; i < n; i++) {
		const struct nv_block *b = &r->blocks[rows[i].block];
		const struct nv_row *row = rows[i].row;
		enum nv_unit u = nv_metric(row->metric)->unit;

		snprintf(buf, sizeof(buf), "%s · %s", b->key, nv_dir_name(b->dir));
		nv_grid_set(&g, i + 1, 0, buf);
		nv_grid_set(&g, i + 1, 1, nv_metric(row->metric)->title);
		for (size_t s = 0; s < r->nsides; s++) {
			fmt_cell(buf, sizeof(buf), &row->cells[s], &r->sides[s], u,
				 nv_row_ref(row->cells, r->nsides));
			nv_grid_set(&g, i + 1, 2 + s, buf);
		}
		c = 2 + r->nsides;
		for (size_t p = 0; p < r->npairs; p++) {
			nv_fmt_change(buf, sizeof(buf), &row->pchg[p]);
			nv_grid_set(&g, i + 1, c++, buf);
		}
	}
	fputs(head, out);
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	free(rows);
	return 0;
}

#define ABOVE_MAX_MARK "\xe2\x80\xa0"	/* a dagger: a fio percentile above the max */

/*
 * Under a block's table: what the dagger means, when a cell has it.
 * Return: nothing.
 */
static void print_above_max(FILE *out, const struct nv_report *r, const struct nv_block *b)
{
	for (size_t i = 0; i < b->nrows; i++) {
		for (size_t s = 0; b->rows[i].above_max && s < r->nsides; s++) {
			if (!b->rows[i].above_max[s] || !b->rows[i].cells[s].n)
				continue;
			fprintf(out, "\n" ABOVE_MAX_MARK " above the job's max: fio reports "
				"a percentile as the middle of its latency bin (bins are up to "
				"1/64 of their value wide), which can lie above the slowest IO; "
				"the true value lies between the bin's lower edge and the max; "
				"traces (`nv_trace=DIR`) measure every IO.\n");
			return;
		}
	}
}

/*
 * Under a block's table: the percentile levels printed '-' because fio did
 * not report them and there are no traces.
 * Return: nothing.
 */
static void print_missing_levels(FILE *out, const struct nv_report *r, const struct nv_block *b)
{
	const struct nv_row *mean = nv_block_row(b, NV_M_MEAN);
	char name[32];
	size_t k = 0;

	if (b->lat == NV_LAT_TOTAL)
		return;	/* lat_pct_missing's hint covers it */
	for (size_t i = 0; mean && i < b->nrows; i++) {
		const struct nv_row *row = &b->rows[i];
		bool miss = false;

		for (size_t s = 0; NV_M_IS_PCT(row->metric) && s < r->nsides; s++)
			miss |= mean->cells[s].n && !row->cells[s].n;
		if (!miss)
			continue;
		nv_pctl_name(name, sizeof(name), row->level);
		fprintf(out, "%s%s", k++ ? ", " : "\n", name);
	}
	if (k)
		fprintf(out, " `-`: fio did not report %s (the job's `percentile_list`) and "
			"there are no traces; nvanalyze does not interpolate: add %s to "
			"`percentile_list=` or record traces (`nv_trace=DIR`).\n",
			k > 1 ? "these levels" : "this level", k > 1 ? "them" : "it");
}

/*
 * Under a block's table: the percentile rows printed '-' for a side whose
 * tool prints no latency percentiles (CrystalDiskMark; diskspd without -L)
 * or not every level, once per tool (--format json and csv: a note on
 * stderr).
 * Return: nothing.
 */
static void print_tool_missing(FILE *out, const struct nv_report *r, const struct nv_block *b,
			       enum nv_format f)
{
	const char *said[8];
	size_t nsaid = 0;

	for (size_t s = 0; s < r->nsides && nsaid < 8; s++) {
		const char *tool;
		bool miss = false, some = false, dup = false;

		if (!b->nsrc[s] || nv_run_is_fio(b->src[s][0].rp))
			continue;
		for (size_t i = 0; i < b->nrows; i++) {
			miss |= NV_M_IS_PCT(b->rows[i].metric) && !b->rows[i].cells[s].n;
			some |= NV_M_IS_PCT(b->rows[i].metric) && b->rows[i].cells[s].n;
		}
		tool = b->src[s][0].rp->fio_version;
		for (size_t k = 0; k < nsaid; k++)
			dup |= !strcmp(said[k], tool);
		if (!miss || dup)
			continue;
		said[nsaid++] = tool;
		fputs("\nlat percentiles `-`: ", out);
		nv_esc_fputs(out, tool, f);
		fputs(some ? " did not print every level (those rows print `-`).\n"
			   : " prints no latency percentiles.\n", out);
	}
}

static int block_grid(const struct nv_report *r, const struct nv_block *b, struct nv_grid *g)
{
	size_t cols = 1 + r->nsides + r->npairs;
	char buf[256];
	size_t c;

	if (nv_grid_init(g, b->nrows + 1, cols))
		return -ENOMEM;
	nv_grid_set(g, 0, 0, "metric");
	for (size_t s = 0; s < r->nsides; s++) {
		side_header(buf, sizeof(buf), &r->sides[s]);
		nv_grid_set(g, 0, 1 + s, buf);
	}
	c = 1 + r->nsides;
	for (size_t p = 0; p < r->npairs; p++) {
		nv_pair_title(buf, sizeof(buf), r, p);
		nv_grid_set(g, 0, c++, buf);
	}
	for (size_t i = 0; i < b->nrows; i++) {
		const struct nv_row *row = &b->rows[i];
		enum nv_unit u = nv_metric(row->metric)->unit;
		double ref = nv_row_ref(row->cells, r->nsides);

		nv_fmt_row_title(buf, sizeof(buf), b, row);
		nv_grid_set(g, i + 1, 0, buf);
		for (size_t s = 0; s < r->nsides; s++) {
			fmt_cell(buf, sizeof(buf), &row->cells[s], &r->sides[s], u, ref);
			if (row->above_max && row->above_max[s] && row->cells[s].n)
				strncat(buf, " " ABOVE_MAX_MARK, sizeof(buf) - strlen(buf) - 1);
			nv_grid_set(g, i + 1, 1 + s, buf);
		}
		c = 1 + r->nsides;
		for (size_t p = 0; p < r->npairs; p++) {
			nv_fmt_change(buf, sizeof(buf), &row->pchg[p]);
			nv_grid_set(g, i + 1, c++, buf);
		}
	}
	return 0;
}

/* Row 0 of a table with one column per side: title, then each side's header. */
static void side_columns(struct nv_grid *g, const struct nv_report *r, const char *title)
{
	char buf[256];

	nv_grid_set(g, 0, 0, title);
	for (size_t s = 0; s < r->nsides; s++) {
		side_header(buf, sizeof(buf), &r->sides[s]);
		nv_grid_set(g, 0, 1 + s, buf);
	}
}

/* "250 us", from ns, for bucket edges. */
static void fmt_edge(char *buf, size_t n, double ns)
{
	nv_fmt_value(buf, n, ns, NV_U_NS);
}

/*
 * fio's latency buckets of the block's job, the buckets some side has a
 * share in: "[250 us, 500 us)" and each side's share.
 * Return: 0 (nothing to print is 0 too) or -ENOMEM.
 */
static int print_buckets(FILE *out, const struct nv_report *r, const struct nv_block *b,
			 enum nv_format f)
{
	struct nv_side_bucket **bk = calloc(r->nsides, sizeof(*bk));
	size_t *nb = calloc(r->nsides, sizeof(*nb)), rows = 0, ref = 0;
	struct nv_grid g;
	int ret = -ENOMEM;
	char buf[128], lo[48], hi[48];

	if (!bk || !nb)
		goto out;
	for (size_t s = 0; s < r->nsides; s++) {
		if (nv_side_buckets(r, b, s, &bk[s], &nb[s]))
			goto out;
		if (nb[s] > nb[ref])
			ref = s;
	}
	for (size_t i = 0; i < nb[ref]; i++)
		for (size_t s = 0; s < r->nsides; s++)
			if (i < nb[s] && bk[s][i].pct > 0) {
				rows++;
				break;
			}
	ret = 0;
	if (!rows || nv_grid_init(&g, rows + 1, 1 + r->nsides)) {
		ret = rows ? -ENOMEM : 0;
		goto out;
	}
	side_columns(&g, r, "clat bucket (fio)");
	for (size_t i = 0, row = 1; i < nb[ref]; i++) {
		bool any = false;

		for (size_t s = 0; s < r->nsides; s++)
			any |= i < nb[s] && bk[s][i].pct > 0;
		if (!any)
			continue;
		fmt_edge(lo, sizeof(lo), bk[ref][i].lo_ns);
		if (isfinite(bk[ref][i].hi_ns)) {
			fmt_edge(hi, sizeof(hi), bk[ref][i].hi_ns);
			snprintf(buf, sizeof(buf), "[%s, %s)", lo, hi);
		} else {
			snprintf(buf, sizeof(buf), ">= %s", lo);
		}
		nv_grid_set(&g, row, 0, buf);
		for (size_t s = 0; s < r->nsides; s++) {
			if (i < nb[s] && bk[s][i].n)
				nv_fmt_value(buf, sizeof(buf), bk[s][i].pct, NV_U_PCT);
			else
				snprintf(buf, sizeof(buf), "-");
			nv_grid_set(&g, row, 1 + s, buf);
		}
		row++;
	}
	fprintf(out, "fio's latency buckets (share of the job's IOs, all directions):\n\n");
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
out:
	for (size_t s = 0; bk && s < r->nsides; s++)
		free(bk[s]);
	free(bk);
	free(nb);
	return ret;
}

/* "[100 us, 1.00 ms)" for bucket i of edges[0..n) (0 and infinity at the ends). */
static void edge_range(char *buf, size_t len, const uint64_t *edges, size_t n, size_t i)
{
	char lo[48], hi[48];

	fmt_edge(lo, sizeof(lo), i ? (double)edges[i - 1] : 0);
	if (i < n) {
		fmt_edge(hi, sizeof(hi), (double)edges[i]);
		snprintf(buf, len, "[%s, %s)", lo, hi);
	} else {
		snprintf(buf, len, ">= %s", lo);
	}
}

/*
 * --buckets: the exact shares of the block's IOs from the traces, one
 * column per side ("12.3% (1,234)"), "-" for a side without traces.
 * Return: 0 or -ENOMEM.
 */
static int print_trace_buckets(FILE *out, const struct nv_report *r, const struct nv_block *b,
			       enum nv_format f)
{
	uint64_t (*cnt)[NV_TAN_MAXEDGES + 1] = calloc(r->nsides, sizeof(*cnt));
	size_t *used = calloc(r->nsides, sizeof(*used)), ne = 0;
	const uint64_t *edges = NULL;
	struct nv_grid g;
	char buf[128], num[64];

	if (!cnt || !used) {
		free(cnt);
		free(used);
		return -ENOMEM;
	}
	for (size_t s = 0; s < r->nsides; s++) {
		size_t n;
		const uint64_t *e;

		used[s] = nv_side_trace_buckets(b, s, cnt[s], &n, &e);
		if (used[s] && !edges) {
			edges = e;
			ne = n;
		}
	}
	if (!edges || nv_grid_init(&g, ne + 2, 1 + r->nsides)) {
		free(cnt);
		free(used);
		return edges ? -ENOMEM : 0;
	}
	side_columns(&g, r, "clat bucket (exact)");
	for (size_t i = 0; i <= ne; i++) {
		edge_range(buf, sizeof(buf), edges, ne, i);
		nv_grid_set(&g, i + 1, 0, buf);
		for (size_t s = 0; s < r->nsides; s++) {
			uint64_t tot = 0;

			for (size_t k = 0; k <= ne; k++)
				tot += cnt[s][k];
			if (!used[s] || !tot) {
				nv_grid_set(&g, i + 1, 1 + s, "-");
				continue;
			}
			nv_fmt_value(num, sizeof(num), (double)cnt[s][i], NV_U_COUNT);
			snprintf(buf, sizeof(buf), "%.2f%% (%s)",
				 100.0 * (double)cnt[s][i] / (double)tot, num);
			nv_grid_set(&g, i + 1, 1 + s, buf);
		}
	}
	fprintf(out, "Latency buckets from the traces (--buckets; exact, every IO of the "
		"direction):\n\n");
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	free(cnt);
	free(used);
	return 0;
}

/*
 * fio's disk_util: one row per device and counter (md arrays' member
 * aggregate as "aggr ..."), one column per side.  Return: 0 or -ENOMEM.
 */
static int print_disks(FILE *out, const struct nv_report *r, enum nv_format f)
{
	static const char *const titles[NV_DISK_NR] = {
		"read IOs", "write IOs", "read merges", "write merges", "read ticks",
		"write ticks", "in queue", "util",
	};
	const char **names;
	size_t n, rows = 0, row = 1;
	struct nv_grid g;
	char buf[160];
	double v;

	if (nv_report_disks(r, &names, &n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (unsigned a = 0; a < 2; a++)
			for (unsigned k = 0; k < NV_DISK_NR; k++)
				for (size_t s = 0; s < r->nsides; s++)
					if (nv_side_disk(&r->sides[s], names[i], k, a, &v)) {
						rows++;
						s = r->nsides;
					}
	if (!rows || nv_grid_init(&g, rows + 1, 1 + r->nsides)) {
		free(names);
		return rows ? -ENOMEM : 0;
	}
	side_columns(&g, r, "disk");
	for (size_t i = 0; i < n; i++)
		for (unsigned a = 0; a < 2; a++)
			for (unsigned k = 0; k < NV_DISK_NR; k++) {
				bool any = false;

				for (size_t s = 0; s < r->nsides; s++)
					any |= nv_side_disk(&r->sides[s], names[i], k, a, &v) > 0;
				if (!any)
					continue;
				snprintf(buf, sizeof(buf), "%s %s%s%s", names[i], a ? "aggr " : "",
					 titles[k], k == NV_DISK_UTIL ? "" :
					 k >= NV_DISK_READ_TICKS ? " (ms)" : "");
				nv_grid_set(&g, row, 0, buf);
				for (size_t s = 0; s < r->nsides; s++) {
					if (nv_side_disk(&r->sides[s], names[i], k, a, &v))
						nv_fmt_value(buf, sizeof(buf), v, k == NV_DISK_UTIL
							     ? NV_U_PCT : NV_U_COUNT);
					else
						snprintf(buf, sizeof(buf), "-");
					nv_grid_set(&g, row, 1 + s, buf);
				}
				row++;
			}
	fprintf(out, f == NV_FMT_MD ? "### Disk utilisation (fio's disk_util)\n\n"
				   : "== Disk utilisation (fio's disk_util) ==\n");
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	free(names);
	return 0;
}

/* Whether the sides ran the job with different options. */
/* Return: true when some source of block b is a diskspd report (text or XML). */
static bool from_diskspd(const struct nv_report *r, const struct nv_block *b)
{
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < b->nsrc[s]; k++)
			if (b->src[s][k].rp->format &&
			    !strncmp(b->src[s][k].rp->format, "diskspd", 7))
				return true;
	return false;
}

static bool descs_differ(const struct nv_report *r, const struct nv_block *b)
{
	for (size_t s = 0; s < r->nsides; s++) {
		if (b->sdesc[s] && b->desc && strcmp(b->sdesc[s], b->desc))
			return true;
	}
	return false;
}

/*
 * A job's options, s: in Markdown a code span, unless s holds what would
 * end one (a backquote, a control byte): then escaped text (escape.h).
 * Return: nothing.
 */
static void put_code(FILE *out, const char *s, enum nv_format f)
{
	bool plain = f == NV_FMT_MD;

	for (const char *c = s; *c && plain; c++)
		plain = *c != '`' && (unsigned char)*c >= 0x20 && *c != 0x7f;
	if (plain)
		fprintf(out, "`%s`\n", s);
	else {
		nv_esc_fputs(out, s, f);
		fputc('\n', out);
	}
}

/*
 * The block's heading and workload line; when the runs' options differ
 * (passthrough vs block, two engines) one line per run label.
 */
static void print_block_title(FILE *out, const struct nv_report *r, const struct nv_block *b,
			      enum nv_format f)
{
	fputs(f == NV_FMT_MD ? "### " : "== ", out);
	nv_esc_fputs(out, b->key, f);
	fprintf(out, f == NV_FMT_MD ? " · %s\n\n" : " · %s ==\n", nv_dir_name(b->dir));
	if (descs_differ(r, b)) {
		for (size_t s = 0; s < r->nsides; s++) {
			if (!b->sdesc[s])
				continue;
			fputs(f == NV_FMT_MD ? "- " : "", out);
			nv_esc_fputs(out, r->sides[s].label, f);
			fputs(": ", out);
			put_code(out, b->sdesc[s], f);
		}
	} else if (b->desc && *b->desc) {
		put_code(out, b->desc, f);
	}
	if (b->error)
		fprintf(out, "fio reported error %d (%s) for this job\n", b->error,
			strerror(b->error));
	if (b->dir == NV_DIR_SYNC)
		fprintf(out, "sync latencies are fio's fsync/fdatasync latencies (total)\n");
	if (b->dir == NV_DIR_MIXED && from_diskspd(r, b))
		fprintf(out, "mixed: all operations, reads and writes together (diskspd's "
			     "Total column)\n");
	fputc('\n', out);
}

/*
 * How repeats are shown: the aggregate, the interval, the verdict, n; a
 * warning when a side has repeats but fewer than NV_REPEATS_MIN_QUIET.
 */
static void print_repeats_legend(FILE *out, const struct nv_report *r, enum nv_format f)
{
	const char *agg = nv_aggregate_name(r->agg);
	size_t few = 0;

	for (size_t s = 0; s < r->nsides; s++)
		few += r->sides[s].nruns < NV_REPEATS_MIN_QUIET;
	if (few == r->nsides && !nv_report_repeats(r)) {
		if (r->agg != NV_AGG_MEAN)
			fprintf(out,
				" --aggregate %s: no side has repeated runs, each value is its "
				"one run's.", agg);
		return;
	}
	fprintf(out, " Repeated runs: each side's %s%s ±stdev (%% of the mean); the change "
		"compares those, with the 95%% interval of the ratio of geometric means (Welch's "
		"t on the logarithms of the runs' values) and the verdict read from it (~: the "
		"interval holds 0, within noise); n=A+B: runs of the side and of the baseline; no "
		"interval from fewer than %d runs per side.", agg,
		r->agg == NV_AGG_BEST ? " (the highest IOPS and MB/s, the lowest latency)" : "",
		NV_REPEATS_MIN_CI);
	if (!few)
		return;
	fprintf(out, "\n\nWarning: fewer than %d runs on a side (", NV_REPEATS_MIN_QUIET);
	for (size_t s = 0, k = 0; s < r->nsides; s++)
		if (r->sides[s].nruns < NV_REPEATS_MIN_QUIET)
		{
			fputs(k++ ? ", " : "", out);
			nv_esc_fputs(out, r->sides[s].label, f);
			fprintf(out, ": %zu", r->sides[s].nruns);
		}
	fprintf(out, "): the interval assumes normally distributed logarithms, which so few runs "
		"cannot check; %d or more runs per side, interleaved (jobs/run -r %d), make it "
		"trustworthy.", NV_REPEATS_MIN_QUIET, NV_REPEATS_MIN_QUIET);
}

/*
 * A fio run's context, for one output of a page (run->line set): its jobs'
 * options lines under the names the tables give them ("myjob: rw=randrw,
 * bs=(R) 4096B-4096B, ..."; "myjob #2: ..." for a machine's second test),
 * the first three, then how many more.  Return: nothing.
 */
static void print_fio_context(FILE *out, const struct nv_run *run, enum nv_format f)
{
	size_t shown = 0;

	for (size_t j = 0; j < run->njobs && shown < 3; j++) {
		if (!run->jobs[j].desc || !*run->jobs[j].desc)
			continue;
		fputs(shown++ ? "; " : "", out);
		nv_esc_fputs(out, run->jobs[j].key, f);
		fputs(": ", out);
		nv_esc_fputs(out, run->jobs[j].desc, f);
	}
	if (run->njobs > shown && shown)
		fprintf(out, "; %zu more jobs", run->njobs - shown);
}

/* Return: true when some job of run has an options line (print_fio_context's). */
static bool fio_has_context(const struct nv_run *run)
{
	for (size_t j = 0; j < run->njobs; j++)
		if (run->jobs[j].desc && *run->jobs[j].desc)
			return true;
	return false;
}

/*
 * Each run's own context under its side's line (a CrystalDiskMark or
 * KDiskMark export's Comment, profile, test size, mode, OS; diskspd's
 * command line; for a fio output of a page its jobs' options):
 * "  - FILE[:LINE]: CONTEXT".  Return: nothing.
 */
static void print_context(FILE *out, const struct nv_side *side, enum nv_format f)
{
	for (size_t k = 0; k < side->nruns; k++) {
		const struct nv_run *run = &side->runs[k];
		bool fio = (!run->desc || !*run->desc) && run->line && nv_run_is_fio(run) &&
			   fio_has_context(run);

		if ((!run->desc || !*run->desc) && !fio)
			continue;
		fputs("  - ", out);
		if (side->nruns > 1) {
			nv_esc_fputs(out, run->path, f);
			if (run->line)
				fprintf(out, ":%u", run->line);
			fputs(": ", out);
		}
		if (fio)
			print_fio_context(out, run, f);
		else
			nv_esc_fputs(out, run->desc, f);
		fputc('\n', out);
	}
}

/*
 * One line per tool whose runs hold less than fio's: what its format does
 * not hold, so no row of it is shown.  Return: nothing.
 */
static void print_format_limits(FILE *out, const struct nv_report *r)
{
	bool cdm = false, nolat = false, other = false;

	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++) {
			const struct nv_run *run = &r->sides[s].runs[k];
			bool c = nv_run_means_only(run), n = nv_run_no_latency(run);

			cdm |= c;
			nolat |= n;
			other |= !c && !n;
		}
	if (cdm)
		fprintf(out, " CrystalDiskMark and KDiskMark exports hold MB/s, IOPS and the mean "
			"latency of each test, no percentiles, min, max or deviation%s.",
			other ? ": '-' in their columns" : ": those rows are left out");
	if (nolat)
		fprintf(out, " A diskspd report run without -L holds no latency (no AvgLat, no "
			"%%-ile table): rerun diskspd with -L for them%s.",
			other || cdm ? "" : "; the percentile rows are left out");
}

static void print_heading(FILE *out, const struct nv_report *r, enum nv_format f, const char *head)
{
	fputs(head, out);
	for (size_t s = 0; s < r->nsides; s++) {
		fputs(f == NV_FMT_MD ? "- **" : "- ", out);
		nv_esc_fputs(out, r->sides[s].label, f);
		fprintf(out, f == NV_FMT_MD ? "**%s:" : "%s:",
			r->nsides > 1 && s == r->baseline ? " (baseline)" : "");
		for (size_t k = 0; k < r->sides[s].nruns; k++) {
			fputs(k ? ", " : " ", out);
			nv_esc_fputs(out, r->sides[s].runs[k].path, f);
			if (r->sides[s].runs[k].line)
				fprintf(out, ":%u", r->sides[s].runs[k].line);
			fputs(" (", out);
			nv_esc_fputs(out, r->sides[s].runs[k].fio_version, f);
			fputs(")", out);
		}
		if (r->sides[s].have_price)
			fprintf(out, ", $%g/h", r->sides[s].price);
		fputc('\n', out);
		print_context(out, &r->sides[s], f);
	}
	fprintf(out, "\nLatency: %s (%s). Bandwidth: %s.", nv_latkind_name(r->lat),
		r->lat == NV_LAT_SLAT	? "submission"
		: r->lat == NV_LAT_CLAT ? "completion"
					: "total",
		nv_display.binary ? "1 MiB/s = 2^20 bytes/s" : "1 MB/s = 10^6 bytes/s");
	if (nv_display.headline == NV_HL_AUTO)
		fprintf(out, " Summary: IOPS for random or small-block (< 64 KiB) jobs, bandwidth "
			     "for the others.");
	if (r->nsides > 1)
		fprintf(out, " Single runs: a change under %g%% reads as about equal.",
			r->same_below);
	print_format_limits(out, r);
	print_repeats_legend(out, r, f);
	fprintf(out, "\n\n");
}

/* Blocks present in some sides but not others; idle directions. */
static void print_unmatched(FILE *out, const struct nv_report *r, enum nv_format f)
{
	size_t idle = 0, lines = 0;

	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		if (!b->active) {
			idle++;
			continue;
		}
		for (size_t s = 0; s < r->nsides; s++) {
			if (b->present[s])
				continue;
			if (!lines++)
				fprintf(out, f == NV_FMT_MD ? "### Unmatched jobs\n\n"
							    : "Unmatched jobs:\n");
			fputs("- ", out);
			nv_esc_fputs(out, b->key, f);
			fprintf(out, " · %s: not in ", nv_dir_name(b->dir));
			nv_esc_fputs(out, r->sides[s].label, f);
			fputc('\n', out);
		}
	}
	if (lines)
		fputc('\n', out);
	if (!idle || !nv_display.verbose)
		return;
	fprintf(out, "Directions without IOs (not shown):");
	for (size_t i = 0, k = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];

		if (!b->active) {
			fputs(k++ ? ", " : " ", out);
			nv_esc_fputs(out, b->key, f);
			fprintf(out, " %s%s", nv_dir_name(b->dir), b->error ? " (job error)" : "");
		}
	}
	fprintf(out, "\n\n");
}

/* The claims table's "run" and "measured" cells of a result. */
static void claim_cells(const struct nv_report *r, const struct nv_claim_result *c, char *run,
			size_t rn, char *meas, size_t mn)
{
	if (c->claim->kind == NV_CLAIM_CHANGE) {
		snprintf(run, rn, "%s vs %s", r->sides[c->side].label, r->sides[c->base].label);
		nv_fmt_change(meas, mn, &c->chg);
		return;
	}
	snprintf(run, rn, "%s", r->sides[c->side].label);
	if (c->cell.n)
		nv_fmt_value(meas, mn, c->cell.mean, nv_metric(c->claim->metric)->unit);
	else
		snprintf(meas, mn, "-");
}

static int print_claims(FILE *out, const struct nv_report *r, enum nv_format f, const char *head)
{
	struct nv_grid g;
	char buf[256], meas[128];

	if (!r->nclaims)
		return 0;
	if (nv_grid_init(&g, r->nclaims + 1, 5))
		return -ENOMEM;
	nv_grid_set(&g, 0, 0, "job · direction");
	nv_grid_set(&g, 0, 1, "run");
	nv_grid_set(&g, 0, 2, "claim");
	nv_grid_set(&g, 0, 3, "measured");
	nv_grid_set(&g, 0, 4, "verdict");
	for (size_t i = 0; i < r->nclaims; i++) {
		const struct nv_claim_result *c = &r->claims[i];
		const struct nv_block *b = &r->blocks[c->block];

		snprintf(buf, sizeof(buf), "%s · %s", b->key, nv_dir_name(b->dir));
		nv_grid_set(&g, i + 1, 0, buf);
		claim_cells(r, c, buf, sizeof(buf), meas, sizeof(meas));
		nv_grid_set(&g, i + 1, 1, buf);
		nv_grid_set(&g, i + 1, 2, c->claim->text);
		nv_grid_set(&g, i + 1, 3, meas);
		nv_grid_set(&g, i + 1, 4, nv_claim_verdict_name(c->verdict));
	}
	fputs(head, out);
	nv_grid_print(out, &g, f);
	fputc('\n', out);
	nv_grid_free(&g);
	return 0;
}

/*
 * Whether a `--lat lat` percentile row of block b is missing for a run
 * that has the mean: fio writes total-latency percentiles only when the
 * job had lat_percentiles=1.
 * Return: true when the hint is due.
 */
static bool lat_pct_missing(const struct nv_report *r, const struct nv_block *b)
{
	const struct nv_row *mean = nv_block_row(b, NV_M_MEAN);

	if (b->lat != NV_LAT_TOTAL || !mean)
		return false;
	for (size_t k = 0; k < b->nrows; k++) {
		enum nv_metric m = b->rows[k].metric;

		if (!NV_M_IS_PCT(m))
			continue;
		for (size_t s = 0; s < r->nsides; s++)	/* other tools: print_tool_missing */
			if (mean->cells[s].n && !b->rows[k].cells[s].n && b->nsrc[s] &&
			    nv_run_is_fio(b->src[s][0].rp))
				return true;
	}
	return false;
}

/* The unmatched jobs and the jobs' errors.  Return: nothing. */
static void print_other(FILE *out, const struct nv_report *r, enum nv_format f)
{
	print_unmatched(out, r, f);
	for (size_t i = 0; i < r->nblocks; i++)
		if (r->blocks[i].error && r->blocks[i].dir == NV_DIR_READ)
			fprintf(out, "Job %s: fio error %d (%s)\n\n", r->blocks[i].key,
				r->blocks[i].error, strerror(r->blocks[i].error));
}

/*
 * Whether every run of r came from fio (not CrystalDiskMark or diskspd):
 * the runs' heading names fio only then.
 * Return: true or false.
 */
static bool all_fio(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			if (!nv_run_is_fio(&r->sides[s].runs[k]))
				return false;
	return true;
}

/*
 * The parts of the report in `parts` (enum nv_md_part bits), in
 * nv_render_md's order; blocks: only block `only` (SIZE_MAX: every one);
 * bare: the runs, the summary and the claims without their headings.
 * Return: 0 or -ENOMEM.
 */
static int render_md(FILE *out, const struct nv_report *r, enum nv_format f, unsigned parts,
		     size_t only, bool bare)
{
	size_t shown = 0;
	bool md = f == NV_FMT_MD;

	if (parts & NV_MD_RUNS) {
		const char *name = all_fio(r) ? "fio results" : "Results";
		char head[32];

		snprintf(head, sizeof(head), "%s%s\n\n", md ? "## " : "", name);
		print_heading(out, r, f, bare ? "" : head);
	}
	if ((parts & NV_MD_SUMMARY) &&
	    print_summary(out, r, f, bare ? "" : md ? "### Summary\n\n" : "== Summary ==\n"))
		return -ENOMEM;
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];
		struct nv_grid g;

		if (!b->active || !(parts & NV_MD_BLOCKS) || (only != SIZE_MAX && i != only))
			continue;
		if (block_grid(r, b, &g))
			return -ENOMEM;
		print_block_title(out, r, b, f);
		nv_grid_print(out, &g, f);
		if (lat_pct_missing(r, b))
			fprintf(out, "\nlat percentiles `-`: fio reports total-latency "
				     "percentiles only "
				     "when the job sets `lat_percentiles=1`; `--lat clat` shows "
				     "the completion latency percentiles it always reports.\n");
		print_missing_levels(out, r, b);
		print_tool_missing(out, r, b, f);
		print_above_max(out, r, b);
		fputc('\n', out);
		nv_grid_free(&g);
		shown++;
		if (nv_block_has_buckets(r, b) && print_buckets(out, r, b, f))
			return -ENOMEM;
		if (print_trace_buckets(out, r, b, f))
			return -ENOMEM;
	}
	if ((parts & NV_MD_OTHER) && print_disks(out, r, f))
		return -ENOMEM;
	if ((parts & NV_MD_BLOCKS) && !shown && only == SIZE_MAX)
		fprintf(out, "No job did any IO.\n\n");
	if (parts & NV_MD_OTHER)
		print_other(out, r, f);
	if (!(parts & NV_MD_CLAIMS))
		return 0;
	return print_claims(out, r, f, bare ? "" : md ? "### Claims\n\n" : "== Claims ==\n");
}

int nv_render_md(FILE *out, const struct nv_report *r, enum nv_format f)
{
	return render_md(out, r, f, NV_MD_ALL, SIZE_MAX, false);
}

int nv_render_md_part(FILE *out, const struct nv_report *r, enum nv_md_part part, size_t block)
{
	return render_md(out, r, NV_FMT_MD, part, part == NV_MD_BLOCKS ? block : SIZE_MAX, true);
}

/* ---- load curves (report/curve_table.c) ------------------------------- */

void nv_render_md_cell(char *buf, size_t n, const struct nv_cell *c, const struct nv_side *s,
		       enum nv_unit u, double ref)
{
	fmt_cell(buf, n, c, s, u, ref);
}
