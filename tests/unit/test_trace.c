/*
 * test_trace.c - the trace writer and reader end to end: round trips across
 * many blocks and every codec, the encoder's blocks, header and footer
 * pairs, size per IO, column decoding, seeking by time and the index.
 * Damaged files: test_trace_damage.c; the writer under errors and load:
 * test_trace_writer.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_CCtx_getParameter */
#include <zstd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_roundtrip.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

static void roundtrip(enum gen_pattern pat, unsigned qd, size_t n, unsigned block_records)
{
	struct nvt_writer_opts o = { .block_records = block_records };
	struct nvt_record *want = NULL;
	struct nvt_read_info info;
	const char *p = tpath("rt.nvt");
	int rc = 0;
	long got;

	CHECK_EQ_I64(write_trace(p, pat, qd, 42 + pat, n, &o, &want), 0);
	got = read_compare(p, want, n, &rc, &info);
	CHECK_EQ_I64(got, (long)n);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(info.footer, 1);
	CHECK_EQ_I64(info.truncated, 0);
	CHECK_EQ_U64(info.unused_bytes, 0);
	CHECK_EQ_U64(info.records, n);
	CHECK_EQ_U64(info.blocks, (n + block_records - 1) / block_records);
	free(want);
}

TEST(roundtrip_randread)
{
	roundtrip(GEN_RANDREAD, 32, 200000, 4096);
}

TEST(looks_random)
{
	enum { N = NVT_RANDOM_WINDOW };
	static uint8_t b[N];
	struct gen_rng g = { 7 };

	for (size_t i = 0; i < N; i++)
		b[i] = (uint8_t)gen_next(&g);
	CHECK(nvt_looks_random(b, N));
	CHECK(!nvt_looks_random(b, 1000));		/* too few samples */
	for (size_t i = 0; i < N; i++)
		b[i] = (uint8_t)(gen_next(&g) & 63);	/* 64 values: 6 bits */
	CHECK(!nvt_looks_random(b, N));
	for (size_t i = 0; i < N; i += 2)		/* pairs: runs for Z_RLE */
		b[i] = b[i + 1] = (uint8_t)gen_next(&g);
	CHECK(!nvt_looks_random(b, N));
	memset(b, 0, N);
	CHECK(!nvt_looks_random(b, N));
}

/*
 * Encode one block of n records of pattern pat at level; check that the
 * payload inflates to exactly the raw columns, and return the raw bytes
 * the encoder sent as stored blocks.
 */
static size_t encode_inflate(enum gen_pattern pat, int level, unsigned n)
{
	struct nvt_record *r = malloc(n * sizeof(*r));
	struct nvt_encoder e;
	struct nvt_block_hdr h;
	struct gen g;
	uint8_t *out = NULL;
	uLongf outlen = 0;
	size_t stored = (size_t)-1;

	CHECK(r != NULL);
	if (!r)
		return stored;
	gen_init(&g, pat, 32, 5);
	for (unsigned i = 0; i < n; i++)
		gen_record(&g, &r[i]);
	CHECK_EQ_I64(nvt_encoder_init(&e, NVT_CODEC_ZLIB, level, n), 0);
	/* twice: the second block starts from the level the first ended at */
	for (int k = 0; k < 2; k++) {
		CHECK_EQ_I64(nvt_encoder_block(&e, r, n, 0, &h), 0);
		outlen = h.raw_len;
		out = malloc(outlen);
		CHECK(out != NULL);
		CHECK_EQ_I64(uncompress(out, &outlen, e.comp.p, h.comp_len), Z_OK);
		CHECK_EQ_I64(outlen, h.raw_len);
		CHECK(memcmp(out, e.raw.p, h.raw_len) == 0);
		free(out);
	}
	stored = e.stored_bytes;
	nvt_encoder_free(&e);
	free(r);
	return stored;
}

TEST(encoder_stored_windows)
{
	/* 4k random offsets over 1 GiB: two random low-byte planes of 64 KiB */
	CHECK(encode_inflate(GEN_RANDREAD, 1, 65536) >= 6 * NVT_RANDOM_WINDOW);
	CHECK_EQ_I64(encode_inflate(GEN_RANDREAD, 6, 65536), 0);
	CHECK_EQ_I64(encode_inflate(GEN_RANDREAD, 1, 1000), 0);	/* under two windows */
	encode_inflate(GEN_SEQWRITE, 1, 65536);
	encode_inflate(GEN_MIXED, 1, 65536);
	encode_inflate(GEN_MIXED, 9, 65536);
}

