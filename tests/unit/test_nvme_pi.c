/* test_nvme_pi.c - CRC-16/T10-DIF and host-side PI generate/verify. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "nvme/nvme_pi.h"
#include "nvme/nvme_cmd.h"
#include "nvme/nvme_id.h"

/* Bit-at-a-time reference implementation, independent of the table. */
static uint16_t crc_ref(const uint8_t *p, size_t n)
{
	uint16_t crc = 0;

	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x8bb7)
				: (uint16_t)(crc << 1);
	}
	return crc;
}

static uint32_t rnd_state = 12345;
static uint8_t rnd8(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (uint8_t)(rnd_state >> 16);
}

TEST(crc_vectors)
{
	uint8_t buf[4096];

	CHECK_EQ_U64(nv_crc16_t10dif(0, "123456789", 9), 0xd0db);
	CHECK_EQ_U64(nv_crc16_t10dif(0, "", 0), 0);
	memset(buf, 0, 512);
	CHECK_EQ_U64(nv_crc16_t10dif(0, buf, 512), 0);
	memset(buf, 0xff, 512);
	CHECK_EQ_U64(nv_crc16_t10dif(0, buf, 512), crc_ref(buf, 512));
	CHECK_EQ_U64(nv_crc16_t10dif(0, buf, 512), 0xe6a1);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = rnd8();
	for (size_t n = 0; n <= 4096; n += 37)
		CHECK_EQ_U64(nv_crc16_t10dif(0, buf, n), crc_ref(buf, n));
	/* continuing a CRC equals one pass */
	CHECK_EQ_U64(nv_crc16_t10dif(nv_crc16_t10dif(0, buf, 1000), buf + 1000, 3096),
		     nv_crc16_t10dif(0, buf, 4096));
}

TEST(tuple_layout)
{
	/* separate metadata, 8 bytes, PI type 1: exact big-endian bytes */
	struct nv_pi_fmt f = { .lba_size = 512, .md_size = 8, .pi_type = 1 };
	struct nv_pi_tags t = { .ref_init = 0x01020304, .apptag = 0x1234 };
	uint8_t data[1024], md[16];
	static const uint8_t want0[8] = { 0xe6, 0xa1, 0x12, 0x34, 0x01, 0x02, 0x03, 0x04 };
	static const uint8_t want1[8] = { 0x00, 0x00, 0x12, 0x34, 0x01, 0x02, 0x03, 0x05 };

	memset(data, 0xff, 512);
	memset(data + 512, 0, 512);
	nv_pi_generate(&f, data, md, 2, &t);
	CHECK(!memcmp(md, want0, 8));
	CHECK(!memcmp(md + 8, want1, 8));

	/* type 3: reftag not incremented */
	f.pi_type = 3;
	nv_pi_generate(&f, data, md, 2, &t);
	CHECK(md[15] == 0x04);
}

TEST(pi_position)
{
	/* 16 bytes of metadata, PI last: guard covers data + md[0..8) */
	struct nv_pi_fmt f = { .lba_size = 512, .md_size = 16, .pi_type = 1 };
	struct nv_pi_tags t = { .ref_init = 7 };
	uint8_t data[512], md[16], both[520];

	memset(data, 0x5a, sizeof(data));
	memset(md, 0xc3, sizeof(md));
	nv_pi_generate(&f, data, md, 1, &t);
	memcpy(both, data, 512);
	memcpy(both + 512, md, 8);
	CHECK_EQ_U64((uint16_t)(md[8] << 8 | md[9]), crc_ref(both, 520));
	CHECK(md[0] == 0xc3 && md[7] == 0xc3);	/* user metadata untouched */
	CHECK(md[15] == 7);

	/* PI first: guard covers data only, tuple at md[0] */
	f.pi_first = true;
	memset(md, 0xc3, sizeof(md));
	nv_pi_generate(&f, data, md, 1, &t);
	CHECK_EQ_U64((uint16_t)(md[0] << 8 | md[1]), crc_ref(data, 512));
	CHECK(md[7] == 7);
	CHECK(md[8] == 0xc3 && md[15] == 0xc3);
}

