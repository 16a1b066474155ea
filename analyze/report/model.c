/*
 * model.c - the report model behind nvanalyze's comparison tables.
 *
 * Matching: a block is one job key (see fiojson.c: the job name, made unique
 * within a run) and one direction; runs of every side contribute to the same
 * block when their keys are equal.  A side with several runs (repeats) gets
 * the mean and the sample standard deviation, and the change against the
 * baseline a Welch t interval when both sides have at least two runs (both
 * computed in stats/repeats.c).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/model.h"
#include "analyze/stats/pctlevels.h"
#include "analyze/common.h"

/* ---- the report -------------------------------------------------------- */

bool nv_select_match(const struct nv_select *sel, const struct nv_job *j, enum nv_dir d)
{
	bool ok = !sel || !sel->njobs;

	if (sel && sel->dirs && !(sel->dirs & (1u << d)))
		return false;
	for (size_t i = 0; sel && i < sel->njobs && !ok; i++)
		ok = !fnmatch(sel->jobs[i], j->key, 0) || !fnmatch(sel->jobs[i], j->name, 0);
	return ok;
}

/*
 * The blocks by (key, direction): an open-addressing table of block
 * indexes + 1 (0: empty), twice the most blocks the runs can make, so that
 * collecting 10,000 jobs is not 10,000 scans of the list.
 */
struct block_index {
	size_t mask;
	size_t *slot;
};

/* Return: the first slot for (key, d). */
static size_t block_hash(const struct block_index *ix, const char *key, enum nv_dir d)
{
	return (size_t)(nv_hash(key, strlen(key)) * 31 + d) & ix->mask;
}

/* Room for every block the runs of r can make. Return: 0 or -ENOMEM. */
static int block_index_init(struct block_index *ix, const struct nv_report *r)
{
	size_t most = 0, n = 16;

	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			most += r->sides[s].runs[k].njobs * NV_DIR_NR;
	while (n < 2 * most)
		n *= 2;
	ix->mask = n - 1;
	ix->slot = calloc(n, sizeof(*ix->slot));
	return ix->slot ? 0 : -ENOMEM;
}

/* Return: the block of (key, d), or NULL; *at the slot to fill when NULL. */
static struct nv_block *find_block(struct nv_report *r, const struct block_index *ix,
				   const char *key, enum nv_dir d, size_t *at)
{
	size_t h = block_hash(ix, key, d);

	for (; ix->slot[h]; h = (h + 1) & ix->mask) {
		struct nv_block *b = &r->blocks[ix->slot[h] - 1];

		if (b->dir == d && !strcmp(b->key, key))
			return b;
	}
	*at = h;
	return NULL;
}

/*
 * A new block for key and direction d, at the end of r's list.
 * Return: the block, or NULL when out of memory.
 */
static struct nv_block *new_block(struct nv_report *r, const struct nv_job *job, enum nv_dir d,
				  size_t *cap)
{
	struct nv_block *b, *nb = r->blocks;

	if (r->nblocks == *cap) {	/* doubling: 10,000 jobs are not 50,000 copies */
		nb = realloc(r->blocks, (*cap ? *cap * 2 : 16) * sizeof(*nb));
		if (!nb)
			return NULL;
		*cap = *cap ? *cap * 2 : 16;
	}
	r->blocks = nb;
	b = &r->blocks[r->nblocks++];
	memset(b, 0, sizeof(*b));
	b->key = strdup(job->key);
	b->present = calloc(r->nsides, sizeof(*b->present));
	b->sdesc = calloc(r->nsides, sizeof(*b->sdesc));
	b->nsrc = calloc(r->nsides, sizeof(*b->nsrc));
	b->src = calloc(r->nsides, sizeof(*b->src));
	if (!b->key || !b->present || !b->sdesc || !b->nsrc || !b->src)
		return NULL;
	b->dir = d;
	b->desc = job->desc;
	b->lat = d == NV_DIR_SYNC ? NV_LAT_TOTAL : r->lat;
	return b;
}

/*
 * Record run k of side s (job j of it) as a source of block b.
 * Return: 0 or -ENOMEM.
 */
