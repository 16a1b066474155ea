/*
 * nvtrace_zstream.c - the block encoder: the record payload (nvtrace_cols.c)
 * compressed as one zlib stream or one zstd frame, with its CRCs, and the
 * randomness test that lets zlib level 1 store what it cannot shrink.
 * docs/trace-format.md, "Blocks", is the specification.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_literalCompressionMode (stable since zstd 1.4) */
#include <zstd.h>

#include "trace/nvtrace_fmt.h"

/* ---- block encoder ---- */

bool nvt_looks_random(const uint8_t *p, size_t n)
{
	uint32_t c[256] = { 0 };
	uint64_t k = 0, sq = 0, runs = 0;

	for (size_t i = 0; i + 1 < n; i += NVT_RANDOM_SAMPLE) {
		c[p[i]]++;
		runs += p[i] == p[i + 1];
		k++;
	}
	for (unsigned j = 0; j < 256; j++)
		sq += (uint64_t)c[j] * c[j];
	/*
	 * sum of (c/k)^2 <= 2^-7.5: collision entropy of 7.5 bits or more;
	 * and at most 1 in 32 samples starting a run (random: 1 in 256).
	 */
	return k >= 256 && sq * 181 <= k * k && runs * 32 <= k;
}

/*
 * Room for compressing NVT_RAW_BOUND(max_records) bytes: deflate with a mode
 * switch (an empty block and a flush marker, under 16 bytes) every window,
 * or zstd with a block ended every max_records bytes (a block header and
 * tables, under 300 bytes, each).
 */
static size_t comp_bound(unsigned max_records)
{
	size_t raw = NVT_RAW_BOUND(max_records);
	size_t z = compressBound((uLong)raw) + (raw / NVT_RANDOM_WINDOW + 2) * 16;
	size_t zs = ZSTD_compressBound(raw) + (raw / (max_records ? max_records : 1) + 2) * 300;

	return z > zs ? z : zs;
}

/*
 * Level 1 uses the Z_RLE strategy: the byte planes have little long-range
 * repetition, and on 4k randread Z_RLE compressed twice as fast as the
 * default strategy and 5% smaller.  Levels 2..9 use the default strategy
 * for the last bytes.  Either way a plain zlib stream.
 */
static int zstrategy(int zlevel)
{
	return zlevel == 1 ? Z_RLE : Z_DEFAULT_STRATEGY;
}

/* The zlib stream of a zlib encoder.  Return: 0 or -ENOMEM. */
static int zlib_init(struct nvt_encoder *e)
{
	z_stream *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	if (deflateInit2(z, e->zlevel, Z_DEFLATED, 15, 8, zstrategy(e->zlevel)) != Z_OK) {
		free(z);
		return -ENOMEM;
	}
	e->z = z;
	e->zcur = e->zlevel;
	return 0;
}

/*
 * Level 1 of the trace is zstd's fastest match search (level
 * NVT_ZSTD_FAST_LEVEL) with the literals still Huffman-coded, which zstd's
 * own negative levels leave out: the byte planes hold few repeats worth a
 * search, and their size is in the literals.  On 4k randread records (the
 * bench's section 3) it encoded a fifth faster than zstd level 1 and as
 * small (5.51 against 5.54 bytes per record; 128k sequential writes 3.49
 * against 3.25).  Its matches are 7 bytes or longer, from a 64-entry hash
 * table: the narrow planes (an offset's top byte holding 2 bits, queue
 * depths) repeat short strings everywhere, and a 4-byte search spent a
 * third of zstd's time on them for sequences that cost more than their
 * literals (issue 39: 5.49 against 5.51 bytes per randread record, and
 * about 5% less zstd time).  A libzstd that refuses a parameter gets
 * level 1.
 */
#define NVT_ZSTD_FAST_LEVEL	(-100)
#define NVT_ZSTD_FAST_MINMATCH	7
#define NVT_ZSTD_FAST_HASHLOG	6

/* Level 1's parameters in p.  Return: true, or false if libzstd refused them. */
static bool zstd_fast(ZSTD_CCtx_params *p)
{
	return !ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_compressionLevel,
							  NVT_ZSTD_FAST_LEVEL)) &&
	       !ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_literalCompressionMode,
							  ZSTD_ps_enable)) &&
	       !ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_minMatch,
							  NVT_ZSTD_FAST_MINMATCH)) &&
	       !ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_hashLog,
							  NVT_ZSTD_FAST_HASHLOG));
}

