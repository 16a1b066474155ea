/*
 * nvme_status.c - NVMe status code tables and the passthrough result
 * formatter.  Names follow the NVM Express Base Specification 2.0 and the NVM
 * and Zoned Namespace command set specifications; the errno column follows
 * the kernel's nvme_error_status() so that an error seen through passthrough
 * reads like the same error seen through the block device.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nvme/nvme_status.h"

struct nv_status_entry {
	const char *name;
	int err;		/* positive errno; 0 means EIO */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Generic Command Status (SCT 0x0), including the NVM command set's 0x80+. */
static const struct nv_status_entry sct_generic[] = {
	[0x00] = { "Successful Completion", 0 },
	[0x01] = { "Invalid Command Opcode", EOPNOTSUPP },
	[0x02] = { "Invalid Field in Command", EOPNOTSUPP },
	[0x03] = { "Command ID Conflict", 0 },
	[0x04] = { "Data Transfer Error", 0 },
	[0x05] = { "Commands Aborted due to Power Loss Notification", 0 },
	[0x06] = { "Internal Error", 0 },
	[0x07] = { "Command Abort Requested", 0 },
	[0x08] = { "Command Aborted due to SQ Deletion", 0 },
	[0x09] = { "Command Aborted due to Failed Fused Command", 0 },
	[0x0a] = { "Command Aborted due to Missing Fused Command", 0 },
	[0x0b] = { "Invalid Namespace or Format", EOPNOTSUPP },
	[0x0c] = { "Command Sequence Error", 0 },
	[0x0d] = { "Invalid SGL Segment Descriptor", 0 },
	[0x0e] = { "Invalid Number of SGL Descriptors", 0 },
	[0x0f] = { "Data SGL Length Invalid", 0 },
	[0x10] = { "Metadata SGL Length Invalid", 0 },
	[0x11] = { "SGL Descriptor Type Invalid", 0 },
	[0x12] = { "Invalid Use of Controller Memory Buffer", 0 },
	[0x13] = { "PRP Offset Invalid", 0 },
	[0x14] = { "Atomic Write Unit Exceeded", 0 },
	[0x15] = { "Operation Denied", EPERM },
	[0x16] = { "SGL Offset Invalid", 0 },
	[0x18] = { "Host Identifier Inconsistent Format", 0 },
	[0x19] = { "Keep Alive Timer Expired", 0 },
	[0x1a] = { "Keep Alive Timeout Invalid", 0 },
	[0x1b] = { "Command Aborted due to Preempt and Abort", 0 },
	[0x1c] = { "Sanitize Failed", 0 },
	[0x1d] = { "Sanitize In Progress", EBUSY },
	[0x1e] = { "SGL Data Block Granularity Invalid", 0 },
	[0x1f] = { "Command Not Supported for Queue in CMB", 0 },
	[0x20] = { "Namespace is Write Protected", EROFS },
	[0x21] = { "Command Interrupted", 0 },
	[0x22] = { "Transient Transport Error", 0 },
	[0x23] = { "Command Prohibited by Command and Feature Lockdown", EPERM },
	[0x24] = { "Admin Command Media Not Ready", 0 },
	[0x80] = { "LBA Out of Range", EREMOTEIO },
	[0x81] = { "Capacity Exceeded", ENOSPC },
	[0x82] = { "Namespace Not Ready", EREMOTEIO },
	[0x83] = { "Reservation Conflict", EBADE },
	[0x84] = { "Format In Progress", EBUSY },
};

/* Command Specific Status (SCT 0x1). */
static const struct nv_status_entry sct_cmd_specific[] = {
	[0x00] = { "Completion Queue Invalid", 0 },
	[0x01] = { "Invalid Queue Identifier", 0 },
	[0x02] = { "Invalid Queue Size", 0 },
	[0x03] = { "Abort Command Limit Exceeded", 0 },
	[0x05] = { "Asynchronous Event Request Limit Exceeded", 0 },
	[0x06] = { "Invalid Firmware Slot", 0 },
	[0x07] = { "Invalid Firmware Image", 0 },
	[0x08] = { "Invalid Interrupt Vector", 0 },
	[0x09] = { "Invalid Log Page", 0 },
	[0x0a] = { "Invalid Format", 0 },
	[0x0b] = { "Firmware Activation Requires Conventional Reset", 0 },
	[0x0c] = { "Invalid Queue Deletion", 0 },
	[0x0d] = { "Feature Identifier Not Saveable", 0 },
	[0x0e] = { "Feature Not Changeable", 0 },
	[0x0f] = { "Feature Not Namespace Specific", 0 },
	[0x10] = { "Firmware Activation Requires NVM Subsystem Reset", 0 },
	[0x11] = { "Firmware Activation Requires Controller Level Reset", 0 },
	[0x12] = { "Firmware Activation Requires Maximum Time Violation", 0 },
	[0x13] = { "Firmware Activation Prohibited", 0 },
	[0x14] = { "Overlapping Range", 0 },
	[0x15] = { "Namespace Insufficient Capacity", 0 },
	[0x16] = { "Namespace Identifier Unavailable", 0 },
	[0x18] = { "Namespace Already Attached", 0 },
	[0x19] = { "Namespace Is Private", 0 },
	[0x1a] = { "Namespace Not Attached", 0 },
	[0x1b] = { "Thin Provisioning Not Supported", 0 },
	[0x1c] = { "Controller List Invalid", 0 },
	[0x1d] = { "Device Self-test In Progress", 0 },
	[0x1e] = { "Boot Partition Write Prohibited", 0 },
	[0x1f] = { "Invalid Controller Identifier", 0 },
	[0x20] = { "Invalid Secondary Controller State", 0 },
	[0x21] = { "Invalid Number of Controller Resources", 0 },
	[0x22] = { "Invalid Resource Identifier", 0 },
	[0x23] = { "Sanitize Prohibited While Persistent Memory Region is Enabled", 0 },
	[0x24] = { "ANA Group Identifier Invalid", 0 },
	[0x25] = { "ANA Attach Failed", 0 },
	[0x26] = { "Insufficient Capacity", 0 },
	[0x27] = { "Namespace Attachment Limit Exceeded", 0 },
	[0x28] = { "Prohibition of Command Execution Not Supported", 0 },
	[0x29] = { "I/O Command Set Not Supported", 0 },
	[0x2a] = { "I/O Command Set Not Enabled", 0 },
	[0x2b] = { "I/O Command Set Combination Rejected", 0 },
	[0x2c] = { "Invalid I/O Command Set", 0 },
	[0x2d] = { "Identifier Unavailable", 0 },
	/* NVM command set */
	[0x80] = { "Conflicting Attributes", EOPNOTSUPP },
	[0x81] = { "Invalid Protection Information", EILSEQ },
	[0x82] = { "Attempted Write to Read Only Range", ENODATA },
	[0x83] = { "Command Size Limit Exceeded", 0 },
	/* Zoned Namespace command set */
	[0xb8] = { "Zoned Boundary Error", 0 },
	[0xb9] = { "Zone Is Full", 0 },
	[0xba] = { "Zone Is Read Only", 0 },
	[0xbb] = { "Zone Is Offline", 0 },
	[0xbc] = { "Zone Invalid Write", 0 },
	[0xbd] = { "Too Many Active Zones", EOVERFLOW },
	[0xbe] = { "Too Many Open Zones", ETOOMANYREFS },
	[0xbf] = { "Invalid Zone State Transition", 0 },
};

