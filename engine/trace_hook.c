/*
 * trace_hook.c - the engine's per-IO trace.
 *
 * With nv_trace=DIR every IO the job performs is appended, at completion, to
 * DIR/JOBNAME.THREAD.nvt through the shared trace codec (trace/nvtrace.h):
 * the IO thread only writes a 40-byte record in place (nv_trace_io, inline
 * in trace_hook.h); a background thread compresses and writes.  The header
 * describes the job, its targets and the clock; the footer adds what is
 * known only at the end.  Called by the hooks (engine/hooks*.c) only, with
 * the part's own state (struct nv_trace).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/trace_hook.h"
#include "sys/sys_ring.h"
#include "trace/nvtrace_name.h"

int nv_trace_init(struct nv_trace *tr, unsigned int depth)
{
	tr->sub = calloc(depth, sizeof(*tr->sub));
	return tr->sub ? 0 : -ENOMEM;
}

/* Describe the job and its targets for the trace header.  Return: nothing (l->oom). */
static void nv_trace_header(struct thread_data *td, const struct nv_trace *tr,
			    const struct nv_trace_job *job, int autogroup, struct nvt_kvlist *l)
{
	struct nv_options *o = td->eo;
	struct fio_file *f;
	char host[256] = "";
	struct utsname u;
	unsigned int i;

	nvt_kvlist_add(l, "job.name", "%s", td->o.name ? td->o.name : "");
	nvt_kvlist_add(l, "job.number", "%u", td->thread_number);
	nvt_kvlist_add(l, "job.subjob", "%u", td->subjob_number);
	nvt_kvlist_add(l, "job.numjobs", "%u", td->o.numjobs);
	nvt_kvlist_add(l, "job.groupid", "%u", td->groupid);
	nvt_kvlist_add(l, "job.pid", "%d", (int)getpid());
	nvt_kvlist_add(l, "job.iodepth", "%u", td->o.iodepth);
	nvt_kvlist_add(l, "job.buf_align", "%u", job->buf_align);
	nvt_kvlist_add(l, "job.direct", "%u", td->o.odirect);
	nvt_kvlist_add(l, "job.thread", "%u", td->o.use_thread ? 1 : 0);
	nvt_kvlist_add(l, "job.rw", "%s%s%s", td_read(td) ? "read" : "",
		       td_write(td) ? "write" : "", td_trim(td) ? "trim" : "");
	nvt_kvlist_add(l, "job.random", "%d", td_random(td) ? 1 : 0);
	nvt_kvlist_add(l, "job.bs", "%llu,%llu,%llu", (unsigned long long)td->o.max_bs[DDIR_READ],
		       (unsigned long long)td->o.max_bs[DDIR_WRITE],
		       (unsigned long long)td->o.max_bs[DDIR_TRIM]);
	if (td->o.ramp_time)
		nvt_kvlist_add(l, "job.ramp_time_us", "%llu", (unsigned long long)td->o.ramp_time);
	nvt_kvlist_add(l, "fio.version", "%s", fio_version_string);
	if (!uname(&u))
		nvt_kvlist_add(l, "kernel", "%s", u.release);
	if (autogroup >= 0)
		nvt_kvlist_add(l, "kernel.sched_autogroup", "%d", autogroup);
	nvt_kvlist_add(l, "ring.features", "%s", job->ring_features);
	if (!gethostname(host, sizeof(host) - 1))
		nvt_kvlist_add(l, "host", "%s", host);
	nvt_clock_header(&tr->clock, l);
	nvt_kvlist_add(l, "engine", "nvengine");
	nvt_kvlist_add(l, "engine.options",
		  "hipri=%u fixedbufs=%u registerfiles=%u sqthread_poll=%u nonvectored=%d "
		  "force_async=%u nowait=%u nv_trace_level=%u nv_trace_codec=%s nv_trace_block=%u "
		  "nv_trace_sched=%s nv_trace_sync=%u nv_trace_buffer_ms=%u "
		  "nv_iowq_workers=%u nv_trace_clock=%s nv_nop=%u nv_trace_ab=%u",
		  o->hipri, o->fixedbufs, o->registerfiles, o->sqpoll_thread, o->nonvectored,
		  o->force_async, o->nowait, o->nv_trace_level,
		  o->nv_trace_codec == NVT_WRITER_ZLIB ? "zlib" : "zstd", o->nv_trace_block,
		  o->nv_trace_sched == NVT_SCHED_IDLE ? "idle" :
		  o->nv_trace_sched == NVT_SCHED_AUTO ? "auto" : "normal", o->nv_trace_sync,
		  o->nv_trace_buffer_ms, o->nv_iowq_workers,
		  o->nv_trace_clock == NV_TRACE_CLOCK_GETTIME ? "clock_gettime" : "auto",
		  o->nv_nop, o->nv_trace_ab);
	nvt_kvlist_add(l, "files", "%u", td->o.nr_files);
	for_each_file(td, f, i) {
		char key[64];
		struct stat st;

		snprintf(key, sizeof(key), "file.%u.path", i);
		nvt_kvlist_add(l, key, "%s", f->file_name);
		if (stat(f->file_name, &st))
			continue;
		snprintf(key, sizeof(key), "file.%u.kind", i);
		nvt_kvlist_add(l, key, "%s", S_ISCHR(st.st_mode) ? "nvme-char" :
			  S_ISBLK(st.st_mode) ? "block" : "file");
	}
}

