/*
 * passthru.c - NVMe generic character devices (/dev/ngXnY): io_uring
 * passthrough (IORING_OP_URING_CMD with struct nvme_uring_cmd).
 *
 * The pure parts (command building, Identify and SMART parsing, status
 * decoding, protection information) live in nvme/nvme_*.c; this file does
 * the ioctls, the checks against the job's parameters and the fio glue.
 *
 * Called by the hooks (engine/hooks*.c) only, with the part's own state
 * (struct nv_passthru); it returns results and the hooks record them.
 *
 * Passthrough requests are not split by the kernel, so every limit (LBA
 * alignment, the controller's maximum transfer) is checked when a file is
 * opened, against the job's block sizes, and refused with a message that
 * names the limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/nvme_ioctl.h>

#include "verify.h"

#include "engine/passthru.h"
#include "nvme/nvme_cmd.h"
#include "nvme/nvme_dev.h"
#include "nvme/nvme_id.h"
#include "nvme/nvme_pi.h"
#include "nvme/nvme_status.h"
#include "nvme/nvme_sys.h"

/* What the engine knows about one NVMe namespace. */
struct nv_nvme {
	struct nv_geom g;
	struct nv_sys_ns id;		/* Identify and sysfs (nvme/nvme_sys.h) */
	int host_pi;			/* the engine writes and checks PI (pi_act=0) */
	struct nv_pi_fmt pi;
};

/* Longest NVMe failures logged in full per job; all are counted by fio. */
#define NV_NVME_ERRORS_LOGGED	16

/* Explain a failed open of an NVMe char device. */
static void nv_report_open_error(struct thread_data *td, const char *path, int err)
{
	if (err == EACCES || err == EPERM)
		log_err("nvengine: %s: permission denied: NVMe passthrough needs root or "
			"read/write access to the char device (e.g. a udev rule: KERNEL==\"ng*\", "
			"GROUP=\"disk\", MODE=\"0660\")\n", path);
	else
		log_err("nvengine: %s: %s\n", path, strerror(err));
	td_verror(td, err, "nvengine: open NVMe device");
}

/* PRINFO bits of the job: PRACT from pi_act, PRCHK from pi_chk. */
static uint8_t nv_job_prinfo(const struct nv_options *o)
{
	return o->prchk | (o->pi_act ? NV_PRINFO_PRACT : 0);
}

/*
 * Identify the namespace (and, when allowed, the controller) behind @fd
 * (nvme/nvme_sys.h) and fill @nv.  Return: 0; 1 with the error reported;
 * -ENOTTY (not reported) when @fd is no NVMe char device.
 */
static int nv_nvme_identify(struct thread_data *td, const char *path, int fd,
			    struct nv_nvme *nv)
{
	char msg[256];
	int ret;

	ret = nv_sys_identify(fd, path, &nv->id, msg, sizeof(msg));
	if (ret == -ENOTTY)
		return ret;
	if (ret) {
		log_err("nvengine: %s: %s\n", path, msg);
		td_verror(td, ret < 0 ? -ret : EIO, "nvengine: identify namespace");
		return 1;
	}
	nv_geom_init(&nv->g, nv->id.nsid, &nv->id.ns,
		     nv->id.ns.pi_type ? nv_job_prinfo(td->eo) : 0, nv->id.max_xfer,
		     nv->id.max_xfer_src);
	return 0;
}

/* Addressable bytes of the namespace as fio sees them. */
static uint64_t nv_nvme_size(const struct nv_nvme *nv)
{
	return nv->id.ns.nsze * (uint64_t)nv_geom_block(&nv->g);
}

int nv_nvme_get_file_size(struct thread_data *td, struct fio_file *f)
{
	struct nv_nvme nv;
	int fd, ret;

	fd = open(f->file_name, O_RDONLY);
	if (fd < 0) {
		nv_report_open_error(td, f->file_name, errno);
		return 1;
	}
	memset(&nv, 0, sizeof(nv));
	ret = nv_nvme_identify(td, f->file_name, fd, &nv);
	close(fd);
	if (ret)
		return ret;
	f->real_file_size = nv_nvme_size(&nv);
	fio_file_set_size_known(f);
	return 0;
}