static int add_source(struct nv_report *r, struct nv_block *b, size_t s, size_t k, size_t j)
{
	const struct nv_run *run = &r->sides[s].runs[k];
	struct nv_source *n = realloc(b->src[s], (b->nsrc[s] + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	b->src[s] = n;
	n[b->nsrc[s]++] =
		(struct nv_source){ .run = k,
				    .rp = run,
				    .job = &run->jobs[j],
				    .traces = nv_trace_join_find(r->sides[s].traces, run, j) };
	return 0;
}

/* collect_blocks for side s. Return: 0 or -ENOMEM. */
static int collect_side(struct nv_report *r, const struct nv_select *sel, size_t s,
			struct block_index *ix, size_t *cap)
{
	for (size_t k = 0; k < r->sides[s].nruns; k++) {
		const struct nv_run *run = &r->sides[s].runs[k];

		for (size_t j = 0; j < run->njobs; j++) {
			const struct nv_job *job = &run->jobs[j];

			for (unsigned d = 0; d < NV_DIR_NR; d++) {
				struct nv_block *b;
				size_t at;

				if (!job->dir[d].present ||
				    !nv_select_match(sel, job, (enum nv_dir)d))
					continue;
				b = find_block(r, ix, job->key, (enum nv_dir)d, &at);
				if (!b) {
					if (!(b = new_block(r, job, (enum nv_dir)d, cap)))
						return -ENOMEM;
					ix->slot[at] = r->nblocks;
				}
				if (add_source(r, b, s, k, j))
					return -ENOMEM;
				b->present[s] = true;
				if (!b->sdesc[s])
					b->sdesc[s] = job->desc;
				b->active |= nv_dir_active(&job->dir[d]);
				if (!b->error)
					b->error = job->error;
			}
		}
	}
	return 0;
}

/* Create the blocks: every (key, direction) present in any run, in order. */
static int collect_blocks(struct nv_report *r, const struct nv_select *sel)
{
	struct block_index ix;
	size_t cap = 0;
	int ret = block_index_init(&ix, r);

	for (size_t s = 0; s < r->nsides && !ret; s++)
		ret = collect_side(r, sel, s, &ix, &cap);
	free(ix.slot);
	return ret;
}


/*
 * The printed width of fio's value of level p (text inputs), its cut into
 * *cut.  Return: the width, 0 if none.
 */
static double level_prec(const struct nv_dirstat *ds, enum nv_latkind lat, double p,
			 unsigned char *cut)
{
	*cut = NV_CUT_ROUND;
	if ((unsigned)lat >= NV_LAT_NR)
		return 0;
	for (unsigned i = 0; i < NV_PCT_NR; i++)
		if (fabs(p - nv_pcts[i].value) < 1e-9 && ds->lat[lat].pct[i].src) {
			*cut = ds->lat[lat].pct[i].cut;
			return ds->lat[lat].pct[i].prec;
		}
	return 0;
}

/*
 * The values of one metric (a percentile row: of level) over the
 * runs of one side; *above: a run's fio percentile lies above its max.
 */
static void side_cell(const struct nv_report *r, const struct nv_block *b, size_t s,
		      enum nv_metric m, double level, bool fio, double *buf, struct nv_cell *c,
		      bool *above)
{
	const struct nv_side *side = &r->sides[s];
	size_t n = 0;
	unsigned char src = NV_SRC_NONE, ccut = NV_CUT_ROUND;
	double cprec = 0;

	for (size_t k = 0; k < b->nsrc[s]; k++) {
		const struct nv_job *j = b->src[s][k].job;
		const struct nv_latstat *exact = fio ? NULL : nv_jobjoin_exact(b->src[s][k].traces,
									     b->dir);
		unsigned char cut = NV_CUT_ROUND;
		int got;
		double v, prec = 0;

		if (NV_M_IS_PCT(m)) {
			got = nv_level_value(&b->src[s][k], b->dir, b->lat, level, fio, &v);
			if (got == NV_SRC_FIO && nv_level_above_max(j, b->dir, b->lat, v))
				*above = true;
			if (got == NV_SRC_FIO)
				prec = level_prec(&j->dir[b->dir], b->lat, level, &cut);
		} else if (m == NV_M_PRICE) {
			got = side->have_price ? NV_SRC_FIO : NV_SRC_NONE;
			v = side->price;
		} else {
			got = nv_metric_value_prec(&j->dir[b->dir], exact, m, b->lat, &v, &prec,
						   &cut);
			if (got == NV_SRC_NONE)
				got = nv_job_metric_value(j, m, &v, &prec, &cut);
		}
		if (got == NV_SRC_NONE)
			continue;
		if (got > src)
			src = (unsigned char)got;
		ccut = n && cut != ccut ? NV_CUT_ROUND : cut;
		buf[n++] = v;	/* the price: once per run that has the job, as its rates */
		cprec = fmax(cprec, prec);
	}
	nv_repeats_cell(buf, n, r->agg, nv_metric(m)->higher_better, c);
	c->absent = side->nruns - b->nsrc[s];
	c->src = src;
	c->prec = cprec;
	c->cut = ccut;
}

/*
 * The cost cell of side s (per 1k IOPS, per GB/s: price * 1000 / x) from its
 * cell of the rate x the row above shows: the price over that rate, not an
 * aggregate of the runs' costs (docs/analysis.md); min over the max rate,
 * max over the min; its relative stdev and its logarithms' spread are the
 * rate's, so that the change's interval is the rate's, inverted.  Empty
 * without a price or when a run's rate is not above 0.
 */
static void cost_cell(const struct nv_side *side, const struct nv_cell *rate, struct nv_cell *c)
{
	double p = side->price;

	memset(c, 0, sizeof(*c));
	c->absent = rate->absent;
	if (!side->have_price || !rate->n || !rate->positive || !(p > 0))
		return;
	c->n = rate->n;
	c->value = nv_cost_per_kiops(p, rate->value);	/* per GB/s: the same rule */
	c->mean = nv_cost_per_kiops(p, rate->mean);
	c->median = nv_cost_per_kiops(p, rate->median);
	c->min = nv_cost_per_kiops(p, rate->max);
	c->max = nv_cost_per_kiops(p, rate->min);
	c->sd = c->mean * rate->sd / rate->mean;
	c->positive = true;
	c->lmean = log(p * 1000) - rate->lmean;
	c->lsd = rate->lsd;
	c->src = rate->src;
}

/*
 * The cells of row (side_cell; a cost row: cost_cell from the block's rate
 * row, which comes before it); fio: fio's own values (row->fio).
 */
static void row_cells(const struct nv_report *r, const struct nv_block *b, struct nv_row *row,
		      bool fio, double *buf, bool *above)
{
	enum nv_metric m = row->metric;
	const struct nv_row *rate = nv_block_row(b, m == NV_M_COST ? NV_M_IOPS : NV_M_BW);
	struct nv_cell *cells = fio ? row->fio : row->cells, none = { 0 };

	for (size_t s = 0; s < r->nsides; s++) {
		if (m == NV_M_COST || m == NV_M_COST_BW) {
			const struct nv_cell *rc = !rate ? NULL : fio && rate->fio ? rate->fio
									   : rate->cells;

			none.absent = r->sides[s].nruns - b->nsrc[s];
			cost_cell(&r->sides[s], rc ? &rc[s] : &none, &cells[s]);
		} else {
			side_cell(r, b, s, m, row->level, fio, buf, &cells[s],
				  row->above_max && !fio ? &row->above_max[s] : above);
		}
	}
}

static bool any_price(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		if (r->sides[s].have_price)
			return true;
	return false;
}

/*
 * The verdict of a change as every output shows it: none for a neutral
 * metric (runtime, the error), the about-equal rule for single runs.
 */
static void settle(const struct nv_report *r, enum nv_metric m, struct nv_change *ch)
{
	nv_repeats_about_equal(ch, r->same_below);
	if (nv_metric(m)->neutral)
		ch->verdict = NV_SAME;
}

/*
 * The change columns of one row, one per pair of r.
 * Return: 0 or -ENOMEM.
 */
static int pair_changes(const struct nv_report *r, struct nv_row *row)
{
	const struct nv_metric_info *mi = nv_metric(row->metric);

	row->pchg = calloc(r->npairs ? r->npairs : 1, sizeof(*row->pchg));
	if (!row->pchg)
		return -ENOMEM;
	for (size_t i = 0; i < r->npairs; i++) {
		const struct nv_pair *p = &r->pairs[i];

		nv_repeats_change(&row->cells[p->a], &row->cells[p->b], mi->higher_better,
				  &row->pchg[i]);
		settle(r, row->metric, &row->pchg[i]);
	}
	return 0;
}

/*
 * r->pairs: p[0..n), or with n == 0 each side but the baseline vs the
 * baseline.
 * Return: 0, -EINVAL for a pair out of range or of a side with itself, or
 * -ENOMEM.
 */
static int set_pairs(struct nv_report *r, const struct nv_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].a >= r->nsides || p[i].b >= r->nsides || p[i].a == p[i].b)
			return -EINVAL;
	r->pairs = calloc(n ? n : r->nsides, sizeof(*r->pairs));
	if (!r->pairs)
		return -ENOMEM;
	if (n) {
		memcpy(r->pairs, p, n * sizeof(*p));
		r->npairs = n;
		return 0;
	}
	for (size_t s = 0; s < r->nsides; s++)
		if (s != r->baseline)
			r->pairs[r->npairs++] = (struct nv_pair){ s, r->baseline };
	return 0;
}

