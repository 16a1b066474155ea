/* test_nvme_cmd.c - NVMe I/O command validation and construction. */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <liburing.h>

#include "tests/unit/check.h"
#include "nvme/nvme_cmd.h"
#include "nvme/nvme_id.h"

static const struct nv_geom g512 = { .nsid = 1, .lba_size = 512, .max_xfer = 8192,
				     .max_xfer_src = "MDTS" };
static const struct nv_geom g4k = { .nsid = 2, .lba_size = 4096 };
static const struct nv_geom gmd = { .nsid = 3, .lba_size = 4096, .md_size = 16, .pi_type = 1 };
static const struct nv_geom gext = { .nsid = 4, .lba_size = 512, .md_size = 8, .ext_lba = true,
				     .pi_type = 3 };
static uint8_t buf[1 << 20];
static uint8_t mdbuf[4096];

/* Every field of the command, so an unexpected bit anywhere fails. */
struct want {
	uint8_t opcode;
	uint32_t nsid, cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
	uint64_t addr, metadata;
	uint32_t data_len, metadata_len;
};

static int same(const struct nvme_uring_cmd *c, const struct want *w)
{
	return c->opcode == w->opcode && c->flags == 0 && c->rsvd1 == 0 &&
	       c->nsid == w->nsid && c->cdw2 == 0 && c->cdw3 == 0 &&
	       c->metadata == w->metadata && c->addr == w->addr &&
	       c->metadata_len == w->metadata_len && c->data_len == w->data_len &&
	       c->cdw10 == w->cdw10 && c->cdw11 == w->cdw11 && c->cdw12 == w->cdw12 &&
	       c->cdw13 == w->cdw13 && c->cdw14 == w->cdw14 && c->cdw15 == w->cdw15 &&
	       c->timeout_ms == 0 && c->rsvd2 == 0;
}

/* Check io, then build it into a dirty command. */
static int build(const struct nv_geom *g, const struct nv_io *io, struct nvme_uring_cmd *c,
		 uint32_t *op)
{
	char msg[256] = "";
	int ret = nv_io_check(g, io, msg, sizeof(msg));

	if (ret) {
		printf("unexpected: %s\n", msg);
		return ret;
	}
	memset(c, 0xa5, sizeof(*c));
	return nv_cmd_build(c, g, io, op);
}

TEST(read_write)
{
	struct nvme_uring_cmd c;
	uint32_t op = 0;
	struct nv_io io = { .opcode = NV_OPC_READ, .offset = 4096, .len = 8192, .buf = buf };

	CHECK_EQ_I64(build(&g512, &io, &c, &op), 0);
	CHECK_EQ_U64(op, NVME_URING_CMD_IO);
	CHECK(same(&c, &(struct want){ .opcode = 0x02, .nsid = 1, .cdw10 = 8, .cdw12 = 15,
				       .addr = (uintptr_t)buf, .data_len = 8192 }));

	/* 64-bit SLBA split over cdw10/cdw11, FUA */
	io = (struct nv_io){ .opcode = NV_OPC_WRITE, .offset = 0x123456789ull * 4096, .len = 4096,
			     .buf = buf, .fua = true };
	CHECK_EQ_I64(build(&g4k, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x01, .nsid = 2, .cdw10 = 0x23456789,
				       .cdw11 = 0x1, .cdw12 = 0x40000000, .addr = (uintptr_t)buf,
				       .data_len = 4096 }));

	/* the largest command: 65536 blocks, NLB field 0xffff */
	io = (struct nv_io){ .opcode = NV_OPC_READ, .offset = 0, .len = 65536ull * 512,
			     .buf = buf };
	CHECK_EQ_I64(nv_io_check(&(struct nv_geom){ .nsid = 1, .lba_size = 512 }, &io,
				 NULL, 0), 0);
	CHECK_EQ_I64(nv_cmd_build(&c, &g512, &io, &op), 0);
	CHECK_EQ_U64(c.cdw12, 0xffff);
	CHECK_EQ_U64(c.data_len, 65536u * 512);
}

