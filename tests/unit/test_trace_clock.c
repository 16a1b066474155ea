/*
 * test_trace_clock.c - the TSC to CLOCK_MONOTONIC map (trace/nvtrace_clock.h):
 * exactness of the conversion, calibration, resyncs that follow a drifting
 * clock while staying continuous and increasing, and the refusals that make
 * the engine fall back to clock_gettime.  Simulated clocks, no timing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "trace/nvtrace_clock.h"

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* 1 GHz: mult is exactly 1 << 32 and the map is exact, far from the anchor too. */
TEST(exact_at_1ghz)
{
	struct nvt_tsc c;

	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 1000, 5000, 1000 + 1000000000ull, 5000 + 1000000000ull,
				       0), 0);
	CHECK_EQ_U64(c.mult, 1ull << NVT_TSC_SHIFT);
	CHECK_EQ_U64(nvt_tsc_hz(&c), 1000000000ull);
	CHECK_EQ_U64(nvt_tsc_to_ns(&c, c.tsc0), c.ns0);
	CHECK_EQ_U64(nvt_tsc_to_ns(&c, c.tsc0 + (1ull << 40)), c.ns0 + (1ull << 40));
	CHECK_EQ_U64(nvt_tsc_to_ns(&c, c.tsc0 + (1ull << 52)), c.ns0 + (1ull << 52));
	/* before the anchor (another CPU's read a moment earlier) */
	CHECK_EQ_U64(nvt_tsc_to_ns(&c, c.tsc0 - 5), c.ns0 - 5);
}

/* Ticks of an ideal clock at hz to ns (the floor, as a clock read returns). */
static uint64_t ideal_ns(uint64_t t, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)t * 1000000000ull / hz);
}

/*
 * At 2.095998932 GHz (this VM's TSC) from pairs 10 ms apart whose ns are
 * floored: the rate is off by at most 2 ns in 10 ms, so the map is within
 * 2 ns + 2e-7 of the span; the truncated mult adds under 1 ns per 2^32 ticks.
 */
TEST(calibration_bound)
{
	const uint64_t hz = 2095998932ull, t1 = 123456789ull, t2 = t1 + hz / 100;
	struct nvt_tsc c;

	CHECK_EQ_I64(nvt_tsc_calibrate(&c, t1, ideal_ns(t1, hz), t2, ideal_ns(t2, hz), 0), 0);
	CHECK(absdiff(nvt_tsc_hz(&c), hz) <= hz / 1000000 * 2);
	for (uint64_t d = 0; d <= hz; d += hz / 1000) {
		uint64_t t = t2 + d, want = ideal_ns(t, hz);
		uint64_t bound = 3 + (uint64_t)((d * 1000000000ull / hz) * 2 / 10000000);

		if (absdiff(nvt_tsc_to_ns(&c, t), want) > bound) {
			CHECK(absdiff(nvt_tsc_to_ns(&c, t), want) <= bound);
			break;
		}
	}
	/* first resync after max(calibration span, 1 ms), then doubling, capped at 1 s */
	CHECK_EQ_U64(c.next, t2 + (t2 - t1));
}

/* A deterministic +-20 ns jitter for the simulated clock reads. */
static int64_t jitter(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (int64_t)(*s >> 33) % 41 - 20;
}

/*
 * 60 simulated seconds, a clock read every 50 us, resyncs when due: the
 * CLOCK_MONOTONIC being followed runs 30 ppm fast of the calibration's rate
 * from second 20 on (an NTP adjustment).  The map never goes backwards, is
 * within 150 ns of the clock before the change, within 35 us after it (30
 * ppm of a 1 s interval, then slewed back at most 500 ppm), and within 150
 * ns again from second 40 on.
 */
