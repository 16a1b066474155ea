/*
 * nvme_cmd.h - build NVMe I/O commands for io_uring passthrough.
 *
 * The engine turns each fio io_u into one struct nvme_uring_cmd (the 80-byte
 * payload of an IORING_OP_URING_CMD SQE on a ring set up with
 * IORING_SETUP_SQE128 | IORING_SETUP_CQE32) with cmd_op NVME_URING_CMD_IO, or
 * NVME_URING_CMD_IO_VEC when the data is an iovec array.  Everything here is
 * pure: validation (nv_io_check) is separate from building (nv_cmd_build) so
 * that the engine can refuse bad job parameters once at setup with a message
 * that names the limit, and build commands in the hot path without repeating
 * the checks.
 *
 * Byte addressing: offsets and lengths are bytes of the namespace as fio sees
 * it.  For an ordinary namespace a logical block is lba_size bytes; for an
 * extended-LBA namespace (metadata interleaved with data, flbas bit 4) it is
 * lba_size + md_size bytes, in the buffer and in the offset alike, so
 * slba = offset / (lba_size + md_size).
 */
#ifndef NV_NVME_CMD_H
#define NV_NVME_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/nvme_ioctl.h>

struct io_uring_sqe;
struct nv_ns_info;

/* NVM command set opcodes the engine issues. */
enum nv_opc {
	NV_OPC_FLUSH		= 0x00,
	NV_OPC_WRITE		= 0x01,
	NV_OPC_READ		= 0x02,
	NV_OPC_WRITE_UNCOR	= 0x04,
	NV_OPC_COMPARE		= 0x05,
	NV_OPC_WRITE_ZEROES	= 0x08,
	NV_OPC_DSM		= 0x09,
	NV_OPC_VERIFY		= 0x0c,
};

/* PRINFO (cdw12 bits 26-29) as a 4-bit value: fio's pi_act / pi_chk. */
enum {
	NV_PRINFO_PRCHK_REF	= 1 << 0,
	NV_PRINFO_PRCHK_APP	= 1 << 1,
	NV_PRINFO_PRCHK_GUARD	= 1 << 2,
	NV_PRINFO_PRACT		= 1 << 3,
};

/* cdw12 bits of Read / Write / Compare / Write Zeroes / Verify. */
enum {
	NV_CDW12_DEAC		= 1u << 25,	/* Write Zeroes: deallocate */
	NV_CDW12_PRINFO_SHIFT	= 26,
	NV_CDW12_FUA		= 1u << 30,
	NV_CDW12_LR		= 1u << 31,
};

#define NV_DSM_ATTR_DEALLOCATE	(1u << 2)	/* cdw11 AD */
#define NV_DSM_MAX_RANGES	256
#define NV_MAX_NLB		65536u		/* 16-bit 0's based NLB */

/* One Dataset Management range, as the device reads it (little endian). */
struct nv_dsm_range {
	uint32_t cattr;
	uint32_t nlb;		/* NOT 0's based */
	uint64_t slba;
};

/*
 * The namespace as the command builder sees it.  Fill with nv_geom_init()
 * from Identify data, or by hand in tests.
 */
struct nv_geom {
	uint32_t nsid;
	uint32_t lba_size;	/* data bytes per block */
	uint32_t md_size;	/* metadata bytes per block */
	bool ext_lba;		/* metadata interleaved: block = lba_size + md_size */
	uint8_t pi_type;	/* 0 none, 1, 2, 3 */
	uint64_t max_xfer;	/* bytes per command, 0 = unknown */
	const char *max_xfer_src;	/* "MDTS", "max_hw_sectors_kb", ... */
};

/* One I/O. Unused fields must be zero (designated initializers do that). */
struct nv_io {
	uint8_t opcode;		/* enum nv_opc */
	uint64_t offset;	/* bytes, see "Byte addressing" above */
	uint64_t len;		/* bytes; the data buffer size for transfers */
	void *buf;		/* data (Read/Write/Compare), NULL with iov */
	const struct iovec *iov;	/* vectored data: nr_iov entries */
	unsigned int nr_iov;
	void *md;		/* separate metadata buffer (md_per_io_size) */
	uint32_t md_len;
	bool fua;		/* readfua / writefua (Read, Write, Compare, Write Zeroes) */
	bool deac;		/* Write Zeroes: also deallocate */
	uint8_t prinfo;		/* NV_PRINFO_* (needs a PI namespace) */
	uint16_t apptag;	/* LBAT (cdw15 bits 0-15) */
	uint16_t apptag_mask;	/* LBATM (cdw15 bits 16-31) */
};

/*
 * nv_geom_init - geometry for namespace nsid from parsed Identify data, the
 * job's PRINFO (NV_PRINFO_*, from pi_act/pi_chk) and the transfer limit (see
 * nv_max_transfer()); src names that limit.  With PRACT on a PI namespace
 * whose metadata is only the 8-byte PI, the controller inserts and strips
 * the PI and the host moves no metadata at all: the geometry then has
 * md_size 0 and no extended LBAs (as fio's io_uring_cmd engine does), so
 * buffers and offsets are plain lba_size blocks.
 */
