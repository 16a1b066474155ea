/*
 * detect.c - tell a results file's format from its content and read it.
 *
 * The table below is the one place that lists the readers.  Order matters
 * only where two formats can share a file: fio's --output-format=normal,
 * terse,json writes all three into one file, and the reader picked for it
 * reads the JSON and checks the others against it.
 */
#include <errno.h>
#include <stdbool.h>
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
#include "analyze/input/textlines.h"

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

int nv_input_decode(const char *buf, size_t len, char **out, size_t *outlen)
{
	return nv_text_decode(buf, len, out, outlen, NULL);
}

int nv_input_text(const char *buf, size_t len, char **out, size_t *outlen, const char **enc)
{
	const struct nv_format *f;
	int ret = nv_text_decode(buf, len, out, outlen, enc);

	if (ret || !*enc || !strncmp(*enc, "UTF-16", 6))
		return ret;
	f = nv_input_detect(*out, *outlen);
	if (!f || (strncmp(f->name, "fio-json", 8) && strcmp(f->name, "diskspd-xml")))
		return 0;
	free(*out);	/* JSON and XML are UTF-8: a stray byte is their damage */
	*enc = NULL;
	*out = malloc(len + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, buf, len);
	(*out)[len] = '\0';
	*outlen = len;
	return 0;
}

void nv_input_note_encoding(struct nv_run *run, const char *path, const char *enc)
{
	nv_note_add(&run->notes, &run->nnotes, "%s: not UTF-8: read as %s text (iconv); "
		    "its numbers are ASCII in any code page", path, enc);
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

/* A tool's own line, for a file that names its tool but no reader takes. */
static const struct {
	const char *mark;	/* at a line's start (after blanks, quote markers) */
	const char *tool;	/* the tool, its version after the mark */
	const char *what;	/* its output */
	const char *expect;	/* what its results would be */
} tool_marks[] = {
	{ .mark = "CrystalDiskMark ", .tool = "CrystalDiskMark", .what = "export",
	  .expect = "result lines such as 'SEQ 1MiB (Q= 8, T= 1): 3500.123 MB/s [ 3338.0 IOPS]' "
		    "or 'Sequential Read : 505.825 MB/s' after its banner" },
	{ .mark = "KDiskMark (", .tool = "KDiskMark", .what = "export",
	  .expect = "result lines such as 'Sequential 1 MiB (Q= 8, T= 1): 508.897 MB/s [ 497.0 "
		    "IOPS]' after its banner" },
	{ .mark = "Command Line:", .tool = "diskspd", .what = "text report",
	  .expect = "'Results for timespan 1:' and its IO tables ('thread | bytes | I/Os | MiB/s "
		    "| I/O per s ...') after its command line" },
};

/*
 * The tool text names (a banner or command line at a line's start, with a
 * digit or "diskspd" after it) into err as "path:LINE: TOOL VERSION ...:
 * expected ...".  Return: true when it names one.
 */
static bool named_tool(const char *text, size_t len, const char *path, char *err,
		       size_t errlen)
{
	unsigned line = 1;

	for (const char *p = text, *end = text + len; p < end; line++) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *b = p;

		e = e ? e : end;
		while (b < e && (*b == ' ' || *b == '\t' || *b == '>'))
			b++;
		for (size_t i = 0; i < sizeof(tool_marks) / sizeof(tool_marks[0]); i++) {
			size_t n = strlen(tool_marks[i].mark), v;
			const char *after = b + n;

			if ((size_t)(e - b) <= n || memcmp(b, tool_marks[i].mark, n))
				continue;
			if (i == 2 ? !memmem(b, (size_t)(e - b), "iskspd", 6) :
				     !(*after >= '0' && *after <= '9'))
				continue;
			v = i == 2 ? 0 : strspn(after, "0123456789.");
			snprintf(err, errlen, "%s:%u: a %s%s%.*s %s without its results: expected "
				 "%s (the file cut or damaged?)", path, line, tool_marks[i].tool,
				 v ? " " : "", (int)v, after, tool_marks[i].what,
				 tool_marks[i].expect);
			return true;
		}
		p = e + 1;
	}
	return false;
}

int nv_input_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		   char *err, size_t errlen)
{
	const struct nv_format *f;
	char *text = NULL, names[512];
	const char *enc = NULL;
	size_t tlen = 0;
	int ret;

	memset(run, 0, sizeof(*run));
	ret = nv_input_text(buf, len, &text, &tlen, &enc);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENOMEM ? "out of memory" : "UTF-16 text that does not convert");
		return ret;
	}
	f = nv_input_detect(text, tlen);
	if (!f && named_tool(text, tlen, path, err, errlen)) {
		free(text);
		return -EINVAL;
	}
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
	if (!ret && enc && strncmp(enc, "UTF-16", 6))
		nv_input_note_encoding(run, path, enc);
	return ret;
}
