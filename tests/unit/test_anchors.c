/*
 * test_anchors.c - publish/anchors.c: heading anchors as GitHub makes them
 * (report.md's contents link to them, report.html's headings carry them).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/publish/anchors.h"

/* The next anchor of s on page a, as a static string.  Return: it. */
static const char *next(struct nv_anchors *a, const char *s)
{
	static char buf[256];

	if (nv_anchor_next(a, s, strlen(s), buf, sizeof(buf)))
		return "(error)";
	return buf;
}

TEST(github_rules)
{
	struct nv_anchors a = { 0 };

	CHECK_STR(next(&a, "Storage benchmark report"), "storage-benchmark-report");
	/* the dot goes, the spaces stay */
	CHECK_STR(next(&a, "test · read"), "test--read");
	CHECK_STR(next(&a, "Disk utilisation (fio's disk_util)"),
		  "disk-utilisation-fios-disk_util");
	CHECK_STR(next(&a, "randread-4k-qd64-j4 · read"), "randread-4k-qd64-j4--read");
	CHECK_STR(next(&a, "a.json:job · b: from the traces"), "ajsonjob--b-from-the-traces");
	CHECK_STR(next(&a, "`code` and *em*"), "code-and-em");
	nv_anchors_free(&a);
}

TEST(repeats_and_empty)
{
	struct nv_anchors a = { 0 };

	CHECK_STR(next(&a, "Summary"), "summary");
	CHECK_STR(next(&a, "Summary"), "summary-1");
	CHECK_STR(next(&a, "summary"), "summary-2");
	CHECK_STR(next(&a, "· ·"), "-");	/* the space stays */
	CHECK_STR(next(&a, "·"), "section");
	CHECK_STR(next(&a, "··"), "section-1");
	/* a length ends the text: only "Sum" of "Summary" */
	{
		char buf[64];

		CHECK(!nv_anchor_next(&a, "Summary", 3, buf, sizeof(buf)));
		CHECK_STR(buf, "sum");
	}
	nv_anchors_free(&a);
	CHECK(a.n == 0 && !a.seen);
}

int main(void)
{
	RUN(github_rules);
	RUN(repeats_and_empty);
	return check_summary();
}
