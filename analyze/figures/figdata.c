/*
 * figdata.c - CDF points, bar percentages and time series for the figures
 * (see figdata.h).  Numbers are written with %.6g (latencies, times) and
 * %.9g (fractions), enough for a plot and short enough to read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/figures/figdata.h"
#include "analyze/figures/gpquote.h"
#include "analyze/stats/exact.h"
#include "analyze/stats/trace_find.h"

const char *nv_figdata_src_text(enum nv_cdf_src src)
{
	static const char *const text[] = {
		[NV_CDF_NONE] = "", [NV_CDF_TRACE] = "trace", [NV_CDF_BINS] = "fio bins, approx.",
		[NV_CDF_PCT] = "fio percentiles, approx.",
	};

	return (unsigned)src <= NV_CDF_PCT ? text[src] : "";
}

/*
 * Allocate room for n points and set the source.
 * Return: 0 or -ENOMEM.
 */
static int cdf_alloc(struct nv_cdf *c, enum nv_cdf_src src, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->pt = calloc(n ? n : 1, sizeof(*c->pt));
	if (!c->pt)
		return -ENOMEM;
	c->src = src;
	return 0;
}

/*
 * Append a point (room was allocated).
 * Return: nothing.
 */
static void cdf_put(struct nv_cdf *c, double us, double cdf, double exc)
{
	c->pt[c->n++] = (struct nv_cdf_point){ .us = us, .cdf = cdf, .exc = exc };
}

int nv_figdata_cdf_hist(const uint64_t *hist, unsigned lo0, unsigned nb, uint64_t n,
			struct nv_cdf *c)
{
	uint64_t cum = 0;
	size_t used = 0;

	memset(c, 0, sizeof(*c));
	if (!n)
		return -EINVAL;
	for (unsigned k = 0; k < nb; k++)
		used += hist[k] != 0;
	if (cdf_alloc(c, NV_CDF_TRACE, used + 1))
		return -ENOMEM;
	c->ios = n;
	c->rarest = 1.0 / (double)n;
	for (unsigned k = 0; k < nb; k++) {
		uint64_t lo, hi;

		if (!hist[k])
			continue;
		nv_exact_bucket_range(lo0 + k, &lo, &hi);
		if (!cum)
			cdf_put(c, (double)lo / 1e3, 0, 1);
		/* exceedance: the IOs of this bucket and above, so the largest is on it */
		cdf_put(c, (double)hi / 1e3, (double)(cum + hist[k]) / (double)n,
			(double)(n - cum) / (double)n);
		cum += hist[k];
	}
	return 0;
}

int nv_figdata_cdf_bins(const struct nv_bin *bins, size_t nbins, struct nv_cdf *c)
{
	uint64_t n = 0, cum = 0;

	memset(c, 0, sizeof(*c));
	for (size_t k = 0; k < nbins; k++)
		n += bins[k].count;
	if (!n)
		return -EINVAL;
	if (cdf_alloc(c, NV_CDF_BINS, nbins + 1))
		return -ENOMEM;
	c->ios = n;
	c->rarest = 1.0 / (double)n;
	for (size_t k = 0; k < nbins; k++) {
		if (!cum)
			cdf_put(c, bins[k].ns / 1e3, 0, 1);
		cdf_put(c, bins[k].ns / 1e3, (double)(cum + bins[k].count) / (double)n,
			(double)(n - cum) / (double)n);
		cum += bins[k].count;
	}
	return 0;
}

int nv_figdata_cdf_pcts(const struct nv_pctpt *pts, size_t npts, struct nv_cdf *c)
{
	memset(c, 0, sizeof(*c));
	if (!npts)
		return -EINVAL;
	if (cdf_alloc(c, NV_CDF_PCT, npts))
		return -ENOMEM;
	c->rarest = 1;
	for (size_t k = 0; k < npts; k++) {
		if (pts[k].pct < 100)
			c->rarest = fmin(c->rarest, 1 - pts[k].pct / 100);
		cdf_put(c, pts[k].ns / 1e3, pts[k].pct / 100, 1 - pts[k].pct / 100);
	}
	return 0;
}

void nv_figdata_cdf_free(struct nv_cdf *c)
{
	free(c->pt);
	memset(c, 0, sizeof(*c));
}

