/*
 * multiout_cut.c - a file of several tool outputs cut into them
 * (multiout_cut.h): fio normal, JSON and terse, CrystalDiskMark, KDiskMark
 * and diskspd outputs, as multiout.h states the rules.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/fioterse.h"
#include "analyze/input/multiout_cut.h"
#include "analyze/input/textlines.h"

/* Room for one more, zeroed, at s->v[s->n]. Return: 0 or -ENOMEM. */
static int segs_grow(struct segs *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct seg *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	return 0;
}

void nv_mo_segs_free(struct segs *s)
{
	for (size_t i = 0; i < s->n; i++)
		nv_run_free(&s->v[i].run);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* The line at p (to end): its start without blanks. Return: that pointer. */
static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* True when the n bytes at p start with the string s. */
static bool starts(const char *p, size_t n, const char *s)
{
	size_t l = strlen(s);

	return n >= l && !memcmp(p, s, l);
}

/* True when the line [p, e) holds the string s. */
static bool has(const char *p, const char *e, const char *s)
{
	return memmem(p, (size_t)(e - p), s, strlen(s)) != NULL;
}

/*
 * True when the line [p, e) begins a fio normal output's job part: a job
 * header "NAME: (groupid=", a preamble "NAME: (g=0): rw=" or "fio-3.33".
 */
static bool normal_head(const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	if (starts(p, n, "fio-") && n > 4 && p[4] >= '0' && p[4] <= '9')
		return true;
	return has(p, e, ": (groupid=") || (has(p, e, ": (g=") && has(p, e, "rw="));
}

/* True when the line [p, e) is "{" and the next one, from e, is "fio version". */
static bool json_head(const char *p, const char *e, const char *end)
{
	const char *q;

	if (e - p < 1 || *p != '{' || (e - p > 1 && !(e - p == 2 && p[1] == '\r')))
		return false;
	q = skip_blank(e < end ? e + 1 : e, end);
	return starts(q, (size_t)(end - q), "\"fio version\"");
}

/* The line [p, e) past blanks and Markdown quote markers ("> "). Return: its start. */
static const char *line_start(const char *p, const char *e)
{
	p = skip_blank(p, e);
	while (p + 1 < e && *p == '>' && p[1] == ' ')
		p = skip_blank(p + 2, e);
	return p;
}

/*
 * True when the line [b, e) opens a CrystalDiskMark or KDiskMark export
 * ("CrystalDiskMark 8.0.4 x64 ...", "KDiskMark (3.0.0): ...").
 */
static bool cdm_head(const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	return (starts(b, n, "CrystalDiskMark ") && n > 16 && b[16] >= '0' && b[16] <= '9') ||
	       starts(b, n, "KDiskMark (");
}

/*
 * True when the line [b, e) is a CrystalDiskMark 7.x+ "[Read]" section: an
 * export's first results, its banner above it or, pasted alone, none.
 */
static bool cdm_read(const char *b, const char *e)
{
	return starts(b, (size_t)(e - b), "[Read]");
}

/* True when the line [b, e) opens a diskspd text report. */
static bool diskspd_head(const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	return starts(b, n, "Command Line:") || starts(b, n, "Input parameters:");
}

/* The state of the cut: what the output being read holds so far. */
struct cutstate {
	bool json, status;	/* fio: a JSON object; a "Run status group" line */
	bool cdm, diskspd;	/* an export's banner; a diskspd timespan's results */
	bool cdmread;		/* an export's [Read] section */
};

/*
 * Whether the line [b, e) starts the next output, and the state updated
 * with it.  Return: true to cut before it.
 */
static bool next_output(struct cutstate *cs, const char *b, const char *e, const char *end)
{
	bool jh = json_head(b, e, end), ch = cdm_head(b, e), dh = diskspd_head(b, e);
	bool rh = cdm_read(b, e);
	bool cut = (cs->json && jh) || (cs->status && normal_head(b, e)) ||
		   ((cs->cdm || cs->cdmread) && ch) || (cs->cdmread && rh) || (cs->diskspd && dh);

	if (cut)
		memset(cs, 0, sizeof(*cs));
	cs->json |= jh;
	cs->status |= starts(b, (size_t)(e - b), "Run status group");
	cs->cdm |= ch;
	cs->cdmread |= rh;
	cs->diskspd |= starts(b, (size_t)(e - b), "Results for timespan");
	return cut;
}

/* True when the line [b, e) is a tool's own first line (an output's start). */
static bool tool_line(const char *b, const char *e, const char *end)
{
	return json_head(b, e, end) || normal_head(b, e) || cdm_head(b, e) || cdm_read(b, e) ||
	       diskspd_head(b, e);
}

/*
 * Cut text into outputs (multiout.h's rules) in s: offsets and lengths,
 * and where each output's own text starts (its first tool line).  The
 * terse lines right before a JSON object that starts the next output are
 * that output's (fio's terse,json writes each output's terse lines first).
 * Return: 0 or -ENOMEM.
 */
int nv_mo_cut(const char *text, size_t len, struct segs *s)
{
	const char *p = text, *end = text + len, *terse = NULL;	/* its terse lines' start */
	struct cutstate cs = { 0 };
	unsigned line = 1, terse_line = 0;
	bool found = false;	/* the output being read has its first tool line */

	if (segs_grow(s))
		return -ENOMEM;
	s->n = 1;
	s->v[0].line = 1;
	for (; p < end; p++, line++) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *b, *at = p;
		bool jh;

		e = e ? e : end;
		b = line_start(p, e);
		jh = json_head(b, e, end);
		if (next_output(&cs, b, e, end)) {
			if (jh && terse)	/* its terse lines go with it */
				at = terse;
			s->v[s->n - 1].len = (size_t)(at - text) - s->v[s->n - 1].off;
			if (segs_grow(s))
				return -ENOMEM;
			s->v[s->n].off = s->v[s->n].at = (size_t)(at - text);
			s->v[s->n].line = at == p ? line : terse_line;
			s->n++;
			found = false;
			if (at != p)	/* the JSON head below is the output's tool line */
				found = true;
		}
		if (nv_fioterse_is_line(b, (size_t)(e - b))) {
			if (!terse) {
				terse = p;
				terse_line = line;
			}
		} else {
			terse = NULL;
		}
		if (!found && tool_line(b, e, end)) {
			s->v[s->n - 1].at = (size_t)(p - text);
			s->v[s->n - 1].line = line;
			found = true;
		}
		p = e;
	}
	s->v[s->n - 1].len = len - s->v[s->n - 1].off;
	return 0;
}

