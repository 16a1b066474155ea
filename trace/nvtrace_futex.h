/*
 * nvtrace_futex.h - futex(2) words shared by the trace writer's IO thread and
 * its writer, a thread or a task of its own session that shares the memory
 * (nvtrace_task.h).  Private futexes: both sides share one address space.
 * A word is a sequence number or a state, changed and read atomically.
 */
#ifndef NVTRACE_FUTEX_H
#define NVTRACE_FUTEX_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_clock.h"

/*
 * Sleep while *word == val, until woken or (abs not NULL) CLOCK_MONOTONIC
 * reaches *abs.  Spurious returns happen: callers recheck.  Return: 0, or
 * -ETIMEDOUT, -EAGAIN (*word was not val), -EINTR.
 */
static inline int nvt_futex_wait(uint32_t *word, uint32_t val, const struct timespec *abs)
{
	long r = syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, val, abs, NULL,
			 FUTEX_BITSET_MATCH_ANY);

	return r < 0 ? -errno : 0;
}

/* Wake every sleeper on word.  Return: nothing. */
static inline void nvt_futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

static inline uint32_t nvt_futex_get(const uint32_t *word)
{
	return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/* Store val in word and wake every sleeper.  Return: nothing. */
static inline void nvt_futex_set(uint32_t *word, uint32_t val)
{
	__atomic_store_n(word, val, __ATOMIC_RELEASE);
	nvt_futex_wake(word);
}

/* The CLOCK_MONOTONIC time ms from now, for nvt_futex_wait.  Return: it. */
static inline struct timespec nvt_futex_in_ms(unsigned ms)
{
	return nvt_ns_timespec(nvt_mono_ns() + ms * 1000000ull);
}

#endif
