/*
 * diskspd.h - diskspd 2.0-2.2 text reports (the default -Rtext) as runs.
 *
 * Each "Results for timespan N:" becomes one job named as jobs/diskspd/
 * names the same parameters, from the report's "Command Line:" or, where
 * it has none, its "Input parameters:" (randread-4k-t4-qd32,
 * seqwrite-128k-t4-qd16-si, randrw-4k-t4-qd32-w30; " #N" added from the
 * second timespan on).  Its Read IO and Write IO
 * "total:" rows give the IOs and bytes (exact), the I/O per s and MiB/s
 * (2^20 bytes) as printed, the AvgLat and LatStdDev columns (when -L) as
 * the mean and deviation of fio's lat (submission to completion); the
 * "%-ile" table of -L gives min, max and the percentiles (25th ... 9-nines,
 * fio's lat); the CPU table's avg. row (either layout) the job's CPU.
 * Every printed value carries its precision (nv_val.prec).
 */
#ifndef NV_ANALYZE_DISKSPD_H
#define NV_ANALYZE_DISKSPD_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * Whether text (UTF-8, NUL-terminated at len) is a diskspd text report.
 * Return: true when it is.
 */
bool nv_diskspd_sniff(const char *text, size_t len);

/*
 * Parse a diskspd text report; the contract of nv_fio_parse (fiojson.h).
 * Return: 0 and *run filled (free with nv_run_free), or -EINVAL / -ENOMEM
 * with "path:line: what" in err and nothing to free.
 */
int nv_diskspd_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		     char *err, size_t errlen);

#endif
