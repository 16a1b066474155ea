/*
 * nvme_dev.h - NVMe device names: /dev/ngXnY (generic char device),
 * /dev/nvmeXnY (block device), /dev/nvmeXnYpZ (partition), /dev/nvmeXcCnY
 * (hidden per-path block device under native multipath), /dev/nvmeX
 * (controller).  Pure string functions: nothing is opened or stat()ed.
 *
 * The kernel names a namespace's char device ng<instance>n<nsid-instance>
 * and its block device nvme<instance>n<nsid-instance> with the same two
 * numbers (for a multipath head both use the subsystem instance), so the
 * sibling of ng0n1 is nvme0n1.  Per-path char devices of a multipath
 * namespace may use the controller instance instead; the engine should
 * confirm a guessed sibling (e.g. compare NVME_IOCTL_ID results or the
 * sysfs "dev" files) before relying on it for anything but messages.
 */
#ifndef NV_NVME_DEV_H
#define NV_NVME_DEV_H

#include <stddef.h>

enum nv_dev_kind {
	NV_DEV_NONE = 0,
	NV_DEV_CTRL,		/* nvme0 */
	NV_DEV_CHAR,		/* ng0n1 */
	NV_DEV_BLOCK,		/* nvme0n1 */
	NV_DEV_PART,		/* nvme0n1p2 */
	NV_DEV_PATH,		/* nvme0c1n1: one path of a multipath namespace */
};

struct nv_devname {
	enum nv_dev_kind kind;
	int ctrl;		/* the X of nvmeX / ngX */
	int path;		/* the C of nvmeXcCnY, else -1 */
	int ns;			/* the Y, else -1 */
	int part;		/* the Z of pZ, else -1 */
};

/*
 * nv_dev_parse - classify a device path or bare name (any directory prefix
 * is ignored: "/dev/ng0n1", "ng0n1").  Numbers are plain decimal without
 * sign or leading zeros; namespace and partition numbers start at 1.
 * -EINVAL for anything else ("/dev/sda", "ng0", "nvme0n1x").
 */
int nv_dev_parse(const char *path, struct nv_devname *d);

/* Human name of a kind: "NVMe generic char device", "NVMe block device", ... */
const char *nv_dev_kind_name(enum nv_dev_kind kind);

/*
 * nv_dev_block_name / nv_dev_char_name - "nvme0n1" / "ng0n1" for the
 * namespace of d (a partition gives its whole namespace, a path gives
 * nvme0c1n1 / ng1n1: the char device of that controller).  -EINVAL for a
 * controller or NONE, -ENAMETOOLONG when len is too small.
 */
int nv_dev_block_name(const struct nv_devname *d, char *buf, size_t len);
int nv_dev_char_name(const struct nv_devname *d, char *buf, size_t len);

/*
 * nv_dev_sysfs - "/sys/block/nvme0n1/<attr>" for the namespace of d, e.g.
 * attr "queue/max_hw_sectors_kb", "queue/logical_block_size", "holders",
 * "size"; attr NULL or "" gives the directory.  For a partition the
 * namespace's directory is used (queue limits live there).  Errors as above.
 */
int nv_dev_sysfs(const struct nv_devname *d, const char *attr, char *buf, size_t len);

/*
 * nv_dev_mounted - scan the text of /proc/mounts (or /proc/self/mounts) for
 * a filesystem whose source is the block device of ns's namespace or one of
 * its partitions.  Returns 1 and "/dev/nvme0n1p2 on /boot" in hit (when
 * given) for the first one, 0 when none.  Mounts through device-mapper, md
 * or loop devices stacked on the namespace are not seen here: check the
 * namespace's sysfs "holders" directory for those.
 */
int nv_dev_mounted(const char *mounts, const struct nv_devname *ns, char *hit, size_t hitlen);

#endif
