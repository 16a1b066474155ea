/*
 * nvtrace_read.c - streaming trace reader: one block in memory at a time.
 *
 * The reader walks header, blocks, footer in file order.  Three outcomes at
 * each step: a verified element (header CRC, payload CRC, exact raw length,
 * exact payload consumption, completion range matching the header), the
 * end of the data (clean end after the footer; or the file ends inside an
 * element or without footer: truncation, reported through nvt_read_info),
 * or damage: -EBADMSG with a message naming the block and file offset.
 * Damaged bytes are never decoded into records.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_pack.h"

struct nvt_reader {
	char *path;
	int fd;
	bool seekable;
	uint64_t pos;			/* bytes consumed from fd */
	struct nvt_kv *kv;
	size_t nkv;

	struct nvt_scratch own;		/* a block's stored bytes, payload and decoding */
	struct nvt_scratch *scr;	/* &own, or one lent (nvt_reader_scratch) */
	struct nvt_record *recs;
	size_t rec_cap;
	struct nvt_cols cols;		/* nvt_reader_next_cols: arrays of col_cap */
	size_t col_cap;
	struct nvt_cols view;		/* what next_cols returned: unwanted arrays NULL */
	struct nvt_packed *rest;	/* nvt_reader_keep_rest's, until unpacked */

	uint32_t next_seq;
	bool seeked;			/* counts no longer start at block 0 */
	bool follow;			/* nvt_reader_follow: an element cut short waits */
	int done;			/* 0 reading, 1 end, < 0 sticky error */
	struct nvt_read_info info;
	struct nvt_footer foot;
	bool have_footer;
	char errmsg[512];
};

static int fail(struct nvt_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record the error "PATH: message" and make it sticky. */
static int fail(struct nvt_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->errmsg, sizeof(r->errmsg), "%s: ", r->path);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(r->errmsg))
		vsnprintf(r->errmsg + n, sizeof(r->errmsg) - (size_t)n, fmt, ap);
	va_end(ap);
	r->done = err;
	return err;
}

/* Read up to n bytes; returns the count (short only at EOF) or -errno. */
static ssize_t read_full(struct nvt_reader *r, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(r->fd, (uint8_t *)buf + got, n - got);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	r->pos += got;
	return (ssize_t)got;
}

/*
 * The data ended or stopped making sense at r->info.used_bytes: count what
 * is left in the file as unusable.  If all of it is zero bytes (a tail
 * allocated but never written, as after a power loss) or fewer than a magic,
 * it is truncation; otherwise the caller reports damage.  Returns 1 when the
 * rest is all zeros, 0 otherwise, < 0 on read error.
 */
