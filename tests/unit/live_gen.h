/*
 * live_gen.h - synthetic records of the watcher (analyze/live/live.h) for
 * the HTTP output's tests: test_live_http.c and the driver gen_live.c.
 * Values vary with the job, op and index, so that charts move and every
 * interval's quantiles differ from the last.
 */
#ifndef NV_TESTS_LIVE_GEN_H
#define NV_TESTS_LIVE_GEN_H

#include <string.h>

#include "analyze/live/live.h"

/*
 * The bucket of ns (live.h's rule: the first edge >= ns, else +Inf).
 * Return: its index, NV_LIVE_NLE for +Inf.
 */
static inline size_t live_gen_bucket(uint64_t ns)
{
	size_t b = 0;

	while (b < NV_LIVE_NLE && nv_live_le_ns[b] < ns)
		b++;
	return b;
}

/*
 * Interval k of job number j and op number o (0 read, 1 write), period_ms
 * long, its end at t0_ms + (k + 1) * period_ms on the wall clock (0: none):
 * ios split over the buckets of p50 (most), p99, p99.9 and max.
 * Return: nothing; iv filled (its strings are the arguments).
 */
static inline void live_gen_interval(struct nv_live_interval *iv, const char *job,
				     const char *host, size_t j, size_t o, size_t k,
				     uint64_t period_ms, int64_t t0_ms)
{
	uint64_t ios = 1000 + (k * 37 + j * 101 + o * 53) % 500;
	uint64_t n99 = ios / 100, n999 = ios / 1000 ? ios / 1000 : 1;
	double len_s = (double)period_ms / 1e3;
	struct nv_tan_iv *v = &iv->iv;

	memset(iv, 0, sizeof(*iv));
	iv->job = job;
	iv->host = host;
	v->op = o ? NVT_OP_WRITE : NVT_OP_READ;
	v->index = k;
	v->start_s = (double)k * len_s;
	v->end_s = (double)(k + 1) * len_s;
	iv->end_unix_ms = t0_ms ? t0_ms + (int64_t)((k + 1) * period_ms) : 0;
	v->ios = ios;
	v->bytes = ios * 4096;
	v->errors = k % 9 == 8;
	v->iops = (double)ios / len_s;
	v->mb_per_s = (double)v->bytes / 1e6 / len_s;
	v->p50_ns = 40000 + ((k * 7 + j * 3 + o) % 13) * 1000;
	v->p99_ns = 150000 + ((k * 13 + j * 5 + o * 3) % 17) * 7000 + k;
	v->p999_ns = 900000 + ((k * 11 + j) % 7) * 50000;
	v->max_ns = 3000000 + (k % 5) * 1000000 + (k % 3 ? 0 : 20000000000ull);
	iv->le[live_gen_bucket(v->p50_ns)] += ios - n99 - n999;
	iv->le[live_gen_bucket(v->p99_ns)] += n99;
	if (live_gen_bucket(v->max_ns) == NV_LIVE_NLE)
		iv->le_inf += 1;
	else
		iv->le[live_gen_bucket(v->max_ns)] += 1;
	iv->le[live_gen_bucket(v->p999_ns)] += n999 - 1;
	iv->lat_sum_ns = (ios - n99 - n999) * v->p50_ns + n99 * v->p99_ns +
			 (n999 - 1) * v->p999_ns + v->max_ns;
}

#endif
