/*
 * render.h - render a struct nv_report: Markdown, aligned text, CSV, JSON.
 * One renderer per format (render_md.c, render_csv.c, render_json.c); the
 * shared formatting of values and changes is in format.h, tables of strings
 * in grid.h.
 */
#ifndef NV_ANALYZE_RENDER_H
#define NV_ANALYZE_RENDER_H

#include <stdio.h>

#include <jansson.h>

#include "analyze/report/format.h"
#include "analyze/report/grid.h"
#include "analyze/report/model.h"

/*
 * Print the report in format f.
 * Return: 0, -ENOMEM, or -EIO if the stream failed.
 */
int nv_report_print(FILE *out, const struct nv_report *r, enum nv_format f);

/* The parts of nv_render_md's report, in its order (bits). */
enum nv_md_part {
	NV_MD_RUNS = 1 << 0,	/* each side's runs, the units, how to read a change */
	NV_MD_SUMMARY = 1 << 1,	/* the suite summary table */
	NV_MD_BLOCKS = 1 << 2,	/* a job · direction: title, table, notes, buckets */
	NV_MD_OTHER = 1 << 3,	/* disk_util, unmatched jobs, job errors */
	NV_MD_CLAIMS = 1 << 4,	/* the claims and their verdicts */
	NV_MD_ALL = (1 << 5) - 1,
};

/*
 * One part of the Markdown report, for a page that arranges them
 * (publish/report_md.c): NV_MD_RUNS, NV_MD_SUMMARY and NV_MD_CLAIMS without
 * their heading (the page gives its own; nothing at all for a report without
 * summary rows or claims), NV_MD_BLOCKS only block `block` (SIZE_MAX:
 * every one), each with its heading.
 * Return: 0 or -ENOMEM.
 */
int nv_render_md_part(FILE *out, const struct nv_report *r, enum nv_md_part part, size_t block);

/*
 * Markdown (f NV_FMT_MD) or aligned text (any other f): heading, one table
 * per active block, unmatched jobs, job errors, claims.
 * Return: 0 or -ENOMEM.
 */
int nv_render_md(FILE *out, const struct nv_report *r, enum nv_format f);

/*
 * A value cell as the Markdown and text tables show it: "77,282",
 * "77,282 ±1.6%", "72.0 us (exact)", "-" (missing), "absent" (no run of
 * side s has the job); the unit of a scaled quantity chosen by ref.
 * Return: nothing; the text is in buf.
 */
void nv_render_md_cell(char *buf, size_t n, const struct nv_cell *c, const struct nv_side *s,
		       enum nv_unit u, double ref);

/* The summary rows, one wide CSV table, then the claims.  Return: 0 or -ENOMEM. */
int nv_render_csv(FILE *out, const struct nv_report *r);

/* The report as one JSON object.  Return: 0 or -ENOMEM. */
int nv_render_json(FILE *out, const struct nv_report *r);

/*
 * The elements of a JSON array written one at a time: element(i, arg) for
 * i in [0, n), each written and freed before the next is built, so that
 * the array is never whole in memory.  element returns a new reference,
 * or NULL (out of memory: written as null).
 */
struct nv_json_stream {
	size_t n;
	json_t *(*element)(size_t i, void *arg);
	void *arg;
};

/*
 * nv_render_json with a "traces" member, the array of traces' elements
 * (NULL: none): see trace_json.h.  The same bytes as the whole array
 * built first.
 * Return: 0 or -ENOMEM.
 */
int nv_render_json_with(FILE *out, const struct nv_report *r, const struct nv_json_stream *traces);

/*
 * Write v as JSON indented by depth levels (depth < 0: on one line, objects
 * only); reals as their shortest exact text (jansson's own dumper prints
 * "%.17g", e.g. 0.10000000000000001); objects in their insertion order.
 * Return: nothing.
 */
void nv_render_json_emit(FILE *out, const json_t *v, int depth);

/*
 * One CSV field (after a ',' unless first), RFC 4180: quoted when it holds
 * ',', '"', CR or LF, '"' doubled; a text field (text) starting with '=',
 * '+', '-', '@', tab or CR gets a leading "'" (no spreadsheet formula).
 * Return: nothing.
 */
void nv_render_csv_field(FILE *out, const char *s, bool first, bool text);

#endif
