/*
 * nvtrace_clock.h - the trace's timestamps from the CPU's time-stamp counter.
 *
 * A trace stores CLOCK_MONOTONIC nanoseconds.  Reading the TSC (rdtsc) costs
 * about half of a vDSO clock_gettime(), so where the TSC is invariant (it
 * ticks at one rate in every power state and on every CPU: CPUID
 * 0x80000007 EDX bit 8, the test fio's clocksource=cpu uses) the engine
 * stamps records with a linear map from ticks to CLOCK_MONOTONIC:
 *
 *   ns(t) = ns0 + ((t - tsc0) * mult) >> NVT_TSC_SHIFT    (signed t - tsc0)
 *
 * It is calibrated from two (ticks, CLOCK_MONOTONIC) pairs and then kept on
 * CLOCK_MONOTONIC by resyncs: every interval (doubling from the calibration
 * interval up to about one second) the caller reads a fresh pair, and the
 * map is re-anchored where it is (so it stays continuous and increasing)
 * with a slope that is the clock's rate since the previous pair plus the
 * correction that takes the difference seen back to zero over the next
 * interval (at most NVT_TSC_MAX_SLEW_PPM of the rate).  A difference over
 * NVT_TSC_MAX_ERR_NS means the TSC cannot be trusted (the caller then falls
 * back to clock_gettime).  The map is pure arithmetic; the tick source and
 * the pairs are nvt_tsc_read_pair's (x86-64).
 *
 * The policy on top (struct nvt_clock) picks the source for one trace: the
 * TSC where it is invariant and calibrates, else clock_gettime, and falls
 * back to clock_gettime for good when a resync finds the TSC off.  It also
 * writes the clock's header and footer keys (clock, clock.*;
 * docs/trace-format.md, Timestamps).
 */
#ifndef NV_TRACE_CLOCK_H
#define NV_TRACE_CLOCK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "trace/nvtrace_kv.h"

#define NVT_TSC_SHIFT		32
#define NVT_TSC_MAX_ERR_NS	100000	/* a resync further off than this: not trusted */
#define NVT_TSC_MAX_SLEW_PPM	500	/* the most a resync bends the slope */

struct nvt_tsc {
	uint64_t tsc0, ns0;		/* anchor of the current segment */
	uint64_t mult;			/* ns per tick << NVT_TSC_SHIFT */
	uint64_t next;			/* tick count of the next resync */
	uint64_t ref_tsc, ref_ns;	/* the last pair: the rate since */
	uint64_t interval, max_interval;	/* ticks between resyncs */
	uint64_t resyncs;		/* resyncs done */
	/* largest |CLOCK_MONOTONIC - ns(t)| seen at a resync */
	uint64_t max_err_ns;
};

/* ns(t): the current segment's map at tick count t (any t, before or after the anchor). */
static inline uint64_t nvt_tsc_to_ns(const struct nvt_tsc *c, uint64_t t)
{
	__int128 p = (__int128)(int64_t)(t - c->tsc0) * (__int128)c->mult;

	return c->ns0 + (uint64_t)(int64_t)(p >> NVT_TSC_SHIFT);
}

/*
 * Calibrate from pairs (t1, ns1) and (t2, ns2), t2 > t1, ns2 > ns1; the map
 * starts at the second pair; resyncs come after max(t2 - t1, 1 ms of
 * ticks), doubling up to max_interval_ns.  Return: 0, or -ERANGE when the
 * pairs give no plausible rate (ticks not increasing, or a TSC rate outside
 * 1 MHz .. 100 GHz), c then unusable.
 */
int nvt_tsc_calibrate(struct nvt_tsc *c, uint64_t t1, uint64_t ns1, uint64_t t2, uint64_t ns2,
		      uint64_t max_interval_ns);

/*
 * Resync at pair (t, ns), after the last pair: re-anchor at (t, ns(t)),
 * slope = the rate since the last pair + (ns - ns(t)) / next interval
 * (bounded), schedule the next resync.  Return: 0, or -ERANGE when |ns - ns(t)| >
 * NVT_TSC_MAX_ERR_NS
 * or the rate is implausible (c unchanged: stop using it).
 */
