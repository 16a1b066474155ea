/*
 * fiomulti.h - the file fio's --output-format=normal,terse,json (any two or
 * more of them) writes: the JSON is read, the text outputs are checked
 * against it.
 */
#ifndef NV_ANALYZE_FIOMULTI_H
#define NV_ANALYZE_FIOMULTI_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * True when text holds fio JSON and fio normal or terse output as well.
 * Return: true or false.
 */
bool nv_fiomulti_sniff(const char *text, size_t len);

/*
 * Read the JSON (nv_fio_parse's contract), then read the normal and terse
 * outputs of the same file and compare each job's IOPS, bandwidth, runtime,
 * mean latencies and latency buckets (nv_fio_ladder_cmp) with the JSON's
 * within their printed precision: one note in run->notes says whether they
 * agree (or that a text output holds nothing to compare), and one per
 * disagreement.
 * A text output that does not read is a note, not an error.
 * Return: as nv_fio_parse.
 */
int nv_fiomulti_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		      char *err, size_t errlen);

#endif
