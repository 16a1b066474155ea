/*
 * nvme_status.h - decode the completion status of NVMe passthrough commands.
 *
 * For IORING_OP_URING_CMD on /dev/ngXnY (and the NVME_IOCTL_* ioctls) the
 * kernel reports the outcome as one int:
 *   res == 0   success
 *   res <  0   -errno (the command never reached the device, was cancelled,
 *              or the kernel refused it: -EINVAL, -EINTR, -ENOMEM, ...)
 *   res >  0   the NVMe status field of the completion queue entry without
 *              its phase bit (the driver stores le16_to_cpu(cqe->status) >> 1):
 *                bits 0-7   SC   status code
 *                bits 8-10  SCT  status code type
 *                bits 11-12 CRD  command retry delay
 *                bit  13    M    more (error log page has details)
 *                bit  14    DNR  do not retry
 *              Host-side path errors use SCT 3 too (0x370, 0x371).
 * Pure functions, no I/O.
 */
#ifndef NV_NVME_STATUS_H
#define NV_NVME_STATUS_H

#include <stdbool.h>
#include <stddef.h>

enum {
	NV_SCT_GENERIC		= 0x0,
	NV_SCT_CMD_SPECIFIC	= 0x1,
	NV_SCT_MEDIA		= 0x2,
	NV_SCT_PATH		= 0x3,
	NV_SCT_VENDOR		= 0x7,

	NV_STATUS_SC_MASK	= 0x00ff,
	NV_STATUS_SCT_SHIFT	= 8,
	NV_STATUS_SCT_MASK	= 0x0700,
	NV_STATUS_CRD_SHIFT	= 11,
	NV_STATUS_CRD_MASK	= 0x1800,
	NV_STATUS_MORE		= 0x2000,
	NV_STATUS_DNR		= 0x4000,
};

/* Status values (SCT << 8 | SC) the engine refers to by name. */
enum {
	NV_SC_SUCCESS		= 0x000,
	NV_SC_INVALID_OPCODE	= 0x001,
	NV_SC_INVALID_FIELD	= 0x002,
	NV_SC_DATA_XFER_ERROR	= 0x004,
	NV_SC_INTERNAL		= 0x006,
	NV_SC_INVALID_NS	= 0x00b,
	NV_SC_LBA_RANGE		= 0x080,
	NV_SC_CAP_EXCEEDED	= 0x081,
	NV_SC_NS_NOT_READY	= 0x082,
	NV_SC_INVALID_PI	= 0x181,
	NV_SC_READ_ONLY		= 0x182,
	NV_SC_WRITE_FAULT	= 0x280,
	NV_SC_READ_ERROR	= 0x281,
	NV_SC_GUARD_CHECK	= 0x282,
	NV_SC_APPTAG_CHECK	= 0x283,
	NV_SC_REFTAG_CHECK	= 0x284,
	NV_SC_COMPARE_FAILED	= 0x285,
	NV_SC_ACCESS_DENIED	= 0x286,
	NV_SC_UNWRITTEN_BLOCK	= 0x287,
	NV_SC_HOST_PATH_ERROR	= 0x370,
	NV_SC_HOST_ABORTED_CMD	= 0x371,
};

/* Field extraction from a positive res. */
static inline unsigned nv_status_sc(int status)  { return (unsigned)status & NV_STATUS_SC_MASK; }
static inline unsigned nv_status_sct(int status)
{
	return ((unsigned)status & NV_STATUS_SCT_MASK) >> NV_STATUS_SCT_SHIFT;
}
static inline unsigned nv_status_crd(int status)
{
	return ((unsigned)status & NV_STATUS_CRD_MASK) >> NV_STATUS_CRD_SHIFT;
}
static inline bool nv_status_dnr(int status)     { return status > 0 && (status & NV_STATUS_DNR); }
static inline bool nv_status_more(int status)
{
	return status > 0 && (status & NV_STATUS_MORE);
}

/*
 * nv_status_name - the NVMe specification's name for a status (only the SCT
 * and SC bits are looked at; CRD/More/DNR are ignored).  Returns NULL for a
 * code not in the tables (reserved, vendor specific, newer than the tables).
 */
const char *nv_status_name(int status);

/*
 * nv_status_errno - the positive errno the Linux block layer would report for
 * this status (as nvme_error_status() maps it: LBA out of range -> EREMOTEIO,
 * PI errors -> EILSEQ, media errors -> ENODATA, invalid opcode/field ->
 * EOPNOTSUPP, ...; anything else EIO).  For res < 0 returns -res; 0 for 0.
 * Meant for io_u->error, which fio wants as a positive errno.
 */
int nv_status_errno(int res);

/*
 * nv_status_str - format a passthrough result into buf (always terminated
 * when len > 0) and return buf:
 *   0          "Success"
 *   > 0        "LBA Out of Range (sct 0x0, sc 0x80)" plus ", DNR" and
 *              ", More" when set; codes not in the tables read
 *              "Unknown status (sct 0x7, sc 0xff)"
 *   < 0        "-errno 22 (Invalid argument)"
 */
char *nv_status_str(int res, char *buf, size_t len);

#endif
