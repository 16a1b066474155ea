/*
 * test_trace_resident.c - the block encoder's scratch space is resident when
 * nvt_encoder_init returns (trace/nvtrace_zstream.c): the writer thread then
 * takes no page fault in it during the run (issue 39: on a short trace
 * those faults were a third of the writer's CPU per record).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "trace/nvtrace_fmt.h"

/* Pages of p[0..n) that mincore(2) says are not resident: a count, or -1 if it failed. */
static long absent_pages(const void *p, size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
	size_t len = (uintptr_t)p + n - a, np = (len + pg - 1) / pg;
	unsigned char *v = malloc(np);
	long absent = 0;

	if (!v || mincore((void *)a, len, v)) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < np; i++)
		absent += !(v[i] & 1);
	free(v);
	return absent;
}

/* Every page of the scratch space in, for each codec. */
static void resident(int codec)
{
	const unsigned n = 65536;
	struct nvt_encoder e;

	CHECK_EQ_I64(nvt_encoder_init(&e, codec, 1, n), 0);
	CHECK_EQ_I64(absent_pages(e.tmp, NVT_ENCODE_TMP(n) * sizeof(*e.tmp)), 0);
	nvt_encoder_free(&e);
}

TEST(zstd_scratch_resident)
{
	resident(NVT_CODEC_ZSTD);
}

TEST(zlib_scratch_resident)
{
	resident(NVT_CODEC_ZLIB);
}

int main(void)
{
	RUN(zstd_scratch_resident);
	RUN(zlib_scratch_resident);
	return check_summary();
}
