/*
 * nvme_id.h - Identify and SMART parsing and admin command builders.
 *
 * Everything here is pure: the builders fill a struct nvme_passthru_cmd for
 * NVME_IOCTL_ADMIN_CMD (the caller owns the ioctl), the parsers read the raw
 * little-endian buffers the controller returned and never trust them: every
 * index is bounds checked and a malformed page gives -EINVAL with a message.
 */
#ifndef NV_NVME_ID_H
#define NV_NVME_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#define NV_IDENTIFY_LEN		4096
#define NV_SMART_LOG_LEN	512
#define NV_NSID_ALL		0xffffffffu

enum {
	NV_ADMIN_GET_LOG_PAGE	= 0x02,
	NV_ADMIN_IDENTIFY	= 0x06,

	NV_CNS_NS		= 0x00,
	NV_CNS_CTRL		= 0x01,
	NV_CNS_CSI_NS		= 0x05,
	NV_CNS_CSI_CTRL		= 0x06,

	NV_CSI_NVM		= 0x00,
	NV_CSI_ZNS		= 0x02,

	NV_LOG_ERROR		= 0x01,
	NV_LOG_SMART		= 0x02,
};

/* ONCS (Optional NVM Command Support) bits of Identify Controller. */
enum {
	NV_ONCS_COMPARE		= 1 << 0,
	NV_ONCS_WRITE_UNCOR	= 1 << 1,
	NV_ONCS_DSM		= 1 << 2,
	NV_ONCS_WRITE_ZEROES	= 1 << 3,
	NV_ONCS_VERIFY		= 1 << 7,
};

/*
 * What the engine needs to know about a namespace, derived from Identify
 * Namespace (CNS 0) for the format in use.
 */
struct nv_ns_info {
	uint64_t nsze;		/* size in logical blocks */
	uint64_t ncap;		/* capacity in logical blocks */
	uint64_t nuse;		/* utilization in logical blocks */
	uint64_t capacity;	/* nsze * lba_size: data bytes fio may address */
	uint32_t lba_size;	/* data bytes per logical block (2^lbads) */
	uint32_t md_size;	/* metadata bytes per logical block (ms) */
	uint8_t nlbaf;		/* number of LBA formats (1-based count) */
	uint8_t fmt_index;	/* format in use, from flbas bits 0-3 and 5-6 */
	uint8_t rp;		/* relative performance of that format, 0 best */
	uint8_t flbas, mc, dpc, dps;	/* raw fields */
	bool ext_lba;		/* flbas bit 4: metadata interleaved with data */
	uint8_t pi_type;	/* 0 none, 1, 2, 3 (dps bits 0-2) */
	bool pi_first;		/* dps bit 3: PI in the first 8 metadata bytes */
};

/* From Identify Controller (CNS 1). Strings are trimmed and NUL terminated. */
struct nv_ctrl_info {
	uint16_t vid, ssvid;
	char sn[21];
	char mn[41];
	char fr[9];
	uint8_t mdts;		/* max data transfer: 2^mdts min pages, 0 = none */
	uint16_t cntlid;
	uint32_t ver;
	uint32_t nn;		/* number of namespaces */
	uint16_t oncs;		/* NV_ONCS_* */
	uint8_t vwc;		/* bit 0: volatile write cache present */
};

/* SMART / Health Information log page (LID 0x02). 128-bit counters. */
struct nv_smart {
	uint8_t critical_warning;
	uint16_t temperature_k;		/* composite temperature, Kelvin */
	uint8_t avail_spare;		/* percent */
	uint8_t spare_thresh;		/* percent */
	uint8_t percent_used;
	unsigned __int128 data_units_read;	/* units of 1000 * 512 bytes */
	unsigned __int128 data_units_written;
	unsigned __int128 host_reads;
	unsigned __int128 host_writes;
	unsigned __int128 ctrl_busy_minutes;
	unsigned __int128 power_cycles;
	unsigned __int128 power_on_hours;
	unsigned __int128 unsafe_shutdowns;
	unsigned __int128 media_errors;
	unsigned __int128 err_log_entries;
	uint32_t warning_temp_minutes;
	uint32_t critical_temp_minutes;
};