void nv_geom_init(struct nv_geom *g, uint32_t nsid, const struct nv_ns_info *ns,
		  uint8_t prinfo, uint64_t max_xfer, const char *src);

/* Bytes per logical block as addressed: lba_size (+ md_size if ext_lba). */
static inline uint32_t nv_geom_block(const struct nv_geom *g)
{
	return g->lba_size + (g->ext_lba ? g->md_size : 0);
}

/* The size fio should see for a namespace of nsze blocks (real_file_size). */
static inline uint64_t nv_geom_size(const struct nv_geom *g, uint64_t nsze)
{
	return nsze * nv_geom_block(g);
}

/* Opcode name ("Read", "Write Zeroes", ...), "Unknown" for others. */
const char *nv_opc_name(uint8_t opcode);

/* Whether the opcode moves a data buffer (Read, Write, Compare). */
bool nv_opc_has_data(uint8_t opcode);

/*
 * nv_check_offset / nv_check_len - the setup-time checks, usable on job
 * parameters before any I/O exists (offset=, bs=/bsrange=): alignment to the
 * block size, zero length, NLB above 65536, and (for opcodes that transfer
 * data) the transfer limit.  0 or -EINVAL with a message naming the limit,
 * e.g. "length 12288 exceeds max transfer 8192 bytes (MDTS)".
 */
int nv_check_offset(const struct nv_geom *g, uint64_t offset, char *msg, size_t msglen);
int nv_check_len(const struct nv_geom *g, uint8_t opcode, uint64_t len,
		 char *msg, size_t msglen);

/*
 * nv_io_check - everything nv_cmd_build relies on: known opcode (not DSM,
 * which has nv_cmd_dsm), offset/length checks above, the iovec total equal
 * to len, a separate metadata buffer large enough (md_size * nlb unless
 * PRACT with md_size 8, where the controller inserts/strips the PI), FUA only
 * where the command has it, PRINFO only on a PI namespace.  Returns 0 or
 * -EINVAL with msg.
 */
int nv_io_check(const struct nv_geom *g, const struct nv_io *io, char *msg, size_t msglen);

/*
 * nv_cmd_build - fill *cmd (zeroed first) for io, and *cmd_op with
 * NVME_URING_CMD_IO or NVME_URING_CMD_IO_VEC.  Does not repeat nv_io_check's
 * checks; returns -EINVAL only for an opcode it cannot build.
 *   cdw10/11  SLBA (low/high)
 *   cdw12     NLB-1 | DEAC(25) | PRINFO(26-29) | FUA(30)
 *   cdw14     ILBRT: lower 32 bits of SLBA for PI type 1/2
 *   cdw15     LBATM << 16 | LBAT on a PI namespace
 *   addr/data_len       buffer and bytes, or iovec array and count
 *   metadata/metadata_len   separate metadata buffer
 * Flush carries only the nsid; Write Zeroes, Write Uncorrectable and Verify
 * carry no data pointer.
 */
int nv_cmd_build(struct nvme_uring_cmd *cmd, const struct nv_geom *g,
		 const struct nv_io *io, uint32_t *cmd_op);

/*
 * nv_dsm_range_set - fill one range (little endian) for byte offset/len,
 * with context attributes cattr (0 normally).  -EINVAL with msg when offset
 * or len is not block aligned, len is 0 or above 2^32-1 blocks.
 */
int nv_dsm_range_set(struct nv_dsm_range *r, const struct nv_geom *g, uint64_t offset,
		     uint64_t len, uint32_t cattr, char *msg, size_t msglen);

/*
 * nv_cmd_dsm - Dataset Management with the deallocate attribute over nr
 * ranges already in r (which must stay valid until completion: the device
 * reads it).  cdw10 = nr - 1, cdw11 = AD, data = r, nr * 16 bytes.
 * -EINVAL when nr is 0 or above 256.
 */
int nv_cmd_dsm(struct nvme_uring_cmd *cmd, const struct nv_geom *g,
	       const struct nv_dsm_range *r, unsigned int nr);

/*
 * nv_sqe_uring_cmd - prepare a 128-byte SQE for IORING_OP_URING_CMD on fd
 * (a registered file index when fixed_file) with cmd_op and the 80-byte cmd
 * copied into sqe->cmd.  buf_index >= 0 sets IORING_URING_CMD_FIXED and
 * sqe->buf_index (a registered buffer covering cmd->addr).  Clears the whole
 * 128-byte SQE first; the caller sets user_data afterwards.
 */
void nv_sqe_uring_cmd(struct io_uring_sqe *sqe, int fd, bool fixed_file, uint32_t cmd_op,
		      const struct nvme_uring_cmd *cmd, int buf_index);

/*
 * nv_pi_chk_parse - fio's pi_chk option ("GUARD,REFTAG,APPTAG", any subset,
 * any order, separated by ',', case-insensitive) into NV_PRINFO_PRCHK_* bits.
 * Empty or NULL gives 0.  -EINVAL with msg for an unknown word.
 */
int nv_pi_chk_parse(const char *s, uint8_t *prchk, char *msg, size_t msglen);

#endif
