/*
 * nvme_sys.c - the NVMe system layer: ioctls, sysfs, the mount tables
 * (see nvme_sys.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "nvme/nvme_status.h"
#include "nvme/nvme_sys.h"

int nv_sys_ns_id(int fd)
{
	int ret = ioctl(fd, NVME_IOCTL_ID);

	return ret > 0 ? ret : 0;
}

int nv_sys_admin(int fd, struct nvme_passthru_cmd *cmd)
{
	int ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);

	return ret < 0 ? -errno : ret;
}

int nv_sys_read_u64(const char *path, uint64_t *v)
{
	unsigned long long x;
	FILE *fp = fopen(path, "r");
	int ret = 0;

	if (!fp)
		return -errno;
	if (fscanf(fp, "%llu", &x) == 1)
		*v = x;
	else
		ret = -EINVAL;
	fclose(fp);
	return ret;
}

uint64_t nv_sys_max_hw_kb(const struct nv_devname *d)
{
	uint64_t v = 0;
	char p[256];

	if (nv_dev_sysfs(d, "queue/max_hw_sectors_kb", p, sizeof(p)) || nv_sys_read_u64(p, &v))
		return 0;
	return v;
}

/* Identify Namespace of @id->nsid into @id->ns, in @buf.  Return: as nv_sys_identify(). */
static int nv_sys_id_ns(int fd, void *buf, struct nv_sys_ns *id, char *err, size_t len)
{
	struct nvme_passthru_cmd cmd;
	char msg[256];
	int ret;

	memset(buf, 0, NV_IDENTIFY_LEN);
	nv_admin_identify(&cmd, NV_CNS_NS, id->nsid, 0, buf);
	ret = nv_sys_admin(fd, &cmd);
	if (ret) {
		snprintf(err, len, "Identify Namespace failed: %s", nv_status_str(ret, msg,
										  sizeof(msg)));
		return ret;
	}
	if (nv_parse_id_ns(buf, NV_IDENTIFY_LEN, &id->ns, err, len))
		return -EINVAL;
	return 0;
}

int nv_sys_identify(int fd, const char *path, struct nv_sys_ns *id, char *err, size_t len)
{
	struct nvme_passthru_cmd cmd;
	uint64_t mdts = 0, hwkb;
	char msg[256];
	void *buf;
	int nsid, ret;

	memset(id, 0, sizeof(*id));
	nsid = nv_sys_ns_id(fd);
	if (nsid <= 0)
		return -ENOTTY;
	id->nsid = (uint32_t)nsid;
	if (posix_memalign(&buf, 4096, NV_IDENTIFY_LEN)) {
		snprintf(err, len, "out of memory for Identify");
		return -ENOMEM;
	}
	ret = nv_sys_id_ns(fd, buf, id, err, len);
	if (ret)
		goto out;
	memset(buf, 0, NV_IDENTIFY_LEN);
	nv_admin_identify(&cmd, NV_CNS_CTRL, 0, 0, buf);
	if (!nv_sys_admin(fd, &cmd) &&
	    !nv_parse_id_ctrl(buf, NV_IDENTIFY_LEN, &id->ctrl, msg, sizeof(msg))) {
		id->have_ctrl = 1;
		mdts = nv_mdts_bytes(id->ctrl.mdts, 4096);
	}
	if (nv_dev_parse(path, &id->dev) ||
	    nv_dev_block_name(&id->dev, id->blkname, sizeof(id->blkname))) {
		id->dev.kind = NV_DEV_NONE;
		id->blkname[0] = 0;
	}
	hwkb = id->blkname[0] ? nv_sys_max_hw_kb(&id->dev) : 0;
	id->max_xfer_src = NULL;
	id->max_xfer = nv_max_transfer(mdts, hwkb, &id->max_xfer_src);
	if (!id->max_xfer_src)
		id->max_xfer_src = "unknown";
out:
	free(buf);
	return ret;
}

int nv_sys_smart(int fd, struct nv_smart *s)
{
	struct nvme_passthru_cmd cmd;
	void *buf;
	int ret;

	if (posix_memalign(&buf, 4096, NV_SMART_LOG_LEN))
		return -ENOMEM;
	memset(buf, 0, NV_SMART_LOG_LEN);
	ret = nv_admin_get_log(&cmd, NV_LOG_SMART, NV_NSID_ALL, buf, NV_SMART_LOG_LEN, 0);
	if (!ret)
		ret = nv_sys_admin(fd, &cmd);
	if (!ret && nv_parse_smart(buf, NV_SMART_LOG_LEN, s, NULL, 0))
		ret = -EINVAL;
	free(buf);
	return ret;
}

/* The whole of a small /proc file as a string.  Return: it (caller frees), NULL on error. */
static char *nv_sys_read_text(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return NULL;
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, fp);
		len += n;
		if (n == 0)
			break;
	}
	fclose(fp);
	buf[len] = 0;
	return buf;
}

int nv_sys_mounted(const struct nv_devname *d, const char *mounts, const char *swaps,
		   char *what, size_t len)
{
	char *text = nv_sys_read_text(mounts);
	char hit[600];
	int ret = 0;

	if (text && nv_dev_mounted(text, d, hit, sizeof(hit)) == 1) {
		/* hit reads "DEV on DIR" */
		const char *on = strstr(hit, " on ");

		if (on)
			snprintf(what, len, "%.*s is mounted on %s", (int)(on - hit), hit, on + 4);
		else
			snprintf(what, len, "%s is mounted", hit);
		ret = 1;
	}
	free(text);
	if (ret)
		return 1;
	/* /proc/swaps has the same first column: one "mounts" scan finds it */
	text = nv_sys_read_text(swaps);
	if (text && nv_dev_mounted(text, d, hit, sizeof(hit)) == 1) {
		snprintf(what, len, "%.*s is in use as swap", (int)strcspn(hit, " "), hit);
		ret = 1;
	}
	free(text);
	return ret;
}