/* The trace operation of a passthrough write of opcode @opc.  Return: an enum nvt_op. */
static uint8_t nv_nvme_write_nvt_op(uint8_t opc)
{
	switch (opc) {
	case NV_OPC_WRITE_ZEROES:
		return NVT_OP_ZEROES;
	case NV_OPC_WRITE_UNCOR:
		return NVT_OP_UNCOR;
	case NV_OPC_VERIFY:
		return NVT_OP_VERIFY;
	default:
		return NVT_OP_WRITE;
	}
}

/*
 * Check the passthrough options once, at init: values that fio's parser
 * cannot check (strings) are parsed here (see passthru.h) so that the IO
 * path never parses them again.
 */
int nv_nvme_check_options(struct thread_data *td)
{
	static const struct { const char *name; uint8_t opc; } modes[] = {
		{ "write", NV_OPC_WRITE },
		{ "zeroes", NV_OPC_WRITE_ZEROES },
		{ "uncor", NV_OPC_WRITE_UNCOR },
		{ "verify", NV_OPC_VERIFY },
	};
	struct nv_options *o = td->eo;
	char msg[192];

	if (o->cmd_type && *o->cmd_type && strcmp(o->cmd_type, "nvme")) {
		log_err("nvengine: cmd_type=%s: the only command type is nvme\n", o->cmd_type);
		goto bad;
	}
	o->write_opc = NV_OPC_WRITE;
	if (o->write_mode && *o->write_mode) {
		size_t i;

		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			if (!strcmp(o->write_mode, modes[i].name))
				break;
		}
		if (i == sizeof(modes) / sizeof(modes[0])) {
			log_err("nvengine: write_mode=%s: use write, zeroes, uncor or verify\n",
				o->write_mode);
			goto bad;
		}
		o->write_opc = modes[i].opc;
	}
	o->write_nvt_op = nv_nvme_write_nvt_op(o->write_opc);
	if (nv_pi_chk_parse(o->pi_chk, &o->prchk, msg, sizeof(msg))) {
		log_err("nvengine: pi_chk=%s: %s\n", o->pi_chk, msg);
		goto bad;
	}
	if (o->apptag > 0xffff || o->apptag_mask > 0xffff) {
		log_err("nvengine: apptag and apptag_mask are 16-bit values (apptag=0x%x "
			"apptag_mask=0x%x)\n",
			o->apptag, o->apptag_mask);
		goto bad;
	}
	return 0;
bad:
	td_verror(td, EINVAL, "nvengine: options");
	return 1;
}

/*
 * Check the job's block sizes and offsets against the namespace: LBA
 * alignment and the largest transfer.  Returns 0 or 1 with the error reported.
 */
