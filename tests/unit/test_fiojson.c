/*
 * test_fiojson.c - the fio JSON reader: units and keys of every fio
 * generation, missing statistics, job keys, client/server, framing, errors.
 */
#include <errno.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/input/fiojson.h"
#include "analyze/input/multiout.h"

static char err[200];

static int parse(const char *s, struct nv_run *run)
{
	err[0] = 0;
	return nv_fio_parse(s, strlen(s), "t.json", run, err, sizeof(err));
}

/* fio 2.1.4: usec keys, io_bytes KiB, integer iops, "0.00" duplicates. */
static const char old_fio[] =
	"{\"fio version\" : \"fio-2.1.4\", \"jobs\" : [ {\"jobname\" : \"w\", \"groupid\" : 0,\n"
	" \"error\" : 0,\n"
	" \"read\" : {\"io_bytes\" : 0, \"bw\" : 0, \"iops\" : 0, \"runtime\" : 0,\n"
	"   \"clat\" : {\"min\" : 0, \"max\" : 0, \"mean\" : 0.00, \"stddev\" : 0.00,\n"
	"     \"percentile\" : {\"50.000000\" : 0, \"0.00\" : 0, \"0.00\" : 0}}},\n"
	" \"write\" : {\"io_bytes\" : 361984, \"bw\" : 68118, \"iops\" : 133, "
		"\"runtime\" : 5314,\n"
	"   \"slat\" : {\"min\" : 33, \"max\" : 29008, \"mean\" : 1001.72, "
		"\"stddev\" : 2270.59},\n"
	"   \"clat\" : {\"min\" : 189263, \"max\" : 869891, \"mean\" : 477734.84, "
		"\"stddev\" : 92609.34,\n"
	"     \"percentile\" : {\"50.000000\" : 444416, \"95.000000\" : 724992, "
		"\"99.000000\" : 823296,\n"
	"       \"99.900000\" : 872448, \"99.990000\" : 872448, \"0.00\" : 0, \"0.00\" : 0}},\n"
	"   \"lat\" : {\"min\" : 189438, \"max\" : 869970, \"mean\" : 478737.47, "
		"\"stddev\" : 92629.54}}\n"
	"} ] }\n";

TEST(old_units)
{
	struct nv_run run;
	const struct nv_dirstat *w;

	CHECK(parse(old_fio, &run) == 0);
	CHECK_EQ_U64(run.njobs, 1);
	CHECK_STR(run.fio_version, "fio-2.1.4");
	w = &run.jobs[0].dir[NV_DIR_WRITE];
	CHECK(w->present && !w->have_ios);
	CHECK_EQ_U64(w->io_bytes, 361984ull * 1024);
	CHECK(w->iops.src == NV_SRC_FIO && w->iops.v == 133);
	CHECK(w->bw.v == 68118.0 * 1024);
	CHECK(w->lat[NV_LAT_CLAT].mean.v == 477734.84 * 1000);
	CHECK(w->lat[NV_LAT_CLAT].pct[NV_P50].v == 444416.0 * 1000);
	CHECK(w->lat[NV_LAT_CLAT].pct[NV_P9999].v == 872448.0 * 1000);
	CHECK(w->lat[NV_LAT_SLAT].max.v == 29008.0 * 1000);
	CHECK(w->lat[NV_LAT_TOTAL].pct[NV_P50].src == NV_SRC_NONE);	/* no percentiles */
	/* idle read: percentile zeros are not values */
	CHECK(!nv_dir_active(&run.jobs[0].dir[NV_DIR_READ]));
	CHECK(run.jobs[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT].pct[NV_P50].src == NV_SRC_NONE);
	CHECK(run.jobs[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT].mean.src == NV_SRC_NONE);
	CHECK(!run.jobs[0].dir[NV_DIR_TRIM].present);
	CHECK_EQ_U64(run.nnotes, 0);
	nv_run_free(&run);
}

