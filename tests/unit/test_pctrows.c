/*
 * test_pctrows.c - percentile rows of any level (--percentiles): fio's
 * values of exactly that level, missing ones empty (never interpolated),
 * "fio" as every level of the JSON, the mark above the max, claims of any
 * level, and the cost row that fits the job's headline.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/report/claims.h"
#include "analyze/report/pctrows.h"
#include "analyze/report/summary.h"

static struct nv_pctpt pts[] = { { 1, 100 }, { 25, 250 }, { 50, 500 }, { 99.5, 995 },
				 { 99.9, 1100 } };

/* One job "j" reading; fio reported pts; its max is 1000 ns; rw as given. */
static void mkrun(struct nv_run *run, struct nv_job *job, const char *rw, double iops, double bw)
{
	struct nv_dirstat *ds = &job->dir[NV_DIR_READ];
	struct nv_latstat *ls = &ds->lat[NV_LAT_CLAT];

	memset(run, 0, sizeof(*run));
	memset(job, 0, sizeof(*job));
	run->path = (char *)"x.json";
	run->njobs = 1;
	run->jobs = job;
	job->name = job->key = (char *)"j";
	job->desc = (char *)"";
	job->rw = (char *)rw;
	ds->present = ds->have_ios = true;
	ds->ios = 10;
	ds->iops = (struct nv_val){ .v = iops, .src = NV_SRC_FIO };
	ds->bw = (struct nv_val){ .v = bw, .src = NV_SRC_FIO };
	ls->mean = (struct nv_val){ .v = 400, .src = NV_SRC_FIO };
	ls->max = (struct nv_val){ .v = 1000, .src = NV_SRC_FIO };
	ls->pct[NV_P50] = (struct nv_val){ .v = 500, .src = NV_SRC_FIO };
	ls->pct[NV_P999] = (struct nv_val){ .v = 1100, .src = NV_SRC_FIO };
	ls->points = pts;
	ls->npoints = sizeof(pts) / sizeof(pts[0]);
}

static int build(struct nv_side *side, const struct nv_pctl *lv, enum nv_headline headline,
		 struct nv_report *r)
{
	struct nv_select sel = { .levels = lv, .headline = headline };

	return nv_report_build(side, 1, 0, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, &sel, r);
}

TEST(any_level)
{
	struct nv_run run;
	struct nv_job job;
	struct nv_side side = { .label = "a", .nruns = 1, .runs = &run };
	struct nv_pctl lv;
	struct nv_report r;
	const struct nv_row *row;
	char err[200];

	mkrun(&run, &job, "randread", 1000, 4e6);
	CHECK(nv_pctl_parse("25,75,99.5,99.9", &lv, err, sizeof(err)) == 0);
	CHECK(build(&side, &lv, NV_HL_AUTO, &r) == 0);
	row = nv_block_level_row(&r.blocks[0], 25);
	CHECK(row && row->metric == NV_M_PCTL);
	CHECK(row && row->cells[0].n == 1 && row->cells[0].value == 250);
	row = nv_block_level_row(&r.blocks[0], 75);	/* fio lacks it: empty, not 500..995 */
	CHECK(row && row->cells[0].n == 0);
	CHECK(r.nnotes == 1 && strstr(r.notes[0], "fio did not report clat p75"));
	row = nv_block_level_row(&r.blocks[0], 99.9);
	CHECK(row && row->metric == NV_M_P999 && row->cells[0].value == 1100);
	CHECK(row && row->above_max && row->above_max[0]);	/* 1100 > max 1000 */
	row = nv_block_level_row(&r.blocks[0], 99.5);
	CHECK(row && row->above_max && !row->above_max[0]);
	CHECK(nv_block_level_row(&r.blocks[0], 50) == NULL);	/* not asked for */
	CHECK(nv_block_row(&r.blocks[0], NV_M_P95) == NULL);
	/* rows in level order, between mean and max */
	CHECK(r.blocks[0].rows[2].metric == NV_M_MEAN && r.blocks[0].rows[3].level == 25);
	CHECK(r.blocks[0].rows[7].metric == NV_M_MAX);
	nv_report_free(&r);
}