void nv_figdata_hist_add(uint64_t *acc, const uint64_t *hist, unsigned lo, unsigned nb)
{
	for (unsigned k = 0; k < nb; k++)
		acc[lo + k] += hist[k];
}

int nv_figdata_bins_add(struct nv_bin **acc, size_t *nacc, const struct nv_bin *bins, size_t nbins)
{
	struct nv_bin *m = calloc(*nacc + nbins + 1, sizeof(*m));
	size_t i = 0, k = 0, o = 0;

	if (!m)
		return -ENOMEM;
	while (i < *nacc || k < nbins) {
		if (k == nbins || (i < *nacc && (*acc)[i].ns < bins[k].ns)) {
			m[o++] = (*acc)[i++];
		} else if (i == *nacc || bins[k].ns < (*acc)[i].ns) {
			m[o++] = bins[k++];
		} else {
			m[o] = (*acc)[i++];
			m[o++].count += bins[k++].count;
		}
	}
	free(*acc);
	*acc = m;
	*nacc = o;
	return 0;
}

/*
 * The trace operation of direction d.
 * Return: the op, or -1 (sync, mixed).
 */
static int dir_op(enum nv_dir d)
{
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (nv_op_dir(op) == (int)d)
			return (int)op;
	return -1;
}

/*
 * The trace operation state behind source x of block b, when its CDF can
 * come from the traces.
 * Return: the state, or NULL.
 */
static const struct nv_tan_op *src_trace(const struct nv_block *b, const struct nv_source *x)
{
	int op = dir_op(b->dir);

	if (!x->traces || op < 0 || b->lat != NV_LAT_CLAT)
		return NULL;
	if (!x->traces->tan.op[op].hist || !x->traces->tan.op[op].records)
		return NULL;
	return &x->traces->tan.op[op];
}

/*
 * One curve from source x alone: traces, else bins, else percentiles.
 * Return: 0 (c->src NV_CDF_NONE when it has none), or -ENOMEM.
 */
static int src_cdf(const struct nv_block *b, const struct nv_source *x, struct nv_cdf *c)
{
	const struct nv_latstat *ls = &x->job->dir[b->dir].lat[b->lat];
	const struct nv_tan_op *t = src_trace(b, x);
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (t)
		ret = nv_figdata_cdf_hist(t->hist, t->hist_lo, t->hist_n, t->records, c);
	else if (ls->nbins)
		ret = nv_figdata_cdf_bins(ls->bins, ls->nbins, c);
	else if (ls->npoints)
		ret = nv_figdata_cdf_pcts(ls->points, ls->npoints, c);
	return ret == -ENOMEM ? ret : 0;
}

/*
 * The pooled curve of the active sources act[0..n): histograms when all
 * have traces, bins when all have bins.
 * Return: 0 (c->src NV_CDF_NONE when they cannot be pooled), or -ENOMEM.
 */
static int pooled_cdf(const struct nv_block *b, const struct nv_source *const *act, size_t n,
		      struct nv_cdf *c)
{
	bool traces = true, bins = true;
	uint64_t *h = NULL, ios = 0;
	struct nv_bin *acc = NULL;
	size_t nacc = 0;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		traces &= src_trace(b, act[i]) != NULL;
		bins &= act[i]->job->dir[b->dir].lat[b->lat].nbins > 0;
	}
	if (traces) {
		if (!(h = calloc(NV_EXACT_NBUCKETS, sizeof(*h))))
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			const struct nv_tan_op *t = src_trace(b, act[i]);

			nv_figdata_hist_add(h, t->hist, t->hist_lo, t->hist_n);
			ios += src_trace(b, act[i])->records;
		}
		ret = nv_figdata_cdf_hist(h, 0, NV_EXACT_NBUCKETS, ios, c);
	} else if (bins) {
		for (size_t i = 0; i < n && !ret; i++) {
			const struct nv_latstat *ls = &act[i]->job->dir[b->dir].lat[b->lat];

			ret = nv_figdata_bins_add(&acc, &nacc, ls->bins, ls->nbins);
		}
		if (!ret)
			ret = nv_figdata_cdf_bins(acc, nacc, c);
	}
	free(h);
	free(acc);
	return ret == -ENOMEM ? ret : 0;
}

