/*
 * report_html.c - DIR/report.html of `nvanalyze -o`: report.md as one
 * self-contained page, for mail and tickets.  The Markdown nvanalyze wrote
 * (headings, paragraphs, lists, tables, code, emphasis, links, figure
 * images) becomes HTML; each figure is its rendered SVG inlined (ids made
 * unique per figure); the style is one inline <style> with light and dark
 * colours (prefers-color-scheme), figures on a white card.  Nothing is
 * loaded from anywhere: no script, no style sheet, no image file, no link
 * target needed (links to the directory's files are shown as their names).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/figures/figset.h"
#include "analyze/publish/report_html.h"

static const char html_style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;max-width:1100px;"
	"margin:2em auto;padding:0 1em;color:#1b1f24;background:#ffffff}"
	"h1,h2,h3,h4{line-height:1.2}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em}"
	"table{border-collapse:collapse;margin:.6em 0;font-variant-numeric:tabular-nums}"
	"th,td{border:1px solid #d0d7de;padding:.25em .6em}th{background:#f0f3f6}"
	"td.r,th.r{text-align:right}code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;"
	"font-size:90%;background:#f0f3f6;border-radius:4px}code{padding:.1em .3em}"
	"pre{padding:.6em;overflow:auto}"
	"figure{margin:1em 0;padding:.5em;background:#ffffff;color:#000000;border:1px solid "
	"#d0d7de;border-radius:6px}figure svg{display:block;width:100%;height:auto}"
	"figcaption{font-size:90%;color:#333333;margin-top:.3em}"
	"@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}"
	"th{background:#161b22}th,td,h2{border-color:#30363d}code,pre{background:#161b22}}";

/* Text with &, <, > and " escaped. */
static void put_escaped(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

/*
 * One line of Markdown inline text: `code`, **strong**, *em*, [text](target)
 * (shown as the text and the target's name in code: no link to follow).
 */
static void put_inline(FILE *f, const char *s, size_t n)
{
	bool strong = false, em = false;

	for (size_t i = 0; i < n; i++) {
		const char *e;

		if (s[i] == '`' && (e = memchr(s + i + 1, '`', n - i - 1))) {
			fputs("<code>", f);
			put_escaped(f, s + i + 1, (size_t)(e - s - i - 1));
			fputs("</code>", f);
			i = (size_t)(e - s);
		} else if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			fputs(strong ? "</strong>" : "<strong>", f);
			strong = !strong;
			i++;
		} else if (s[i] == '*' && (em || (i + 1 < n && s[i + 1] != ' ' &&
						    memchr(s + i + 1, '*', n - i - 1)))) {
			fputs(em ? "</em>" : "<em>", f);
			em = !em;
		} else if (s[i] == '[' && (e = memchr(s + i, ']', n - i)) &&
			   (size_t)(e - s) + 1 < n && e[1] == '(' &&
			   memchr(e, ')', n - (size_t)(e - s))) {
			const char *t = e + 2, *te = memchr(e, ')', n - (size_t)(e - s));

			put_inline(f, s + i + 1, (size_t)(e - s - i - 1));
			if ((size_t)(te - t) != (size_t)(e - s - i - 1) ||
			    memcmp(t, s + i + 1, (size_t)(te - t))) {
				fputs(" (<code>", f);
				put_escaped(f, t, (size_t)(te - t));
				fputs("</code>)", f);
			}
			i = (size_t)(te - s);
		} else {
			put_escaped(f, s + i, 1);
		}
	}
	if (em)
		fputs("</em>", f);
	if (strong)
		fputs("</strong>", f);
}

/* The cells of a "| a | b |" line: pointers and lengths, trimmed. */
static size_t split_row(const char *s, const char **cell, size_t *len, size_t max)
{
	size_t n = 0;
	const char *p = strchr(s, '|');

	while (p && n < max) {
		const char *q = strchr(p + 1, '|'), *a = p + 1, *b;

		if (!q)
			break;
		b = q;
		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		cell[n] = a;
		len[n++] = (size_t)(b - a);
		p = q;
	}
	return n;
}

