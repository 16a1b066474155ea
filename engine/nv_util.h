/*
 * nv_util.h - small inline helpers shared by the engine's files.
 */
#ifndef NV_UTIL_H
#define NV_UTIL_H

#include <stdint.h>
#include <time.h>

/*
 * The engine's clock: CLOCK_MONOTONIC in nanoseconds.  Every trace timestamp
 * comes from here (the trace header names the clock and pairs it with
 * CLOCK_REALTIME so traces from several jobs or hosts line up).
 */
static inline uint64_t nv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t nv_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