TEST(vectored)
{
	struct nvme_uring_cmd c;
	uint32_t op = 0;
	struct iovec iov[2] = { { buf, 4096 }, { buf + 8192, 4096 } };
	struct nv_io io = { .opcode = NV_OPC_WRITE, .offset = 8192, .len = 8192, .iov = iov,
			    .nr_iov = 2 };
	char msg[256] = "";

	CHECK_EQ_I64(build(&g4k, &io, &c, &op), 0);
	CHECK_EQ_U64(op, NVME_URING_CMD_IO_VEC);
	CHECK(same(&c, &(struct want){ .opcode = 0x01, .nsid = 2, .cdw10 = 2, .cdw12 = 1,
				       .addr = (uintptr_t)iov, .data_len = 2 }));

	io.len = 12288;
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "iovec total 8192 bytes differs from length 12288");
	io.nr_iov = 0;
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "Write with an empty iovec");
}

TEST(no_data_commands)
{
	struct nvme_uring_cmd c;
	uint32_t op = 0;
	struct nv_io io = { .opcode = NV_OPC_FLUSH, .buf = buf, .len = 4096 };

	CHECK_EQ_I64(build(&g4k, &io, &c, &op), 0);
	CHECK_EQ_U64(op, NVME_URING_CMD_IO);
	CHECK(same(&c, &(struct want){ .opcode = 0x00, .nsid = 2 }));

	/* Write Zeroes with deallocate and FUA: no data pointer even with buf */
	io = (struct nv_io){ .opcode = NV_OPC_WRITE_ZEROES, .offset = 1 << 20, .len = 1 << 20,
			     .buf = buf, .deac = true, .fua = true };
	CHECK_EQ_I64(build(&g4k, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x08, .nsid = 2, .cdw10 = 256,
		   .cdw12 = 255 | 1u << 25 | 1u << 30 }));

	io = (struct nv_io){ .opcode = NV_OPC_WRITE_UNCOR, .offset = 512, .len = 1024 };
	CHECK_EQ_I64(build(&g512, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x04, .nsid = 1, .cdw10 = 1, .cdw12 = 1 }));

	io = (struct nv_io){ .opcode = NV_OPC_VERIFY, .offset = 0, .len = 4096, .buf = buf };
	CHECK_EQ_I64(build(&g4k, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x0c, .nsid = 2 }));

	/* no data: MDTS does not apply, NLB still does */
	io = (struct nv_io){ .opcode = NV_OPC_WRITE_ZEROES, .offset = 0, .len = 65536ull * 512 };
	CHECK_EQ_I64(nv_io_check(&g512, &io, NULL, 0), 0);
	io.len += 512;
	CHECK_EQ_I64(nv_io_check(&g512, &io, NULL, 0), -EINVAL);
}

TEST(pi_fields)
{
	struct nvme_uring_cmd c;
	uint32_t op = 0;
	struct nv_io io = { .opcode = NV_OPC_WRITE, .offset = 0x100000005ull * 4096, .len = 8192,
			    .buf = buf, .md = mdbuf, .md_len = sizeof(mdbuf),
			    .prinfo = NV_PRINFO_PRCHK_GUARD | NV_PRINFO_PRCHK_REF |
				      NV_PRINFO_PRCHK_APP,
			    .apptag = 0x1234, .apptag_mask = 0xffff };

	CHECK_EQ_I64(build(&gmd, &io, &c, &op), 0);
	/* separate metadata: exactly 2 blocks x 16 bytes; ILBRT = low 32 bits of SLBA */
	CHECK(same(&c, &(struct want){ .opcode = 0x01, .nsid = 3, .cdw10 = 5, .cdw11 = 1,
				       .cdw12 = 1 | 0x7u << 26, .cdw14 = 5, .cdw15 = 0xffff1234,
				       .addr = (uintptr_t)buf, .data_len = 8192,
				       .metadata = (uintptr_t)mdbuf, .metadata_len = 32 }));

	/* PRACT alone; read with FUA */
	io.opcode = NV_OPC_READ;
	io.prinfo = NV_PRINFO_PRACT;
	io.fua = true;
	io.apptag = 0;
	io.apptag_mask = 0;
	CHECK_EQ_I64(build(&gmd, &io, &c, &op), 0);
	CHECK_EQ_U64(c.cdw12, 1 | 1u << 29 | 1u << 30);
	CHECK_EQ_U64(c.cdw14, 5);
	CHECK_EQ_U64(c.cdw15, 0);
	CHECK_EQ_U64(c.metadata_len, 32);

	/* type 2 also gets ILBRT, type 3 does not */
	struct nv_geom g2 = gmd;
	g2.pi_type = 2;
	CHECK_EQ_I64(build(&g2, &io, &c, &op), 0);
	CHECK_EQ_U64(c.cdw14, 5);
	g2.pi_type = 3;
	CHECK_EQ_I64(build(&g2, &io, &c, &op), 0);
	CHECK_EQ_U64(c.cdw14, 0);

	/* Verify and Write Zeroes carry PRINFO */
	io = (struct nv_io){ .opcode = NV_OPC_VERIFY, .offset = 4096, .len = 4096,
			     .prinfo = NV_PRINFO_PRCHK_GUARD, .apptag = 0xbeef,
			     .apptag_mask = 0xff00 };
	CHECK_EQ_I64(build(&gmd, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x0c, .nsid = 3, .cdw10 = 1, .cdw12 = 1u << 28,
				       .cdw14 = 1, .cdw15 = 0xff00beef }));
}

