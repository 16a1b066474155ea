/*
 * test_multiout.c - analyze/input/multiout.c: a file of several fio outputs
 * whose last output was cut while fio wrote it (fio killed during a
 * --status-interval run, a disk full): the cut output is left out with a
 * note naming its line, and the complete one before it is read, never the
 * cut one as the run's last snapshot (its later directions missing) nor
 * every snapshot as a job of its own ("status #1" ... "#4"); another
 * process's output cut short stays.  Terse lines cut into runs: each at
 * its own line.
 *
 * The outputs are real fio 2.2.10 ones (tests/fixtures/fio2/README.md):
 * a normal output and its copy as a later snapshot of the same process
 * (runtime 1542 -> 1942 ms), and the terse lines of a 4-snapshot
 * --status-interval run, each line doubled under a second job name, "second".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/input/multiout.h"

#define NORMAL "tests/fixtures/fio2/fio-2.2.10-bits.normal"
#define TERSE "tests/fixtures/fio2/fio-2.2.10-status-interval.terse"
#define SI "tests/fixtures/fio2/fio-2.21-status-interval.out"

/* The file at path, NUL-terminated, in *buf.  Return: its length, or 0. */
static size_t slurp(const char *path, char **buf)
{
	FILE *f = fopen(path, "rb");
	long n;

	*buf = NULL;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(*buf = calloc((size_t)n + 1, 1)) || fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		if (f)
			fclose(f);
		free(*buf);
		*buf = NULL;
		return 0;
	}
	fclose(f);
	return (size_t)n;
}

/* Return: a copy of s[0..n) with each "from" replaced by "to" (same length). */
static char *replaced(const char *s, size_t n, const char *from, const char *to)
{
	char *c = malloc(n + 1), *p;

	if (!c)
		return NULL;
	memcpy(c, s, n);
	c[n] = 0;
	for (p = c; (p = strstr(p, from)); p += strlen(to))
		memcpy(p, to, strlen(to));
	return c;
}

/* Return: true when some note of run holds s. */
static bool noted(const struct nv_run *run, const char *s)
{
	for (size_t i = 0; i < run->nnotes; i++)
		if (strstr(run->notes[i], s))
			return true;
	return false;
}

/* Return: the number of run's jobs with a direction d that moved IOs. */
static size_t active(const struct nv_run *run, unsigned d)
{
	size_t n = 0;

	for (size_t j = 0; j < run->njobs; j++)
		n += nv_dir_active(&run->jobs[j].dir[d]);
	return n;
}

/*
 * The normal output, then a later snapshot of it (same pid, 1942 ms) cut
 * after its read part: the first snapshot is read, both directions, and a
 * note says the cut one was left out; complete, the later one is read.
 */
TEST(normal_last_snapshot_cut)
{
	char *one = NULL, *two = NULL, *file = NULL, err[512];
	size_t n = slurp(NORMAL, &one), cut;
	struct nv_multiout m;
	const char *wr;

	CHECK(n > 0);
	if (!n)
		return;
	two = replaced(one, n, "runt=  1542msec", "runt=  1942msec");
	file = malloc(2 * n);
	CHECK(two && file && (wr = strstr(two, "  write:")));
	if (!two || !file || !(wr = strstr(two, "  write:")))
		goto out;
	memcpy(file, one, n);
	memcpy(file + n, two, n);	/* complete: the later snapshot read */
	CHECK_EQ_I64(nv_multiout_parse(file, 2 * n, "snap.log", &m, err, sizeof(err)), 0);
	CHECK_EQ_I64(m.n, 1);
	CHECK(m.n == 1 && noted(&m.runs[0], "2 status-interval snapshots") &&
	      m.runs[0].jobs[0].dir[NV_DIR_READ].runtime_ms.v == 1942);
	nv_multiout_free(&m);

	cut = n + (size_t)(wr - two);	/* cut where the write part begins */
	CHECK_EQ_I64(nv_multiout_parse(file, cut, "snap.log", &m, err, sizeof(err)), 0);
	CHECK_EQ_I64(m.n, 1);
	if (m.n == 1) {
		CHECK_EQ_I64(m.runs[0].njobs, 1);
		CHECK_EQ_I64(active(&m.runs[0], NV_DIR_READ), 1);
		CHECK_EQ_I64(active(&m.runs[0], NV_DIR_WRITE), 1);
		CHECK(m.runs[0].jobs[0].dir[NV_DIR_READ].runtime_ms.v == 1542);
		CHECK(noted(&m.runs[0], "snap.log:42: the last fio output stops before its end"));
	}
	nv_multiout_free(&m);

	/* another process's output, cut (an article's next machine, shortened by
	 * its author): not a snapshot being written, kept as before */
	memcpy(strstr(file + n, "pid=30488"), "pid=30499", 9);
	CHECK_EQ_I64(nv_multiout_parse(file, cut, "page.md", &m, err, sizeof(err)), 0);
	CHECK(m.n >= 1 && !noted(&m.runs[0], "stops before its end") &&
	      !noted(&m.runs[m.n - 1], "stops before its end"));
	nv_multiout_free(&m);
out:
	free(one);
	free(two);
	free(file);
}