/* The encoder's parameters in p: its level, no checksum (the block CRC
 * covers the payload).  Return: 0 or -ENOMEM. */
static int zstd_params(const struct nvt_encoder *e, ZSTD_CCtx_params *p)
{
	if (e->zlevel != 1 || !zstd_fast(p)) {
		ZSTD_CCtxParams_reset(p);	/* a fast level half set */
		if (ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_compressionLevel,
							      e->zlevel)))
			return -ENOMEM;
	}
	if (ZSTD_isError(ZSTD_CCtxParams_setParameter(p, ZSTD_c_checksumFlag, 0)))
		return -ENOMEM;
	return 0;
}

/*
 * The zstd context of a zstd encoder, in a workspace of its own taken and
 * touched here, sized for the level's largest window (a block's pledged
 * size only shrinks what it needs).  A context that allocates for itself
 * resizes its workspace: after 128 small blocks (a flush of a few records)
 * it frees it as too large, and the next full block allocates it again, by
 * then inside the thread's malloc arena: the soak saw fio's RSS grow by a
 * workspace per writer over the hour.  A static one never allocates after
 * open.  Return: 0 or -ENOMEM.
 */
static int zstd_init(struct nvt_encoder *e)
{
	ZSTD_CCtx_params *p = ZSTD_createCCtxParams();
	size_t size;
	int err = -ENOMEM;

	if (!p)
		return -ENOMEM;
	if (zstd_params(e, p))
		goto out;
	size = ZSTD_estimateCStreamSize_usingCCtxParams(p);
	if (ZSTD_isError(size))
		goto out;
	e->zws = malloc(size);
	if (!e->zws)
		goto out;
	nvt_touch_pages(e->zws, size);	/* the writer's from open on */
	e->zc = ZSTD_initStaticCCtx(e->zws, size);
	if (!e->zc ||
	    ZSTD_isError(ZSTD_CCtx_setParametersUsingCCtxParams(e->zc, p)))
		goto out;
	err = 0;
out:
	ZSTD_freeCCtxParams(p);
	return err;
}

int nvt_encoder_init(struct nvt_encoder *e, int codec, int zlevel, unsigned max_records)
{
	memset(e, 0, sizeof(*e));
	e->codec = codec;
	e->zlevel = zlevel;
	e->max_records = max_records;
	if (codec != NVT_CODEC_ZLIB && codec != NVT_CODEC_ZSTD)
		return -EINVAL;
	e->tmp = malloc(NVT_ENCODE_TMP(max_records ? max_records : 1) * sizeof(*e->tmp));
	if (!e->tmp ||
	    nvt_buf_reserve(&e->raw, NVT_RAW_BOUND(max_records)) ||
	    nvt_buf_reserve(&e->comp, comp_bound(max_records)) ||
	    (codec == NVT_CODEC_ZLIB ? zlib_init(e) : zstd_init(e))) {
		nvt_encoder_free(e);
		return -ENOMEM;
	}
	/*
	 * Fault the scratch space in here, on the opening thread, as the
	 * writer does the chunks: every full block writes all of it (40
	 * bytes a record), and else the writer thread takes its page faults
	 * during the run, each maybe waiting for the mm lock beside the IO
	 * thread: 640 at 65536 records, on a 130000-record randread trace a
	 * third of the writer's CPU per record (issue 39).  The raw and
	 * compressed buffers are sized for the worst case (44 bytes a record
	 * and more) and a block of fixed-size IOs uses a fifth of them:
	 * they fault in as used, so that a traced thread stays within the
	 * memory docs/engine.md documents.
	 */
	nvt_touch_pages(e->tmp, NVT_ENCODE_TMP(max_records ? max_records : 1) * sizeof(*e->tmp));
	return 0;
}

/* Switch the stream between stored (level 0) and the encoder's level. */
static int set_level(struct nvt_encoder *e, int level)
{
	if (e->zcur == level)
		return 0;
	if (deflateParams(e->z, level, zstrategy(e->zlevel)) != Z_OK)
		return -EIO;
	e->zcur = level;
	return 0;
}

/*
 * Deflate e->raw into e->comp as one zlib stream.  At level 1 (Z_RLE:
 * runs and Huffman codes only), stretches of NVT_RANDOM_WINDOW bytes that
 * look random (the low bytes of random offsets) go into stored blocks:
 * Z_RLE cannot shrink them, and skipping it saves a fifth of the writer's
 * time on 4k random IO.  Higher levels find repeats that a histogram does
 * not see, so they deflate everything.  Any inflate reads the result.
 * 0, or -EIO.
 */
