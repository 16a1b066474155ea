/*
 * nvtrace_proc.c - the trace writer's process: shared memory, locks across
 * processes, its start in a session of its own and its end
 * (nvtrace_proc.h).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_proc.h"

void *nvt_shm_map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void nvt_shm_unmap(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

int nvt_proc_mutex_init(pthread_mutex_t *mu)
{
	pthread_mutexattr_t a;
	int err;

	err = pthread_mutexattr_init(&a);
	if (err)
		return -err;
	err = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	if (!err)
		err = pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (!err)
		err = pthread_mutex_init(mu, &a);
	pthread_mutexattr_destroy(&a);
	return -err;
}

int nvt_proc_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t a;
	int err;

	err = pthread_condattr_init(&a);
	if (err)
		return -err;
	err = pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	if (!err)
		err = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(cv, &a);
	pthread_condattr_destroy(&a);
	return -err;
}

/* A lock result: the holder's death made good.  Return: 0, -EOWNERDEAD or -err. */
static int lock_result(pthread_mutex_t *mu, int err)
{
	if (err == EOWNERDEAD) {
		pthread_mutex_consistent(mu);
		return -EOWNERDEAD;
	}
	return -err;
}

int nvt_proc_lock(pthread_mutex_t *mu)
{
	return lock_result(mu, pthread_mutex_lock(mu));
}

int nvt_proc_wait(pthread_cond_t *cv, pthread_mutex_t *mu, uint64_t at_ns)
{
	struct timespec dl;

	if (!at_ns)
		return lock_result(mu, pthread_cond_wait(cv, mu));
	dl.tv_sec = (time_t)(at_ns / 1000000000ull);
	dl.tv_nsec = (long)(at_ns % 1000000000ull);
	return lock_result(mu, pthread_cond_timedwait(cv, mu, &dl));
}

/* Close every descriptor from lo to hi (inclusive) in the child.  Return: nothing. */
static void close_fds(unsigned lo, unsigned hi)
{
	DIR *d;
	struct dirent *e;

	if (lo > hi || !syscall(SYS_close_range, lo, hi, 0))
		return;
	d = opendir("/proc/self/fd");	/* kernels before 5.9 */
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		unsigned long fd = strtoul(e->d_name, &end, 10);

		if (!*end && e->d_name[0] != '.' && fd >= lo && fd <= hi &&
		    (int)fd != dirfd(d))
			close((int)fd);
	}
	closedir(d);
}

/* The child's start: what it must not keep of its parent.  Return: nothing. */
static void child_setup(const char *name, int keep_fd, pid_t parent)
{
	struct sigaction sa;
	sigset_t none;

	setsid();	/* a session, hence an autogroup, of its own */
	prctl(PR_SET_NAME, name);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* the parent ended before PDEATHSIG was set */
		_exit(0);
	/* as exec(2) leaves them: handlers (fio's code) back to the default,
	 * ignored signals still ignored */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction old;

		if (s != SIGKILL && s != SIGSTOP && !sigaction(s, NULL, &old) &&
		    old.sa_handler != SIG_IGN)
			sigaction(s, &sa, NULL);	/* fails quietly on the reserved ones */
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);	/* a file-size limit is write's EFBIG, not a death */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (keep_fd < 3) {
		close_fds(3, ~0u);
	} else {
		close_fds(3, (unsigned)keep_fd - 1);
		close_fds((unsigned)keep_fd + 1, ~0u);
	}
}

int nvt_proc_start(pid_t *pid, const char *name, int keep_fd, void (*fn)(void *), void *arg)
{
	pid_t parent = getpid(), p;

	p = fork();
	if (p < 0)
		return -errno;
	if (p == 0) {
		*pid = getpid();	/* shared memory: set before fn, whatever the parent's pace */
		child_setup(name, keep_fd, parent);
		fn(arg);
		_exit(0);
	}
	*pid = p;
	return 0;
}

bool nvt_proc_ended(pid_t pid, bool block, int *status)
{
	int st = 0;
	pid_t r;

	do
		r = waitpid(pid, &st, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == pid) {
		*status = st;
		return true;
	}
	if (r == 0)
		return false;
	/* ECHILD: reaped by another (or SIGCHLD ignored): gone once kill says so */
	if (block || (kill(pid, 0) && errno == ESRCH)) {
		*status = -1;
		return true;
	}
	return false;
}

const char *nvt_proc_how(int status, char *buf, size_t len)
{
	if (status == -1 || (WIFEXITED(status) && !WEXITSTATUS(status)))
		snprintf(buf, len, "%s", "");
	else if (WIFSIGNALED(status))
		snprintf(buf, len, " (killed by signal %d, %s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, " (exit status %d)", WEXITSTATUS(status));
	return buf;
}
