/*
 * nvme_pi.c - host-side protection information: CRC-16/T10-DIF and the
 * per-block PI tuple generate/verify for separate and interleaved metadata.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nvme/nvme_pi.h"
#include "nvme/nvme_cmd.h"
#include "nvme/nvme_id.h"
#include "nvme/nvme_msg.h"

/* CRC-16/T10-DIF, polynomial 0x8BB7, MSB first: table[i] = crc of byte i. */
static const uint16_t t10dif_table[256] = {
	0x0000, 0x8bb7, 0x9cd9, 0x176e, 0xb205, 0x39b2, 0x2edc, 0xa56b,
	0xefbd, 0x640a, 0x7364, 0xf8d3, 0x5db8, 0xd60f, 0xc161, 0x4ad6,
	0x54cd, 0xdf7a, 0xc814, 0x43a3, 0xe6c8, 0x6d7f, 0x7a11, 0xf1a6,
	0xbb70, 0x30c7, 0x27a9, 0xac1e, 0x0975, 0x82c2, 0x95ac, 0x1e1b,
	0xa99a, 0x222d, 0x3543, 0xbef4, 0x1b9f, 0x9028, 0x8746, 0x0cf1,
	0x4627, 0xcd90, 0xdafe, 0x5149, 0xf422, 0x7f95, 0x68fb, 0xe34c,
	0xfd57, 0x76e0, 0x618e, 0xea39, 0x4f52, 0xc4e5, 0xd38b, 0x583c,
	0x12ea, 0x995d, 0x8e33, 0x0584, 0xa0ef, 0x2b58, 0x3c36, 0xb781,
	0xd883, 0x5334, 0x445a, 0xcfed, 0x6a86, 0xe131, 0xf65f, 0x7de8,
	0x373e, 0xbc89, 0xabe7, 0x2050, 0x853b, 0x0e8c, 0x19e2, 0x9255,
	0x8c4e, 0x07f9, 0x1097, 0x9b20, 0x3e4b, 0xb5fc, 0xa292, 0x2925,
	0x63f3, 0xe844, 0xff2a, 0x749d, 0xd1f6, 0x5a41, 0x4d2f, 0xc698,
	0x7119, 0xfaae, 0xedc0, 0x6677, 0xc31c, 0x48ab, 0x5fc5, 0xd472,
	0x9ea4, 0x1513, 0x027d, 0x89ca, 0x2ca1, 0xa716, 0xb078, 0x3bcf,
	0x25d4, 0xae63, 0xb90d, 0x32ba, 0x97d1, 0x1c66, 0x0b08, 0x80bf,
	0xca69, 0x41de, 0x56b0, 0xdd07, 0x786c, 0xf3db, 0xe4b5, 0x6f02,
	0x3ab1, 0xb106, 0xa668, 0x2ddf, 0x88b4, 0x0303, 0x146d, 0x9fda,
	0xd50c, 0x5ebb, 0x49d5, 0xc262, 0x6709, 0xecbe, 0xfbd0, 0x7067,
	0x6e7c, 0xe5cb, 0xf2a5, 0x7912, 0xdc79, 0x57ce, 0x40a0, 0xcb17,
	0x81c1, 0x0a76, 0x1d18, 0x96af, 0x33c4, 0xb873, 0xaf1d, 0x24aa,
	0x932b, 0x189c, 0x0ff2, 0x8445, 0x212e, 0xaa99, 0xbdf7, 0x3640,
	0x7c96, 0xf721, 0xe04f, 0x6bf8, 0xce93, 0x4524, 0x524a, 0xd9fd,
	0xc7e6, 0x4c51, 0x5b3f, 0xd088, 0x75e3, 0xfe54, 0xe93a, 0x628d,
	0x285b, 0xa3ec, 0xb482, 0x3f35, 0x9a5e, 0x11e9, 0x0687, 0x8d30,
	0xe232, 0x6985, 0x7eeb, 0xf55c, 0x5037, 0xdb80, 0xccee, 0x4759,
	0x0d8f, 0x8638, 0x9156, 0x1ae1, 0xbf8a, 0x343d, 0x2353, 0xa8e4,
	0xb6ff, 0x3d48, 0x2a26, 0xa191, 0x04fa, 0x8f4d, 0x9823, 0x1394,
	0x5942, 0xd2f5, 0xc59b, 0x4e2c, 0xeb47, 0x60f0, 0x779e, 0xfc29,
	0x4ba8, 0xc01f, 0xd771, 0x5cc6, 0xf9ad, 0x721a, 0x6574, 0xeec3,
	0xa415, 0x2fa2, 0x38cc, 0xb37b, 0x1610, 0x9da7, 0x8ac9, 0x017e,
	0x1f65, 0x94d2, 0x83bc, 0x080b, 0xad60, 0x26d7, 0x31b9, 0xba0e,
	0xf0d8, 0x7b6f, 0x6c01, 0xe7b6, 0x42dd, 0xc96a, 0xde04, 0x55b3,
};

uint16_t nv_crc16_t10dif(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		crc = (uint16_t)(crc << 8) ^ t10dif_table[((crc >> 8) ^ *p++) & 0xff];
	return crc;
}

int nv_pi_fmt_init(struct nv_pi_fmt *f, const struct nv_ns_info *ns, char *msg, size_t msglen)
{
	if (!ns->pi_type)
		return nv_msg_fail(msg, msglen, "namespace has no protection information (format "
				   "%u)",
				   ns->fmt_index);
	if (ns->pi_type > 3)
		return nv_msg_fail(msg, msglen, "unknown protection information type %u",
				   ns->pi_type);
	if (ns->md_size < NV_PI_TUPLE_LEN)
		return nv_msg_fail(msg, msglen, "PI type %u with %u metadata bytes (need 8)",
				   ns->pi_type, ns->md_size);
	memset(f, 0, sizeof(*f));
	f->lba_size = ns->lba_size;
	f->md_size = ns->md_size;
	f->ext_lba = ns->ext_lba;
	f->pi_first = ns->pi_first;
	f->pi_type = ns->pi_type;
	return 0;
}