TEST(resync_follows_drift)
{
	const uint64_t hz = 2095998932ull, t1 = 1000, t2 = t1 + hz / 100;
	uint64_t seed = 1, prev = 0, worst_before = 0, worst_after = 0, worst_late = 0;
	struct nvt_tsc c;
	int monotone = 1, refused = 0;

	CHECK_EQ_I64(nvt_tsc_calibrate(&c, t1, ideal_ns(t1, hz), t2, ideal_ns(t2, hz) + 7, 0), 0);
	for (uint64_t t = t2; t < t2 + 60 * hz; t += hz / 20000) {
		uint64_t s = ideal_ns(t - t2, hz), mono = ideal_ns(t, hz) + 7, now;

		if (s > 20000000000ull)	/* 30 ppm fast from second 20 */
			mono += (s - 20000000000ull) * 30 / 1000000;
		if ((int64_t)(t - c.next) >= 0 &&
		    nvt_tsc_resync(&c, t, mono + (uint64_t)jitter(&seed)))
			refused++;
		now = nvt_tsc_to_ns(&c, t);
		monotone &= now >= prev;
		prev = now;
		if (s < 20000000000ull)
			worst_before = max_u64(worst_before, absdiff(now, mono));
		else if (s < 40000000000ull)
			worst_after = max_u64(worst_after, absdiff(now, mono));
		else
			worst_late = max_u64(worst_late, absdiff(now, mono));
	}
	CHECK(monotone);
	CHECK_EQ_I64(refused, 0);
	CHECK(worst_before <= 150);
	CHECK(worst_after <= 35000);
	CHECK(worst_late <= 150);
	CHECK(c.max_err_ns <= 35000);
	/* 10 ms, 20, ... 640 ms, then 1 s: 7 resyncs in the first 1.27 s, about 60 in all */
	CHECK(c.resyncs >= 55 && c.resyncs <= 70);
	CHECK(c.interval == c.max_interval);
}

/* A resync slews by at most NVT_TSC_MAX_SLEW_PPM, and keeps the map continuous. */
TEST(resync_slew_bounded)
{
	const uint64_t hz = 1000000000ull;
	struct nvt_tsc c;
	uint64_t t, at, rate;

	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 0, 1, hz / 100, hz / 100 + 1, 0), 0);
	t = c.next;
	at = nvt_tsc_to_ns(&c, t);
	/* the rate since the calibration's second pair, with the clock 90 us ahead */
	rate = (uint64_t)((((unsigned __int128)(at + 90000 - c.ref_ns)) << NVT_TSC_SHIFT) /
			  (t - c.ref_tsc));
	/* 90 us off over a 20 ms interval would need 4500 ppm: clamped */
	CHECK_EQ_I64(nvt_tsc_resync(&c, t, at + 90000), 0);
	CHECK_EQ_U64(nvt_tsc_to_ns(&c, t), at);
	CHECK(c.mult > rate);
	CHECK(c.mult - rate <= rate / 1000000 * NVT_TSC_MAX_SLEW_PPM + 1);
	CHECK_EQ_U64(c.max_err_ns, 90000);
}

/* The refusals: the engine then stops using the TSC (nv_trace_clock fallback). */
TEST(refusals)
{
	struct nvt_tsc c, keep;

	/* ticks stood */
	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 100, 100, 100, 200, 0), -ERANGE);
	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 200, 100, 100, 200, 0), -ERANGE);	/* went back */
	/* clock stood */
	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 100, 100, 200, 100, 0), -ERANGE);
	/* 100 ticks in one second (100 Hz) and 1e12 ticks in 1 ns: implausible */
	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 0, 0, 100, 1000000000ull, 0), -ERANGE);
	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 0, 0, 1000000000000ull, 1, 0), -ERANGE);

	CHECK_EQ_I64(nvt_tsc_calibrate(&c, 0, 0, 10000000, 10000000, 0), 0);
	keep = c;
	/* the TSC jumped (or CLOCK_MONOTONIC stepped) by more than the limit */
	CHECK_EQ_I64(nvt_tsc_resync(&c, c.next,
				    nvt_tsc_to_ns(&c, c.next) + NVT_TSC_MAX_ERR_NS + 1),
		     -ERANGE);
	CHECK(!memcmp(&c, &keep, sizeof(c)));
	CHECK_EQ_I64(nvt_tsc_resync(&c, c.next,
				    nvt_tsc_to_ns(&c, c.next) - NVT_TSC_MAX_ERR_NS - 1),
		     -ERANGE);
	/* at the limit it is still followed */
	CHECK_EQ_I64(nvt_tsc_resync(&c, c.next, nvt_tsc_to_ns(&c, c.next) + NVT_TSC_MAX_ERR_NS),
		     0);
}

/* This machine: either an invariant TSC whose pairs increase, or a reason why not. */
TEST(this_machine)
{
	const char *why = NULL;
	uint64_t t1, ns1, t2, ns2;

	if (!nvt_tsc_invariant(&why)) {
		CHECK(why && *why);
		return;
	}
	CHECK(why && !*why);
	CHECK_EQ_I64(nvt_tsc_read_pair(&t1, &ns1), 0);
	CHECK_EQ_I64(nvt_tsc_read_pair(&t2, &ns2), 0);
	CHECK(t2 > t1 && ns2 >= ns1);
}

