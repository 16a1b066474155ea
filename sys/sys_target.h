/*
 * sys_target.h - what kind of target a job file is (regular file, block
 * device, NVMe generic char device), what the engine can do with it, and the
 * IO on it that does not go through the ring: trim by BLKDISCARD or a
 * punched hole.  The classification and the messages are pure functions of
 * stat(2) results and kernel releases; nv_target_on_devfs() stat()s and
 * nv_target_trim() does IO.  No fio, no NVMe: the kernel's side of targets.
 */
#ifndef NV_SYS_TARGET_H
#define NV_SYS_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum nv_target_kind {
	/* regular file: io_uring read/write/fsync, trim punches holes */
	NV_TARGET_FILE = 1,
	NV_TARGET_BLOCK,	/* block device: io_uring read/write/fsync, trim = BLKDISCARD */
	NV_TARGET_NVME_CHAR,	/* NVMe generic char device /dev/ngXnY: passthrough */
};

/*
 * Classify a target from its st_mode and, for character devices, whether the
 * NVME_IOCTL_ID ioctl worked on it (@nvme_ns_id > 0).  Return: the kind, or
 * -ENOTSUP for anything the engine cannot drive (a directory gives -EISDIR),
 * with a sentence for the user in @why (may be NULL).
 */
int nv_target_classify(mode_t mode, int nvme_ns_id, char *why, size_t whylen);

/*
 * Parse the "MAJOR.MINOR" that starts a kernel release (uname -r, e.g.
 * "5.10.0-32-cloud-amd64") into @major and @minor.
 * Return: 0, or -EINVAL when @release does not start with it.
 */
int nv_kernel_version(const char *release, int *major, int *minor);

/*
 * What NVMe passthrough needs of the kernel: generic char devices /dev/ngXnY
 * came in Linux 5.13, IORING_OP_URING_CMD for them in 5.19.  For a kernel
 * @release older than 5.19 writes a sentence saying what it lacks into @why,
 * e.g. "this kernel (5.10.0-32-cloud-amd64) has no NVMe generic char devices
 * (/dev/ngXnY came in Linux 5.13; passthrough with IORING_OP_URING_CMD
 * needs 5.19 or later)".
 * Return: 1 when the kernel is too old (sentence written), 0 when it is new
 * enough or @release cannot be parsed (@why untouched).
 */
int nv_kernel_passthru_lack(const char *release, char *why, size_t whylen);

/*
 * A path under /dev that is not a device: @on_devfs says @path's directory
 * lies on /dev's own filesystem (devtmpfs; not /dev/shm or another mount),
 * @exists whether @path exists, @mode its st_mode.  There fio would lay out
 * a missing file as a regular file in memory, and a regular file there is
 * the leftover of such a run.
 * Return: 0 when @path is fine, else -ENODEV with a sentence in @why.
 */
int nv_target_devfs_check(const char *path, int on_devfs, int exists, mode_t mode,
			  char *why, size_t whylen);

/*
 * Whether @path (existing or not) lies on the filesystem of /dev itself: its
 * directory has /dev's st_dev and @path starts with "/dev/".
 * Return: 1 or 0.
 */
int nv_target_on_devfs(const char *path);

/* Human name of a kind ("regular file", "block device", ...).  Return: a static string. */
const char *nv_target_kind_name(enum nv_target_kind kind);

/*
 * Discard @len bytes at @off of an open target: BLKDISCARD on a block device,
 * a punched hole (FALLOC_FL_PUNCH_HOLE, size kept) in a regular file, so the
 * range reads back as zeroes afterwards.
 * Return: 0 or -errno (-EOPNOTSUPP when the filesystem or device cannot
 * discard, or for an NVMe char device: passthrough trims with DSM).
 */
int nv_target_trim(int fd, enum nv_target_kind kind, uint64_t off, uint64_t len);

#endif
