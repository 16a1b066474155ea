/*
 * test_fionormal - fio's normal text output (analyze/input/fionormal.c):
 * 2.x and 3.x entries, exact values from issued counts, the precision of
 * rounded ones, noise around a pasted output, md aggregates, errors that
 * name the file and line, and a NUL inside a line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/detect.h"
#include "tests/unit/check.h"

/* fio 2.2-style output, pasted in Markdown after a shell prompt. */
static const char fio2[] =
	"Some notes first.\n"
	"```shell\n"
	"me@host:~$ sudo fio -rw=read -bs=16m -size=8G -name=seq\n"
	"seq: (g=0): rw=read, bs=16M-16M/16M-16M/16M-16M, ioengine=libaio, iodepth=1\n"
	"fio-2.2.10\n"
	"Starting 1 thread\n"
	"Jobs: 1 (f=1): [R(1)] [-.-% done] [3788MB/0KB/0KB /s] [236/0/0 iops] [eta 00m:00s]\n"
	"seq: (groupid=0, jobs=1): err= 0: pid=3547: Fri Dec 28 16:32:44 2018\n"
	"  read : io=8192.0MB, bw=7454.5MB/s, iops=465, runt=  1099msec\n"
	"    slat (usec): min=897, max=10587, avg=1145.32, stdev=459.31\n"
	"    clat (usec): min=482, max=4821, avg=997.32, stdev=472.46\n"
	"     lat (msec): min=2, max=11, avg= 2.14, stdev= 0.62\n"
	"    clat percentiles (usec):\n"
	"     |  1.00th=[  548],  5.00th=[  684], 50.00th=[  900], 99.00th=[ 3120],\n"
	"     | 99.90th=[ 4832]\n"
	"    bw (KB  /s): min=7456, max=7504, per=100.00%, avg=7480.49, stdev=34.64\n"
	"    lat (usec) : 500=0.20%, 750=7.81%, 1000=72.85%\n"
	"    lat (msec) : 2=14.26%, 4=4.49%, >=2000=0.39%\n"
	"  cpu          : usr=0.36%, sys=53.19%, ctx=521, majf=0, minf=4097\n"
	"     issued    : total=r=512/w=0/d=0, short=r=0/w=0/d=0, drop=r=0/w=0/d=0\n"
	"\n"
	"Run status group 0 (all jobs):\n"
	"   READ: io=8192.0MB, aggrb=7454.5MB/s, minb=7454.5MB/s, maxb=7454.5MB/s, "
	"mint=1099msec, maxt=1099msec\n"
	"\n"
	"Disk stats (read/write):\n"
	"    md0: ios=53632/88, merge=0/0, ticks=0/0, in_queue=0, util=0.00%, aggrios=16384/28, "
	"aggrmerge=0/0, aggrticks=10312/0, aggrin_queue=10312, aggrutil=75.86%\n"
	"  nvme2n1: ios=16384/28, merge=0/0, ticks=10284/0, in_queue=10284, util=75.22%\n"
	"me@host:~$\n"
	"```\n";

/*
 * fio 2.x under kb_base=1000 (issue 60 item 11): its "KB" is 1000 bytes,
 * which only the issued IOs times bs tell (130513 x 4096 = 534,581,248 =
 * io=534581KB; as KiB it would be 547,410,944).
 */
static const char fio2_kb1000[] =
	"rk: (g=0): rw=randread, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=32\n"
	"fio-2.2.10\n"
	"rk: (groupid=0, jobs=1): err= 0: pid=7: Fri Dec 28 16:32:44 2018\n"
	"  read : io=534581KB, bw=534047KB/s, iops=130382, runt=  1001msec\n"
	"    clat (usec): min=20, max=900, avg=243.10, stdev=20.50\n"
	"    bw (KB  /s): min=520000, max=540000, per=100.00%, avg=521530.00, stdev=1000.00\n"
	"    lat (usec) : 50=0.01%, 250=68.00%, 500=31.99%\n"
	"  cpu          : usr=10.00%, sys=50.00%, ctx=1000, majf=0, minf=40\n"
	"     issued    : total=r=130513/w=0/d=0, short=r=0/w=0/d=0, drop=r=0/w=0/d=0\n"
	"\n"
	"Run status group 0 (all jobs):\n";

