/*
 * test_fioterse - fio's terse output (analyze/input/fioterse.c) read
 * straight through nv_input_parse, as the fuzzers and unit tests do: a NUL
 * byte inside a CRLF line (multiout.c refuses NUL before the readers only in
 * the CLI path) ends the line there, and the reader never looks past the
 * line's copy for its CR (make asan: a heap read and write beyond it before).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/detect.h"
#include "tests/unit/check.h"

/* A real terse v3 line (tests/fixtures/fio-terse/SOURCES.md). */
#define TERSE "tests/fixtures/fio-terse/mcgrof-fio-tests__0001-bs4k-1j-1qd-read.terse"

/*
 * The fixture's first line with a CRLF end, then "\n" (room for 2 bytes
 * more in buf).  Return: its length with the CRLF, or 0 when unreadable.
 */
static size_t terse_crlf(char *buf, size_t cap)
{
	FILE *f = fopen(TERSE, "r");
	size_t n = 0;

	if (!f)
		return 0;
	if (fgets(buf, (int)(cap - 2), f)) {
		n = strcspn(buf, "\r\n");
		memcpy(buf + n, "\r\n", 3);
		n += 2;
	}
	fclose(f);
	return n;
}

/* A NUL at every byte of the line: a reading or an error naming the file. */
TEST(nul_everywhere)
{
	char line[4096], t[4096];
	size_t n = terse_crlf(line, sizeof(line));

	CHECK(n > 40);
	for (size_t at = 0; n > 40 && at < n; at++) {
		struct nv_run run;
		char err[256] = "";

		memcpy(t, line, n);
		t[at] = '\0';
		if (nv_input_parse(t, n, "nul.terse", &run, err, sizeof(err)) == 0)
			nv_run_free(&run);
		else
			CHECK(strstr(err, "nul.terse") != NULL);
	}
}

/* "LINE\0junk\r\n" reads as "LINE\r\n": the NUL ends the line. */
TEST(nul_ends_line)
{
	char line[4096], t[4200];
	size_t n = terse_crlf(line, sizeof(line));
	struct nv_run a, b;
	char err[256] = "";

	CHECK(n > 40);
	if (n <= 40)
		return;
	memcpy(t, line, n - 2);
	memcpy(t + n - 2, "\0junk;;\r\n", 9);
	if (nv_input_parse(line, n, "a.terse", &a, err, sizeof(err))) {
		CHECK(!"the fixture line reads");
		return;
	}
	if (nv_input_parse(t, n + 7, "b.terse", &b, err, sizeof(err))) {
		CHECK(!"the line with a NUL reads");
		nv_run_free(&a);
		return;
	}
	CHECK(a.njobs == 1 && b.njobs == 1);
	if (a.njobs == 1 && b.njobs == 1) {
		CHECK_STR(a.jobs[0].name, b.jobs[0].name);
		CHECK(a.jobs[0].dir[0].iops.v == b.jobs[0].dir[0].iops.v);
	}
	nv_run_free(&a);
	nv_run_free(&b);
}

int main(void)
{
	RUN(nul_everywhere);
	RUN(nul_ends_line);
	return check_summary();
}
