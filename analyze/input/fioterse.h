/*
 * fioterse.h - fio's terse output (--output-format=terse, versions 2 to 5)
 * read into the run model fiojson.h defines.
 */
#ifndef NV_ANALYZE_FIOTERSE_H
#define NV_ANALYZE_FIOTERSE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * True when a line of text starts as a terse line does: "3;fio-3.33;NAME;"
 * (versions 3 to 5) or "2;NAME;GROUP;ERROR;" with enough ';' fields.
 * Return: true or false.
 */
bool nv_fioterse_sniff(const char *text, size_t len);

/*
 * True when the line (n bytes, no newline) starts as a terse line of
 * version 2-5 does, with at least 40 ';'.  Return: true or false.
 */
bool nv_fioterse_is_line(const char *line, size_t n);

/*
 * Parse fio terse output (text, len bytes, NUL-terminated), one job a line,
 * with nv_fio_parse's contract: 0 and *run filled (free with nv_run_free),
 * or -EINVAL / -ENOMEM with "path:line: what" in err.  Other lines are
 * skipped.
 * Return: 0 or -errno.
 */
int nv_fioterse_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		      char *err, size_t errlen);

#endif