TEST(fio_levels)
{
	struct nv_run run;
	struct nv_job job;
	struct nv_side side = { .label = "a", .nruns = 1, .runs = &run };
	struct nv_pctl lv = { .fio = true }, got;
	struct nv_report r;
	struct nv_cell c;

	mkrun(&run, &job, "randread", 1000, 4e6);
	CHECK(build(&side, &lv, NV_HL_AUTO, &r) == 0);
	nv_block_levels(&r, &r.blocks[0], &lv, &got);
	CHECK(got.n == 5 && got.v[0] == 1 && got.v[3] == 99.5);
	for (size_t i = 0; i < 5; i++) {
		const struct nv_row *row = nv_block_level_row(&r.blocks[0], pts[i].pct);

		CHECK(row && row->cells[0].value == pts[i].ns);
	}
	CHECK(r.nnotes == 0);
	nv_side_fio_level(&r, &r.blocks[0], 0, 99.5, &c, NULL);
	CHECK(c.n == 1 && c.value == 995);
	nv_side_fio_level(&r, &r.blocks[0], 0, 75, &c, NULL);
	CHECK(c.n == 0);
	CHECK(nv_pctl_fio_union(&run, 1, &got) == 0 && got.n == 5);
	nv_report_free(&r);
}

TEST(claims_any_level)
{
	struct nv_run run;
	struct nv_job job;
	struct nv_side side = { .label = "a", .nruns = 1, .runs = &run };
	struct nv_claim c[2];
	struct nv_pctl lv;
	struct nv_report r;
	char err[300];

	mkrun(&run, &job, "randread", 1000, 4e6);
	CHECK(nv_claim_parse("p99.5<=1us", &c[0], err, sizeof(err)) == 0);
	CHECK(c[0].metric == NV_M_PCTL && c[0].level == 99.5);
	CHECK(nv_claim_parse("j:p25:-10%", &c[1], err, sizeof(err)) == 0);
	CHECK(c[1].metric == NV_M_PCTL && c[1].level == 25 && c[1].pct == -10);
	nv_pctl_default(&lv);
	CHECK(nv_claims_levels(c, 2, &lv) == 0 && lv.n == 7 && lv.v[0] == 25);
	CHECK(build(&side, &lv, NV_HL_AUTO, &r) == 0);
	CHECK(nv_claims_eval(&r, c, 1, err, sizeof(err)) == 0);
	CHECK(r.nclaims == 1 && r.claims[0].verdict == NV_CLAIM_MET);
	CHECK(r.nclaims == 1 && r.claims[0].cell.mean == 995);
	nv_report_free(&r);
	nv_claim_free(&c[0]);
	nv_claim_free(&c[1]);
	CHECK(nv_claim_parse("p101<=1ms", &c[0], err, sizeof(err)) == -EINVAL);
	CHECK(nv_claim_parse("pct<=1ms", &c[0], err, sizeof(err)) == -EINVAL);
}

TEST(cost_rows)
{
	struct nv_run run;
	struct nv_job job;
	struct nv_side side = { .label = "a", .nruns = 1, .runs = &run, .have_price = true,
				.price = 0.5 };
	struct nv_report r;
	const struct nv_row *row;

	mkrun(&run, &job, "randread", 2000, 8e6);	/* IOPS job: per 1k IOPS */
	CHECK(build(&side, NULL, NV_HL_AUTO, &r) == 0);
	row = nv_block_row(&r.blocks[0], NV_M_COST);
	CHECK(row && fabs(row->cells[0].value - 0.25) < 1e-12);
	CHECK(!nv_block_row(&r.blocks[0], NV_M_COST_BW));
	nv_report_free(&r);
	mkrun(&run, &job, "read", 20, 2e9);	/* sequential, 100 MB per IO: per GB/s */
	CHECK(build(&side, NULL, NV_HL_AUTO, &r) == 0);
	row = nv_block_row(&r.blocks[0], NV_M_COST_BW);
	CHECK(row && fabs(row->cells[0].value - 0.25) < 1e-12);
	CHECK(!nv_block_row(&r.blocks[0], NV_M_COST));
	nv_report_free(&r);
	CHECK(build(&side, NULL, NV_HL_BOTH, &r) == 0);
	CHECK(nv_block_row(&r.blocks[0], NV_M_COST) && nv_block_row(&r.blocks[0], NV_M_COST_BW));
	nv_report_free(&r);
	CHECK(isnan(nv_cost_per_gbps(1, 0)) && nv_cost_per_gbps(1, 500) == 2);
}

int main(void)
{
	RUN(any_level);
	RUN(fio_levels);
	RUN(claims_any_level);
	RUN(cost_rows);
	return check_summary();
}