static int nv_nvme_check_job(struct thread_data *td, struct fio_file *f, struct nv_nvme *nv)
{
	struct nv_options *o = td->eo;
	char msg[256];
	int d;

	for (d = DDIR_READ; d <= DDIR_TRIM; d++) {
		uint8_t opc = d == DDIR_READ ? NV_OPC_READ :
			      d == DDIR_WRITE ? o->write_opc : NV_OPC_DSM;
		unsigned long long bs[2] = { td->o.min_bs[d], td->o.max_bs[d] };
		int i;

		if ((d == DDIR_READ && !td_read(td)) || (d == DDIR_WRITE && !td_write(td)) ||
		    (d == DDIR_TRIM && !td_trim(td)))
			continue;
		for (i = 0; i < 2; i++) {
			if (nv_check_len(&nv->g, opc, bs[i], msg, sizeof(msg)))
				goto bad_bs;
		}
		if (td->o.ba[d] && nv_check_offset(&nv->g, td->o.ba[d], msg, sizeof(msg)))
			goto bad_ba;
	}
	if (nv_check_offset(&nv->g, td->o.start_offset, msg, sizeof(msg))) {
		log_err("nvengine: %s: offset=%llu: %s\n", f->file_name,
			(unsigned long long)td->o.start_offset, msg);
		goto bad;
	}
	if (nv->g.md_size && !nv->g.ext_lba && o->md_per_io_size &&
	    o->md_per_io_size < td_max_bs(td) / nv->g.lba_size * nv->g.md_size) {
		log_err("nvengine: %s: md_per_io_size=%u is smaller than the %llu metadata bytes "
			"of bs=%llu (%u per %u-byte block); raise it or leave it 0 to size it "
			"from bs\n",
			f->file_name, o->md_per_io_size,
			(unsigned long long)(td_max_bs(td) / nv->g.lba_size * nv->g.md_size),
			(unsigned long long)td_max_bs(td), nv->g.md_size, nv->g.lba_size);
		goto bad;
	}
	return 0;
bad_bs:
	log_err("nvengine: %s: bs for %s: %s\n", f->file_name, io_ddir_name(d), msg);
	goto bad;
bad_ba:
	log_err("nvengine: %s: blockalign for %s: %s\n", f->file_name, io_ddir_name(d), msg);
bad:
	td_verror(td, EINVAL, "nvengine: job parameters");
	return 1;
}

/* Allocate the job's separate metadata buffers (once, on first use). */
static int nv_nvme_md_alloc(struct thread_data *td, struct nv_passthru *pt, struct nv_nvme *nv)
{
	struct nv_options *o = td->eo;
	uint32_t need = o->md_per_io_size;
	unsigned int i;

	if (!need && nv->g.md_size && !nv->g.ext_lba)
		need = (uint32_t)(td_max_bs(td) / nv->g.lba_size * nv->g.md_size);
	if (!need || (pt->md_bufs && pt->md_len >= need))
		return 0;
	if (pt->md_bufs) {
		log_err("nvengine: files of one job need different metadata buffer sizes; "
			"set md_per_io_size to the largest (%u)\n", need);
		return -EINVAL;
	}
	pt->md_bufs = calloc(pt->depth, sizeof(*pt->md_bufs));
	if (!pt->md_bufs)
		return -ENOMEM;
	for (i = 0; i < pt->depth; i++) {
		if (posix_memalign(&pt->md_bufs[i], 4096, need))
			return -ENOMEM;
		memset(pt->md_bufs[i], 0, need);
	}
	pt->md_len = need;
	return 0;
}

/*
 * With pi_act=0 on a namespace with protection information the host owns
 * the PI: the engine generates the tuples of every write (pi_gen=1) and
 * checks those of every read (the pi_chk fields, all three when pi_chk is
 * empty), so end-to-end protection holds even where the device is not asked
 * to check.  On extended LBAs the PI lies inside fio's data buffer, which
 * fio's verify= would then report as corrupt: that combination is refused.
 * Returns 0 or 1 with the error reported.
 */
static int nv_nvme_host_pi_setup(struct thread_data *td, struct fio_file *f, struct nv_nvme *nv)
{
	struct nv_options *o = td->eo;
	char msg[192];

	nv->host_pi = nv->id.ns.pi_type && !o->pi_act;
	if (!nv->host_pi)
		return 0;
	if (nv_pi_fmt_init(&nv->pi, &nv->id.ns, msg, sizeof(msg))) {
		log_err("nvengine: %s: %s\n", f->file_name, msg);
		td_verror(td, EINVAL, "nvengine: protection information");
		return 1;
	}
	if (nv->id.ns.ext_lba && o->pi_gen && td->o.verify != VERIFY_NONE && td_write(td)) {
		log_err("nvengine: %s: with pi_act=0 on an extended-LBA namespace the engine "
			"writes the PI into fio's data buffer, which verify= would report as "
			"corrupt; use pi_act=1, pi_gen=0, or a separate-metadata format\n",
			f->file_name);
		td_verror(td, EINVAL, "nvengine: verify with host PI");
		return 1;
	}
	return 0;
}

