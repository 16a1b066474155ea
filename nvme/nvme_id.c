/*
 * nvme_id.c - Identify Namespace / Controller and SMART log decoding, and the
 * admin command builders that fetch them.  Offsets are those of the NVM
 * Express Base Specification 2.0 (Identify data structures, SMART / Health
 * Information log page); all multi-byte fields are little endian.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nvme/nvme_id.h"
#include "nvme/nvme_msg.h"

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static unsigned __int128 get_le128(const uint8_t *p)
{
	return (unsigned __int128)get_le64(p) |
	       (unsigned __int128)get_le64(p + 8) << 64;
}

void nv_admin_identify(struct nvme_passthru_cmd *cmd, uint8_t cns, uint32_t nsid,
		       uint8_t csi, void *buf)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NV_ADMIN_IDENTIFY;
	cmd->nsid = nsid;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = NV_IDENTIFY_LEN;
	cmd->cdw10 = cns;
	cmd->cdw11 = (uint32_t)csi << 24;
}

int nv_admin_get_log(struct nvme_passthru_cmd *cmd, uint8_t lid, uint32_t nsid,
		     void *buf, uint32_t len, uint64_t off)
{
	uint32_t numd;

	if (!len || len % 4 || off % 4)
		return -EINVAL;
	numd = len / 4 - 1;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = NV_ADMIN_GET_LOG_PAGE;
	cmd->nsid = nsid;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->data_len = len;
	cmd->cdw10 = lid | (numd & 0xffff) << 16;
	cmd->cdw11 = numd >> 16;
	cmd->cdw12 = (uint32_t)off;
	cmd->cdw13 = (uint32_t)(off >> 32);
	return 0;
}

/* Identify Namespace offsets. */
enum {
	IDNS_NSZE = 0, IDNS_NCAP = 8, IDNS_NUSE = 16, IDNS_NLBAF = 25,
	IDNS_FLBAS = 26, IDNS_MC = 27, IDNS_DPC = 28, IDNS_DPS = 29,
	IDNS_LBAF = 128, IDNS_MIN_LEN = 128 + 64 * 4,
};

int nv_parse_id_ns(const void *buf, size_t len, struct nv_ns_info *ns,
		   char *msg, size_t msglen)
{
	const uint8_t *p = buf, *lbaf;
	struct nv_ns_info n = { 0 };
	unsigned lbads;

	if (!buf || len < IDNS_MIN_LEN)
		return nv_msg_fail(msg, msglen, "Identify Namespace data is %zu bytes, need at "
				   "least %d",
			    buf ? len : 0, IDNS_MIN_LEN);
	n.nsze = get_le64(p + IDNS_NSZE);
	n.ncap = get_le64(p + IDNS_NCAP);
	n.nuse = get_le64(p + IDNS_NUSE);
	n.nlbaf = (uint8_t)(p[IDNS_NLBAF] + 1);
	n.flbas = p[IDNS_FLBAS];
	n.mc = p[IDNS_MC];
	n.dpc = p[IDNS_DPC];
	n.dps = p[IDNS_DPS];
	if (!n.nsze)
		return nv_msg_fail(msg, msglen, "namespace size is 0 blocks "
				   "(inactive namespace?)");
	if (p[IDNS_NLBAF] > 63)
		return nv_msg_fail(msg, msglen, "NLBAF %u is above the maximum 63", p[IDNS_NLBAF]);

	n.fmt_index = n.flbas & 0x0f;
	if (n.nlbaf > 16)
		n.fmt_index |= ((n.flbas >> 5) & 0x3) << 4;
	if (n.fmt_index >= n.nlbaf)
		return nv_msg_fail(msg, msglen, "format index %u out of range (%u formats)",
			    n.fmt_index, n.nlbaf);

	lbaf = p + IDNS_LBAF + 4 * n.fmt_index;
	n.md_size = get_le16(lbaf);
	lbads = lbaf[2];
	n.rp = lbaf[3] & 0x3;
	if (lbads < 9 || lbads > 31)
		return nv_msg_fail(msg, msglen, "LBA format %u has unsupported data size 2^%u",
			    n.fmt_index, lbads);
	n.lba_size = 1u << lbads;
	n.ext_lba = n.md_size && (n.flbas & 0x10);

	n.pi_type = n.dps & 0x7;
	n.pi_first = !!(n.dps & 0x8);
	if (n.pi_type > 3)
		return nv_msg_fail(msg, msglen,
				   "reserved protection information type %u (dps 0x%x)",
			    n.pi_type, n.dps);
	if (n.pi_type && n.md_size < 8)
		return nv_msg_fail(msg, msglen, "PI type %u with %u metadata bytes (need 8)",
			    n.pi_type, n.md_size);
	if (n.nsze > UINT64_MAX / n.lba_size)
		return nv_msg_fail(msg, msglen, "namespace size %llu blocks overflows",
			    (unsigned long long)n.nsze);
	n.capacity = n.nsze * n.lba_size;
	*ns = n;
	return 0;
}

