/*
 * test_trace.c - the trace writer and reader end to end: round trips across
 * many blocks, size per IO, truncation at every byte, bit flips, foreign
 * files, write errors, back-pressure with tiny chunks, seeking.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_CCtx_getParameter */
#include <zstd.h>

#include "tests/unit/check.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

static char tmpdir[256];

static const char *tpath(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	return p;
}

static const struct nvt_kv hdr_kv[] = {
	{ "job.name", "randread" },
	{ "job.number", "3" },
	{ "clock", "CLOCK_MONOTONIC" },
	{ "file.0.path", "/dev/ng0n1" },
	{ "empty", "" },
};

static const struct nvt_kv foot_kv[] = {
	{ "smart.after.temperature", "310" },
};

/* Write n generated records; return them through *out (malloc'd) if wanted. */
static int write_trace(const char *path, enum gen_pattern pat, unsigned qd, uint64_t seed,
		       size_t n, const struct nvt_writer_opts *o, struct nvt_record **out)
{
	struct nvt_writer *w;
	struct nvt_record *keep = NULL;
	struct gen g;
	int err;

	err = nvt_writer_open(&w, path, hdr_kv, 5, o);
	if (err)
		return err;
	if (out) {
		keep = malloc((n ? n : 1) * sizeof(*keep));
		if (!keep) {
			nvt_writer_close(w, NULL, 0);
			return -ENOMEM;
		}
	}
	gen_init(&g, pat, qd, seed);
	for (size_t i = 0; i < n; i++) {
		struct nvt_record r;

		gen_record(&g, &r);
		if (keep)
			keep[i] = r;
		err = nvt_writer_append(w, &r);
		if (err)
			break;
	}
	if (err)
		nvt_writer_close(w, foot_kv, 1);
	else
		err = nvt_writer_close(w, foot_kv, 1);
	if (out)
		*out = keep;
	return err;
}

static int rec_eq(const struct nvt_record *a, const struct nvt_record *b)
{
	return a->submit_ns == b->submit_ns && a->complete_ns == b->complete_ns &&
	       a->offset == b->offset && a->length == b->length && a->status == b->status &&
	       a->qd == b->qd && a->op == b->op && a->file == b->file;
}

/*
 * Read path completely, comparing each record with want[] (unless NULL).  Returns the
 * number of records read and matching, or -1 at the first differing record.
 * *rc gets the reader's final return (0 or -errno).
 */
static long read_compare(const char *path, const struct nvt_record *want, size_t nwant,
			 int *rc, struct nvt_read_info *info)
{
	struct nvt_reader *r;
	const struct nvt_record *recs;
	size_t n, got = 0;
	int err;

	err = nvt_reader_open(&r, path);
	if (err) {
		*rc = err;
		if (info)
			memset(info, 0, sizeof(*info));
		nvt_reader_close(r);
		return 0;
	}
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1) {
		for (size_t i = 0; i < n; i++, got++)
			if (want && (got >= nwant || !rec_eq(&recs[i], &want[got]))) {
				nvt_reader_close(r);
				return -1;
			}
	}
	*rc = err;
	if (info)
		nvt_reader_info(r, info);
	nvt_reader_close(r);
	return (long)got;
}

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