/* The PI tags of an IO at byte @offset. */
static void nv_nvme_pi_tags(const struct nv_options *o, const struct nv_nvme *nv, uint64_t offset,
			    struct nv_pi_tags *t)
{
	uint8_t prchk = o->prchk ? o->prchk :
			NV_PRINFO_PRCHK_GUARD | NV_PRINFO_PRCHK_APP | NV_PRINFO_PRCHK_REF;

	memset(t, 0, sizeof(*t));
	t->ref_init = (uint32_t)(offset / nv_geom_block(&nv->g));
	t->apptag = (uint16_t)o->apptag;
	t->apptag_mask = (uint16_t)o->apptag_mask;
	t->prchk = prchk;
}

/* The DSM batches of a job with trim_ranges > 1 (once, on first use). */
static int nv_nvme_batches_alloc(struct thread_data *td, struct nv_passthru *pt)
{
	struct nv_options *o = td->eo;
	unsigned int i;

	if (o->trim_ranges <= 1 || pt->batches)
		return 0;
	pt->batches = calloc(pt->depth, sizeof(*pt->batches));
	if (!pt->batches)
		return -ENOMEM;
	for (i = 0; i < pt->depth; i++) {
		struct nv_dsm_batch *b = &pt->batches[i];

		if (posix_memalign(&b->ranges, 4096, o->trim_ranges * sizeof(struct nv_dsm_range)))
			return -ENOMEM;
		b->ios = calloc(o->trim_ranges, sizeof(*b->ios));
		if (!b->ios)
			return -ENOMEM;
		b->next = pt->batch_free;
		pt->batch_free = b;
	}
	return 0;
}

/* Writes to a namespace whose block device is mounted need allow_mounted_write=1. */
int nv_nvme_file_setup(struct thread_data *td, struct nv_passthru *pt, struct fio_file *f,
		       struct nv_file *nf)
{
	struct nv_options *o = td->eo;
	struct nv_nvme *nv;
	char what[700];
	int ret;

	if (nf->kind != NV_TARGET_NVME_CHAR) {
		if (o->cmd_type && !strcmp(o->cmd_type, "nvme")) {
			char kwhy[256] = "";
			struct utsname u;

			if (!uname(&u))
				nv_kernel_passthru_lack(u.release, kwhy, sizeof(kwhy));
			log_err("nvengine: cmd_type=nvme needs the NVMe generic char device "
				"/dev/ngXnY; %s is a %s (drop cmd_type to use it through the "
				"block layer)%s%s\n",
				f->file_name, nv_target_kind_name(nf->kind),
				*kwhy ? "; " : "", kwhy);
			td_verror(td, EINVAL, "nvengine: cmd_type");
			return 1;
		}
		return 0;
	}
	nv = nf->nvme;
	if (!nv) {
		nv = calloc(1, sizeof(*nv));
		if (!nv) {
			td_verror(td, ENOMEM, "nvengine: open");
			return 1;
		}
		nf->nvme = nv;
	}
	ret = nv_nvme_identify(td, f->file_name, f->fd, nv);
	if (ret)
		return ret;
	if (nv_nvme_check_job(td, f, nv))
		return 1;
	if (nv_nvme_host_pi_setup(td, f, nv))
		return 1;
	if ((td_write(td) || td_trim(td)) && !td->o.allow_mounted_write &&
	    nv->id.dev.kind != NV_DEV_NONE &&
	    nv_sys_mounted(&nv->id.dev, NV_SYS_MOUNTS, NV_SYS_SWAPS, what, sizeof(what))) {
		log_err("nvengine: refusing to write to %s: %s; set allow_mounted_write=1 to "
			"do it anyway\n",
			f->file_name, what);
		td_verror(td, EBUSY, "nvengine: mounted namespace");
		return 1;
	}
	ret = nv_nvme_md_alloc(td, pt, nv);
	if (!ret)
		ret = nv_nvme_batches_alloc(td, pt);
	if (!ret && !pt->dsm) {
		ret = posix_memalign(&pt->dsm, 4096, pt->depth * sizeof(struct nv_dsm_range))
			? -ENOMEM : 0;
		if (!ret)
			memset(pt->dsm, 0, pt->depth * sizeof(struct nv_dsm_range));
	}
	if (ret) {
		td_verror(td, -ret, "nvengine: metadata buffers");
		return 1;
	}
	return 0;
}

