/*
 * fuzz_names - a job name (any bytes; a NUL ends it, as in a C string)
 * through the escapers of every output language that a name reaches: the
 * Markdown and text of the reports (escape.h) and a Markdown table of it
 * (grid.h), a CSV field (render.h), gnuplot's script strings and data
 * fields (gpquote.h).
 *
 * Invariants: Markdown and text: no raw control byte; Markdown: no
 * unescaped '|' or '`', and unescaping gives the name back; a table's rows are of equal width and
 * column count.  CSV: the field read back per RFC 4180 is the name (a
 * formula start behind a "'").  gnuplot: no raw '`', '@', '"' or control
 * byte in a script string, and decoding its escapes gives the name back; a
 * data field holds no '"' and no control byte.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/figures/gpquote.h"
#include "analyze/report/escape.h"
#include "analyze/report/grid.h"
#include "analyze/report/render.h"
#include "tests/fuzz/fuzz.h"

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Markdown/text escapes undone, checked on the way. */
static void md_back(const char *e, const char *name, enum nv_format f)
{
	size_t len = strlen(e), o = 0;
	char *d = malloc(len + 1);

	if (!d)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)e[i];

		if (c < 0x20 || c == 0x7f)
			fuzz_fail("escaped name holds control byte 0x%02x", c);
		if (f != NV_FMT_MD)	/* text keeps a '\\' as it is: no way back */
			continue;
		if (c == '|' || c == '`')
			fuzz_fail("unescaped '%c' in Markdown", c);
		if (c != '\\') {
			d[o++] = (char)c;
			continue;
		}
		c = (unsigned char)e[++i];
		if (c == 'n' || c == 't') {
			d[o++] = c == 'n' ? '\n' : '\t';
		} else if (c == 'x' && hex(e[i + 1]) >= 0 && hex(e[i + 2]) >= 0) {
			d[o++] = (char)(hex(e[i + 1]) * 16 + hex(e[i + 2]));
			i += 2;
		} else if (c && strchr("\\|`<", c)) {
			d[o++] = (char)c;
		} else {
			fuzz_fail("unknown escape '\\%c'", c ? c : '0');
		}
	}
	d[o] = 0;
	if (f == NV_FMT_MD && strcmp(d, name))
		fuzz_fail("Markdown escape does not give the name back");
	free(d);
}

/* Display width as grid.c counts it; '|' not after a backslash. */
static void row_shape(const char *l, size_t n, size_t *w, size_t *bars)
{
	*w = *bars = 0;
	for (size_t i = 0; i < n; i++) {
		*w += ((unsigned char)l[i] & 0xc0) != 0x80;
		if (l[i] == '\\' && i + 1 < n)
			*w += ((unsigned char)l[++i] & 0xc0) != 0x80;
		else
			*bars += l[i] == '|';
	}
}

static void md_table(const char *name)
{
	struct nv_grid g;
	char *buf = NULL;
	size_t len = 0, w0 = 0, b0 = 0;
	FILE *f;

	if (nv_grid_init(&g, 3, 2))
		return;
	nv_grid_set(&g, 0, 0, "job");
	nv_grid_set(&g, 0, 1, name);
	nv_grid_set(&g, 1, 0, name);
	nv_grid_set(&g, 1, 1, "1");
	nv_grid_set(&g, 2, 0, "x");
	nv_grid_set(&g, 2, 1, name);
	if ((f = open_memstream(&buf, &len))) {
		nv_grid_print(f, &g, NV_FMT_MD);
		fclose(f);
	}
	for (const char *l = buf; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t w, b;

		if (!e)
			fuzz_fail("table without its last newline");
		row_shape(l, (size_t)(e - l), &w, &b);
		if (l == buf) {
			w0 = w;
			b0 = b;
		} else if (w != w0 || b != b0) {
			fuzz_fail("table rows of width/columns %zu/%zu and %zu/%zu", w0, b0, w, b);
		}
		l = e + 1;
	}
	free(buf);
	nv_grid_free(&g);
}

