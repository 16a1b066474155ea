/*
 * test_figdata.c - the numbers behind the figures (figures/figdata.c): CDF
 * points from each source (trace histogram, fio json+ bins, fio percentile
 * list), pooling, and repeats: two traced runs as one side give one CDF
 * over the IOs of both, and each run its own time-series figures in an
 * -o directory (no two figures share a file name, none linked twice).
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/figures/figdata.h"
#include "analyze/publish/outdir.h"
#include "analyze/report/model.h"
#include "analyze/stats/exact.h"
#include "tests/unit/check.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fabs(b));
}

TEST(cdf_from_trace_histogram)
{
	uint64_t *h = calloc(NV_EXACT_NBUCKETS, sizeof(*h));
	uint64_t lo10, hi10, lo300, hi300;
	struct nv_cdf c;

	/* values < 256 have a bucket each: 10 ns x 3, 300 ns-ish x 1 */
	h[10] = 3;
	for (unsigned k = 256; k < NV_EXACT_NBUCKETS; k++) {
		uint64_t lo, hi;

		nv_exact_bucket_range(k, &lo, &hi);
		if (lo <= 300 && 300 <= hi) {
			h[k] = 1;
			break;
		}
	}
	nv_exact_bucket_range(10, &lo10, &hi10);
	CHECK(!nv_figdata_cdf_hist(h, 0, NV_EXACT_NBUCKETS, 4, &c));
	CHECK(c.src == NV_CDF_TRACE && c.ios == 4 && near(c.rarest, 0.25));
	CHECK_EQ_U64(c.n, 3);	/* the first bucket's lower end at 0, then one per bucket */
	CHECK(near(c.pt[0].us, (double)lo10 / 1e3) && c.pt[0].cdf == 0 && c.pt[0].exc == 1);
	/* exceedance: the IOs of the bucket and above, so the largest IO is on the curve */
	CHECK(near(c.pt[1].us, (double)hi10 / 1e3) && near(c.pt[1].cdf, 0.75) &&
	      near(c.pt[1].exc, 1));
	for (unsigned k = 256; k < NV_EXACT_NBUCKETS; k++)
		if (h[k])
			nv_exact_bucket_range(k, &lo300, &hi300);
	CHECK(near(c.pt[2].us, (double)hi300 / 1e3) && c.pt[2].cdf == 1 &&
	      near(c.pt[2].exc, 0.25));
	nv_figdata_cdf_free(&c);
	memset(h, 0, NV_EXACT_NBUCKETS * sizeof(*h));
	CHECK(nv_figdata_cdf_hist(h, 0, NV_EXACT_NBUCKETS, 0, &c) == -EINVAL && c.n == 0);
	free(h);
}

TEST(cdf_from_fio_bins)
{
	const struct nv_bin bins[] = { { 1000, 2 }, { 2000, 3 }, { 4000, 5 } };
	struct nv_cdf c;

	CHECK(!nv_figdata_cdf_bins(bins, 3, &c));
	CHECK(c.src == NV_CDF_BINS && c.ios == 10 && near(c.rarest, 0.1));
	CHECK_EQ_U64(c.n, 4);
	CHECK(near(c.pt[0].us, 1) && c.pt[0].cdf == 0);
	CHECK(near(c.pt[1].us, 1) && near(c.pt[1].cdf, 0.2));
	CHECK(near(c.pt[2].us, 2) && near(c.pt[2].cdf, 0.5) && near(c.pt[2].exc, 0.8));
	/* the max: on it */
	CHECK(near(c.pt[3].us, 4) && c.pt[3].cdf == 1 && near(c.pt[3].exc, 0.5));
	nv_figdata_cdf_free(&c);
	CHECK(nv_figdata_cdf_bins(bins, 0, &c) == -EINVAL);
}

