/*
 * fuzz_fiojson - fio JSON output through the whole nvanalyze pipeline.
 *
 * Input: the bytes of a fio output file.  nv_fio_parse() must either accept
 * it or refuse it with a one-line "path:line:col: what" message; an accepted
 * run is compared with itself (two sides, every job and direction) and the
 * report printed in all four formats to /dev/null, as `nvanalyze a.json
 * a.json` would.
 *
 * Invariants: an error names the file (and a syntax error the position); an accepted run has
 * sane counts; a run compared with itself shows no change wherever a change
 * is computed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/report/model.h"
#include "analyze/input/fiojson.h"
#include "analyze/report/render.h"
#include "tests/fuzz/fuzz.h"

static FILE *devnull;

/*
 * "fuzz.json: ..." naming the file; a syntax error also has the position,
 * "fuzz.json:LINE:COL: not valid JSON: ..." (LINE alone at the end of the
 * input), and a byte that is not UTF-8 always its column.
 */
static void check_error(const char *err)
{
	unsigned line = 0, col = 0;
	int got;

	if (strncmp(err, "fuzz.json:", 10))
		fuzz_fail("error without the file name: '%s'", err);
	if (strchr(err, '\n'))
		fuzz_fail("error message is not one line: '%s'", err);
	if (!strstr(err, "not valid JSON"))
		return;
	got = sscanf(err, "fuzz.json:%u:%u: ", &line, &col);
	if (got < 1 || line < 1)
		fuzz_fail("syntax error without a position: '%s'", err);
	if (strstr(err, "unable to decode byte") && (got < 2 || col < 1))
		fuzz_fail("undecodable byte without a column: '%s'", err);
}

static void report(const struct nv_run *run)
{
	struct nv_side sides[2] = {
		{ .label = "a", .nruns = 1, .runs = run },
		{ .label = "b", .nruns = 1, .runs = run },
	};
	struct nv_select sel = { 0 };
	struct nv_report r;

	if (nv_report_build(sides, 2, 1, NULL, 0, NV_LAT_CLAT, NV_AGG_MEAN, &sel, &r))
		return;
	for (size_t b = 0; b < r.nblocks; b++)
		for (size_t k = 0; k < r.blocks[b].nrows; k++) {
			const struct nv_change *c = &r.blocks[b].rows[k].chg[0];

			if (c->have && c->pct != 0 && !isnan(c->pct))
				fuzz_fail("a run compared with itself changed by %g%%", c->pct);
		}
	if (devnull)
		for (int f = NV_FMT_MD; f <= NV_FMT_JSON; f++)
			nv_report_print(devnull, &r, (enum nv_format)f);
	nv_report_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nv_run run;
	char err[512] = "";

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	memset(&run, 0, sizeof(run));
	if (nv_fio_parse((const char *)data, size, "fuzz.json", &run, err, sizeof(err))) {
		check_error(err);
		return 0;
	}
	if (run.njobs && !run.jobs)
		fuzz_fail("%zu jobs but no array", run.njobs);
	report(&run);
	nv_run_free(&run);
	return 0;
}
