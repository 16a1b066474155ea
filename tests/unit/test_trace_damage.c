/*
 * test_trace_damage.c - what the reader makes of damaged, cut, foreign and
 * older trace files: truncation at every byte, bit flips, the message that
 * names the block and offset, foreign magic and versions, garbage payloads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_roundtrip.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

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

int main(void)
{
	if (tmpdir_make("test_trace_damage"))
		return 1;
	RUN(truncate_every_byte);
	RUN(bit_flips);
	RUN(flip_message);
	RUN(foreign_and_version);
	RUN(minor_version_readable);
	RUN(reads_version_1_0);
	RUN(decode_garbage);
	tmpdir_remove();
	return check_summary();
}
