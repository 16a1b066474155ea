/*
 * nv_target.h - what kind of target a job file is, and what the engine can
 * do with it.  Pure functions over stat(2) results, unit tested.
 */
#ifndef NV_TARGET_H
#define NV_TARGET_H

#include <stddef.h>
#include <sys/types.h>

enum nv_target_kind {
	NV_TARGET_FILE = 1,	/* regular file: io_uring read/write/fsync, trim punches holes */
	NV_TARGET_BLOCK,	/* block device: io_uring read/write/fsync, trim = BLKDISCARD */
	NV_TARGET_NVME_CHAR,	/* NVMe generic char device /dev/ngXnY: passthrough */
};

/*
 * Classify a target from its st_mode and, for character devices, whether the
 * NVME_IOCTL_ID ioctl worked on it (@nvme_ns_id > 0).  Returns the kind, or
 * -ENOTSUP for anything the engine cannot drive (a directory gives -EISDIR),
 * with a sentence for the user in @why (may be NULL).
 */
int nv_target_classify(mode_t mode, int nvme_ns_id, char *why, size_t whylen);

/* Human name of a kind ("regular file", "block device", ...). */
const char *nv_target_kind_name(enum nv_target_kind kind);



#include <stdint.h>

/*
 * Discard @len bytes at @off of an open target: BLKDISCARD on a block device,
 * a punched hole (FALLOC_FL_PUNCH_HOLE, size kept) in a regular file, so the
 * range reads back as zeroes afterwards.  Returns 0 or -errno (-EOPNOTSUPP
 * when the filesystem or device cannot discard).
 */
int nv_target_trim(int fd, enum nv_target_kind kind, uint64_t off, uint64_t len);
#endif
