/*
 * nvtrace_proc.h - the trace writer as a process of its own (private to
 * trace/): the memory it shares with the IO thread, the locks that work
 * across the two processes, and its start, end and death.
 *
 * Why a process: fio starts each job process in a session of its own, and
 * with the kernel's autogroup scheduling (kernel.sched_autogroup_enabled=1,
 * Debian's default) every thread of that process shares one scheduling
 * group.  A writer thread there held the job's io-wq workers off the CPU
 * for up to a second (docs/trace.md, "What survives what").  A writer
 * process in a session of its own is a group of its own.
 */
#ifndef NVTRACE_PROC_H
#define NVTRACE_PROC_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Map len bytes of zeroed memory shared with the writer process to be
 * started (MAP_SHARED, nothing reserved: pages cost memory once touched).
 * Return: the address, or NULL (errno set).
 */
void *nvt_shm_map(size_t len);

/* Unmap what nvt_shm_map gave (p may be NULL).  Return: nothing. */
void nvt_shm_unmap(void *p, size_t len);

/*
 * A mutex and condition variables (CLOCK_MONOTONIC deadlines) in shared
 * memory that work across processes; the mutex is robust, so the survivor
 * of a process that died holding it gets it (nvt_proc_lock).
 * Return: 0 or -errno.
 */
int nvt_proc_mutex_init(pthread_mutex_t *mu);
int nvt_proc_cond_init(pthread_cond_t *cv);

/*
 * Lock mu; wait on cv until woken or until the CLOCK_MONOTONIC deadline
 * at_ns (0: none; mu held on return either way).  A lock taken over from a
 * process that died holding it is made consistent.
 * Return: 0; -EOWNERDEAD when the holder died; -ETIMEDOUT (wait only).
 */
int nvt_proc_lock(pthread_mutex_t *mu);
int nvt_proc_wait(pthread_cond_t *cv, pthread_mutex_t *mu, uint64_t at_ns);

/*
 * Start fn(arg) in a child process in a session of its own: named name,
 * killed when the thread that started it ends, signal handlers back to the
 * defaults and ignored signals still ignored (as exec leaves them), SIGINT
 * ignored (a ^C is for fio, which then closes the trace), SIGXFSZ and
 * SIGPIPE too (write(2) says it),
 * every file descriptor but 0-2 and keep_fd closed.  The child ends with
 * _exit(0) after fn returns, running nothing of its parent's.
 * *pid (in memory shared with the child) is set in the child too, before
 * fn runs.  Return: 0 with *pid set, or -errno (fork's).
 */
int nvt_proc_start(pid_t *pid, const char *name, int keep_fd, void (*fn)(void *), void *arg);

/*
 * Whether child pid has ended, waiting for it with block.  Once it has,
 * *status gets waitpid's status (-1 if another reaped it) and the call
 * must not be repeated.  Return: true when it has ended.
 */
bool nvt_proc_ended(pid_t pid, bool block, int *status);

/*
 * How a child that ended with status ended, if not by returning, as
 * " (killed by signal 9, Killed)" or " (exit status 3)"; "" for a clean
 * exit or an unknown status (-1).  Return: buf.
 */
const char *nvt_proc_how(int status, char *buf, size_t len);

#endif
