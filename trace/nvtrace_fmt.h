/*
 * nvtrace_fmt.h - on-disk layout of nvtrace files and the pure codec functions
 * shared by the writer and the reader (docs/trace-format.md is the spec).
 *
 * Everything is little-endian.  The codec functions never allocate behind the
 * caller's back except nvt_kv_decode/nvt_footer_decode, which own their
 * result (free with nvt_kv_free / nvt_footer_free).
 */
#ifndef NV_TRACE_FMT_H
#define NV_TRACE_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/nvtrace.h"

#define NVT_FILE_MAGIC		"NVTRACE\0"	/* 8 bytes */
#define NVT_VERSION_MAJOR	1
/* 1.1: the trace clock keys; 1.2: zstd blocks (docs/trace-format.md) */
#define NVT_VERSION_MINOR	2
#define NVT_FILE_HDR_FIXED	16	/* magic, major, minor, kv_len */

#define NVT_BLOCK_MAGIC		"NVTB"
#define NVT_BLOCK_HDR_LEN	48
#define NVT_CODEC_ZLIB		1	/* payload: one zlib stream (RFC 1950) */
#define NVT_CODEC_ZSTD		2	/* payload: one zstd frame (RFC 8878) */

#define NVT_FOOTER_MAGIC	"NVTF"
#define NVT_TRAILER_MAGIC	"NVTE"
#define NVT_TRAILER_LEN		8	/* u32 footer length, "NVTE" */
#define NVT_MAX_FOOTER_BYTES	(64u << 20)
#define NVT_INDEX_MAX		4096	/* writer keeps at most this many index entries */

#define NVT_OFFSET_ABS		0	/* offset column modes */
#define NVT_OFFSET_DELTA	1
#define NVT_MAX_SHIFT		32

/* Worst-case raw (uncompressed) payload for n records. */
#define NVT_RAW_BOUND(n)	((size_t)(n) * 44 + 256)