static int slurp(const char *path, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf || read(fd, *buf, *len) != (ssize_t)*len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int spit(const char *path, const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, buf, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

/* Small trace with several blocks, for the byte-level tests. */
static int small_trace(const char *p, struct nvt_record **want, size_t *n, uint8_t **buf,
		       size_t *len)
{
	struct nvt_writer_opts o = { .block_records = 7 };

	*n = 40;
	if (write_trace(p, GEN_MIXED, 4, 99, *n, &o, want))
		return -1;
	return slurp(p, buf, len);
}

TEST(truncate_every_byte)
{
	struct nvt_record *want = NULL;
	uint8_t *buf = NULL;
	size_t n, len;
	const char *p = tpath("cut.nvt");
	uint64_t hdr_end = 0;
	int bad = 0;

	CHECK_EQ_I64(small_trace(tpath("small.nvt"), &want, &n, &buf, &len), 0);
	if (!buf)
		return;
	for (size_t cut = 0; cut < len; cut++) {
		struct nvt_read_info info;
		int rc = 0;
		long got;

		spit(p, buf, cut);
		got = read_compare(p, want, n, &rc, &info);
		if (rc == 0 && !hdr_end)
			hdr_end = cut;
		if (got < 0) {
			bad++;	/* wrong numbers */
			continue;
		}
		if (cut < hdr_end || (!hdr_end && rc != 0)) {
			/* inside the file header: an error, never records */
			if (got != 0 || rc == 0)
				bad++;
			continue;
		}
		/* complete blocks only, the rest reported, never a footer */
		if (rc != 0 || info.footer || !info.truncated ||
		    (uint64_t)got != info.records || info.used_bytes + info.unused_bytes != cut ||
		    (got % 7 && (size_t)got != n))
			bad++;
	}
	CHECK(hdr_end > 0);
	CHECK_EQ_I64(bad, 0);
	spit(p, buf, len - 1);	/* no footer: no total to give */
	{
		struct nvt_reader *rd = NULL;
		uint64_t total = 7;

		CHECK_EQ_I64(nvt_reader_open(&rd, p), 0);
		CHECK(rd && nvt_reader_footer_records(rd, &total) == -ENOENT && total == 7);
		nvt_reader_close(rd);
	}
	free(want);
	free(buf);
}

TEST(bit_flips)
{
	struct nvt_record *want = NULL;
	uint8_t *buf = NULL;
	size_t n, len;
	const char *p = tpath("flip.nvt");
	int bad = 0, errors = 0;

	CHECK_EQ_I64(small_trace(tpath("small2.nvt"), &want, &n, &buf, &len), 0);
	if (!buf)
		return;
	for (size_t at = 0; at < len; at++) {
		for (int bit = 0; bit < 8; bit += 3) {
			struct nvt_read_info info;
			int rc = 0;
			long got;

			buf[at] ^= (uint8_t)(1 << bit);
			spit(p, buf, len);
			buf[at] ^= (uint8_t)(1 << bit);
			got = read_compare(p, want, n, &rc, &info);
			if (got < 0)
				bad++;		/* a record decoded to wrong numbers */
			else if (rc == 0 && (size_t)got == n && info.footer)
				bad++;		/* the flip went unnoticed */
			else if (rc != 0)
				errors++;
		}
	}
	CHECK_EQ_I64(bad, 0);
	CHECK(errors > 0);
	free(want);
	free(buf);
}

/* The error message names the block and the offset. */
TEST(flip_message)
{
	struct nvt_record *want = NULL;
	uint8_t *buf = NULL;
	size_t n, len;
	struct nvt_reader *r;
	const struct nvt_record *recs;
	size_t k;
	int err, blocks = 0;
	uint32_t kv_len;
	size_t b1;
	char expect[700];

	CHECK_EQ_I64(small_trace(tpath("small3.nvt"), &want, &n, &buf, &len), 0);
	if (!buf)
		return;
	kv_len = nvt_get32(buf + 12);
	/* second block: after the header and the first block */
	b1 = NVT_FILE_HDR_FIXED + kv_len + 4;
	b1 += NVT_BLOCK_HDR_LEN + nvt_get32(buf + b1 + 16);
	buf[b1 + NVT_BLOCK_HDR_LEN + 3] ^= 0x10;	/* inside block 1's payload */
	spit(tpath("msg.nvt"), buf, len);
	CHECK_EQ_I64(nvt_reader_open(&r, tpath("msg.nvt")), 0);
	while ((err = nvt_reader_next_block(r, &recs, &k)) == 1)
		blocks++;
	CHECK_EQ_I64(blocks, 1);
	CHECK_EQ_I64(err, -EBADMSG);
	snprintf(expect, sizeof(expect), "%s: damaged: block 1 at offset %zu: "
		 "payload CRC mismatch", tpath("msg.nvt"), b1);
	CHECK(strcmp(nvt_reader_strerror(r), expect) == 0);
	nvt_reader_close(r);
	free(want);
	free(buf);
}

TEST(foreign_and_version)
{
	struct nvt_reader *r;
	uint8_t *buf = NULL;
	size_t len;
	int err;

	spit(tpath("foreign"), (const uint8_t *)"hello, this is not a trace\n", 27);
	err = nvt_reader_open(&r, tpath("foreign"));
	CHECK_EQ_I64(err, -EINVAL);
	CHECK(strstr(nvt_reader_strerror(r), "not an nvtrace file") != NULL);
	CHECK(strstr(nvt_reader_strerror(r), tpath("foreign")) != NULL);
	nvt_reader_close(r);

	err = nvt_reader_open(&r, tpath("does-not-exist"));
	CHECK_EQ_I64(err, -ENOENT);
	nvt_reader_close(r);

	CHECK_EQ_I64(write_trace(tpath("v.nvt"), GEN_RANDREAD, 2, 1, 10, NULL, NULL), 0);
	CHECK_EQ_I64(slurp(tpath("v.nvt"), &buf, &len), 0);
	if (!buf)
		return;
	nvt_put16(buf + 8, 2);	/* major 2 */
	nvt_put16(buf + 10, 0);
	spit(tpath("v2.nvt"), buf, len);
	err = nvt_reader_open(&r, tpath("v2.nvt"));
	CHECK_EQ_I64(err, -ENOTSUP);
	CHECK(strstr(nvt_reader_strerror(r), "version 2.0") != NULL);
	nvt_reader_close(r);
	free(buf);
}

/* A minor version bump is readable (forward compatible within a major). */
TEST(minor_version_readable)
{
	struct nvt_reader *r;
	uint8_t *buf = NULL;
	size_t len;
	uint32_t kv_len;

	CHECK_EQ_I64(write_trace(tpath("m.nvt"), GEN_RANDREAD, 2, 1, 10, NULL, NULL), 0);
	CHECK_EQ_I64(slurp(tpath("m.nvt"), &buf, &len), 0);
	if (!buf)
		return;
	nvt_put16(buf + 10, 7);
	kv_len = nvt_get32(buf + 12);
	nvt_put32(buf + 16 + kv_len, nvt_crc32(buf, 16 + kv_len));
	spit(tpath("m7.nvt"), buf, len);
	CHECK_EQ_I64(nvt_reader_open(&r, tpath("m7.nvt")), 0);
	nvt_reader_close(r);
	free(buf);
}

/*
 * The writer writes 1.1; a 1.0 file (the same bytes but the minor version:
 * 1.1 added only header and footer keys) still reads, record for record.
 */
TEST(reads_version_1_0)
{
	struct nvt_writer_opts zlib = { .codec = NVT_WRITER_ZLIB };
	struct nvt_record *want = NULL;
	struct nvt_read_info info;
	uint8_t *buf = NULL;
	uint32_t kv_len;
	size_t len;
	int rc = 0;

	CHECK_EQ_I64(write_trace(tpath("v11.nvt"), GEN_MIXED, 8, 3, 70000, &zlib, &want), 0);
	CHECK_EQ_I64(slurp(tpath("v11.nvt"), &buf, &len), 0);
	if (!buf || !want) {
		free(want);
		free(buf);
		return;
	}
	CHECK_EQ_U64(nvt_get16(buf + 8), 1);
	CHECK_EQ_U64(nvt_get16(buf + 10), 1);	/* zlib blocks: a 1.1 file */
	nvt_put16(buf + 10, 0);	/* 1.0 had zlib blocks only, as this trace has */
	kv_len = nvt_get32(buf + 12);
	nvt_put32(buf + 16 + kv_len, nvt_crc32(buf, 16 + kv_len));
	spit(tpath("v10.nvt"), buf, len);
	CHECK_EQ_I64(read_compare(tpath("v10.nvt"), want, 70000, &rc, &info), 70000);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_U64(info.minor, 0);
	CHECK_EQ_I64(info.footer, 1);
	free(want);
	free(buf);
}

TEST(enospc_sticky)
{
	struct nvt_writer_opts o = { .block_records = 16 };
	struct nvt_writer *w;
	struct nvt_record rec = { 1, 2, 0, 4096, 0, 1, 0, 0 };
	char msg[256];
	int err = 0;

	if (access("/dev/full", W_OK)) {
		printf("SKIP: test_trace/enospc_sticky (no /dev/full)\n");
		return;
	}
	CHECK_EQ_I64(nvt_writer_open(&w, "/dev/full", hdr_kv, 5, &o), 0);
	for (int i = 0; i < 100000 && !err; i++)
		err = nvt_writer_append(w, &rec);
	CHECK_EQ_I64(err, -ENOSPC);
	CHECK_STR(nvt_writer_strerror(w), "write /dev/full: No space left on device");
	CHECK_EQ_I64(nvt_writer_append(w, &rec), -ENOSPC);	/* sticky */
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -ENOSPC);
	CHECK_STR(msg, "write /dev/full: No space left on device");
}

TEST(open_errors)
{
	struct nvt_writer *w = (struct nvt_writer *)1;
	struct nvt_writer_opts bad = { .zlevel = 10 };
	struct nvt_kv badkv[] = { { "", "x" } };
	struct nvt_record r = { 0 };

	CHECK_EQ_I64(nvt_writer_open(&w, "/nonexistent-dir/x.nvt", NULL, 0, NULL), -ENOENT);
	CHECK(w == NULL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), NULL, 0, &bad), -EINVAL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), badkv, 1, NULL), -EINVAL);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("x.nvt"), NULL, 0, NULL), 0);
	r.op = NVT_OP__MAX;
	CHECK_EQ_I64(nvt_writer_append(w, &r), -EINVAL);
	r.op = 0;
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	/* a bad footer kv is reported, and the records still land */
	CHECK_EQ_I64(nvt_writer_close(w, badkv, 1), -EINVAL);
	{
		int rc = 1;
		struct nvt_read_info info;

		CHECK_EQ_I64(read_compare(tpath("x.nvt"), &r, 1, &rc, &info), 1);
		CHECK_EQ_I64(rc, 0);
		CHECK_EQ_I64(info.footer, 1);
	}
}

