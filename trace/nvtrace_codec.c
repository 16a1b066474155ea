/*
 * nvtrace_codec.c - pure encode/decode of the small nvtrace format pieces: op
 * names, CRC and buffers, block headers, kv areas and the footer.  The record
 * payload is nvtrace_cols.c's, the compressed block nvtrace_zstream.c's.
 * docs/trace-format.md is the specification; keep the two in step.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/nvtrace_fmt.h"

static const char *const op_names[NVT_OP__MAX] = {
	[NVT_OP_READ] = "read",
	[NVT_OP_WRITE] = "write",
	[NVT_OP_TRIM] = "trim",
	[NVT_OP_FLUSH] = "flush",
	[NVT_OP_ZEROES] = "zeroes",
	[NVT_OP_UNCOR] = "uncor",
	[NVT_OP_VERIFY] = "verify",
};

const char *nvt_op_name(unsigned op)
{
	return op < NVT_OP__MAX ? op_names[op] : NULL;
}

int nvt_op_parse(const char *name)
{
	for (unsigned i = 0; i < NVT_OP__MAX; i++)
		if (!strcmp(op_names[i], name))
			return (int)i;
	return -1;
}

uint32_t nvt_crc32(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *b = p;

	while (n) {	/* crc32() takes a uInt length */
		uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = crc32(c, b, chunk);
		b += chunk;
		n -= chunk;
	}
	return (uint32_t)c;
}

int nvt_buf_reserve(struct nvt_buf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (b->cap - b->len >= more)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

void nvt_touch_pages(void *p, size_t n)
{
	volatile uint8_t *b = p;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < n; i += pg)
		b[i] = 0;
	if (n)
		b[n - 1] = 0;
}

void nvt_buf_free(struct nvt_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- block header ---- */

void nvt_block_hdr_pack(uint8_t *out, const struct nvt_block_hdr *h)
{
	memcpy(out, NVT_BLOCK_MAGIC, 4);
	nvt_put32(out + 4, h->seq);
	nvt_put32(out + 8, h->nrec);
	nvt_put32(out + 12, h->raw_len);
	nvt_put32(out + 16, h->comp_len);
	nvt_put32(out + 20, h->payload_crc);
	nvt_put64(out + 24, h->min_complete_ns);
	nvt_put64(out + 32, h->max_complete_ns);
	out[40] = h->codec;
	out[41] = h->zlevel;
	nvt_put16(out + 42, 0);
	nvt_put32(out + 44, nvt_crc32(out, 44));
}

int nvt_block_hdr_unpack(const uint8_t *in, struct nvt_block_hdr *h, const char **why)
{
	if (memcmp(in, NVT_BLOCK_MAGIC, 4)) {
		*why = "no block sync magic";
		return -EBADMSG;
	}
	if (nvt_get32(in + 44) != nvt_crc32(in, 44)) {
		*why = "block header CRC mismatch";
		return -EBADMSG;
	}
	h->seq = nvt_get32(in + 4);
	h->nrec = nvt_get32(in + 8);
	h->raw_len = nvt_get32(in + 12);
	h->comp_len = nvt_get32(in + 16);
	h->payload_crc = nvt_get32(in + 20);
	h->min_complete_ns = nvt_get64(in + 24);
	h->max_complete_ns = nvt_get64(in + 32);
	h->codec = in[40];
	h->zlevel = in[41];
	if (h->codec != NVT_CODEC_ZLIB && h->codec != NVT_CODEC_ZSTD) {
		*why = "unknown block codec";
		return -EBADMSG;
	}
	if (!h->nrec || h->nrec > NVT_MAX_BLOCK_RECORDS || h->raw_len > NVT_RAW_BOUND(h->nrec) ||
	    h->min_complete_ns > h->max_complete_ns) {
		*why = "block header fields out of range";
		return -EBADMSG;
	}
	return 0;
}

/* ---- kv areas ---- */

int nvt_kv_check(const struct nvt_kv *kv, size_t n)
{
	uint64_t total = 4;

	for (size_t i = 0; i < n; i++) {
		size_t kl, vl;

		if (!kv[i].key || !kv[i].value)
			return -EINVAL;
		kl = strlen(kv[i].key);
		vl = strlen(kv[i].value);
		if (!kl || kl > UINT16_MAX)
			return -EINVAL;
		total += 6 + kl + vl;
		if (total > NVT_MAX_KV_BYTES)
			return -EINVAL;
	}
	return 0;
}

int nvt_kv_encode(const struct nvt_kv *kv, size_t n, struct nvt_buf *out)
{
	int err = nvt_kv_check(kv, n);

	if (err)
		return err;
	if (nvt_buf_reserve(out, 4))
		return -ENOMEM;
	nvt_put32(out->p + out->len, (uint32_t)n);
	out->len += 4;
	for (size_t i = 0; i < n; i++) {
		size_t kl = strlen(kv[i].key), vl = strlen(kv[i].value);

		if (nvt_buf_reserve(out, 6 + kl + vl))
			return -ENOMEM;
		nvt_put16(out->p + out->len, (uint16_t)kl);
		nvt_put32(out->p + out->len + 2, (uint32_t)vl);
		memcpy(out->p + out->len + 6, kv[i].key, kl);
		memcpy(out->p + out->len + 6 + kl, kv[i].value, vl);
		out->len += 6 + kl + vl;
	}
	return 0;
}

void nvt_kv_free(struct nvt_kv *kv, size_t n)
{
	if (!kv)
		return;
	for (size_t i = 0; i < n; i++) {
		free((char *)kv[i].key);
		free((char *)kv[i].value);
	}
	free(kv);
}

/* A copy of in[0..n) as a C string; NULL if it holds a NUL or on ENOMEM. */
static char *dup_field(const uint8_t *in, size_t n)
{
	char *s;

	if (memchr(in, 0, n))
		return NULL;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, in, n);
	s[n] = 0;
	return s;
}