/*
 * Whether the job's trace writer runs in a session of its own (nvtrace.h,
 * own_session): for a job that is a process leading its own session (fio
 * setsid()s job processes) under autogroup scheduling, where a writer thread
 * would share the job's CPU share with the io-wq workers running its IO.
 * autogroup: nv_sched_autogroup()'s answer.
 * Return: true or false.
 */
static bool nv_trace_own_session(const struct thread_data *td, int autogroup)
{
	return !td->o.use_thread && autogroup == 1 && getsid(0) == getpid();
}

int nv_trace_open(struct thread_data *td, struct nv_trace *tr, const struct nv_trace_job *job)
{
	struct nv_options *o = td->eo;
	struct nvt_writer_opts wo = {
		.zlevel = (int)o->nv_trace_level,
		/* checked by the writer */
		.codec = (enum nvt_writer_codec)o->nv_trace_codec,
		.block_records = o->nv_trace_block,
		.sched = o->nv_trace_sched == NVT_SCHED_IDLE ||
			 o->nv_trace_sched == NVT_SCHED_AUTO ?
			 (enum nvt_writer_sched)o->nv_trace_sched : NVT_SCHED_NORMAL,
		.sync_ms = o->nv_trace_sync,
		.buffer_ms = o->nv_trace_buffer_ms,
	};
	struct nvt_kvlist hdr = { 0 };
	char path[4096], msg[4200];
	int ret, created, autogroup;

	if (!o->nv_trace || !*o->nv_trace)
		return 0;
	autogroup = nv_sched_autogroup();
	wo.own_session = nv_trace_own_session(td, autogroup);
	ret = nv_trace_dir_prepare(o->nv_trace, &created, msg, sizeof(msg));
	if (ret) {
		log_err("nvengine: %s\n", msg);
		td_verror(td, -ret, "nvengine: nv_trace");
		return 1;
	}
	if (created)
		log_err("nvengine: created the trace directory %s\n", o->nv_trace);
	ret = nv_trace_filename(path, sizeof(path), o->nv_trace, td->o.name, td->thread_number);
	if (ret) {
		log_err("nvengine: nv_trace=%s: trace file name too long\n", o->nv_trace);
		td_verror(td, -ret, "nvengine: nv_trace");
		return 1;
	}
	if (td->o.nr_files > 256)
		log_err("nvengine: %s: the job has %u files; the trace numbers files 0..255, "
			"files 255 and up share number 255\n", path, td->o.nr_files);
	nvt_clock_open(&tr->clock, o->nv_trace_clock == NV_TRACE_CLOCK_GETTIME ?
		       "nv_trace_clock=clock_gettime" : NULL);
	nv_trace_header(td, tr, job, autogroup, &hdr);
	nvt_kvlist_extend(&hdr, job->devices);
	if (hdr.oom) {
		nvt_kvlist_free(&hdr);
		td_verror(td, ENOMEM, "nvengine: trace header");
		return 1;
	}
	ret = nvt_writer_open(&tr->w, path, hdr.kv, hdr.n, &wo);
	nvt_kvlist_free(&hdr);
	if (ret) {
		log_err("nvengine: cannot create trace %s: %s\n", path, strerror(-ret));
		td_verror(td, -ret, "nvengine: nv_trace");
		return 1;
	}
	tr->app = nvt_writer_appender(tr->w);
	tr->path = strdup(path);
	tr->nvme_write_op = job->nvme_write_op;
	tr->ab.n = o->nv_trace_ab;
	tr->ab.on = 1;
	tr->ab.w = tr->w;
	return 0;
}