/* Every block codec the writer can choose: each block's header names it. */
static void roundtrip_codec(enum nvt_writer_codec codec, uint8_t want_codec, unsigned minor)
{
	struct nvt_writer_opts o = { .block_records = 5000, .codec = codec };
	struct nvt_record *want = NULL;
	const char *p = tpath("codec.nvt");
	struct nvt_block_hdr h;
	const char *why = "";
	uint8_t hb[NVT_BLOCK_HDR_LEN];
	uint32_t kv_len = 0;
	int rc = 0, fd;

	CHECK_EQ_I64(write_trace(p, GEN_MIXED, 16, 9, 23456, &o, &want), 0);
	CHECK_EQ_I64(read_compare(p, want, 23456, &rc, NULL), 23456);
	CHECK_EQ_I64(rc, 0);
	/* the first block header follows the file header and its CRC */
	fd = open(p, O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ_I64(pread(fd, hb, 2, 10), 2);
	CHECK_EQ_U64(nvt_get16(hb), minor);	/* the oldest version with the codec */
	CHECK_EQ_I64(pread(fd, &kv_len, 4, 12), 4);
	CHECK_EQ_I64(pread(fd, hb, sizeof(hb), NVT_FILE_HDR_FIXED + kv_len + 4), (long)sizeof(hb));
	close(fd);
	CHECK_EQ_I64(nvt_block_hdr_unpack(hb, &h, &why), 0);
	CHECK_EQ_I64(h.codec, want_codec);
	free(want);
}

TEST(roundtrip_zstd_and_zlib)
{
	roundtrip_codec(NVT_WRITER_ZSTD, NVT_CODEC_ZSTD, 2);
	roundtrip_codec(NVT_WRITER_ZLIB, NVT_CODEC_ZLIB, 1);
}

/* A zstd block: one frame with its content size that decompresses to the raw payload. */
TEST(encoder_zstd_frame)
{
	const unsigned n = 65536;
	struct nvt_record *r = malloc(n * sizeof(*r));
	struct nvt_encoder e;
	struct nvt_block_hdr h;
	uint8_t *out;
	struct gen g;

	CHECK(r != NULL);
	if (!r)
		return;
	gen_init(&g, GEN_RANDREAD, 32, 3);
	for (unsigned i = 0; i < n; i++)
		gen_record(&g, &r[i]);
	CHECK_EQ_I64(nvt_encoder_init(&e, NVT_CODEC_ZSTD, 1, n), 0);
	CHECK_EQ_I64(nvt_encoder_block(&e, r, n, 7, &h), 0);
	CHECK_EQ_I64(h.codec, NVT_CODEC_ZSTD);
	CHECK_EQ_I64(h.seq, 7);
	CHECK_EQ_U64(ZSTD_findFrameCompressedSize(e.comp.p, h.comp_len), h.comp_len);
	CHECK_EQ_U64(ZSTD_getFrameContentSize(e.comp.p, h.comp_len), h.raw_len);
	out = malloc(h.raw_len);
	CHECK(out != NULL);
	CHECK_EQ_U64(ZSTD_decompress(out, h.raw_len, e.comp.p, h.comp_len), h.raw_len);
	CHECK(memcmp(out, e.raw.p, h.raw_len) == 0);
	/* the size goal holds with zstd too: about 5.5 bytes per 4k randread record */
	CHECK((double)(h.comp_len + NVT_BLOCK_HDR_LEN) / n <= 6.0);
	/* level 1: zstd's fastest search, literals still Huffman-coded */
	{
		int v = 0;

		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_compressionLevel, &v)));
		CHECK_EQ_I64(v, -100);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_literalCompressionMode,
							   &v)));
		CHECK_EQ_I64(v, ZSTD_ps_enable);
		/* 7-byte matches from a 64-entry table: the narrow planes' repeats */
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_minMatch, &v)));
		CHECK_EQ_I64(v, 7);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_hashLog, &v)));
		CHECK_EQ_I64(v, 6);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_checksumFlag, &v)));
		CHECK_EQ_I64(v, 0);
		nvt_encoder_free(&e);
		CHECK_EQ_I64(nvt_encoder_init(&e, NVT_CODEC_ZSTD, 3, n), 0);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_compressionLevel, &v)));
		CHECK_EQ_I64(v, 3);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_literalCompressionMode,
							   &v)));
		CHECK_EQ_I64(v, ZSTD_ps_auto);
		CHECK(!ZSTD_isError(ZSTD_CCtx_getParameter(e.zc, ZSTD_c_checksumFlag, &v)));
		CHECK_EQ_I64(v, 0);
		CHECK_EQ_I64(nvt_encoder_block(&e, r, n, 8, &h), 0);
		CHECK_EQ_U64(ZSTD_decompress(out, h.raw_len, e.comp.p, h.comp_len), h.raw_len);
		CHECK(memcmp(out, e.raw.p, h.raw_len) == 0);
	}
	nvt_encoder_free(&e);
	CHECK_EQ_I64(nvt_encoder_init(&e, 3, 1, n), -EINVAL);	/* no codec 3 */
	free(out);
	free(r);
}

