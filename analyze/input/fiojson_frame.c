/*
 * fiojson_frame.c - the framing of fio's JSON output (fiojson.c): the
 * objects in a file (text before and after, several objects, an incomplete
 * last one), UTF-8 and UTF-16 text, the line and column of an error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze/common.h"
#include "analyze/input/fiojson.h"
#include "analyze/input/fiojson_parts.h"

static bool is_fio_object(const json_t *o)
{
	return json_is_object(o) &&
	       (json_is_array(json_object_get(o, "jobs")) ||
		json_is_array(json_object_get(o, "client_stats")));
}

static void line_col(const char *buf, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Length of the valid UTF-8 sequence at p[0..n) (1 to 4), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t need;
	unsigned lo = 0x80, hi = 0xbf;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		need = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		need = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		need = 4;
	else
		return 0;
	/* overlong forms, surrogates and values above U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < need || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return need;
}

/* Offset of the first byte at or after off that is not valid UTF-8, or len. */
static size_t first_bad_utf8(const char *buf, size_t len, size_t off)
{
	const unsigned char *u = (const unsigned char *)buf;

	while (off < len) {
		size_t k = utf8_seq(u + off, len - off);

		if (!k)
			return off;
		off += k;
	}
	return len;
}

/*
 * "path:line:col" of a jansson error in a parse that started at offset off
 * of buf (len bytes; jansson counts from its own start).  A column jansson
 * gives as 0 (at the end of input) is left out.  Bytes that are not UTF-8
 * jansson reports without a column (outside strings without a line): the
 * position is then that of the first such byte.
 */
void fj_err_pos(char *out, size_t n, const char *path, const char *buf, size_t len,
		size_t off, const json_error_t *e)
{
	int line, col, el = e->line > 0 ? e->line : 1;
	size_t bad;

	if (json_error_code(e) == json_error_invalid_utf8 &&
	    (bad = first_bad_utf8(buf, len, off)) < len) {
		line_col(buf, bad, &line, &col);
		snprintf(out, n, "%s:%d:%d", path, line, col);
		return;
	}
	line_col(buf, off, &line, &col);
	line += el - 1;
	col = el == 1 ? col + e->column - 1 : e->column;
	if (e->column > 0)
		snprintf(out, n, "%s:%d:%d", path, line, col);
	else
		snprintf(out, n, "%s:%d", path, line);
}

/* Is offset i a place a JSON object may start: '{' first in its line? */
static bool line_start_brace(const char *buf, size_t i)
{
	if (buf[i] != '{')
		return false;
	while (i > 0 && (buf[i - 1] == ' ' || buf[i - 1] == '\t'))
		i--;
	return i == 0 || buf[i - 1] == '\n' || buf[i - 1] == '\r';
}

/*
 * Convert a UTF-16 buffer (after its BOM) to UTF-8.  Windows PowerShell's
 * ">" writes fio's output that way.  Returns a malloc'ed buffer or NULL.
 */
char *fj_utf16_to_utf8(const unsigned char *p, size_t len, bool be, size_t *outlen)
{
	char *out = malloc(len / 2 * 3 + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint32_t c =
			be ? (uint32_t)(p[i] << 8 | p[i + 1]) : (uint32_t)(p[i + 1] << 8 | p[i]);

		if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
			uint32_t c2 = be ? (uint32_t)(p[i + 2] << 8 | p[i + 3])
					 : (uint32_t)(p[i + 3] << 8 | p[i + 2]);
			if (c2 >= 0xdc00 && c2 < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
				i += 2;
			}
		}
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = 0;
	*outlen = o;
	return out;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Find the fio JSON objects in buf.  Every '{' is a candidate (fio's
 * messages, or a stray character, may precede the JSON on its line); each is
 * decoded with JSON_DISABLE_EOF_CHECK so that what follows it may be text or
 * another object.  Inner objects of a truncated file decode fine but are not
 * fio objects (no "jobs"/"client_stats"), so they are skipped.  After a
 * complete object, a failing candidate at the start of a line is reported as
 * an incomplete trailing object (an interrupted status-interval dump).  The
 * search stops at nesting too deep for jansson (crafted or damaged input).
 */
void fj_find_objects(const char *buf, size_t len, struct framing *f)
{
	size_t pos = 0, textstart = 0;

	while (pos < len) {
		json_error_t e;
		json_t *o;

		if (buf[pos] != '{') {
			pos++;
			continue;
		}
		o = json_loadb(buf + pos, len - pos, JSON_DISABLE_EOF_CHECK, &e);
		if (!o && json_error_code(&e) == json_error_stack_overflow) {
			/* Nested deeper than jansson goes (2048): so is every
			 * '{' inside, and trying each is quadratic.  No fio
			 * output looks like this; stop here. */
			if (!f->objects && !f->have_err) {
				f->first_err = e;
				f->first_err_off = pos;
				f->have_err = true;
			}
			break;
		}
		if (!is_fio_object(o)) {
			if (!o && !f->objects && !f->have_err) {
				f->first_err = e;
				f->first_err_off = pos;
				f->have_err = true;
			} else if (!o && f->objects && !f->trailing_err &&
				   line_start_brace(buf, pos)) {
				f->trail_err = e;
				f->trail_off = pos;
				f->trailing_err = true;
			} else if (o && !f->objects && !f->have_err) {
				f->first_not_fio = true;
			}
			json_decref(o);
			pos++;
			continue;
		}
		for (size_t i = textstart; i < pos; i++)
			if (!blank(buf[i]))
				*(f->objects ? &f->after : &f->before) += 1;
		f->objects++;
		if (!f->last || !json_equal(f->last, o))
			f->distinct++;
		json_decref(f->last);
		f->last = o;
		f->trailing_err = false;
		f->after = 0;
		pos += e.position;
		textstart = pos;
	}
	for (size_t i = textstart; i < len && f->objects; i++)
		if (!blank(buf[i]))
			f->after++;
}

void fj_framing_notes(struct nv_run *run, const char *buf, size_t len, const struct framing *f,
		      bool text_read)
{
	char pos[512];

	if (f->before && !text_read)
		run_note(run, "%s: %zu bytes of text before the JSON ignored (fio messages?)",
			 run->path, f->before);
	if (f->objects > 1 && f->distinct == 1)
		run_note(run, "%s: the same JSON object appears %u times; counted once",
			 run->path, f->objects);
	else if (f->objects > 1)
		run_note(run,
			 "%s: %u JSON objects (status-interval snapshots?); using the last one",
			 run->path, f->objects);
	if (f->trailing_err) {
		fj_err_pos(pos, sizeof(pos), run->path, buf, len, f->trail_off, &f->trail_err);
		run_note(run, "%s: incomplete JSON object after the last complete one ignored: %s",
			 pos, f->trail_err.text);
	}
	if (f->after && !f->trailing_err && !text_read)
		run_note(run, "%s: %zu bytes of text after the JSON ignored (json,normal output?)",
			 run->path, f->after);
}