/* Block i's data and metadata, for either layout. */
static void block_at(const struct nv_pi_fmt *f, const uint8_t *data, const uint8_t *md,
		     uint32_t i, const uint8_t **d, const uint8_t **m)
{
	if (f->ext_lba) {
		*d = data + (size_t)i * (f->lba_size + f->md_size);
		*m = *d + f->lba_size;
	} else {
		*d = data + (size_t)i * f->lba_size;
		*m = md + (size_t)i * f->md_size;
	}
}

/* Guard of one block: data, then the metadata before a trailing PI. */
static uint16_t block_guard(const struct nv_pi_fmt *f, const uint8_t *d, const uint8_t *m)
{
	uint16_t crc = nv_crc16_t10dif(0, d, f->lba_size);

	if (!f->pi_first)
		crc = nv_crc16_t10dif(crc, m, f->md_size - NV_PI_TUPLE_LEN);
	return crc;
}

static size_t pi_off(const struct nv_pi_fmt *f)
{
	return f->pi_first ? 0 : f->md_size - NV_PI_TUPLE_LEN;
}

static uint32_t expected_ref(const struct nv_pi_fmt *f, const struct nv_pi_tags *t, uint32_t i)
{
	return f->pi_type == 3 ? t->ref_init : t->ref_init + i;
}

void nv_pi_generate(const struct nv_pi_fmt *f, void *data, void *md, uint32_t nlb,
		    const struct nv_pi_tags *t)
{
	for (uint32_t i = 0; i < nlb; i++) {
		const uint8_t *d, *m;
		uint8_t *pi;
		uint16_t guard;
		uint32_t ref = expected_ref(f, t, i);

		block_at(f, data, md, i, &d, &m);
		guard = block_guard(f, d, m);
		pi = (uint8_t *)m + pi_off(f);
		pi[0] = (uint8_t)(guard >> 8);
		pi[1] = (uint8_t)guard;
		pi[2] = (uint8_t)(t->apptag >> 8);
		pi[3] = (uint8_t)t->apptag;
		pi[4] = (uint8_t)(ref >> 24);
		pi[5] = (uint8_t)(ref >> 16);
		pi[6] = (uint8_t)(ref >> 8);
		pi[7] = (uint8_t)ref;
	}
}

static int bad(struct nv_pi_err *err, uint32_t block, enum nv_pi_field field,
	       uint32_t expected, uint32_t actual)
{
	if (err) {
		err->block = block;
		err->field = field;
		err->expected = expected;
		err->actual = actual;
	}
	return -EILSEQ;
}

int nv_pi_verify(const struct nv_pi_fmt *f, const void *data, const void *md, uint32_t nlb,
		 const struct nv_pi_tags *t, struct nv_pi_err *err)
{
	for (uint32_t i = 0; i < nlb; i++) {
		const uint8_t *d, *m, *pi;
		uint16_t guard, app;
		uint32_t ref, want;

		block_at(f, data, md, i, &d, &m);
		pi = m + pi_off(f);
		guard = (uint16_t)(pi[0] << 8 | pi[1]);
		app = (uint16_t)(pi[2] << 8 | pi[3]);
		ref = (uint32_t)pi[4] << 24 | (uint32_t)pi[5] << 16 | (uint32_t)pi[6] << 8 | pi[7];

		if (app == 0xffff && (f->pi_type != 3 || ref == 0xffffffffu))
			continue;	/* escape: block not checked */
		if (t->prchk & NV_PRINFO_PRCHK_GUARD) {
			uint16_t calc = block_guard(f, d, m);

			if (calc != guard)
				return bad(err, i, NV_PI_FIELD_GUARD, calc, guard);
		}
		if ((t->prchk & NV_PRINFO_PRCHK_APP) &&
		    (app & t->apptag_mask) != (t->apptag & t->apptag_mask))
			return bad(err, i, NV_PI_FIELD_APPTAG, t->apptag, app);
		want = expected_ref(f, t, i);
		if ((t->prchk & NV_PRINFO_PRCHK_REF) && f->pi_type != 3 && ref != want)
			return bad(err, i, NV_PI_FIELD_REFTAG, want, ref);
	}
	return 0;
}

const char *nv_pi_field_name(enum nv_pi_field field)
{
	static const char *const names[] = {
		[NV_PI_FIELD_NONE]	= "none",
		[NV_PI_FIELD_GUARD]	= "guard",
		[NV_PI_FIELD_APPTAG]	= "apptag",
		[NV_PI_FIELD_REFTAG]	= "reftag",
	};

	if ((unsigned)field < sizeof(names) / sizeof(names[0]))
		return names[field];
	return "unknown";
}

char *nv_pi_err_str(const struct nv_pi_err *err, uint64_t first_lba, char *buf, size_t len)
{
	int w = err->field == NV_PI_FIELD_REFTAG ? 8 : 4;

	if (!buf || !len)
		return buf;
	snprintf(buf, len, "PI %s check failed at block %u (LBA %llu): expected 0x%0*x, found "
		 "0x%0*x",
		 nv_pi_field_name(err->field), err->block,
		 (unsigned long long)(first_lba + err->block), w, err->expected, w, err->actual);
	return buf;
}
