/*
 * fio_nvme.c - NVMe generic character devices (/dev/ngXnY).
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <linux/nvme_ioctl.h>

#include "engine/nv_glue.h"

/* Namespace id of an NVMe generic char device, or 0 if @fd is not one. */
int nv_nvme_ns_id(int fd)
{
	int ret = ioctl(fd, NVME_IOCTL_ID);

	return ret > 0 ? ret : 0;
}

int nv_nvme_file_setup(struct thread_data *td, struct fio_file *f, struct nv_file *nf)
{
	if (nf->kind != NV_TARGET_NVME_CHAR)
		return 0;
	log_err("nvengine: %s: NVMe passthrough is not available in this build\n", f->file_name);
	td_verror(td, ENOTSUP, "nvengine: passthrough");
	return 1;
}

int nv_nvme_get_file_size(struct thread_data *td, struct fio_file *f)
{
	return generic_get_file_size(td, f);
}

void nv_nvme_describe(struct thread_data *td, struct fio_file *f, unsigned int i,
		      struct nv_kvlist *l, const char *when)
{
	(void)td; (void)f; (void)i; (void)l; (void)when;
}

uint8_t nv_write_op(const struct io_u *io_u)
{
	(void)io_u;
	return NVT_OP_WRITE;
}