/*
 * The terse lines of 4 snapshots of 2 jobs ("status", "second"), the last
 * snapshot's second line missing: 2 jobs read from the third snapshot,
 * with a note, not 7 jobs "status #1" ...
 */
TEST(terse_last_snapshot_cut)
{
	char *one = NULL, *file = NULL, *p, err[512];
	size_t n = slurp(TERSE, &one), len = 0, lines = 0;
	struct nv_multiout m;

	CHECK(n > 0);
	if (!n)
		return;
	file = calloc(2 * n + 1, 1);
	CHECK(file != NULL);
	if (!file)
		goto out;
	for (char *l = one; l < one + n && (p = strchr(l, '\n')); l = p + 1) {
		size_t k = (size_t)(p + 1 - l);
		char *o;

		memcpy(file + len, l, k);	/* its job "status" ... */
		len += k;
		if (++lines == 4)
			break;	/* the last snapshot's "other" line cut */
		memcpy(file + len, l, k);	/* ... and "second" */
		o = strstr(file + len, ";status;");
		if (o)
			memcpy(o, ";second;", 8);
		len += k;
	}
	CHECK_EQ_I64(lines, 4);
	CHECK_EQ_I64(nv_multiout_parse(file, len, "st.terse", &m, err, sizeof(err)), 0);
	CHECK_EQ_I64(m.n, 1);
	if (m.n == 1) {
		CHECK_EQ_I64(m.runs[0].njobs, 2);
		CHECK(noted(&m.runs[0], "3 status-interval snapshots"));
		CHECK(noted(&m.runs[0], "st.terse:7: the last fio output stops before its end"));
		CHECK(m.runs[0].jobs[0].dir[NV_DIR_READ].runtime_ms.v == 2949);
	}
	nv_multiout_free(&m);
out:
	free(one);
	free(file);
}

/*
 * Terse lines of two runs appended (2 jobs each, the second's counts anew):
 * repeats, each run at the line of its first terse line.
 */
TEST(terse_runs_lines)
{
	char *one = NULL, *file = NULL, *p, err[512];
	size_t n = slurp(TERSE, &one), len = 0, k;
	struct nv_multiout m;

	CHECK(n > 0 && (p = strchr(one, '\n')));
	if (!n || !(p = strchr(one, '\n')))
		goto out;
	k = (size_t)(p + 1 - one);	/* the first snapshot's line */
	file = calloc(4 * k + 1, 1);
	CHECK(file != NULL);
	if (!file)
		goto out;
	for (unsigned i = 0; i < 4; i++) {
		memcpy(file + len, one, k);
		if (i & 1)
			memcpy(strstr(file + len, ";status;"), ";second;", 8);
		if (i >= 2)	/* the second run: 221 KiB, not 220 */
			memcpy(strstr(file + len, ";220;"), ";221;", 5);
		len += k;
	}
	CHECK_EQ_I64(nv_multiout_parse(file, len, "rep.terse", &m, err, sizeof(err)), 0);
	CHECK_EQ_I64(m.n, 2);
	if (m.n == 2) {
		CHECK_EQ_I64(m.runs[0].line, 1);
		CHECK_EQ_I64(m.runs[1].line, 3);
		CHECK(noted(&m.runs[0], "2 runs of the same fio jobs"));
	}
	nv_multiout_free(&m);
out:
	free(one);
	free(file);
}

/*
 * fio 2.21's --status-interval=1 --output-format=terse,json: each snapshot
 * its terse line, then its JSON.  The last snapshot's terse line goes with
 * its JSON (checked against it), not with the snapshot before.
 */
TEST(terse_json_snapshots)
{
	char *text = NULL, err[512];
	size_t n = slurp(SI, &text);
	struct nv_multiout m;

	CHECK(n > 0);
	if (!n)
		return;
	CHECK_EQ_I64(nv_multiout_parse(text, n, SI, &m, err, sizeof(err)), 0);
	CHECK_EQ_I64(m.n, 1);
	if (m.n == 1) {
		CHECK(noted(&m.runs[0], "3 status-interval snapshots"));
		CHECK(noted(&m.runs[0], "the terse output agrees with the JSON"));
		CHECK_EQ_I64(m.runs[0].line, 0);
	}
	nv_multiout_free(&m);
	free(text);
}

int main(void)
{
	RUN(normal_last_snapshot_cut);
	RUN(terse_last_snapshot_cut);
	RUN(terse_runs_lines);
	RUN(terse_json_snapshots);
	return check_summary();
}
