/*
 * fiojson_dir.h - one direction of a fio JSON job and the JSON numbers,
 * private to analyze/input/fiojson*.c.
 */
#ifndef NV_ANALYZE_FIOJSON_DIR_H
#define NV_ANALYZE_FIOJSON_DIR_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "analyze/input/fiojson.h"

/* A number member (integer or real) of o.  Return: false if absent or not a number. */
bool fj_get_num(const json_t *o, const char *key, double *v);
/* A non-negative integer member, exact (an integral real too).  Return: false if not. */
bool fj_get_u64(const json_t *o, const char *key, uint64_t *v);
/* *val set to v, from fio.  Return: nothing. */
void fj_set_val(struct nv_val *val, double v);
/* One direction's object d into *ds.  Return: 0 or -ENOMEM. */
int fj_parse_dir(const json_t *d, struct nv_dirstat *ds);

#endif
