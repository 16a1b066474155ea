/*
 * fuzz_trace_block - the trace codec's pieces on their own, without CRCs
 * and zlib in the way.
 *
 * Input: a selector byte, then
 *   0: u16 nrec (little-endian, 0 becomes 1), then a raw block payload for
 *      nvt_decode_records();
 *   1: a 48-byte block header for nvt_block_hdr_unpack() (short input is
 *      zero-padded);
 *   2: a kv area for nvt_kv_decode();
 *   3: a footer body for nvt_footer_decode_body().
 *
 * Invariants: whatever decodes must survive a round trip: records decoded,
 * encoded with nvt_encode_records() and decoded again are the same records
 * (and the encoder's min/max completion time are theirs); a block header
 * packs back to equal fields; a kv area re-encodes to exactly the bytes
 * consumed; a footer re-encodes and decodes to equal fields.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

static void fuzz_records(const uint8_t *d, size_t n)
{
	struct nvt_record *a = NULL, *b = NULL;
	struct nvt_buf enc = { 0 };
	uint64_t *tmp = NULL, lo, hi, min, max;
	const char *why;
	size_t nrec;

	if (n < 2)
		return;
	nrec = nvt_get16(d);
	if (!nrec)
		nrec = 1;
	d += 2;
	n -= 2;
	a = calloc(nrec, sizeof(*a));
	b = calloc(nrec, sizeof(*b));
	tmp = calloc(NVT_ENCODE_TMP(nrec), sizeof(*tmp));
	if (!a || !b || !tmp)
		goto out;
	if (nvt_decode_records(d, n, nrec, tmp, a, NULL, NULL, &why)) {
		if (!why || !*why)
			fuzz_fail("decode failed without a reason");
		goto out;
	}
	if (nvt_encode_records(a, nrec, tmp, &enc, &min, &max))
		goto out;
	if (nvt_decode_records(enc.p, enc.len, nrec, tmp, b, NULL, NULL, &why))
		fuzz_fail("re-encoded block does not decode: %s", why);
	lo = hi = a[0].complete_ns;
	for (size_t i = 0; i < nrec; i++) {
		if (memcmp(&a[i].submit_ns, &b[i].submit_ns, 3 * sizeof(uint64_t)) ||
		    a[i].length != b[i].length || a[i].status != b[i].status ||
		    a[i].qd != b[i].qd || a[i].op != b[i].op || a[i].file != b[i].file)
			fuzz_fail("record %zu changed in a round trip", i);
		if (a[i].complete_ns < lo)
			lo = a[i].complete_ns;
		if (a[i].complete_ns > hi)
			hi = a[i].complete_ns;
	}
	if (lo != min || hi != max)
		fuzz_fail("encoder min/max %" PRIu64 "/%" PRIu64 ", records %" PRIu64 "/%" PRIu64,
			  min, max, lo, hi);
out:
	nvt_buf_free(&enc);
	free(tmp);
	free(b);
	free(a);
}

static void fuzz_block_hdr(const uint8_t *d, size_t n)
{
	uint8_t in[NVT_BLOCK_HDR_LEN] = { 0 }, out[NVT_BLOCK_HDR_LEN];
	struct nvt_block_hdr h, h2;
	const char *why;

	memcpy(in, d, n < sizeof(in) ? n : sizeof(in));
	if (nvt_block_hdr_unpack(in, &h, &why))
		return;
	nvt_block_hdr_pack(out, &h);
	if (nvt_block_hdr_unpack(out, &h2, &why) || h.seq != h2.seq || h.nrec != h2.nrec ||
	    h.raw_len != h2.raw_len || h.comp_len != h2.comp_len ||
	    h.payload_crc != h2.payload_crc ||
	    h.min_complete_ns != h2.min_complete_ns || h.max_complete_ns != h2.max_complete_ns ||
	    h.codec != h2.codec || h.zlevel != h2.zlevel)
		fuzz_fail("block header changed in a round trip");
}

static void fuzz_kv(const uint8_t *d, size_t n)
{
	struct nvt_buf enc = { 0 };
	struct nvt_kv *kv = NULL;
	size_t used = 0, nkv = 0;
	const char *why;

	if (nvt_kv_decode(d, n, &used, &kv, &nkv, &why))
		return;
	if (used > n)
		fuzz_fail("kv decode used %zu of %zu bytes", used, n);
	if (nvt_kv_encode(kv, nkv, &enc) == 0 && (enc.len != used || memcmp(enc.p, d, used)))
		fuzz_fail("kv area changed in a round trip");
	nvt_buf_free(&enc);
	nvt_kv_free(kv, nkv);
}

static void fuzz_footer(const uint8_t *d, size_t n)
{
	struct nvt_footer f, g;
	struct nvt_buf enc = { 0 };
	const char *why;

	if (nvt_footer_decode_body(d, n, &f, &why))
		return;
	if (nvt_footer_encode(&f, &enc) == 0) {
		size_t body = nvt_get32(enc.p + 4);

		if (nvt_footer_decode_body(enc.p + 8, body, &g, &why))
			fuzz_fail("re-encoded footer does not decode: %s", why);
		if (g.blocks != f.blocks || g.records != f.records ||
		    g.min_complete_ns != f.min_complete_ns ||
		    g.max_complete_ns != f.max_complete_ns ||
		    memcmp(g.op, f.op, sizeof(f.op)) || g.index_stride != f.index_stride ||
		    g.nindex != f.nindex || g.nkv != f.nkv ||
		    (f.nindex && memcmp(g.index, f.index, f.nindex * sizeof(*f.index))))
			fuzz_fail("footer changed in a round trip");
		for (size_t i = 0; i < f.nkv; i++)
			if (strcmp(f.kv[i].key, g.kv[i].key) ||
			    strcmp(f.kv[i].value, g.kv[i].value))
				fuzz_fail("footer kv %zu changed in a round trip", i);
		nvt_footer_free(&g);
	}
	nvt_buf_free(&enc);
	nvt_footer_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] & 3) {
	case 0: fuzz_records(data + 1, size - 1); break;
	case 1: fuzz_block_hdr(data + 1, size - 1); break;
	case 2: fuzz_kv(data + 1, size - 1); break;
	case 3: fuzz_footer(data + 1, size - 1); break;
	}
	return 0;
}
