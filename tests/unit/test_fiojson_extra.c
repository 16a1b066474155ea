/*
 * test_fiojson_extra.c - the rest of fio's JSON: CPU, context switches,
 * runtime, bandwidth/IOPS samples, latency buckets, disk_util (md aggr_*),
 * rw/bs options; read from the real fixtures (../shared/fixtures, skipped
 * when absent) and from hand-made files.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "analyze/input/fiojson.h"
#include "analyze/input/multiout.h"

/* The real fixtures, relative to the repository root (as tests/run runs us). */
#define FIX "../shared/fixtures/fio-json/"

static char err[300];

static bool have_fixtures(void)
{
	return access(FIX "SOURCES.md", R_OK) == 0;
}

/* fio 2.1.4 (PerfKitBenchmarker): usec/msec buckets, KiB/s bw samples. */
TEST(fixture_fio2)
{
	struct nv_run run;
	const struct nv_job *j;
	const struct nv_dirstat *w;

	CHECK(nv_input_load(FIX "PerfKitBenchmarker__fio-parser-sample-result.json", &run, err,
			  sizeof(err)) == 0);
	j = &run.jobs[0];
	CHECK_STR(j->name, "sequential_write");
	CHECK(j->x.usr_cpu.src == NV_SRC_FIO && j->x.usr_cpu.v == 0.23);
	CHECK(j->x.sys_cpu.v == 1.2);
	CHECK(j->x.ctx.v == 882 && j->x.majf.v == 0 && j->x.minf.v == 10);
	CHECK(j->have_error && j->error == 0);
	CHECK(j->rw == NULL && j->bs[0] == 0);	/* fio 2.1.4 prints no options */
	w = &j->dir[NV_DIR_WRITE];
	CHECK(w->runtime_ms.v == 5314);
	CHECK(w->bw_samples.min.v == 19225.0 * 1024);
	CHECK(w->bw_samples.dev.v == 20346.28 * 1024);
	CHECK(w->bw_samples.n.src == NV_SRC_NONE);	/* no bw_samples in fio 2.x */
	CHECK(w->iops_samples.mean.src == NV_SRC_NONE);
	CHECK(w->have_io_bytes);
	/* 10 usec + 12 msec buckets, no nsec ones */
	CHECK_EQ_U64(j->x.nbuckets, 22);
	CHECK(j->x.buckets[0].lo_ns == 0 && j->x.buckets[0].hi_ns == 2000);
	CHECK(j->x.buckets[9].lo_ns == 750000 && j->x.buckets[9].hi_ns == 1e6);
	CHECK(j->x.buckets[10].lo_ns == 1e6 && j->x.buckets[10].hi_ns == 2e6);
	CHECK(j->x.buckets[17].hi_ns == 500e6 && j->x.buckets[17].pct == 84.58);
	CHECK(j->x.buckets[21].lo_ns == 2e9 && isinf(j->x.buckets[21].hi_ns));
	CHECK_EQ_U64(run.ndisks, 1);
	CHECK_STR(run.disks[0].name, "sdb");
	CHECK(run.disks[0].v[NV_DISK_READ_IOS].v == 19464);
	CHECK(run.disks[0].v[NV_DISK_IN_QUEUE].v == 2813788);
	CHECK(run.disks[0].v[NV_DISK_UTIL].v == 97.54);
	CHECK(!run.disks[0].aggr);
	nv_run_free(&run);
}

