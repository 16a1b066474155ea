/*
 * nvtrace_sched.h - the trace writer's questions to the scheduler
 * (nv_trace_sched=auto and the footer's writer.runq_wait_ns).
 */
#ifndef NVTRACE_SCHED_H
#define NVTRACE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether the calling thread may leave SCHED_IDLE again once in it: the
 * kernel lets it when its nice value is within RLIMIT_NICE or with
 * CAP_SYS_NICE.  Return: true or false.
 */
bool nvt_sched_can_leave_idle(void);

/*
 * The run-queue wait so far of the thread whose /proc/.../schedstat is open
 * as fd (its second field); 0 if fd < 0 or unreadable.  Return: nanoseconds.
 */
uint64_t nvt_sched_runq_wait_ns(int fd);

#endif