/* Describe io_u as an nv_io for the command builder (vectored data in @iov).  Return: nothing. */
static void nv_nvme_io(struct thread_data *td, const struct nv_passthru *pt,
		       const struct nv_nvme *nv, struct io_u *io_u, struct nv_io *io,
		       struct iovec *iov)
{
	struct nv_options *o = td->eo;

	memset(io, 0, sizeof(*io));
	io->offset = io_u->offset;
	io->len = io_u->xfer_buflen;
	switch (io_u->ddir) {
	case DDIR_READ:
		io->opcode = NV_OPC_READ;
		io->fua = o->readfua;
		break;
	case DDIR_WRITE:
		io->opcode = o->write_opc;
		io->fua = o->writefua && io->opcode == NV_OPC_WRITE;
		break;
	default:
		io->opcode = NV_OPC_FLUSH;
		io->len = 0;
		return;
	}
	if (nv_opc_has_data(io->opcode)) {
		if (o->nonvectored == 1 || o->fixedbufs) {
			io->buf = io_u->xfer_buf;
		} else {
			iov->iov_base = io_u->xfer_buf;
			iov->iov_len = io_u->xfer_buflen;
			io->iov = iov;
			io->nr_iov = 1;
		}
		if (pt->md_bufs) {
			io->md = pt->md_bufs[io_u->index];
			io->md_len = pt->md_len;
		}
	}
	if (nv->id.ns.pi_type) {
		io->prinfo = nv_job_prinfo(o);
		io->apptag = (uint16_t)o->apptag;
		io->apptag_mask = (uint16_t)o->apptag_mask;
	}
}

int nv_nvme_prep(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		 struct io_u *io_u)
{
	struct iovec iov;
	struct nv_io io;
	char msg[256];

	if (io_u->ddir == DDIR_TRIM) {
		struct nv_dsm_range r;

		if (nv_dsm_range_set(&r, &nf->nvme->g, io_u->offset, io_u->xfer_buflen, 0,
				     msg, sizeof(msg)))
			goto bad;
		return 0;
	}
	nv_nvme_io(td, pt, nf->nvme, io_u, &io, &iov);
	if (io.opcode != NV_OPC_FLUSH && nv_io_check(&nf->nvme->g, &io, msg, sizeof(msg)))
		goto bad;
	return 0;
bad:
	log_err("nvengine: %s: %s at offset %llu: %s\n", io_u->file->file_name,
		io_ddir_name(io_u->ddir), (unsigned long long)io_u->offset, msg);
	/* fio ends a job quietly when prep fails: make it an error */
	td_verror(td, EINVAL, "nvengine: prep");
	return -EINVAL;
}

int nv_nvme_fill_sqe(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		     struct io_uring_sqe *sqe, struct io_u *io_u, struct iovec *iov)
{
	struct nv_options *o = td->eo;
	struct nv_geom *g = &nf->nvme->g;
	struct nvme_uring_cmd cmd;
	uint32_t cmd_op = NVME_URING_CMD_IO;
	int fd = o->registerfiles ? (int)io_u->file->engine_pos : io_u->file->fd;
	int buf_index = -1, ret;

	if (io_u->ddir == DDIR_TRIM) {
		struct nv_dsm_range *r = (struct nv_dsm_range *)pt->dsm + io_u->index;

		ret = nv_dsm_range_set(r, g, io_u->offset, io_u->xfer_buflen, 0, NULL, 0);
		if (!ret)
			ret = nv_cmd_dsm(&cmd, g, r, 1);
	} else {
		struct nv_io io;

		nv_nvme_io(td, pt, nf->nvme, io_u, &io, iov);
		if (nf->nvme->host_pi && o->pi_gen && io.opcode == NV_OPC_WRITE) {
			struct nv_pi_tags t;

			nv_nvme_pi_tags(o, nf->nvme, io_u->offset, &t);
			nv_pi_generate(&nf->nvme->pi, io_u->xfer_buf, io.md,
				       (uint32_t)(io_u->xfer_buflen / nv_geom_block(g)), &t);
		}
		ret = nv_cmd_build(&cmd, g, &io, &cmd_op);
		if (o->fixedbufs && io.buf)
			buf_index = io_u->index;
	}
	if (ret)
		return ret;
	nv_sqe_uring_cmd(sqe, fd, o->registerfiles, cmd_op, &cmd, buf_index);
	return 0;
}