TEST(pract_without_metadata_transfer)
{
	/* 4096+8 PI type 1, PRACT: the host moves no metadata (geometry drops it) */
	struct nv_ns_info ns = { .nsze = 100, .lba_size = 4096, .md_size = 8, .pi_type = 1,
				 .ext_lba = true };
	struct nv_geom g;
	struct nvme_uring_cmd c;
	uint32_t op;
	struct nv_io io = { .opcode = NV_OPC_WRITE, .offset = 4096, .len = 4096, .buf = buf,
			    .prinfo = NV_PRINFO_PRACT | NV_PRINFO_PRCHK_GUARD };

	nv_geom_init(&g, 7, &ns, io.prinfo, 131072, "MDTS");
	CHECK_EQ_U64(g.nsid, 7);
	CHECK_EQ_U64(g.md_size, 0);
	CHECK(!g.ext_lba);
	CHECK_EQ_U64(g.pi_type, 1);
	CHECK_EQ_U64(nv_geom_block(&g), 4096);
	CHECK_EQ_U64(nv_geom_size(&g, ns.nsze), 409600);
	CHECK_STR(g.max_xfer_src, "MDTS");
	CHECK_EQ_I64(build(&g, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x01, .nsid = 7, .cdw10 = 1, .cdw12 = 0xcu << 26,
				       .cdw14 = 1, .addr = (uintptr_t)buf, .data_len = 4096 }));

	/* without PRACT the extended geometry stays */
	nv_geom_init(&g, 7, &ns, NV_PRINFO_PRCHK_GUARD, 0, NULL);
	CHECK(g.ext_lba);
	CHECK_EQ_U64(nv_geom_block(&g), 4104);
	CHECK_EQ_U64(nv_geom_size(&g, ns.nsze), 410400);
	CHECK(g.max_xfer_src == NULL);

	/* 16 bytes of metadata: PRACT still transfers it */
	ns.md_size = 16;
	ns.ext_lba = false;
	nv_geom_init(&g, 7, &ns, NV_PRINFO_PRACT, 0, NULL);
	CHECK_EQ_U64(g.md_size, 16);
}