/*
 * Whether block b gets a cost row of metric m (NV_M_COST: per 1k IOPS,
 * NV_M_COST_BW: per GB/s): a price was given, b is not sync, and m is
 * b's headline (the report's --summary, auto: nv_block_headline; both: both).
 */
static bool want_cost(const struct nv_report *r, const struct nv_block *b, enum nv_metric m)
{
	enum nv_headline h = r->headline;

	if (!any_price(r) || b->dir == NV_DIR_SYNC)
		return false;
	if (h == NV_HL_AUTO)
		h = nv_block_headline(r, b);
	return h == NV_HL_BOTH || h == (m == NV_M_COST ? NV_HL_IOPS : NV_HL_BW);
}

/*
 * Add the row of metric m (a percentile row: of level) to b unless no side
 * has it; percentile rows stay even then (so that they print as missing)
 * unless the block is idle.
 * Return: 0 or -ENOMEM.
 */
static int add_row(struct nv_report *r, struct nv_block *b, enum nv_metric m, double level,
		   double *buf)
{
	struct nv_row *row = &b->rows[b->nrows];
	bool any = false, above = false;

	memset(row, 0, sizeof(*row));
	row->metric = m;
	row->level = level;
	row->cells = calloc(r->nsides, sizeof(*row->cells));
	row->chg = calloc(r->nsides, sizeof(*row->chg));
	if (NV_M_IS_PCT(m))
		row->above_max = calloc(r->nsides, sizeof(*row->above_max));
	if (!row->cells || !row->chg || (NV_M_IS_PCT(m) && !row->above_max))
		goto drop;
	row_cells(r, b, row, false, buf, &above);
	for (size_t s = 0; s < r->nsides; s++) {
		any |= row->cells[s].n > 0;
		if (row->cells[s].src == NV_SRC_EXACT && !row->fio &&
		    !(row->fio = calloc(r->nsides, sizeof(*row->fio))))
			goto drop;
	}
	if (!any && !(b->active && NV_M_IS_PCT(m))) {
		free(row->cells);
		free(row->chg);
		free(row->fio);
		free(row->above_max);
		return 0;
	}
	if (row->fio)
		row_cells(r, b, row, true, buf, &above);
	for (size_t s = 0; s < r->nsides; s++) {
		if (s == r->baseline)
			continue;
		nv_repeats_change(&row->cells[s], &row->cells[r->baseline],
				  nv_metric(m)->higher_better, &row->chg[s]);
		settle(r, m, &row->chg[s]);
	}
	if (pair_changes(r, row))
		goto drop;
	b->nrows++;
	return 0;
drop:
	free(row->cells);
	free(row->chg);
	free(row->fio);
	free(row->above_max);
	free(row->pchg);
	return -ENOMEM;
}