int nvt_tsc_resync(struct nvt_tsc *c, uint64_t t, uint64_t ns);

/* The TSC rate the map uses now, in ticks per second (for the trace header). */
uint64_t nvt_tsc_hz(const struct nvt_tsc *c);

/*
 * Whether this CPU has an invariant TSC that userspace may read (x86-64:
 * CPUID 0x80000007 EDX bit 8).  Return: true, or false with *why (a static
 * string) saying what is missing.
 */
bool nvt_tsc_invariant(const char **why);

/*
 * One (ticks, CLOCK_MONOTONIC ns) pair: the clock read between two TSC
 * reads, the midpoint of the tightest of a few tries.  Return: 0, or -ENOTSUP
 * without a TSC (not x86-64).
 */
int nvt_tsc_read_pair(uint64_t *t, uint64_t *ns);

/* The tick counter (rdtsc); 0 where there is none. */
static inline uint64_t nvt_tsc_ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return 0;
#endif
}

/* CLOCK_MONOTONIC in nanoseconds: what every trace timestamp is.  Return: it. */
static inline uint64_t nvt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ns nanoseconds as a struct timespec.  Return: it. */
static inline struct timespec nvt_ns_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull), .tv_nsec = (long)(ns % 1000000000ull),
	};

	return ts;
}

/* Sleep until CLOCK_MONOTONIC reaches ns (signals do not cut it short).  Return: nothing. */
static inline void nvt_sleep_until_ns(uint64_t ns)
{
	struct timespec ts = nvt_ns_timespec(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* CLOCK_REALTIME in nanoseconds (the header pairs it with the monotonic clock).  Return: it. */
static inline uint64_t nvt_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One trace's clock: the TSC map, or clock_gettime. */
struct nvt_clock {
	struct nvt_tsc tsc;
	int use_tsc;			/* 0: clock_gettime */
	/* when a resync found the TSC off and the clock switched */
	uint64_t fallback_ns;
	const char *why;		/* why not the TSC (static string), NULL with it */
};

/*
 * Choose @c's source: clock_gettime when @forced (a static string, the
 * reason for the header, e.g. the option that asked for it) is given or
 * the TSC is not invariant; otherwise two (ticks, CLOCK_MONOTONIC) pairs
 * 10 ms apart (asleep: no CPU time) calibrate the TSC map.
 * Return: nothing (c->use_tsc and c->why say what was chosen).
 */
void nvt_clock_open(struct nvt_clock *c, const char *forced);

/* Resync @c with a fresh pair, or switch it to clock_gettime for good.  Return: nothing. */
void nvt_clock_resync(struct nvt_clock *c);

/*
 * The time now on @c, CLOCK_MONOTONIC nanoseconds.  Inline: on the IO path
 * a TSC read and a multiply, a resync once an interval.  Return: it.
 */
static inline uint64_t nvt_clock_now(struct nvt_clock *c)
{
	if (c->use_tsc) {
		uint64_t t = nvt_tsc_ticks();

		if (__builtin_expect((int64_t)(t - c->tsc.next) >= 0, 0))
			nvt_clock_resync(c);
		if (__builtin_expect(c->use_tsc, 1))
			return nvt_tsc_to_ns(&c->tsc, t);
	}
	return nvt_mono_ns();
}

/*
 * The header's clock keys: clock, clock.monotonic_ns and clock.realtime_ns
 * (read back to back), clock.source, and clock.tsc_hz and
 * clock.tsc_max_err_ns, or clock.source_why.  Return: nothing (l->oom).
 */
void nvt_clock_header(const struct nvt_clock *c, struct nvt_kvlist *l);

/*
 * The footer's clock keys: clock.end_monotonic_ns; with the TSC (or after a
 * fallback) clock.tsc_resyncs, clock.tsc_max_seen_err_ns (the largest
 * difference seen, at resyncs and now) and clock.tsc_fallback_ns.
 * Return: nothing (l->oom).
 */
void nvt_clock_footer(const struct nvt_clock *c, struct nvt_kvlist *l);

#endif