/*
 * One curve per active source, for sources that cannot be pooled.
 * Return: 0 or -ENOMEM.
 */
static int per_run_cdfs(const struct nv_block *b, size_t s, const struct nv_source *const *act,
			size_t n, struct nv_side_cdf *sc)
{
	for (size_t i = 0; i < n; i++) {
		struct nv_cdf c;

		if (src_cdf(b, act[i], &c))
			return -ENOMEM;
		if (c.src == NV_CDF_NONE)
			continue;
		sc->src[sc->ncurves] = (size_t)(act[i] - b->src[s]);
		sc->curve[sc->ncurves++] = c;
	}
	return 0;
}

int nv_figdata_side_cdf(const struct nv_block *b, size_t s, struct nv_side_cdf *sc)
{
	const struct nv_source **act = calloc(b->nsrc[s] + 1, sizeof(*act));
	size_t n = 0;
	int ret = -ENOMEM;

	memset(sc, 0, sizeof(*sc));
	sc->curve = calloc(b->nsrc[s] + 1, sizeof(*sc->curve));
	sc->src = calloc(b->nsrc[s] + 1, sizeof(*sc->src));
	if (!act || !sc->curve || !sc->src)
		goto out;
	for (size_t k = 0; k < b->nsrc[s]; k++)
		if (nv_dir_active(&b->src[s][k].job->dir[b->dir]))
			act[n++] = &b->src[s][k];
	ret = 0;
	if (!n)
		goto out;
	ret = n == 1 ? src_cdf(b, act[0], &sc->curve[0]) : pooled_cdf(b, act, n, &sc->curve[0]);
	if (ret)
		goto out;
	if (sc->curve[0].src != NV_CDF_NONE) {
		sc->pooled = n;
		sc->ncurves = 1;
	} else if (n > 1) {
		ret = per_run_cdfs(b, s, act, n, sc);
	}
out:
	free(act);
	if (ret)
		nv_figdata_side_cdf_free(sc);
	return ret;
}

void nv_figdata_side_cdf_free(struct nv_side_cdf *sc)
{
	for (size_t i = 0; i < sc->ncurves; i++)
		nv_figdata_cdf_free(&sc->curve[i]);
	free(sc->curve);
	free(sc->src);
	memset(sc, 0, sizeof(*sc));
}

double nv_figdata_cdf_at(const struct nv_cdf *c, double exc)
{
	for (size_t k = 0; k < c->n; k++)
		if (c->pt[k].exc <= exc)
			return c->pt[k].us;
	return NAN;
}

int nv_figdata_cdf_write(FILE *f, const struct nv_cdf *c)
{
	for (size_t k = 0; k < c->n; k++)
		fprintf(f, "%.6g %.9g %.9g\n", c->pt[k].us, c->pt[k].cdf, c->pt[k].exc);
	return ferror(f) ? -EIO : 0;
}

/*
 * Each side's value of row in % of the baseline's (nan where a side or
 * the baseline has none), after a row's first column; *ymax raised to the largest.
 * Return: nothing.
 */
static void bars_pcts(FILE *f, const struct nv_report *r, const struct nv_row *row, double *ymax)
{
	for (size_t s = 0; s < r->nsides; s++) {
		const struct nv_cell *cell = &row->cells[s], *base = &row->cells[r->baseline];
		bool have = cell->n && base->n && base->value > 0;
		double pct = have ? 100 * cell->value / base->value : NAN;

		fprintf(f, " %.6g", pct);
		if (pct > *ymax)
			*ymax = pct;
	}
	fprintf(f, "\n");
}

/* "# metric "a" "b"": the sides' column names.  Return: nothing. */
static void bars_columns(FILE *f, const struct nv_report *r, const char *first)
{
	char lab[300];

	fprintf(f, "# %s", first);
	for (size_t s = 0; s < r->nsides; s++) {
		nv_gnuplot_data_str(lab, sizeof(lab), r->sides[s].label);
		fprintf(f, " \"%s\"", lab);
	}
	fprintf(f, "\n");
}