/* Media and Data Integrity Errors (SCT 0x2). */
static const struct nv_status_entry sct_media[] = {
	[0x80] = { "Write Fault", ENODATA },
	[0x81] = { "Unrecovered Read Error", ENODATA },
	[0x82] = { "End-to-end Guard Check Error", EILSEQ },
	[0x83] = { "End-to-end Application Tag Check Error", EILSEQ },
	[0x84] = { "End-to-end Reference Tag Check Error", EILSEQ },
	[0x85] = { "Compare Failure", ENODATA },
	[0x86] = { "Access Denied", ENODATA },
	[0x87] = { "Deallocated or Unwritten Logical Block", ENODATA },
	[0x88] = { "End-to-End Storage Tag Check Error", EILSEQ },
};

/* Path Related Status (SCT 0x3); 0x70+ are set by the host, not the device. */
static const struct nv_status_entry sct_path[] = {
	[0x00] = { "Internal Path Error", ENOLINK },
	[0x01] = { "Asymmetric Access Persistent Loss", ENOLINK },
	[0x02] = { "Asymmetric Access Inaccessible", ENOLINK },
	[0x03] = { "Asymmetric Access Transition", ENOLINK },
	[0x60] = { "Controller Pathing Error", ENOLINK },
	[0x70] = { "Host Pathing Error", ENOLINK },
	[0x71] = { "Command Aborted By Host", EIO },
};

static const struct {
	const struct nv_status_entry *tab;
	size_t n;
} sct_tables[] = {
	[NV_SCT_GENERIC]	= { sct_generic, ARRAY_SIZE(sct_generic) },
	[NV_SCT_CMD_SPECIFIC]	= { sct_cmd_specific, ARRAY_SIZE(sct_cmd_specific) },
	[NV_SCT_MEDIA]		= { sct_media, ARRAY_SIZE(sct_media) },
	[NV_SCT_PATH]		= { sct_path, ARRAY_SIZE(sct_path) },
};

/* Bounds-checked lookup; NULL for holes, unknown types and out-of-range SCs. */
static const struct nv_status_entry *status_lookup(int status)
{
	unsigned sct = nv_status_sct(status), sc = nv_status_sc(status);
	const struct nv_status_entry *e;

	if (status < 0 || sct >= ARRAY_SIZE(sct_tables) || !sct_tables[sct].tab)
		return NULL;
	if (sc >= sct_tables[sct].n)
		return NULL;
	e = &sct_tables[sct].tab[sc];
	return e->name ? e : NULL;
}

const char *nv_status_name(int status)
{
	const struct nv_status_entry *e = status_lookup(status);

	return e ? e->name : NULL;
}

int nv_status_errno(int res)
{
	const struct nv_status_entry *e;

	if (res <= 0)
		return -res;
	if (!(res & (NV_STATUS_SCT_MASK | NV_STATUS_SC_MASK)))
		return 0;	/* only CRD/More/DNR bits: still a success code */
	e = status_lookup(res);
	return e && e->err ? e->err : EIO;
}

char *nv_status_str(int res, char *buf, size_t len)
{
	const char *name;
	char ebuf[64];

	if (!buf || !len)
		return buf;
	if (res == 0) {
		snprintf(buf, len, "Success");
		return buf;
	}
	if (res < 0) {
		snprintf(buf, len, "-errno %d (%s)", -res,
			 strerror_r(-res, ebuf, sizeof(ebuf)));
		return buf;
	}
	name = nv_status_name(res);
	snprintf(buf, len, "%s (sct 0x%x, sc 0x%02x)%s%s",
		 name ? name : "Unknown status", nv_status_sct(res),
		 nv_status_sc(res), nv_status_dnr(res) ? ", DNR" : "",
		 nv_status_more(res) ? ", More" : "");
	return buf;
}