TEST(extended_layout)
{
	/* 4 blocks of 512 + 8, PI in the 8 metadata bytes after each block */
	struct nv_pi_fmt f = { .lba_size = 512, .md_size = 8, .ext_lba = true, .pi_type = 1 };
	struct nv_pi_tags t = { .ref_init = 100, .apptag = 0xabcd, .prchk = 0x7 };
	uint8_t buf[4 * 520];
	struct nv_pi_err e;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = rnd8();
	nv_pi_generate(&f, buf, NULL, 4, &t);
	for (int i = 0; i < 4; i++) {
		const uint8_t *pi = buf + i * 520 + 512;
		CHECK_EQ_U64((uint16_t)(pi[0] << 8 | pi[1]), crc_ref(buf + i * 520, 512));
		CHECK(pi[2] == 0xab && pi[3] == 0xcd);
		CHECK_EQ_U64((uint32_t)pi[4] << 24 | pi[5] << 16 | pi[6] << 8 | pi[7],
			     100 + (uint32_t)i);
	}
	CHECK_EQ_I64(nv_pi_verify(&f, buf, NULL, 4, &t, &e), 0);
	buf[2 * 520 + 100] ^= 0x10;
	CHECK_EQ_I64(nv_pi_verify(&f, buf, NULL, 4, &t, &e), -EILSEQ);
	CHECK_EQ_U64(e.block, 2);
	CHECK_EQ_U64(e.field, NV_PI_FIELD_GUARD);
}

/* Build a 4-block buffer in format f, generate, return 0 if it verifies. */
struct layout {
	struct nv_pi_fmt f;
	uint8_t *data, *md;
	size_t data_len, md_len;
};

static void layout_init(struct layout *l, uint32_t lba, uint32_t ms, bool ext, bool first,
			uint8_t type)
{
	l->f = (struct nv_pi_fmt){ .lba_size = lba, .md_size = ms, .ext_lba = ext,
				   .pi_first = first, .pi_type = type };
	l->data_len = ext ? 4 * (size_t)(lba + ms) : 4 * (size_t)lba;
	l->md_len = ext ? 0 : 4 * (size_t)ms;
	l->data = malloc(l->data_len);
	l->md = l->md_len ? malloc(l->md_len) : NULL;
	for (size_t i = 0; i < l->data_len; i++)
		l->data[i] = rnd8();
	for (size_t i = 0; i < l->md_len; i++)
		l->md[i] = rnd8();
}

static uint8_t *md_of(struct layout *l, uint32_t blk)
{
	return l->f.ext_lba ? l->data + blk * (size_t)(l->f.lba_size + l->f.md_size) +
			      l->f.lba_size
			    : l->md + blk * (size_t)l->f.md_size;
}

static uint8_t *data_of(struct layout *l, uint32_t blk)
{
	return l->f.ext_lba ? l->data + blk * (size_t)(l->f.lba_size + l->f.md_size)
			    : l->data + blk * (size_t)l->f.lba_size;
}

/*
 * Round trip in every layout and type, then flip each bit of block 1's data
 * and of its PI tuple in turn: every flip must be caught in block 1 by the
 * right field (or, for type 3 reftag bits, not at all).
 */
