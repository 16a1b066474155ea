/*
 * Unit tests for nvme/nvme_sys.c, the NVMe system layer, without a device:
 * ioctl() is mocked here (the test program's definition is the one the
 * library calls, as libnvme's test/ioctl mock does it) and answers for one
 * pretend char device; the mount tables and sysfs files are the test's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme/nvme_sys.h"
#include "tests/unit/check.h"

#define MOCK_FD		1000	/* the pretend /dev/ng0n1 */

/* What the mocked device answers, and what it was asked. */
static struct {
	int nsid;			/* NVME_IOCTL_ID */
	int id_ns_status;		/* Identify Namespace: NVMe status, or -errno */
	int id_ctrl_status;
	int smart_status;
	unsigned int admin_cmds;	/* admin commands seen */
	uint8_t last_opcode;
} mock;

static void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Identify Namespace: 2048 blocks of 4096 bytes (format 1), no metadata. */
static void fill_id_ns(uint8_t *id)
{
	put_le64(id + 0, 2048);
	put_le64(id + 8, 2048);
	id[25] = 1;			/* nlbaf: two formats */
	id[26] = 1;			/* flbas: format 1 */
	id[128 + 2] = 9;		/* format 0: 512 */
	id[128 + 4 + 2] = 12;		/* format 1: 4096 */
}

static void fill_id_ctrl(uint8_t *id)
{
	memcpy(id + 4, "SN123               ", 20);
	memcpy(id + 24, "Mock NVMe                               ", 40);
	memcpy(id + 64, "1.0     ", 8);
	id[77] = 5;			/* MDTS: 32 pages */
}

static int mock_admin(struct nvme_passthru_cmd *cmd)
{
	uint8_t *buf = (uint8_t *)(uintptr_t)cmd->addr;
	int st;

	mock.admin_cmds++;
	mock.last_opcode = cmd->opcode;
	if (cmd->opcode == 0x06) {		/* Identify: CNS in cdw10 */
		int ctrl = (cmd->cdw10 & 0xff) == 0x01;

		st = ctrl ? mock.id_ctrl_status : mock.id_ns_status;
		if (!st && cmd->data_len >= NV_IDENTIFY_LEN)
			(ctrl ? fill_id_ctrl : fill_id_ns)(buf);
	} else if (cmd->opcode == 0x02) {	/* Get Log Page */
		st = mock.smart_status;
		if (!st && cmd->data_len >= NV_SMART_LOG_LEN) {
			buf[0] = 0x4;		/* critical warning */
			put_le16(buf + 1, 310);	/* 310 K */
			buf[5] = 7;		/* percent used */
		}
	} else {
		st = -EINVAL;
	}
	if (st < 0) {
		errno = -st;
		return -1;
	}
	return st;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != MOCK_FD) {
		errno = ENOTTY;
		return -1;
	}
	if (req == (unsigned long)NVME_IOCTL_ID)
		return mock.nsid;
	if (req == (unsigned long)NVME_IOCTL_ADMIN_CMD)
		return mock_admin(arg);
	errno = ENOTTY;
	return -1;
}

static void mock_reset(void)
{
	memset(&mock, 0, sizeof(mock));
	mock.nsid = 1;
}

TEST(ns_id)
{
	mock_reset();
	CHECK_EQ_I64(nv_sys_ns_id(MOCK_FD), 1);
	mock.nsid = 7;
	CHECK_EQ_I64(nv_sys_ns_id(MOCK_FD), 7);
	CHECK_EQ_I64(nv_sys_ns_id(3), 0);	/* ENOTTY: no NVMe device */
}

TEST(admin_returns)
{
	struct nvme_passthru_cmd cmd;
	uint8_t buf[NV_IDENTIFY_LEN];

	mock_reset();
	nv_admin_identify(&cmd, NV_CNS_CTRL, 0, 0, buf);
	CHECK_EQ_I64(nv_sys_admin(MOCK_FD, &cmd), 0);
	mock.id_ctrl_status = 0x4002;		/* DNR | Invalid Field */
	CHECK_EQ_I64(nv_sys_admin(MOCK_FD, &cmd), 0x4002);
	CHECK_EQ_I64(nv_sys_admin(3, &cmd), -ENOTTY);
}

TEST(identify_namespace_and_controller)
{
	struct nv_sys_ns id;
	char err[256] = "";

	mock_reset();
	CHECK_EQ_I64(nv_sys_identify(MOCK_FD, "/dev/ng0n1", &id, err, sizeof(err)), 0);
	CHECK_EQ_U64(id.nsid, 1);
	CHECK_EQ_U64(id.ns.nsze, 2048);
	CHECK_EQ_U64(id.ns.lba_size, 4096);
	CHECK_EQ_I64(id.have_ctrl, 1);
	CHECK_STR(id.ctrl.mn, "Mock NVMe");
	CHECK_STR(id.ctrl.sn, "SN123");
	CHECK_STR(id.blkname, "nvme0n1");
	CHECK_EQ_I64(id.dev.kind, NV_DEV_CHAR);
	CHECK_EQ_U64(mock.admin_cmds, 2);
	/* MDTS 5: 32 pages of 4096, unless this machine's sysfs has a smaller limit */
	CHECK(id.max_xfer > 0 && id.max_xfer <= 32 * 4096);
	CHECK(id.max_xfer_src != NULL);
}

