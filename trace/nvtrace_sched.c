/*
 * nvtrace_sched.c - what the trace writer asks the scheduler: whether it may
 * leave SCHED_IDLE again, and its run-queue wait (nvtrace_sched.h).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "trace/nvtrace_sched.h"

/*
 * Whether this thread may leave SCHED_IDLE again once in it: the kernel
 * lets it when its nice value is within RLIMIT_NICE or with CAP_SYS_NICE.
 * Return: true or false.
 */
bool nvt_sched_can_leave_idle(void)
{
	unsigned long long cap = 0;
	struct rlimit rl;
	char line[128];
	FILE *f;
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);	/* this thread's, on Linux */
	if (!errno && !getrlimit(RLIMIT_NICE, &rl) &&
	    (rl.rlim_cur == RLIM_INFINITY || (rlim_t)(20 - nice) <= rl.rlim_cur))
		return true;
	f = fopen("/proc/thread-self/status", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			break;
	fclose(f);
	return cap & (1ull << 23);	/* CAP_SYS_NICE */
}

/*
 * The writer thread's run-queue wait so far, from its own schedstat (second
 * field), open as fd; 0 if unknown.  Return: nanoseconds.
 */
uint64_t nvt_sched_runq_wait_ns(int fd)
{
	unsigned long long run = 0, wait = 0;
	char buf[96];
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return 0;
	return wait;
}