/* One note per block and tool that prints no percentiles (CrystalDiskMark). */
static void note_once(struct nv_report *r, const struct nv_block *b, const char *tool)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s · %s: %s prints no latency percentiles: printed as '-'",
		 b->key, nv_dir_name(b->dir), tool);
	for (size_t i = 0; i < r->nnotes; i++)
		if (!strcmp(r->notes[i], msg))
			return;
	nv_note_add(&r->notes, &r->nnotes, "%s", msg);
}

/*
 * A note for each level of a percentile row that some side with IOs in the
 * direction lacks (fio did not report it, no traces): printed as missing,
 * never estimated.
 */
static void note_missing(struct nv_report *r, const struct nv_block *b, const struct nv_row *row)
{
	char name[32];

	for (size_t s = 0; s < r->nsides; s++) {
		bool active = false;

		for (size_t k = 0; k < b->nsrc[s]; k++)
			active |= nv_dir_active(&b->src[s][k].job->dir[b->dir]);
		if (row->cells[s].n || !active)
			continue;
		nv_pctl_name(name, sizeof(name), row->level);
		if (!nv_run_is_fio(b->src[s][0].rp)) {
			note_once(r, b, b->src[s][0].rp->fio_version);
			continue;
		}
		nv_note_add(&r->notes, &r->nnotes, "%s · %s: fio did not report %s %s for %s "
			    "(its percentile_list) and there are no traces: printed as '-'; add "
			    "%g to fio's percentile_list= or record traces (nv_trace=DIR)", b->key,
			    nv_dir_name(b->dir), nv_latkind_name(b->lat), name, r->sides[s].label,
			    row->level);
	}
}