static void csv_back(const char *name)
{
	char *buf = NULL, *d;
	size_t len = 0, o = 0, i = 0;
	bool formula = *name && strchr("=+-@\t\r", *name);
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	nv_render_csv_field(f, name, true, true);
	fclose(f);
	if (!buf || !(d = malloc(len + 1)))
		goto out;
	if (buf[0] == '"') {
		for (i = 1; i < len; i++) {
			if (buf[i] == '"' && buf[i + 1] == '"')
				d[o++] = buf[i++];
			else if (buf[i] == '"')
				break;
			else
				d[o++] = buf[i];
		}
		if (i != len - 1)
			fuzz_fail("CSV field does not end at its closing quote");
	} else {
		if (strpbrk(buf, ",\"\r\n"))
			fuzz_fail("unquoted CSV field holds a separator or quote");
		memcpy(d, buf, len);
		o = len;
	}
	d[o] = 0;
	if (formula ? d[0] != '\'' || strcmp(d + 1, name) : strcmp(d, name))
		fuzz_fail("CSV field does not read back as the name");
	free(d);
out:
	free(buf);
}

/* A gnuplot script string's escapes undone into d, checked on the way. */
static void gp_decode(const char *e, char *d)
{
	size_t o = 0;

	for (size_t i = 0; e[i]; i++) {
		unsigned char c = (unsigned char)e[i];

		if (c < 0x20 || c == 0x7f || c == '`' || c == '@' || c == '"')
			fuzz_fail("gnuplot string holds raw 0x%02x", c);
		if (c != '\\') {
			d[o++] = (char)c;
			continue;
		}
		c = (unsigned char)e[++i];
		if (c == 'n' || c == 't')
			d[o++] = c == 'n' ? '\n' : '\t';
		else if (c == '\\' || c == '"')
			d[o++] = (char)c;
		else if (c >= '0' && c <= '3' && e[i + 1] >= '0' && e[i + 1] <= '7' &&
			 e[i + 2] >= '0' && e[i + 2] <= '7') {
			d[o++] = (char)((c - '0') * 64 + (e[i + 1] - '0') * 8 + (e[i + 2] - '0'));
			i += 2;
		} else
			fuzz_fail("gnuplot string: an unknown or half escape");
	}
	d[o] = 0;
}

static void gnuplot_back(const char *name)
{
	size_t len = strlen(name), n = 4 * len + 4, k;
	char *e = malloc(n), *d = malloc(len + 8);

	if (!e || !d)
		goto out;
	nv_gnuplot_str(e, n, name);
	gp_decode(e, d);
	if (strcmp(d, name))
		fuzz_fail("gnuplot string does not give the name back");
	nv_gnuplot_data_str(e, n, name);
	for (size_t i = 0; e[i]; i++)
		if ((unsigned char)e[i] < 0x20 || e[i] == 0x7f || e[i] == '"')
			fuzz_fail("gnuplot data field holds raw 0x%02x", (unsigned char)e[i]);
	nv_gnuplot_str(e, 12, name);	/* cut: whole escapes, then "..." */
	gp_decode(e, d);
	k = strlen(d);
	if (k >= 3 && !strcmp(d + k - 3, "...") && strncmp(d, name, k) &&
	    strncmp(d, name, k - 3))
		fuzz_fail("cut gnuplot string is not the name's beginning");
out:
	free(e);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_strndup(data, size), *e;

	if (!name)
		return 0;
	for (enum nv_format f = NV_FMT_MD; f <= NV_FMT_TEXT; f++) {
		if ((e = nv_esc_dup(name, f))) {
			md_back(e, name, f);
			free(e);
		}
	}
	md_table(name);
	csv_back(name);
	gnuplot_back(name);
	free(name);
	return 0;
}