static int deflate_raw(struct nvt_encoder *e, size_t *comp_len)
{
	z_stream *z = e->z;
	const uint8_t *in = e->raw.p;
	size_t len = e->raw.len, pos = 0;

	e->stored_bytes = 0;
	if (deflateReset(z) != Z_OK || set_level(e, e->zlevel))
		return -EIO;
	z->next_out = e->comp.p;
	z->avail_out = (uInt)e->comp.cap;
	while (pos < len) {
		size_t k = len - pos < 2 * NVT_RANDOM_WINDOW ? len - pos : NVT_RANDOM_WINDOW;
		bool stored = e->zlevel == 1 && k == NVT_RANDOM_WINDOW &&
			      nvt_looks_random(in + pos, k);

		if (set_level(e, stored ? 0 : e->zlevel))
			return -EIO;
		if (stored)
			e->stored_bytes += k;
		z->next_in = (uint8_t *)in + pos;
		z->avail_in = (uInt)k;
		if (deflate(z, Z_NO_FLUSH) != Z_OK || z->avail_in)
			return -EIO;
		pos += k;
	}
	if (deflate(z, Z_FINISH) != Z_STREAM_END)
		return -EIO;
	*comp_len = z->total_out;
	return 0;
}

/*
 * Compress e->raw into e->comp as one zstd frame (with its content size)
 * of @n records.  A zstd block is ended every @n raw bytes, about where
 * one byte plane ends and the next begins (a plane holds n bytes), so that
 * each block's literal Huffman table fits one plane: on 4k randread that
 * kept the size of zlib's Z_RLE (5.54 against 5.50 bytes per record) where
 * one table per 128 KiB grew it to 6.02, at a quarter of zlib's time.
 * 0, or -EIO.
 */
static int zstd_raw(struct nvt_encoder *e, unsigned n, size_t *comp_len)
{
	ZSTD_CCtx *c = e->zc;
	ZSTD_outBuffer out = { e->comp.p, e->comp.cap, 0 };
	size_t len = e->raw.len, pos = 0;

	e->stored_bytes = 0;
	if (ZSTD_isError(ZSTD_CCtx_reset(c, ZSTD_reset_session_only)) ||
	    ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(c, len)))
		return -EIO;
	do {
		size_t k = len - pos > n ? n : len - pos;
		ZSTD_inBuffer in = { e->raw.p + pos, k, 0 };
		ZSTD_EndDirective end = pos + k < len ? ZSTD_e_flush : ZSTD_e_end;
		size_t left = ZSTD_compressStream2(c, &out, &in, end);

		/* with room for the bound, every call takes all and flushes all */
		if (ZSTD_isError(left) || left || in.pos != k)
			return -EIO;
		pos += k;
	} while (pos < len);
	*comp_len = out.pos;
	return 0;
}

int nvt_encoder_block(struct nvt_encoder *e, const struct nvt_record *r, unsigned n,
		      uint32_t seq, struct nvt_block_hdr *h)
{
	size_t comp_len;
	int err;

	memset(h, 0, sizeof(*h));
	h->seq = seq;
	h->nrec = n;
	h->codec = (uint8_t)e->codec;
	h->zlevel = (uint8_t)e->zlevel;
	if (!n || n > e->max_records)
		return -EINVAL;
	e->raw.len = 0;
	err = nvt_encode_records_u(r, n, e->tmp, &e->raw, &h->min_complete_ns,
				   &h->max_complete_ns, &e->uniform);
	if (err)
		return err;
	err = e->codec == NVT_CODEC_ZSTD ? zstd_raw(e, n, &comp_len) : deflate_raw(e, &comp_len);
	if (err)
		return err;
	h->raw_len = (uint32_t)e->raw.len;
	h->comp_len = (uint32_t)comp_len;
	h->payload_crc = nvt_crc32(e->comp.p, h->comp_len);
	return 0;
}

void nvt_encoder_free(struct nvt_encoder *e)
{
	if (e->z) {
		deflateEnd(e->z);
		free(e->z);
	}
	e->z = NULL;
	e->zc = NULL;			/* lives in zws */
	free(e->zws);
	e->zws = NULL;
	free(e->tmp);
	e->tmp = NULL;
	nvt_buf_free(&e->raw);
	nvt_buf_free(&e->comp);
}

