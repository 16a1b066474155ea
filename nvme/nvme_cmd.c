/*
 * nvme_cmd.c - NVMe I/O command validation and construction for io_uring
 * passthrough.  Field layouts are those of the NVM Command Set specification
 * (Read, Write, Compare, Write Zeroes, Write Uncorrectable, Verify, Flush,
 * Dataset Management).
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <liburing.h>

#include "nvme/nvme_cmd.h"
#include "nvme/nvme_id.h"
#include "nvme/nvme_msg.h"

void nv_geom_init(struct nv_geom *g, uint32_t nsid, const struct nv_ns_info *ns,
		  uint8_t prinfo, uint64_t max_xfer, const char *src)
{
	memset(g, 0, sizeof(*g));
	g->nsid = nsid;
	g->lba_size = ns->lba_size;
	g->md_size = ns->md_size;
	g->ext_lba = ns->ext_lba;
	g->pi_type = ns->pi_type;
	if ((prinfo & NV_PRINFO_PRACT) && ns->pi_type && ns->md_size == 8) {
		g->md_size = 0;
		g->ext_lba = false;
	}
	g->max_xfer = max_xfer;
	g->max_xfer_src = max_xfer ? (src ? src : "max transfer") : NULL;
}

static const char *const opc_names[] = {
	[NV_OPC_FLUSH]		= "Flush",
	[NV_OPC_WRITE]		= "Write",
	[NV_OPC_READ]		= "Read",
	[NV_OPC_WRITE_UNCOR]	= "Write Uncorrectable",
	[NV_OPC_COMPARE]	= "Compare",
	[NV_OPC_WRITE_ZEROES]	= "Write Zeroes",
	[NV_OPC_DSM]		= "Dataset Management",
	[NV_OPC_VERIFY]		= "Verify",
};

const char *nv_opc_name(uint8_t opcode)
{
	if (opcode < sizeof(opc_names) / sizeof(opc_names[0]) && opc_names[opcode])
		return opc_names[opcode];
	return "Unknown";
}

bool nv_opc_has_data(uint8_t opcode)
{
	return opcode == NV_OPC_READ || opcode == NV_OPC_WRITE || opcode == NV_OPC_COMPARE;
}

/* Commands whose cdw12 has FUA (bit 30) and PRINFO (bits 26-29). */
static bool opc_has_fua_prinfo(uint8_t opcode)
{
	return nv_opc_has_data(opcode) || opcode == NV_OPC_WRITE_ZEROES ||
	       opcode == NV_OPC_VERIFY;
}

/* Commands with SLBA/NLB in cdw10-12. */
static bool opc_has_range(uint8_t opcode)
{
	return opc_has_fua_prinfo(opcode) || opcode == NV_OPC_WRITE_UNCOR;
}

/* "LBA size 512" or "extended LBA size 520 (512 data + 8 metadata)". */
static const char *block_desc(const struct nv_geom *g, char *buf, size_t len)
{
	if (g->ext_lba)
		snprintf(buf, len, "extended LBA size %u (%u data + %u metadata)",
			 nv_geom_block(g), g->lba_size, g->md_size);
	else
		snprintf(buf, len, "LBA size %u", g->lba_size);
	return buf;
}

int nv_check_offset(const struct nv_geom *g, uint64_t offset, char *msg, size_t msglen)
{
	uint32_t blk = nv_geom_block(g);
	char d[80];

	if (!g->lba_size)
		return nv_msg_fail(msg, msglen, "namespace %u: LBA size unknown", g->nsid);
	if (offset % blk)
		return nv_msg_fail(msg, msglen, "offset %llu is not a multiple of the %s",
			    (unsigned long long)offset, block_desc(g, d, sizeof(d)));
	return 0;
}

int nv_check_len(const struct nv_geom *g, uint8_t opcode, uint64_t len,
		 char *msg, size_t msglen)
{
	uint32_t blk = nv_geom_block(g);
	char d[80];

	if (opcode == NV_OPC_FLUSH)
		return 0;
	if (!g->lba_size)
		return nv_msg_fail(msg, msglen, "namespace %u: LBA size unknown", g->nsid);
	if (!len)
		return nv_msg_fail(msg, msglen, "zero length %s", nv_opc_name(opcode));
	if (len % blk)
		return nv_msg_fail(msg, msglen, "length %llu is not a multiple of the %s",
			    (unsigned long long)len, block_desc(g, d, sizeof(d)));
	if (opc_has_range(opcode) && len / blk > NV_MAX_NLB)
		return nv_msg_fail(msg, msglen, "length %llu is %llu blocks, above the limit "
				   "of %u blocks per %s command",
			    (unsigned long long)len, (unsigned long long)(len / blk),
			    NV_MAX_NLB, nv_opc_name(opcode));
	if (nv_opc_has_data(opcode) && g->max_xfer && len > g->max_xfer)
		return nv_msg_fail(msg, msglen, "length %llu exceeds max transfer %llu bytes (%s)",
			    (unsigned long long)len, (unsigned long long)g->max_xfer,
			    g->max_xfer_src ? g->max_xfer_src : "max transfer");
	return 0;
}

