/*
 * cdm.h - CrystalDiskMark text exports (File > Save text, Ctrl+C) as runs.
 *
 * Versions 5.x and 6.x print one line per test ("Sequential Read (Q= 32,T= 1)
 * :  416.136 MB/s", "Random Read 4KiB (Q= 1,T= 1) : 22.584 MB/s [ 5513.7
 * IOPS]"); 7.x to 9.x print [Read], [Write] and [Mix] sections of lines such
 * as "SEQ    1MiB (Q=  8, T= 1):  3500.123 MB/s [   3338.0 IOPS] < 2394.72
 * us>".  Each test becomes one job, named as the section of
 * jobs/crystaldiskmark/ that reproduces it (SeqQ32T1-read, 4K-write for
 * 5.x/6.x; SEQ1M-Q8T1-read, RND4K-Q32T16-write for 7.x and later), with one
 * direction: bandwidth (MB/s = 10^6 bytes/s), IOPS and, where printed, the
 * mean latency, submission to completion: fio's lat (NV_LAT_TOTAL).  Every
 * value carries its printed precision (nv_val.prec).  The footer (test size
 * and count, interval, profile, mode, date, OS, comment) becomes run->desc.
 */
#ifndef NV_ANALYZE_CDM_H
#define NV_ANALYZE_CDM_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * Whether text (UTF-8, NUL-terminated at len) is a CrystalDiskMark export.
 * Return: true when it is.
 */
bool nv_cdm_sniff(const char *text, size_t len);

/*
 * Parse a CrystalDiskMark export; the contract of nv_fio_parse (fiojson.h).
 * Return: 0 and *run filled (free with nv_run_free), or -EINVAL / -ENOMEM
 * with "path:line: what" in err and nothing to free.
 */
int nv_cdm_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		 char *err, size_t errlen);

#endif