/* The value of @key in @l, NULL when absent. */
static const char *kv_get(const struct nvt_kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->kv[i].key, key))
			return l->kv[i].value;
	return NULL;
}

/* A clock forced to clock_gettime says why, and keeps no TSC keys. */
TEST(policy_forced_gettime)
{
	struct nvt_kvlist h = { 0 }, f = { 0 };
	struct nvt_clock c;
	uint64_t a, b;

	nvt_clock_open(&c, "nv_trace_clock=clock_gettime");
	CHECK_EQ_I64(c.use_tsc, 0);
	a = nvt_clock_now(&c);
	b = nvt_clock_now(&c);
	CHECK(a > 0 && b >= a);
	nvt_clock_header(&c, &h);
	CHECK_STR(kv_get(&h, "clock"), "CLOCK_MONOTONIC");
	CHECK_STR(kv_get(&h, "clock.source"), "clock_gettime");
	CHECK_STR(kv_get(&h, "clock.source_why"), "nv_trace_clock=clock_gettime");
	CHECK(kv_get(&h, "clock.monotonic_ns") && kv_get(&h, "clock.realtime_ns"));
	CHECK(kv_get(&h, "clock.tsc_hz") == NULL);
	nvt_clock_footer(&c, &f);
	CHECK(kv_get(&f, "clock.end_monotonic_ns") != NULL);
	CHECK(kv_get(&f, "clock.tsc_resyncs") == NULL);
	CHECK(!h.oom && !f.oom);
	nvt_kvlist_free(&h);
	nvt_kvlist_free(&f);
}

/* The automatic choice: the TSC where it is invariant, with its keys; else why not. */
TEST(policy_auto)
{
	struct nvt_kvlist h = { 0 }, f = { 0 };
	struct nvt_clock c;
	uint64_t a, b, m;

	nvt_clock_open(&c, NULL);
	a = nvt_clock_now(&c);
	m = nvt_mono_ns();
	b = nvt_clock_now(&c);
	CHECK(b >= a);
	/* within the TSC's bound of CLOCK_MONOTONIC (plus the reads' own time) */
	CHECK(m + NVT_TSC_MAX_ERR_NS >= a && m <= b + NVT_TSC_MAX_ERR_NS);
	nvt_clock_header(&c, &h);
	nvt_clock_footer(&c, &f);
	if (c.use_tsc) {
		CHECK_STR(kv_get(&h, "clock.source"), "tsc");
		CHECK(kv_get(&h, "clock.tsc_hz") != NULL);
		CHECK(kv_get(&h, "clock.source_why") == NULL);
		CHECK(kv_get(&f, "clock.tsc_max_seen_err_ns") != NULL);
	} else {
		CHECK_STR(kv_get(&h, "clock.source"), "clock_gettime");
		CHECK(kv_get(&h, "clock.source_why") && *kv_get(&h, "clock.source_why"));
	}
	nvt_kvlist_free(&h);
	nvt_kvlist_free(&f);
}

/*
 * A resync far off CLOCK_MONOTONIC switches to clock_gettime for good, and the
 * footer says when.
 */
TEST(policy_fallback)
{
	struct nvt_kvlist f = { 0 };
	struct nvt_clock c;

	nvt_clock_open(&c, NULL);
	if (!c.use_tsc)
		return;
	c.tsc.ns0 += 10 * NVT_TSC_MAX_ERR_NS;	/* the map is now 1 ms ahead */
	c.tsc.next = 0;				/* resync at the next read */
	(void)nvt_clock_now(&c);
	CHECK_EQ_I64(c.use_tsc, 0);
	CHECK(c.fallback_ns > 0);
	nvt_clock_footer(&c, &f);
	CHECK(kv_get(&f, "clock.tsc_fallback_ns") != NULL);
	nvt_kvlist_free(&f);
}

int main(void)
{
	RUN(exact_at_1ghz);
	RUN(calibration_bound);
	RUN(resync_follows_drift);
	RUN(resync_slew_bounded);
	RUN(refusals);
	RUN(this_machine);
	RUN(policy_forced_gettime);
	RUN(policy_auto);
	RUN(policy_fallback);
	return check_summary();
}
