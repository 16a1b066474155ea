/*
 * fuzz_diskspdxml - a diskspd XML report (-Rxml) through detection and the
 * XML reader (analyze/input/diskspdxml.c), as `nvanalyze report.xml` reads it.
 *
 * Input: the bytes of a results file (UTF-8, or UTF-16 with a BOM).
 * nv_input_parse() must either accept it or refuse it with a one-line
 * message naming the file; a file taken for diskspd XML that is refused
 * names its line too ("fuzz.xml:LINE: ...", LINE >= 1).
 *
 * Invariants: the messages above; an accepted diskspd XML run has jobs,
 * each with both directions, bytes only where there are IOs, IOPS and
 * bandwidth finite and not negative, percentile points ascending in level.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/detect.h"
#include "analyze/input/fiojson.h"
#include "tests/fuzz/fuzz.h"

static void check_error(const char *err, bool xml)
{
	unsigned line = 0;

	if (strncmp(err, "fuzz.xml:", 9))
		fuzz_fail("error without the file name: '%s'", err);
	if (strchr(err, '\n'))
		fuzz_fail("error message is not one line: '%s'", err);
	if (xml && strncmp(err, "fuzz.xml: out of memory", 23) &&
	    (sscanf(err, "fuzz.xml:%u: ", &line) != 1 || line < 1))
		fuzz_fail("a diskspd XML error without its line: '%s'", err);
}

static void check_dir(const struct nv_dirstat *ds)
{
	const struct nv_latstat *ls = &ds->lat[NV_LAT_TOTAL];

	if (!ds->present || !ds->have_ios)
		fuzz_fail("a diskspd direction without its IO count");
	if (!ds->ios && ds->io_bytes)
		fuzz_fail("%llu bytes in 0 IOs", (unsigned long long)ds->io_bytes);
	if (!isfinite(ds->iops.v) || ds->iops.v < 0 || !isfinite(ds->bw.v) || ds->bw.v < 0)
		fuzz_fail("IOPS %g, bandwidth %g", ds->iops.v, ds->bw.v);
	if (!ds->ios && (ls->npoints || ls->mean.src))
		fuzz_fail("latencies of a direction without IOs");
	for (size_t i = 1; i < ls->npoints; i++)
		if (ls->points[i].pct < ls->points[i - 1].pct)
			fuzz_fail("percentile %g after %g", ls->points[i].pct,
				  ls->points[i - 1].pct);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nv_run run;
	char err[512] = "", *text = NULL;
	size_t tlen = 0;
	bool xml = false;

	if (!nv_input_decode((const char *)data, size, &text, &tlen)) {
		const struct nv_format *f = nv_input_detect(text, tlen);

		xml = f && !strcmp(f->name, "diskspd-xml");
		free(text);
	}
	if (nv_input_parse((const char *)data, size, "fuzz.xml", &run, err, sizeof(err))) {
		check_error(err, xml);
		return 0;
	}
	if (xml && !run.njobs)
		fuzz_fail("a diskspd XML run without jobs");
	for (size_t j = 0; xml && j < run.njobs; j++)
		for (int d = NV_DIR_READ; d <= NV_DIR_WRITE; d++)
			check_dir(&run.jobs[j].dir[d]);
	nv_run_free(&run);
	return 0;
}
