/*
 * fuzz_options - every parser of user-typed text: the engine's pi_chk
 * option and device names, nvanalyze's numbers, claims, metrics, formats,
 * directions and latency kinds, and the trace file name built from a job
 * name.
 *
 * Input: a selector byte, then the text (a NUL inside ends it, as in a C
 * string from the command line).
 *
 * Invariants: a parser that refuses says why (non-empty message where it
 * takes a buffer); what it accepts is in range (pi_chk only known bits, a
 * number finite, an index >= 1, a device kind known with its numbers
 * non-negative); a trace file name stays inside its directory.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/report/model.h"
#include "analyze/report/claims.h"
#include "analyze/input/fiojson.h"
#include "analyze/report/render.h"
#include "trace/nvtrace_name.h"
#include "nvme/nvme_cmd.h"
#include "nvme/nvme_dev.h"
#include "tests/fuzz/fuzz.h"

static void fuzz_pi_chk(const char *s)
{
	char msg[256] = "";
	uint8_t prchk = 0xff;

	if (nv_pi_chk_parse(s, &prchk, msg, sizeof(msg))) {
		if (!msg[0])
			fuzz_fail("pi_chk refused '%s' without a message", s);
		return;
	}
	if (prchk & ~(NV_PRINFO_PRCHK_GUARD | NV_PRINFO_PRCHK_APP | NV_PRINFO_PRCHK_REF))
		fuzz_fail("pi_chk '%s' gave unknown bits 0x%x", s, prchk);
}

static void fuzz_dev(const char *s)
{
	struct nv_devname d;
	char buf[64];

	if (nv_dev_parse(s, &d))
		return;
	if (d.kind < NV_DEV_CTRL || d.kind > NV_DEV_PATH || d.ctrl < 0 ||
	    (d.kind != NV_DEV_CTRL && d.ns < 1))
		fuzz_fail("device '%s' parsed to kind %d ctrl %d ns %d", s, d.kind, d.ctrl, d.ns);
	nv_dev_kind_name(d.kind);
	if (nv_dev_block_name(&d, buf, sizeof(buf)) == 0 && strlen(buf) >= sizeof(buf))
		fuzz_fail("block name overflow");
	nv_dev_char_name(&d, buf, sizeof(buf));
	nv_dev_block_name(&d, buf, 4);	/* too small: must refuse, not overflow */
}

static void fuzz_numbers(const char *s)
{
	unsigned long idx = 0;
	double v = 0;

	if (nv_parse_double(s, &v) == 0 && !isfinite(v))
		fuzz_fail("'%s' parsed to a non-finite number", s);
	if (nv_parse_index(s, &idx) == 0 && idx < 1)
		fuzz_fail("'%s' parsed to index 0", s);
}

static void fuzz_words(const char *s)
{
	struct nv_claim c = { 0 };
	enum nv_metric m;
	enum nv_format f;
	enum nv_dir d;
	enum nv_latkind k;
	char err[256] = "";

	if (nv_metric_parse(s, &m) == 0 && !nv_metric(m))
		fuzz_fail("metric '%s' out of range", s);
	if (nv_format_parse(s, &f) == 0 && (f < NV_FMT_MD || f > NV_FMT_JSON))
		fuzz_fail("format '%s' out of range", s);
	if (nv_dir_parse(s, &d) == 0 && !strcmp(nv_dir_name(d), "?"))
		fuzz_fail("direction '%s' out of range", s);
	if (nv_latkind_parse(s, &k) == 0 && (k < NV_LAT_SLAT || k >= NV_LAT_NR))
		fuzz_fail("latency kind '%s' out of range", s);
	if (nv_claim_parse(s, &c, err, sizeof(err))) {
		if (!err[0])
			fuzz_fail("claim '%s' refused without a message", s);
		return;
	}
	if (!nv_metric(c.metric) || !isfinite(c.pct) || !isfinite(c.value) || !isfinite(c.tol))
		fuzz_fail("claim '%s' parsed out of range", s);
	{
		struct nv_change ch = { .have = true, .pct = c.pct, .have_ci = true,
					.lo = c.pct - 1, .hi = c.pct + 1 };
		struct nv_cell cell = { .n = 2, .mean = c.value, .sd = 1 };

		nv_claim_judge_change(&c, &ch, true);
		nv_claim_judge_abs(&c, &cell);
	}
	nv_claim_free(&c);
}

static void fuzz_trace_name(const char *s)
{
	char buf[256];

	if (nv_trace_filename(buf, sizeof(buf), "/dir", s, 7))
		return;
	if (strncmp(buf, "/dir/", 5) || strchr(buf + 5, '/') || buf[5] == '.')
		fuzz_fail("job name '%s' gave trace path '%s'", s, buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = fuzz_strndup(data + 1, size - 1);
	if (!s)
		return 0;
	switch (data[0] % 5) {
	case 0: fuzz_pi_chk(s); break;
	case 1: fuzz_dev(s); break;
	case 2: fuzz_numbers(s); break;
	case 3: fuzz_words(s); break;
	case 4: fuzz_trace_name(s); break;
	}
	free(s);
	return 0;
}
