/*
 * curve_print.h - the parts of nv_curves_print (curves.h), one file per
 * concept: the point tables (curve_table.c), the knee (curve_knee.c), the
 * matrix (curve_matrix.c), the SLA answers (curve_sla.c), fio's results
 * (curve_fio.c), the rounds (curve_rounds.c), and the headings and cells
 * they are all made of (curve_text.c).  Markdown (NV_FMT_MD) or text.
 */
#ifndef NV_ANALYZE_CURVE_PRINT_H
#define NV_ANALYZE_CURVE_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/report/curves.h"

/* A heading of level (2, 3) with title.  Return: nothing. */
void nv_curve_text_heading(FILE *out, enum nv_format f, int level, const char *title);

/*
 * The cell of row (NULL: none, "-") at block bi for side s as the tables
 * show it ("absent" where the side lacks the block).
 * Return: nothing; the text is in buf.
 */
void nv_curve_text_row(char *buf, size_t n, const struct nv_report *r, size_t bi,
		       const struct nv_row *row, size_t s);

/* The cell of metric m at block bi for side s.  Return: nothing; the text is in buf. */
void nv_curve_text_cell(char *buf, size_t n, const struct nv_report *r, size_t bi,
			enum nv_metric m, size_t s);

/* Side s's knee sentence of line curve cv.  Return: nothing. */
void nv_curve_knee_print(FILE *out, const struct nv_curves *c, const struct nv_curve *cv,
			 size_t s, enum nv_format f);

/* Side s's matrix of two-parameter curve cv.  Return: 0 or -ENOMEM. */
int nv_curve_matrix_print(FILE *out, const struct nv_curves *c, const struct nv_curve *cv,
			  size_t s, enum nv_format f);

/* Every --sla's table.  Return: 0 or -ENOMEM. */
int nv_curve_sla_print(FILE *out, const struct nv_curves *c, enum nv_format f);

/* fio's latency_target results.  Return: 0 or -ENOMEM. */
int nv_curve_fio_print_lt(FILE *out, const struct nv_curves *c, enum nv_format f);

/* fio's steadystate results.  Return: 0 or -ENOMEM. */
int nv_curve_fio_print_ss(FILE *out, const struct nv_curves *c, enum nv_format f);

/* The rounds rs: their table and each run's steady state.  Return: 0 or -ENOMEM. */
int nv_curve_rounds_print(FILE *out, const struct nv_curves *c, const struct nv_rounds *rs,
			  enum nv_format f);

#endif
