/*
 * detect.c - tell a results file's format from its content and read it.
 *
 * The table below is the one place that lists the readers.  Order matters
 * only where two formats can share a file: fio's --output-format=normal,
 * terse,json writes all three into one file, and the reader picked for it
 * reads the JSON and checks the others against it.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/input/cdm.h"
#include "analyze/input/detect.h"
#include "analyze/input/diskspd.h"
#include "analyze/input/diskspdxml.h"
#include "analyze/input/fiomulti.h"
#include "analyze/input/fionormal.h"
#include "analyze/input/fioterse.h"

static bool fio_json_sniff(const char *text, size_t len)
{
	return memmem(text, len, "\"fio version\"", 13) || memmem(text, len, "\"jobs\"", 6) ||
	       memmem(text, len, "\"client_stats\"", 14);
}

static const struct nv_format formats[] = {
	{ .name = "fio-json+text", .what = "fio's --output-format=normal,terse,json in one file",
	  .sniff = nv_fiomulti_sniff, .parse = nv_fiomulti_parse },
	{ .name = "fio-json", .what = "fio JSON (--output-format=json or json+)",
	  .sniff = fio_json_sniff, .parse = nv_fio_parse },
	{ .name = "crystaldiskmark", .what = "CrystalDiskMark 5.x-9.x text exports",
	  .sniff = nv_cdm_sniff, .parse = nv_cdm_parse },
	{ .name = "diskspd", .what = "diskspd 2.0-2.2 text reports",
	  .sniff = nv_diskspd_sniff, .parse = nv_diskspd_parse },
	{ .name = "diskspd-xml", .what = "diskspd 2.0-2.2 XML reports (-Rxml)",
	  .sniff = nv_diskspdxml_sniff, .parse = nv_diskspdxml_parse },
	{ .name = "fio-normal", .what = "fio normal output (2.x and 3.x)",
	  .sniff = nv_fionormal_sniff, .parse = nv_fionormal_parse },
	{ .name = "fio-terse", .what = "fio terse output (versions 2 to 5)",
	  .sniff = nv_fioterse_sniff, .parse = nv_fioterse_parse },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static int utf16_decode(const char *buf, size_t len, bool be, char **out, size_t *outlen)
{
	iconv_t cd = iconv_open("UTF-8", be ? "UTF-16BE" : "UTF-16LE");
	size_t cap = len / 2 * 3 + 4, inleft = len, outleft = cap;
	char *in = (char *)buf, *o, *res;
	int ret = 0;

	if (cd == (iconv_t)-1)
		return -errno;
	res = malloc(cap + 1);
	if (!res) {
		ret = -ENOMEM;
		goto out;
	}
	o = res;
	if (iconv(cd, &in, &inleft, &o, &outleft) == (size_t)-1 && errno != EINVAL) {
		ret = -EILSEQ;
		free(res);
		goto out;
	}
	*o = '\0';
	*out = res;
	*outlen = (size_t)(o - res);
out:
	iconv_close(cd);
	return ret;
}

int nv_input_decode(const char *buf, size_t len, char **out, size_t *outlen)
{
	const unsigned char *u = (const unsigned char *)buf;
	char *res;

	if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff)))
		return utf16_decode(buf + 2, len - 2, u[0] == 0xfe, out, outlen);
	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		buf += 3;
		len -= 3;
	}
	res = malloc(len + 1);
	if (!res)
		return -ENOMEM;
	memcpy(res, buf, len);
	res[len] = '\0';
	*out = res;
	*outlen = len;
	return 0;
}

const struct nv_format *nv_input_detect(const char *text, size_t len)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].sniff(text, len))
			return &formats[i];
	return NULL;
}

static const struct nv_format *format_named(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

static void list_formats(char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS && o < n; i++) {
		int w = snprintf(buf + o, n - o, "%s%s", i ? ", " : "", formats[i].what);

		if (w < 0)
			break;
		o += (size_t)w;
	}
}

int nv_input_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		   char *err, size_t errlen)
{
	const struct nv_format *f;
	char *text = NULL, names[512];
	size_t tlen = 0;
	int ret;

	memset(run, 0, sizeof(*run));
	ret = nv_input_decode(buf, len, &text, &tlen);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENOMEM ? "out of memory" : "UTF-16 text that does not convert");
		return ret;
	}
	f = nv_input_detect(text, tlen);
	if (!f && !memchr(text, '{', tlen)) {
		list_formats(names, sizeof(names));
		snprintf(err, errlen, "%s: %s; nvanalyze reads %s", path,
			 tlen ? "not a results file nvanalyze knows" : "empty file", names);
		free(text);
		return -EINVAL;
	}
	if (!f)
		f = format_named("fio-json");	/* JSON-like: its reader says what is wrong */
	ret = f->parse(text, tlen, path, run, err, errlen);
	free(text);
	if (!ret)
		run->format = f->name;
	return ret;
}
