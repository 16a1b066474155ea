/*
 * sys_target.c - job targets: their kinds, the kernel they need, trim
 * (see sys_target.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include "sys/sys_target.h"

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
	if (S_ISFIFO(mode) || S_ISSOCK(mode)) {
		if (why && whylen)
			snprintf(why, whylen, "is a %s; the engine needs a regular file, a block "
				 "device or /dev/ngXnY", S_ISFIFO(mode) ? "FIFO" : "socket");
		return -ENOTSUP;
	}
	say(why, whylen, "is of a kind the engine cannot drive");
	return -ENOTSUP;
}

int nv_kernel_version(const char *release, int *major, int *minor)
{
	char *end;
	long ma, mi;

	if (!release || *release < '0' || *release > '9')
		return -EINVAL;
	ma = strtol(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	mi = strtol(end + 1, &end, 10);
	if (ma > INT_MAX || mi > INT_MAX)
		return -EINVAL;
	*major = (int)ma;
	*minor = (int)mi;
	return 0;
}

int nv_kernel_passthru_lack(const char *release, char *why, size_t whylen)
{
	int ma, mi;

	if (nv_kernel_version(release, &ma, &mi) || ma > 5 || (ma == 5 && mi >= 19))
		return 0;
	if (why && whylen) {
		if (ma == 5 && mi >= 13)
			snprintf(why, whylen, "this kernel (%s) has NVMe generic char devices but "
				 "no passthrough for them in io_uring (IORING_OP_URING_CMD needs "
				 "Linux 5.19 or later)", release);
		else
			snprintf(why, whylen, "this kernel (%s) has no NVMe generic char devices "
				 "(/dev/ngXnY came in Linux 5.13; passthrough with "
				 "IORING_OP_URING_CMD needs 5.19 or later)", release);
	}
	return 1;
}

int nv_target_devfs_check(const char *path, int on_devfs, int exists, mode_t mode,
			  char *why, size_t whylen)
{
	if (!on_devfs || (exists && !S_ISREG(mode)))
		return 0;
	if (why && whylen) {
		if (!exists)
			snprintf(why, whylen, "%s: no such device; a path under /dev must be a "
				 "device (fio would lay it out as a regular file in memory)",
				 path);
		else
			snprintf(why, whylen, "%s: a regular file under /dev, not a device (left "
				 "by an earlier run?); remove it and name a device", path);
	}
	return -ENODEV;
}

int nv_target_on_devfs(const char *path)
{
	struct stat dev, dir;
	char *copy, *slash;
	int ret;

	if (strncmp(path, "/dev/", 5) || stat("/dev", &dev))
		return 0;
	copy = strdup(path);
	if (!copy)
		return 0;
	slash = strrchr(copy, '/');
	*slash = '\0';
	ret = !stat(copy, &dir) && dir.st_dev == dev.st_dev;
	free(copy);
	return ret;
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