int nvt_kv_decode(const uint8_t *in, size_t len, size_t *used, struct nvt_kv **kvp, size_t *np,
		  const char **why)
{
	struct nvt_kv *kv = NULL;
	size_t pos = 4, n, i;

	*why = "malformed key/value area";
	if (len < 4)
		return -EBADMSG;
	n = nvt_get32(in);
	if (n > (len - 4) / 6)
		return -EBADMSG;
	kv = calloc(n ? n : 1, sizeof(*kv));
	if (!kv) {
		*why = "out of memory";
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		size_t kl, vl;

		if (len - pos < 6)
			goto bad;
		kl = nvt_get16(in + pos);
		vl = nvt_get32(in + pos + 2);
		pos += 6;
		if (!kl || kl > len - pos || vl > len - pos - kl)
			goto bad;
		kv[i].key = dup_field(in + pos, kl);
		kv[i].value = dup_field(in + pos + kl, vl);
		pos += kl + vl;
		if (!kv[i].key || !kv[i].value) {
			i++;
			goto bad;
		}
	}
	*used = pos;
	*kvp = kv;
	*np = n;
	*why = NULL;
	return 0;
bad:
	nvt_kv_free(kv, i);
	return -EBADMSG;
}

/* ---- footer ---- */

int nvt_footer_encode(const struct nvt_footer *f, struct nvt_buf *out)
{
	size_t start = out->len, body, need;
	uint8_t *p;
	int err;

	need = 8 + 4 + 8 + 16 + 4 + (size_t)NVT_OP__MAX * 24 + 8 + (size_t)f->nindex * 24;
	err = nvt_buf_reserve(out, need);
	if (err)
		return err;
	p = out->p + start;
	memcpy(p, NVT_FOOTER_MAGIC, 4);
	/* p + 4: body length, filled in below */
	p += 8;
	nvt_put32(p, f->blocks);
	nvt_put64(p + 4, f->records);
	nvt_put64(p + 12, f->min_complete_ns);
	nvt_put64(p + 20, f->max_complete_ns);
	nvt_put32(p + 28, NVT_OP__MAX);
	p += 32;
	for (unsigned i = 0; i < NVT_OP__MAX; i++, p += 24) {
		nvt_put64(p, f->op[i].records);
		nvt_put64(p + 8, f->op[i].bytes);
		nvt_put64(p + 16, f->op[i].errors);
	}
	nvt_put32(p, f->index_stride);
	nvt_put32(p + 4, f->nindex);
	p += 8;
	for (uint32_t i = 0; i < f->nindex; i++, p += 24) {
		nvt_put64(p, f->index[i].file_offset);
		nvt_put64(p + 8, f->index[i].min_complete_ns);
		nvt_put32(p + 16, f->index[i].seq);
		nvt_put32(p + 20, f->index[i].nrec);
	}
	out->len = (size_t)(p - out->p);
	err = nvt_kv_encode(f->kv, f->nkv, out);
	if (err)
		return err;
	body = out->len - start - 8;
	if (body + 12 + NVT_TRAILER_LEN > NVT_MAX_FOOTER_BYTES)
		return -E2BIG;
	err = nvt_buf_reserve(out, 4 + NVT_TRAILER_LEN);
	if (err)
		return err;
	p = out->p + start;
	nvt_put32(p + 4, (uint32_t)body);
	nvt_put32(out->p + out->len, nvt_crc32(p, 8 + body));
	out->len += 4;
	nvt_put32(out->p + out->len, (uint32_t)(8 + body + 4));
	memcpy(out->p + out->len + 4, NVT_TRAILER_MAGIC, 4);
	out->len += NVT_TRAILER_LEN;
	return 0;
}