/*
 * The footer's per-op totals equal the records' in blocks where op, length
 * and status are constant (the writer adds them up without a pass) and in
 * blocks where they vary.
 */
TEST(footer_totals)
{
	enum { B = 4000, N = 3 * B };
	struct nvt_writer_opts o = { .block_records = B };
	struct nvt_totals want[NVT_OP__MAX] = { { 0 } };
	const char *p = tpath("totals.nvt");
	static struct nvt_record r[N];
	const struct nvt_footer *f;
	const struct nvt_record *recs;
	struct nvt_reader *rd = NULL;
	struct nvt_writer *w;
	struct gen g;
	size_t k;

	gen_init(&g, GEN_MIXED, 8, 11);
	for (unsigned i = 0; i < N; i++) {
		gen_record(&g, &r[i]);
		if (i < B) {	/* block 0: all the same failed 8 KiB write */
			r[i].op = NVT_OP_WRITE;
			r[i].length = 8192;
			r[i].status = -5;
		} else if (i < 2 * B) {	/* block 1: all the same good 4 KiB read */
			r[i].op = NVT_OP_READ;
			r[i].length = 4096;
			r[i].status = 0;
		}	/* block 2: mixed */
		want[r[i].op].records++;
		want[r[i].op].bytes += r[i].length;
		want[r[i].op].errors += r[i].status != 0;
	}
	CHECK_EQ_I64(nvt_writer_open(&w, p, NULL, 0, &o), 0);
	for (unsigned i = 0; i < N; i++)
		CHECK_EQ_I64(nvt_writer_append(w, &r[i]), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(nvt_reader_open(&rd, p), 0);
	if (rd) {	/* the footer's count before the blocks (a progress total) */
		uint64_t total = 0;

		CHECK_EQ_I64(nvt_reader_footer_records(rd, &total), 0);
		CHECK_EQ_U64(total, N);
	}
	while (rd && nvt_reader_next_block(rd, &recs, &k) == 1)
		;
	f = rd ? nvt_reader_footer(rd) : NULL;
	CHECK(f != NULL);
	for (unsigned op = 0; f && op < NVT_OP__MAX; op++) {
		CHECK_EQ_U64(f->op[op].records, want[op].records);
		CHECK_EQ_U64(f->op[op].bytes, want[op].bytes);
		CHECK_EQ_U64(f->op[op].errors, want[op].errors);
	}
	nvt_reader_close(rd);
}

TEST(roundtrip_seqwrite)
{
	roundtrip(GEN_SEQWRITE, 4, 100000, 1000);
}

TEST(roundtrip_mixed)
{
	roundtrip(GEN_MIXED, 64, 150000, 777);
	roundtrip(GEN_MIXED, 1, 10, 1);		/* one record per block */
}

/* Extreme field values, including time going backwards and u64 wrap. */
TEST(roundtrip_extremes)
{
	struct nvt_record rec[6] = {
		{ 0, 0, 0, 0, 0, 0, 0, 0 },
		{ UINT64_MAX, 0, UINT64_MAX, UINT32_MAX, INT32_MIN, UINT16_MAX, NVT_OP_VERIFY,
		  255 },
		{ 5, 5000000000ull, 1, 1, INT32_MAX, 1, NVT_OP_TRIM, 1 },
		{ 1ull << 63, 7, (1ull << 63) + 4096, 4096, -5, 2, NVT_OP_UNCOR, 0 },
		{ 100, 50, 4096, 0, 0, 3, NVT_OP_FLUSH, 0 },
		{ 3, UINT64_MAX, 0, 4096, 0x4281, 4, NVT_OP_ZEROES, 2 },
	};
	struct nvt_writer *w;
	struct nvt_read_info info;
	const char *p = tpath("ext.nvt");
	int rc = 0;

	CHECK_EQ_I64(nvt_writer_open(&w, p, NULL, 0, NULL), 0);
	for (int i = 0; i < 6; i++)
		CHECK_EQ_I64(nvt_writer_append(w, &rec[i]), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(read_compare(p, rec, 6, &rc, &info), 6);
	CHECK_EQ_I64(rc, 0);
	/* time-based sealing: completion times jump, so several blocks */
	CHECK(info.blocks > 1);
}

/* Empty trace: header and footer only. */
TEST(empty_trace)
{
	struct nvt_writer *w;
	struct nvt_read_info info;
	int rc = 0;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("empty.nvt"), hdr_kv, 5, NULL), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(read_compare(tpath("empty.nvt"), NULL, 0, &rc, &info), 0);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(info.footer, 1);
	CHECK_EQ_U64(info.blocks, 0);
}

TEST(header_footer_kv)
{
	struct nvt_reader *r;
	const struct nvt_record *recs;
	const struct nvt_footer *f;
	size_t n;
	int err;

	CHECK_EQ_I64(write_trace(tpath("kv.nvt"), GEN_MIXED, 8, 7, 5000, NULL, NULL), 0);
	CHECK_EQ_I64(nvt_reader_open(&r, tpath("kv.nvt")), 0);
	CHECK_EQ_U64(nvt_reader_nkv(r), 5);
	CHECK_STR(nvt_reader_get(r, "job.name"), "randread");
	CHECK_STR(nvt_reader_get(r, "empty"), "");
	CHECK(nvt_reader_get(r, "nope") == NULL);
	CHECK(nvt_reader_footer(r) == NULL);
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1)
		;
	CHECK_EQ_I64(err, 0);
	f = nvt_reader_footer(r);
	CHECK(f != NULL);
	if (f) {
		uint64_t sum = 0;

		CHECK_EQ_U64(f->records, 5000);
		for (int i = 0; i < NVT_OP__MAX; i++)
			sum += f->op[i].records;
		CHECK_EQ_U64(sum, 5000);
		/*
		 * the caller's pair, then the writer thread's own CPU time, waits,
		 * syncs, where its time went, the ring, its buffer and its class
		 */
		CHECK_EQ_U64(f->nkv, 18);
		if (f->nkv == 18) {
			char *end;

			CHECK_STR(f->kv[0].value, "310");
			CHECK_STR(f->kv[1].key, "writer.cpu_ns");
			CHECK(strtoull(f->kv[1].value, &end, 10) > 0 && !*end);
			CHECK_STR(f->kv[2].key, "writer.io_waits");
			CHECK_STR(f->kv[3].key, "writer.io_wait_ns");
			CHECK_STR(f->kv[4].key, "writer.sync_ms");
			CHECK_STR(f->kv[4].value, "0");
			CHECK_STR(f->kv[5].key, "writer.syncs");
			CHECK_STR(f->kv[5].value, "0");
			CHECK_STR(f->kv[6].key, "writer.write_ns");
			CHECK(strtoull(f->kv[6].value, &end, 10) > 0 && !*end);
			CHECK_STR(f->kv[7].key, "writer.fdatasync_ns");
			CHECK_STR(f->kv[7].value, "0");
			CHECK_STR(f->kv[8].key, "writer.runq_wait_ns");
			CHECK_STR(f->kv[9].key, "writer.ring_high");
			CHECK(strtoull(f->kv[9].value, &end, 10) >= 1 && !*end);
			CHECK_STR(f->kv[10].key, "writer.ring_chunks");
			CHECK_STR(f->kv[10].value, "4");
			CHECK_STR(f->kv[11].key, "writer.promotions");
			CHECK_STR(f->kv[12].key, "writer.buffer_ms");
			CHECK_STR(f->kv[12].value, "0");	/* the library's default */
			CHECK_STR(f->kv[13].key, "writer.ring_max");
			CHECK_STR(f->kv[14].key, "writer.ring_grow_ns");
			CHECK_STR(f->kv[15].key, "writer.fdatasync_max_ns");
			CHECK_STR(f->kv[15].value, "0");
			CHECK_STR(f->kv[16].key, "writer.sched");
			CHECK_STR(f->kv[16].value, "normal");
			CHECK_STR(f->kv[17].key, "writer.sched_effective");
		}
		CHECK(f->nindex >= 1);
	}
	nvt_reader_close(r);
}

