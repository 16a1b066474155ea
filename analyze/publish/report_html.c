/*
 * report_html.c - DIR/report.html of `nvanalyze -o`: report.md as one
 * self-contained page that reads as a study, for mail, tickets and "save
 * as PDF".  The Markdown nvanalyze wrote (headings, paragraphs, lists,
 * tables, code, emphasis, links, figure images) becomes HTML: the title a
 * <header>, the contents a <nav> whose links reach every heading (the ids
 * are report.md's anchors, anchors.h), each "## " a <section>, each "### "
 * (a job, a traced run) a <details> open until clicked shut, the figures
 * of a section beside its tables, each figure its rendered file inline:
 * the SVG when SVGs were asked for (ids made unique per figure), else the
 * PNG as a base64 data: URI.  The style is one inline <style>: light
 * and dark colours (prefers-color-scheme), figures on a white card, and a
 * print style.  Nothing is loaded from anywhere: no script, no style
 * sheet, no image file, every image a data: URI (links to the directory's
 * files are shown as their names).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/figures/figset.h"
#include "analyze/publish/anchors.h"
#include "analyze/publish/report_html.h"
#include "analyze/publish/report_md.h"
#include "analyze/report/escape.h"

/* The screen's look: a study's tables (rules, no grid), figures beside them. */
const char nv_report_html_style[] =
	"body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"max-width:1400px;margin:2em auto;padding:0 1.5em;color:#1b1f24;background:#ffffff}"
	"h1,h2,h3,h4{line-height:1.25}h1{font-size:1.9em;margin:.2em 0 .6em}"
	"h2{font-size:1.45em;margin-top:1.8em;border-bottom:1px solid #d0d7de;"
	"padding-bottom:.2em}a{color:#0550ae;text-decoration:none}a:hover{text-decoration:"
	"underline}a.top{font-size:.6em;vertical-align:middle;margin-left:.3em;color:#8c959f}"
	"nav.toc{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;"
	"padding:.4em 1.2em;margin:1em 0 1.5em}nav.toc h2{font-size:1.1em;border:0;margin:.4em 0}"
	"nav.toc ul{margin:.3em 0 .6em;padding-left:1.2em}nav.toc li{margin:.2em 0}"
	"details{margin:1.2em 0;border-top:1px solid #d0d7de;padding-top:.3em}"
	"summary{cursor:pointer}summary::marker{color:#8c959f}"
	"summary h3{display:inline;font-size:1.15em}"
	"table{border-collapse:collapse;margin:.6em 0;font-variant-numeric:tabular-nums;"
	"font-size:14px;border-top:2px solid #57606a;border-bottom:2px solid #57606a}"
	"th{text-align:left;border-bottom:1px solid #57606a;padding:.3em .7em}"
	"td{border-bottom:1px solid #eaeef2;padding:.2em .7em;white-space:nowrap}"
	"tr:nth-child(even) td{background:#f6f8fa}"
	"td.r,th.r{text-align:right}td.better{color:#1a7f37}td.worse{color:#b42318}"
	"code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:90%;"
	"background:#f0f3f6;border-radius:4px}code{padding:.1em .3em}pre{padding:.6em;"
	"overflow:auto}"
	".pair{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
	".pair>.text{flex:1 1 540px}"
	".pair>.figs{flex:1 1 460px;min-width:min(460px,100%);display:grid;"
	"grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:.8em}"
	"figure{margin:1em 0;padding:.5em;background:#ffffff;color:#000000;border:1px solid "
	"#d0d7de;border-radius:6px}.figs figure{margin:.6em 0 0;max-width:900px}"
	"figure svg,figure img{display:block;width:100%;height:auto}"
	"figcaption{font-size:90%;color:#333333;margin-top:.3em}"
	"@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}"
	"a{color:#58a6ff}nav.toc{background:#161b22;border-color:#30363d}"
	"tr:nth-child(even) td{background:#161b22}th,table{border-color:#8b949e}"
	"td,h2,details{border-color:#30363d}td.better{color:#3fb950}td.worse{color:#f85149}"
	"code,pre{background:#161b22}}";

/*
 * "Save as PDF": black on white, no navigation, a page per "## " section
 * and per job, every <details> open, figures and tables not split.
 */