TEST(cdf_from_fio_percentiles)
{
	const struct nv_pctpt pts[] = { { 50, 1500 }, { 99, 9000 }, { 99.9, 20000 },
				      { 100, 50000 } };
	struct nv_cdf c;

	CHECK(!nv_figdata_cdf_pcts(pts, 4, &c));
	CHECK(c.src == NV_CDF_PCT && c.ios == 0 && c.n == 4);
	CHECK(near(c.rarest, 1 - 0.999));	/* the 100th percentile resolves nothing */
	CHECK(near(c.pt[0].us, 1.5) && near(c.pt[0].cdf, 0.5));
	CHECK(near(c.pt[2].us, 20) && near(c.pt[2].exc, 1 - 0.999));
	CHECK(c.pt[3].cdf == 1 && c.pt[3].exc == 0);
	nv_figdata_cdf_free(&c);
	CHECK(nv_figdata_cdf_pcts(pts, 0, &c) == -EINVAL);
}

TEST(bins_pooled)
{
	const struct nv_bin a[] = { { 1000, 2 }, { 3000, 1 } }, b[] = { { 1000, 5 }, { 2000, 4 } };
	struct nv_bin *acc = NULL;
	size_t n = 0;

	CHECK(!nv_figdata_bins_add(&acc, &n, a, 2));
	CHECK(!nv_figdata_bins_add(&acc, &n, b, 2));
	CHECK_EQ_U64(n, 3);
	CHECK(acc && acc[0].ns == 1000 && acc[0].count == 7);
	CHECK(acc && acc[1].ns == 2000 && acc[1].count == 4);
	CHECK(acc && acc[2].ns == 3000 && acc[2].count == 1);
	free(acc);
}

/* ---- two traced repeats as one side ---------------------------------- */

#define NREP 2
static const size_t rep_ios[NREP] = { 3000, 2000 };

/*
 * Trace i: rep_ios[i] reads over 3 s, latency 100 us (run 1) or 200 us
 * (run 2), analyzed into *t.
 * Return: 0, or -errno.
 */
static int traced_run(size_t i, char *path, size_t plen, struct nv_tan *t)
{
	struct nv_tan_opts o = { .interval_ns = 1000000000ull };
	uint64_t lat = i ? 200000 : 100000, gap = 3000000000ull / rep_ios[i];
	const char *paths[1] = { path };
	struct nvt_writer *w;
	char err[256];
	int fd, ret;

	snprintf(path, plen, "/tmp/test_figdata.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	if ((ret = nvt_writer_open(&w, path, NULL, 0, NULL)))
		return ret;
	for (size_t k = 0; k < rep_ios[i]; k++) {
		struct nvt_record r = { .op = NVT_OP_READ, .length = 4096, .qd = 1 };

		r.complete_ns = 1000000000ull + (k + 1) * gap;
		r.submit_ns = r.complete_ns - lat;
		nvt_writer_append(w, &r);
	}
	if ((ret = nvt_writer_close(w, NULL, 0)))
		return ret;
	ret = nv_tan_run(paths, 1, &o, t, err, sizeof(err));
	if (ret)
		fprintf(stderr, "%s\n", err);
	return ret;
}

/* A run with job "job" reading n IOs; bins when given. */
static void mkrun(struct nv_run *run, struct nv_job *job, const char *path, size_t n,
		  struct nv_bin *bins, size_t nbins)
{
	struct nv_dirstat *d = &job->dir[NV_DIR_READ];

	memset(run, 0, sizeof(*run));
	memset(job, 0, sizeof(*job));
	run->path = (char *)path;
	run->fio_version = (char *)"fio-3.33";
	run->njobs = 1;
	run->jobs = job;
	job->name = job->key = (char *)"job";
	job->desc = (char *)"";
	d->present = d->have_ios = true;
	d->ios = n;
	d->iops = (struct nv_val){ .v = (double)n / 3, .src = NV_SRC_FIO };
	d->lat[NV_LAT_CLAT].mean = (struct nv_val){ .v = 1e5, .src = NV_SRC_FIO };
	d->lat[NV_LAT_CLAT].bins = bins;
	d->lat[NV_LAT_CLAT].nbins = nbins;
}

/* The names of the figures linked from DIR/report.md, each once: 0 if so. */
static int links_distinct(const char *dir, size_t *nlinks)
{
	char path[512], line[2048], names[64][256];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (!(f = fopen(path, "r")))
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *a = strstr(line, "]("), *e = a ? strstr(a, ".png)") : NULL;

		if (!a || !e || n == 64 || e - a - 2 >= 256)
			continue;
		memcpy(names[n], a + 2, (size_t)(e - a - 2));
		names[n][e - a - 2] = 0;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(names[k], names[n])) {
				fclose(f);
				return -EEXIST;
			}
		n++;
	}
	fclose(f);
	*nlinks = n;
	return 0;
}