/*
 * Records written in place (nvt_append_slot, as the engine does) read back
 * as written; a chunk is sealed when full and block_ns after its first
 * completion; a record with a bad op fails the writer when its block is
 * encoded, and the slots then say so.
 */
TEST(append_slot_in_place)
{
	struct nvt_writer_opts o = { .block_records = 100, .block_ns = 70000 };
	struct nvt_record *want = malloc(20000 * sizeof(*want));
	const struct nvt_cols *c;
	struct nvt_appender *a;
	struct nvt_reader *rd;
	struct nvt_writer *w;
	unsigned full = 0, timed = 0;
	char msg[256];
	struct gen g;
	int rc = 1;

	CHECK(want != NULL);
	if (!want)
		return;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("slot.nvt"), hdr_kv, 5, &o), 0);
	a = nvt_writer_appender(w);
	gen_init(&g, GEN_MIXED, 32, 11);
	for (size_t i = 0; i < 20000; i++) {
		struct nvt_record *slot;

		gen_record(&g, &want[i]);
		slot = nvt_append_slot(a, want[i].complete_ns);
		CHECK(slot != NULL);
		if (!slot)
			break;
		*slot = want[i];
	}
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(read_compare(tpath("slot.nvt"), want, 20000, &rc, NULL), 20000);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(nvt_reader_open(&rd, tpath("slot.nvt")), 0);
	while (nvt_reader_next_cols(rd, 0, &c) == 1) {
		CHECK(c->n <= 100);
		CHECK(c->max_complete_ns - c->complete_ns[0] < 70000);
		full += c->n == 100;
		timed += c->n < 100;
	}
	nvt_reader_close(rd);
	printf("info: in-place blocks: %u full, %u sealed by time\n", full, timed);
	CHECK(full > 0 && timed > 1);

	/* a bad op, written in place: caught by the writer thread, sticky */
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("slotbad.nvt"), NULL, 0, &o), 0);
	a = nvt_writer_appender(w);
	for (size_t i = 0; i < 20000; i++) {
		struct nvt_record *slot = nvt_append_slot(a, want[i].complete_ns);

		if (!slot)
			break;
		*slot = want[i];
		if (i == 150)
			slot->op = NVT_OP__MAX;
	}
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EINVAL);
	CHECK(strstr(msg, "encode block for") && strstr(msg, "slotbad.nvt"));
	free(want);
}