/*
 * The host's check of the PI returned by a read (host_pi).  Returns 0, or 1
 * with the failing block and field described in @msg.
 */
static int nv_nvme_pi_check(struct thread_data *td, const struct nv_passthru *pt,
			    struct io_u *io_u, const struct nv_nvme *nv, char *msg, size_t len)
{
	uint32_t block = nv_geom_block(&nv->g);
	struct nv_pi_tags t;
	struct nv_pi_err err;

	nv_nvme_pi_tags(td->eo, nv, io_u->offset, &t);
	if (!nv_pi_verify(&nv->pi, io_u->xfer_buf, pt->md_bufs ? pt->md_bufs[io_u->index] : NULL,
			  (uint32_t)(io_u->xfer_buflen / block), &t, &err))
		return 0;
	nv_pi_err_str(&err, io_u->offset / block, msg, len);
	return 1;
}

int nv_nvme_complete(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		     struct io_u *io_u, int res)
{
	char st[200];
	int err;

	if (!res && io_u->ddir == DDIR_READ && nf->nvme->host_pi &&
	    nv_nvme_pi_check(td, pt, io_u, nf->nvme, st, sizeof(st))) {
		err = EILSEQ;
	} else if (!res) {
		return 0;
	} else {
		err = nv_status_errno(res);
		nv_status_str(res, st, sizeof(st));
	}
	if (pt->errors_logged < NV_NVME_ERRORS_LOGGED) {
		pt->errors_logged++;
		log_err("nvengine: %s: %s offset=%llu len=%llu: %s%s%s\n", io_u->file->file_name,
			io_ddir_name(io_u->ddir), (unsigned long long)io_u->offset,
			(unsigned long long)io_u->xfer_buflen, res ? "NVMe " : "", st,
			pt->errors_logged == NV_NVME_ERRORS_LOGGED ?
			" (further NVMe errors are counted, not printed)" : "");
	}
	/* the job's error text carries the decoded status */
	if (!td->error)
		td_vmsg(td, err, st, res ? "nvme passthrough" : "nvengine PI check");
	return err;
}

int nv_nvme_trim_batch(struct thread_data *td, struct nv_passthru *pt, const struct nv_file *nf,
		       struct io_u *io_u)
{
	struct nv_dsm_batch *b = pt->batch_open;
	int ret;

	(void)td;
	if (!b) {
		b = pt->batch_free;
		if (!b)
			return -EBUSY;
		pt->batch_free = b->next;
		b->n = 0;
		b->f = io_u->file;
		pt->batch_open = b;
	}
	/* prep() checked the range */
	ret = nv_dsm_range_set((struct nv_dsm_range *)b->ranges + b->n, &nf->nvme->g, io_u->offset,
			       io_u->xfer_buflen, 0, NULL, 0);
	if (ret)
		return ret;
	b->ios[b->n++] = io_u;
	return 0;
}

struct nv_dsm_batch *nv_nvme_batch_flush(struct thread_data *td, struct nv_passthru *pt,
					 struct io_uring_sqe *sqe)
{
	struct nv_options *o = td->eo;
	struct nv_dsm_batch *b = pt->batch_open;
	struct nvme_uring_cmd cmd;
	struct fio_file *f;