static bool exists(const char *dir, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !access(path, F_OK);
}

static bool file_has(const char *dir, const char *rel, const char *text)
{
	char path[512], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, text) != NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The -o directory of the report: each repeat's own time series, links once each. */
static void check_outdir(const struct nv_report *r, const struct nv_tracejoin *tj)
{
	char dir[] = "/tmp/test_figdata_out.XXXXXX", plots[512], err[512];
	const char *top = getenv("TOP"), *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;
	struct nv_outdir_result res;
	size_t nlinks = 0;

	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(plots, sizeof(plots), "%s/plots", top ? top : ".");
	setenv("NVANALYZE_PLOTS", plots, 1);
	setenv("PATH", "/nonexistent", 1);	/* no gnuplot: scripts and data only */
	CHECK(!nv_outdir_write(dir, r, tj, NV_FIG_ALL, &res, err, sizeof(err)));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	CHECK(!res.gnuplot && !res.rendered);
	CHECK(exists(dir, "tput_job_a_run_1.gp") && exists(dir, "tput_job_a_run_2.gp"));
	CHECK(exists(dir, "lat_job_a_run_1_read.gp") && exists(dir, "lat_job_a_run_2_read.gp"));
	CHECK(exists(dir, "data/ts_job_a_run_1.dat") && exists(dir, "data/ts_job_a_run_2.dat"));
	CHECK(file_has(dir, "tput_job_a_run_2.gp", "data/ts_job_a_run_2.dat"));
	CHECK(!links_distinct(dir, &nlinks));
	CHECK_EQ_U64(nlinks, res.nfig);		/* every figure linked, none twice */
	CHECK(file_has(dir, "report.md", "### job · a run 2: from the traces"));
	CHECK(!exists(dir, "summary.gp"));	/* no summary row: the job has no MB/s */
	CHECK(file_has(dir, "report.md", "- [Per job](#per-job): [job · read](#job--read)"));
	CHECK(file_has(dir, "report.md", "the IOs of all its runs pooled"));
	CHECK(file_has(dir, "data/cdf_job_read_a.dat", "the IOs of 2 runs pooled"));
	CHECK(file_has(dir, "cdf_job_read.gp", "a (2 runs pooled)"));
	CHECK(!nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS));
}

/*
 * An error naming a long -o path arrives whole: DIR/data is a file, so the
 * first data file cannot be written; the message (over 512 bytes with the
 * path) must end with the reason, even though report.md is still written
 * after it.
 */