/* fio 3.x: ns keys, bytes, float iops, N = 0 and a percentile list without p99.9. */
static const char new_fio[] =
	"{\"fio version\" : \"fio-3.33\", "
		"\"global options\" : {\"bs\" : \"4k\", \"ioengine\" : \"null\"},\n"
	" \"jobs\" : [ {\"jobname\" : \"r\", \"groupid\" : 1, \"error\" : 5,\n"
	"  \"job options\" : {\"rw\" : \"randread\", \"bs\" : \"8k\"},\n"
	"  \"read\" : {\"io_bytes\" : 9223372036854775807, \"io_kbytes\" : 1, "
		"\"bw_bytes\" : 4177920000,\n"
	"    \"bw\" : 4080000, \"iops\" : 1020000.5, \"runtime\" : 8, \"total_ios\" : 8160,\n"
	"    \"slat_ns\" : {\"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"stddev\" : 0.0, "
		"\"N\" : 0},\n"
	"    \"clat_ns\" : {\"min\" : 27, \"max\" : 26396, \"mean\" : 49.781863, "
		"\"stddev\" : 325.34733,\n"
	"      \"N\" : 8160, \"percentile\" : {\"50.000000\" : 46, \"99.000000\" : 59},\n"
	"      \"bins\" : {\"27\" : 1, \"28\" : 12}},\n"
	"    \"lat_ns\" : {\"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"stddev\" : 0.0, "
		"\"N\" : 0}},\n"
	"  \"sync\" : {\"total_ios\" : 3, \"lat_ns\" : {\"min\" : 5, \"max\" : 9, "
		"\"mean\" : 7.0,\n"
	"    \"stddev\" : 1.0, \"N\" : 3, \"percentile\" : {\"99.990000\" : 9}}}\n"
	"} ] }\n";

TEST(new_units)
{
	struct nv_run run;
	const struct nv_dirstat *r;

	CHECK(parse(new_fio, &run) == 0);
	r = &run.jobs[0].dir[NV_DIR_READ];
	CHECK(r->have_ios && r->ios == 8160);
	CHECK_EQ_U64(r->io_bytes, 9223372036854775807ull);	/* 64-bit exact */
	CHECK(r->iops.v == 1020000.5);
	CHECK(r->bw.v == 4177920000.0);
	CHECK(r->lat[NV_LAT_CLAT].pct[NV_P50].v == 46);
	CHECK(r->lat[NV_LAT_CLAT].pct[NV_P99].v == 59);
	CHECK(r->lat[NV_LAT_CLAT].pct[NV_P95].src == NV_SRC_NONE);
	CHECK(r->lat[NV_LAT_CLAT].pct[NV_P999].src == NV_SRC_NONE);
	CHECK(r->lat[NV_LAT_SLAT].mean.src == NV_SRC_NONE);	/* N = 0 */
	CHECK(r->lat[NV_LAT_TOTAL].mean.src == NV_SRC_NONE);
	CHECK(run.jobs[0].dir[NV_DIR_SYNC].lat[NV_LAT_TOTAL].pct[NV_P9999].v == 9);
	CHECK(nv_dir_active(&run.jobs[0].dir[NV_DIR_SYNC]));
	CHECK_EQ_I64(run.jobs[0].error, 5);
	CHECK_EQ_I64(run.jobs[0].groupid, 1);
	CHECK_STR(run.jobs[0].desc, "rw=randread bs=8k ioengine=null");
	nv_run_free(&run);
}

/*
 * fio 3.33 with fdatasync=1: the sync direction counts no IO (total_ios 0)
 * but holds the fdatasync latencies (N > 0): active, its latency read; a
 * read direction with total_ios 0 and N 0 stays inactive.
 */
