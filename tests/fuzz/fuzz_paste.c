/*
 * fuzz_paste - a page of results as people paste them, through the
 * framing (analyze/input/textlines.c: any encoding, quote markers, tags,
 * entities) and the cut into outputs and runs (analyze/input/multiout.c:
 * CrystalDiskMark, KDiskMark and diskspd outputs, headings, --split), as
 * `nvanalyze page.md` reads it.
 *
 * Input: the first byte picks --split (auto, outputs, headings, none), the
 * rest is the file.  nv_multiout_parse() must either accept it or refuse it
 * with one line naming the file.
 *
 * Invariants: the message above; accepted: at least one run; a page's runs
 * have a non-empty label each and first lines that grow; a run of a text
 * tool has jobs, each with a present direction, IOPS and bandwidth finite
 * and not negative; nv_text_decode gives text without a NUL that the input
 * lacks and, when it names a code page, valid UTF-8.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/multiout.h"
#include "analyze/input/textlines.h"
#include "tests/fuzz/fuzz.h"

static void check_error(const char *err)
{
	if (strncmp(err, "fuzz.md", 7))
		fuzz_fail("error without the file name: '%s'", err);
	if (strchr(err, '\n'))
		fuzz_fail("error message is not one line: '%s'", err);
}

/* True when s[0..n) is valid UTF-8. */
static bool utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = s[i] < 0x80		 ? 1
			   : (s[i] & 0xe0) == 0xc0 ? 2
			   : (s[i] & 0xf0) == 0xe0 ? 3
			   : (s[i] & 0xf8) == 0xf0 ? 4
						   : 0;

		if (!k || i + k > n)
			return false;
		for (size_t j = 1; j < k; j++)
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
		i += k;
	}
	return true;
}

static void check_decode(const uint8_t *data, size_t size)
{
	const char *enc = NULL;
	char *text = NULL;
	size_t n = 0;

	if (nv_text_decode((const char *)data, size, &text, &n, &enc))
		return;
	if (text[n] != '\0')
		fuzz_fail("decoded text not NUL-terminated");
	if (enc && strncmp(enc, "UTF-16", 6) && !utf8_ok((const unsigned char *)text, n))
		fuzz_fail("%s text converted to invalid UTF-8", enc);
	free(text);
}

static void check_run(const struct nv_run *r)
{
	if (nv_run_is_fio(r))
		return;
	if (!r->njobs)
		fuzz_fail("a %s run without jobs", r->format);
	for (size_t j = 0; j < r->njobs; j++) {
		bool any = false;

		for (int d = 0; d < NV_DIR_NR; d++) {
			const struct nv_dirstat *ds = &r->jobs[j].dir[d];

			any |= ds->present;
			if (!isfinite(ds->iops.v) || ds->iops.v < 0 || !isfinite(ds->bw.v) ||
			    ds->bw.v < 0)
				fuzz_fail("IOPS %g, bandwidth %g", ds->iops.v, ds->bw.v);
		}
		if (!any)
			fuzz_fail("job %s without a direction", r->jobs[j].name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nv_multiout m;
	char err[512] = "";

	if (!size)
		return 0;
	nv_multiout_split((enum nv_split)(data[0] % 4));
	data++;
	size--;
	check_decode(data, size);
	if (nv_multiout_parse((const char *)data, size, "fuzz.md", &m, err, sizeof(err))) {
		check_error(err);
		return 0;
	}
	if (!m.n)
		fuzz_fail("accepted without a run");
	for (size_t i = 0; i < m.n; i++) {
		check_run(&m.runs[i]);
		if (!m.page)
			continue;
		if (!m.labels[i] || !*m.labels[i])
			fuzz_fail("run %zu of a page without a label", i + 1);
		if (i && m.runs[i].line <= m.runs[i - 1].line)
			fuzz_fail("run %zu starts at line %u, before run %zu's %u", i + 1,
				  m.runs[i].line, i, m.runs[i - 1].line);
	}
	nv_multiout_free(&m);
	return 0;
}
