/*
 * test_escape_base64.c - the one base64 encoding (escape.h: nv_esc_base64)
 * of report.html's PNG figures: RFC 4648's test vectors, every padding,
 * every byte value and the alphabet's two last characters.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/report/escape.h"
#include "tests/unit/check.h"

/* nv_esc_base64 of n bytes of p as a string (static buffer). */
static const char *b64(const void *p, size_t n)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	nv_esc_base64(f, p, n);
	fclose(f);
	return buf;
}

TEST(rfc4648_vectors)
{
	CHECK_STR(b64("", 0), "");
	CHECK_STR(b64("f", 1), "Zg==");
	CHECK_STR(b64("fo", 2), "Zm8=");
	CHECK_STR(b64("foo", 3), "Zm9v");
	CHECK_STR(b64("foob", 4), "Zm9vYg==");
	CHECK_STR(b64("fooba", 5), "Zm9vYmE=");
	CHECK_STR(b64("foobar", 6), "Zm9vYmFy");
}

TEST(high_bytes_and_alphabet_end)
{
	static const unsigned char png[] = { 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a };
	static const unsigned char ends[] = { 0xfb, 0xff, 0xbf, 0x00 };

	CHECK_STR(b64(png, sizeof(png)), "iVBORw0KGgo=");
	CHECK_STR(b64(ends, sizeof(ends)), "+/+/AA==");
}

int main(void)
{
	RUN(rfc4648_vectors);
	RUN(high_bytes_and_alphabet_end);
	return check_summary();
}