TEST(round_trip_single_bit)
{
	static const struct { uint32_t lba, ms; bool ext, first; } fmts[] = {
		{ 512, 8, false, false }, { 512, 16, false, false }, { 512, 16, false, true },
		{ 4096, 8, true, false }, { 512, 16, true, true }, { 512, 64, true, false },
	};
	struct nv_pi_err e;

	for (size_t fi = 0; fi < sizeof(fmts) / sizeof(fmts[0]); fi++) {
		for (uint8_t type = 1; type <= 3; type++) {
			struct layout l;
			struct nv_pi_tags t = { .ref_init = 0xfffffffe, .apptag = 0x4242,
						.apptag_mask = 0xffff, .prchk = 0x7 };
			uint8_t *pi, *d;
			size_t bits;
			int missed = 0, wrong = 0;

			layout_init(&l, fmts[fi].lba, fmts[fi].ms, fmts[fi].ext, fmts[fi].first,
				    type);
			nv_pi_generate(&l.f, l.data, l.md, 4, &t);
			CHECK_EQ_I64(nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e), 0);

			d = data_of(&l, 1);
			bits = (size_t)l.f.lba_size * 8;
			for (size_t b = 0; b < bits; b += (b < 64 ? 1 : 7)) {
				d[b / 8] ^= (uint8_t)(1 << (b % 8));
				if (nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e) != -EILSEQ)
					missed++;
				else if (e.block != 1 || e.field != NV_PI_FIELD_GUARD)
					wrong++;
				d[b / 8] ^= (uint8_t)(1 << (b % 8));
			}
			pi = md_of(&l, 1) + (l.f.pi_first ? 0 : l.f.md_size - 8);
			for (size_t b = 0; b < 64; b++) {
				enum nv_pi_field want =
					b < 16 ? NV_PI_FIELD_GUARD :
					b < 32 ? NV_PI_FIELD_APPTAG : NV_PI_FIELD_REFTAG;
				int ret;

				pi[b / 8] ^= (uint8_t)(0x80 >> (b % 8));
				ret = nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e);
				if (want == NV_PI_FIELD_REFTAG && type == 3) {
					if (ret != 0)
						wrong++;
				} else if (ret != -EILSEQ) {
					missed++;
				} else if (e.block != 1 || e.field != want) {
					wrong++;
				}
				pi[b / 8] ^= (uint8_t)(0x80 >> (b % 8));
			}
			CHECK_EQ_I64(missed, 0);
			CHECK_EQ_I64(wrong, 0);
			CHECK_EQ_I64(nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e), 0);
			free(l.data);
			free(l.md);
		}
	}
}

TEST(metadata_coverage)
{
	struct layout l;
	struct nv_pi_tags t = { .prchk = NV_PRINFO_PRCHK_GUARD };
	struct nv_pi_err e;

	/* PI last in 16 bytes: the 8 user metadata bytes before it are guarded */
	layout_init(&l, 512, 16, false, false, 1);
	nv_pi_generate(&l.f, l.data, l.md, 4, &t);
	md_of(&l, 3)[0] ^= 1;
	CHECK_EQ_I64(nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e), -EILSEQ);
	CHECK_EQ_U64(e.block, 3);
	free(l.data);
	free(l.md);

	/* PI first: the metadata after it is not covered */
	layout_init(&l, 512, 16, false, true, 1);
	nv_pi_generate(&l.f, l.data, l.md, 4, &t);
	md_of(&l, 3)[15] ^= 1;
	CHECK_EQ_I64(nv_pi_verify(&l.f, l.data, l.md, 4, &t, &e), 0);
	free(l.data);
	free(l.md);
}