static inline void nvt_put16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static inline void nvt_put32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}
static inline void nvt_put64(uint8_t *p, uint64_t v)
{
	nvt_put32(p, (uint32_t)v);
	nvt_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t nvt_get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t nvt_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t nvt_get64(const uint8_t *p)
{
	return (uint64_t)nvt_get32(p) | (uint64_t)nvt_get32(p + 4) << 32;
}

/* The fixed block header, decoded. */
struct nvt_block_hdr {
	uint32_t seq;
	uint32_t nrec;
	uint32_t raw_len;
	uint32_t comp_len;
	uint32_t payload_crc;
	uint64_t min_complete_ns;
	uint64_t max_complete_ns;
	uint8_t codec;
	uint8_t zlevel;
};

/* A growable byte buffer (used by the encoders). */
struct nvt_buf {
	uint8_t *p;
	size_t len, cap;
};
int nvt_buf_reserve(struct nvt_buf *b, size_t more);
/* Make every page of p[0..n) resident now.  (A memset to 0 does not: the
 * compiler may turn malloc + memset into calloc, which leaves fresh pages
 * untouched.) */
void nvt_touch_pages(void *p, size_t n);
void nvt_buf_free(struct nvt_buf *b);

uint32_t nvt_crc32(const void *p, size_t n);

/* Block header: pack into NVT_BLOCK_HDR_LEN bytes (computing the header CRC);
 * unpack verifies magic and header CRC: 0, or -EBADMSG with *why set. */
void nvt_block_hdr_pack(uint8_t *out, const struct nvt_block_hdr *h);
int nvt_block_hdr_unpack(const uint8_t *in, struct nvt_block_hdr *h, const char **why);

/*
 * Encode n (>= 1) records as the raw block payload (columns, before
 * compression), appending to out; tmp is scratch space for
 * NVT_ENCODE_TMP(n) values.  Also returns the min/max completion time.
 * 0, -ENOMEM, or -EINVAL for a record whose op is >= NVT_OP__MAX.
 */
#define NVT_ENCODE_TMP(n)	(5 * (size_t)(n))
int nvt_encode_records(const struct nvt_record *r, size_t n, uint64_t *tmp, struct nvt_buf *out,
		       uint64_t *min_complete, uint64_t *max_complete);
/* The same, and whether op, length and status are constant in the block
 * (*uniform; uniform may be NULL): what the block encoder keeps of it. */
int nvt_encode_records_u(const struct nvt_record *r, size_t n, uint64_t *tmp, struct nvt_buf *out,
			 uint64_t *min_complete, uint64_t *max_complete, bool *uniform);
/*
 * Decode a raw payload of len bytes holding exactly n records into out[n]
 * (tmp: scratch space for n values); also the min/max completion time into
 * *min_complete / *max_complete when they are not NULL.
 * 0, or -EBADMSG with *why set when the payload is malformed (it must be
 * consumed exactly).  Never reads outside in[0..len).
 */
int nvt_decode_records(const uint8_t *in, size_t len, size_t n, uint64_t *tmp,
		       struct nvt_record *out, uint64_t *min_complete, uint64_t *max_complete,
		       const char **why);

/*
 * The same payload as columns: c's arrays for the NVT_COL_* bits in want
 * (and complete_ns, always) must hold n values; the others are checked,
 * not stored.  Fills c->n, c->uniform and the min/max completion time.
 * Accepts and rejects exactly what nvt_decode_records does.
 */
int nvt_decode_cols(const uint8_t *in, size_t len, size_t n, unsigned want, uint64_t *tmp,
		    struct nvt_cols *c, const char **why);

/*
 * Whether n bytes look random enough that deflate's Z_RLE strategy (runs
 * and Huffman codes) cannot shrink them: the bytes at every
 * NVT_RANDOM_SAMPLE-th position have a collision entropy of at least 7.5
 * bits (so their Shannon entropy is at least that too) and at most one in
 * 32 of them equals the byte after it.  Says yes only with at least 256
 * samples (n of about 256 * NVT_RANDOM_SAMPLE or more); a "no" is always
 * safe (the bytes are then deflated).  The level-1 block encoder stores
 * such NVT_RANDOM_WINDOW-byte stretches instead of Huffman coding them.
 */
#define NVT_RANDOM_WINDOW	16384
#define NVT_RANDOM_SAMPLE	4
bool nvt_looks_random(const uint8_t *p, size_t n);

/*
 * A block encoder: columns, then deflate (Z_RLE strategy at level 1, with
 * stretches that look random as stored blocks; the default strategy at 2..9),
 * then CRCs.  Holds buffers for max_records.
 */
struct nvt_encoder {
	unsigned max_records;
	struct nvt_buf raw, comp;
	uint64_t *tmp;
	int codec;		/* NVT_CODEC_* */
	void *z;		/* z_stream (zlib) */
	void *zc;		/* ZSTD_CCtx (zstd), static in zws */
	void *zws;		/* its workspace, allocated once */
	int zlevel;
	int zcur;		/* the stream's level now: zlevel or 0 (stored) */
	size_t stored_bytes;	/* raw bytes of the last block sent as stored */
	bool uniform;		/* the last block's op, length and status are constant */
};
int nvt_encoder_init(struct nvt_encoder *e, int codec, int zlevel, unsigned max_records);
/* Encode r[0..n) (n <= max_records) as block seq: fills *h; the payload is
 * e->comp.p[0..h->comp_len).  0 or -ENOMEM / -EIO, -EINVAL for a record
 * whose op is >= NVT_OP__MAX. */
int nvt_encoder_block(struct nvt_encoder *e, const struct nvt_record *r, unsigned n,
		      uint32_t seq, struct nvt_block_hdr *h);
void nvt_encoder_free(struct nvt_encoder *e);

/* kv area: u32 count, then per entry u16 key_len, u32 value_len, key, value. */
int nvt_kv_encode(const struct nvt_kv *kv, size_t n, struct nvt_buf *out);
int nvt_kv_decode(const uint8_t *in, size_t len, size_t *used, struct nvt_kv **kv, size_t *n,
		  const char **why);
void nvt_kv_free(struct nvt_kv *kv, size_t n);
/* 0 if the pairs can be stored, -EINVAL otherwise (empty key, too long). */
int nvt_kv_check(const struct nvt_kv *kv, size_t n);

/* Footer: the whole footer (magic .. trailer) appended to out. */
int nvt_footer_encode(const struct nvt_footer *f, struct nvt_buf *out);
/* Decode the footer body (the bytes between the length field and the CRC). */
int nvt_footer_decode_body(const uint8_t *in, size_t len, struct nvt_footer *f, const char **why);
void nvt_footer_free(struct nvt_footer *f);

#endif