/*
 * True when no side of r can hold latency percentiles: every run a
 * CrystalDiskMark or KDiskMark export (MB/s, IOPS, the mean only) or a
 * diskspd report run without -L, so a percentile row would be '-'
 * throughout.
 */
static bool no_side_has_pcts(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		for (size_t k = 0; k < r->sides[s].nruns; k++)
			if (!nv_run_means_only(&r->sides[s].runs[k]) &&
			    !nv_run_no_latency(&r->sides[s].runs[k]))
				return false;
	return true;
}

/* The percentile rows of b: one per level of --percentiles, ascending. */
static int add_level_rows(struct nv_report *r, struct nv_block *b, double *buf)
{
	struct nv_pctl lv;

	if (no_side_has_pcts(r))
		return 0;	/* rows no run can have: left out (the runs list says so) */
	nv_block_levels(r, b, r->levels, &lv);
	for (size_t i = 0; i < lv.n; i++) {
		size_t before = b->nrows;
		int ret = add_row(r, b, nv_level_metric(lv.v[i]), lv.v[i], buf);

		if (ret)
			return ret;
		if (b->nrows > before && b->active)
			note_missing(r, b, &b->rows[before]);
	}
	return 0;
}

/*
 * Rows of a block: every metric some side has, the percentile rows (see
 * add_row) where NV_M_P50 stands; price and cost only when a price was
 * given (not for sync).
 */
static int fill_rows(struct nv_report *r, struct nv_block *b, double *buf)
{
	for (unsigned m = 0; m < NV_M_NR; m++) {
		int ret = 0;

		if (m == NV_M_P50)
			ret = add_level_rows(r, b, buf);
		else if (NV_M_IS_PCT(m))
			continue;
		else if (m == NV_M_PRICE && (!any_price(r) || b->dir == NV_DIR_SYNC))
			continue;
		else if ((m == NV_M_COST || m == NV_M_COST_BW) && !want_cost(r, b, m))
			continue;
		else
			ret = add_row(r, b, (enum nv_metric)m, 0, buf);
		if (ret)
			return ret;
	}
	return 0;
}

bool nv_report_repeats(const struct nv_report *r)
{
	for (size_t s = 0; s < r->nsides; s++)
		if (r->sides[s].nruns > 1)
			return true;
	return false;
}

const struct nv_row *nv_block_row(const struct nv_block *b, enum nv_metric m)
{
	for (size_t i = 0; i < b->nrows; i++)
		if (b->rows[i].metric == m)
			return &b->rows[i];
	return NULL;
}

const struct nv_row *nv_block_level_row(const struct nv_block *b, double p)
{
	for (size_t i = 0; i < b->nrows; i++)
		if (NV_M_IS_PCT(b->rows[i].metric) && nv_pctl_same(b->rows[i].level, p))
			return &b->rows[i];
	return NULL;
}

/*
 * r->runs: every run with its label.
 * Return: 0 or -ENOMEM.
 */
static int label_runs(struct nv_report *r)
{
	size_t n = 0;

	for (size_t s = 0; s < r->nsides; s++)
		n += r->sides[s].nruns;
	r->runs = calloc(n ? n : 1, sizeof(*r->runs));
	if (!r->runs)
		return -ENOMEM;
	for (size_t s = 0; s < r->nsides; s++) {
		const struct nv_side *side = &r->sides[s];

		for (size_t k = 0; k < side->nruns; k++) {
			struct nv_runinfo *ri = &r->runs[r->nruns++];
			int len;

			ri->run = &side->runs[k];
			ri->side = s;
			ri->index = k;
			if (side->nruns > 1)
				len = asprintf(&ri->label, "%s run %zu", side->label, k + 1);
			else
				len = (ri->label = strdup(side->label)) ? 0 : -1;
			if (len < 0) {
				ri->label = NULL;
				return -ENOMEM;
			}
		}
	}
	return 0;
}

const char *nv_report_run_label(const struct nv_run *run, void *r)
{
	const struct nv_report *rep = r;

	for (size_t i = 0; i < rep->nruns; i++)
		if (rep->runs[i].run == run)
			return rep->runs[i].label;
	return "?";
}