/*
 * Bytes per IO for 4k randread over 1 GiB at QD 32: the bound is 6.
 * The stream is deterministic, so the size is too.
 */
TEST(size_randread_1g)
{
	const char *p = tpath("size.nvt");
	const size_t n = 1000000;
	struct stat st;
	double bpio;

	CHECK_EQ_I64(write_trace(p, GEN_RANDREAD, 32, 1, n, NULL, NULL), 0);
	CHECK_EQ_I64(stat(p, &st), 0);
	bpio = (double)st.st_size / (double)n;
	printf("size: 4k randread 1 GiB qd32: %.3f bytes/IO (%lld bytes for %zu IOs)\n",
	       bpio, (long long)st.st_size, n);
	CHECK(bpio <= 6.0);
}

/* Time-based sealing and the index used for seeking. */
TEST(seek_time)
{
	struct nvt_writer_opts o = { .block_ns = 1000000 };	/* 1 ms blocks */
	struct nvt_record *want = NULL;
	struct nvt_reader *r;
	const struct nvt_record *recs;
	size_t n, nrec = 100000, first = 0;
	uint64_t t;
	int err;

	CHECK_EQ_I64(write_trace(tpath("seek.nvt"), GEN_RANDREAD, 32, 3, nrec, &o, &want), 0);
	if (!want)
		return;
	t = want[nrec / 2].complete_ns;
	CHECK_EQ_I64(nvt_reader_open(&r, tpath("seek.nvt")), 0);
	CHECK_EQ_I64(nvt_reader_seek_time(r, t), 0);
	err = nvt_reader_next_block(r, &recs, &n);
	CHECK_EQ_I64(err, 1);
	if (err == 1) {
		/* the block starts at or before t, less than 1 ms before it */
		CHECK(recs[0].complete_ns <= t);
		CHECK(t - recs[0].complete_ns < 1000000);
		while (first < nrec && !rec_eq(&want[first], &recs[0]))
			first++;
		CHECK(first < nrec);
	}
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1)
		;
	CHECK_EQ_I64(err, 0);
	nvt_reader_close(r);
	free(want);
}