/* Separate metadata bytes the device moves for nlb blocks (0 if none). */
static uint64_t md_need(const struct nv_geom *g, const struct nv_io *io, uint64_t nlb)
{
	if (!g->md_size || g->ext_lba || !nv_opc_has_data(io->opcode))
		return 0;
	if ((io->prinfo & NV_PRINFO_PRACT) && g->pi_type && g->md_size == 8)
		return 0;	/* controller inserts / strips the PI: no transfer */
	return nlb * g->md_size;
}

static int check_data(const struct nv_io *io, char *msg, size_t msglen)
{
	uint64_t total = 0;

	if (!io->iov) {
		if (!io->buf)
			return nv_msg_fail(msg, msglen, "%s without a data buffer",
					   nv_opc_name(io->opcode));
		return 0;
	}
	if (!io->nr_iov)
		return nv_msg_fail(msg, msglen, "%s with an empty iovec", nv_opc_name(io->opcode));
	for (unsigned int i = 0; i < io->nr_iov; i++)
		total += io->iov[i].iov_len;
	if (total != io->len)
		return nv_msg_fail(msg, msglen, "iovec total %llu bytes differs from length %llu",
			    (unsigned long long)total, (unsigned long long)io->len);
	return 0;
}

int nv_io_check(const struct nv_geom *g, const struct nv_io *io, char *msg, size_t msglen)
{
	const char *name = nv_opc_name(io->opcode);
	uint64_t need;
	int ret;

	if (io->opcode == NV_OPC_DSM)
		return nv_msg_fail(msg, msglen, "Dataset Management is built with nv_cmd_dsm");
	if (!opc_has_range(io->opcode) && io->opcode != NV_OPC_FLUSH)
		return nv_msg_fail(msg, msglen, "unsupported opcode 0x%02x", io->opcode);
	if (io->fua && !opc_has_fua_prinfo(io->opcode))
		return nv_msg_fail(msg, msglen, "FUA is not defined for %s", name);
	if (io->deac && io->opcode != NV_OPC_WRITE_ZEROES)
		return nv_msg_fail(msg, msglen, "deallocate is only defined for Write Zeroes, not "
				   "%s", name);
	if (io->prinfo > 0xf)
		return nv_msg_fail(msg, msglen, "PRINFO 0x%x is wider than 4 bits", io->prinfo);
	if (io->prinfo && !opc_has_fua_prinfo(io->opcode))
		return nv_msg_fail(msg, msglen, "protection information flags are not defined for "
				   "%s", name);
	if (io->prinfo && !g->pi_type)
		return nv_msg_fail(msg, msglen, "pi_act/pi_chk given but namespace %u has no "
				   "protection information",
			    g->nsid);
	if (io->opcode == NV_OPC_FLUSH)
		return 0;

	ret = nv_check_offset(g, io->offset, msg, msglen);
	if (!ret)
		ret = nv_check_len(g, io->opcode, io->len, msg, msglen);
	if (ret)
		return ret;
	if (nv_opc_has_data(io->opcode)) {
		ret = check_data(io, msg, msglen);
		if (ret)
			return ret;
	}
	if (io->md_len && (!g->md_size || g->ext_lba))
		return nv_msg_fail(msg, msglen, "separate metadata buffer given but namespace %u "
				   "has %s",
			    g->nsid,
			    g->md_size ? "extended LBAs (metadata inline)" : "no metadata");
	need = md_need(g, io, io->len / nv_geom_block(g));
	if (need && (!io->md || io->md_len < need))
		return nv_msg_fail(msg, msglen, "metadata buffer is %u bytes, %s needs %llu (%llu "
				   "blocks x %u bytes): set md_per_io_size",
			    io->md ? io->md_len : 0, name, (unsigned long long)need,
			    (unsigned long long)(io->len / nv_geom_block(g)), g->md_size);
	return 0;
}