int nvt_footer_decode_body(const uint8_t *in, size_t len, struct nvt_footer *f, const char **why)
{
	size_t pos, used, nops;
	int err;

	memset(f, 0, sizeof(*f));
	*why = "malformed footer";
	if (len < 32)
		return -EBADMSG;
	f->blocks = nvt_get32(in);
	f->records = nvt_get64(in + 4);
	f->min_complete_ns = nvt_get64(in + 12);
	f->max_complete_ns = nvt_get64(in + 20);
	nops = nvt_get32(in + 28);
	pos = 32;
	if (nops > (len - pos) / 24)
		return -EBADMSG;
	for (size_t i = 0; i < nops; i++, pos += 24) {
		if (i >= NVT_OP__MAX) {
			/* an op this reader does not know: it cannot be reported */
			if (nvt_get64(in + pos)) {
				*why = "footer counts an operation this reader does not know";
				return -EBADMSG;
			}
			continue;
		}
		f->op[i].records = nvt_get64(in + pos);
		f->op[i].bytes = nvt_get64(in + pos + 8);
		f->op[i].errors = nvt_get64(in + pos + 16);
	}
	if (len - pos < 8)
		return -EBADMSG;
	f->index_stride = nvt_get32(in + pos);
	f->nindex = nvt_get32(in + pos + 4);
	pos += 8;
	if (f->nindex > (len - pos) / 24)
		return -EBADMSG;
	if (f->nindex) {
		f->index = calloc(f->nindex, sizeof(*f->index));
		if (!f->index) {
			*why = "out of memory";
			return -ENOMEM;
		}
	}
	for (uint32_t i = 0; i < f->nindex; i++, pos += 24) {
		f->index[i].file_offset = nvt_get64(in + pos);
		f->index[i].min_complete_ns = nvt_get64(in + pos + 8);
		f->index[i].seq = nvt_get32(in + pos + 16);
		f->index[i].nrec = nvt_get32(in + pos + 20);
	}
	err = nvt_kv_decode(in + pos, len - pos, &used, &f->kv, &f->nkv, why);
	if (err) {
		nvt_footer_free(f);
		return err;
	}
	/* bytes after the kv area belong to later minor versions: ignored */
	*why = NULL;
	return 0;
}

void nvt_footer_free(struct nvt_footer *f)
{
	free(f->index);
	f->index = NULL;
	nvt_kv_free(f->kv, f->nkv);
	f->kv = NULL;
	f->nkv = 0;
}