/* Tiny chunks, two of them: the appender must wait for the writer thread. */
TEST(backpressure_tiny_chunks)
{
	struct nvt_writer_opts o = { .block_records = 3, .nchunks = 2, .zlevel = 9 };
	struct nvt_record *want = NULL;
	struct nvt_read_info info;
	int rc = 0;

	CHECK_EQ_I64(write_trace(tpath("bp.nvt"), GEN_MIXED, 16, 5, 30000, &o, &want), 0);
	CHECK_EQ_I64(read_compare(tpath("bp.nvt"), want, 30000, &rc, &info), 30000);
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_U64(info.blocks, 10000);
	free(want);
}

/* The appender really waits when the writer thread is behind, and counts it. */
TEST(backpressure_waits)
{
	struct nvt_writer_opts o = { .block_records = 1, .nchunks = 2, .zlevel = 9 };
	struct nvt_writer *w;
	struct nvt_record r = { 0 };
	struct nvt_read_info info;
	uint64_t waits;
	int rc = 1;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("wait.nvt"), NULL, 0, &o), 0);
	for (int i = 0; i < 20000; i++) {
		r.submit_ns = (uint64_t)i * 10;
		r.complete_ns = r.submit_ns + 5;
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	}
	waits = nvt_writer_waits(w);
	printf("backpressure: %" PRIu64 " waits in 20000 appends\n", waits);
	CHECK(waits > 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	read_compare(tpath("wait.nvt"), NULL, 0, &rc, &info);
	CHECK_EQ_U64(info.records, 20000);
	/* the footer has the count and the time the waits took */
	CHECK_EQ_U64(footer_u64(tpath("wait.nvt"), "writer.io_waits"), waits);
	CHECK(footer_u64(tpath("wait.nvt"), "writer.io_wait_ns") > 0);
}

