/*
 * test_oom_fiojson.c - the fio JSON loader when memory runs out: every
 * allocation of a parse failed in turn (failalloc.h).  Each failure is
 * -ENOMEM with "out of memory" in the message and nothing leaked; a parse
 * that succeeds has all of its data (no list silently dropped).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "tests/unit/failalloc.h"
#include "analyze/input/fiojson.h"

#define JSONPLUS "tests/data/fio-json/null-randrw-jsonplus.json"

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)len + 1)) && fread(buf, 1, (size_t)len, f) == (size_t)len)
		*n = (size_t)len;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* err as the caller sees it: filled with garbage first, so an unwritten one shows. */
static int parse_at(long at, const char *buf, size_t n, struct nv_run *run, char *err,
		    size_t errlen)
{
	int ret;

	memset(err, 'X', errlen - 1);
	err[errlen - 1] = 0;
	failalloc_arm(at);
	ret = nv_fio_parse(buf, n, "t.json", run, err, errlen);
	failalloc_disarm();
	return ret;
}

/* The copy of the path fails: a message, not the caller's garbage. */
TEST(path_copy)
{
	static const char json[] = "{\"fio version\": \"fio-3.33\", \"jobs\": []}";
	struct nv_run run;
	char err[256];
	size_t live = failalloc_live();

	CHECK(parse_at(0, json, sizeof(json) - 1, &run, err, sizeof(err)) == -ENOMEM);
	CHECK(failalloc_failed);
	CHECK(strstr(err, "t.json: out of memory") == err);
	CHECK_EQ_U64(failalloc_live(), live);
}

/* UTF-16 input whose conversion fails: a message, and run->path not leaked. */
TEST(utf16_conversion)
{
	static const char text[] = "{\"jobs\": []}";
	char buf[2 + 2 * sizeof(text)], err[256];
	struct nv_run run;
	size_t n = 2, live = failalloc_live();

	buf[0] = (char)0xff;	/* UTF-16LE BOM */
	buf[1] = (char)0xfe;
	for (size_t i = 0; i + 1 < sizeof(text); i++) {
		buf[n++] = text[i];
		buf[n++] = 0;
	}
	CHECK(parse_at(1, buf, n, &run, err, sizeof(err)) == -ENOMEM);
	CHECK(failalloc_failed);
	CHECK(strstr(err, "t.json: out of memory") == err);
	CHECK_EQ_U64(failalloc_live(), live);
	CHECK(parse_at(-1, buf, n, &run, err, sizeof(err)) == 0);	/* and without failure */
	nv_run_free(&run);
}

/* The json+ file with every allocation failed in turn. */
TEST(every_allocation_of_a_jsonplus_file)
{
	size_t n = 0, live, nbins, npoints, failures = 0;
	char *buf = slurp(JSONPLUS, &n), err[1024];
	struct nv_run run;
	const struct nv_latstat *ls;

	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK(parse_at(-1, buf, n, &run, err, sizeof(err)) == 0);
	ls = &run.jobs[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT];
	nbins = ls->nbins;
	npoints = ls->npoints;
	CHECK(nbins > 0 && npoints > 0);
	nv_run_free(&run);
	live = failalloc_live();
	for (long at = 0; at < 100000; at++) {
		int ret = parse_at(at, buf, n, &run, err, sizeof(err));

		if (!failalloc_failed) {	/* past the last allocation */
			CHECK(ret == 0);
			if (!ret)
				nv_run_free(&run);
			break;
		}
		if (ret) {
			failures++;
			CHECK_EQ_I64(ret, -ENOMEM);
			CHECK(strstr(err, "out of memory") != NULL);
			CHECK_EQ_U64(failalloc_live(), live);
			if (check_failed_case) {
				printf("    info: allocation %ld failed: %.200s\n", at, err);
				break;
			}
			continue;
		}
		/* a failure the loader survived: nothing it read may be missing */
		ls = &run.jobs[0].dir[NV_DIR_READ].lat[NV_LAT_CLAT];
		CHECK_EQ_U64(ls->nbins, nbins);
		CHECK_EQ_U64(ls->npoints, npoints);
		nv_run_free(&run);
		if (check_failed_case) {
			printf("    info: allocation %ld failed, parse succeeded without data\n",
			       at);
			break;
		}
	}
	CHECK(failures > 10);
	free(buf);
}

int main(void)
{
	RUN(path_copy);
	RUN(utf16_conversion);
	RUN(every_allocation_of_a_jsonplus_file);
	return check_summary();
}
