/*
 * diskspdjob.h - what diskspd's text (diskspd.c) and XML (diskspdxml.c)
 * readers share: the test's parameters, the name jobs/diskspd/ gives them,
 * the job of one timespan and its latency percentiles.
 */
#ifndef NV_ANALYZE_DISKSPDJOB_H
#define NV_ANALYZE_DISKSPDJOB_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/* A test's parameters: -b, -t, -o, -w, -r, -si (diskspd's defaults in _INIT). */
struct nv_diskspd_params {
	char bs[24];		/* "4k", "128k", "1m": as jobs/diskspd/ writes it */
	unsigned threads, qd, w;
	bool rnd, si;
};

#define NV_DISKSPD_PARAMS_INIT { .bs = "64k", .threads = 1, .qd = 2 }

/*
 * A block size as diskspd prints or takes it ("128K", "4KiB", "65536") into
 * out as jobs/diskspd/ writes it ("128k", "4k", "64k"; no number: "64k").
 * Return: nothing.
 */
void nv_diskspd_size(const char *v, char *out, size_t n);

/*
 * Append to run the job of timespan N (1-based) of a test of parameters p:
 * named as jobs/diskspd/ ("randread-4k-t4-qd32", " #N" from the second
 * timespan on), rw, desc and bs set, everything else zero.
 * Return: 0 and *job the new job, or -ENOMEM (run unchanged but for its array).
 */
int nv_diskspd_job(struct nv_run *run, const struct nv_diskspd_params *p, unsigned n,
		   struct nv_job **job);

/*
 * Add the percentile pct (0 < pct < 100; -1 for the minimum, -2 for the
 * maximum) of value ns to ls: its points and, at fio's levels, its pct[].
 * A level at or below ls's last point is refused (points stay ascending, as
 * diskspd writes them; the report is damaged).
 * Return: 0, -EINVAL (out of order, ls unchanged) or -ENOMEM.
 */
int nv_diskspd_point(struct nv_latstat *ls, double pct, struct nv_val ns);

#endif