#define MAX_COLS 64

/*
 * A Markdown table starting at lines[i] (header, separator, rows).
 * Return: the number of lines it took.
 */
static size_t put_table(FILE *f, char **lines, size_t i, size_t nl)
{
	const char *cell[MAX_COLS];
	size_t len[MAX_COLS], nc, k = i;
	bool right[MAX_COLS] = { false };

	if (i + 1 < nl && lines[i + 1][0] == '|') {
		nc = split_row(lines[i + 1], cell, len, MAX_COLS);
		for (size_t c = 0; c < nc; c++)
			right[c] = len[c] && cell[c][len[c] - 1] == ':';
	}
	fputs("<table>\n", f);
	for (; k < nl && lines[k][0] == '|'; k++) {
		bool head = k == i;

		if (k == i + 1)
			continue;	/* the separator */
		nc = split_row(lines[k], cell, len, MAX_COLS);
		fputs("<tr>", f);
		for (size_t c = 0; c < nc; c++) {
			fprintf(f, "<%s%s>", head ? "th" : "td", right[c] ? " class=\"r\"" : "");
			put_inline(f, cell[c], len[c]);
			fprintf(f, "</%s>", head ? "th" : "td");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	return k - i;
}

/*
 * Read a whole file.
 * Return: the NUL-terminated text (free it), or NULL (missing, no memory).
 */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long sz;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (sz = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)sz + 1))) {
		*n = fread(buf, 1, (size_t)sz, f);
		buf[*n] = 0;
	}
	fclose(f);
	return buf;
}

/*
 * Write the SVG document svg from its <svg element on, every id and
 * reference to one prefixed with "fN-" (figures share gnuplot's id names).
 */
static void put_svg(FILE *f, const char *svg, unsigned fig)
{
	static const char *const marks[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	const char *p = strstr(svg, "<svg");

	while (p && *p) {
		const char *best = NULL;
		size_t bl = 0;

		for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
			const char *q = strstr(p, marks[m]);

			if (q && (!best || q < best)) {
				best = q;
				bl = strlen(marks[m]);
			}
		}
		if (!best) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(best - p) + bl, f);
		fprintf(f, "f%u-", fig);
		p = best + bl;
	}
	fputc('\n', f);
}

/*
 * A figure line "![caption](NAME.png)": NAME.svg inline with its caption,
 * or a note when it was not rendered.
 * Return: 1 when an SVG was inlined, else 0.
 */
static int put_figure(FILE *f, const struct nv_figset *o, const char *line, unsigned fig)
{
	const char *cap = line + 2, *ce = strchr(cap, ']'), *name, *ne;
	char path[PATH_MAX], *svg;
	size_t n = 0;

	if (!ce || ce[1] != '(' || !(ne = strchr(ce, ')')))
		return 0;
	name = ce + 2;
	if (ne - name > 4 && !memcmp(ne - 4, ".png", 4))
		ne -= 4;
	snprintf(path, sizeof(path), "%s/%.*s.svg", o->dir, (int)(ne - name), name);
	svg = slurp(path, &n);
	fputs("<figure>\n", f);
	if (svg && strstr(svg, "<svg") && !strstr(svg, "<script"))
		put_svg(f, svg, fig);
	else
		fprintf(f,
			"<p>(not rendered: run <code>gnuplot -e \"fmt='svg'\" "
			"%.*s.gp</code>)</p>\n",
			(int)(ne - name), name);
	fputs("<figcaption>", f);
	put_inline(f, cap, (size_t)(ce - cap));
	fputs("</figcaption>\n</figure>\n", f);
	n = svg && strstr(svg, "<svg") && !strstr(svg, "<script");
	free(svg);
	return (int)n;
}

/*
 * A run of "- " lines as a list (list), or of lines indented by 4 spaces as
 * preformatted text.
 * Return: the number of lines.
 */