static const char fdatasync_fio[] =
	"{\"fio version\" : \"fio-3.33\", \"jobs\" : [ {\"jobname\" : \"fds\", \"groupid\" : 0,\n"
	" \"read\" : {\"io_bytes\" : 0, \"total_ios\" : 0, \"iops\" : 0.0,\n"
	"   \"lat_ns\" : {\"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"N\" : 0}},\n"
	" \"sync\" : {\"total_ios\" : 0,\n"
	"   \"lat_ns\" : {\"min\" : 61400, \"max\" : 887484397, \"mean\" : 2095714.92865,\n"
	"     \"stddev\" : 29536109.765854, \"N\" : 911,\n"
	"     \"percentile\" : {\"50.000000\" : 238592, \"99.000000\" : 10813440}}}\n"
	"} ] }\n";

TEST(fdatasync_sync_active)
{
	struct nv_run run;
	const struct nv_dirstat *s;

	CHECK(parse(fdatasync_fio, &run) == 0);
	s = &run.jobs[0].dir[NV_DIR_SYNC];
	CHECK(s->have_ios && s->ios == 0);
	CHECK(nv_dir_has_lat(s) && nv_dir_active(s));
	CHECK(s->lat[NV_LAT_TOTAL].min.v == 61400);
	CHECK(s->lat[NV_LAT_TOTAL].mean.v == 2095714.92865);
	CHECK(s->lat[NV_LAT_TOTAL].pct[NV_P99].v == 10813440);
	CHECK(s->iops.src == NV_SRC_NONE && s->bw.src == NV_SRC_NONE);
	CHECK(!nv_dir_has_lat(&run.jobs[0].dir[NV_DIR_READ]));
	CHECK(!nv_dir_active(&run.jobs[0].dir[NV_DIR_READ]));
	nv_run_free(&run);
}

/* Repeated job names get " #n"; several hosts make "name@host". */
TEST(job_keys)
{
	static const char per_job[] =
		"{\"jobs\" : [{\"jobname\" : \"a\"}, {\"jobname\" : \"b\"}, "
			"{\"jobname\" : \"a\"}]}";
	static const char clients[] =
		"{\"global options\" : [{\"hostname\" : \"h2\", \"bs\" : \"1m\"}, "
			"{\"bs\" : \"4k\"}],\n"
		" \"client_stats\" : [{\"jobname\" : \"x\", \"hostname\" : \"h1\"},\n"
		"  {\"jobname\" : \"x\", \"hostname\" : \"h2\"},\n"
		"  {\"jobname\" : \"All clients\", \"hostname\" : \"h2\"}]}";
	static const char one_client[] =
		"{\"client_stats\" : [{\"jobname\" : \"x\", \"hostname\" : \"h1\"}]}";
	struct nv_run run;

	CHECK(parse(per_job, &run) == 0);
	CHECK_STR(run.jobs[0].key, "a #1");
	CHECK_STR(run.jobs[1].key, "b");
	CHECK_STR(run.jobs[2].key, "a #2");
	nv_run_free(&run);

	CHECK(parse(clients, &run) == 0);
	CHECK(run.client);
	CHECK_STR(run.jobs[0].key, "x@h1");
	CHECK_STR(run.jobs[1].key, "x@h2");
	CHECK_STR(run.jobs[2].key, "All clients");
	CHECK(run.jobs[2].host == NULL);
	CHECK_STR(run.jobs[0].desc, "bs=4k");	/* no h1 entry: the first object */
	CHECK_STR(run.jobs[1].desc, "bs=1m");	/* h2's own options */
	nv_run_free(&run);

	CHECK(parse(one_client, &run) == 0);
	CHECK_STR(run.jobs[0].key, "x");	/* one host: plain names match local runs */
	CHECK_STR(run.jobs[0].host, "h1");
	nv_run_free(&run);
}

#define OBJ(iops) "{\"fio version\" : \"fio-3.30\", \"jobs\" : [{\"jobname\" : \"j\", " \
	"\"read\" : {\"iops\" : " #iops ", \"total_ios\" : 1}}]}"

