/*
 * nvtrace_clock.c - TSC to CLOCK_MONOTONIC: calibration, resync, the
 * invariant-TSC test, and the trace's clock policy and keys (see
 * nvtrace_clock.h).
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "trace/nvtrace_clock.h"

#define NS_PER_S	1000000000ull

/* mult for dns nanoseconds over dt ticks, or 0 when the rate is implausible. */
static uint64_t rate_mult(uint64_t dns, uint64_t dt)
{
	unsigned __int128 m;

	if (!dt || !dns)
		return 0;
	m = ((unsigned __int128)dns << NVT_TSC_SHIFT) / dt;
	/* 1 MHz .. 100 GHz: 1000 .. 0.01 ns per tick */
	if (m > ((unsigned __int128)1000 << NVT_TSC_SHIFT) || m < (1ull << NVT_TSC_SHIFT) / 100)
		return 0;
	return (uint64_t)m;
}

/* Ticks in ns nanoseconds at slope mult (at least 1). */
static uint64_t ticks_for(uint64_t ns, uint64_t mult)
{
	unsigned __int128 t = ((unsigned __int128)ns << NVT_TSC_SHIFT) / mult;

	return t ? (uint64_t)t : 1;
}

int nvt_tsc_calibrate(struct nvt_tsc *c, uint64_t t1, uint64_t ns1, uint64_t t2, uint64_t ns2,
		      uint64_t max_interval_ns)
{
	uint64_t mult;

	if (t2 <= t1 || ns2 <= ns1)
		return -ERANGE;
	mult = rate_mult(ns2 - ns1, t2 - t1);
	if (!mult)
		return -ERANGE;
	c->ref_tsc = t2;
	c->ref_ns = ns2;
	c->tsc0 = t2;
	c->ns0 = ns2;
	c->mult = mult;
	c->interval = t2 - t1;
	if (c->interval < ticks_for(1000000, mult))
		c->interval = ticks_for(1000000, mult);
	c->max_interval = ticks_for(max_interval_ns ? max_interval_ns : NS_PER_S, mult);
	if (c->interval > c->max_interval)
		c->interval = c->max_interval;
	c->next = t2 + c->interval;
	c->resyncs = 0;
	c->max_err_ns = 0;
	return 0;
}

int nvt_tsc_resync(struct nvt_tsc *c, uint64_t t, uint64_t ns)
{
	uint64_t cur = nvt_tsc_to_ns(c, t), rate, aerr;
	int64_t err = (int64_t)(ns - cur), slew, lim;
	uint64_t interval;

	aerr = err < 0 ? (uint64_t)-err : (uint64_t)err;
	if (aerr > NVT_TSC_MAX_ERR_NS || t <= c->ref_tsc || ns <= c->ref_ns)
		return -ERANGE;
	rate = rate_mult(ns - c->ref_ns, t - c->ref_tsc);
	if (!rate)
		return -ERANGE;
	interval = c->interval * 2 < c->max_interval ? c->interval * 2 : c->max_interval;
	/* err ns over the next interval, in slope units; at most NVT_TSC_MAX_SLEW_PPM of rate */
	slew = (int64_t)((__int128)err * ((__int128)1 << NVT_TSC_SHIFT) / (__int128)interval);
	lim = (int64_t)(rate / 1000000 * NVT_TSC_MAX_SLEW_PPM);
	if (slew > lim)
		slew = lim;
	if (slew < -lim)
		slew = -lim;
	c->tsc0 = t;
	c->ns0 = cur;
	c->mult = (uint64_t)((int64_t)rate + slew);
	c->ref_tsc = t;
	c->ref_ns = ns;
	c->interval = interval;
	c->next = t + interval;
	c->resyncs++;
	if (aerr > c->max_err_ns)
		c->max_err_ns = aerr;
	return 0;
}

uint64_t nvt_tsc_hz(const struct nvt_tsc *c)
{
	return c->mult ? (uint64_t)(((unsigned __int128)NS_PER_S << NVT_TSC_SHIFT) / c->mult) : 0;
}