/* Many blocks: the index stays bounded and its stride grows. */
TEST(index_bounded)
{
	struct nvt_writer_opts o = { .block_records = 1 };
	struct nvt_reader *r;
	const struct nvt_record *recs;
	const struct nvt_footer *f;
	size_t n;
	int err;

	CHECK_EQ_I64(write_trace(tpath("idx.nvt"), GEN_RANDREAD, 4, 3, 3 * NVT_INDEX_MAX + 5, &o,
				 NULL), 0);
	CHECK_EQ_I64(nvt_reader_open(&r, tpath("idx.nvt")), 0);
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1)
		;
	CHECK_EQ_I64(err, 0);
	f = nvt_reader_footer(r);
	CHECK(f != NULL);
	if (f) {
		CHECK(f->nindex <= NVT_INDEX_MAX);
		CHECK_EQ_U64(f->index_stride, 4);
		for (uint32_t i = 0; i < f->nindex; i++)
			CHECK_EQ_U64(f->index[i].seq, i * f->index_stride);
	}
	nvt_reader_close(r);
}

/* Record i of recs and value i of the wanted columns c agree. */
static int col_eq(const struct nvt_cols *c, unsigned want, size_t i, const struct nvt_record *x)
{
	return c->complete_ns[i] == x->complete_ns &&
	       (!(want & NVT_COL_LATENCY) || c->latency_ns[i] == x->complete_ns - x->submit_ns) &&
	       (!(want & NVT_COL_OFFSET) || c->offset[i] == x->offset) &&
	       (!(want & NVT_COL_LENGTH) || c->length[i] == x->length) &&
	       (!(want & NVT_COL_STATUS) || c->status[i] == x->status) &&
	       (!(want & NVT_COL_QD) || c->qd[i] == x->qd) &&
	       (!(want & NVT_COL_OP) || c->op[i] == x->op) &&
	       (!(want & NVT_COL_FILE) || c->file[i] == x->file);
}

/* The uniform bits are true: every value of such a column equals value 0. */
static int uniform_ok(const struct nvt_cols *c)
{
	for (size_t i = 1; i < c->n; i++)
		if (((c->uniform & NVT_COL_LATENCY) && c->latency_ns[i] != c->latency_ns[0]) ||
		    ((c->uniform & NVT_COL_OFFSET) && c->offset[i] != c->offset[0]) ||
		    ((c->uniform & NVT_COL_LENGTH) && c->length[i] != c->length[0]) ||
		    ((c->uniform & NVT_COL_STATUS) && c->status[i] != c->status[0]) ||
		    ((c->uniform & NVT_COL_QD) && c->qd[i] != c->qd[0]) ||
		    ((c->uniform & NVT_COL_OP) && c->op[i] != c->op[0]) ||
		    ((c->uniform & NVT_COL_FILE) && c->file[i] != c->file[0]))
			return 0;
	return 1;
}

/*
 * nvt_reader_next_cols equals nvt_reader_next_block value for value, for
 * every pattern (absolute and delta offsets, constant and varying columns),
 * with a random set of columns per block and the two calls mixed on one
 * reader; unwanted columns are NULL.
 */
