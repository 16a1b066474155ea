/*
 * test_trace_pack.c - a block's columns packed between reads and unpacked
 * bit for bit (trace/nvtrace_pack.c): constant columns, 32-bit offsets at
 * the edge of their range, columns left out, an empty rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "trace/nvtrace_pack.h"

#define N 300

/* Columns of N records, every one allocated; latency_ns spans span. */
struct cols {
	struct nvt_cols c;
	uint64_t complete[N], latency[N], offset[N];
	uint32_t length[N];
	int32_t status[N];
	uint16_t qd[N];
	uint8_t op[N], file[N];
};

static void cols_fill(struct cols *k, uint64_t span)
{
	for (size_t i = 0; i < N; i++) {
		k->complete[i] = 1000000000000ull + i * 997;
		k->latency[i] = 5000 + (i == N - 1 ? span : i * 3);
		k->offset[i] = (uint64_t)i << 40;	/* spans far beyond 32 bits */
		k->length[i] = 4096;
		k->status[i] = i % 7 ? 0 : -5;
		k->qd[i] = (uint16_t)(i % 64);
		k->op[i] = 1;
		k->file[i] = (uint8_t)(i % 3);
	}
	k->c = (struct nvt_cols){ .n = N, .uniform = NVT_COL_LENGTH | NVT_COL_OP,
				  .min_complete_ns = k->complete[0],
				  .max_complete_ns = k->complete[N - 1], .back = true,
				  .complete_ns = k->complete, .latency_ns = k->latency,
				  .offset = k->offset, .length = k->length, .status = k->status,
				  .qd = k->qd, .op = k->op, .file = k->file };
}

/* Return: the records of b that differ from a's from `from` on. */
static size_t cols_diff(const struct nvt_cols *a, size_t from, const struct nvt_cols *b)
{
	size_t bad = 0;

	for (size_t i = 0; i < b->n; i++) {
		size_t j = from + i;

		bad += a->complete_ns[j] != b->complete_ns[i] ||
		       a->latency_ns[j] != b->latency_ns[i] ||
		       (b->offset && a->offset[j] != b->offset[i]) ||
		       a->length[j] != b->length[i] || a->status[j] != b->status[i] ||
		       a->qd[j] != b->qd[i] || a->op[j] != b->op[i] ||
		       (b->file && a->file[j] != b->file[i]);
	}
	return bad;
}

/*
 * Packed from any point and unpacked: the same records, n, time range,
 * uniform and back; a latency range of exactly 2^32 - 1 and one past it
 * both come back whole (32-bit offsets, then the values as they are).
 */
TEST(roundtrip)
{
	static struct cols in, out;
	const uint64_t spans[] = { 7, UINT32_MAX - 5000, (uint64_t)UINT32_MAX + 1 };
	const size_t froms[] = { 0, 1, 150, N - 1, N };

	for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++)
		for (size_t f = 0; f < sizeof(froms) / sizeof(froms[0]); f++) {
			struct nvt_packed *p = NULL;

			cols_fill(&in, spans[s]);
			cols_fill(&out, 0);
			memset(out.latency, 0, sizeof(out.latency));
			CHECK_EQ_I64(nvt_cols_pack(&in.c, froms[f], &p), 0);
			CHECK_EQ_U64(nvt_packed_n(p), N - froms[f]);
			CHECK_EQ_U64(nvt_packed_want(p), NVT_COL_ALL);
			out.c.uniform = 0;
			out.c.back = false;
			nvt_cols_unpack(p, &out.c);
			CHECK_EQ_U64(out.c.n, N - froms[f]);
			CHECK_EQ_U64(out.c.uniform, in.c.uniform);
			CHECK_EQ_U64(out.c.min_complete_ns, in.c.min_complete_ns);
			CHECK_EQ_U64(out.c.max_complete_ns, in.c.max_complete_ns);
			CHECK(out.c.back);
			CHECK_EQ_U64(cols_diff(&in.c, froms[f], &out.c), 0);
			nvt_packed_free(p);
		}
}

/* Columns the reader was not asked for (NULL) stay out: not in want, not written. */
TEST(columns_left_out)
{
	static struct cols in, out;
	struct nvt_packed *p = NULL;

	cols_fill(&in, 100);
	in.c.offset = NULL;
	in.c.file = NULL;
	cols_fill(&out, 0);
	memset(out.offset, 0xab, sizeof(out.offset));
	CHECK_EQ_I64(nvt_cols_pack(&in.c, 10, &p), 0);
	CHECK_EQ_U64(nvt_packed_want(p), NVT_COL_ALL & ~(NVT_COL_OFFSET | NVT_COL_FILE));
	nvt_cols_unpack(p, &out.c);
	CHECK_EQ_U64(out.offset[0], 0xababababababababull);
	out.c.offset = NULL;
	out.c.file = NULL;
	CHECK_EQ_U64(cols_diff(&in.c, 10, &out.c), 0);
	nvt_packed_free(p);
	nvt_packed_free(NULL);
}

int main(void)
{
	RUN(roundtrip);
	RUN(columns_left_out);
	return check_summary();
}
