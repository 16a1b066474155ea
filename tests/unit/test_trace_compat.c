/*
 * test_trace_compat.c - traces written by earlier versions of the writer stay
 * readable: the committed traces under tests/fixtures/nvtrace (made by
 * tests/unit/gen_trace, see SOURCES.md there) decode to exactly the records
 * the deterministic generator (tests/unit/trace_gen.h) makes again here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"

static int rec_eq(const struct nvt_record *a, const struct nvt_record *b)
{
	return a->submit_ns == b->submit_ns && a->complete_ns == b->complete_ns &&
	       a->offset == b->offset && a->length == b->length && a->status == b->status &&
	       a->qd == b->qd && a->op == b->op && a->file == b->file;
}

/*
 * Read the fixture @name, comparing every record with the generator's
 * (@pat, @qd, @seed) and the file's format version with @minor; the trace
 * must hold @n records, @blocks blocks and its footer.  Return: nothing
 * (the checks report).
 */
static void read_fixture(const char *name, enum gen_pattern pat, unsigned qd, uint64_t seed,
			 size_t n, size_t blocks, unsigned minor)
{
	char path[256];
	struct nvt_reader *r = NULL;
	const struct nvt_record *recs;
	struct nvt_read_info info;
	size_t k, got = 0, nblk = 0, bad = 0;
	const char *v = NULL;
	struct gen g;
	int err;

	snprintf(path, sizeof(path), "tests/fixtures/nvtrace/%s", name);
	CHECK_EQ_I64(nvt_reader_open(&r, path), 0);
	if (!r)
		return;
	gen_init(&g, pat, qd, seed);
	while ((err = nvt_reader_next_block(r, &recs, &k)) == 1) {
		nblk++;
		for (size_t i = 0; i < k; i++, got++) {
			struct nvt_record want;

			gen_record(&g, &want);
			bad += !rec_eq(&recs[i], &want);
		}
	}
	CHECK_EQ_I64(err, 0);
	CHECK_EQ_U64(got, n);
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(nblk, blocks);
	nvt_reader_info(r, &info);
	CHECK_EQ_U64(info.minor, minor);
	CHECK_EQ_U64(info.records, n);
	CHECK_EQ_I64(nvt_reader_footer_get(r, "smart.after.temperature", &v), 0);
	CHECK(v && !strcmp(v, "305"));
	CHECK_STR(nvt_reader_get(r, "job.name"), "gen");
	nvt_reader_close(r);
}

/* Format 1.1: zlib blocks, every column varying (the mixed pattern). */
TEST(v1_1_zlib_mixed)
{
	read_fixture("v1.1-zlib-mixed.nvt", GEN_MIXED, 8, 5, 3000, 3, 1);
}

/* Format 1.2: zstd blocks, as written before the column changes of issue 39. */
TEST(v1_2_zstd_mixed)
{
	read_fixture("v1.2-zstd-mixed.nvt", GEN_MIXED, 8, 5, 3000, 3, 2);
}

TEST(v1_2_zstd_randread)
{
	read_fixture("v1.2-zstd-randread.nvt", GEN_RANDREAD, 32, 7, 5000, 3, 2);
}

int main(void)
{
	RUN(v1_1_zlib_mixed);
	RUN(v1_2_zstd_mixed);
	RUN(v1_2_zstd_randread);
	return check_summary();
}
