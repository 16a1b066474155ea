/*
 * detect.h - which tool wrote a results file, and the reader for it.
 *
 * nvanalyze reads fio JSON and the text outputs storage engineers keep
 * (fio's normal and terse output, CrystalDiskMark exports, diskspd text
 * and XML reports).  The format is told from the content, never from the
 * file name: each reader has a sniff function that looks at the decoded
 * text and says whether the file is its format.  The first reader in the
 * table (detect.c) whose sniff says yes parses the file into the same
 * struct nv_run the fio JSON reader fills.
 */
#ifndef NV_ANALYZE_DETECT_H
#define NV_ANALYZE_DETECT_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/input/fiojson.h"

/*
 * One reader.  sniff gets the text as UTF-8 (a BOM removed, UTF-16 converted)
 * and returns true when the text is this reader's format.  parse has the
 * contract of nv_fio_parse (fiojson.h): 0 and *run filled, or -errno with a
 * one-line message naming path (and the line, where there is one) in err.
 */
struct nv_format {
	const char *name;	/* "fio-json", "fio-normal", ...: --format json's "format" */
	const char *what;	/* "fio JSON (--output-format=json)": for error messages */
	bool (*sniff)(const char *text, size_t len);
	int (*parse)(const char *text, size_t len, const char *path, struct nv_run *run,
		     char *err, size_t errlen);
};

/*
 * Convert buf (len bytes) to UTF-8 as nv_text_decode (textlines.h): UTF-16
 * with or without a BOM, a UTF-8 BOM removed, a Windows code page
 * (cp1251, cp1252, cp932) converted.  *out is set to a malloc'ed copy
 * (NUL-terminated; free it) and *outlen to its length.
 * Return: 0, -ENOMEM, or -EILSEQ for UTF-16 that does not convert.
 */
int nv_input_decode(const char *buf, size_t len, char **out, size_t *outlen);

/*
 * buf as text for the readers: nv_text_decode's, except that a JSON or XML
 * report (fio JSON, diskspd -Rxml) is never read in a Windows code page:
 * they are UTF-8, a stray byte is damage their reader names.  *enc as
 * nv_text_decode sets it (NULL then).
 * Return: as nv_text_decode.
 */
int nv_input_text(const char *buf, size_t len, char **out, size_t *outlen, const char **enc);

/*
 * The note on run that path was read as the code page enc (cp1251 ...).
 * Return: nothing.
 */
void nv_input_note_encoding(struct nv_run *run, const char *path, const char *enc);

/*
 * The reader for the (decoded) text, or NULL when no reader knows it.
 * Return: a pointer into a static table.
 */
const struct nv_format *nv_input_detect(const char *text, size_t len);

/*
 * Decode buf, detect its format and parse it.  run->format is set to the
 * reader's name.  An unrecognised file gets one line in err naming the
 * formats nvanalyze reads.
 * Return: 0, or -errno / -EINVAL with err set (nothing to free).
 */
int nv_input_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		   char *err, size_t errlen);

#endif