/*
 * fio 2.x under unit_base=1 (issue 60 item 10; the real fio 2.2.10 output
 * is tests/fixtures/fio2/fio-2.2.10-bits.normal, in Kbit): its bits take
 * the KB's prefixes, 1024-based, also "Mbit" (no issued counts here: the
 * printed values stay).
 */
static const char fio2_mbit[] =
	"mb: (g=0): rw=read, bs=128K-128K/128K-128K/128K-128K, ioengine=libaio, iodepth=32\n"
	"fio-2.2.10\n"
	"mb: (groupid=0, jobs=1): err= 0: pid=7: Fri Dec 28 16:32:44 2018\n"
	"  read : io=1234.5MB, bw=9876.5Mbit/s, iops=9876, runt=  1000msec\n"
	"    clat (usec): min=20, max=900, avg=243.10, stdev=20.50\n"
	"    bw (Mbit/s): min= 9000, max=10000, per=100.00%, avg=9870.00, stdev=100.00\n";

/* 3.x with lost indentation, num2str suffixes and no issued counts. */
static const char fio3[] =
	"rand: (groupid=0, jobs=4): err= 0: pid=1: Mon Dec  2 04:27:48 2024\n"
	"read: IOPS=84.1k, BW=328MiB/s (344MB/s)(19.2GiB/60001msec)\n"
	"clat (nsec): min=1180, max=27826k, avg=45123.51, stdev=1234.50\n"
	"clat percentiles (usec):\n"
	"| 50.00th=[   42], 99.00th=[  117], 99.99th=[ 2057]\n"
	"  write: IOPS=12, BW=48.0KiB/s (49.2kB/s)(2880KiB/60001msec); 0 zone resets\n"
	"    clat (msec): min=2, max=9, avg= 4.14, stdev= 1.01\n";

static int parse(const char *text, struct nv_run *run, char *err, size_t n)
{
	return nv_input_parse(text, strlen(text), "t.txt", run, err, n);
}

TEST(fio2_entry)
{
	struct nv_run run;
	char err[256] = "";
	const struct nv_dirstat *ds;

	CHECK(parse(fio2, &run, err, sizeof(err)) == 0);
	if (run.njobs != 1)
		return;
	CHECK_STR(run.format, "fio-normal");
	CHECK_STR(run.fio_version, "fio-2.2.10");
	CHECK_STR(run.jobs[0].name, "seq");
	CHECK_STR(run.jobs[0].rw, "read");
	CHECK_EQ_U64(run.jobs[0].bs[0], 16u << 20);
	ds = &run.jobs[0].dir[NV_DIR_READ];
	CHECK(ds->have_ios && ds->ios == 512);
	CHECK_EQ_U64(ds->io_bytes, 512ull << 24);
	CHECK(ds->runtime_ms.v == 1099);
	CHECK(fabs(ds->iops.v - 512000.0 / 1099) < 1e-9 && ds->iops.prec == 0);
	CHECK(ds->bw.v == (double)((512ull << 24) * 1000 / 1099) && ds->bw.prec == 0);
	CHECK(ds->lat[NV_LAT_SLAT].mean.v == 1145320);
	CHECK(fabs(ds->lat[NV_LAT_TOTAL].mean.v - 2.14e6) < 1e-6);
	CHECK(fabs(ds->lat[NV_LAT_TOTAL].mean.prec - 5e3) < 1e-6);
	CHECK(ds->lat[NV_LAT_CLAT].pct[NV_P50].v == 900e3);
	CHECK(ds->lat[NV_LAT_CLAT].pct[NV_P999].v == 4832e3);
	CHECK(!ds->lat[NV_LAT_CLAT].pct[NV_P9999].src);	/* not printed: missing, not 0 */
	CHECK(ds->lat[NV_LAT_CLAT].npoints == 5);
	CHECK(ds->bw_samples.mean.v == 7480.49 * 1024);	/* 2.x "KB" is KiB */
	/* fio 2's whole ladder (no ns rungs), the unprinted rungs 0; "500=" is
	 * [250 us, 500 us), not [0, 500 us) (issue 59) */
	CHECK(run.jobs[0].x.nbuckets == 22);
	if (run.jobs[0].x.nbuckets == 22) {
		const struct nv_latbucket *b = run.jobs[0].x.buckets;

		CHECK(b[0].lo_ns == 0 && b[0].hi_ns == 2e3 && b[0].pct == 0);
		CHECK(b[7].lo_ns == 250e3 && b[7].hi_ns == 500e3 && b[7].pct == 0.20);
		CHECK(b[8].pct == 7.81 && b[9].pct == 72.85 && b[10].pct == 14.26);
		CHECK(b[11].lo_ns == 2e6 && b[11].hi_ns == 4e6 && b[11].pct == 4.49);
		CHECK(b[12].pct == 0 && b[20].pct == 0);
		CHECK(isinf(b[21].hi_ns) && b[21].lo_ns == 2e9 && b[21].pct == 0.39);
	}
	CHECK(run.jobs[0].x.sys_cpu.v == 53.19);
	CHECK(run.jobs[0].x.ctx.v == 521 && run.jobs[0].x.ctx.prec == 0);
	CHECK(!run.jobs[0].dir[NV_DIR_WRITE].present);
	CHECK(run.ndisks == 2);
	if (run.ndisks == 2) {
		CHECK_STR(run.disks[0].name, "md0");
		CHECK(run.disks[0].aggr && run.disks[0].aggr_v[NV_DISK_UTIL].v == 75.86);
		CHECK(run.disks[1].v[NV_DISK_READ_TICKS].v == 10284);
	}
	nv_run_free(&run);
}

