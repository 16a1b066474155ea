/*
 * nvme_sys.h - the NVMe system layer: what the engine asks the kernel about
 * an NVMe namespace, through its generic char device (/dev/ngXnY) and the
 * files the kernel keeps for it.  The ioctls (NVME_IOCTL_ID, admin commands:
 * Identify, the SMART log), the block device's sysfs limits, and whether a
 * block device of the namespace is mounted or used as swap.
 *
 * No fio: library style, 0/-errno with a message in an err buffer where a
 * user needs one.  The unit tests drive it through a mocked ioctl() and
 * /proc-like files of their own (tests/unit/test_nvme_sys.c); the pure
 * parsing it calls is nvme/nvme_id.h and nvme/nvme_dev.h.
 */
#ifndef NV_NVME_SYS_H
#define NV_NVME_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

#include "nvme/nvme_dev.h"
#include "nvme/nvme_id.h"

#define NV_SYS_MOUNTS	"/proc/mounts"
#define NV_SYS_SWAPS	"/proc/swaps"

/* What Identify and sysfs say of one namespace (nv_sys_identify()). */
struct nv_sys_ns {
	uint32_t nsid;
	struct nv_ns_info ns;
	struct nv_ctrl_info ctrl;
	int have_ctrl;			/* Identify Controller worked (it may be refused) */
	struct nv_devname dev;		/* the path's name; kind NV_DEV_NONE if unusual */
	char blkname[64];		/* nvmeXnY, the block sibling ("" if unknown) */
	uint64_t max_xfer;		/* largest transfer (nv_max_transfer()), 0: none known */
	const char *max_xfer_src;	/* which limit that is, "unknown" when none */
};

/* Namespace id of the NVMe generic char device @fd.  Return: the id, 0 if @fd is none. */
int nv_sys_ns_id(int fd);

/*
 * Run the admin command @cmd through the char device @fd.
 * Return: 0, the NVMe status (> 0), or -errno.
 */
int nv_sys_admin(int fd, struct nvme_passthru_cmd *cmd);

/*
 * Identify the namespace behind @fd, opened from @path (its name gives the
 * block sibling, whose sysfs max_hw_sectors_kb bounds transfers with the
 * controller's MDTS), and the controller when it answers.
 * Return: 0; -ENOTTY (no message) when @fd is no NVMe char device; the NVMe
 * status (> 0) or -errno of a failed Identify Namespace, -EINVAL for data
 * that does not parse, -ENOMEM: each with the reason in @err.
 */
int nv_sys_identify(int fd, const char *path, struct nv_sys_ns *id, char *err, size_t len);

/*
 * The controller's SMART / Health log (all namespaces) through @fd into @s.
 * Return: 0, the NVMe status (> 0) or -errno.
 */
int nv_sys_smart(int fd, struct nv_smart *s);

/*
 * The number in the sysfs file @path (e.g. a queue limit) into @v.
 * Return: 0, or -errno (-EINVAL when the file holds no number).
 */
int nv_sys_read_u64(const char *path, uint64_t *v);

/* queue/max_hw_sectors_kb of @d's namespace's block device.  Return: it, 0 when unknown. */
uint64_t nv_sys_max_hw_kb(const struct nv_devname *d);

/*
 * Whether a block device or partition of @d's namespace is mounted (the
 * mount table @mounts, e.g. NV_SYS_MOUNTS) or used as swap (@swaps, e.g.
 * NV_SYS_SWAPS), said in @what ("/dev/nvme0n1p2 is mounted on /boot",
 * "/dev/nvme0n1p3 is in use as swap").  A table that cannot be read counts
 * as empty.  Return: 1 if so, 0 if not.
 */
int nv_sys_mounted(const struct nv_devname *d, const char *mounts, const char *swaps,
		   char *what, size_t len);

#endif