bool nvt_tsc_invariant(const char **why)
{
#if defined(__x86_64__)
	unsigned int a, b, cx, d;

	if (!__get_cpuid(0x80000000, &a, &b, &cx, &d) || a < 0x80000007) {
		*why = "the CPU does not report CPUID leaf 0x80000007 (invariant TSC)";
		return false;
	}
	__get_cpuid(0x80000007, &a, &b, &cx, &d);
	if (!(d & (1u << 8))) {
		*why = "the TSC is not invariant (CPUID 0x80000007 EDX bit 8 clear)";
		return false;
	}
	*why = "";
	return true;
#else
	*why = "no TSC on this architecture";
	return false;
#endif
}

int nvt_tsc_read_pair(uint64_t *t, uint64_t *ns)
{
#if defined(__x86_64__)
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 4; i++) {
		uint64_t a = nvt_tsc_ticks(), m = nvt_mono_ns(), b = nvt_tsc_ticks();

		if (b >= a && b - a < best) {
			best = b - a;
			*t = a + (b - a) / 2;
			*ns = m;
		}
	}
	return best == UINT64_MAX ? -ERANGE : 0;
#else
	(void)t;
	(void)ns;
	return -ENOTSUP;
#endif
}

void nvt_clock_open(struct nvt_clock *c, const char *forced)
{
	const struct timespec gap = { 0, 10000000 };
	uint64_t t1, ns1, t2, ns2;

	memset(c, 0, sizeof(*c));
	c->why = forced;
	if (forced || !nvt_tsc_invariant(&c->why))
		return;
	if (nvt_tsc_read_pair(&t1, &ns1) || nanosleep(&gap, NULL) ||
	    nvt_tsc_read_pair(&t2, &ns2) ||
	    nvt_tsc_calibrate(&c->tsc, t1, ns1, t2, ns2, NS_PER_S)) {
		c->why = "the TSC did not calibrate against CLOCK_MONOTONIC";
		return;
	}
	c->use_tsc = 1;
	c->why = NULL;
}

void nvt_clock_resync(struct nvt_clock *c)
{
	uint64_t t, ns;

	if (!nvt_tsc_read_pair(&t, &ns) && !nvt_tsc_resync(&c->tsc, t, ns))
		return;
	/* more than NVT_TSC_MAX_ERR_NS off CLOCK_MONOTONIC: the TSC is not to be trusted */
	c->use_tsc = 0;
	c->fallback_ns = nvt_mono_ns();
}

void nvt_clock_header(const struct nvt_clock *c, struct nvt_kvlist *l)
{
	nvt_kvlist_add(l, "clock", "CLOCK_MONOTONIC");
	nvt_kvlist_add(l, "clock.monotonic_ns", "%llu", (unsigned long long)nvt_mono_ns());
	nvt_kvlist_add(l, "clock.realtime_ns", "%llu", (unsigned long long)nvt_realtime_ns());
	nvt_kvlist_add(l, "clock.source", "%s", c->use_tsc ? "tsc" : "clock_gettime");
	if (!c->use_tsc) {
		nvt_kvlist_add(l, "clock.source_why", "%s", c->why ? c->why : "");
		return;
	}
	nvt_kvlist_add(l, "clock.tsc_hz", "%llu", (unsigned long long)nvt_tsc_hz(&c->tsc));
	nvt_kvlist_add(l, "clock.tsc_max_err_ns", "%u", NVT_TSC_MAX_ERR_NS);
}

void nvt_clock_footer(const struct nvt_clock *c, struct nvt_kvlist *l)
{
	uint64_t t, ns, e = c->tsc.max_err_ns;

	nvt_kvlist_add(l, "clock.end_monotonic_ns", "%llu", (unsigned long long)nvt_mono_ns());
	if (!c->use_tsc && !c->fallback_ns)
		return;
	if (c->use_tsc && !nvt_tsc_read_pair(&t, &ns)) {
		uint64_t at = nvt_tsc_to_ns(&c->tsc, t), d = ns > at ? ns - at : at - ns;

		e = d > e ? d : e;
	}
	nvt_kvlist_add(l, "clock.tsc_resyncs", "%llu", (unsigned long long)c->tsc.resyncs);
	nvt_kvlist_add(l, "clock.tsc_max_seen_err_ns", "%llu", (unsigned long long)e);
	if (c->fallback_ns)
		nvt_kvlist_add(l, "clock.tsc_fallback_ns", "%llu",
			       (unsigned long long)c->fallback_ns);
}
