/*
 * grid.c - a table of strings printed as a Markdown table or as text padded
 * to column widths (the comparison blocks, the trace sections, the claims).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/escape.h"
#include "analyze/report/grid.h"

int nv_grid_init(struct nv_grid *g, size_t rows, size_t cols)
{
	g->rows = rows;
	g->cols = cols;
	g->cell = calloc(rows * cols, sizeof(*g->cell));
	return g->cell ? 0 : -ENOMEM;
}

void nv_grid_set(struct nv_grid *g, size_t r, size_t c, const char *s)
{
	free(g->cell[r * g->cols + c]);
	g->cell[r * g->cols + c] = strdup(s);
}

void nv_grid_free(struct nv_grid *g)
{
	for (size_t i = 0; i < g->rows * g->cols; i++)
		free(g->cell[i]);
	free(g->cell);
}

/* Display width: UTF-8 continuation bytes do not count. */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/*
 * The grid's cells escaped for f (escape.h), or NULL when out of memory.
 * Return: rows * cols strings, freed with free_cells.
 */
static char **esc_cells(const struct nv_grid *g, enum nv_format f)
{
	char **e = calloc(g->rows * g->cols, sizeof(*e));

	for (size_t i = 0; e && i < g->rows * g->cols; i++)
		if (!(e[i] = nv_esc_dup(g->cell[i] ? g->cell[i] : "", f))) {
			while (i--)
				free(e[i]);
			free(e);
			e = NULL;
		}
	return e;
}

static void free_cells(char **e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i]);
	free(e);
}

/*
 * Markdown: first column left-aligned, the rest right-aligned; every cell
 * escaped (a '|' or a newline from an input splits no row).
 */
void nv_grid_print(FILE *out, const struct nv_grid *g, enum nv_format f)
{
	size_t *w = calloc(g->cols, sizeof(*w));
	char **e = esc_cells(g, f);

	if (!w || !e) {
		free(w);
		if (e)
			free_cells(e, g->rows * g->cols);
		return;
	}
	for (size_t r = 0; r < g->rows; r++)
		for (size_t c = 0; c < g->cols; c++)
			if (width(e[r * g->cols + c]) > w[c])
				w[c] = width(e[r * g->cols + c]);
	for (size_t r = 0; r < g->rows; r++) {
		for (size_t c = 0; c < g->cols; c++) {
			const char *s = e[r * g->cols + c];
			int pad = (int)(w[c] - width(s));

			if (f == NV_FMT_MD && !c)
				fprintf(out, "| %s%*s |", s, pad, "");
			else if (f == NV_FMT_MD)
				fprintf(out, " %*s%s |", pad, "", s);
			else if (!c)
				fprintf(out, "%s%*s", s, pad, "");
			else
				fprintf(out, "  %*s%s", pad, "", s);
		}
		fputc('\n', out);
		if (r == 0) {
			for (size_t c = 0; c < g->cols; c++) {
				if (f == NV_FMT_MD) {
					fputs(c ? " " : "| ", out);
					for (size_t i = 0; i + 1 < w[c]; i++)
						fputc('-', out);
					fputs(c ? ": |" : "- |", out);
				} else {
					fputs(c ? "  " : "", out);
					for (size_t i = 0; i < w[c]; i++)
						fputc('-', out);
				}
			}
			fputc('\n', out);
		}
	}
	free_cells(e, g->rows * g->cols);
	free(w);
}
