/*
 * test_trace_alloc.c - the trace encoder allocates nothing after init.
 *
 * The writer thread keeps its memory from open to close (README, "Traces";
 * the hour's soak checks fio's RSS).  An allocation in the steady state,
 * even one freed again, lets the thread's malloc arena grow and fragment
 * over an hour: libzstd's own context, for one, frees its workspace after
 * 128 blocks much smaller than it (flushes of a few records) and allocates
 * it again for the next full block.  This program defines malloc and its
 * kin itself, so that every allocation in the process (libzstd's and
 * zlib's included) is counted, and encodes full blocks and runs of tiny
 * ones with each codec: after the first round, none may allocate.
 *
 * Under AddressSanitizer (make asan) the allocator is ASan's and cannot be
 * replaced: the program skips (exit 77).
 */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_COUNTABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOC_COUNTABLE 0
#endif
#endif
#ifndef ALLOC_COUNTABLE
#define ALLOC_COUNTABLE 1
#endif

static atomic_ulong allocs;	/* allocations since the last alloc_count_reset() */

static void alloc_count_reset(void)
{
	atomic_store(&allocs, 0);
}

#if ALLOC_COUNTABLE
/* glibc's allocator under its exported names; these wrappers count calls. */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

void *malloc(size_t n)
{
	atomic_fetch_add(&allocs, 1);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	atomic_fetch_add(&allocs, 1);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	atomic_fetch_add(&allocs, 1);
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	atomic_fetch_add(&allocs, 1);
	return __libc_memalign(align, n);
}

int posix_memalign(void **p, size_t align, size_t n)
{
	atomic_fetch_add(&allocs, 1);
	*p = __libc_memalign(align, n);
	return *p ? 0 : ENOMEM;
}

void free(void *p)
{
	__libc_free(p);
}
#endif

#define FULL	65536u	/* the writer's default block_records */
#define TINY	3u	/* a flush of a few records */
#define ROUNDS	3
#define TINY_RUN 300	/* more than libzstd's 128 calls before it shrinks */

/*
 * Encode ROUNDS rounds of: a full block, TINY_RUN tiny blocks, a full block,
 * with codec at level; count the allocations of every round after the
 * first.  Return: the count, or ULONG_MAX when an encode failed.
 */
static unsigned long steady_allocs(int codec, int level)
{
	static struct nvt_record rec[FULL];
	struct nvt_encoder e;
	struct nvt_block_hdr h;
	struct gen g;
	unsigned long n = 0;
	uint32_t seq = 0;
	int err = 0;

	gen_init(&g, GEN_RANDREAD, 64, 7);
	for (unsigned i = 0; i < FULL; i++)
		gen_record(&g, &rec[i]);
	if (nvt_encoder_init(&e, codec, level, FULL))
		return ULONG_MAX;
	for (int round = 0; round < ROUNDS && !err; round++) {
		alloc_count_reset();
		err = nvt_encoder_block(&e, rec, FULL, seq++, &h);
		for (int i = 0; i < TINY_RUN && !err; i++)
			err = nvt_encoder_block(&e, rec + i * TINY, TINY, seq++, &h);
		if (!err)
			err = nvt_encoder_block(&e, rec, FULL, seq++, &h);
		if (round)
			n += atomic_load(&allocs);
	}
	nvt_encoder_free(&e);
	return err ? ULONG_MAX : n;
}

/* The zstd encoder (the default codec) at level 1 and at a slow level. */
TEST(zstd_steady_state_allocates_nothing)
{
	CHECK_EQ_U64(steady_allocs(NVT_CODEC_ZSTD, 1), 0);
	CHECK_EQ_U64(steady_allocs(NVT_CODEC_ZSTD, 9), 0);
}

TEST(zlib_steady_state_allocates_nothing)
{
	CHECK_EQ_U64(steady_allocs(NVT_CODEC_ZLIB, 1), 0);
	CHECK_EQ_U64(steady_allocs(NVT_CODEC_ZLIB, 6), 0);
}

/* The counter counts (a test of the test): init allocates. */
TEST(counter_sees_allocations)
{
	struct nvt_encoder e;

	alloc_count_reset();
	CHECK_EQ_I64(nvt_encoder_init(&e, NVT_CODEC_ZSTD, 1, FULL), 0);
	CHECK(atomic_load(&allocs) > 0);
	nvt_encoder_free(&e);
}

int main(void)
{
	if (!ALLOC_COUNTABLE)
		return 77;
	RUN(counter_sees_allocations);
	RUN(zstd_steady_state_allocates_nothing);
	RUN(zlib_steady_state_allocates_nothing);
	return check_summary();
}
