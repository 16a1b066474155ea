/* test_nvme_dev.c - NVMe device name parsing, siblings, sysfs, mounts. */
#include <errno.h>

#include "tests/unit/check.h"
#include "nvme/nvme_dev.h"

TEST(parse_kinds)
{
	struct nv_devname d;

	CHECK_EQ_I64(nv_dev_parse("/dev/ng0n1", &d), 0);
	CHECK(d.kind == NV_DEV_CHAR && d.ctrl == 0 && d.ns == 1 && d.part == -1 && d.path == -1);
	CHECK_EQ_I64(nv_dev_parse("/dev/nvme12n345", &d), 0);
	CHECK(d.kind == NV_DEV_BLOCK && d.ctrl == 12 && d.ns == 345 && d.part == -1);
	CHECK_EQ_I64(nv_dev_parse("/dev/nvme0n1p2", &d), 0);
	CHECK(d.kind == NV_DEV_PART && d.ctrl == 0 && d.ns == 1 && d.part == 2);
	CHECK_EQ_I64(nv_dev_parse("nvme3", &d), 0);
	CHECK(d.kind == NV_DEV_CTRL && d.ctrl == 3 && d.ns == -1);
	CHECK_EQ_I64(nv_dev_parse("/dev/nvme0c1n2", &d), 0);
	CHECK(d.kind == NV_DEV_PATH && d.ctrl == 0 && d.path == 1 && d.ns == 2);
	CHECK_EQ_I64(nv_dev_parse("ng10n10", &d), 0);
	CHECK(d.kind == NV_DEV_CHAR && d.ctrl == 10 && d.ns == 10);
	CHECK_STR(nv_dev_kind_name(NV_DEV_CHAR), "NVMe generic char device");
	CHECK_STR(nv_dev_kind_name((enum nv_dev_kind)42), "not an NVMe device");
}

TEST(parse_rejects)
{
	static const char *const bad[] = {
		"", "/dev/", "/dev/sda", "/dev/ng0", "/dev/ng", "/dev/nvme", "/dev/nvmen1",
		"/dev/nvme0n", "/dev/nvme0n0", "/dev/nvme0n1p", "/dev/nvme0n1p0",
		"/dev/ng0n1p1", "/dev/nvme0n1x", "/dev/nvme01n1", "/dev/nvme0n01",
		"/dev/nvme-fabrics", "/dev/ng0c1n1", "/dev/nvme0c1n1p1", "/dev/nvme-0n1",
		"/dev/nvme1234567890n1", "/dev/nvme0 n1", "/dev/nvme0n1/",
	};
	struct nv_devname d = { .kind = NV_DEV_BLOCK, .ctrl = 77 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (nv_dev_parse(bad[i], &d) != -EINVAL)
			CHECK_STR(bad[i], "(should be rejected)");
	}
	CHECK_EQ_I64(nv_dev_parse(NULL, &d), -EINVAL);
	CHECK_EQ_U64(d.ctrl, 77);	/* untouched on error */
}

TEST(siblings)
{
	struct nv_devname d;
	char buf[64];

	nv_dev_parse("/dev/ng2n3", &d);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "nvme2n3");
	CHECK_EQ_I64(nv_dev_char_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "ng2n3");
	nv_dev_parse("/dev/nvme0n1p7", &d);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "nvme0n1");
	CHECK_EQ_I64(nv_dev_char_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "ng0n1");
	nv_dev_parse("/dev/nvme0c4n1", &d);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "nvme0c4n1");
	CHECK_EQ_I64(nv_dev_char_name(&d, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "ng4n1");
	nv_dev_parse("/dev/nvme0", &d);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ_I64(nv_dev_char_name(&d, buf, sizeof(buf)), -EINVAL);
	nv_dev_parse("/dev/ng2n3", &d);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, 7), -ENAMETOOLONG);
	CHECK_EQ_I64(nv_dev_block_name(&d, buf, 8), 0);
}

TEST(sysfs)
{
	struct nv_devname d;
	char buf[128];

	nv_dev_parse("/dev/ng0n1", &d);
	CHECK_EQ_I64(nv_dev_sysfs(&d, "queue/max_hw_sectors_kb", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/sys/block/nvme0n1/queue/max_hw_sectors_kb");
	CHECK_EQ_I64(nv_dev_sysfs(&d, NULL, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/sys/block/nvme0n1");
	CHECK_EQ_I64(nv_dev_sysfs(&d, "", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/sys/block/nvme0n1");
	nv_dev_parse("/dev/nvme1n2p3", &d);
	CHECK_EQ_I64(nv_dev_sysfs(&d, "holders", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/sys/block/nvme1n2/holders");
	CHECK_EQ_I64(nv_dev_sysfs(&d, "holders", buf, 20), -ENAMETOOLONG);
	nv_dev_parse("/dev/nvme1", &d);
	CHECK_EQ_I64(nv_dev_sysfs(&d, "size", buf, sizeof(buf)), -EINVAL);
}

TEST(mounted)
{
	static const char mounts[] =
		"sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
		"/dev/nvme0n1p2 / ext4 rw,relatime 0 0\n"
		"/dev/nvme10n1 /data xfs rw 0 0\n"
		"/dev/nvme1n1p1 /mnt/my\\040disk vfat rw 0 0\n"
		"/dev/nvme2n11 /x ext4 rw 0 0";
	struct nv_devname d;
	char hit[128] = "";

	nv_dev_parse("/dev/ng0n1", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 1);
	CHECK_STR(hit, "/dev/nvme0n1p2 on /");
	nv_dev_parse("/dev/ng1n1", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 1);
	CHECK_STR(hit, "/dev/nvme1n1p1 on /mnt/my\\040disk");
	nv_dev_parse("/dev/ng10n1", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, NULL, 0), 1);
	/* last line without a newline */
	nv_dev_parse("/dev/ng2n11", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 1);
	CHECK_STR(hit, "/dev/nvme2n11 on /x");
	/* near misses: other namespace / controller with a shared prefix */
	nv_dev_parse("/dev/ng0n2", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 0);
	nv_dev_parse("/dev/ng2n1", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 0);
	nv_dev_parse("/dev/ng1n10", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 0);
	CHECK_EQ_I64(nv_dev_mounted("", &d, hit, sizeof(hit)), 0);
	CHECK_EQ_I64(nv_dev_mounted(NULL, &d, hit, sizeof(hit)), 0);
	nv_dev_parse("/dev/nvme0", &d);
	CHECK_EQ_I64(nv_dev_mounted(mounts, &d, hit, sizeof(hit)), 0);
}

int main(void)
{
	RUN(parse_kinds);
	RUN(parse_rejects);
	RUN(siblings);
	RUN(sysfs);
	RUN(mounted);
	return check_summary();
}