/* Identify Controller offsets. */
enum {
	IDC_VID = 0, IDC_SSVID = 2, IDC_SN = 4, IDC_MN = 24, IDC_FR = 64,
	IDC_MDTS = 77, IDC_CNTLID = 78, IDC_VER = 80, IDC_NN = 516,
	IDC_ONCS = 520, IDC_VWC = 525, IDC_MIN_LEN = 528,
};

/*
 * Copy an ASCII, space padded identify string, trimming trailing spaces and
 * NULs and replacing non-printable bytes with '?'.
 */
static void copy_trim(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	while (n && (src[n - 1] == ' ' || src[n - 1] == 0))
		n--;
	for (i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	dst[n] = 0;
}

int nv_parse_id_ctrl(const void *buf, size_t len, struct nv_ctrl_info *ctrl,
		     char *msg, size_t msglen)
{
	const uint8_t *p = buf;
	struct nv_ctrl_info c = { 0 };

	if (!buf || len < IDC_MIN_LEN)
		return nv_msg_fail(msg, msglen, "Identify Controller data is %zu bytes, need at "
				   "least %d",
			    buf ? len : 0, IDC_MIN_LEN);
	c.vid = get_le16(p + IDC_VID);
	c.ssvid = get_le16(p + IDC_SSVID);
	copy_trim(c.sn, p + IDC_SN, 20);
	copy_trim(c.mn, p + IDC_MN, 40);
	copy_trim(c.fr, p + IDC_FR, 8);
	c.mdts = p[IDC_MDTS];
	c.cntlid = get_le16(p + IDC_CNTLID);
	c.ver = get_le32(p + IDC_VER);
	c.nn = get_le32(p + IDC_NN);
	c.oncs = get_le16(p + IDC_ONCS);
	c.vwc = p[IDC_VWC];
	*ctrl = c;
	return 0;
}

uint64_t nv_mdts_bytes(uint8_t mdts, uint32_t page_size)
{
	if (!mdts || !page_size)
		return 0;
	if (mdts >= 64 || (uint64_t)page_size > (UINT64_MAX >> mdts))
		return UINT64_MAX;
	return (uint64_t)page_size << mdts;
}

uint64_t nv_max_transfer(uint64_t mdts_bytes, uint64_t max_hw_kb, const char **src)
{
	uint64_t hw = max_hw_kb > UINT64_MAX / 1024 ? UINT64_MAX : max_hw_kb * 1024;
	const char *s = NULL;
	uint64_t lim = 0;

	if (mdts_bytes) {
		lim = mdts_bytes;
		s = "MDTS";
	}
	if (hw && (!lim || hw < lim)) {
		lim = hw;
		s = "max_hw_sectors_kb";
	}
	if (src)
		*src = s;
	return lim;
}

/* SMART / Health log offsets. */
enum {
	SM_CRIT = 0, SM_TEMP = 1, SM_SPARE = 3, SM_SPARE_TH = 4, SM_USED = 5,
	SM_DUR = 32, SM_DUW = 48, SM_HRC = 64, SM_HWC = 80, SM_BUSY = 96,
	SM_PCYC = 112, SM_POH = 128, SM_UNSAFE = 144, SM_MEDIA = 160,
	SM_ERRLOG = 176, SM_WTEMP = 192, SM_CTEMP = 196,
};

int nv_parse_smart(const void *buf, size_t len, struct nv_smart *s,
		   char *msg, size_t msglen)
{
	const uint8_t *p = buf;

	if (!buf || len < NV_SMART_LOG_LEN)
		return nv_msg_fail(msg, msglen, "SMART log data is %zu bytes, need %d",
			    buf ? len : 0, NV_SMART_LOG_LEN);
	memset(s, 0, sizeof(*s));
	s->critical_warning = p[SM_CRIT];
	s->temperature_k = get_le16(p + SM_TEMP);
	s->avail_spare = p[SM_SPARE];
	s->spare_thresh = p[SM_SPARE_TH];
	s->percent_used = p[SM_USED];
	s->data_units_read = get_le128(p + SM_DUR);
	s->data_units_written = get_le128(p + SM_DUW);
	s->host_reads = get_le128(p + SM_HRC);
	s->host_writes = get_le128(p + SM_HWC);
	s->ctrl_busy_minutes = get_le128(p + SM_BUSY);
	s->power_cycles = get_le128(p + SM_PCYC);
	s->power_on_hours = get_le128(p + SM_POH);
	s->unsafe_shutdowns = get_le128(p + SM_UNSAFE);
	s->media_errors = get_le128(p + SM_MEDIA);
	s->err_log_entries = get_le128(p + SM_ERRLOG);
	s->warning_temp_minutes = get_le32(p + SM_WTEMP);
	s->critical_temp_minutes = get_le32(p + SM_CTEMP);
	return 0;
}

char *nv_u128_str(unsigned __int128 v, char *buf, size_t len)
{
	char tmp[40];
	size_t n = 0;

	if (!buf || !len)
		return buf;
	do {
		tmp[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	if (n >= len)	/* does not fit: say so rather than print a wrong number */
		n = 0, tmp[n++] = '?';
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

/*
 * Bytes for a data-units counter: each unit is 1000 512-byte sectors.  The
 * product of a 128-bit counter can overflow; saturate (no real device gets
 * near 2^128 / 512000 units).
 */
static unsigned __int128 units_to_bytes(unsigned __int128 units)
{
	const unsigned __int128 max = ~(unsigned __int128)0;

	return units > max / 512000 ? max : units * 512000;
}

int nv_smart_kv(const struct nv_smart *s, struct nv_kv *kv, int max)
{
	const struct { const char *key; unsigned __int128 v; } u[] = {
		{ "data_units_read", s->data_units_read },
		{ "data_units_written", s->data_units_written },
		{ "data_read_bytes", units_to_bytes(s->data_units_read) },
		{ "data_written_bytes", units_to_bytes(s->data_units_written) },
		{ "host_read_commands", s->host_reads },
		{ "host_write_commands", s->host_writes },
		{ "controller_busy_minutes", s->ctrl_busy_minutes },
		{ "power_cycles", s->power_cycles },
		{ "power_on_hours", s->power_on_hours },
		{ "unsafe_shutdowns", s->unsafe_shutdowns },
		{ "media_errors", s->media_errors },
		{ "error_log_entries", s->err_log_entries },
		{ "warning_temp_minutes", s->warning_temp_minutes },
		{ "critical_temp_minutes", s->critical_temp_minutes },
	};
	int n = 0;

#define KV_INT(k, fmt, x) do { \
	if (n < max) { \
		kv[n].key = (k); \
		snprintf(kv[n].val, sizeof(kv[n].val), fmt, x); \
		n++; \
	} \
} while (0)
	KV_INT("temperature_c", "%d", (int)s->temperature_k - 273);
	KV_INT("critical_warning", "0x%x", s->critical_warning);
	KV_INT("available_spare_pct", "%u", s->avail_spare);
	KV_INT("available_spare_threshold_pct", "%u", s->spare_thresh);
	KV_INT("percentage_used", "%u", s->percent_used);
#undef KV_INT
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]) && n < max; i++, n++) {
		kv[n].key = u[i].key;
		nv_u128_str(u[i].v, kv[n].val, sizeof(kv[n].val));
	}
	return n;
}