/* fio 3.6: nsec buckets too, iops samples, options. */
TEST(fixture_fio3)
{
	struct nv_run run;
	const struct nv_job *j;
	const struct nv_dirstat *r;

	CHECK(nv_input_load(FIX "fio-plot__test-data73gb10raptor_randread-4-2.json", &run, err,
			  sizeof(err)) == 0);
	j = &run.jobs[0];
	CHECK(j->x.usr_cpu.v == 0.013322 && j->x.sys_cpu.v == 0.186511 && j->x.ctx.v == 4243);
	CHECK_STR(j->rw, "randread");
	CHECK_EQ_U64(j->bs[0], 4096);
	CHECK_EQ_U64(j->x.nbuckets, 32);
	CHECK(j->x.buckets[0].lo_ns == 0 && j->x.buckets[0].hi_ns == 2);
	CHECK(j->x.buckets[10].lo_ns == 1000 && j->x.buckets[10].hi_ns == 2000);
	CHECK(j->x.buckets[24].hi_ns == 50e6 && j->x.buckets[24].pct == 43.414519);
	r = &j->dir[NV_DIR_READ];
	CHECK(r->runtime_ms.v == 60051);
	CHECK(r->bw_samples.min.v == 224.0 * 1024 && r->bw_samples.max.v == 328.0 * 1024);
	CHECK(r->bw_samples.mean.v == 281.633333 * 1024);
	CHECK(r->bw_samples.n.v == 120);
	CHECK(r->iops_samples.min.v == 56 && r->iops_samples.max.v == 82);
	CHECK(r->iops_samples.mean.v == 70.383333 && r->iops_samples.dev.v == 5.219845);
	CHECK(r->iops_samples.n.v == 120);
	CHECK_STR(run.disks[0].name, "sdc");
	CHECK(run.disks[0].v[NV_DISK_UTIL].v == 99.82825);
	CHECK(run.disks[0].v[NV_DISK_WRITE_TICKS].v == 0);
	nv_run_free(&run);
}

/* An md array with its members' aggregate; absent fields stay missing. */
static const char md_json[] =
	"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\",\n"
	" \"job options\": {\"rw\": \"write\", \"bs\": \"4k,1M\"},\n"
	" \"write\": {\"io_bytes\": 4096, \"total_ios\": 1, \"iops\": 1, \"bw_min\": 0,\n"
	"   \"bw_max\": 0, \"bw_samples\": 0, \"iops_min\": 0, \"iops_samples\": 0}}],\n"
	" \"disk_util\": [{\"name\": \"md0\", \"read_ios\": 1, \"write_ios\": 2,\n"
	"   \"read_merges\": 0, \"write_merges\": 0, \"read_ticks\": 0, \"write_ticks\": 5,\n"
	"   \"in_queue\": 5, \"util\": 10.5, \"aggr_read_ios\": 3, \"aggr_write_ios\": 4,\n"
	"   \"aggr_read_merges\": 0, \"aggr_write_merge\": 7, \"aggr_read_ticks\": 1,\n"
	"   \"aggr_write_ticks\": 2, \"aggr_in_queue\": 3, \"aggr_util\": 20.25},\n"
	"  {\"name\": \"nvme0n1\", \"util\": 50}]}\n";

TEST(md_aggr)
{
	struct nv_run run;
	const struct nv_job *j;

	CHECK(nv_fio_parse(md_json, sizeof(md_json) - 1, "md.json", &run, err, sizeof(err)) == 0);
	CHECK_EQ_U64(run.ndisks, 2);
	CHECK(run.disks[0].aggr);
	CHECK(run.disks[0].v[NV_DISK_UTIL].v == 10.5);
	CHECK(run.disks[0].aggr_v[NV_DISK_WRITE_MERGES].v == 7);
	CHECK(run.disks[0].aggr_v[NV_DISK_UTIL].v == 20.25);
	CHECK(run.disks[0].aggr_v[NV_DISK_READ_IOS].v == 3);
	CHECK(!run.disks[1].aggr);
	CHECK(run.disks[1].v[NV_DISK_UTIL].v == 50);
	CHECK(run.disks[1].v[NV_DISK_READ_IOS].src == NV_SRC_NONE);
	j = &run.jobs[0];
	CHECK(!j->have_error);
	CHECK(j->x.usr_cpu.src == NV_SRC_NONE && j->x.nbuckets == 0);
	CHECK(j->dir[NV_DIR_WRITE].runtime_ms.src == NV_SRC_NONE);
	CHECK(j->dir[NV_DIR_WRITE].bw_samples.min.src == NV_SRC_NONE);	/* 0 samples */
	CHECK(j->dir[NV_DIR_WRITE].bw_samples.max.src == NV_SRC_NONE);
	CHECK(j->dir[NV_DIR_WRITE].iops_samples.min.src == NV_SRC_NONE);
	CHECK_EQ_U64(j->bs[0], 4096);
	CHECK_EQ_U64(j->bs[1], 1048576);
	CHECK_EQ_U64(j->bs[2], 1048576);
	CHECK_STR(nv_disk_key(NV_DISK_UTIL), "util_pct");
	CHECK_STR(nv_disk_field(NV_DISK_IN_QUEUE), "in_queue");
	CHECK(nv_disk_key(NV_DISK_NR) == NULL);
	nv_run_free(&run);
}