int nv_figdata_bars_write(FILE *f, const struct nv_report *r, const struct nv_block *b,
			  const struct nv_row *const *rows, size_t nrows, double *ymax)
{
	char k[300], base[300];

	nv_gnuplot_data_str(k, sizeof(k), b->key);
	nv_gnuplot_data_str(base, sizeof(base), r->sides[r->baseline].label);
	fprintf(f, "# %s %s: each metric in %% of the baseline %s\n", k, nv_dir_name(b->dir),
		base);
	bars_columns(f, r, "metric");
	for (size_t m = 0; m < nrows; m++) {
		const struct nv_metric_info *mi = nv_metric(rows[m]->metric);

		fprintf(f, "\"%s%s\"", mi->latency ? "latency " : "", mi->title);
		bars_pcts(f, r, rows[m], ymax);
	}
	return ferror(f) ? -EIO : 0;
}

int nv_figdata_summary_write(FILE *f, const struct nv_report *r,
			     const struct nv_summary_row *rows, size_t nrows, double *ymax)
{
	char base[300];

	nv_gnuplot_data_str(base, sizeof(base), r->sides[r->baseline].label);
	fprintf(f, "# the suite summary: each job's headline number in %% of the baseline %s\n",
		base);
	bars_columns(f, r, "job·direction·metric");
	for (size_t i = 0; i < nrows; i++) {
		const struct nv_block *b = &r->blocks[rows[i].block];
		char k[300], q[600];

		nv_gnuplot_data_str(k, sizeof(k), b->key);	/* the label is a quoted field */
		snprintf(q, sizeof(q), "%s · %s (%s)", k, nv_dir_name(b->dir),
			 nv_metric(rows[i].row->metric)->title);
		fprintf(f, "\"%s\"", q);
		bars_pcts(f, r, rows[i].row, ymax);
	}
	return ferror(f) ? -EIO : 0;
}

/*
 * One interval's columns of one operation: IOPS, MB/s, then the latencies
 * in us (NaN without IOs).
 * Return: nothing.
 */
static void series_op(FILE *f, const struct nv_tan *t, unsigned op, size_t i)
{
	const struct nv_tan_point *p = &t->series[op][i];

	if (nv_tan_full(t, i))
		fprintf(f, " %.6g %.6g", nv_tan_iops(t, op, i), nv_tan_mbps(t, op, i));
	else
		fprintf(f, " NaN NaN");
	if (p->ios)
		fprintf(f, " %.6g %.6g %.6g %.6g", (double)p->p50 / 1e3, (double)p->p99 / 1e3,
			(double)p->p999 / 1e3, (double)p->max / 1e3);
	else
		fprintf(f, " NaN NaN NaN NaN");
}

int nv_figdata_series_write(FILE *f, const struct nv_jobjoin *jj, double tdiv)
{
	const struct nv_tan *t = &jj->tan;

	fprintf(f, "# %s: %zu intervals of %g s; t = interval middle\n", jj->jt->paths[0], t->nint,
		(double)t->interval_ns / 1e9);
	if (t->nint && !nv_tan_full(t, t->nint - 1))
		fprintf(f,
			"# the last interval is partial (%.6g s): its IOPS and MB/s are NaN, left "
			"out of the plot and of the findings\n",
			(double)(t->span_ns - (t->nint - 1) * t->interval_ns) / 1e9);
	fprintf(f, "# t iops_all mbps_all");
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (t->series[op])
			fprintf(f, " %s_iops %s_mbps %s_p50_us %s_p99_us %s_p999_us %s_max_us",
				nvt_op_name(op), nvt_op_name(op), nvt_op_name(op), nvt_op_name(op),
				nvt_op_name(op), nvt_op_name(op));
	fprintf(f, "\n");
	for (size_t i = 0; i < t->nint; i++) {
		double end = fmin((double)(i + 1) * (double)t->interval_ns, (double)t->span_ns);

		fprintf(f, "%.6g", ((double)i * (double)t->interval_ns + end) / 2 / 1e9 / tdiv);
		if (nv_tan_full(t, i))
			fprintf(f, " %.6g %.6g", nv_tan_iops(t, NV_TAN_ALL, i),
				nv_tan_mbps(t, NV_TAN_ALL, i));
		else
			fprintf(f, " NaN NaN");
		for (unsigned op = 0; op < NVT_OP__MAX; op++)
			if (t->series[op])
				series_op(f, t, op, i);
		fprintf(f, "\n");
	}
	return ferror(f) ? -EIO : 0;
}
