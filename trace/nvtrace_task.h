/*
 * nvtrace_task.h - the trace writer's flow of control: a thread, or a task
 * that shares the thread's memory but is scheduled in a group of its own.
 *
 * Why: under the kernel's autogroup scheduling (kernel.sched_autogroup_enabled
 * = 1, Debian's default) every session is one scheduling group with one CPU
 * share, and fio setsid()s each job process.  A writer thread then competes
 * inside the job's group with the io-wq workers that run the job's IO, which
 * measured stalls of that IO of up to a second (docs/trace.md).  A task of
 * its own session is a group of its own.
 *
 * An own-session task is a process (clone(2) without CLONE_THREAD) that
 * shares the caller's address space, file table and file system information
 * (CLONE_VM | CLONE_FILES | CLONE_FS): the same pointers, mutexes and
 * condition variables as a thread, no copy-on-write, no exec.  It calls
 * setsid() first.  glibc's per-thread state (errno, malloc's thread cache,
 * the robust-mutex list, the stack-protector canary) is lent by a donor
 * pthread made for the purpose, which publishes its thread pointer and then
 * parks with every signal blocked, touching nothing of its own until the
 * task has exited; the task runs with that thread pointer (CLONE_SETTLS).
 * So fn must not call what acts on "this thread" through glibc's thread
 * handle (pthread_self(), raise(), pthread_kill, pthread_setname_np): that
 * is the donor; system calls on "this task" (gettid(), prctl(PR_SET_NAME),
 * sched_setscheduler(0), kill(getpid())) are the task's own.
 * The task blocks every signal, and dies with the thread that started it
 * (PR_SET_PDEATHSIG): start and join it from one thread that outlives it.
 * Its exit signal is 0, so only nvt_task_join reaps it (waitpid __WALL).
 */
#ifndef NVTRACE_TASK_H
#define NVTRACE_TASK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct nvt_task {
	void *(*fn)(void *);
	void *arg;
	bool own_session;
	bool started;
	pthread_t thread;	/* the thread, or (own session) the donor */
	/* own session */
	pid_t pid;
	volatile pid_t alive;	/* the pid; the kernel zeroes it when the task exits */
	uint32_t donor;		/* futex word: DONOR_* in nvtrace_task.c */
	void *tp;		/* the donor's thread pointer */
	void *stack;
	size_t stack_len;
	int autogroup_nice;	/* own session: the new group's nice (0: left alone) */
	int session_err;	/* own session: -errno of setsid(), 0 when it worked */
};

/*
 * Start fn(arg) as a thread (own_session false) or as a task in a session of
 * its own (true; then autogroup_nice, when not 0, is written to the new
 * group's /proc/self/autogroup, best effort).  t is filled in and must stay
 * where it is until nvt_task_join.  Return: 0, or -errno (nothing started).
 */
int nvt_task_start(struct nvt_task *t, void *(*fn)(void *), void *arg, bool own_session,
		   int autogroup_nice);

/*
 * Whether the task is still running (a thread always counts as running:
 * its death ends the process).  Any thread may ask.  Return: true or false.
 */
bool nvt_task_running(const struct nvt_task *t);

/*
 * The signal that ended an own-session task that is no longer running,
 * without reaping it (waitid WNOWAIT; it may take a moment after running
 * turns false to become waitable: up to about a second is waited for).
 * Return: the signal, or 0 (it exited, is running, or is a thread).
 */
int nvt_task_signal(const struct nvt_task *t);

/*
 * Wait for the task to end and release what nvt_task_start took.  Return: 0
 * when fn returned; for an own-session task that died otherwise, the signal
 * that ended it as a positive number (its fn's work is then incomplete).
 */
int nvt_task_join(struct nvt_task *t);

#endif