/*
 * sync_ms: a block written while appends pause is synced within sync_ms
 * (the writer does not wait for the next block), syncs are at least sync_ms
 * apart, the footer says how many; 0 never syncs; too large is refused.
 */
TEST(writer_sync)
{
	struct nvt_writer_opts o = { .block_records = 16, .sync_ms = 20 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct timespec t0, t1;
	struct nvt_writer *w;
	uint64_t syncs, ms;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sync.nvt"), NULL, 0, &o), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 16 * 10; i++) {
		r.submit_ns = (uint64_t)i * 10;
		r.complete_ns = r.submit_ns + 5;
		CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
		if (i % 16 == 15)
			usleep(50000);	/* a block is sealed at the next append: 10 blocks */
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	ms = (uint64_t)(((int64_t)t1.tv_sec - t0.tv_sec) * 1000 +
			(t1.tv_nsec - t0.tv_nsec) / 1000000);
	syncs = footer_u64(tpath("sync.nvt"), "writer.syncs");
	printf("info: sync: %" PRIu64 " syncs in %" PRIu64 " ms at sync_ms=20\n", syncs, ms);
	CHECK(syncs >= 2);	/* a block every 50 ms, each synced: 10 when idle */
	CHECK(syncs <= ms / 20 + 2);	/* never more often than every 20 ms */
	CHECK_EQ_U64(footer_u64(tpath("sync.nvt"), "writer.sync_ms"), 20);

	o.sync_ms = 0;
	CHECK_EQ_I64(write_trace(tpath("nosync.nvt"), GEN_RANDREAD, 8, 1, 1000, &o, NULL), 0);
	CHECK_EQ_U64(footer_u64(tpath("nosync.nvt"), "writer.syncs"), 0);
	o.sync_ms = NVT_MAX_SYNC_MS + 1;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sync.nvt"), NULL, 0, &o), -EINVAL);
}

/*
 * A block cut short by a full disk (here RLIMIT_FSIZE: write(2) stores what
 * fits, then fails) is cut off again: the job's error says how far it got,
 * the file ends at the last complete block and reads back cleanly,
 * truncated, no byte unusable and no damage.
 */
TEST(half_written_block)
{
	struct nvt_writer_opts o = { .block_records = 4096 };
	struct nvt_record r = { .length = 4096, .qd = 1 };
	struct rlimit old, lim;
	struct nvt_read_info info;
	struct nvt_writer *w;
	char msg[512];
	struct stat st;
	int err = 0, rc = 1;
	long got;

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 100000;	/* a few blocks of 4096 random records, the next one cut */
	CHECK_EQ_I64(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("half.nvt"), hdr_kv, 5, &o), 0);
	for (int i = 0; i < 1000000 && !err; i++) {
		r.submit_ns = (uint64_t)i * 1000;
		r.complete_ns = r.submit_ns + 500 + (uint64_t)i * 7919 % 1000;
		r.offset = (uint64_t)i * 104729 % 262144 * 4096;
		err = nvt_writer_append(w, &r);
	}
	CHECK_EQ_I64(err, -EFBIG);
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	printf("info: half_written_block: %s\n", msg);
	CHECK(strstr(msg, "half written") != NULL);
	CHECK(strstr(msg, "cut off, the file ends after its") != NULL);
	got = read_compare(tpath("half.nvt"), NULL, 0, &rc, &info);
	CHECK_EQ_I64(rc, 0);
	CHECK(got > 0 && got % 4096 == 0);
	CHECK_EQ_U64(info.unused_bytes, 0);
	CHECK_EQ_I64(info.truncated, 1);
	CHECK_EQ_I64(stat(tpath("half.nvt"), &st), 0);
	CHECK_EQ_U64((uint64_t)st.st_size, info.used_bytes);
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

/*
 * The decoders get CRC-verified input in practice, but a crafted file can
 * carry any bytes with valid CRCs: mutated and cut payloads, kv areas and
 * footers must be rejected or decoded within bounds, never crash (ASan).
 */
TEST(decode_garbage)
{
	struct gen g;
	struct gen_rng rng = { 77 };
	struct nvt_record rec[300], out[300];
	struct nvt_buf raw = { 0 }, kvb = { 0 }, fb = { 0 };
	struct nvt_footer f = { 0 };
	uint64_t tmp[NVT_ENCODE_TMP(300)], lo, hi;
	uint8_t *m;
	const char *why;
	int ok = 0, rejected = 0;

	gen_init(&g, GEN_MIXED, 8, 1);
	for (int i = 0; i < 300; i++)
		gen_record(&g, &rec[i]);
	CHECK_EQ_I64(nvt_encode_records(rec, 300, tmp, &raw, &lo, &hi), 0);
	CHECK_EQ_I64(nvt_decode_records(raw.p, raw.len, 300, tmp, out, NULL, NULL, &why), 0);
	for (int i = 0; i < 300; i++)
		CHECK(rec_eq(&rec[i], &out[i]));
	CHECK_EQ_I64(nvt_kv_encode(hdr_kv, 5, &kvb), 0);
	f.records = 1;
	f.op[0].records = 1;
	CHECK_EQ_I64(nvt_footer_encode(&f, &fb), 0);
	m = malloc(raw.len + kvb.len + fb.len);
	for (int round = 0; round < 20000; round++) {
		struct nvt_buf *src = round % 3 == 0 ? &raw : round % 3 == 1 ? &kvb : &fb;
		size_t len = src->len, flips = 1 + gen_below(&rng, 4);
		struct nvt_kv *kv;
		size_t nkv, used;
		int err;

		memcpy(m, src->p, len);
		for (size_t k = 0; k < flips; k++)
			m[gen_below(&rng, len)] = (uint8_t)gen_next(&rng);
		if (gen_below(&rng, 2))
			len = gen_below(&rng, len + 1);
		if (src == &raw) {
			err = nvt_decode_records(m, len, 1 + gen_below(&rng, 300), tmp, out, NULL,
						 NULL, &why);
		} else if (src == &kvb) {
			err = nvt_kv_decode(m, len, &used, &kv, &nkv, &why);
			if (!err)
				nvt_kv_free(kv, nkv);
		} else {
			/* body only: skip magic + length, drop CRC + trailer */
			size_t body = len > 8 + 4 + NVT_TRAILER_LEN ? len - 8 - 4 - NVT_TRAILER_LEN
				: 0;

			err = nvt_footer_decode_body(m + 8, body, &f, &why);
			if (!err)
				nvt_footer_free(&f);
		}
		if (err)
			rejected++;
		else
			ok++;
	}
	CHECK(rejected > 0);
	free(m);
	nvt_buf_free(&raw);
	nvt_buf_free(&kvb);
	nvt_buf_free(&fb);
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

/* The writer thread is named, runs SCHED_IDLE when asked and only then;
 * an unknown class is refused. */
TEST(writer_sched)
{
	struct nvt_writer_opts o = { .sched = NVT_SCHED_IDLE };
	struct nvt_writer *w;
	struct nvt_record r = { .submit_ns = 1, .complete_ns = 2, .length = 4096, .qd = 1 };
	pid_t tid;
	int pol = -2;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_append(w, &r), 0);
	/* the thread sets its class first thing; give it a moment to start */
	for (int i = 0; i < 200 && pol != SCHED_IDLE; i++) {
		tid = thread_named("nvtrace-writer");
		pol = tid > 0 ? sched_getscheduler(tid) : -1;
		if (pol != SCHED_IDLE)
			usleep(5000);
	}
	CHECK_EQ_I64(pol, SCHED_IDLE);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(thread_named("nvtrace-writer"), -1);

	o.sched = NVT_SCHED_NORMAL;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), 0);
	tid = -1;
	for (int i = 0; i < 200 && tid < 0; i++) {
		tid = thread_named("nvtrace-writer");
		if (tid < 0)
			usleep(5000);
	}
	CHECK(tid > 0);
	CHECK_EQ_I64(sched_getscheduler(tid), sched_getscheduler(0));
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);

	o.sched = (enum nvt_writer_sched)7;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("sched.nvt"), NULL, 0, &o), -EINVAL);
}

int main(void)
{
	const char *base = getenv("TESTTMP");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_trace.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
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
	RUN(decode_cols_garbage);
	RUN(empty_trace);
	RUN(header_footer_kv);
	RUN(size_randread_1g);
	RUN(truncate_every_byte);
	RUN(bit_flips);
	RUN(flip_message);
	RUN(foreign_and_version);
	RUN(minor_version_readable);
	RUN(reads_version_1_0);
	RUN(enospc_sticky);
	RUN(open_errors);
	RUN(append_slot_in_place);
	RUN(backpressure_tiny_chunks);
	RUN(backpressure_waits);
	RUN(writer_sync);
	RUN(half_written_block);
	RUN(seek_time);
	RUN(index_bounded);
	RUN(decode_garbage);
	RUN(writer_sched);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	return check_summary();
}
