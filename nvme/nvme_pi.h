/*
 * nvme_pi.h - NVMe end-to-end protection information (T10 DIF style, 16-bit
 * guard) computed and checked on the host.
 *
 * When the job does not set PRACT, the host must supply the 8-byte PI tuple
 * of every logical block it writes, and may check the tuples of what it
 * reads.  The tuple, big endian, at the first or last 8 bytes of each
 * block's metadata (Identify Namespace DPS bit 3):
 *   bytes 0-1  guard    CRC-16/T10-DIF (poly 0x8BB7, init 0, no reflection)
 *                       over the block's data, and, when the PI is the last
 *                       8 metadata bytes, the metadata bytes before it
 *   bytes 2-3  apptag   application tag
 *   bytes 4-7  reftag   type 1: lower 32 bits of the LBA; type 2: the
 *                       command's initial reference tag + block index;
 *                       type 3: opaque, not checked
 * Escapes: an apptag of 0xFFFF disables checking of the block for types 1
 * and 2; for type 3 the apptag must be 0xFFFF and the reftag 0xFFFFFFFF.
 * Metadata lives in a separate buffer (md_size bytes per block) or, for
 * extended LBAs, after each block's data in the one buffer.
 */
#ifndef NV_NVME_PI_H
#define NV_NVME_PI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nv_ns_info;

#define NV_PI_TUPLE_LEN 8

struct nv_pi_fmt {
	uint32_t lba_size;	/* data bytes per block */
	uint32_t md_size;	/* metadata bytes per block, >= 8 */
	bool ext_lba;		/* metadata follows each block's data in one buffer */
	bool pi_first;		/* PI in the first 8 metadata bytes, else the last 8 */
	uint8_t pi_type;	/* 1, 2 or 3 */
};

/* What to write, and what to check (prchk: NV_PRINFO_PRCHK_* bits). */
struct nv_pi_tags {
	uint32_t ref_init;	/* reftag of block 0: (uint32_t)slba for types 1 and 2 */
	uint16_t apptag;
	uint16_t apptag_mask;	/* apptag bits compared when checking */
	uint8_t prchk;
};

enum nv_pi_field {
	NV_PI_FIELD_NONE = 0,
	NV_PI_FIELD_GUARD,
	NV_PI_FIELD_APPTAG,
	NV_PI_FIELD_REFTAG,
};

/* The first block that failed a check. */
struct nv_pi_err {
	uint32_t block;			/* index within the buffer */
	enum nv_pi_field field;
	uint32_t expected, actual;	/* of that field */
};

/*
 * nv_crc16_t10dif - continue CRC-16/T10-DIF crc over len bytes (start with
 * 0).  Table driven, one byte at a time.  crc("123456789") = 0xD0DB.
 */
uint16_t nv_crc16_t10dif(uint16_t crc, const void *buf, size_t len);

/*
 * nv_pi_fmt_init - PI layout of a namespace.  -EINVAL with msg when the
 * namespace has no PI, fewer than 8 metadata bytes or an unknown PI type.
 */
int nv_pi_fmt_init(struct nv_pi_fmt *f, const struct nv_ns_info *ns, char *msg, size_t msglen);

/*
 * nv_pi_generate - write the PI tuple of each of nlb blocks: guard over the
 * data as described above, t->apptag, and the reftag (t->ref_init + i for
 * types 1/2, t->ref_init for type 3).  data holds nlb * lba_size bytes and md
 * nlb * md_size bytes; with ext_lba, data holds nlb * (lba_size + md_size)
 * and md is ignored.  Other metadata bytes are left as they are.
 */
void nv_pi_generate(const struct nv_pi_fmt *f, void *data, void *md, uint32_t nlb,
		    const struct nv_pi_tags *t);

/*
 * nv_pi_verify - check nlb blocks laid out as for nv_pi_generate, the
 * fields selected by t->prchk: guard, apptag under t->apptag_mask, reftag
 * (types 1/2 only).  Blocks carrying the escape values are skipped.
 * Returns 0, or -EILSEQ with *err (if not NULL) describing the first bad
 * block and field (guard before apptag before reftag).
 */
int nv_pi_verify(const struct nv_pi_fmt *f, const void *data, const void *md, uint32_t nlb,
		 const struct nv_pi_tags *t, struct nv_pi_err *err);

/* "guard", "apptag", "reftag", "none". */
const char *nv_pi_field_name(enum nv_pi_field field);

/*
 * nv_pi_err_str - "PI reftag check failed at block 3 (LBA 1027): expected
 * 0x00000403, found 0x00000000"; first_lba is the command's SLBA.
 */
char *nv_pi_err_str(const struct nv_pi_err *err, uint64_t first_lba, char *buf, size_t len);

#endif
