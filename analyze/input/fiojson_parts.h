/*
 * fiojson_parts.h - the parts of the fio JSON reader, private to
 * analyze/input/fiojson*.c: the framing (fiojson_frame.c: where the fio
 * objects of a file are, the notes about the text around them, the position
 * of a parse error) and one direction with the JSON numbers, and the job's
 * latency buckets (fiojson_dir.c).  It includes no header of analyze/ (the
 * types are those of fiojson.h), so that fiojson.c and its parts include no
 * circle (fiojson_dir.c reaches fioladder.h, fiojson.c does not).
 */
#ifndef NV_ANALYZE_FIOJSON_PARTS_H
#define NV_ANALYZE_FIOJSON_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct nv_run;
struct nv_val;
struct nv_dirstat;
struct nv_jobextra;

/* ---- fiojson_dir.c ------------------------------------------------------ */

/* A number member (integer or real) of o.  Return: false if absent or not a number. */
bool fj_get_num(const json_t *o, const char *key, double *v);
/* A non-negative integer member, exact (an integral real too).  Return: false if not. */
bool fj_get_u64(const json_t *o, const char *key, uint64_t *v);
/* *val set to v, from fio.  Return: nothing. */
void fj_set_val(struct nv_val *val, double v);
/* One direction's object d into *ds.  Return: 0 or -ENOMEM. */
int fj_parse_dir(const json_t *d, struct nv_dirstat *ds);
/*
 * The job object e's latency buckets ("latency_ns", "latency_us",
 * "latency_ms") onto fio's ladder in x (fioladder.h).  Return: 0 or -ENOMEM.
 */
int fj_parse_buckets(const json_t *e, struct nv_jobextra *x);

/* ---- fiojson_frame.c ---------------------------------------------------- */

/* A note of run o (nv_note_add). */
#define run_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/* What fj_find_objects found in a file. */
struct framing {
	json_t *last;		/* the object used (a reference) */
	unsigned objects, distinct;
	size_t before, after;	/* non-blank bytes outside the objects */
	json_error_t first_err;	/* the first parse error, if no object parsed */
	size_t first_err_off;
	bool have_err, first_not_fio, trailing_err;
	json_error_t trail_err;
	size_t trail_off;
};

/*
 * The fio objects of buf[0..len) into *f (f zeroed by the caller; f->last
 * holds a reference).  Return: nothing; f->objects 0 when there are none.
 */
void fj_find_objects(const char *buf, size_t len, struct framing *f);
/*
 * The notes about the text around the objects *f found; text_read: that
 * text is fio's normal or terse output the caller reads (no "ignored" note).
 * Return: nothing.
 */
void fj_framing_notes(struct nv_run *run, const char *buf, size_t len, const struct framing *f,
		      bool text_read);
/* "path:line:col" of the error at off (or of bad UTF-8 before it) into out.  Return: nothing. */
void fj_err_pos(char *out, size_t n, const char *path, const char *buf, size_t len,
		size_t off, const json_error_t *e);
/*
 * UTF-16 (big-endian when be) p[0..len) as UTF-8, *outlen its length.
 * Return: the text (free it), NULL when memory ran out.
 */
char *fj_utf16_to_utf8(const unsigned char *p, size_t len, bool be, size_t *outlen);

#endif