int nv_cmd_build(struct nvme_uring_cmd *cmd, const struct nv_geom *g,
		 const struct nv_io *io, uint32_t *cmd_op)
{
	uint32_t blk = nv_geom_block(g);
	uint64_t slba, nlb, md;

	memset(cmd, 0, sizeof(*cmd));
	*cmd_op = NVME_URING_CMD_IO;
	cmd->opcode = io->opcode;
	cmd->nsid = g->nsid;
	if (io->opcode == NV_OPC_FLUSH)
		return 0;
	if (!opc_has_range(io->opcode) || !blk)
		return -EINVAL;

	slba = io->offset / blk;
	nlb = io->len / blk;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = (uint32_t)(nlb - 1) & 0xffff;
	if (io->opcode == NV_OPC_WRITE_UNCOR)
		return 0;

	if (io->fua)
		cmd->cdw12 |= NV_CDW12_FUA;
	if (io->deac && io->opcode == NV_OPC_WRITE_ZEROES)
		cmd->cdw12 |= NV_CDW12_DEAC;
	if (g->pi_type) {
		cmd->cdw12 |= (uint32_t)(io->prinfo & 0xf) << NV_CDW12_PRINFO_SHIFT;
		if (g->pi_type == 1 || g->pi_type == 2)
			cmd->cdw14 = (uint32_t)slba;
		cmd->cdw15 = (uint32_t)io->apptag_mask << 16 | io->apptag;
	}
	if (!nv_opc_has_data(io->opcode))
		return 0;

	if (io->iov) {
		cmd->addr = (uint64_t)(uintptr_t)io->iov;
		cmd->data_len = io->nr_iov;
		*cmd_op = NVME_URING_CMD_IO_VEC;
	} else {
		cmd->addr = (uint64_t)(uintptr_t)io->buf;
		cmd->data_len = (uint32_t)io->len;
	}
	md = md_need(g, io, nlb);
	if (md && io->md) {
		cmd->metadata = (uint64_t)(uintptr_t)io->md;
		cmd->metadata_len = (uint32_t)md;
	}
	return 0;
}

int nv_dsm_range_set(struct nv_dsm_range *r, const struct nv_geom *g, uint64_t offset,
		     uint64_t len, uint32_t cattr, char *msg, size_t msglen)
{
	uint32_t blk = nv_geom_block(g);
	int ret;

	ret = nv_check_offset(g, offset, msg, msglen);
	if (!ret)
		ret = nv_check_len(g, NV_OPC_DSM, len, msg, msglen);
	if (ret)
		return ret;
	if (len / blk > UINT32_MAX)
		return nv_msg_fail(msg, msglen, "trim length %llu is %llu blocks, above the limit "
				   "of %u blocks per range",
			    (unsigned long long)len, (unsigned long long)(len / blk), UINT32_MAX);
	r->cattr = htole32(cattr);
	r->nlb = htole32((uint32_t)(len / blk));
	r->slba = htole64(offset / blk);
	return 0;
}

int nv_cmd_dsm(struct nvme_uring_cmd *cmd, const struct nv_geom *g,
	       const struct nv_dsm_range *r, unsigned int nr)
{
	if (!nr || nr > NV_DSM_MAX_RANGES || !r)
		return -EINVAL;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NV_OPC_DSM;
	cmd->nsid = g->nsid;
	cmd->addr = (uint64_t)(uintptr_t)r;
	cmd->data_len = nr * (uint32_t)sizeof(*r);
	cmd->cdw10 = nr - 1;
	cmd->cdw11 = NV_DSM_ATTR_DEALLOCATE;
	return 0;
}

void nv_sqe_uring_cmd(struct io_uring_sqe *sqe, int fd, bool fixed_file, uint32_t cmd_op,
		      const struct nvme_uring_cmd *cmd, int buf_index)
{
	uint8_t *raw = (uint8_t *)sqe;

	/* A SQE128 ring entry is two struct io_uring_sqe: clear both halves. */
	memset(raw, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = cmd_op;
	if (fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (buf_index >= 0) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (uint16_t)buf_index;
	}
	memcpy(raw + offsetof(struct io_uring_sqe, cmd), cmd, sizeof(*cmd));
}

int nv_pi_chk_parse(const char *s, uint8_t *prchk, char *msg, size_t msglen)
{
	static const struct { const char *word; uint8_t bit; } words[] = {
		{ "GUARD", NV_PRINFO_PRCHK_GUARD },
		{ "REFTAG", NV_PRINFO_PRCHK_REF },
		{ "APPTAG", NV_PRINFO_PRCHK_APP },
	};
	uint8_t bits = 0;

	while (s && *s) {
		size_t n = strcspn(s, ",| "), i;

		for (i = 0; n && i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].word) == n && !strncasecmp(s, words[i].word, n))
				break;
		if (n && i == sizeof(words) / sizeof(words[0]))
			return nv_msg_fail(msg, msglen, "pi_chk: unknown check '%.*s' (use GUARD, "
					   "REFTAG, APPTAG)",
				    (int)n, s);
		if (n)
			bits |= words[i].bit;
		s += n;
		if (*s)
			s++;
	}
	*prchk = bits;
	return 0;
}
