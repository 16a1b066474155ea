/*
 * test_model.c - report/model.c: matching runs into blocks, missing values, the
 * exact values from the trace join beside fio's, prices and claims, and the
 * change columns (--pair) computed once.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"
#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/report/pairs.h"
#include "analyze/report/render.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* A run with one job "j" reading at iops (p99.9 missing unless given). */
static void mkrun(struct nv_run *run, struct nv_job *job, const char *name, double iops,
		  double p999)
{
	memset(run, 0, sizeof(*run));
	memset(job, 0, sizeof(*job));
	run->path = (char *)"x.json";
	run->njobs = 1;
	run->jobs = job;
	job->name = job->key = (char *)name;
	job->desc = (char *)"";
	job->rw = (char *)"randread";	/* an IOPS headline: cost per 1k IOPS */
	job->dir[NV_DIR_READ].present = true;
	job->dir[NV_DIR_READ].have_ios = true;
	job->dir[NV_DIR_READ].ios = 10;
	job->dir[NV_DIR_READ].iops = (struct nv_val){ .v = iops, .src = NV_SRC_FIO };
	job->dir[NV_DIR_READ].lat[NV_LAT_CLAT].mean =
		(struct nv_val){ .v = 1000, .src = NV_SRC_FIO };
	if (p999 > 0)	/* fio's binned value (the traces' exact one: mkexact) */
		job->dir[NV_DIR_READ].lat[NV_LAT_CLAT].pct[NV_P999] =
			(struct nv_val){ .v = p999 * 1.01, .src = NV_SRC_FIO };
}

/* The trace join of job 0 of run: an exact read p99.9 beside fio's. */
static void mkexact(struct nv_jobtraces *e, struct nv_jobjoin *jj, const struct nv_run *run,
		    double p999)
{
	memset(e, 0, sizeof(*e));
	memset(jj, 0, sizeof(*jj));
	e->run = run;
	jj->jt = e;
	jj->exact[NV_DIR_READ] = true;
	jj->exact_clat[NV_DIR_READ].pct[NV_P999] =
		(struct nv_val){ .v = p999, .src = NV_SRC_EXACT };
}

/* The percentile metrics name their entry of the one percentile table. */
TEST(percentile_table)
{
	unsigned n = 0;

	for (unsigned i = 1; i < NV_PCT_NR; i++)
		CHECK(nv_pcts[i - 1].value < nv_pcts[i].value);
	for (unsigned m = 0; m < NV_M_NR; m++) {
		const struct nv_metric_info *mi = nv_metric((enum nv_metric)m);

		if (!mi->pct)
			continue;
		n++;
		CHECK_STR(mi->key, mi->pct->name);
		CHECK(mi->latency && mi->pct >= nv_pcts && mi->pct < nv_pcts + NV_PCT_NR);
	}
	CHECK_EQ_U64(n, 5);	/* p50 p95 p99 p99.9 p99.99 are rows; p90 is not */
}

TEST(report)
{
	struct nv_run ra[2], rb, rc;
	struct nv_job ja[2], jb, jc;
	struct nv_jobtraces jt;
	struct nv_jobjoin jj;
	struct nv_tracejoin tj = { .n = 1, .j = &jj };
	struct nv_side sides[3] = {
		{ .label = "new", .nruns = 2, .runs = ra, .have_price = true, .price = 0.1888 },
		{ .label = "solo", .nruns = 1, .runs = &rc, .traces = &tj },
		{ .label = "old", .nruns = 1, .runs = &rb },
	};
	struct nv_claim claim = { .metric = NV_M_IOPS, .pct = 50, .text = (char *)"iops:+50%" };
	char err[200];
	struct nv_report r;
	const struct nv_row *row;

	mkrun(&ra[0], &ja[0], "j", 77282, 0);
	mkrun(&ra[1], &ja[1], "j", 77282, 0);
	mkrun(&rb, &jb, "j", 51470, 0);
	mkrun(&rc, &jc, "other", 10, 2000);
	mkexact(&jt, &jj, &rc, 2000);
	CHECK(nv_report_build(sides, 3, 2, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r) == 0);
	CHECK(nv_claims_eval(&r, &claim, 1, err, sizeof(err)) == 0);
	CHECK_EQ_U64(r.nblocks, 2);
	CHECK_STR(r.blocks[0].key, "j");
	CHECK(r.blocks[0].present[0] && !r.blocks[0].present[1] && r.blocks[0].present[2]);
	row = nv_block_row(&r.blocks[0], NV_M_IOPS);
	CHECK(row && row->cells[0].n == 2 && row->cells[0].mean == 77282);
	CHECK(row && row->cells[1].n == 0 && row->cells[1].absent == 1);
	CHECK(row && near(row->chg[0].pct, 50.149601709733, 1e-9));
	row = nv_block_row(&r.blocks[0], NV_M_P999);	/* missing everywhere: kept, empty */
	CHECK(row && row->cells[0].n == 0 && row->cells[2].n == 0 && !row->chg[0].have);
	CHECK(nv_block_row(&r.blocks[0], NV_M_P50) != NULL);
	CHECK(nv_block_row(&r.blocks[0], NV_M_BW) == NULL);	/* nobody has it */
	row = nv_block_row(&r.blocks[0], NV_M_COST);
	CHECK(row && row->cells[0].n == 2 && near(row->cells[0].mean, 0.0024430010, 1e-9));
	row = nv_block_row(&r.blocks[0], NV_M_PRICE);
	/* issue 60 item 2: the price once per run of the side that has the job */
	CHECK(row && row->cells[0].n == 2 && row->cells[0].sd == 0 && row->cells[2].n == 0);
	/* the cell shows the exact value, fio's beside */
	row = nv_block_row(&r.blocks[1], NV_M_P999);
	CHECK(row && row->cells[1].src == NV_SRC_EXACT && row->cells[1].mean == 2000);
	CHECK(row && row->fio && row->fio[1].src == NV_SRC_FIO && row->fio[1].mean == 2020);
	/* not overwritten */
	CHECK(jc.dir[NV_DIR_READ].lat[NV_LAT_CLAT].pct[NV_P999].v == 2020);
	/* claim: new vs old +50.1% but 2+1 runs, no interval: cannot tell */
	CHECK(r.nclaims >= 1 && r.claims[0].verdict == NV_CLAIM_CANNOT_TELL &&
	      r.claims[0].side == 0);
	CHECK(!row || !r.blocks[0].rows[0].chg[0].have_ci);
	/* "solo" has no job j and old no "other" */
	/* solo vs old for both jobs: no data on one side, which cannot tell */
	CHECK(r.nclaims == 3 && r.claims[1].verdict == NV_CLAIM_CANNOT_TELL);
	CHECK(r.claims[2].verdict == NV_CLAIM_CANNOT_TELL && r.claims[2].block == 1);
	CHECK(!r.claims_failed);
	nv_report_free(&r);

	struct nv_select sel = { .njobs = 1, .jobs = (char *[]){ "oth*" } };

	CHECK(nv_report_build(sides, 3, 0, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, &sel, &r) == 0);
	CHECK(r.nblocks == 1 && !strcmp(r.blocks[0].key, "other") && r.baseline == 0);
	nv_report_free(&r);
}

int main(void)
{
	RUN(percentile_table);
	RUN(report);
	return check_summary();
}