TEST(framing)
{
	struct nv_run run;

	if (parse("fio: warning {odd}\nx" OBJ(1) "\n", &run)) {
		CHECK(!"stray text before the JSON parses");
		return;
	}
	CHECK(run.jobs[0].dir[NV_DIR_READ].iops.v == 1);
	CHECK_EQ_U64(run.nnotes, 1);
	CHECK(run.nnotes && strstr(run.notes[0], "before the JSON"));
	nv_run_free(&run);

	CHECK(parse(OBJ(1) "\n" OBJ(2) "\n" OBJ(3) "\nj: (groupid=0, jobs=1): err= 0\n",
		    &run) == 0);
	CHECK(run.jobs[0].dir[NV_DIR_READ].iops.v == 3);	/* the last */
	CHECK_EQ_U64(run.objects, 3);
	CHECK_EQ_U64(run.nnotes, 2);
	CHECK(run.nnotes == 2 && strstr(run.notes[0], "3 JSON objects") &&
	      strstr(run.notes[1], "after"));
	nv_run_free(&run);

	CHECK(parse(OBJ(7) OBJ(7), &run) == 0);
	CHECK(run.nnotes == 1 && strstr(run.notes[0], "appears 2 times; counted once"));
	nv_run_free(&run);

	CHECK(parse(OBJ(1) "\n{\"fio version\" : \"fio-3.30\", \"jobs\" : [", &run) == 0);
	CHECK(run.jobs[0].dir[NV_DIR_READ].iops.v == 1);
	CHECK(run.nnotes == 1 && strstr(run.notes[0], "t.json:2:") &&
	      strstr(run.notes[0], "incomplete"));
	nv_run_free(&run);
}

TEST(utf16)
{
	static const char s[] = OBJ(5);
	char buf[2 * sizeof(s) + 2];
	struct nv_run run;
	size_t n = 0;

	buf[n++] = (char)0xff;
	buf[n++] = (char)0xfe;
	for (size_t i = 0; s[i]; i++) {
		buf[n++] = s[i];
		buf[n++] = 0;
	}
	CHECK(nv_fio_parse(buf, n, "w.json", &run, err, sizeof(err)) == 0);
	CHECK(run.njobs == 1 && run.jobs[0].dir[NV_DIR_READ].iops.v == 5);
	nv_run_free(&run);
}

TEST(errors)
{
	struct nv_run run;

	CHECK(parse("", &run) == -EINVAL);
	CHECK_STR(err, "t.json: empty file");
	CHECK(parse("hello\n", &run) == -EINVAL);
	CHECK(strstr(err, "no JSON object found") != NULL);
	CHECK(parse("{\"a\" : 1}", &run) == -EINVAL);
	CHECK(strstr(err, "not fio output") != NULL);
	CHECK(parse("warn\n{\"jobs\" : [\n  {\"jobname\" : }]}", &run) == -EINVAL);
	CHECK(strncmp(err, "t.json:3:16: not valid JSON", 27) == 0);
	CHECK(parse("{\"jobs\" : [1, 2", &run) == -EINVAL);
	CHECK(strncmp(err, "t.json:1:", 9) == 0);
	CHECK(nv_input_load("/nonexistent/x.json", &run, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "/nonexistent/x.json: cannot open") != NULL);
}

TEST(names)
{
	enum nv_dir d;
	enum nv_latkind k;

	CHECK(nv_dir_parse("mixed", &d) == 0 && d == NV_DIR_MIXED);
	CHECK(nv_dir_parse("rw", &d) == -EINVAL);
	CHECK_STR(nv_dir_name(NV_DIR_NR), "?");
	CHECK(nv_latkind_parse("lat", &k) == 0 && k == NV_LAT_TOTAL);
	CHECK(nv_latkind_parse("clat_ns", &k) == -EINVAL);
	CHECK_STR(nv_latkind_name(NV_LAT_SLAT), "slat");
}

int main(void)
{
	RUN(old_units);
	RUN(new_units);
	RUN(fdatasync_sync_active);
	RUN(job_keys);
	RUN(framing);
	RUN(utf16);
	RUN(errors);
	RUN(names);
	return check_summary();
}
