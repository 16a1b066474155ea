/*
 * fionormal.h - fio's default ("normal") text output, 2.x and 3.x, read into
 * the run model fiojson.h defines.
 *
 * fio rounds what it prints (IOPS=84.1k, BW=328MiB/s, avg=508.40): values
 * that fio computed from totals the text still holds (issued IO counts, the
 * direction's runtime, a fixed block size) are recomputed exactly as fio
 * does; the others keep the half-width of their rounding in nv_val.prec.
 */
#ifndef NV_ANALYZE_FIONORMAL_H
#define NV_ANALYZE_FIONORMAL_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * True when text looks like fio's normal output: a job entry
 * "NAME: (groupid=N, jobs=M): err=..." and a direction line.
 * Return: true or false.
 */
bool nv_fionormal_sniff(const char *text, size_t len);

/*
 * Parse fio normal output (text, len bytes, NUL-terminated) named path in
 * messages, with nv_fio_parse's contract: 0 and *run filled (free with
 * nv_run_free), or -EINVAL / -ENOMEM with "path:line: what" in err.  Lines
 * that are not fio's (progress, prompts, Markdown fences) are skipped.
 * Return: 0 or -errno.
 */
int nv_fionormal_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		       char *err, size_t errlen);

#endif