TEST(fio3_rounded)
{
	struct nv_run run;
	char err[256] = "";
	const struct nv_dirstat *r, *w;

	CHECK(parse(fio3, &run, err, sizeof(err)) == 0);
	if (run.njobs != 1)
		return;
	CHECK_STR(run.fio_version, "fio (version not printed)");
	r = &run.jobs[0].dir[NV_DIR_READ];
	w = &run.jobs[0].dir[NV_DIR_WRITE];
	CHECK(!r->have_ios);
	CHECK(r->iops.v == 84100 && fabs(r->iops.prec - 50) < 1e-6);
	CHECK(r->bw.v == 328.0 * 1048576 && fabs(r->bw.prec - 524288) < 1e-3);
	CHECK(r->runtime_ms.v == 60001);
	CHECK(r->lat[NV_LAT_CLAT].max.v == 27826e3 && r->lat[NV_LAT_CLAT].max.prec == 1000);
	CHECK(r->lat[NV_LAT_CLAT].pct[NV_P99].v == 117e3);
	CHECK(w->present && w->iops.v == 12 && w->bw.v == 48.0 * 1024);
	CHECK(fabs(w->lat[NV_LAT_CLAT].mean.v - 4.14e6) < 1e-6);
	CHECK(w->io_bytes == 2880 * 1024);
	nv_run_free(&run);
}

/* Each damage gives an error naming the file and the line. */
TEST(errors_name_line)
{
	static const struct { const char *from, *to, *msg; } cases[] = {
		{ "clat (usec): min=482", "clat (xsec): min=482", "t.txt:11: a latency unit" },
		{ "avg=997.32", "avg=x97.32", "t.txt:11: avg= is not a number" },
		{ "runt=  1099msec", "runt=  1099", "t.txt:9: runt= is not N msec" },
		{ "bw=7454.5MB/s, iops", "bw=7454.5QB/s, iops", "t.txt:9: bandwidth" },
		{ "total=r=512", "total=r=x", "t.txt:20: an issued count" },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = malloc(sizeof(fio2) + 16), *at, err[256] = "";
		struct nv_run run;
		size_t fl = strlen(cases[i].from);

		if (!t)
			return;
		at = strstr(strcpy(t, fio2), cases[i].from);
		CHECK(at != NULL);
		if (at) {
			memmove(at + strlen(cases[i].to), at + fl, strlen(at + fl) + 1);
			memcpy(at, cases[i].to, strlen(cases[i].to));
			CHECK(parse(t, &run, err, sizeof(err)) == -EINVAL);
			if (!strstr(err, cases[i].msg))
				printf("  case %u: %s\n", i, err);
			CHECK(strstr(err, cases[i].msg) != NULL);
		}
		free(t);
	}
}

