/*
 * grid.h - a table of strings (row 0 the header) printed as Markdown (first
 * column left-aligned, the others right-aligned) or aligned text; any other
 * format prints as text.
 */
#ifndef NV_ANALYZE_GRID_H
#define NV_ANALYZE_GRID_H

#include <stdio.h>

#include "analyze/report/format.h"

struct nv_grid {
	size_t rows, cols;
	char **cell;		/* rows * cols strings */
};

/* Return: 0, or -ENOMEM. */
int nv_grid_init(struct nv_grid *g, size_t rows, size_t cols);
/* Set cell (r, c) to a copy of s.  Return: nothing. */
void nv_grid_set(struct nv_grid *g, size_t r, size_t c, const char *s);
/* Print the grid in format f.  Return: nothing (the stream's error flag tells). */
void nv_grid_print(FILE *out, const struct nv_grid *g, enum nv_format f);
/* Return: nothing; g's strings are freed. */
void nv_grid_free(struct nv_grid *g);

#endif
