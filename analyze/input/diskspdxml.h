/*
 * diskspdxml.h - diskspd's XML reports (-Rxml, 2.0.x to 2.2) as runs.
 *
 * The reference is the schema diskspd's own XmlResultParser.cpp writes:
 * <Results> holds <System> (ComputerName, Tool/Version), the <Profile> (one
 * <TimeSpan> of parameters per timespan: ThreadCount and per <Target>
 * BlockSize, <Random> or StrideSize, InterlockedSequential, RequestCount,
 * WriteRatio, ThreadsPerFile) and one result <TimeSpan> per timespan.
 * Each result TimeSpan becomes one job named as the text reader names it
 * (diskspd.h, from the Profile's first Target).  Its Thread/Target
 * ReadCount, ReadBytes, WriteCount and WriteBytes summed give each
 * direction's IOs and bytes (exact), divided by TestTimeSeconds its IOPS
 * and bandwidth (with the precision of the printed seconds); <Latency>
 * (-L) gives the mean, deviation and, from its Buckets, min (Percentile 0),
 * max (100) and the percentiles of fio's lat (submission to completion);
 * <Iops> (-D) the per-interval IOPS samples; CpuUtilization/Average the
 * job's CPU.  Text in UTF-8 (detect.c converts UTF-16 with a BOM first).
 */
#ifndef NV_ANALYZE_DISKSPDXML_H
#define NV_ANALYZE_DISKSPDXML_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * Whether text (UTF-8, NUL-terminated at len) is a diskspd XML report.
 * Return: true when it is.
 */
bool nv_diskspdxml_sniff(const char *text, size_t len);

/*
 * Parse a diskspd XML report; the contract of nv_fio_parse (fiojson.h).
 * Return: 0 and *run filled (free with nv_run_free), or -EINVAL / -ENOMEM
 * with "path:line: what" in err and nothing to free.
 */
int nv_diskspdxml_parse(const char *text, size_t len, const char *path, struct nv_run *run,
			char *err, size_t errlen);

#endif
