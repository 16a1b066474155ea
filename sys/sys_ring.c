/*
 * sys_ring.c - the engine's io_uring ring: setup, probe, io-wq limit,
 * features, the io-wq workers and autogroup (see sys_ring.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sys/sys_ring.h"

/*
 * The integer in /proc/sys file path (a kernel setting).
 * Return: it (0 or more), -errno when the file cannot be opened, or
 * -EINVAL when it holds no such number.
 */
static int sysctl_int(const char *path)
{
	FILE *fp = fopen(path, "re");
	int v = -1;

	if (!fp)
		return -errno;
	if (fscanf(fp, "%d", &v) != 1 || v < 0)
		v = -EINVAL;
	fclose(fp);
	return v;
}

int nv_ring_disabled_sysctl(void)
{
	int v = sysctl_int("/proc/sys/kernel/io_uring_disabled");

	return v < 0 ? -1 : v;
}

void nv_ring_setup_why(int err, unsigned int flags, int disabled, char *msg, size_t len)
{
	if (err == ENOSYS) {
		snprintf(msg, len, "this kernel has no io_uring (io_uring_setup: ENOSYS); "
			 "Linux 5.1+ built with CONFIG_IO_URING is needed");
	} else if (err == EPERM && disabled > 0) {
		snprintf(msg, len, "io_uring is disabled on this system "
			 "(kernel.io_uring_disabled=%d); set it to 0 "
			 "(sysctl -w kernel.io_uring_disabled=0)%s", disabled,
			 disabled == 1 ? " or run as a member of kernel.io_uring_group" : "");
	} else if (err == EPERM && (flags & IORING_SETUP_SQPOLL)) {
		snprintf(msg, len, "sqthread_poll needs CAP_SYS_NICE on this kernel "
			 "(io_uring_setup: EPERM)");
	} else if (err == EINVAL && (flags & (IORING_SETUP_SQE128 | IORING_SETUP_CQE32))) {
		snprintf(msg, len, "the kernel refused a 128-byte SQE ring: NVMe passthrough "
			 "needs Linux 5.19+");
	} else {
		snprintf(msg, len, "io_uring_setup failed: %s", strerror(err));
	}
}

/* The flags @o asks for, and those the engine adds where the kernel has them. */
static void nv_ring_params(const struct nv_ring_opts *o, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	if (o->iopoll)
		p->flags |= IORING_SETUP_IOPOLL;
	if (o->sqpoll) {
		p->flags |= IORING_SETUP_SQPOLL;
		if (o->sqpoll_cpu >= 0) {
			p->flags |= IORING_SETUP_SQ_AFF;
			p->sq_thread_cpu = (unsigned int)o->sqpoll_cpu;
		}
	}
	if (o->big_sqe)
		p->flags |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
	p->flags |= IORING_SETUP_CQSIZE;
	p->cq_entries = o->depth;
	p->flags |= IORING_SETUP_COOP_TASKRUN;
	if (!o->sqpoll)
		p->flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
}

int nv_ring_setup(struct nv_ring *r, const struct nv_ring_opts *o, char *err, size_t len)
{
	struct io_uring_params p;
	int ret;

	memset(r, 0, sizeof(*r));
	nv_ring_params(o, &p);
	for (;;) {
		unsigned int flags = p.flags;

		ret = io_uring_queue_init_params(o->depth, &r->ring, &p);
		if (ret != -EINVAL)
			break;
		p.flags = flags;
		if (p.flags & IORING_SETUP_DEFER_TASKRUN)
			p.flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
		else if (p.flags & IORING_SETUP_COOP_TASKRUN)
			p.flags &= ~IORING_SETUP_COOP_TASKRUN;
		else if (p.flags & IORING_SETUP_CQSIZE)
			p.flags &= ~IORING_SETUP_CQSIZE;
		else
			break;
	}
	if (ret < 0) {
		nv_ring_setup_why(-ret, p.flags, nv_ring_disabled_sysctl(), err, len);
		return ret;
	}
	r->ok = 1;
	r->flags = p.flags;
	/* Linux 5.18+: io_uring_enter() without an fd lookup; older kernels
	 * refuse it (-EINVAL) and the ring works as before. */
	r->fd_registered = io_uring_register_ring_fd(&r->ring) == 1;
	return 0;
}

int nv_ring_has_rw(struct nv_ring *r)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(&r->ring);
	int ret;

	if (!probe)
		return 0;
	ret = io_uring_opcode_supported(probe, IORING_OP_READ) &&
	      io_uring_opcode_supported(probe, IORING_OP_WRITE);
	io_uring_free_probe(probe);
	return ret;
}

int nv_ring_limit_iowq(struct nv_ring *r, unsigned int n)
{
	unsigned int v[2] = { n, n };

	return io_uring_register_iowq_max_workers(&r->ring, v);
}

void nv_ring_features(const struct nv_ring *r, char *buf, size_t len)
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
		if (r->flags & names[i].flag)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      names[i].name);
	if (r->fd_registered && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sREGISTERED_RING_FD", n ? "," : "");
	if (!n)
		snprintf(buf, len, "none");
}

int nv_ring_iowq_workers(pid_t tid)
{
	char want[32], path[64], comm[32];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(want, sizeof(want), "iou-wrk-%d\n", (int)tid);
	d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/comm", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;	/* a thread gone since the listing */
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

int nv_sched_autogroup(void)
{
	int v = sysctl_int("/proc/sys/kernel/sched_autogroup_enabled");

	return v > 1 ? -EINVAL : v;
}

void nv_ring_exit(struct nv_ring *r)
{
	if (r->ok)
		io_uring_queue_exit(&r->ring);
	r->ok = 0;
}
