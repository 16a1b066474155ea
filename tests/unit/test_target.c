/* Unit tests for nvme/nv_target.c: target classification and trim. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvme/nv_target.h"
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
}

TEST(kind_names)
{
	CHECK_STR(nv_target_kind_name(NV_TARGET_FILE), "regular file");
	CHECK_STR(nv_target_kind_name(NV_TARGET_NVME_CHAR), "NVMe generic char device");
	CHECK_STR(nv_target_kind_name((enum nv_target_kind)99), "unknown");
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
	RUN(trim_file_punches_hole);
	return check_summary();
}