static int drain_rest(struct nvt_reader *r, const uint8_t *seen, size_t nseen)
{
	uint8_t buf[65536];
	bool zeros = true;
	ssize_t k;

	for (size_t i = 0; i < nseen; i++)
		if (seen[i])
			zeros = false;
	while ((k = read_full(r, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < k && zeros; i++)
			if (buf[i])
				zeros = false;
	if (k < 0)
		return (int)k;
	r->info.unused_bytes = r->pos - r->info.used_bytes;
	return zeros;
}

static int end_truncated(struct nvt_reader *r, const uint8_t *seen, size_t nseen)
{
	int z;

	z = drain_rest(r, seen, nseen);
	if (z < 0)
		return fail(r, z, "read: %s", strerror(-z));
	r->info.truncated = 1;
	r->done = 1;
	return 0;
}

/*
 * The file ends inside the element that starts at at (a block, the
 * footer): truncation, or in follow mode the element still being written:
 * the reader goes back to at and says -EAGAIN (not sticky).
 */
static int end_short(struct nvt_reader *r, uint64_t at, const uint8_t *seen, size_t nseen)
{
	if (!r->follow)
		return end_truncated(r, seen, nseen);
	if (lseek(r->fd, (off_t)at, SEEK_SET) < 0)
		return fail(r, -errno, "seek: %s", strerror(errno));
	r->pos = at;
	return -EAGAIN;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	void *q;

	if (*cap >= need)
		return 0;
	q = realloc(*p, need * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = need;
	return 0;
}

/*
 * Read a block's n-byte stored payload into its scratch's comp, growing the buffer only
 * as the data arrives (1 MiB, then doubling): comp_len is only covered by
 * the header CRC, so a damaged or crafted header must not make the reader
 * allocate gigabytes for a file that ends much sooner.  Returns the count
 * (short only at EOF), -ENOMEM, or the read error.
 */
static ssize_t read_payload(struct nvt_reader *r, size_t n)
{
	size_t got = 0;

	while (got < n) {
		size_t step = got > (1u << 20) ? got : (1u << 20);
		ssize_t k;

		if (step > n - got)
			step = n - got;
		if (grow((void **)&r->scr->comp, &r->scr->comp_cap, got + step, 1))
			return -ENOMEM;
		k = read_full(r, r->scr->comp + got, step);
		if (k < 0)
			return k;
		got += (size_t)k;
		if ((size_t)k < step)
			break;
	}
	return (ssize_t)got;
}

static int read_footer(struct nvt_reader *r, const uint8_t magic[4]);

/*
 * Inflate the payload's zlib stream (RFC 1950) into the scratch's raw: exactly raw_len
 * bytes, as uncompress() would, but with the scratch's one z_stream for every
 * block and without recomputing the stream's Adler-32 trailer (the payload
 * CRC32, already checked, covers those bytes; the trailer must be present).
 * The 2-byte zlib header is checked as inflate() checks it: deflate,
 * window <= 32 KiB, FCHECK, no preset dictionary.  0 or -EBADMSG/-ENOMEM.
 */
static int inflate_payload(struct nvt_reader *r, const struct nvt_block_hdr *h)
{
	const uint8_t *c = r->scr->comp;
	z_stream *z = r->scr->z;
	int zr;

	if (h->comp_len < 2 + 4 || (c[0] & 0x0f) != Z_DEFLATED || (c[0] >> 4) > 7 ||
	    ((unsigned)c[0] << 8 | c[1]) % 31 || (c[1] & 0x20))
		return -EBADMSG;
	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z)
			return -ENOMEM;
		if (inflateInit2(z, -MAX_WBITS) != Z_OK) {
			free(z);
			return -ENOMEM;
		}
		r->scr->z = z;
	} else if (inflateReset(z) != Z_OK) {
		return -EBADMSG;
	}
	z->next_in = (Bytef *)(uintptr_t)(c + 2);
	z->avail_in = h->comp_len - 2;
	z->next_out = r->scr->raw;
	z->avail_out = h->raw_len;
	zr = inflate(z, Z_FINISH);
	if (zr != Z_STREAM_END || z->total_out != h->raw_len || z->avail_in < 4)
		return -EBADMSG;
	return 0;
}

/*
 * Decompress the payload's zstd frame into the scratch's raw: exactly one frame that
 * fills raw_len bytes.  Decompressing into the whole output at once needs no
 * window buffer, so a frame's window size costs no memory.  0 or
 * -EBADMSG/-ENOMEM.
 */
static int unzstd_payload(struct nvt_reader *r, const struct nvt_block_hdr *h)
{
	size_t n;

	if (ZSTD_findFrameCompressedSize(r->scr->comp, h->comp_len) != h->comp_len)
		return -EBADMSG;
	if (!r->scr->zd) {
		r->scr->zd = ZSTD_createDCtx();
		if (!r->scr->zd)
			return -ENOMEM;
	}
	n = ZSTD_decompressDCtx(r->scr->zd, r->scr->raw, h->raw_len, r->scr->comp, h->comp_len);
	return ZSTD_isError(n) || n != h->raw_len ? -EBADMSG : 0;
}

/*
 * The framing part of reading a block: header, sequence, payload CRC,
 * inflate into the scratch's raw.  Returns 1 with *h and *at set, 0 at the end of
 * the usable data, or the sticky error.
 */
static int read_block(struct nvt_reader *r, struct nvt_block_hdr *h, uint64_t *at)
{
	uint8_t hb[NVT_BLOCK_HDR_LEN];
	const char *why;
	ssize_t k;
	int err;

	*at = r->pos;
	if (r->done)
		return r->done < 0 ? r->done : 0;

	k = read_full(r, hb, 4);
	if (k < 0)
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	if (k < 4)
		return end_short(r, *at, hb, (size_t)k);
	if (!memcmp(hb, NVT_FOOTER_MAGIC, 4))
		return read_footer(r, hb);
	if (memcmp(hb, NVT_BLOCK_MAGIC, 4)) {
		int z = drain_rest(r, hb, 4);

		if (z < 0)
			return fail(r, z, "read: %s", strerror(-z));
		if (z && r->follow)	/* a zero-filled tail: not written yet */
			return end_short(r, *at, NULL, 0);
		if (z) {	/* a zero-filled tail: the writer never got there */
			r->info.truncated = 1;
			r->done = 1;
			return 0;
		}
		return fail(r, -EBADMSG, "damaged: no block or footer magic at offset %" PRIu64
			    " (expected block %" PRIu32 ")", *at, r->next_seq);
	}
	k = read_full(r, hb + 4, sizeof(hb) - 4);
	if (k < 0)
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	if ((size_t)k < sizeof(hb) - 4)
		return end_short(r, *at, NULL, 0);
	err = nvt_block_hdr_unpack(hb, h, &why);
	if (err)
		return fail(r, err, "damaged: block %" PRIu32 " at offset %" PRIu64 ": %s",
			    r->next_seq, *at, why);
	if (h->seq != r->next_seq)
		return fail(r, -EBADMSG,
			    "damaged: block at offset %" PRIu64 " has sequence %" PRIu32
			    ", expected %" PRIu32, *at, h->seq, r->next_seq);

	if (grow((void **)&r->scr->raw, &r->scr->raw_cap, h->raw_len ? h->raw_len : 1, 1) ||
	    grow((void **)&r->scr->tmp, &r->scr->tmp_cap, h->nrec, sizeof(*r->scr->tmp)))
		return fail(r, -ENOMEM, "out of memory for block %" PRIu32, h->seq);

	k = read_payload(r, h->comp_len);
	if (k == -ENOMEM)
		return fail(r, -ENOMEM, "out of memory for block %" PRIu32, h->seq);
	if (k < 0)
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	if ((size_t)k < h->comp_len)
		return end_short(r, *at, NULL, 0);
	if (nvt_crc32(r->scr->comp, h->comp_len) != h->payload_crc)
		return fail(r, -EBADMSG, "damaged: block %" PRIu32 " at offset %" PRIu64
			    ": payload CRC mismatch", h->seq, *at);
	err = h->codec == NVT_CODEC_ZSTD ? unzstd_payload(r, h) : inflate_payload(r, h);
	if (err == -ENOMEM)
		return fail(r, -ENOMEM, "out of memory for block %" PRIu32, h->seq);
	if (err)
		return fail(r, -EBADMSG, "damaged: block %" PRIu32 " at offset %" PRIu64
			    ": payload does not %s to %" PRIu32 " bytes", h->seq, *at,
			    h->codec == NVT_CODEC_ZSTD ? "decompress (zstd)" : "inflate",
			    h->raw_len);
	return 1;
}

/* After decoding: the block's completion range must be the header's; count it. */
static int finish_block(struct nvt_reader *r, const struct nvt_block_hdr *h, uint64_t at,
			uint64_t lo, uint64_t hi)
{
	if (lo != h->min_complete_ns || hi != h->max_complete_ns)
		return fail(r, -EBADMSG, "damaged: block %" PRIu32 " at offset %" PRIu64
			    ": completion times disagree with the block header", h->seq, at);
	r->next_seq++;
	r->info.blocks++;
	r->info.records += h->nrec;
	r->info.used_bytes = r->pos;
	r->info.last_block_offset = at;
	return 1;
}

int nvt_reader_next_block(struct nvt_reader *r, const struct nvt_record **recs, size_t *n)
{
	struct nvt_block_hdr h;
	uint64_t at, lo, hi;
	const char *why;
	int err;

	*recs = NULL;
	*n = 0;
	err = read_block(r, &h, &at);
	if (err <= 0)
		return err;
	if (h.nrec > r->rec_cap) {
		struct nvt_record *p = realloc(r->recs, h.nrec * sizeof(*p));

		if (!p)
			return fail(r, -ENOMEM, "out of memory for block %" PRIu32, h.seq);
		/* the decoder sets every field: zero the padding once */
		memset(p + r->rec_cap, 0, (h.nrec - r->rec_cap) * sizeof(*p));
		r->recs = p;
		r->rec_cap = h.nrec;
	}
	err = nvt_decode_records(r->scr->raw, h.raw_len, h.nrec, r->scr->tmp, r->recs, &lo, &hi,
				 &why);
	if (err)
		return fail(r, err, "damaged: block %" PRIu32 " at offset %" PRIu64 ": %s",
			    h.seq, at, why);
	err = finish_block(r, &h, at, lo, hi);
	if (err == 1) {
		*recs = r->recs;
		*n = h.nrec;
	}
	return err;
}

/* The column arrays for nrec values of the columns in want (and complete_ns). */
static int grow_cols(struct nvt_reader *r, size_t nrec, unsigned want)
{
	struct nvt_col_field a[NVT_NCOLS];

	nvt_col_fields(&r->cols, a);
	if (nrec > r->col_cap) {	/* every array to the new size */
		for (size_t i = 0; i < NVT_NCOLS; i++) {
			free(*a[i].p);
			*a[i].p = NULL;
		}
		r->col_cap = nrec;
	}
	for (size_t i = 0; i < NVT_NCOLS; i++) {
		if (*a[i].p || (a[i].bit && !(want & a[i].bit)))
			continue;
		*a[i].p = malloc(r->col_cap * a[i].size);
		if (!*a[i].p)
			return -ENOMEM;
	}
	return 0;
}

int nvt_reader_next_cols(struct nvt_reader *r, unsigned want, const struct nvt_cols **cp)
{
	struct nvt_col_field f[NVT_NCOLS];
	struct nvt_cols c;
	struct nvt_block_hdr h;
	const char *why;
	uint64_t at;
	int err;

	*cp = NULL;
	want &= NVT_COL_ALL;
	nvt_packed_free(r->rest);	/* a rest not taken back is passed over */
	r->rest = NULL;
	err = read_block(r, &h, &at);
	if (err <= 0)
		return err;
	if (grow_cols(r, h.nrec, want))
		return fail(r, -ENOMEM, "out of memory for block %" PRIu32, h.seq);
	c = r->cols;
	nvt_col_fields(&c, f);
	for (size_t i = 1; i < NVT_NCOLS; i++)	/* the caller sees only what it asked for */
		if (!(want & f[i].bit))
			*f[i].p = NULL;
	err = nvt_decode_cols(r->scr->raw, h.raw_len, h.nrec, want, r->scr->tmp, &c, &why);
	if (err)
		return fail(r, err, "damaged: block %" PRIu32 " at offset %" PRIu64 ": %s",
			    h.seq, at, why);
	err = finish_block(r, &h, at, c.min_complete_ns, c.max_complete_ns);
	if (err == 1) {
		r->view = c;
		*cp = &r->view;
	}
	return err;
}

/* The footer's totals must describe exactly the blocks read. */
static int check_footer(struct nvt_reader *r, uint64_t at)
{
	const struct nvt_footer *f = &r->foot;
	uint64_t sum = 0;

	for (unsigned i = 0; i < NVT_OP__MAX; i++)
		sum += f->op[i].records;
	if (sum != f->records)
		return fail(r, -EBADMSG, "damaged: footer at offset %" PRIu64
			    ": per-op records do not add up", at);
	if (r->seeked)
		return 0;
	if (f->blocks != r->info.blocks || f->records != r->info.records)
		return fail(r, -EBADMSG, "damaged: footer at offset %" PRIu64 " counts %"
			    PRIu32 " blocks and %" PRIu64 " records, the file holds %" PRIu32
			    " and %" PRIu64,
			    at, f->blocks, f->records, r->info.blocks, r->info.records);
	return 0;
}

/*
 * Parse "NVTF" u32 body_len body u32 crc u32 total "NVTE" from the stream
 * (the magic already read).  Bytes after the trailer are reported unusable.
 */
static int read_footer(struct nvt_reader *r, const uint8_t magic[4])
{
	uint64_t at = r->pos - 4;
	uint8_t lenb[4], *buf;
	uint32_t body;
	size_t total;
	const char *why;
	ssize_t k;
	int err;

	k = read_full(r, lenb, 4);
	if (k < 0)
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	if (k < 4)
		return end_short(r, at, NULL, 0);
	body = nvt_get32(lenb);
	if (body > NVT_MAX_FOOTER_BYTES)
		return fail(r, -EBADMSG, "damaged: footer at offset %" PRIu64 ": length %" PRIu32
			    " out of range", at, body);
	total = 8 + (size_t)body + 4 + NVT_TRAILER_LEN;
	buf = malloc(total);
	if (!buf)
		return fail(r, -ENOMEM, "out of memory for the footer");
	memcpy(buf, magic, 4);
	memcpy(buf + 4, lenb, 4);
	k = read_full(r, buf + 8, total - 8);
	if (k < 0) {
		free(buf);
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	}
	if ((size_t)k < total - 8) {
		free(buf);
		return end_short(r, at, NULL, 0);
	}
	if (nvt_get32(buf + 8 + body) != nvt_crc32(buf, 8 + (size_t)body)) {
		free(buf);
		return fail(r, -EBADMSG, "damaged: footer at offset %" PRIu64 ": CRC mismatch",
			    at);
	}
	if (nvt_get32(buf + 12 + body) != 12 + body ||
	    memcmp(buf + 16 + body, NVT_TRAILER_MAGIC, 4)) {
		free(buf);
		return fail(r, -EBADMSG, "damaged: footer trailer at offset %" PRIu64,
			    at + 12 + body);
	}
	nvt_footer_free(&r->foot);
	r->have_footer = false;
	err = nvt_footer_decode_body(buf + 8, body, &r->foot, &why);
	free(buf);
	if (err)
		return fail(r, err, "damaged: footer at offset %" PRIu64 ": %s", at, why);
	r->have_footer = true;
	err = check_footer(r, at);
	if (err)
		return err;
	r->info.used_bytes = r->pos;
	r->info.footer = 1;
	err = drain_rest(r, NULL, 0);
	if (err < 0)
		return fail(r, err, "read: %s", strerror(-err));
	r->done = 1;
	return 0;
}

/* Read and check the file header and its kv pairs. */
static int read_header(struct nvt_reader *r)
{
	uint8_t fixed[NVT_FILE_HDR_FIXED], *buf;
	unsigned major, minor;
	uint32_t kv_len;
	size_t used;
	const char *why;
	ssize_t k;
	int err;

	k = read_full(r, fixed, sizeof(fixed));
	if (k < 0)
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	if (k == 0)
		return fail(r, -EBADMSG, "empty file: no trace header "
			    "(the writer never wrote it)");
	if (k < 8 || memcmp(fixed, NVT_FILE_MAGIC, 8)) {
		if (k < 8 && !memcmp(fixed, NVT_FILE_MAGIC, (size_t)k))
			return fail(r, -EBADMSG, "truncated: the file ends inside the trace "
				    "header (%zd bytes)", k);
		return fail(r, -EINVAL, "not an nvtrace file (bad magic)");
	}
	if (k < (ssize_t)sizeof(fixed))
		return fail(r, -EBADMSG, "truncated: the file ends inside the trace header (%zd "
			    "bytes)", k);
	major = nvt_get16(fixed + 8);
	minor = nvt_get16(fixed + 10);
	r->info.major = major;
	r->info.minor = minor;
	if (major != NVT_VERSION_MAJOR)
		return fail(r, -ENOTSUP, "trace format version %u.%u, this reader reads %u.x",
			    major, minor, NVT_VERSION_MAJOR);
	kv_len = nvt_get32(fixed + 12);
	if (kv_len > NVT_MAX_KV_BYTES)
		return fail(r, -EBADMSG, "damaged trace header: key/value length %" PRIu32
			    " out of range", kv_len);
	buf = malloc(sizeof(fixed) + kv_len + 4);
	if (!buf)
		return fail(r, -ENOMEM, "out of memory for the header");
	memcpy(buf, fixed, sizeof(fixed));
	k = read_full(r, buf + sizeof(fixed), kv_len + 4);
	if (k < 0) {
		free(buf);
		return fail(r, (int)k, "read: %s", strerror((int)-k));
	}
	if ((size_t)k < kv_len + 4) {
		free(buf);
		return fail(r, -EBADMSG, "truncated: the file ends inside the trace header");
	}
	if (nvt_get32(buf + sizeof(fixed) + kv_len) != nvt_crc32(buf, sizeof(fixed) + kv_len)) {
		free(buf);
		return fail(r, -EBADMSG, "damaged trace header: CRC mismatch");
	}
	err = nvt_kv_decode(buf + sizeof(fixed), kv_len, &used, &r->kv, &r->nkv, &why);
	free(buf);
	if (err)
		return fail(r, err, "damaged trace header: %s", why);
	r->info.used_bytes = r->pos;
	return 0;
}

int nvt_reader_open(struct nvt_reader **rp, const char *path)
{
	struct nvt_reader *r;
	struct stat st;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->scr = &r->own;
	r->path = strdup(path);
	if (!r->path) {
		free(r);
		return -ENOMEM;
	}
	*rp = r;
	if (!strcmp(path, "-"))
		r->fd = dup(STDIN_FILENO);
	else
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return fail(r, -errno, "%s", strerror(errno));
	if (fstat(r->fd, &st))
		return fail(r, -errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(r, -EISDIR, "is a directory, not a trace file");
	r->seekable = S_ISREG(st.st_mode);
	return read_header(r);
}

/* Load the footer from the end of a seekable file (for seeking). */
static int load_tail_footer(struct nvt_reader *r)
{
	uint8_t tr[NVT_TRAILER_LEN], *buf;
	struct stat st;
	uint32_t total, body;
	const char *why;
	int err;

	if (!r->seekable)
		return -ESPIPE;
	if (fstat(r->fd, &st) || (uint64_t)st.st_size < NVT_TRAILER_LEN + 12)
		return -ENOENT;
	if (pread(r->fd, tr, sizeof(tr), st.st_size - NVT_TRAILER_LEN) != (ssize_t)sizeof(tr) ||
	    memcmp(tr + 4, NVT_TRAILER_MAGIC, 4))
		return -ENOENT;
	total = nvt_get32(tr);
	if (total < 12 || total > NVT_MAX_FOOTER_BYTES || total > st.st_size - NVT_TRAILER_LEN)
		return -ENOENT;
	buf = malloc(total);
	if (!buf)
		return -ENOMEM;
	body = total - 12;
	err = -ENOENT;
	if (pread(r->fd, buf, total, st.st_size - NVT_TRAILER_LEN - total) != (ssize_t)total ||
	    memcmp(buf, NVT_FOOTER_MAGIC, 4) || nvt_get32(buf + 4) != body ||
	    nvt_get32(buf + 8 + body) != nvt_crc32(buf, 8 + (size_t)body))
		goto out;
	nvt_footer_free(&r->foot);
	r->have_footer = false;
	err = nvt_footer_decode_body(buf + 8, body, &r->foot, &why);
	if (!err)
		r->have_footer = true;
out:
	free(buf);
	return err;
}

int nvt_reader_seek_time(struct nvt_reader *r, uint64_t t_ns)
{
	const struct nvt_index_entry *e = NULL;
	int err;

	if (r->done < 0)
		return r->done;
	if (!r->have_footer) {
		err = load_tail_footer(r);
		if (err)
			return err;
	}
	if (!r->foot.nindex)
		return -ENOENT;
	e = &r->foot.index[0];
	for (uint32_t i = 1; i < r->foot.nindex; i++)
		if (r->foot.index[i].min_complete_ns <= t_ns)
			e = &r->foot.index[i];
	if (lseek(r->fd, (off_t)e->file_offset, SEEK_SET) < 0)
		return -errno;
	r->pos = e->file_offset;
	r->info.used_bytes = e->file_offset;
	r->next_seq = e->seq;
	r->seeked = true;
	r->done = 0;
	r->info.footer = 0;
	r->info.truncated = 0;
	r->info.unused_bytes = 0;
	return 0;
}

size_t nvt_reader_nkv(const struct nvt_reader *r)
{
	return r->nkv;
}

const struct nvt_kv *nvt_reader_kv(const struct nvt_reader *r)
{
	return r->kv;
}

const char *nvt_reader_get(const struct nvt_reader *r, const char *key)
{
	for (size_t i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].value;
	return NULL;
}

int nvt_reader_footer_get(struct nvt_reader *r, const char *key, const char **value)
{
	int err;

	*value = NULL;
	if (!r->have_footer && (err = load_tail_footer(r)))
		return err;
	for (size_t i = 0; i < r->foot.nkv; i++)
		if (!strcmp(r->foot.kv[i].key, key)) {
			*value = r->foot.kv[i].value;
			break;
		}
	return 0;
}

int nvt_reader_footer_records(struct nvt_reader *r, uint64_t *records)
{
	int err;

	if (!r->have_footer && (err = load_tail_footer(r)))
		return err;
	*records = r->foot.records;
	return 0;
}

const struct nvt_footer *nvt_reader_footer(const struct nvt_reader *r)
{
	return r->info.footer ? &r->foot : NULL;
}

int nvt_reader_follow(struct nvt_reader *r, bool on)
{
	if (on && !r->seekable)
		return -ESPIPE;
	r->follow = on;
	return 0;
}

uint64_t nvt_reader_pos(const struct nvt_reader *r)
{
	return r->pos;
}

int nvt_reader_fd(const struct nvt_reader *r)
{
	return r->fd;
}

void nvt_reader_info(const struct nvt_reader *r, struct nvt_read_info *info)
{
	*info = r->info;
}

const char *nvt_reader_strerror(const struct nvt_reader *r)
{
	return r->done < 0 ? r->errmsg : "";
}

const char *nvt_reader_path(const struct nvt_reader *r)
{
	return r->path;
}

/* Return: nothing; r's column arrays freed (grow_cols makes them again). */
static void free_cols(struct nvt_reader *r)
{
	struct nvt_col_field f[NVT_NCOLS];

	nvt_col_fields(&r->cols, f);
	for (size_t i = 0; i < NVT_NCOLS; i++) {
		free(*f[i].p);
		*f[i].p = NULL;
	}
	r->col_cap = 0;
}

int nvt_reader_keep_rest(struct nvt_reader *r, size_t from)
{
	struct nvt_packed *p;

	if (from > r->view.n)
		return -EINVAL;
	if (from == r->view.n)	/* nothing left: nothing held */
		p = NULL;
	else if (nvt_cols_pack(&r->view, from, &p))
		return -ENOMEM;
	nvt_packed_free(r->rest);
	r->rest = p;
	free_cols(r);
	r->view = (struct nvt_cols){ 0 };
	return 0;
}

int nvt_reader_unpack_rest(struct nvt_reader *r)
{
	struct nvt_col_field f[NVT_NCOLS];
	struct nvt_cols c;
	unsigned want;

	if (!r->rest)
		return 0;
	want = nvt_packed_want(r->rest);
	if (grow_cols(r, nvt_packed_n(r->rest), want))
		return -ENOMEM;
	c = r->cols;
	nvt_col_fields(&c, f);
	for (size_t i = 1; i < NVT_NCOLS; i++)	/* as next_cols returned them */
		if (!(want & f[i].bit))
			*f[i].p = NULL;
	nvt_cols_unpack(r->rest, &c);
	nvt_packed_free(r->rest);
	r->rest = NULL;
	r->view = c;
	return 1;
}

void nvt_reader_scratch(struct nvt_reader *r, struct nvt_scratch *s)
{
	r->scr = s ? s : &r->own;
}

void nvt_scratch_free(struct nvt_scratch *s)
{
	free(s->comp);
	free(s->raw);
	free(s->tmp);
	if (s->z) {
		inflateEnd(s->z);
		free(s->z);
	}
	ZSTD_freeDCtx(s->zd);
	memset(s, 0, sizeof(*s));
}

void nvt_reader_close(struct nvt_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	nvt_kv_free(r->kv, r->nkv);
	nvt_footer_free(&r->foot);
	nvt_scratch_free(&r->own);
	free(r->recs);
	free_cols(r);
	nvt_packed_free(r->rest);
	free(r->path);
	free(r);
}
