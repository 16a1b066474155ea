/*
 * hooks_files.c - nvengine's file hooks (open_file, close_file,
 * get_file_size): each file's target kind checked, files opened the fio way
 * or handed out registered, NVMe sizes (engine/hooks.c).
 * The engine never calls exit(): failures go back to fio.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "fio.h"
#include "verify.h"

#include "engine/passthru.h"
#include "engine/trace_hook.h"
#include "sys/sys_target.h"
#include "nvme/nvme_sys.h"
#include "sys/sys_ring.h"
#include "engine/hooks.h"

/*
 * fio's generic_open_file(), except that an NVMe char device is opened
 * without O_DIRECT: passthrough never uses the page cache, and the char
 * device refuses O_DIRECT, so direct=1 job files (and those ported from block
 * devices) work unchanged.
 */
int nv_generic_open(struct thread_data *td, struct fio_file *f)
{
	unsigned int odirect = td->o.odirect;
	struct stat st;
	int ret;

	if (odirect && !stat(f->file_name, &st) && S_ISCHR(st.st_mode))
		td->o.odirect = 0;
	ret = generic_open_file(td, f);
	td->o.odirect = odirect;
	return ret;
}

/*
 * The kind of target @path is (st_mode @mode, NVMe namespace id @nsid for
 * char devices, 0 if not NVMe), or 0 after telling the user why the engine
 * cannot drive it (the sentence comes from nv_target_classify()).
 */
static int nv_check_target(struct thread_data *td, const char *path, mode_t mode, int nsid)
{
	char why[192];
	int kind = nv_target_classify(mode, nsid, why, sizeof(why));

	if (kind > 0)
		return kind;
	log_err("nvengine: %s %s\n", path, why);
	td_verror(td, -kind, "nvengine: unsupported target");
	return 0;
}

/*
 * Refuse @path when it lies under /dev but is no device: missing (fio would
 * lay it out as a regular file in devtmpfs) or a regular file left there.
 * For a missing name, a kernel without passthrough is named as the likely
 * reason (no /dev/ngXnY before Linux 5.13).
 * Return: 0, or 1 with the error reported.
 */
static int nv_refuse_devfs(struct thread_data *td, const char *path)
{
	char why[320], kwhy[256] = "";
	struct utsname u;
	struct stat st;
	int exists = !stat(path, &st);

	if (!nv_target_devfs_check(path, nv_target_on_devfs(path), exists, exists ? st.st_mode : 0,
				   why, sizeof(why)))
		return 0;
	if (!exists && !uname(&u))
		nv_kernel_passthru_lack(u.release, kwhy, sizeof(kwhy));
	log_err("nvengine: %s%s%s\n", why, *kwhy ? "; " : "", kwhy);
	td_verror(td, ENODEV, "nvengine: not a device");
	return 1;
}

/*
 * Check what kind of target an opened file is.  Sets @f's engine data and
 * returns 0, or reports why the engine cannot drive it and returns 1.
 */
static int nv_classify_open_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_file *nf = nv_file_of(f);
	struct stat st;
	int kind, nsid = 0, ret;

	if (fstat(f->fd, &st)) {
		td_verror(td, errno, "fstat");
		return 1;
	}
	if (S_ISCHR(st.st_mode))
		nsid = nv_sys_ns_id(f->fd);
	kind = nv_check_target(td, f->file_name, st.st_mode, nsid);
	if (!kind)
		return 1;
	/* fio can open files before init() (ld NULL): never char devices */
	if (kind == NV_TARGET_NVME_CHAR && (!ld || !(ld->r.flags & IORING_SETUP_SQE128))) {
		log_err("nvengine: %s: the ring was set up without 128-byte SQEs; "
			"NVMe passthrough needs the char device to exist when the job starts\n",
			f->file_name);
		td_verror(td, EINVAL, "nvengine: passthrough ring");
		return 1;
	}
	if (!nf) {
		nf = calloc(1, sizeof(*nf));
		if (!nf) {
			td_verror(td, ENOMEM, "nvengine open");
			return 1;
		}
		FILE_SET_ENG_DATA(f, nf);
	}
	nf->kind = kind;
	nf->index = f->fileno;
	ret = nv_nvme_file_setup(td, ld ? &ld->pt : NULL, f, nf);
	if (ret == -ENOTTY)
		return !nv_check_target(td, f->file_name, S_IFCHR, 0);
	return ret;
}

/* fio hook: open_file.  Opens (or takes the registered descriptor of) @f. */
int nv_open_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;
	struct stat st;
	int ret;

	if (nv_refuse_devfs(td, f->file_name))
		return 1;
	if (!stat(f->file_name, &st) && S_ISDIR(st.st_mode))
		return !nv_check_target(td, f->file_name, st.st_mode, 0);
	if (ld && o->registerfiles && ld->fds) {
		f->fd = ld->fds[f->engine_pos];
	} else {
		ret = nv_generic_open(td, f);
		if (ret)
			return ret;
	}
	ret = nv_classify_open_file(td, f);
	if (ret) {
		/* refused: what the open set up goes, as close_file() would do */
		nv_nvme_file_free(nv_file_of(f));
		FILE_SET_ENG_DATA(f, NULL);
		if (!(ld && o->registerfiles && ld->fds)) {
			int fio_unused ret2 = generic_close_file(td, f);
		} else {
			f->fd = -1;
		}
	}
	return ret;
}

/* fio hook: close_file. */
int nv_close_file(struct thread_data *td, struct fio_file *f)
{
	struct nv_data *ld = td->io_ops_data;
	struct nv_options *o = td->eo;

	nv_nvme_file_free(nv_file_of(f));
	FILE_SET_ENG_DATA(f, NULL);
	if (!ld || !o->registerfiles || !ld->fds)
		return generic_close_file(td, f);
	f->fd = -1;
	return 0;
}

/*
 * fio hook: get_file_size.  NVMe char devices report no size through
 * stat(); their size comes from Identify Namespace.
 */
int nv_get_file_size(struct thread_data *td, struct fio_file *f)
{
	struct stat st;

	if (nv_refuse_devfs(td, f->file_name))
		return 1;
	if (fio_file_size_known(f))
		return 0;
	if (!stat(f->file_name, &st)) {
		if (S_ISDIR(st.st_mode))
			return !nv_check_target(td, f->file_name, st.st_mode, 0);
		if (S_ISCHR(st.st_mode)) {
			int ret = nv_nvme_get_file_size(td, f);

			return ret == -ENOTTY ? !nv_check_target(td, f->file_name, S_IFCHR, 0)
				: ret;
		}
	}
	return generic_get_file_size(td, f);
}
