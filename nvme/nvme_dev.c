/*
 * nvme_dev.c - NVMe device name parsing and the names derived from it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "nvme/nvme_dev.h"

/*
 * Parse a decimal number at *s (no sign, no leading zero unless the number
 * is 0, at most 9 digits so it fits an int) and advance *s past it.
 */
static bool parse_num(const char **s, int *out)
{
	const char *p = *s;
	int v = 0, n = 0;

	while (*p >= '0' && *p <= '9') {
		if (++n > 9)
			return false;
		v = v * 10 + (*p - '0');
		p++;
	}
	if (!n || (n > 1 && **s == '0'))
		return false;
	*s = p;
	*out = v;
	return true;
}

int nv_dev_parse(const char *path, struct nv_devname *d)
{
	struct nv_devname r = { .kind = NV_DEV_NONE, .path = -1, .ns = -1, .part = -1 };
	const char *s, *slash;
	bool is_char;

	if (!path)
		return -EINVAL;
	slash = strrchr(path, '/');
	s = slash ? slash + 1 : path;
	if (!strncmp(s, "ng", 2)) {
		is_char = true;
		s += 2;
	} else if (!strncmp(s, "nvme", 4)) {
		is_char = false;
		s += 4;
	} else {
		return -EINVAL;
	}
	if (!parse_num(&s, &r.ctrl))
		return -EINVAL;
	if (!*s) {
		if (is_char)
			return -EINVAL;
		r.kind = NV_DEV_CTRL;
		goto out;
	}
	if (*s == 'c' && !is_char) {
		s++;
		if (!parse_num(&s, &r.path))
			return -EINVAL;
	}
	if (*s++ != 'n' || !parse_num(&s, &r.ns) || r.ns < 1)
		return -EINVAL;
	r.kind = is_char ? NV_DEV_CHAR : r.path >= 0 ? NV_DEV_PATH : NV_DEV_BLOCK;
	if (*s == 'p' && r.kind == NV_DEV_BLOCK) {
		s++;
		if (!parse_num(&s, &r.part) || r.part < 1)
			return -EINVAL;
		r.kind = NV_DEV_PART;
	}
	if (*s)
		return -EINVAL;
out:
	*d = r;
	return 0;
}

const char *nv_dev_kind_name(enum nv_dev_kind kind)
{
	static const char *const names[] = {
		[NV_DEV_NONE]	= "not an NVMe device",
		[NV_DEV_CTRL]	= "NVMe controller char device",
		[NV_DEV_CHAR]	= "NVMe generic char device",
		[NV_DEV_BLOCK]	= "NVMe block device",
		[NV_DEV_PART]	= "NVMe partition",
		[NV_DEV_PATH]	= "NVMe multipath path device",
	};

	if ((unsigned)kind < sizeof(names) / sizeof(names[0]))
		return names[kind];
	return names[NV_DEV_NONE];
}

static int fits(size_t len, int n)
{
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? 0 : -ENAMETOOLONG;
}

int nv_dev_block_name(const struct nv_devname *d, char *buf, size_t len)
{
	switch (d->kind) {
	case NV_DEV_CHAR:
	case NV_DEV_BLOCK:
	case NV_DEV_PART:
		return fits(len, snprintf(buf, len, "nvme%dn%d", d->ctrl, d->ns));
	case NV_DEV_PATH:
		return fits(len, snprintf(buf, len, "nvme%dc%dn%d", d->ctrl, d->path, d->ns));
	default:
		return -EINVAL;
	}
}

int nv_dev_char_name(const struct nv_devname *d, char *buf, size_t len)
{
	switch (d->kind) {
	case NV_DEV_CHAR:
	case NV_DEV_BLOCK:
	case NV_DEV_PART:
		return fits(len, snprintf(buf, len, "ng%dn%d", d->ctrl, d->ns));
	case NV_DEV_PATH:
		return fits(len, snprintf(buf, len, "ng%dn%d", d->path, d->ns));
	default:
		return -EINVAL;
	}
}

int nv_dev_sysfs(const struct nv_devname *d, const char *attr, char *buf, size_t len)
{
	char name[40];
	int ret = nv_dev_block_name(d, name, sizeof(name));

	if (ret)
		return ret;
	if (!attr || !*attr)
		return fits(len, snprintf(buf, len, "/sys/block/%s", name));
	return fits(len, snprintf(buf, len, "/sys/block/%s/%s", name, attr));
}

/* Whether mount source src is ns's namespace block device or a partition. */
static bool source_matches(const char *src, size_t n, const struct nv_devname *ns)
{
	char tmp[64];
	struct nv_devname d;

	if (n < 6 || n >= sizeof(tmp) || strncmp(src, "/dev/", 5))
		return false;
	memcpy(tmp, src, n);
	tmp[n] = 0;
	if (nv_dev_parse(tmp, &d) || (d.kind != NV_DEV_BLOCK && d.kind != NV_DEV_PART))
		return false;
	return d.ctrl == ns->ctrl && d.ns == ns->ns;
}

int nv_dev_mounted(const char *mounts, const struct nv_devname *ns, char *hit, size_t hitlen)
{
	const char *line = mounts;

	if (!mounts || ns->ns < 1)
		return 0;
	while (*line) {
		const char *eol = strchr(line, '\n');
		size_t llen = eol ? (size_t)(eol - line) : strlen(line);
		size_t slen = strcspn(line, " \t\n");

		if (slen < llen && source_matches(line, slen, ns)) {
			const char *mp = line + slen + 1;
			size_t mlen = strcspn(mp, " \t\n");

			if (hit && hitlen)
				snprintf(hit, hitlen, "%.*s on %.*s", (int)slen, line, (int)mlen,
					 mp);
			return 1;
		}
		line += llen;
		if (*line)
			line++;
	}
	return 0;
}
