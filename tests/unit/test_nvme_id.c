/* test_nvme_id.c - Identify / SMART parsing and admin command builders. */
#include <errno.h>
#include <stdint.h>

#include "tests/unit/check.h"
#include "nvme/nvme_id.h"

static void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}
static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static void set_lbaf(uint8_t *id, unsigned i, uint16_t ms, uint8_t lbads, uint8_t rp)
{
	put_le16(id + 128 + 4 * i, ms);
	id[128 + 4 * i + 2] = lbads;
	id[128 + 4 * i + 3] = rp;
}

/* A namespace like QEMU's: formats 0 512+0, 1 512+8, 2 4096+0, 3 4096+8 ... */
static void make_id_ns(uint8_t *id, uint64_t nsze, uint8_t nlbaf0, uint8_t flbas, uint8_t dps)
{
	memset(id, 0, NV_IDENTIFY_LEN);
	put_le64(id + 0, nsze);
	put_le64(id + 8, nsze - 1);
	put_le64(id + 16, 1234);
	id[25] = nlbaf0;
	id[26] = flbas;
	id[27] = 0x3;
	id[28] = 0x1f;
	id[29] = dps;
	set_lbaf(id, 0, 0, 9, 0);
	set_lbaf(id, 1, 8, 9, 0);
	set_lbaf(id, 2, 16, 9, 0);
	set_lbaf(id, 3, 64, 9, 0);
	set_lbaf(id, 4, 0, 12, 0);
	set_lbaf(id, 5, 8, 12, 2);
	set_lbaf(id, 6, 16, 12, 0);
	set_lbaf(id, 7, 64, 12, 0);
	for (unsigned i = 8; i < 64; i++)
		set_lbaf(id, i, (uint16_t)i, 12, 1);
}

TEST(id_ns_plain_512)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ns_info ns;
	char msg[128] = "";

	make_id_ns(id, 2097152, 7, 0x00, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(ns.nsze, 2097152);
	CHECK_EQ_U64(ns.ncap, 2097151);
	CHECK_EQ_U64(ns.nuse, 1234);
	CHECK_EQ_U64(ns.lba_size, 512);
	CHECK_EQ_U64(ns.md_size, 0);
	CHECK_EQ_U64(ns.capacity, 1073741824ull);
	CHECK_EQ_U64(ns.nlbaf, 8);
	CHECK_EQ_U64(ns.fmt_index, 0);
	CHECK(!ns.ext_lba);
	CHECK_EQ_U64(ns.pi_type, 0);
	CHECK_EQ_U64(ns.mc, 3);
}

TEST(id_ns_4k_pi_separate)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ns_info ns;

	/* format 5 (4096 + 8), separate metadata, PI type 1 in the last 8 bytes */
	make_id_ns(id, 1000, 7, 0x05, 0x01);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, NULL, 0), 0);
	CHECK_EQ_U64(ns.lba_size, 4096);
	CHECK_EQ_U64(ns.md_size, 8);
	CHECK_EQ_U64(ns.rp, 2);
	CHECK_EQ_U64(ns.capacity, 4096000);
	CHECK(!ns.ext_lba);
	CHECK_EQ_U64(ns.pi_type, 1);
	CHECK(!ns.pi_first);
}

TEST(id_ns_ext_pi_first)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ns_info ns;

	/* format 2 (512 + 16), extended LBA (flbas bit 4), PI type 3 first */
	make_id_ns(id, 100, 7, 0x12, 0x0b);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, NULL, 0), 0);
	CHECK_EQ_U64(ns.lba_size, 512);
	CHECK_EQ_U64(ns.md_size, 16);
	CHECK(ns.ext_lba);
	CHECK_EQ_U64(ns.pi_type, 3);
	CHECK(ns.pi_first);
	CHECK_EQ_U64(ns.capacity, 51200);

	/* bit 4 on a format without metadata is not an extended LBA */
	make_id_ns(id, 100, 7, 0x10, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, NULL, 0), 0);
	CHECK(!ns.ext_lba);
}

