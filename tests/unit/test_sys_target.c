/* Unit tests for sys/sys_target.c: target classification and trim. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sys_target.h"
#include "tests/unit/check.h"

TEST(classify_kinds)
{
	char why[256];

	CHECK_EQ_I64(nv_target_classify(S_IFREG | 0644, 0, why, sizeof(why)), NV_TARGET_FILE);
	CHECK_EQ_I64(nv_target_classify(S_IFBLK | 0660, 0, why, sizeof(why)), NV_TARGET_BLOCK);
	CHECK_EQ_I64(nv_target_classify(S_IFCHR | 0600, 1, why, sizeof(why)), NV_TARGET_NVME_CHAR);
}

TEST(classify_refusals)
{
	char why[256];

	why[0] = 0;
	CHECK_EQ_I64(nv_target_classify(S_IFCHR | 0666, 0, why, sizeof(why)), -ENOTSUP);
	CHECK(strstr(why, "not an NVMe generic namespace") != NULL);
	CHECK_EQ_I64(nv_target_classify(S_IFDIR | 0755, 0, why, sizeof(why)), -EISDIR);
	CHECK(strstr(why, "directory") != NULL);
	CHECK_EQ_I64(nv_target_classify(S_IFIFO | 0644, 0, why, sizeof(why)), -ENOTSUP);
	CHECK(strstr(why, "FIFO") != NULL);
	CHECK_EQ_I64(nv_target_classify(S_IFSOCK | 0644, 0, NULL, 0), -ENOTSUP);
	CHECK_EQ_I64(nv_target_classify(S_IFSOCK | 0644, 0, why, sizeof(why)), -ENOTSUP);
	CHECK_STR(why, "is a socket; the engine needs a regular file, a block device or "
		  "/dev/ngXnY");
}

TEST(kind_names)
{
	CHECK_STR(nv_target_kind_name(NV_TARGET_FILE), "regular file");
	CHECK_STR(nv_target_kind_name(NV_TARGET_NVME_CHAR), "NVMe generic char device");
	CHECK_STR(nv_target_kind_name((enum nv_target_kind)99), "unknown");
}

TEST(kernel_version_parse)
{
	int ma = -1, mi = -1;

	CHECK_EQ_I64(nv_kernel_version("5.10.0-32-cloud-amd64", &ma, &mi), 0);
	CHECK_EQ_I64(ma, 5);
	CHECK_EQ_I64(mi, 10);
	CHECK_EQ_I64(nv_kernel_version("6.12.117+deb13-cloud-amd64", &ma, &mi), 0);
	CHECK_EQ_I64(mi, 12);
	CHECK_EQ_I64(nv_kernel_version("7.0", &ma, &mi), 0);
	CHECK_EQ_I64(ma, 7);
	CHECK_EQ_I64(nv_kernel_version("6", &ma, &mi), -EINVAL);
	CHECK_EQ_I64(nv_kernel_version("linux-6.1", &ma, &mi), -EINVAL);
	CHECK_EQ_I64(nv_kernel_version("", &ma, &mi), -EINVAL);
}

/* 5.19 and later have passthrough; older kernels are told what they lack. */
TEST(kernel_passthru_lack)
{
	char why[256] = "";

	CHECK_EQ_I64(nv_kernel_passthru_lack("6.1.0-28-cloud-amd64", why, sizeof(why)), 0);
	CHECK_EQ_I64(nv_kernel_passthru_lack("5.19.0", why, sizeof(why)), 0);
	CHECK_EQ_I64(nv_kernel_passthru_lack("7.2.1", why, sizeof(why)), 0);
	CHECK_STR(why, "");
	CHECK_EQ_I64(nv_kernel_passthru_lack("5.10.0-32-cloud-amd64", why, sizeof(why)), 1);
	CHECK(strstr(why, "this kernel (5.10.0-32-cloud-amd64) has no NVMe generic char "
		     "devices") != NULL);
	CHECK(strstr(why, "came in Linux 5.13") != NULL);
	CHECK(strstr(why, "5.19 or later") != NULL);
	CHECK_EQ_I64(nv_kernel_passthru_lack("5.15.0-91-generic", why, sizeof(why)), 1);
	CHECK(strstr(why, "has NVMe generic char devices but no passthrough") != NULL);
	CHECK_EQ_I64(nv_kernel_passthru_lack("4.19.0", NULL, 0), 1);
	CHECK_EQ_I64(nv_kernel_passthru_lack("garbage", why, sizeof(why)), 0);
}