static size_t put_run(FILE *f, char **lines, size_t i, size_t nl, bool list)
{
	const char *pre = list ? "- " : "    ";
	size_t k = i, pl = strlen(pre);

	fputs(list ? "<ul>\n" : "<pre>", f);
	for (; k < nl && !strncmp(lines[k], pre, pl); k++) {
		const char *t = lines[k] + pl;

		if (list) {
			fputs("<li>", f);
			put_inline(f, t, strlen(t));
			fputs("</li>\n", f);
		} else {
			put_escaped(f, t, strlen(t));
			fputc('\n', f);
		}
	}
	fputs(list ? "</ul>\n" : "</pre>\n", f);
	return k - i;
}

/* A paragraph: the lines up to a blank or a block. Return: the number of lines. */
static size_t put_para(FILE *f, char **lines, size_t i, size_t nl)
{
	size_t k = i;

	fputs("<p>", f);
	for (; k < nl && lines[k][0] && lines[k][0] != '#' && lines[k][0] != '|' &&
	       strncmp(lines[k], "- ", 2) && strncmp(lines[k], "![", 2); k++) {
		if (k > i)
			fputc('\n', f);
		put_inline(f, lines[k], strlen(lines[k]));
	}
	fputs("</p>\n", f);
	return k > i ? k - i : 1;
}

/* The body: each Markdown block of lines[0..nl) as HTML. Return: figures inlined. */
static unsigned put_body(FILE *f, const struct nv_figset *o, char **lines, size_t nl)
{
	unsigned figs = 0, nfig = 0;

	for (size_t i = 0; i < nl;) {
		const char *l = lines[i];
		size_t h = strspn(l, "#");

		if (!l[0]) {
			i++;
		} else if (h >= 1 && h <= 6 && l[h] == ' ') {
			fprintf(f, "<h%zu>", h);
			put_inline(f, l + h + 1, strlen(l + h + 1));
			fprintf(f, "</h%zu>\n", h);
			i++;
		} else if (l[0] == '|') {
			i += put_table(f, lines, i, nl);
		} else if (!strncmp(l, "![", 2)) {
			figs += (unsigned)put_figure(f, o, l, ++nfig);
			i++;
		} else if (!strncmp(l, "- ", 2)) {
			i += put_run(f, lines, i, nl, true);
		} else if (!strncmp(l, "    ", 4)) {
			i += put_run(f, lines, i, nl, false);
		} else {
			i += put_para(f, lines, i, nl);
		}
	}
	return figs;
}

/* Split text into lines in place. Return: the line array (free it) or NULL. */
static char **split_lines(char *text, size_t *nl)
{
	size_t cap = 256, n = 0;
	char **l = malloc(cap * sizeof(*l)), *p = text;

	while (l && *p) {
		char *e = strchr(p, '\n');

		if (n == cap) {
			char **nlines = realloc(l, 2 * cap * sizeof(*l));

			if (!nlines) {
				free(l);
				return NULL;
			}
			l = nlines;
			cap *= 2;
		}
		l[n++] = p;
		if (!e)
			break;
		*e = 0;
		p = e + 1;
	}
	*nl = n;
	return l;
}

int nv_report_html_read(const char *dir, struct nv_html_src *src, char *err, size_t errlen)
{
	char path[PATH_MAX];

	memset(src, 0, sizeof(*src));
	snprintf(path, sizeof(path), "%s/report.md", dir);
	src->md = slurp(path, &src->n);
	if (src->md)
		src->lines = split_lines(src->md, &src->nl);
	if (!src->lines) {
		free(src->md);
		src->md = NULL;
		snprintf(err, errlen, "-o: cannot read %s back for report.html", path);
		return -ENOMEM;
	}
	return 0;
}

unsigned nv_report_html_put(FILE *f, const struct nv_figset *o, const struct nv_html_src *src)
{
	unsigned nfigs;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n"
		"<title>Storage benchmark report</title>\n<style>%s</style>\n</head>\n<body>\n",
		html_style);
	nfigs = put_body(f, o, src->lines, src->nl);
	fputs("</body>\n</html>\n", f);
	return nfigs;
}

void nv_report_html_src_free(struct nv_html_src *src)
{
	free(src->lines);
	free(src->md);
	memset(src, 0, sizeof(*src));
}