/*
 * True when output sg is a fio normal output without its end: a job's
 * header ("NAME: (groupid="), no "Run status group" line and no JSON of
 * its own (fio stopped while it wrote it).
 */
bool nv_mo_normal_cut_short(const char *text, const struct seg *sg)
{
	const char *p = text + sg->off, *end = p + sg->len, *e, *b;
	bool job = false;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		b = line_start(p, e);
		if (starts(b, (size_t)(e - b), "Run status group") || json_head(b, e, end))
			return false;
		job |= has(b, e, ": (groupid=");
	}
	return job;
}

/* The job name of the terse line [p, e): field 2 (version 2) or 3; *n its length. */
static const char *terse_name(const char *p, const char *e, size_t *n)
{
	unsigned skip = *p == '2' ? 1 : 2;
	const char *q = p, *semi;

	for (unsigned i = 0; i < skip && q; i++) {
		q = memchr(q, ';', (size_t)(e - q));
		q = q ? q + 1 : NULL;
	}
	if (!q)
		return NULL;
	semi = memchr(q, ';', (size_t)(e - q));
	*n = (size_t)((semi ? semi : e) - q);
	return q;
}

/* Whether terse lines i and k (offsets off[], ends end[]) name the same job. */
static bool same_name(const char *text, const size_t *off, const size_t *end, size_t i,
		      size_t k)
{
	size_t a, b;
	const char *x = terse_name(text + off[i], text + end[i], &a),
		   *y = terse_name(text + off[k], text + end[k], &b);

	return x && y && a == b && !memcmp(x, y, a);
}

/*
 * A file of fio terse lines (one a job, in the same order in each of fio's
 * outputs: --status-interval, or runs appended) cut into outputs in s: the
 * smallest period of the lines' job names that repeats at least twice;
 * *period is its lines (0: none, s left one output).  A last output of
 * fewer lines, each naming the job of its place (fio stopped while it
 * wrote them), is an output of its own, cut_short.  Each output's line
 * numbers are its first terse line's.  Return: 0 or -ENOMEM.
 */
int nv_mo_terse_cut(const char *text, size_t len, struct segs *s, size_t *period)
{
	size_t n = 0, cap = 0, *off = NULL, *end = NULL, *num = NULL;
	unsigned line = 1;
	int ret = 0;

	*period = 0;
	for (const char *p = text, *e; p < text + len; p = e + 1, line++) {
		e = memchr(p, '\n', (size_t)(text + len - p));
		e = e ? e : text + len;
		if (!nv_fioterse_is_line(p, (size_t)(e - p)))
			continue;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 16, *no = realloc(off, nc * sizeof(*no)),
			       *ne = no ? realloc(end, nc * sizeof(*ne)) : NULL,
			       *nn = ne ? realloc(num, nc * sizeof(*nn)) : NULL;

			off = no ? no : off;
			end = ne ? ne : end;
			num = nn ? nn : num;
			if (!no || !ne || !nn) {
				ret = -ENOMEM;
				goto out;
			}
			cap = nc;
		}
		num[n] = line;
		off[n] = (size_t)(p - text);
		end[n++] = (size_t)(e - text);
	}
	for (size_t p = 1; p <= n / 2 && !*period; p++) {
		bool same = true;

		for (size_t i = p; i < n && same; i++)
			same = same_name(text, off, end, i, i - p);
		if (same)
			*period = p;
	}
	if (*period && n) {
		s->v[0].at = off[0];
		s->v[0].line = (unsigned)num[0];
	}
	for (size_t i = *period; i && i < n && !ret; i += *period) {
		s->v[s->n - 1].len = off[i] - s->v[s->n - 1].off;
		ret = segs_grow(s);
		if (!ret) {
			s->v[s->n].off = s->v[s->n].at = off[i];
			s->v[s->n].line = (unsigned)num[i];
			s->v[s->n++].cut_short = n - i < *period;
		}
	}
	s->v[s->n - 1].len = len - s->v[s->n - 1].off;
	for (size_t i = 0; i < s->n; i++)
		s->v[i].one_name = *period == 1;
out:
	free(off);
	free(end);
	free(num);
	return ret;
}