TEST(cols_equal_records)
{
	struct gen_rng rng = { 4242 };

	for (unsigned pat = GEN_RANDREAD; pat <= GEN_MIXED; pat++) {
		struct nvt_writer_opts o = { .block_records = 1000 + 777 * pat };
		struct nvt_record *want = NULL;
		struct nvt_reader *r = NULL;
		const char *p = tpath("cols.nvt");
		const size_t n = 20000;
		size_t got = 0;
		int err, bad = 0;

		CHECK_EQ_I64(write_trace(p, pat, 16, 7 + pat, n, &o, &want), 0);
		CHECK_EQ_I64(nvt_reader_open(&r, p), 0);
		for (;;) {
			unsigned w = (unsigned)gen_below(&rng, NVT_COL_ALL + 1);
			const struct nvt_cols *c;
			const struct nvt_record *recs;
			size_t k;

			if (gen_below(&rng, 4) == 0) {	/* now and then a records block */
				if ((err = nvt_reader_next_block(r, &recs, &k)) != 1)
					break;
				for (size_t i = 0; i < k; i++)
					bad += got + i >= n || !rec_eq(&recs[i], &want[got + i]);
				got += k;
				continue;
			}
			if ((err = nvt_reader_next_cols(r, w, &c)) != 1)
				break;
			bad += !uniform_ok(c) || (c->uniform & ~w);
			bad += !(w & NVT_COL_LATENCY) != !c->latency_ns ||
			       !(w & NVT_COL_OFFSET) != !c->offset ||
			       !(w & NVT_COL_LENGTH) != !c->length ||
			       !(w & NVT_COL_STATUS) != !c->status ||
			       !(w & NVT_COL_QD) != !c->qd || !(w & NVT_COL_OP) != !c->op ||
			       !(w & NVT_COL_FILE) != !c->file;
			for (size_t i = 0; i < c->n; i++)
				bad += got + i >= n || !col_eq(c, w, i, &want[got + i]);
			got += c->n;
		}
		CHECK_EQ_I64(err, 0);
		CHECK_EQ_U64(got, n);
		CHECK_EQ_I64(bad, 0);
		nvt_reader_close(r);
		free(want);
	}
}

/*
 * A block's columns say whether its completions go back within it (a
 * negative delta), the order check of pass 1 that no longer reads them.
 */
TEST(cols_back)
{
	static const uint64_t cpl[2][5] = {
		{ 1000, 2000, 2000, 3000, 9000 },	/* ties and steps: in order */
		{ 1000, 2000, 1999, 3000, 9000 },	/* one a ns before the one before it */
	};

	for (int k = 0; k < 2; k++) {
		struct nvt_record rec[5];
		uint64_t tmp[NVT_ENCODE_TMP(5)], out_c[5], out_l[5], lo, hi;
		uint8_t op[5];
		struct nvt_cols c = { .complete_ns = out_c, .latency_ns = out_l, .op = op };
		struct nvt_buf raw = { 0 };
		const char *why;

		for (int i = 0; i < 5; i++)
			rec[i] = (struct nvt_record){ .submit_ns = cpl[k][i] - 500,
						      .complete_ns = cpl[k][i], .length = 4096,
						      .qd = 1, .op = NVT_OP_READ };
		CHECK_EQ_I64(nvt_encode_records(rec, 5, tmp, &raw, &lo, &hi), 0);
		CHECK_EQ_I64(nvt_decode_cols(raw.p, raw.len, 5, NVT_COL_LATENCY | NVT_COL_OP, tmp,
					     &c, &why), 0);
		CHECK_EQ_I64(c.back, k);
		CHECK_EQ_U64(c.min_complete_ns, 1000);
		CHECK_EQ_U64(c.max_complete_ns, 9000);
		nvt_buf_free(&raw);
	}
}

/*
 * The column decoder accepts and rejects exactly the payloads the record
 * decoder does (mutated and cut payloads of every pattern, any set of
 * columns), and what it accepts equals the records.
 */
