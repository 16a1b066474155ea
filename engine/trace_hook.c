/*
 * trace_hook.c - the engine's per-IO trace.
 *
 * With nv_trace=DIR every IO the job performs is appended, at completion, to
 * DIR/JOBNAME.THREAD.nvt through the shared trace codec (trace/nvtrace.h):
 * the IO thread only copies a 40-byte record; a background thread
 * compresses and writes.  The header describes the job, its targets and the
 * clock; the footer adds what is known only at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/nv_glue.h"
#include "trace/nvtrace_name.h"
#include "engine/nv_util.h"

void nv_kv_add(struct nv_kvlist *l, const char *key, const char *fmt, ...)
{
	char *k, *v;
	va_list ap;

	if (l->oom)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct nvt_kv *nkv = realloc(l->kv, cap * sizeof(*nkv));

		if (!nkv) {
			l->oom = 1;
			return;
		}
		l->kv = nkv;
		l->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	k = strdup(key);
	if (!k || !v) {
		free(k);
		free(v);
		l->oom = 1;
		return;
	}
	l->kv[l->n].key = k;
	l->kv[l->n].value = v;
	l->n++;
}

static void nv_kv_free(struct nv_kvlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free((char *)l->kv[i].key);
		free((char *)l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof(*l));
}

/*
 * The alignment every IO buffer of the job has: the largest power of two,
 * up to 4096, that divides all their addresses.  Passthrough maps buffers for
 * DMA as they are, so less than the page size means IOs that straddle pages.
 */
static unsigned int nv_buf_align(const struct nv_data *ld)
{
	unsigned int a = 4096, i;

	for (i = 0; i < ld->depth; i++) {
		const struct io_u *io_u = ld->io_u_index[i];

		if (!io_u || !io_u->buf)
			continue;
		while (a > 1 && ((uintptr_t)io_u->buf & (a - 1)))
			a >>= 1;
	}
	return a;
}

/*
 * The io_uring features the job's ring really has, for the header key
 * ring.features: the setup flags the kernel accepted (the engine asks for
 * COOP_TASKRUN 5.19, SINGLE_ISSUER and DEFER_TASKRUN 6.0/6.1 and drops each
 * an older kernel refuses) and REGISTERED_RING_FD (5.18).  Writes "none"
 * when there is none.
 */
