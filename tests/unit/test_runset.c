/*
 * test_runset.c - input/runset.c: a RUN argument (repeats, '+' joins) into
 * runs, their default labels, and the one label-or-position lookup of a
 * run (--baseline, --pair, --price, --trace).
 */
#include <errno.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/input/runset.h"

#define D "tests/data/fio-json/"

TEST(find_by_label_or_position)
{
	const char *labels[] = { "i7i.large", "2", "c7gd" };
	size_t s = 99;

	CHECK(nv_runset_find(labels, 3, "c7gd", 4, &s) == 0 && s == 2);
	CHECK(nv_runset_find(labels, 3, "i7i.large=0.1888", 9, &s) == 0 && s == 0);
	CHECK(nv_runset_find(labels, 3, "2", 1, &s) == 0 && s == 1);	/* a label first */
	CHECK(nv_runset_find(labels, 3, "3", 1, &s) == 0 && s == 2);	/* then a position */
	CHECK_EQ_I64(nv_runset_find(labels, 3, "4", 1, &s), -ENOENT);
	CHECK_EQ_I64(nv_runset_find(labels, 3, "0", 1, &s), -ENOENT);
	/* no prefix match */
	CHECK_EQ_I64(nv_runset_find(labels, 3, "c7g", 3, &s), -ENOENT);
	CHECK_EQ_I64(nv_runset_find(labels, 3, "", 0, &s), -ENOENT);
}

TEST(repeats_and_joins)
{
	struct nv_runset rs;
	char err[1024], *label;

	CHECK(nv_runset_load(D "psync-run1.json," D "psync-run2.json," D "psync-run3.json", &rs,
			     err, sizeof(err)) == 0);
	CHECK_EQ_U64(rs.nruns, 3);
	label = rs.nruns == 3 ? nv_runset_label(&rs) : NULL;
	CHECK_STR(label, "psync-run");	/* the common prefix, separator dropped */
	free(label);
	if (rs.nruns == 3)
		nv_runset_free(&rs);

	CHECK(nv_runset_load(D "psync-run1.json+" D "null-trim.json", &rs, err, sizeof(err)) == 0);
	CHECK_EQ_U64(rs.nruns, 1);
	if (rs.nruns == 1) {
		const struct nv_run *r = &rs.runs[0];

		CHECK_EQ_U64(r->nparts, 2);
		CHECK(r->njobs >= 2);
		CHECK_STR(nv_job_file(r, &r->jobs[r->njobs - 1]), D "null-trim.json");
		nv_runset_free(&rs);
	}
}

TEST(errors_name_the_file)
{
	struct nv_runset rs;
	char err[1024] = "";

	CHECK(nv_runset_load(D "no-such.json", &rs, err, sizeof(err)) < 0);
	CHECK(strstr(err, "no-such.json") != NULL);
}

int main(void)
{
	RUN(find_by_label_or_position);
	RUN(repeats_and_joins);
	RUN(errors_name_the_file);
	return check_summary();
}
