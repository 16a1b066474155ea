/*
 * json_value.h - the values the JSON outputs are built of: the report
 * (render_json.c), its load curves (curve_json.c) and its traces
 * (trace_json.c) set keys and make strings only through these.
 */
#ifndef NV_ANALYZE_JSON_VALUE_H
#define NV_ANALYZE_JSON_VALUE_H

#include <jansson.h>

/*
 * Set o[key] to v, or to null when v is NULL (a missing value); the
 * reference to v is taken.
 * Return: nothing.
 */
void nv_json_value_set(json_t *o, const char *key, json_t *v);

/*
 * s as a JSON string; bytes that are not UTF-8 (a -l label, a file name
 * from the command line) each as U+FFFD rather than the string dropped.
 * Return: the new reference, or NULL when out of memory.
 */
json_t *nv_json_value_str(const char *s);

/*
 * The length of the valid UTF-8 sequence at s (n > 0 bytes left): no
 * overlong form, no surrogate, nothing above U+10FFFF (jansson's rules).
 * Return: 1 to 4, or 0 when s does not start one.
 */
size_t nv_utf8_len(const char *s, size_t n);

#endif
