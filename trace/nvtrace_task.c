/*
 * nvtrace_task.c - a thread, or a task of its own session that shares the
 * caller's memory (nvtrace_task.h says why and what it may do).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/nvtrace_futex.h"
#include "trace/nvtrace_task.h"

/*
 * ASan keeps the poison of a killed task's stack frames in its shadow (no
 * epilogue ran), and a later task's stack may be mapped at the same place:
 * clear the shadow of a task stack when it is mapped and unmapped.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define STACK_CLEAN(p, n)	ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define STACK_CLEAN(p, n)	((void)(p), (void)(n))
#endif

enum { DONOR_STARTING, DONOR_PARKED, DONOR_RELEASED };

#define TASK_STACK	(8u << 20)	/* as a thread's default; MAP_NORESERVE */
#define TASK_GUARD	(64u << 10)

/*
 * The donor: publishes its thread pointer, then parks until released.  From
 * the moment it is parked until the task has exited it must not touch its
 * thread-local state (the task uses it): signals blocked, nothing but futex
 * waits, which write errno only on a return that comes after the release.
 * Return: NULL.
 */
static void *donor_main(void *arg)
{
	struct nvt_task *t = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "nvtrace-donor");	/* ps -L: not an IO thread */
	t->tp = __builtin_thread_pointer();
	nvt_futex_set(&t->donor, DONOR_PARKED);
	while (nvt_futex_get(&t->donor) != DONOR_RELEASED)
		nvt_futex_wait(&t->donor, DONOR_PARKED, NULL);
	return NULL;
}

/* Write nice to this task's autogroup, best effort.  Return: nothing. */
static void set_autogroup_nice(int nice)
{
	char s[16];
	int fd, n;

	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = snprintf(s, sizeof(s), "%d", nice);
	if (write(fd, s, (size_t)n) < 0) {
		/* best effort: the group keeps nice 0 */
	}
	close(fd);
}

/* The own-session task's first function (clone(2)).  Return: 0. */
static int task_main(void *arg)
{
	struct nvt_task *t = arg;
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	t->session_err = setsid() < 0 ? -errno : 0;
	if (!t->session_err && t->autogroup_nice)
		set_autogroup_nice(t->autogroup_nice);
	t->fn(t->arg);
	return 0;
}

/* The own-session part of nvt_task_start.  Return: 0 or -errno. */
static int start_own_session(struct nvt_task *t)
{
	int err;

	t->stack_len = TASK_STACK;
	t->stack = mmap(NULL, t->stack_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
	if (t->stack == MAP_FAILED) {
		t->stack = NULL;
		return -errno;
	}
	STACK_CLEAN(t->stack, t->stack_len);
	if (mprotect(t->stack, TASK_GUARD, PROT_NONE)) {
		err = -errno;
		goto unmap;
	}
	err = -pthread_create(&t->thread, NULL, donor_main, t);
	if (err)
		goto unmap;
	while (nvt_futex_get(&t->donor) == DONOR_STARTING)
		nvt_futex_wait(&t->donor, DONOR_STARTING, NULL);

	t->alive = 1;
	t->pid = clone(task_main, (char *)t->stack + t->stack_len,
		       CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SYSVSEM | CLONE_SETTLS |
		       CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID,
		       t, &t->alive, t->tp, &t->alive);
	if (t->pid < 0) {
		err = -errno;
		t->alive = 0;
		goto release;
	}
	return 0;
release:
	nvt_futex_set(&t->donor, DONOR_RELEASED);
	pthread_join(t->thread, NULL);
unmap:
	STACK_CLEAN(t->stack, t->stack_len);
	munmap(t->stack, t->stack_len);
	t->stack = NULL;
	return err;
}

int nvt_task_start(struct nvt_task *t, void *(*fn)(void *), void *arg, bool own_session,
		   int autogroup_nice)
{
	int err;

	memset(t, 0, sizeof(*t));
	t->fn = fn;
	t->arg = arg;
	t->own_session = own_session;
	t->autogroup_nice = autogroup_nice;
	err = own_session ? start_own_session(t) : -pthread_create(&t->thread, NULL, fn, arg);
	t->started = !err;
	return err;
}

bool nvt_task_running(const struct nvt_task *t)
{
	if (!t->own_session)
		return t->started;
	return __atomic_load_n(&t->alive, __ATOMIC_ACQUIRE) != 0;
}

int nvt_task_signal(const struct nvt_task *t)
{
	siginfo_t si;

	if (!t->own_session || !t->started || nvt_task_running(t))
		return 0;
	for (int i = 0; i < 1000; i++) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)t->pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL))
			return 0;
		if (si.si_pid == t->pid)
			return si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED ?
			       si.si_status : 0;
		usleep(1000);
	}
	return 0;
}

int nvt_task_join(struct nvt_task *t)
{
	int st = 0, ret = 0;

	if (!t->started)
		return 0;
	t->started = false;
	if (!t->own_session) {
		pthread_join(t->thread, NULL);
		return 0;
	}
	for (;;) {
		pid_t r = waitpid(t->pid, &st, __WALL);

		if (r == t->pid) {
			if (WIFSIGNALED(st))
				ret = WTERMSIG(st);
			break;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* reaped by someone else's waitpid(-1, __WALL): wait for the exit itself */
		while (nvt_task_running(t))
			usleep(1000);
		break;
	}
	nvt_futex_set(&t->donor, DONOR_RELEASED);
	pthread_join(t->thread, NULL);
	STACK_CLEAN(t->stack, t->stack_len);
	munmap(t->stack, t->stack_len);
	t->stack = NULL;
	return ret;
}