TEST(devfs_refusals)
{
	char why[256] = "";

	CHECK_EQ_I64(nv_target_devfs_check("/dev/ng9n9", 1, 0, 0, why, sizeof(why)), -ENODEV);
	CHECK(strstr(why, "/dev/ng9n9: no such device") != NULL);
	CHECK(strstr(why, "regular file") != NULL);
	CHECK_EQ_I64(nv_target_devfs_check("/dev/x", 1, 1, S_IFREG | 0644, why, sizeof(why)),
		     -ENODEV);
	CHECK(strstr(why, "/dev/x: a regular file under /dev, not a device") != NULL);
	CHECK_EQ_I64(nv_target_devfs_check("/dev/nvme0n1", 1, 1, S_IFBLK | 0660, why, sizeof(why)),
		     0);
	CHECK_EQ_I64(nv_target_devfs_check("/dev/ng0n1", 1, 1, S_IFCHR | 0600, why, sizeof(why)),
		     0);
	CHECK_EQ_I64(nv_target_devfs_check("/dev/shm/f", 0, 0, 0, why, sizeof(why)), 0);
	CHECK_EQ_I64(nv_target_devfs_check("/tmp/f", 0, 1, S_IFREG | 0644, NULL, 0), 0);
}

/* /dev's own filesystem, not the mounts below it nor other paths. */
TEST(devfs_paths)
{
	struct stat dev, shm;

	CHECK_EQ_I64(nv_target_on_devfs("/tmp/file"), 0);
	CHECK_EQ_I64(nv_target_on_devfs("/device"), 0);
	CHECK_EQ_I64(nv_target_on_devfs("/dev/nvtest-does-not-exist"), 1);
	CHECK_EQ_I64(nv_target_on_devfs("/dev/no-such-dir/x"), 0);
	if (!stat("/dev", &dev) && !stat("/dev/shm", &shm) && dev.st_dev != shm.st_dev)
		CHECK_EQ_I64(nv_target_on_devfs("/dev/shm/nvtest"), 0);
}

/* A trimmed range of a file reads back as zeroes; the rest is untouched. */
TEST(trim_file_punches_hole)
{
	char path[] = "/tmp/nvtrimXXXXXX";
	unsigned char buf[65536];
	int fd = mkstemp(path), ret;
	size_t i;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	memset(buf, 0xab, sizeof(buf));
	CHECK(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf));
	ret = nv_target_trim(fd, NV_TARGET_FILE, 16384, 16384);
	if (ret == -EOPNOTSUPP) {
		/* filesystem without hole punching: nothing to check */
		goto out;
	}
	CHECK_EQ_I64(ret, 0);
	CHECK(pread(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf));
	for (i = 0; i < sizeof(buf); i++) {
		int in = i >= 16384 && i < 32768;
		if (buf[i] != (in ? 0 : 0xab)) {
			CHECK(!"trimmed range wrong");
			break;
		}
	}
	CHECK_EQ_I64(nv_target_trim(fd, NV_TARGET_NVME_CHAR, 0, 4096), -EOPNOTSUPP);
out:
	close(fd);
	unlink(path);
}

int main(void)
{
	RUN(classify_kinds);
	RUN(classify_refusals);
	RUN(kind_names);
	RUN(kernel_version_parse);
	RUN(kernel_passthru_lack);
	RUN(devfs_refusals);
	RUN(devfs_paths);
	RUN(trim_file_punches_hole);
	return check_summary();
}