static const char html_print_style[] =
	"@media print{@page{size:A4;margin:14mm 12mm}"
	"body{font-size:10pt;max-width:none;margin:0;padding:0;color:#000;background:#fff}"
	"nav.toc,a.top{display:none}section{break-before:page}"
	"nav+section,header+section{break-before:auto}"
	"details{border:0}details::details-content{content-visibility:visible;display:block}"
	"summary{list-style:none}summary::-webkit-details-marker{display:none}"
	"section>details+details{break-before:page}h1,h2,h3,summary{break-after:avoid}"
	"table,figure,pre{break-inside:avoid}p:has(+table){break-after:avoid}"
	".pair,.pair>.figs{display:block}"
	"figure{border:0;padding:0;margin:.6em auto;max-width:165mm}"
	"table{font-size:9pt}td{white-space:normal}th,table{border-color:#000}"
	"td{border-color:#ccc}"
	"tr:nth-child(even) td{background:none}td.better{color:#1a7f37}td.worse{color:#b42318}"
	"a{color:inherit}code,pre{background:none}body,td,th{color:#000}}";

/* The page being written. */
struct page {
	FILE *f;
	const struct nv_figset *o;
	struct nv_anchors anchors;	/* the headings' ids, as report.md's contents */
	unsigned nfig, figs;		/* figure lines seen (their SVG ids), figures shown */
	const char *open;		/* the element of the "# " or "## " heading, or NULL */
	bool details;			/* a "### " <details> is open */
	bool toc;			/* the contents were written */
};

/*
 * One line of Markdown inline text: `code`, **strong**, *em*, [text](target)
 * (shown as the text and the target's name in code: no link to follow, but
 * for a target "#anchor" on the page, a link).
 */
static void put_inline(FILE *f, const char *s, size_t n)
{
	bool strong = false, em = false;

	for (size_t i = 0; i < n; i++) {
		const char *e;

		if (s[i] == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
			nv_esc_html(f, s + ++i, 1);	/* an escape of escape.h */
		} else if (s[i] == '`' && (e = memchr(s + i + 1, '`', n - i - 1))) {
			fputs("<code>", f);
			nv_esc_html(f, s + i + 1, (size_t)(e - s - i - 1));
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

			if (*t == '#') {	/* a heading of the page: a link */
				fputs("<a href=\"", f);
				nv_esc_html(f, t, (size_t)(te - t));
				fputs("\">", f);
				put_inline(f, s + i + 1, (size_t)(e - s - i - 1));
				fputs("</a>", f);
				i = (size_t)(te - s);
				continue;
			}
			put_inline(f, s + i + 1, (size_t)(e - s - i - 1));
			if ((size_t)(te - t) != (size_t)(e - s - i - 1) ||
			    memcmp(t, s + i + 1, (size_t)(te - t))) {
				fputs(" (<code>", f);
				nv_esc_html(f, t, (size_t)(te - t));
				fputs("</code>)", f);
			}
			i = (size_t)(te - s);
		} else {
			nv_esc_html(f, s + i, 1);
		}
	}
	if (em)
		fputs("</em>", f);
	if (strong)
		fputs("</strong>", f);
}

/*
 * The first '|' of s that is not escaped ("\|", escape.h).
 * Return: a pointer to it, or NULL.
 */
static const char *next_bar(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '|')
			return s;
	}
	return NULL;
}