const struct nv_job *nv_block_job(const struct nv_report *r, const struct nv_block *b)
{
	for (size_t s = 0; s < r->nsides; s++)
		if (b->nsrc[s])
			return b->src[s][0].job;
	return NULL;
}

/* The block size of a direction (bs= option) or, without one, bytes per IO measured. */
static double io_size(const struct nv_job *j, enum nv_dir d)
{
	const struct nv_dirstat *ds = &j->dir[d];

	if (d <= NV_DIR_TRIM && j->bs[d])
		return (double)j->bs[d];
	if (ds->have_ios && ds->ios)
		return (double)ds->io_bytes / (double)ds->ios;
	if (ds->iops.src && ds->iops.v > 0 && ds->bw.src)
		return ds->bw.v / ds->iops.v;
	return 0;
}

enum nv_headline nv_block_headline(const struct nv_report *r, const struct nv_block *b)
{
	const struct nv_job *j = nv_block_job(r, b);
	double size;

	if (!j)
		return NV_HL_IOPS;
	if (j->rw && !strncmp(j->rw, "rand", 4))
		return NV_HL_IOPS;
	size = io_size(j, b->dir);
	return size > 0 && size < NV_SUMMARY_SMALL_BS ? NV_HL_IOPS : NV_HL_BW;
}

void nv_block_fio_levels(const struct nv_report *r, const struct nv_block *b,
			 struct nv_pctl *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t s = 0; s < r->nsides; s++) {
		for (size_t k = 0; k < b->nsrc[s]; k++) {
			const struct nv_latstat *ls = &b->src[s][k].job->dir[b->dir].lat[b->lat];

			for (size_t i = 0; i < ls->npoints; i++)
				nv_pctl_add(out, ls->points[i].pct);
		}
	}
}

void nv_block_levels(const struct nv_report *r, const struct nv_block *b,
		     const struct nv_pctl *want, struct nv_pctl *out)
{
	if (want && want->fio) {
		nv_block_fio_levels(r, b, out);
		if (!out->n)
			nv_pctl_default(out);
		for (size_t i = 0; i < want->n; i++)	/* levels claims added */
			nv_pctl_add(out, want->v[i]);
	} else if (want) {
		*out = *want;
	} else {
		nv_pctl_default(out);
	}
}

int nv_report_build(const struct nv_side *sides, size_t nsides, size_t baseline,
		    const struct nv_pair *pairs, size_t npairs, enum nv_latkind lat,
		    enum nv_aggregate agg, const struct nv_select *sel, struct nv_report *r)
{
	size_t maxruns = 1;
	double *buf;
	int ret;

	memset(r, 0, sizeof(*r));
	r->sides = sides;
	r->nsides = nsides;
	r->baseline = baseline < nsides ? baseline : nsides - 1;
	r->lat = lat;
	r->agg = agg;
	r->levels = sel ? sel->levels : NULL;
	r->headline = sel ? sel->headline : NV_HL_AUTO;
	r->same_below = sel ? sel->same_below : NV_SAME_BELOW_DEFAULT;
	for (size_t s = 0; s < nsides; s++)
		if (sides[s].nruns > maxruns)
			maxruns = sides[s].nruns;
	buf = calloc(maxruns, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	ret = set_pairs(r, pairs, npairs);
	if (!ret)
		ret = label_runs(r);
	if (!ret)
		ret = collect_blocks(r, sel);
	for (size_t i = 0; !ret && i < r->nblocks; i++)
		ret = fill_rows(r, &r->blocks[i], buf);
	free(buf);
	if (ret)
		nv_report_free(r);
	return ret;
}

void nv_report_free(struct nv_report *r)
{
	for (size_t i = 0; i < r->nblocks; i++) {
		for (size_t k = 0; k < r->blocks[i].nrows; k++) {
			free(r->blocks[i].rows[k].cells);
			free(r->blocks[i].rows[k].chg);
			free(r->blocks[i].rows[k].pchg);
			free(r->blocks[i].rows[k].fio);
			free(r->blocks[i].rows[k].above_max);
		}
		for (size_t s = 0; r->blocks[i].src && s < r->nsides; s++)
			free(r->blocks[i].src[s]);
		free(r->blocks[i].key);
		free(r->blocks[i].present);
		free(r->blocks[i].sdesc);
		free(r->blocks[i].nsrc);
		free(r->blocks[i].src);
	}
	free(r->blocks);
	for (size_t i = 0; i < r->nruns; i++)
		free(r->runs[i].label);
	free(r->runs);
	free(r->claims);
	free(r->pairs);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}