TEST(bs_parse)
{
	CHECK_EQ_U64(nv_fio_bs_parse("4k", NV_DIR_READ, 1024), 4096);
	CHECK_EQ_U64(nv_fio_bs_parse("128K", NV_DIR_WRITE, 1024), 131072);
	CHECK_EQ_U64(nv_fio_bs_parse("1m", NV_DIR_TRIM, 1024), 1048576);
	CHECK_EQ_U64(nv_fio_bs_parse("4096", NV_DIR_READ, 1024), 4096);
	/* fio's kb_base: under the default 1024 "KiB" is 1000 bytes, under 1000 it is 1024 */
	CHECK_EQ_U64(nv_fio_bs_parse("4KiB", NV_DIR_READ, 1024), 4000);
	CHECK_EQ_U64(nv_fio_bs_parse("64kib", NV_DIR_READ, 1024), 64000);
	CHECK_EQ_U64(nv_fio_bs_parse("1MiB", NV_DIR_READ, 1024), 1000000);
	CHECK_EQ_U64(nv_fio_bs_parse("4KiB", NV_DIR_READ, 1000), 4096);
	CHECK_EQ_U64(nv_fio_bs_parse("4k", NV_DIR_READ, 1000), 4000);
	CHECK_EQ_U64(nv_fio_bs_parse("4kb", NV_DIR_READ, 1000), 4000);
	CHECK_EQ_U64(nv_fio_bs_parse("1m", NV_DIR_READ, 1000), 1000000);
	CHECK_EQ_U64(nv_fio_bs_parse("1MiB", NV_DIR_READ, 1000), 1048576);
	/* "k" as fio reads it */
	CHECK_EQ_U64(nv_fio_bs_parse("4ki", NV_DIR_READ, 1024), 4096);
	CHECK_EQ_U64(nv_fio_kb_base("1000"), 1000);
	CHECK_EQ_U64(nv_fio_kb_base(NULL), 1024);
	CHECK_EQ_U64(nv_fio_bs_parse("8k,32k", NV_DIR_READ, 1024), 8192);
	CHECK_EQ_U64(nv_fio_bs_parse("8k,32k", NV_DIR_TRIM, 1024), 32768);
	CHECK_EQ_U64(nv_fio_bs_parse("8k,32k,", NV_DIR_TRIM, 1024), 4096);
	CHECK_EQ_U64(nv_fio_bs_parse(",8k", NV_DIR_READ, 1024), 4096);
	CHECK_EQ_U64(nv_fio_bs_parse(",8k", NV_DIR_WRITE, 1024), 8192);
	CHECK_EQ_U64(nv_fio_bs_parse("4k-16k", NV_DIR_READ, 1024), 0);
	CHECK_EQ_U64(nv_fio_bs_parse("big", NV_DIR_READ, 1024), 0);
}

int main(void)
{
	if (have_fixtures()) {
		RUN(fixture_fio2);
		RUN(fixture_fio3);
	} else {
		printf("SKIP: test_fiojson_extra/fixtures (no " FIX ")\n");
	}
	RUN(md_aggr);
	RUN(bs_parse);
	return check_summary();
}