/* One key/value pair for a trace header; val holds up to a 128-bit decimal. */
struct nv_kv {
	const char *key;
	char val[48];
};
#define NV_SMART_KV_MAX 20

/*
 * nv_admin_identify - fill cmd (zeroed first) for Identify with CNS cns,
 * namespace nsid and command set csi (only meaningful for CNS 5/6), reading
 * NV_IDENTIFY_LEN bytes into buf.
 */
void nv_admin_identify(struct nvme_passthru_cmd *cmd, uint8_t cns, uint32_t nsid,
		       uint8_t csi, void *buf);

/*
 * nv_admin_get_log - fill cmd for Get Log Page of log lid for nsid
 * (NV_NSID_ALL for controller-wide pages such as SMART), len bytes at byte
 * offset off into buf.  NUMD is 0's based in dwords, split over cdw10/cdw11.
 * Returns -EINVAL (cmd untouched) when len is 0, not a multiple of 4, above
 * 2^32 dwords, or off is not dword aligned.
 */
int nv_admin_get_log(struct nvme_passthru_cmd *cmd, uint8_t lid, uint32_t nsid,
		     void *buf, uint32_t len, uint64_t off);

/*
 * nv_parse_id_ns - decode an Identify Namespace page (len bytes, at least
 * 384: the header and all 64 LBA formats).  Refuses with -EINVAL and a
 * message in msg: a short buffer, nsze 0 (inactive namespace), a format
 * index beyond NLBAF, an unsupported LBA data size (lbads < 9 or > 31), a
 * reserved PI type, or PI with fewer than 8 metadata bytes.  Formats beyond
 * 16 take flbas bits 5-6 as the upper index bits; with 16 or fewer formats
 * those bits are ignored (they are reserved there).
 */
int nv_parse_id_ns(const void *buf, size_t len, struct nv_ns_info *ns,
		   char *msg, size_t msglen);

/*
 * nv_parse_id_ctrl - decode an Identify Controller page (len >= 4096 is not
 * required; 528 bytes cover every field read).  -EINVAL on a short buffer.
 */
int nv_parse_id_ctrl(const void *buf, size_t len, struct nv_ctrl_info *ctrl,
		     char *msg, size_t msglen);

/*
 * nv_mdts_bytes - the controller's maximum data transfer size in bytes for
 * MDTS mdts and a minimum memory page size page_size (CAP.MPSMIN; Linux uses
 * 4096).  0 means no limit reported.  Saturates at UINT64_MAX.
 */
uint64_t nv_mdts_bytes(uint8_t mdts, uint32_t page_size);

/*
 * nv_max_transfer - the largest single passthrough transfer: the smaller of
 * the MDTS limit and the kernel's queue/max_hw_sectors_kb (0 = unknown for
 * either).  *src (if not NULL) names the limit that won, "MDTS" or
 * "max_hw_sectors_kb", for error messages.  Returns 0 when neither is known.
 */
uint64_t nv_max_transfer(uint64_t mdts_bytes, uint64_t max_hw_kb, const char **src);

/*
 * nv_parse_smart - decode a SMART / Health log page (len >= 512).
 */
int nv_parse_smart(const void *buf, size_t len, struct nv_smart *s,
		   char *msg, size_t msglen);

/*
 * nv_smart_kv - key/value strings for a trace header: temperature_c,
 * critical_warning, available_spare_pct, available_spare_threshold_pct,
 * percentage_used, data_units_read, data_units_written, data_read_bytes,
 * data_written_bytes, host_read_commands, host_write_commands,
 * controller_busy_minutes, power_cycles, power_on_hours, unsafe_shutdowns,
 * media_errors, error_log_entries, warning_temp_minutes,
 * critical_temp_minutes.  Fills at most max entries and returns the number
 * filled (NV_SMART_KV_MAX always suffices).
 */
int nv_smart_kv(const struct nv_smart *s, struct nv_kv *kv, int max);

/*
 * nv_u128_str - decimal text of a 128-bit counter into buf (>= 40 bytes for
 * every value), returns buf.
 */
char *nv_u128_str(unsigned __int128 v, char *buf, size_t len);

#endif