TEST(decode_cols_garbage)
{
	struct gen_rng rng = { 31337 };
	enum { N = 300 };
	struct nvt_record rec[N], out[N];
	uint64_t tmp[NVT_ENCODE_TMP(N)], lat[N], off[N], cpl[N], lo, hi;
	uint32_t len[N];
	int32_t st[N];
	uint16_t qd[N];
	uint8_t op[N], file[N], m[N * 44 + 256];
	struct nvt_cols c = { .complete_ns = cpl, .latency_ns = lat, .offset = off, .length = len,
			      .status = st, .qd = qd, .op = op, .file = file };
	int ok = 0, rejected = 0, differ = 0;

	for (unsigned pat = GEN_RANDREAD; pat <= GEN_MIXED; pat++) {
		struct nvt_buf raw = { 0 };
		struct gen g;

		gen_init(&g, pat, 8, 3 + pat);
		for (int i = 0; i < N; i++)
			gen_record(&g, &rec[i]);
		CHECK_EQ_I64(nvt_encode_records(rec, N, tmp, &raw, &lo, &hi), 0);
		for (int round = 0; round < 6000; round++) {
			size_t mlen = raw.len, nrec = round % 5 ? N : 1 + gen_below(&rng, N);
			unsigned want = (unsigned)gen_below(&rng, NVT_COL_ALL + 1);
			const char *why1, *why2;
			int e1, e2;

			memcpy(m, raw.p, raw.len);
			for (size_t k = round % 7 ? 1 + gen_below(&rng, 3) : 0; k; k--)
				m[gen_below(&rng, mlen)] = (uint8_t)gen_next(&rng);
			if (gen_below(&rng, 4) == 0)
				mlen = gen_below(&rng, mlen + 1);
			e1 = nvt_decode_records(m, mlen, nrec, tmp, out, NULL, NULL, &why1);
			e2 = nvt_decode_cols(m, mlen, nrec, want, tmp, &c, &why2);
			differ += e1 != e2 || (e1 && strcmp(why1, why2));
			if (e1 || e2) {
				rejected++;
				continue;
			}
			ok++;
			differ += c.n != nrec;
			for (size_t i = 0; i < nrec; i++)
				differ += !col_eq(&c, want, i, &out[i]);
		}
		nvt_buf_free(&raw);
	}
	CHECK_EQ_I64(differ, 0);
	CHECK(ok > 1000);
	CHECK(rejected > 1000);
}

TEST(op_names)
{
	CHECK_STR(nvt_op_name(NVT_OP_READ), "read");
	CHECK_STR(nvt_op_name(NVT_OP_ZEROES), "zeroes");
	CHECK_STR(nvt_op_name(NVT_OP_VERIFY), "verify");
	CHECK(nvt_op_name(NVT_OP__MAX) == NULL);
	CHECK_EQ_I64(nvt_op_parse("uncor"), NVT_OP_UNCOR);
	CHECK_EQ_I64(nvt_op_parse("bogus"), -1);
}

/*
 * Readers lent one scratch in turn, a block each (zstd and zlib traces,
 * one decompressor of each kind in the scratch): every record as written,
 * as each reading with its own buffers.
 */
TEST(readers_share_scratch)
{
	static const enum nvt_writer_codec codec[2] = { NVT_WRITER_ZSTD, NVT_WRITER_ZLIB };
	struct nvt_record *want[2] = { NULL, NULL };
	struct nvt_reader *r[2] = { NULL, NULL };
	struct nvt_scratch scr = { 0 };
	size_t got[2] = { 0, 0 }, bad = 0;
	int done[2] = { 0, 0 };
	char name[32];

	for (unsigned k = 0; k < 2; k++) {
		struct nvt_writer_opts o = { .block_records = 3000 + 1000 * k, .codec = codec[k] };

		snprintf(name, sizeof(name), "share%u.nvt", k);
		CHECK_EQ_I64(write_trace(tpath(name), GEN_MIXED, 8, 40 + k, 20000, &o, &want[k]),
			     0);
		CHECK_EQ_I64(nvt_reader_open(&r[k], tpath(name)), 0);
	}
	while (r[0] && r[1] && !(done[0] && done[1])) {
		for (unsigned k = 0; k < 2; k++) {
			const struct nvt_record *recs;
			size_t n;
			int rc;

			if (done[k])
				continue;
			nvt_reader_scratch(r[k], &scr);
			rc = nvt_reader_next_block(r[k], &recs, &n);
			nvt_reader_scratch(r[k], NULL);
			done[k] = rc != 1;
			CHECK(rc >= 0);
			for (size_t i = 0; rc == 1 && i < n; i++, got[k]++)
				bad += got[k] >= 20000 || !rec_eq(&recs[i], &want[k][got[k]]);
		}
	}
	CHECK_EQ_U64(got[0], 20000);
	CHECK_EQ_U64(got[1], 20000);
	CHECK_EQ_U64(bad, 0);
	for (unsigned k = 0; k < 2; k++) {
		nvt_reader_close(r[k]);
		free(want[k]);
	}
	nvt_scratch_free(&scr);
}