/* Cut after every byte: a reading or an error, never a crash. */
TEST(cut_everywhere)
{
	for (size_t n = 0; n < sizeof(fio2) - 1; n++) {
		struct nv_run run;
		char err[256] = "";

		if (nv_input_parse(fio2, n, "cut.txt", &run, err, sizeof(err)) == 0)
			nv_run_free(&run);
		else
			CHECK(strstr(err, "cut.txt") != NULL);
	}
}

/*
 * A copy of text with CRLF line ends and a NUL at byte at (of the copy).
 * Return: the copy (free it; *len its length) or NULL.
 */
static char *crlf_with_nul(const char *text, size_t at, size_t *len)
{
	char *out = malloc(2 * strlen(text) + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	for (const char *c = text; *c; c++) {
		if (*c == '\n')
			out[n++] = '\r';
		out[n++] = *c;
	}
	if (at < n)
		out[at] = '\0';
	*len = n;
	return out;
}

/*
 * A NUL inside a CRLF line, fed straight to nv_input_parse (multiout.c
 * refuses NUL before the readers only in the CLI path): the line ends at
 * the NUL, its CR looked for there, never past the copy (make asan: a heap
 * read and write beyond it before); a reading or an error naming the file.
 */
TEST(nul_in_line)
{
	size_t len = 0;
	char *plain = crlf_with_nul(fio2, (size_t)-1, &len);

	CHECK(plain != NULL);
	for (size_t at = 0; plain && at < len; at++) {
		struct nv_run run;
		char err[256] = "";
		char *t = crlf_with_nul(fio2, at, &len);

		CHECK(t != NULL);
		if (t && nv_input_parse(t, len, "nul.txt", &run, err, sizeof(err)) == 0)
			nv_run_free(&run);
		else
			CHECK(strstr(err, "nul.txt") != NULL);
		free(t);
	}
	free(plain);
}

TEST(fio2_kb_base_1000)
{
	struct nv_run run;
	char err[256] = "";
	const struct nv_dirstat *ds;

	CHECK(parse(fio2_kb1000, &run, err, sizeof(err)) == 0);
	if (run.njobs != 1)
		return;
	ds = &run.jobs[0].dir[NV_DIR_READ];
	CHECK_EQ_U64(ds->io_bytes, 534581248ull);
	CHECK(ds->bw.v == 534047200 && ds->bw.prec == 0);	/* 1000 x bytes / runt */
	CHECK(fabs(ds->iops.v - 130513000.0 / 1001) < 1e-6);
	CHECK(ds->bw_samples.mean.v == 521530.0 * 1024);	/* KiB/s whatever the base */
	CHECK(run.nnotes == 1 && strstr(run.notes[0], "read as 1000 bytes (kb_base=1000)"));
	nv_run_free(&run);
}

TEST(fio2_bits)
{
	const double mbit = 1024.0 * 1024 / 8;
	struct nv_run run;
	char err[256] = "";
	const struct nv_dirstat *ds;

	CHECK(parse(fio2_mbit, &run, err, sizeof(err)) == 0);
	if (run.njobs != 1)
		return;
	ds = &run.jobs[0].dir[NV_DIR_READ];
	CHECK(fabs(ds->bw.v - 9876.5 * mbit) < 1e-6 && fabs(ds->bw.prec - 0.05 * mbit) < 1e-3);
	CHECK(fabs(ds->bw_samples.mean.v - 9870.0 * mbit) < 1e-6);	/* KiB/s x 8 / 1024 */
	nv_run_free(&run);
}

int main(void)
{
	RUN(fio2_entry);
	RUN(fio2_kb_base_1000);
	RUN(fio2_bits);
	RUN(fio3_rounded);
	RUN(errors_name_line);
	RUN(cut_everywhere);
	RUN(nul_in_line);
	return check_summary();
}