TEST(id_ns_upper_format_bits)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ns_info ns;
	char msg[128] = "";

	/* 64 formats; flbas lower 0x5, upper (bits 5-6) 0x2 -> index 0x25 = 37 */
	make_id_ns(id, 10, 63, 0x45, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(ns.fmt_index, 37);
	CHECK_EQ_U64(ns.md_size, 37);
	CHECK_EQ_U64(ns.lba_size, 4096);
	/* 16 formats: bits 5-6 are reserved and ignored */
	make_id_ns(id, 10, 15, 0x45, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(ns.fmt_index, 5);
	/* 17 formats: index 0x15 = 21 is out of range */
	make_id_ns(id, 10, 16, 0x25, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "format index 21 out of range (17 formats)");
}

TEST(id_ns_malformed)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ns_info ns = { .lba_size = 777 };
	char msg[128] = "";

	make_id_ns(id, 100, 7, 0, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, 383, &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "Identify Namespace data is 383 bytes, need at least 384");
	CHECK_EQ_I64(nv_parse_id_ns(NULL, 4096, &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_EQ_U64(ns.lba_size, 777);		/* untouched on error */

	make_id_ns(id, 100, 3, 0x04, 0);	/* index 4 with 4 formats */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "format index 4 out of range (4 formats)");

	make_id_ns(id, 0, 7, 0, 0);
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "namespace size is 0 blocks (inactive namespace?)");

	make_id_ns(id, 100, 7, 0, 0);
	id[128 + 2] = 0;			/* lbads 0: format not available */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "LBA format 0 has unsupported data size 2^0");

	make_id_ns(id, 100, 7, 0, 0x05);	/* reserved PI type 5 */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "reserved protection information type 5 (dps 0x5)");

	make_id_ns(id, 100, 7, 0x04, 0x01);	/* PI on a format without metadata */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "PI type 1 with 0 metadata bytes (need 8)");

	make_id_ns(id, 100, 64, 0, 0);		/* NLBAF 64 is above 63 */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);

	make_id_ns(id, UINT64_MAX / 256, 7, 0x04, 0);	/* bytes overflow 64 bits */
	CHECK_EQ_I64(nv_parse_id_ns(id, sizeof(id), &ns, msg, sizeof(msg)), -EINVAL);
}

static void make_id_ctrl(uint8_t *id)
{
	memset(id, 0, NV_IDENTIFY_LEN);
	put_le16(id + 0, 0x1b36);
	put_le16(id + 2, 0x1af4);
	memcpy(id + 4, "deadbeef            ", 20);
	memcpy(id + 24, "QEMU NVMe Ctrl                          ", 40);
	memcpy(id + 64, "8.0.0   ", 8);
	id[77] = 7;
	put_le16(id + 78, 0x0001);
	put_le32(id + 80, 0x00010400);
	put_le32(id + 516, 256);
	put_le16(id + 520, 0x01df);
	id[525] = 0x7;
}