/* A controller that refuses Identify Controller: the namespace still works. */
TEST(identify_without_controller)
{
	struct nv_sys_ns id;
	char err[256] = "";

	mock_reset();
	mock.id_ctrl_status = 0x2;
	CHECK_EQ_I64(nv_sys_identify(MOCK_FD, "/tmp/oddname", &id, err, sizeof(err)), 0);
	CHECK_EQ_I64(id.have_ctrl, 0);
	CHECK_EQ_I64(id.dev.kind, NV_DEV_NONE);
	CHECK_STR(id.blkname, "");
	CHECK_EQ_U64(id.max_xfer, 0);
	CHECK_STR(id.max_xfer_src, "unknown");
}

TEST(identify_failures)
{
	struct nv_sys_ns id;
	char err[256] = "";

	mock_reset();
	CHECK_EQ_I64(nv_sys_identify(3, "/tmp/file", &id, err, sizeof(err)), -ENOTTY);
	CHECK_STR(err, "");
	mock.id_ns_status = 0x400b;		/* DNR | Invalid Namespace or Format */
	CHECK_EQ_I64(nv_sys_identify(MOCK_FD, "/dev/ng0n1", &id, err, sizeof(err)), 0x400b);
	CHECK(strncmp(err, "Identify Namespace failed: ", 27) == 0);
	CHECK_EQ_U64(mock.admin_cmds, 1);	/* no Identify Controller after it */
	mock_reset();
	mock.id_ns_status = -EIO;
	CHECK_EQ_I64(nv_sys_identify(MOCK_FD, "/dev/ng0n1", &id, err, sizeof(err)), -EIO);
	CHECK(strstr(err, "Identify Namespace failed") != NULL);
}

TEST(smart_log)
{
	struct nv_smart s;

	mock_reset();
	CHECK_EQ_I64(nv_sys_smart(MOCK_FD, &s), 0);
	CHECK_EQ_U64(mock.last_opcode, 0x02);
	CHECK_EQ_U64(s.critical_warning, 4);
	CHECK_EQ_U64(s.temperature_k, 310);
	CHECK_EQ_U64(s.percent_used, 7);
	mock.smart_status = 0x4109;
	CHECK_EQ_I64(nv_sys_smart(MOCK_FD, &s), 0x4109);
	CHECK_EQ_I64(nv_sys_smart(3, &s), -ENOTTY);
}

/* Write @text to a new file in the test's directory.  Return: its path (static). */
static const char *tmpfile_with(const char *name, const char *text)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];
	FILE *fp;

	snprintf(p, 256, "%s/test_nvme_sys.%d.%s", getenv("TESTTMP") ? getenv("TESTTMP") : "/tmp",
		 (int)getpid(), name);
	fp = fopen(p, "w");
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
	return p;
}

TEST(mount_tables)
{
	struct nv_devname d;
	char what[700] = "";
	const char *none = tmpfile_with("none",
					"proc /proc proc rw 0 0\n/dev/sda1 / ext4 rw 0 0\n");
	const char *m = tmpfile_with("mounts", "/dev/sda1 / ext4 rw 0 0\n"
				     "/dev/nvme0n1p2 /boot ext4 rw 0 0\n");
	const char *sw = tmpfile_with("swaps", "Filename Type Size Used Priority\n"
				      "/dev/nvme0n1p3 partition 1024 0 -2\n");

	CHECK_EQ_I64(nv_dev_parse("/dev/ng0n1", &d), 0);
	CHECK_EQ_I64(nv_sys_mounted(&d, m, none, what, sizeof(what)), 1);
	CHECK_STR(what, "/dev/nvme0n1p2 is mounted on /boot");
	CHECK_EQ_I64(nv_sys_mounted(&d, none, sw, what, sizeof(what)), 1);
	CHECK_STR(what, "/dev/nvme0n1p3 is in use as swap");
	CHECK_EQ_I64(nv_sys_mounted(&d, none, none, what, sizeof(what)), 0);
	/* tables that cannot be read count as empty */
	CHECK_EQ_I64(nv_sys_mounted(&d, "/nonexistent/mounts", "/nonexistent/swaps", what,
				    sizeof(what)), 0);
	CHECK_EQ_I64(nv_dev_parse("/dev/ng1n1", &d), 0);
	CHECK_EQ_I64(nv_sys_mounted(&d, m, sw, what, sizeof(what)), 0);
	unlink(none);
	unlink(m);
	unlink(sw);
}

TEST(sysfs_numbers)
{
	const char *good = tmpfile_with("kb", "512\n");
	const char *bad = tmpfile_with("bad", "none\n");
	uint64_t v = 1;

	CHECK_EQ_I64(nv_sys_read_u64(good, &v), 0);
	CHECK_EQ_U64(v, 512);
	v = 1;
	CHECK_EQ_I64(nv_sys_read_u64(bad, &v), -EINVAL);
	CHECK_EQ_U64(v, 1);
	CHECK_EQ_I64(nv_sys_read_u64("/nonexistent/max_hw_sectors_kb", &v), -ENOENT);
	unlink(good);
	unlink(bad);
}

int main(void)
{
	RUN(ns_id);
	RUN(admin_returns);
	RUN(identify_namespace_and_controller);
	RUN(identify_without_controller);
	RUN(identify_failures);
	RUN(smart_log);
	RUN(mount_tables);
	RUN(sysfs_numbers);
	return check_summary();
}