TEST(extended_lba)
{
	struct nvme_uring_cmd c;
	uint32_t op;
	char msg[256] = "";
	/* 520-byte blocks: data and metadata interleaved in one buffer */
	struct nv_io io = { .opcode = NV_OPC_READ, .offset = 520 * 10, .len = 520 * 4,
			    .buf = buf };

	CHECK_EQ_I64(build(&gext, &io, &c, &op), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x02, .nsid = 4, .cdw10 = 10, .cdw12 = 3,
				       .addr = (uintptr_t)buf, .data_len = 2080 }));

	io.offset = 512 * 10;
	CHECK_EQ_I64(nv_io_check(&gext, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "offset 5120 is not a multiple of the extended LBA size 520 (512 data + 8 "
		  "metadata)");
	io.offset = 0;
	io.len = 2048;
	CHECK_EQ_I64(nv_io_check(&gext, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 2048 is not a multiple of the extended LBA size 520 (512 data + 8 "
		  "metadata)");
	io.len = 520;
	io.md = mdbuf;
	io.md_len = 8;
	CHECK_EQ_I64(nv_io_check(&gext, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "separate metadata buffer given but namespace 4 has extended LBAs "
		  "(metadata inline)");
}

TEST(validation_messages)
{
	char msg[256] = "";
	struct nv_io io = { .opcode = NV_OPC_WRITE, .offset = 0, .len = 12288, .buf = buf };

	CHECK_EQ_I64(nv_io_check(&g512, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 12288 exceeds max transfer 8192 bytes (MDTS)");
	io.len = 8192;
	CHECK_EQ_I64(nv_io_check(&g512, &io, msg, sizeof(msg)), 0);

	io.offset = 1000;
	CHECK_EQ_I64(nv_io_check(&g512, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "offset 1000 is not a multiple of the LBA size 512");
	io.offset = 0;
	io.len = 4000;
	CHECK_EQ_I64(nv_io_check(&g512, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 4000 is not a multiple of the LBA size 512");
	io.len = 0;
	CHECK_EQ_I64(nv_io_check(&g512, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "zero length Write");
	io.len = 65537ull * 512;
	CHECK_EQ_I64(nv_io_check(&(struct nv_geom){ .nsid = 1, .lba_size = 512 }, &io, msg,
				 sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 33554944 is 65537 blocks, above the limit of 65536 blocks per "
		  "Write command");

	io = (struct nv_io){ .opcode = NV_OPC_READ, .len = 4096 };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "Read without a data buffer");

	io = (struct nv_io){ .opcode = NV_OPC_WRITE_UNCOR, .len = 4096, .fua = true };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "FUA is not defined for Write Uncorrectable");
	io = (struct nv_io){ .opcode = NV_OPC_FLUSH, .fua = true };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	io = (struct nv_io){ .opcode = NV_OPC_WRITE, .len = 4096, .buf = buf, .deac = true };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "deallocate is only defined for Write Zeroes, not Write");
	io = (struct nv_io){ .opcode = NV_OPC_WRITE, .len = 4096, .buf = buf,
			     .prinfo = NV_PRINFO_PRACT };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "pi_act/pi_chk given but namespace 2 has no protection information");
	io.prinfo = 0x10;
	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), -EINVAL);
	io = (struct nv_io){ .opcode = NV_OPC_WRITE_UNCOR, .len = 4096,
			     .prinfo = NV_PRINFO_PRACT };
	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "protection information flags are not defined for Write Uncorrectable");

	io = (struct nv_io){ .opcode = 0x7f, .len = 4096 };
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "unsupported opcode 0x7f");
	io.opcode = NV_OPC_DSM;
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);

	struct nv_geom none = { .nsid = 9 };
	io = (struct nv_io){ .opcode = NV_OPC_READ, .len = 4096, .buf = buf };
	CHECK_EQ_I64(nv_io_check(&none, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "namespace 9: LBA size unknown");

	/* checks with no message buffer still fail */
	io.offset = 1;
	CHECK_EQ_I64(nv_io_check(&g4k, &io, NULL, 0), -EINVAL);
}

TEST(metadata_checks)
{
	char msg[256] = "";
	struct nv_io io = { .opcode = NV_OPC_READ, .len = 8192, .buf = buf };

	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "metadata buffer is 0 bytes, Read needs 32 (2 blocks x 16 bytes): set "
		  "md_per_io_size");
	io.md = mdbuf;
	io.md_len = 16;
	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "metadata buffer is 16 bytes, Read needs 32 (2 blocks x 16 bytes): set "
		  "md_per_io_size");
	io.md_len = 32;
	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), 0);
	/* no metadata on the namespace */
	CHECK_EQ_I64(nv_io_check(&g4k, &io, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "separate metadata buffer given but namespace 2 has no metadata");
	/* Verify moves no metadata */
	io = (struct nv_io){ .opcode = NV_OPC_VERIFY, .len = 8192 };
	CHECK_EQ_I64(nv_io_check(&gmd, &io, msg, sizeof(msg)), 0);
}