TEST(id_ctrl)
{
	uint8_t id[NV_IDENTIFY_LEN];
	struct nv_ctrl_info c;
	char msg[128] = "";

	make_id_ctrl(id);
	CHECK_EQ_I64(nv_parse_id_ctrl(id, sizeof(id), &c, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(c.vid, 0x1b36);
	CHECK_EQ_U64(c.ssvid, 0x1af4);
	CHECK_STR(c.sn, "deadbeef");
	CHECK_STR(c.mn, "QEMU NVMe Ctrl");
	CHECK_STR(c.fr, "8.0.0");
	CHECK_EQ_U64(c.mdts, 7);
	CHECK_EQ_U64(c.cntlid, 1);
	CHECK_EQ_U64(c.ver, 0x10400);
	CHECK_EQ_U64(c.nn, 256);
	CHECK(c.oncs & NV_ONCS_WRITE_ZEROES);
	CHECK(c.oncs & NV_ONCS_VERIFY);
	CHECK_EQ_U64(c.vwc, 7);

	/* full-width fields without padding, NUL padding, non-ASCII bytes */
	memcpy(id + 4, "ABCDEFGHIJKLMNOPQRST", 20);
	memset(id + 64, 0, 8);
	memcpy(id + 64, "1.0", 3);
	id[24] = 0xff;
	CHECK_EQ_I64(nv_parse_id_ctrl(id, sizeof(id), &c, msg, sizeof(msg)), 0);
	CHECK_STR(c.sn, "ABCDEFGHIJKLMNOPQRST");
	CHECK_STR(c.fr, "1.0");
	CHECK_STR(c.mn, "?EMU NVMe Ctrl");
	memset(id + 64, ' ', 8);
	CHECK_EQ_I64(nv_parse_id_ctrl(id, sizeof(id), &c, msg, sizeof(msg)), 0);
	CHECK_STR(c.fr, "");

	CHECK_EQ_I64(nv_parse_id_ctrl(id, 100, &c, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "Identify Controller data is 100 bytes, need at least 528");
}

TEST(mdts)
{
	const char *src = "x";

	CHECK_EQ_U64(nv_mdts_bytes(0, 4096), 0);
	CHECK_EQ_U64(nv_mdts_bytes(1, 4096), 8192);
	CHECK_EQ_U64(nv_mdts_bytes(5, 4096), 131072);
	CHECK_EQ_U64(nv_mdts_bytes(7, 4096), 524288);
	CHECK_EQ_U64(nv_mdts_bytes(63, 4096), UINT64_MAX);
	CHECK_EQ_U64(nv_mdts_bytes(255, 4096), UINT64_MAX);

	CHECK_EQ_U64(nv_max_transfer(0, 0, &src), 0);
	CHECK(src == NULL);
	CHECK_EQ_U64(nv_max_transfer(524288, 0, &src), 524288);
	CHECK_STR(src, "MDTS");
	CHECK_EQ_U64(nv_max_transfer(524288, 128, &src), 131072);
	CHECK_STR(src, "max_hw_sectors_kb");
	CHECK_EQ_U64(nv_max_transfer(8192, 128, &src), 8192);
	CHECK_STR(src, "MDTS");
	CHECK_EQ_U64(nv_max_transfer(0, 256, &src), 262144);
	CHECK_STR(src, "max_hw_sectors_kb");
	CHECK_EQ_U64(nv_max_transfer(131072, 128, NULL), 131072);
}

TEST(admin_identify_cmd)
{
	struct nvme_passthru_cmd cmd;
	uint8_t buf[NV_IDENTIFY_LEN];

	memset(&cmd, 0xaa, sizeof(cmd));
	nv_admin_identify(&cmd, NV_CNS_NS, 3, NV_CSI_NVM, buf);
	CHECK_EQ_U64(cmd.opcode, 0x06);
	CHECK_EQ_U64(cmd.nsid, 3);
	CHECK_EQ_U64(cmd.addr, (uintptr_t)buf);
	CHECK_EQ_U64(cmd.data_len, 4096);
	CHECK_EQ_U64(cmd.cdw10, 0);
	CHECK_EQ_U64(cmd.cdw11, 0);
	CHECK_EQ_U64(cmd.flags | cmd.rsvd1 | cmd.cdw2 | cmd.cdw3 | cmd.metadata |
		     cmd.metadata_len | cmd.cdw12 | cmd.cdw13 | cmd.cdw14 | cmd.cdw15 |
		     cmd.timeout_ms | cmd.result, 0);

	nv_admin_identify(&cmd, NV_CNS_CTRL, 0, 0, buf);
	CHECK_EQ_U64(cmd.cdw10, 1);
	CHECK_EQ_U64(cmd.nsid, 0);
	nv_admin_identify(&cmd, NV_CNS_CSI_NS, 1, NV_CSI_ZNS, buf);
	CHECK_EQ_U64(cmd.cdw10, 5);
	CHECK_EQ_U64(cmd.cdw11, 0x02000000);
}

TEST(admin_get_log_cmd)
{
	struct nvme_passthru_cmd cmd;
	uint8_t buf[NV_SMART_LOG_LEN];

	memset(&cmd, 0xaa, sizeof(cmd));
	CHECK_EQ_I64(nv_admin_get_log(&cmd, NV_LOG_SMART, NV_NSID_ALL, buf, 512, 0), 0);
	CHECK_EQ_U64(cmd.opcode, 0x02);
	CHECK_EQ_U64(cmd.nsid, 0xffffffff);
	CHECK_EQ_U64(cmd.addr, (uintptr_t)buf);
	CHECK_EQ_U64(cmd.data_len, 512);
	CHECK_EQ_U64(cmd.cdw10, 0x007f0002);	/* NUMDL 127, LID 2 */
	CHECK_EQ_U64(cmd.cdw11, 0);
	CHECK_EQ_U64(cmd.cdw12, 0);
	CHECK_EQ_U64(cmd.cdw13, 0);
	CHECK_EQ_U64(cmd.cdw14 | cmd.cdw15 | cmd.metadata | cmd.timeout_ms, 0);

	/* 1 MiB: NUMD 0x3ffff splits into NUMDL 0xffff / NUMDU 0x3 */
	CHECK_EQ_I64(nv_admin_get_log(&cmd, NV_LOG_ERROR, 1, buf, 1u << 20, 0x100000004ull), 0);
	CHECK_EQ_U64(cmd.cdw10, 0xffff0001);
	CHECK_EQ_U64(cmd.cdw11, 0x3);
	CHECK_EQ_U64(cmd.cdw12, 4);
	CHECK_EQ_U64(cmd.cdw13, 1);

	CHECK_EQ_I64(nv_admin_get_log(&cmd, 2, 0, buf, 0, 0), -EINVAL);
	CHECK_EQ_I64(nv_admin_get_log(&cmd, 2, 0, buf, 510, 0), -EINVAL);
	CHECK_EQ_I64(nv_admin_get_log(&cmd, 2, 0, buf, 512, 2), -EINVAL);
}

static void put_le128(uint8_t *p, uint64_t lo, uint64_t hi)
{
	put_le64(p, lo);
	put_le64(p + 8, hi);
}

TEST(smart)
{
	uint8_t log[NV_SMART_LOG_LEN] = { 0 };
	struct nv_smart s;
	struct nv_kv kv[NV_SMART_KV_MAX];
	char msg[128] = "";
	int n;

	log[0] = 0x04;
	put_le16(log + 1, 304);		/* 31 C */
	log[3] = 100;
	log[4] = 10;
	log[5] = 3;
	put_le128(log + 32, 1000, 0);
	put_le128(log + 48, 0, 1);	/* 2^64 units */
	put_le128(log + 64, 123456789, 0);
	put_le128(log + 80, 42, 0);
	put_le128(log + 96, 7, 0);
	put_le128(log + 112, 11, 0);
	put_le128(log + 128, 8760, 0);
	put_le128(log + 144, 5, 0);
	put_le128(log + 160, 2, 0);
	put_le128(log + 176, 9, 0);
	put_le32(log + 192, 60);
	put_le32(log + 196, 1);

	CHECK_EQ_I64(nv_parse_smart(log, 511, &s, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "SMART log data is 511 bytes, need 512");
	CHECK_EQ_I64(nv_parse_smart(log, sizeof(log), &s, msg, sizeof(msg)), 0);
	CHECK_EQ_U64(s.temperature_k, 304);
	CHECK_EQ_U64(s.avail_spare, 100);
	CHECK_EQ_U64(s.percent_used, 3);
	CHECK(s.data_units_written == (unsigned __int128)1 << 64);
	CHECK_EQ_U64((uint64_t)s.power_on_hours, 8760);

	n = nv_smart_kv(&s, kv, NV_SMART_KV_MAX);
	CHECK_EQ_I64(n, 19);
	CHECK_STR(kv[0].key, "temperature_c");
	CHECK_STR(kv[0].val, "31");
	CHECK_STR(kv[1].key, "critical_warning");
	CHECK_STR(kv[1].val, "0x4");
	CHECK_STR(kv[2].val, "100");
	CHECK_STR(kv[3].val, "10");
	CHECK_STR(kv[4].key, "percentage_used");
	CHECK_STR(kv[4].val, "3");
	CHECK_STR(kv[5].key, "data_units_read");
	CHECK_STR(kv[5].val, "1000");
	CHECK_STR(kv[6].key, "data_units_written");
	CHECK_STR(kv[6].val, "18446744073709551616");
	CHECK_STR(kv[7].key, "data_read_bytes");
	CHECK_STR(kv[7].val, "512000000");
	CHECK_STR(kv[8].key, "data_written_bytes");
	CHECK_STR(kv[8].val, "9444732965739290427392000");
	CHECK_STR(kv[9].key, "host_read_commands");
	CHECK_STR(kv[9].val, "123456789");
	CHECK_STR(kv[13].key, "power_on_hours");
	CHECK_STR(kv[13].val, "8760");
	CHECK_STR(kv[14].key, "unsafe_shutdowns");
	CHECK_STR(kv[14].val, "5");
	CHECK_STR(kv[15].key, "media_errors");
	CHECK_STR(kv[15].val, "2");
	CHECK_STR(kv[16].key, "error_log_entries");
	CHECK_STR(kv[16].val, "9");
	CHECK_STR(kv[18].key, "critical_temp_minutes");
	CHECK_STR(kv[18].val, "1");

	/* a short array is filled, not overrun */
	kv[3].key = "sentinel";
	CHECK_EQ_I64(nv_smart_kv(&s, kv, 3), 3);
	CHECK_STR(kv[3].key, "sentinel");
	CHECK_EQ_I64(nv_smart_kv(&s, kv, 7), 7);
	CHECK_STR(kv[6].key, "data_units_written");

	/* below 0 C */
	put_le16(log + 1, 263);
	nv_parse_smart(log, sizeof(log), &s, NULL, 0);
	nv_smart_kv(&s, kv, NV_SMART_KV_MAX);
	CHECK_STR(kv[0].val, "-10");
}

TEST(u128_str)
{
	char buf[48];
	unsigned __int128 max = ~(unsigned __int128)0;

	CHECK_STR(nv_u128_str(0, buf, sizeof(buf)), "0");
	CHECK_STR(nv_u128_str(max, buf, sizeof(buf)), "340282366920938463463374607431768211455");
	CHECK_STR(nv_u128_str(12345, buf, 6), "12345");
	CHECK_STR(nv_u128_str(123456, buf, 6), "?");
}

int main(void)
{
	RUN(id_ns_plain_512);
	RUN(id_ns_4k_pi_separate);
	RUN(id_ns_ext_pi_first);
	RUN(id_ns_upper_format_bits);
	RUN(id_ns_malformed);
	RUN(id_ctrl);
	RUN(mdts);
	RUN(admin_identify_cmd);
	RUN(admin_get_log_cmd);
	RUN(smart);
	RUN(u128_str);
	return check_summary();
}