static void check_outdir_long_error(const struct nv_report *r, const struct nv_tracejoin *tj)
{
	char base[] = "/tmp/test_figdata_long.XXXXXX", dir[1024], data[1100], err[1024];
	const char *top = getenv("TOP"), *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL, plots[512], part[201];
	struct nv_outdir_result res;
	FILE *f;
	size_t len;

	if (!mkdtemp(base)) {
		CHECK(!"mkdtemp");
		free(saved);
		return;
	}
	memset(part, 'd', 200);
	part[200] = 0;
	snprintf(dir, sizeof(dir), "%s/%s/%s/%s", base, part, part, part);
	/* creates DIR */
	CHECK(!nv_outdir_write(dir, r, tj, NV_FIG_ALL, &res, err, sizeof(err)) || 1);
	snprintf(data, sizeof(data), "%s/data", dir);
	CHECK(!nftw(data, rm_entry, 16, FTW_DEPTH | FTW_PHYS));
	f = fopen(data, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	snprintf(plots, sizeof(plots), "%s/plots", top ? top : ".");
	setenv("NVANALYZE_PLOTS", plots, 1);
	setenv("PATH", "/nonexistent", 1);
	CHECK(nv_outdir_write(dir, r, tj, NV_FIG_ALL, &res, err, sizeof(err)) != 0);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	len = strlen(err);
	CHECK(len > 600);
	CHECK(len > 16 && !strcmp(err + len - 15, "Not a directory"));
	CHECK(strstr(err, "-o: cannot write ") == err);
	CHECK(!nftw(base, rm_entry, 16, FTW_DEPTH | FTW_PHYS));
}

TEST(repeats_pooled_and_own_series)
{
	struct nv_bin bins[] = { { 90000, 40 }, { 110000, 60 } };
	struct nv_jobtraces jt[NREP];
	struct nv_jobjoin jj[NREP];
	struct nv_traceset ts = { .n = NREP, .jt = jt };
	struct nv_tracejoin tj = { .ts = &ts, .n = NREP, .j = jj };
	struct nv_run ra[NREP], rb;
	struct nv_job ja[NREP], jb;
	char paths[NREP][64], *pp[NREP];
	struct nv_side sides[2] = {
		{ .label = "a", .nruns = NREP, .runs = ra, .traces = &tj },
		{ .label = "b", .nruns = 1, .runs = &rb, .traces = &tj },
	};
	struct nv_side_cdf sc;
	struct nv_report r;
	const struct nv_block *b;

	memset(jt, 0, sizeof(jt));
	memset(jj, 0, sizeof(jj));
	for (size_t i = 0; i < NREP; i++) {
		mkrun(&ra[i], &ja[i], i ? "a2.json" : "a1.json", rep_ios[i], NULL, 0);
		CHECK(!traced_run(i, paths[i], sizeof(paths[i]), &jj[i].tan));
		pp[i] = paths[i];
		jt[i].run = &ra[i];
		jt[i].npaths = 1;
		jt[i].paths = &pp[i];
		jj[i].jt = &jt[i];
	}
	mkrun(&rb, &jb, "b.json", 100, bins, 2);
	CHECK(!nv_report_build(sides, 2, 1, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r));
	CHECK(r.nblocks >= 1);
	if (check_failed_case)
		goto out;
	b = &r.blocks[0];
	/* the model recorded both runs of side a with their traces, and the labels */
	CHECK(b->nsrc[0] == NREP && b->src[0][0].traces == &jj[0] &&
	      b->src[0][1].traces == &jj[1]);
	CHECK(b->nsrc[1] == 1 && b->src[1][0].traces == NULL && b->src[1][0].rp == &rb);
	CHECK_STR(nv_report_run_label(&ra[1], &r), "a run 2");
	CHECK_STR(nv_report_run_label(&rb, &r), "b");

	/* side a: one curve over the IOs of both runs */
	CHECK(!nv_figdata_side_cdf(b, 0, &sc));
	CHECK(sc.pooled == NREP && sc.ncurves == 1);
	if (sc.ncurves == 1) {
		const struct nv_cdf *c = &sc.curve[0];
		size_t k = 0;

		CHECK(c->src == NV_CDF_TRACE);
		CHECK_EQ_U64(c->ios, rep_ios[0] + rep_ios[1]);
		/* run 1's 100 us, then run 2's 200 us */
		while (k < c->n && c->pt[k].us < 150)
			k++;
		CHECK(k > 0 && near(c->pt[k - 1].cdf, (double)rep_ios[0] / (double)c->ios));
		CHECK(c->pt[c->n - 1].cdf == 1);
	}
	nv_figdata_side_cdf_free(&sc);
	/* side b: fio's bins */
	CHECK(!nv_figdata_side_cdf(b, 1, &sc));
	CHECK(sc.pooled == 1 && sc.ncurves == 1 && sc.curve[0].src == NV_CDF_BINS &&
	      sc.curve[0].ios == 100);
	nv_figdata_side_cdf_free(&sc);
	check_outdir(&r, &tj);
	check_outdir_long_error(&r, &tj);
	nv_report_free(&r);
out:
	for (size_t i = 0; i < NREP; i++) {
		nv_tan_free(&jj[i].tan);
		unlink(paths[i]);
	}
}

/* Repeats with fio percentile lists only cannot be pooled: one curve each. */
TEST(repeats_one_curve_each)
{
	struct nv_pctpt p1[] = { { 50, 1000 }, { 100, 2000 } },
			p2[] = { { 50, 1500 }, { 100, 3000 } };
	struct nv_run ra[2];
	struct nv_job ja[2];
	struct nv_side side = { .label = "a", .nruns = 2, .runs = ra };
	struct nv_side_cdf sc;
	struct nv_report r;

	mkrun(&ra[0], &ja[0], "a1.json", 10, NULL, 0);
	mkrun(&ra[1], &ja[1], "a2.json", 10, NULL, 0);
	ja[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT].points = p1;
	ja[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT].npoints = 2;
	ja[1].dir[NV_DIR_READ].lat[NV_LAT_CLAT].points = p2;
	ja[1].dir[NV_DIR_READ].lat[NV_LAT_CLAT].npoints = 2;
	CHECK(!nv_report_build(&side, 1, 0, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r));
	CHECK(!nv_figdata_side_cdf(&r.blocks[0], 0, &sc));
	CHECK(sc.pooled == 0 && sc.ncurves == 2 && sc.src[0] == 0 && sc.src[1] == 1);
	CHECK(sc.ncurves == 2 && near(sc.curve[1].pt[0].us, 1.5));
	nv_figdata_side_cdf_free(&sc);
	nv_report_free(&r);
}

/*
 * The summary figure's data: a row per summary row ("job · read (IOPS)"),
 * each side in % of the baseline, nan for a side without the job and for
 * every side of a job the baseline lacks.
 */
TEST(summary_data)
{
	struct nv_run ra, rb, rc;
	struct nv_job ja, jb, jc;
	struct nv_side sides[3] = {
		{ .label = "a", .nruns = 1, .runs = &ra },
		{ .label = "b", .nruns = 1, .runs = &rb },
		{ .label = "c", .nruns = 1, .runs = &rc },
	};
	struct nv_summary_row *rows = NULL;
	char *text = NULL;
	size_t n = 0, len = 0;
	struct nv_report r;
	double ymax = 100;
	FILE *f;

	mkrun(&ra, &ja, "a.json", 300, NULL, 0);	/* 100 IOPS */
	mkrun(&rb, &jb, "b.json", 150, NULL, 0);	/* 50 IOPS: the baseline */
	mkrun(&rc, &jc, "c.json", 150, NULL, 0);
	jc.key = jc.name = (char *)"other";		/* c has no "job" */
	CHECK(!nv_report_build(sides, 3, 1, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r));
	CHECK(!nv_summary_build(&r, NV_HL_IOPS, &rows, &n));
	CHECK_EQ_U64(n, 2);
	f = open_memstream(&text, &len);
	CHECK(f && !nv_figdata_summary_write(f, &r, rows, n, &ymax));
	if (f)
		fclose(f);
	CHECK(text && strstr(text, "# job·direction·metric \"a\" \"b\" \"c\"\n"));
	CHECK(text && strstr(text, "\n\"job · read (IOPS)\" 200 100 nan\n"));
	/* the baseline has no "other": no bar */
	CHECK(text && strstr(text, "\n\"other · read (IOPS)\" nan nan nan\n"));
	CHECK(fabs(ymax - 200) < 1e-6);
	free(text);
	free(rows);
	nv_report_free(&r);
}

int main(void)
{
	RUN(cdf_from_trace_histogram);
	RUN(cdf_from_fio_bins);
	RUN(cdf_from_fio_percentiles);
	RUN(bins_pooled);
	RUN(repeats_pooled_and_own_series);
	RUN(repeats_one_curve_each);
	RUN(summary_data);
	return check_summary();
}