/* This thread's CPU time in ns.  Return: it (0 if the clock cannot be read). */
static uint64_t nv_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The first reap starts the first window (the job's setup belongs to no
 * window); a window that has seen its N completions ends at the reap that
 * brought them, and the other kind begins.  The last window, cut short by
 * the end of the job, is not counted.
 */
void nv_trace_ab_tick(struct nv_trace *tr, unsigned int done)
{
	struct nv_trace_ab *ab = &tr->ab;
	uint64_t cpu;

	if (ab->cpu0 && done < ab->left) {
		ab->left -= done;
		return;
	}
	cpu = nv_thread_cpu_ns();
	if (ab->cpu0) {
		ab->cpu_ns[ab->on] += cpu - ab->cpu0;
		ab->ios[ab->on] += ab->n - ab->left + done;
		ab->windows[ab->on]++;
		ab->on ^= 1;
		if (!tr->failed)
			tr->w = ab->on ? ab->w : NULL;
	}
	ab->cpu0 = cpu;
	ab->left = ab->n;
}

/* The windows' sums for the footer.  Return: nothing. */
static void nv_trace_ab_footer(const struct nv_trace_ab *ab, struct nvt_kvlist *l)
{
	static const char *const kind[2] = { "off", "on" };

	nvt_kvlist_add(l, "ab.window_ios", "%u", ab->n);
	for (unsigned int k = 0; k < 2; k++) {
		char key[32];

		snprintf(key, sizeof(key), "ab.%s.windows", kind[k]);
		nvt_kvlist_add(l, key, "%llu", (unsigned long long)ab->windows[k]);
		snprintf(key, sizeof(key), "ab.%s.ios", kind[k]);
		nvt_kvlist_add(l, key, "%llu", (unsigned long long)ab->ios[k]);
		snprintf(key, sizeof(key), "ab.%s.cpu_ns", kind[k]);
		nvt_kvlist_add(l, key, "%llu", (unsigned long long)ab->cpu_ns[k]);
	}
}

int nv_trace_failed(struct thread_data *td, struct nv_trace *tr)
{
	int err = atomic_load_explicit(tr->app->err, memory_order_acquire);

	if (!tr->failed) {
		tr->failed = 1;
		log_err("nvengine: trace failed, stopping the job: %s\n",
			nvt_writer_strerror(tr->w));
		td_verror(td, -err, "nvengine: trace write");
	}
	return err;
}

void nv_trace_ramp_end(struct nv_trace *tr)
{
	uint64_t t;

	do	/* after the last ramp IO's stamp even on a coarse clock */
		t = nv_trace_now(tr);	/* the records' clock */
	while (t <= tr->last_submit_ns);
	tr->ramp_end_ns = t;
	tr->ramp_marked = 1;
}

/* Write the footer and close the file.  Return: nothing (a failure is reported). */
static void nv_trace_finish(struct thread_data *td, struct nv_trace *tr,
			    const struct nvt_kvlist *after)
{
	struct nvt_kvlist foot = { 0 };
	char err[512] = "";
	int ret, workers;

	nvt_clock_footer(&tr->clock, &foot);
	nvt_kvlist_add(&foot, "job.error", "%d", td->error);
	/* the job thread's io-wq workers, kept 5 s after their last IO: its IO ran there */
	if ((workers = nv_ring_iowq_workers((pid_t)syscall(SYS_gettid))) >= 0)
		nvt_kvlist_add(&foot, "iowq.workers", "%d", workers);
	if (tr->ramp_marked)
		nvt_kvlist_add(&foot, "job.ramp_end_ns", "%llu",
			       (unsigned long long)tr->ramp_end_ns);
	if (tr->ab.n)
		nv_trace_ab_footer(&tr->ab, &foot);
	if (after)
		nvt_kvlist_extend(&foot, after);
	ret = nvt_writer_close_msg(tr->w, foot.oom ? NULL : foot.kv, foot.oom ? 0 : foot.n,
				   err, sizeof(err));
	tr->w = NULL;
	nvt_kvlist_free(&foot);
	if (ret && !tr->failed) {
		log_err("nvengine: trace %s could not be completed: %s\n",
			tr->path ? tr->path : "", err);
		td_verror(td, -ret, "nvengine: trace close");
	}
}

void nv_trace_close(struct thread_data *td, struct nv_trace *tr, const struct nvt_kvlist *after)
{
	if (tr->ab.n)
		tr->w = tr->ab.w;	/* an off window hid it */
	if (tr->w)
		nv_trace_finish(td, tr, after);
	free(tr->path);
	free(tr->sub);
	tr->path = NULL;
	tr->sub = NULL;
}