/* The cells of a "| a | b |" line: pointers and lengths, trimmed. */
static size_t split_row(const char *s, const char **cell, size_t *len, size_t max)
{
	size_t n = 0;
	const char *p = next_bar(s);

	while (p && n < max) {
		const char *q = next_bar(p + 1), *a = p + 1, *b;

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
 * The class of a cell by its verdict: a change's "(better)" or "(worse)"
 * (ending it, or before the interval of repeats: "-25.4% (better)
 * [-34.0%, -15.7%] n=3+3"), a claim's "met", "not met".
 * Return: "better", "worse" or "" (none).
 */
static const char *cell_verdict(const char *c, size_t n)
{
	static const struct { const char *mark, *cls; } v[] = {
		{ " (better)", "better" }, { " (worse)", "worse" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const char *at = memmem(c, n, v[i].mark, strlen(v[i].mark));
		size_t end = at ? (size_t)(at - c) + strlen(v[i].mark) : 0;

		if (at && (end == n || c[end] == ' '))	/* the end, or " [lo, hi] n=A+B" */
			return v[i].cls;
	}
	if (n >= 7 && !memcmp(c + n - 7, "not met", 7))
		return "worse";
	return n == 3 && !memcmp(c, "met", 3) ? "better" : "";
}

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
			const char *v = head ? "" : cell_verdict(cell[c], len[c]);

			fputs(head ? "<th" : "<td", f);
			if (right[c] || *v)
				fprintf(f, " class=\"%s%s%s\"", right[c] ? "r" : "",
					right[c] && *v ? " " : "", v);
			fputc('>', f);
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
 * The figure NAME (nl bytes of name) from its rendered file in DIR: the SVG
 * inline when SVGs were rendered (--figures svg or png,svg), else the PNG
 * as a data: URI (base64, escape.h), alt text the caption's; nothing when
 * the file is missing or not what gnuplot writes.
 * Return: 1 when the figure was written, else 0.
 */
static int put_rendered(FILE *f, const struct nv_figset *o, const char *name, size_t nl,
			const char *cap, size_t capl, unsigned fig)
{
	static const char png_magic[] = "\x89PNG\r\n\x1a\n";
	bool svg = o->formats & NV_FIG_SVG;
	char path[PATH_MAX], *buf;
	size_t n = 0;
	int shown = 0;

	if (!o->formats)
		return 0;
	snprintf(path, sizeof(path), "%s/%.*s.%s", o->dir, (int)nl, name, svg ? "svg" : "png");
	buf = slurp(path, &n);
	if (!buf)
		return 0;
	if (svg && strstr(buf, "<svg") && !strstr(buf, "<script")) {
		put_svg(f, buf, fig);
		shown = 1;
	} else if (!svg && n > 8 && !memcmp(buf, png_magic, 8)) {
		fputs("<img alt=\"", f);
		nv_esc_html(f, cap, capl);
		fputs("\" src=\"data:image/png;base64,", f);
		nv_esc_base64(f, buf, n);
		fputs("\">\n", f);
		shown = 1;
	}
	free(buf);
	return shown;
}

/*
 * A figure line "![caption](NAME.png)" or "(NAME.svg)": the rendered
 * figure with its caption (put_rendered), or a note on how to render it.
 * Return: 1 when the figure was shown, else 0.
 */
static int put_figure(FILE *f, const struct nv_figset *o, const char *line, unsigned fig)
{
	const char *cap = line + 2, *ce = strchr(cap, ']'), *name, *ne;
	int shown;

	if (!ce || ce[1] != '(' || !(ne = strchr(ce, ')')))
		return 0;
	name = ce + 2;
	if (ne - name > 4 && (!memcmp(ne - 4, ".png", 4) || !memcmp(ne - 4, ".svg", 4)))
		ne -= 4;
	fputs("<figure id=\"fig-", f);
	nv_esc_html(f, name, (size_t)(ne - name));
	fputs("\">\n", f);
	shown = put_rendered(f, o, name, (size_t)(ne - name), cap, (size_t)(ce - cap), fig);
	if (!shown)
		fprintf(f, "<p>(not rendered: run <code>gnuplot %s%.*s.gp</code>)</p>\n",
			o->formats & NV_FIG_SVG ? "-e \"fmt='svg'\" " : "",
			(int)(ne - name), name);
	fputs("<figcaption>", f);
	put_inline(f, cap, (size_t)(ce - cap));
	fputs("</figcaption>\n</figure>\n", f);
	return shown;
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
			nv_esc_html(f, t, strlen(t));
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

/* Whether a line is a figure, "![caption](NAME.png)".  Return: true if so. */
static bool is_figure(const char *l)
{
	return !strncmp(l, "![", 2);
}

/*
 * The blocks of lines[i..k) (no heading among them) as HTML: all but the
 * figures (figs false), or only the figures (figs true).
 * Return: nothing.
 */
static void put_blocks(struct page *p, char **lines, size_t i, size_t k, bool figs)
{
	while (i < k) {
		const char *l = lines[i];

		if (!l[0] || is_figure(l) != figs) {
			i++;
		} else if (figs) {
			p->figs += (unsigned)put_figure(p->f, p->o, l, ++p->nfig);
			i++;
		} else if (l[0] == '|') {
			i += put_table(p->f, lines, i, k);
		} else if (!strncmp(l, "- ", 2)) {
			i += put_run(p->f, lines, i, k, true);
		} else if (!strncmp(l, "    ", 4)) {
			i += put_run(p->f, lines, i, k, false);
		} else {
			i += put_para(p->f, lines, i, k);
		}
	}
}

/*
 * The text between two headings: with both figures and other blocks, the
 * figures beside the rest (a two-column "pair" that wraps on narrow pages
 * and in print), else the blocks in order.
 * Return: nothing.
 */
static void put_chunk(struct page *p, char **lines, size_t i, size_t k)
{
	bool fig = false, text = false;

	for (size_t j = i; j < k; j++) {
		fig |= is_figure(lines[j]);
		text |= lines[j][0] && !is_figure(lines[j]);
	}
	if (!fig || !text) {
		put_blocks(p, lines, i, k, fig);
		return;
	}
	fputs("<div class=\"pair\">\n<div class=\"text\">\n", p->f);
	put_blocks(p, lines, i, k, false);
	fputs("</div>\n<div class=\"figs\">\n", p->f);
	put_blocks(p, lines, i, k, true);
	fputs("</div>\n</div>\n", p->f);
}

/* Close what is open down to heading level h (a details at 3, a section at 2). */
static void close_to(struct page *p, size_t h)
{
	if (p->details && h <= 3) {
		fputs("</details>\n", p->f);
		p->details = false;
	}
	if (p->open && h <= 2) {
		fprintf(p->f, "</%s>\n", p->open);
		p->open = NULL;
	}
}

/*
 * A heading of level h and text t[0..len), with its anchor as id (the one
 * report.md's contents link to): the title opens the <header>, the
 * contents a <nav>, another "## " a <section> (a page of its own in print),
 * a "### " a <details> open on screen, shut by a click.
 * Return: 0 or -ENOMEM.
 */
static int put_heading(struct page *p, size_t h, const char *t, size_t len)
{
	char id[256];
	int ret = nv_anchor_next(&p->anchors, t, len, id, sizeof(id));

	if (ret)
		return ret;
	close_to(p, h);
	if (h == 1) {
		p->open = "header";
		fprintf(p->f, "<header>\n<h1 id=\"%s\">", id);
	} else if (h == 2 && len == strlen(NV_REPORT_MD_CONTENTS) &&
		   !memcmp(t, NV_REPORT_MD_CONTENTS, len)) {
		p->open = "nav";
		p->toc = true;
		fprintf(p->f, "<nav class=\"toc\" id=\"%s\">\n<h2>", id);
	} else if (h == 2) {
		p->open = "section";
		fprintf(p->f, "<section id=\"%s\">\n<h2>", id);
	} else if (h == 3) {
		p->details = true;
		fprintf(p->f, "<details open id=\"%s\">\n<summary><h3>", id);
	} else {
		fprintf(p->f, "<h%zu id=\"%s\">", h, id);
	}
	put_inline(p->f, t, len);
	if (h == 2 && p->toc && strcmp(p->open, "nav"))
		fputs(" <a class=\"top\" href=\"#contents\" title=\"back to the contents\">"
		      "↑</a>", p->f);
	fprintf(p->f, "</h%zu>%s\n", h, h == 3 ? "</summary>" : "");
	return 0;
}

/*
 * The body: each heading and the blocks up to the next.
 * Return: 0 or -ENOMEM.
 */
static int put_body(struct page *p, char **lines, size_t nl)
{
	for (size_t i = 0; i < nl;) {
		const char *l = lines[i];
		size_t h = strspn(l, "#"), k;

		if (h >= 1 && h <= 6 && l[h] == ' ') {
			if (put_heading(p, h, l + h + 1, strlen(l + h + 1)))
				return -ENOMEM;
			i++;
			continue;
		}
		for (k = i + 1; k < nl; k++) {
			h = strspn(lines[k], "#");
			if (h >= 1 && h <= 6 && lines[k][h] == ' ')
				break;
		}
		put_chunk(p, lines, i, k);
		i = k;
	}
	close_to(p, 1);
	return 0;
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
	struct page p = { .f = f, .o = o };

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n"
		"<title>" NV_REPORT_MD_TITLE "</title>\n<style>%s%s</style>\n</head>\n<body>\n",
		nv_report_html_style, html_print_style);
	if (put_body(&p, src->lines, src->nl))
		fputs("<p><strong>report.html is incomplete: out of memory</strong></p>\n", f);
	fputs("</body>\n</html>\n", f);
	nv_anchors_free(&p.anchors);
	return p.figs;
}

void nv_report_html_src_free(struct nv_html_src *src)
{
	free(src->lines);
	free(src->md);
	memset(src, 0, sizeof(*src));
}
