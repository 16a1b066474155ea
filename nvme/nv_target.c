/*
 * nv_target.c - classify job targets (see nv_target.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "nvme/nv_target.h"

static void say(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", msg);
}

int nv_target_classify(mode_t mode, int nvme_ns_id, char *why, size_t whylen)
{
	if (S_ISREG(mode))
		return NV_TARGET_FILE;
	if (S_ISBLK(mode))
		return NV_TARGET_BLOCK;
	if (S_ISCHR(mode)) {
		if (nvme_ns_id > 0)
			return NV_TARGET_NVME_CHAR;
		say(why, whylen, "is a character device but not an NVMe generic namespace device "
		    "(/dev/ngXnY); use a regular file, a block device or /dev/ngXnY");
		return -ENOTSUP;
	}
	if (S_ISDIR(mode)) {
		say(why, whylen, "is a directory; give a file inside it (filename=DIR/file) "
		    "or use directory= with a job name");
		return -EISDIR;
	}
	if (S_ISFIFO(mode)) {
		say(why, whylen, "is a FIFO; the engine needs a regular file, a block device or /dev/ngXnY");
		return -ENOTSUP;
	}
	if (S_ISSOCK(mode)) {
		say(why, whylen, "is a socket; the engine needs a regular file, a block device or /dev/ngXnY");
		return -ENOTSUP;
	}
	say(why, whylen, "is of a kind the engine cannot drive");
	return -ENOTSUP;
}

const char *nv_target_kind_name(enum nv_target_kind kind)
{
	static const char *const names[] = {
		[NV_TARGET_FILE] = "regular file",
		[NV_TARGET_BLOCK] = "block device",
		[NV_TARGET_NVME_CHAR] = "NVMe generic char device",
	};

	if ((size_t)kind >= sizeof(names) / sizeof(names[0]) || !names[kind])
		return "unknown";
	return names[kind];
}

int nv_target_trim(int fd, enum nv_target_kind kind, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	switch (kind) {
	case NV_TARGET_BLOCK:
		return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
	case NV_TARGET_FILE:
		return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 (off_t)off, (off_t)len) ? -errno : 0;
	default:
		return -EOPNOTSUPP;
	}
}