	if (!b)
		return NULL;
	pt->batch_open = NULL;
	f = b->f;
	nv_cmd_dsm(&cmd, &nv_file_of(f)->nvme->g, b->ranges, b->n);
	nv_sqe_uring_cmd(sqe, o->registerfiles ? (int)f->engine_pos : f->fd, o->registerfiles,
			 NVME_URING_CMD_IO, &cmd, -1);
	io_uring_sqe_set_data(sqe, nv_batch_tag(b));
	return b;
}

void nv_nvme_batch_release(struct nv_passthru *pt, struct nv_dsm_batch *b)
{
	b->n = 0;
	b->next = pt->batch_free;
	pt->batch_free = b;
}

/* Add KEY=VALUE pairs of the SMART log of @fd's controller, keys prefixed.  Return: nothing. */
static void nv_nvme_smart(int fd, struct nvt_kvlist *l, const char *prefix)
{
	struct nv_kv kv[NV_SMART_KV_MAX];
	struct nv_smart s;
	int i, n;

	if (nv_sys_smart(fd, &s))
		return;
	n = nv_smart_kv(&s, kv, NV_SMART_KV_MAX);
	for (i = 0; i < n; i++) {
		char key[128];

		snprintf(key, sizeof(key), "%s%s", prefix, kv[i].key);
		nvt_kvlist_add(l, key, "%s", kv[i].val);
	}
}

void nv_nvme_describe(struct thread_data *td, struct fio_file *f, unsigned int i,
		      struct nvt_kvlist *l, const char *when)
{
	struct nv_nvme nv;
	char key[96], prefix[96];
	int fd;

	(void)td;
	fd = open(f->file_name, O_RDONLY);
	if (fd < 0)
		return;
	if (nv_sys_ns_id(fd) <= 0) {
		close(fd);
		return;
	}
	if (!*when) {
		memset(&nv, 0, sizeof(nv));
		/* errors were or will be reported by the open path */
		if (!nv_nvme_identify(td, f->file_name, fd, &nv)) {
#define KV(k, ...) do { \
		snprintf(key, sizeof(key), "file.%u." k, i); \
		nvt_kvlist_add(l, key, __VA_ARGS__); \
	} while (0)
			KV("nsid", "%u", nv.g.nsid);
			KV("lba_size", "%u", nv.g.lba_size);
			KV("md_size", "%u", nv.id.ns.md_size);
			KV("ext_lba", "%d", nv.id.ns.ext_lba ? 1 : 0);
			KV("pi_type", "%u", nv.id.ns.pi_type);
			KV("nsze", "%llu", (unsigned long long)nv.id.ns.nsze);
			KV("max_transfer", "%llu", (unsigned long long)nv.g.max_xfer);
			if (nv.id.have_ctrl) {
				KV("nvme.model", "%s", nv.id.ctrl.mn);
				KV("nvme.serial", "%s", nv.id.ctrl.sn);
				KV("nvme.firmware", "%s", nv.id.ctrl.fr);
			}
#undef KV
		}
		snprintf(prefix, sizeof(prefix), "file.%u.smart.before.", i);
	} else {
		snprintf(prefix, sizeof(prefix), "file.%u.smart.%s.", i, when);
	}
	nv_nvme_smart(fd, l, prefix);
	close(fd);
}

void nv_nvme_file_free(struct nv_file *nf)
{
	if (nf)
		free(nf->nvme);
	free(nf);
}

void nv_nvme_cleanup(struct nv_passthru *pt)
{
	unsigned int i;

	if (pt->batches) {
		for (i = 0; i < pt->depth; i++) {
			free(pt->batches[i].ranges);
			free(pt->batches[i].ios);
		}
		free(pt->batches);
		pt->batches = NULL;
	}
	if (pt->md_bufs) {
		for (i = 0; i < pt->depth; i++)
			free(pt->md_bufs[i]);
		free(pt->md_bufs);
		pt->md_bufs = NULL;
	}
	free(pt->dsm);
	pt->dsm = NULL;
}