/*
 * nvt_reader_keep_rest: a block kept from a point on (packed), given back at
 * the front by nvt_reader_unpack_rest (0 when none is held); past the end
 * is -EINVAL; the next block still reads whole, and every record read
 * across the cuts equals the one written: mixed records (offsets past 32
 * bits, every column varying) and randread's (constant columns).  A rest
 * not taken back is passed over by the next read.
 */
static void keep_rest_pattern(enum gen_pattern pat, const char *name)
{
	struct nvt_writer_opts o = { .block_records = 1000 };
	struct nvt_record *want = NULL;
	struct nvt_reader *r = NULL;
	const struct nvt_cols *c;
	size_t got = 0, bad = 0, blocks = 0;
	int rc;

	CHECK_EQ_I64(write_trace(tpath(name), pat, 8, 7, 5000, &o, &want), 0);
	CHECK_EQ_I64(nvt_reader_open(&r, tpath(name)), 0);
	while (r && (rc = nvt_reader_next_cols(r, NVT_COL_ALL, &c)) == 1) {
		size_t cut = (blocks * 337) % (c->n + 1), n = c->n;

		for (size_t i = 0; i < cut && got < 5000; i++, got++)
			bad += c->complete_ns[i] != want[got].complete_ns;
		CHECK_EQ_I64(nvt_reader_unpack_rest(r), 0);
		CHECK_EQ_I64(nvt_reader_keep_rest(r, n + 1), -EINVAL);
		CHECK_EQ_I64(nvt_reader_keep_rest(r, cut), 0);
		CHECK_EQ_I64(nvt_reader_unpack_rest(r), cut < n);	/* an empty rest: none */
		CHECK_EQ_U64(c->n, n - cut);
		for (size_t i = 0; i < c->n && got < 5000; i++, got++) {
			const struct nvt_record *w = &want[got];

			bad += c->complete_ns[i] != w->complete_ns ||
			       c->latency_ns[i] != w->complete_ns - w->submit_ns ||
			       c->offset[i] != w->offset || c->length[i] != w->length ||
			       c->qd[i] != w->qd || c->op[i] != w->op ||
			       c->status[i] != w->status || c->file[i] != w->file;
		}
		blocks++;
	}
	CHECK_EQ_U64(blocks, 5);
	CHECK_EQ_U64(got, 5000);
	CHECK_EQ_U64(bad, 0);
	nvt_reader_close(r);
	r = NULL;
	CHECK_EQ_I64(nvt_reader_open(&r, tpath(name)), 0);
	CHECK_EQ_I64(nvt_reader_next_cols(r, NVT_COL_ALL, &c), 1);
	CHECK_EQ_I64(nvt_reader_keep_rest(r, 10), 0);
	CHECK_EQ_I64(nvt_reader_next_cols(r, NVT_COL_ALL, &c), 1);
	CHECK_EQ_U64(c->n, 1000);
	CHECK_EQ_U64(c->complete_ns[0], want[1000].complete_ns);
	CHECK_EQ_I64(nvt_reader_unpack_rest(r), 0);
	CHECK_EQ_I64(nvt_reader_keep_rest(r, c->n), 0);	/* the whole block read */
	CHECK_EQ_I64(nvt_reader_unpack_rest(r), 0);
	CHECK_EQ_U64(c->n, 0);
	CHECK_EQ_I64(nvt_reader_next_cols(r, NVT_COL_ALL, &c), 1);
	CHECK_EQ_U64(c->complete_ns[0], want[2000].complete_ns);
	CHECK_EQ_I64(nvt_reader_keep_rest(r, 500), 0);
	nvt_reader_close(r);	/* a rest held at the close is freed (ASan) */
	free(want);
}

TEST(keep_rest)
{
	keep_rest_pattern(GEN_MIXED, "rest.nvt");
	keep_rest_pattern(GEN_RANDREAD, "rest_rr.nvt");
}

int main(void)
{
	if (tmpdir_make("test_trace"))
		return 1;
	RUN(op_names);
	RUN(looks_random);
	RUN(encoder_stored_windows);
	RUN(roundtrip_randread);
	RUN(roundtrip_seqwrite);
	RUN(roundtrip_zstd_and_zlib);
	RUN(footer_totals);
	RUN(encoder_zstd_frame);
	RUN(roundtrip_mixed);
	RUN(roundtrip_extremes);
	RUN(cols_equal_records);
	RUN(cols_back);
	RUN(decode_cols_garbage);
	RUN(empty_trace);
	RUN(header_footer_kv);
	RUN(size_randread_1g);
	RUN(seek_time);
	RUN(index_bounded);
	RUN(readers_share_scratch);
	RUN(keep_rest);
	tmpdir_remove();
	return check_summary();
}