static void nv_ring_features(const struct nv_data *ld, char *buf, size_t len)
{
	static const struct { unsigned int flag; const char *name; } names[] = {
		{ IORING_SETUP_IOPOLL, "IOPOLL" },
		{ IORING_SETUP_SQPOLL, "SQPOLL" },
		{ IORING_SETUP_SQE128, "SQE128" },
		{ IORING_SETUP_CQE32, "CQE32" },
		{ IORING_SETUP_CQSIZE, "CQSIZE" },
		{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
		{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++)
		if (ld->ring_flags & names[i].flag)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[i].name);
	if (ld->ring_fd_registered && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sREGISTERED_RING_FD", n ? "," : "");
	if (!n)
		snprintf(buf, len, "none");
}

/* Describe the job and its targets for the trace header. */
static void nv_trace_header(struct thread_data *td, const struct nv_data *ld, struct nv_kvlist *l)
{
	struct nv_options *o = td->eo;
	struct fio_file *f;
	char host[256] = "", features[160];
	struct utsname u;
	unsigned int i;

	nv_kv_add(l, "job.name", "%s", td->o.name ? td->o.name : "");
	nv_kv_add(l, "job.number", "%u", td->thread_number);
	nv_kv_add(l, "job.subjob", "%u", td->subjob_number);
	nv_kv_add(l, "job.groupid", "%u", td->groupid);
	nv_kv_add(l, "job.pid", "%d", (int)getpid());
	nv_kv_add(l, "job.iodepth", "%u", td->o.iodepth);
	nv_kv_add(l, "job.buf_align", "%u", nv_buf_align(ld));
	nv_kv_add(l, "job.direct", "%u", td->o.odirect);
	nv_kv_add(l, "job.rw", "%s%s%s", td_read(td) ? "read" : "", td_write(td) ? "write" : "",
		  td_trim(td) ? "trim" : "");
	nv_kv_add(l, "job.random", "%d", td_random(td) ? 1 : 0);
	nv_kv_add(l, "job.bs", "%llu,%llu,%llu", (unsigned long long)td->o.max_bs[DDIR_READ],
		  (unsigned long long)td->o.max_bs[DDIR_WRITE], (unsigned long long)td->o.max_bs[DDIR_TRIM]);
	if (td->o.ramp_time)
		nv_kv_add(l, "job.ramp_time_us", "%llu", (unsigned long long)td->o.ramp_time);
	nv_kv_add(l, "fio.version", "%s", fio_version_string);
	if (!uname(&u))
		nv_kv_add(l, "kernel", "%s", u.release);
	nv_ring_features(ld, features, sizeof(features));
	nv_kv_add(l, "ring.features", "%s", features);
	if (!gethostname(host, sizeof(host) - 1))
		nv_kv_add(l, "host", "%s", host);
	nv_kv_add(l, "clock", "CLOCK_MONOTONIC");
	nv_kv_add(l, "clock.monotonic_ns", "%llu", (unsigned long long)nv_now_ns());
	nv_kv_add(l, "clock.realtime_ns", "%llu", (unsigned long long)nv_realtime_ns());
	nv_kv_add(l, "engine", "nvengine");
	nv_kv_add(l, "engine.options",
		  "hipri=%u fixedbufs=%u registerfiles=%u sqthread_poll=%u nonvectored=%d "
		  "force_async=%u nowait=%u nv_trace_level=%u nv_trace_block=%u nv_trace_sched=%s "
		  "nv_iowq_workers=%u",
		  o->hipri, o->fixedbufs, o->registerfiles, o->sqpoll_thread, o->nonvectored,
		  o->force_async, o->nowait, o->nv_trace_level, o->nv_trace_block,
		  o->nv_trace_sched == NVT_SCHED_IDLE ? "idle" : "normal", o->nv_iowq_workers);
	nv_kv_add(l, "files", "%u", td->o.nr_files);
	for_each_file(td, f, i) {
		char key[64];
		struct stat st;

		snprintf(key, sizeof(key), "file.%u.path", i);
		nv_kv_add(l, key, "%s", f->file_name);
		if (stat(f->file_name, &st))
			continue;
		snprintf(key, sizeof(key), "file.%u.kind", i);
		nv_kv_add(l, key, "%s", S_ISCHR(st.st_mode) ? "nvme-char" :
			  S_ISBLK(st.st_mode) ? "block" : "file");
		nv_nvme_describe(td, f, i, l, "");
	}
}

int nv_trace_open(struct thread_data *td, struct nv_data *ld)
{
	struct nv_options *o = td->eo;
	struct nvt_writer_opts wo = {
		.zlevel = (int)o->nv_trace_level,
		.block_records = o->nv_trace_block,
		.sched = o->nv_trace_sched == NVT_SCHED_IDLE ? NVT_SCHED_IDLE : NVT_SCHED_NORMAL,
	};
	struct nv_kvlist hdr = { 0 };
	char path[4096];
	struct stat st;
	int ret;

	if (!o->nv_trace || !*o->nv_trace)
		return 0;
	if (stat(o->nv_trace, &st) || !S_ISDIR(st.st_mode)) {
		log_err("nvengine: nv_trace=%s: not a directory (%s); create it first\n", o->nv_trace,
			errno ? strerror(errno) : "not a directory");
		td_verror(td, ENOTDIR, "nvengine: nv_trace");
		return 1;
	}
	ret = nv_trace_filename(path, sizeof(path), o->nv_trace, td->o.name, td->thread_number);
	if (ret) {
		log_err("nvengine: nv_trace=%s: trace file name too long\n", o->nv_trace);
		td_verror(td, -ret, "nvengine: nv_trace");
		return 1;
	}
	if (td->o.nr_files > 256)
		log_err("nvengine: %s: the job has %u files; the trace numbers files 0..255, "
			"files 255 and up share number 255\n", path, td->o.nr_files);
	nv_trace_header(td, ld, &hdr);
	if (hdr.oom) {
		nv_kv_free(&hdr);
		td_verror(td, ENOMEM, "nvengine: trace header");
		return 1;
	}
	ret = nvt_writer_open(&ld->trace, path, hdr.kv, hdr.n, &wo);
	nv_kv_free(&hdr);
	if (ret) {
		log_err("nvengine: cannot create trace %s: %s\n", path, strerror(-ret));
		td_verror(td, -ret, "nvengine: nv_trace");
		return 1;
	}
	ld->trace_path = strdup(path);
	return 0;
}

/* fio direction (and passthrough write mode) to the trace's operation. */
static uint8_t nv_trace_op(struct thread_data *td, const struct io_u *io_u)
{
	switch (io_u->ddir) {
	case DDIR_READ:
		return NVT_OP_READ;
	case DDIR_WRITE:
		return nv_write_op(td, io_u);
	case DDIR_TRIM:
		return NVT_OP_TRIM;
	default:
		return NVT_OP_FLUSH;	/* fsync, fdatasync, sync_file_range */
	}
}

/* Report a trace failure once and fail the job. */
static int nv_trace_fail(struct thread_data *td, struct nv_data *ld, int err)
{
	if (!ld->trace_failed) {
		ld->trace_failed = 1;
		log_err("nvengine: trace failed, stopping the job: %s\n", nvt_writer_strerror(ld->trace));
		td_verror(td, -err, "nvengine: trace write");
	}
	return err;
}

int nv_trace_io(struct thread_data *td, struct nv_data *ld, struct io_u *io_u,
		int res, uint64_t now)
{
	struct nv_file *nf = nv_file_of(io_u->file);
	struct nvt_record r;
	int ret;

	if (!ld->trace)
		return 0;
	r.submit_ns = ld->submit_ns[io_u->index];
	r.complete_ns = now;
	r.offset = io_u->offset;
	r.length = (uint32_t)io_u->xfer_buflen;
	/* passthrough: 0 or the NVMe status; io_uring: -errno or bytes done */
	if (nf && nf->kind == NV_TARGET_NVME_CHAR)
		r.status = res;
	else
		r.status = res < 0 ? res : 0;
	r.qd = ld->submit_qd[io_u->index];
	r.op = nv_trace_op(td, io_u);
	r.file = io_u->file->fileno > 255 ? 255 : (uint8_t)io_u->file->fileno;
	ret = nvt_writer_append(ld->trace, &r);
	return ret ? nv_trace_fail(td, ld, ret) : 0;
}

void nv_trace_ramp_end(struct nv_data *ld)
{
	uint64_t t;

	do	/* after the last ramp IO's stamp even on a coarse clock */
		t = nv_now_ns();
	while (t <= ld->last_submit_ns);
	ld->ramp_end_ns = t;
	ld->ramp_marked = 1;
}

void nv_trace_close(struct thread_data *td, struct nv_data *ld)
{
	struct nv_kvlist foot = { 0 };
	struct fio_file *f;
	char err[512] = "";
	unsigned int i;
	int ret;

	if (!ld->trace)
		return;
	nv_kv_add(&foot, "clock.end_monotonic_ns", "%llu", (unsigned long long)nv_now_ns());
	nv_kv_add(&foot, "job.error", "%d", td->error);
	if (ld->ramp_marked)
		nv_kv_add(&foot, "job.ramp_end_ns", "%llu", (unsigned long long)ld->ramp_end_ns);
	for_each_file(td, f, i)
		nv_nvme_describe(td, f, i, &foot, "after");
	ret = nvt_writer_close_msg(ld->trace, foot.oom ? NULL : foot.kv, foot.oom ? 0 : foot.n,
				   err, sizeof(err));
	ld->trace = NULL;
	nv_kv_free(&foot);
	if (ret && !ld->trace_failed) {
		log_err("nvengine: trace %s could not be completed: %s\n",
			ld->trace_path ? ld->trace_path : "", err);
		td_verror(td, -ret, "nvengine: trace close");
	}
	free(ld->trace_path);
	ld->trace_path = NULL;
}