TEST(checks_selected_and_masked)
{
	struct nv_pi_fmt f = { .lba_size = 512, .md_size = 8, .pi_type = 1 };
	struct nv_pi_tags t = { .ref_init = 10, .apptag = 0x12ff, .apptag_mask = 0xff00 };
	uint8_t data[1024] = { 0 }, md[16];
	struct nv_pi_err e = { 0 };
	char msg[160];

	nv_pi_generate(&f, data, md, 2, &t);
	/* apptag differs only in masked-out bits: passes */
	t.apptag = 0x1200;
	t.prchk = NV_PRINFO_PRCHK_APP;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, &e), 0);
	t.apptag = 0x1300;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, &e), -EILSEQ);
	CHECK_EQ_U64(e.block, 0);
	CHECK_EQ_U64(e.field, NV_PI_FIELD_APPTAG);
	CHECK_EQ_U64(e.expected, 0x1300);
	CHECK_EQ_U64(e.actual, 0x12ff);
	CHECK_STR(nv_pi_err_str(&e, 10, msg, sizeof(msg)),
		  "PI apptag check failed at block 0 (LBA 10): expected 0x1300, found 0x12ff");
	/* not selected: not checked */
	t.prchk = NV_PRINFO_PRCHK_GUARD;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, &e), 0);

	/* reftag: the wrong starting LBA is caught, at block 0 */
	t.prchk = NV_PRINFO_PRCHK_REF;
	t.ref_init = 11;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, NULL), -EILSEQ);
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, &e), -EILSEQ);
	CHECK_EQ_U64(e.field, NV_PI_FIELD_REFTAG);
	CHECK_EQ_U64(e.expected, 11);
	CHECK_EQ_U64(e.actual, 10);
	CHECK_STR(nv_pi_err_str(&e, 11, msg, sizeof(msg)),
		  "PI reftag check failed at block 0 (LBA 11): expected 0x0000000b, found "
		  "0x0000000a");
	/* nothing selected: nothing checked */
	t.prchk = 0;
	data[5] = 1;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 2, &t, &e), 0);
}

TEST(escapes)
{
	struct nv_pi_fmt f = { .lba_size = 512, .md_size = 8, .pi_type = 1 };
	struct nv_pi_tags t = { .ref_init = 0, .apptag = 0xffff, .apptag_mask = 0xffff,
				.prchk = 0x7 };
	uint8_t data[512] = { 0 }, md[8];
	struct nv_pi_err e;

	/* type 1/2: apptag 0xFFFF disables all checks of the block */
	nv_pi_generate(&f, data, md, 1, &t);
	data[0] = 1;			/* bad guard */
	md[7] = 0x55;			/* bad reftag */
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 1, &t, &e), 0);
	f.pi_type = 2;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 1, &t, &e), 0);

	/* type 3: needs apptag 0xFFFF and reftag 0xFFFFFFFF */
	f.pi_type = 3;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 1, &t, &e), -EILSEQ);
	CHECK_EQ_U64(e.field, NV_PI_FIELD_GUARD);
	t.ref_init = 0xffffffff;
	nv_pi_generate(&f, data, md, 1, &t);
	data[0] = 2;
	CHECK_EQ_I64(nv_pi_verify(&f, data, md, 1, &t, &e), 0);
}

TEST(fmt_init)
{
	struct nv_ns_info ns = { .lba_size = 4096, .md_size = 16, .pi_type = 2, .pi_first = true,
				 .ext_lba = true };
	struct nv_pi_fmt f;
	char msg[128] = "";

	CHECK_EQ_I64(nv_pi_fmt_init(&f, &ns, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(f.lba_size, 4096);
	CHECK_EQ_U64(f.md_size, 16);
	CHECK(f.pi_first && f.ext_lba);
	CHECK_EQ_U64(f.pi_type, 2);
	ns.pi_type = 0;
	ns.fmt_index = 4;
	CHECK_EQ_I64(nv_pi_fmt_init(&f, &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "namespace has no protection information (format 4)");
	ns.pi_type = 1;
	ns.md_size = 4;
	CHECK_EQ_I64(nv_pi_fmt_init(&f, &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "PI type 1 with 4 metadata bytes (need 8)");
	CHECK_STR(nv_pi_field_name(NV_PI_FIELD_REFTAG), "reftag");
	CHECK_STR(nv_pi_field_name((enum nv_pi_field)9), "unknown");
}

int main(void)
{
	RUN(crc_vectors);
	RUN(tuple_layout);
	RUN(pi_position);
	RUN(extended_layout);
	RUN(round_trip_single_bit);
	RUN(metadata_coverage);
	RUN(checks_selected_and_masked);
	RUN(escapes);
	RUN(fmt_init);
	return check_summary();
}
