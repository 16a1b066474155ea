/*
 * json_value.c - the values the JSON report is built of (json_value.h):
 * a key set to a value or to null, a string from any bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/report/json_value.h"

void nv_json_value_set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v ? v : json_null());
}

size_t nv_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = u[0] < 0x80 ? 1 : u[0] >= 0xc2 && u[0] < 0xe0 ? 2 :
		     u[0] >= 0xe0 && u[0] < 0xf0 ? 3 : u[0] >= 0xf0 && u[0] < 0xf5 ? 4 : 0;
	unsigned cp;

	if (!len || len > n)
		return 0;
	cp = len == 1 ? u[0] : u[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

json_t *nv_json_value_str(const char *s)
{
	json_t *v = json_string(s);
	size_t len = strlen(s), o = 0;
	char *fixed;

	if (v || !(fixed = malloc(3 * len + 1)))	/* U+FFFD is 3 bytes */
		return v;
	for (size_t i = 0; i < len;) {
		size_t n = nv_utf8_len(s + i, len - i);

		if (n) {
			memcpy(fixed + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(fixed + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	fixed[o] = 0;
	v = json_string(fixed);
	free(fixed);
	return v;
}
