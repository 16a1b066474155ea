/*
 * test_pairs.c - the change columns: nv_report_build with --pair's pairs
 * or the default (each side against the baseline), the changes computed
 * once per row and pair, invalid pairs refused, and report/pairs.c's
 * titles.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/report/model.h"
#include "analyze/report/pairs.h"

static void mkrun(struct nv_run *run, struct nv_job *job, double iops)
{
	memset(run, 0, sizeof(*run));
	memset(job, 0, sizeof(*job));
	run->path = "x.json";
	run->njobs = 1;
	run->jobs = job;
	job->name = job->key = "j";
	job->desc = "";
	job->dir[NV_DIR_READ].present = true;
	job->dir[NV_DIR_READ].iops = (struct nv_val){ .v = iops, .src = NV_SRC_FIO };
}

TEST(pairs)
{
	struct nv_run run[3];
	struct nv_job job[3];
	struct nv_side sides[3] = {
		{ .label = "a", .nruns = 1, .runs = &run[0] },
		{ .label = "b", .nruns = 1, .runs = &run[1] },
		{ .label = "c", .nruns = 1, .runs = &run[2] },
	};
	struct nv_pair p[] = { { 1, 0 }, { 2, 1 } }, bad[] = { { 1, 1 } }, out[] = { { 0, 3 } };
	struct nv_report r;
	const struct nv_row *row;
	char title[64];

	mkrun(&run[0], &job[0], 100);
	mkrun(&run[1], &job[1], 150);
	mkrun(&run[2], &job[2], 300);
	/* default: every side but the baseline (c) against it */
	CHECK(nv_report_build(sides, 3, 2, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r) == 0);
	CHECK_EQ_U64(r.npairs, 2);
	CHECK(r.pairs[0].a == 0 && r.pairs[0].b == 2 && r.pairs[1].a == 1 && r.pairs[1].b == 2);
	row = nv_block_row(&r.blocks[0], NV_M_IOPS);
	CHECK(row && row->pchg && fabs(row->pchg[0].pct - (-200.0 / 3)) < 1e-9);
	nv_pair_title(title, sizeof(title), &r, 1);
	CHECK_STR(title, "b vs c");
	nv_report_free(&r);
	/* --pair b:a --pair c:b */
	CHECK(nv_report_build(sides, 3, 2, p, 2, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r) == 0);
	CHECK_EQ_U64(r.npairs, 2);
	row = nv_block_row(&r.blocks[0], NV_M_IOPS);
	CHECK(row && row->pchg && fabs(row->pchg[0].pct - 50) < 1e-9 &&
	      fabs(row->pchg[1].pct - 100) < 1e-9);
	CHECK(row && row->pchg[0].verdict == NV_BETTER);
	nv_pair_title(title, sizeof(title), &r, 0);
	CHECK_STR(title, "b vs a");
	nv_report_free(&r);
	CHECK_EQ_I64(nv_report_build(sides, 3, 2, bad, 1, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r),
		     -EINVAL);
	CHECK_EQ_I64(nv_report_build(sides, 3, 2, out, 1, NV_LAT_CLAT, NV_AGG_MEAN, NULL, &r),
		     -EINVAL);
}

int main(void)
{
	RUN(pairs);
	return check_summary();
}