TEST(setup_checks)
{
	char msg[256] = "";

	CHECK_EQ_I64(nv_check_offset(&g4k, 8192, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(nv_check_offset(&g4k, 512, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "offset 512 is not a multiple of the LBA size 4096");
	CHECK_EQ_I64(nv_check_len(&g512, NV_OPC_READ, 8192, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(nv_check_len(&g512, NV_OPC_READ, 8704, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 8704 exceeds max transfer 8192 bytes (MDTS)");
	/* trims are not limited by MDTS or the 16-bit NLB */
	CHECK_EQ_I64(nv_check_len(&g512, NV_OPC_DSM, 1ull << 30, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(nv_check_len(&g512, NV_OPC_FLUSH, 0, msg, sizeof(msg)), 0);
	struct nv_geom g = g512;
	g.max_xfer_src = NULL;
	CHECK_EQ_I64(nv_check_len(&g, NV_OPC_WRITE, 8704, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "length 8704 exceeds max transfer 8192 bytes (max transfer)");
}

TEST(dsm)
{
	struct nv_dsm_range r[3];
	struct nvme_uring_cmd c;
	char msg[256] = "";

	CHECK_EQ_U64(sizeof(struct nv_dsm_range), 16);
	CHECK_EQ_I64(nv_dsm_range_set(&r[0], &g4k, 1 << 20, 1 << 20, 0, msg, sizeof(msg)), 0);
	CHECK_EQ_I64(nv_dsm_range_set(&r[1], &g4k, 0x10000000000ull, 8ull << 30, 0, msg,
				      sizeof(msg)), 0);
	CHECK_EQ_I64(nv_dsm_range_set(&r[2], &gext, 520 * 3, 520, 0x5, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(le32toh(r[0].nlb), 256);
	CHECK_EQ_U64(le64toh(r[0].slba), 256);
	CHECK_EQ_U64(le32toh(r[0].cattr), 0);
	CHECK_EQ_U64(le32toh(r[1].nlb), 2097152);
	CHECK_EQ_U64(le64toh(r[1].slba), 0x10000000);
	CHECK_EQ_U64(le32toh(r[2].nlb), 1);
	CHECK_EQ_U64(le64toh(r[2].slba), 3);
	CHECK_EQ_U64(le32toh(r[2].cattr), 5);
	/* the on-wire bytes: little endian, cattr, nlb, slba */
	{
		const uint8_t *b = (const uint8_t *)&r[0];
		CHECK(b[0] == 0 && b[4] == 0x00 && b[5] == 0x01 && b[8] == 0x00 && b[9] == 0x01);
	}

	memset(&c, 0xa5, sizeof(c));
	CHECK_EQ_I64(nv_cmd_dsm(&c, &g4k, r, 2), 0);
	CHECK(same(&c, &(struct want){ .opcode = 0x09, .nsid = 2, .cdw10 = 1, .cdw11 = 0x4,
				       .addr = (uintptr_t)r, .data_len = 32 }));
	CHECK_EQ_I64(nv_cmd_dsm(&c, &g4k, r, 0), -EINVAL);
	CHECK_EQ_I64(nv_cmd_dsm(&c, &g4k, r, 257), -EINVAL);
	CHECK_EQ_I64(nv_cmd_dsm(&c, &g4k, r, 256), 0);
	CHECK_EQ_U64(c.cdw10, 255);
	CHECK_EQ_U64(c.data_len, 4096);

	CHECK_EQ_I64(nv_dsm_range_set(&r[0], &g4k, 100, 4096, 0, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "offset 100 is not a multiple of the LBA size 4096");
	CHECK_EQ_I64(nv_dsm_range_set(&r[0], &g4k, 0, 0, 0, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "zero length Dataset Management");
	CHECK_EQ_I64(nv_dsm_range_set(&r[0], &g512, 0, 512ull << 32, 0, msg, sizeof(msg)),
		     -EINVAL);
	CHECK_STR(msg, "trim length 2199023255552 is 4294967296 blocks, above the limit of "
		  "4294967295 blocks per range");
}

TEST(sqe)
{
	/* a 128-byte SQE as in an IORING_SETUP_SQE128 ring */
	union { struct io_uring_sqe sqe[2]; uint8_t raw[128]; } u;
	struct nvme_uring_cmd c;
	uint32_t op;
	struct nv_io io = { .opcode = NV_OPC_READ, .offset = 0, .len = 4096, .buf = buf };

	CHECK_EQ_U64(sizeof(u), 128);
	CHECK_EQ_U64(sizeof(struct nvme_uring_cmd), 72);
	nv_cmd_build(&c, &g4k, &io, &op);
	memset(&u, 0xee, sizeof(u));
	nv_sqe_uring_cmd(&u.sqe[0], 5, false, op, &c, -1);
	CHECK_EQ_U64(u.sqe[0].opcode, IORING_OP_URING_CMD);
	CHECK_EQ_U64(u.sqe[0].fd, 5);
	CHECK_EQ_U64(u.sqe[0].cmd_op, NVME_URING_CMD_IO);
	CHECK_EQ_U64(u.sqe[0].flags, 0);
	CHECK_EQ_U64(u.sqe[0].uring_cmd_flags, 0);
	CHECK_EQ_U64(u.sqe[0].buf_index, 0);
	CHECK_EQ_U64(u.sqe[0].user_data, 0);
	CHECK(!memcmp(u.raw + 48, &c, sizeof(c)));
	for (size_t i = 48 + sizeof(c); i < 128; i++)
		CHECK(u.raw[i] == 0);

	nv_sqe_uring_cmd(&u.sqe[0], 0, true, NVME_URING_CMD_IO_VEC, &c, 3);
	CHECK_EQ_U64(u.sqe[0].flags, IOSQE_FIXED_FILE);
	CHECK_EQ_U64(u.sqe[0].uring_cmd_flags, IORING_URING_CMD_FIXED);
	CHECK_EQ_U64(u.sqe[0].buf_index, 3);
	CHECK_EQ_U64(u.sqe[0].cmd_op, NVME_URING_CMD_IO_VEC);
}

TEST(pi_chk_parse)
{
	uint8_t p = 0xff;
	char msg[256] = "";

	CHECK_EQ_I64(nv_pi_chk_parse("GUARD,REFTAG,APPTAG", &p, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(p, 0x7);
	CHECK_EQ_I64(nv_pi_chk_parse("guard", &p, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(p, NV_PRINFO_PRCHK_GUARD);
	CHECK_EQ_I64(nv_pi_chk_parse("APPTAG,REFTAG,", &p, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(p, NV_PRINFO_PRCHK_APP | NV_PRINFO_PRCHK_REF);
	CHECK_EQ_I64(nv_pi_chk_parse("", &p, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(p, 0);
	CHECK_EQ_I64(nv_pi_chk_parse(NULL, &p, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(p, 0);
	p = 9;
	CHECK_EQ_I64(nv_pi_chk_parse("GUARD,CRC", &p, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "pi_chk: unknown check 'CRC' (use GUARD, REFTAG, APPTAG)");
	CHECK_EQ_U64(p, 9);
	CHECK_EQ_I64(nv_pi_chk_parse("GUARDX", &p, msg, sizeof(msg)), -EINVAL);
}

TEST(names)
{
	CHECK_STR(nv_opc_name(NV_OPC_WRITE_ZEROES), "Write Zeroes");
	CHECK_STR(nv_opc_name(NV_OPC_FLUSH), "Flush");
	CHECK_STR(nv_opc_name(0x03), "Unknown");
	CHECK_STR(nv_opc_name(0xff), "Unknown");
	CHECK(nv_opc_has_data(NV_OPC_COMPARE));
	CHECK(!nv_opc_has_data(NV_OPC_VERIFY));
}

int main(void)
{
	RUN(read_write);
	RUN(vectored);
	RUN(no_data_commands);
	RUN(pi_fields);
	RUN(pract_without_metadata_transfer);
	RUN(extended_lba);
	RUN(validation_messages);
	RUN(metadata_checks);
	RUN(setup_checks);
	RUN(dsm);
	RUN(sqe);
	RUN(pi_chk_parse);
	RUN(names);
	return check_summary();
}
