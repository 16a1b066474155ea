/*
 * claims.c - parsing and judging --claim (grammar in claims.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/report/claims.h"
#include "analyze/stats/pctlevels.h"

static const char *const verdict_names[] = {
	[NV_CLAIM_MET] = "met", [NV_CLAIM_NOT_MET] = "not met",
	[NV_CLAIM_CANNOT_TELL] = "cannot tell",
};

const char *nv_claim_verdict_name(enum nv_claim_verdict v)
{
	return (unsigned)v <= NV_CLAIM_CANNOT_TELL ? verdict_names[v] : "?";
}

void nv_claim_free(struct nv_claim *c)
{
	free(c->text);
	free(c->job);
	memset(c, 0, sizeof(*c));
}

/* ---- values with units ------------------------------------------------- */

struct unit_suffix {
	enum nv_unit unit;
	const char *suffix;
	double mult;		/* to the model's unit of the metric */
};

/*
 * The one rule of byte units (docs/analysis.md): k, M, G are powers of 10,
 * Ki, Mi, Gi powers of 2.  "KB/s" is neither: fio 2.x's KB is 1024 bytes,
 * CrystalDiskMark's 1000; refused with what to write (ambiguous_unit).
 */
static const struct unit_suffix suffixes[] = {
	{ NV_U_NS, "ns", 1 }, { NV_U_NS, "us", 1e3 }, { NV_U_NS, "\xc2\xb5s", 1e3 },
	{ NV_U_NS, "ms", 1e6 }, { NV_U_NS, "s", 1e9 },
	{ NV_U_MBPS, "B/s", 1e-6 }, { NV_U_MBPS, "kB/s", 1e-3 },
	{ NV_U_MBPS, "MB/s", 1 }, { NV_U_MBPS, "GB/s", 1e3 },
	{ NV_U_MBPS, "KiB/s", 1024e-6 }, { NV_U_MBPS, "MiB/s", 1048576e-6 },
	{ NV_U_MBPS, "GiB/s", 1073741824e-6 },
};

/* Units a metric's values must carry (latency, bandwidth): no bare numbers. */
static bool unit_required(enum nv_unit u)
{
	return u == NV_U_NS || u == NV_U_MBPS;
}

/* The accepted suffixes of unit u, for messages: "ns, us, ms, s". */
static void unit_list(char *buf, size_t n, enum nv_unit u)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (suffixes[i].unit != u || !strcmp(suffixes[i].suffix, "\xc2\xb5s"))
			continue;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "",
					suffixes[i].suffix);
	}
}

int nv_parse_quantity(const char *s, enum nv_unit u, double *v)
{
	char num[64];
	size_t nl = strspn(s, "0123456789.+-eE");

	/* "1e" of "1e3" vs the "e" of no unit: strtod decides below */
	if (nl >= sizeof(num) || !nl)
		return -EINVAL;
	memcpy(num, s, nl);
	num[nl] = 0;
	while (nl && nv_parse_double(num, v)) {
		num[--nl] = 0;	/* "5e" of "5es"? give the letters back to the unit */
	}
	if (!nl)
		return -EINVAL;
	s += nl;
	while (*s == ' ')
		s++;
	if (!*s)
		return unit_required(u) ? -EINVAL : 0;
	if (!strcmp(s, "%") && !unit_required(u))
		return 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (suffixes[i].unit == u && !strcmp(s, suffixes[i].suffix)) {
			*v *= suffixes[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- parsing ----------------------------------------------------------- */

static const struct {
	const char *text;
	enum nv_claim_op op;
} ops[] = {
	{ "<=", NV_CLAIM_LE }, { ">=", NV_CLAIM_GE }, { "<", NV_CLAIM_LT }, { ">", NV_CLAIM_GT },
};

/*
 * A latency kind before a statistic, as the JSON keys have it ("clat_mean",
 * "lat_p99": fio's clat_ns, lat_ns, slat_ns) into c->have_lat and c->lat.
 * Return: the statistic's name (name itself without a kind).
 */
static const char *latkind_prefix(const char *name, struct nv_claim *c)
{
	for (unsigned k = 0; k < NV_LAT_NR; k++) {
		const char *kn = nv_latkind_name((enum nv_latkind)k);
		size_t kl = strlen(kn);

		if (!strncmp(name, kn, kl) && name[kl] == '_' && name[kl + 1]) {
			c->have_lat = true;
			c->lat = (enum nv_latkind)k;
			return name + kl + 1;
		}
	}
	return name;
}

/*
 * Split "[JOB:]METRIC" (len bytes of s) into c->job and c->metric.
 * 0, -EINVAL (message in err) or -ENOMEM.
 */
static int parse_target(const char *whole, const char *s, size_t len, struct nv_claim *c,
			char *err, size_t errlen)
{
	const char *colon = memrchr(s, ':', len);
	const char *m = colon ? colon + 1 : s;
	char name[32];
	const char *stat;
	size_t ml = len - (size_t)(m - s);

	if (colon && colon == s) {
		snprintf(err, errlen, "--claim '%s': empty job name before ':'", whole);
		return -EINVAL;
	}
	if (!ml || ml >= sizeof(name)) {
		snprintf(err, errlen, "--claim '%s': %s metric name", whole,
			 ml ? "too long a" : "no");
		return -EINVAL;
	}
	memcpy(name, m, ml);
	name[ml] = 0;
	stat = latkind_prefix(name, c);
	if (!nv_pctl_parse_name(stat, &c->level)) {	/* a percentile of any level */
		c->metric = nv_level_metric(c->level);
	} else if (nv_metric_parse(stat, &c->metric) || c->metric == NV_M_PCTL ||
		   (c->have_lat && !nv_metric(c->metric)->latency)) {
		char list[512];
		size_t l = 0;

		for (unsigned i = 0; i < NV_M_NR && l < sizeof(list); i++)
			if (i != NV_M_PRICE && (!NV_M_IS_PCT(i) || i == NV_M_P50))
				l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s",
						      l ? ", " : "",
						      i == NV_M_P50 ? "pX (any level: p99.5)" :
						      nv_metric((enum nv_metric)i)->key);
		snprintf(err, errlen, "--claim '%s': unknown metric '%s' (%s; a latency statistic "
			 "with its kind as in the JSON keys: clat_mean, lat_p99, slat_max)", whole,
			 name, list);
		return -EINVAL;
	}
	if (colon && !(c->job = strndup(s, (size_t)(colon - s))))
		return -ENOMEM;
	return 0;
}

/* "+50%", "-20", "+50%±2", "+50+-2%", "2.1x" into c. 0 or -EINVAL. */
static int parse_change(const char *s, struct nv_claim *c)
{
	static const char *const tolsep[] = { "\xc2\xb1", "+/-", "+-" };
	char buf[64], *tol = NULL;
	size_t len = strlen(s);

	if (len >= sizeof(buf) || !len)
		return -EINVAL;
	memcpy(buf, s, len + 1);
	for (unsigned i = 0; i < 3 && !tol; i++) {
		char *p = strstr(buf + 1, tolsep[i]);

		if (p) {
			*p = 0;
			tol = p + strlen(tolsep[i]);
		}
	}
	len = strlen(buf);
	if (!tol && len > 1 && (buf[len - 1] == 'x' || buf[len - 1] == 'X')) {
		buf[len - 1] = 0;
		if (nv_parse_double(buf, &c->pct) || !(c->pct > 0))
			return -EINVAL;
		c->pct = (c->pct - 1) * 100;
		return 0;
	}
	if (len && buf[len - 1] == '%')
		buf[len - 1] = 0;
	if (nv_parse_double(buf, &c->pct))
		return -EINVAL;
	if (!tol)
		return 0;
	len = strlen(tol);
	if (len && tol[len - 1] == '%')
		tol[len - 1] = 0;
	c->have_tol = true;
	return nv_parse_double(tol, &c->tol) || !(c->tol >= 0) ? -EINVAL : 0;
}

static int parse_abs(const char *whole, const char *opat, size_t oplen, struct nv_claim *c,
		     char *err, size_t errlen)
{
	enum nv_unit u = nv_metric(c->metric)->unit;
	char units[96];

	if (!nv_parse_quantity(opat + oplen, u, &c->value))
		return 0;
	unit_list(units, sizeof(units), u);
	if (u == NV_U_MBPS && strstr(opat + oplen, "KB"))
		snprintf(err, errlen, "--claim '%s': 'KB' is ambiguous (fio 2.x prints KB for "
			 "1024 bytes, CrystalDiskMark for 1000): write kB/s (10^3 B/s) or "
			 "KiB/s (2^10 B/s)", whole);
	else if (unit_required(u))
		snprintf(err, errlen, "--claim '%s': '%s' is not a %s value with a unit (%s), "
			 "e.g. '%s'", whole, opat + oplen, nv_metric(c->metric)->title, units,
			 u == NV_U_NS ? "p95<=3ms" : "bw>=330MB/s");
	else
		snprintf(err, errlen, "--claim '%s': '%s' is not a number, e.g. 'iops>=11800'",
			 whole, opat + oplen);
	return -EINVAL;
}

int nv_claim_parse(const char *s, struct nv_claim *c, char *err, size_t errlen)
{
	const char *opat = NULL, *colon;
	size_t oplen = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]) && !opat; i++) {
		if ((opat = strstr(s, ops[i].text))) {
			c->op = ops[i].op;
			oplen = strlen(ops[i].text);
		}
	}
	if (opat) {
		c->kind = NV_CLAIM_ABS;
		ret = parse_target(s, s, (size_t)(opat - s), c, err, errlen);
		if (!ret)
			ret = parse_abs(s, opat, oplen, c, err, errlen);
	} else {
		colon = strrchr(s, ':');
		if (!colon || colon == s || !colon[1]) {
			snprintf(err, errlen,
				 "--claim '%s': expected [JOB:]METRIC:CHANGE (e.g. "
				 "'randread*:iops:+50%%') or [JOB:]METRIC<=VALUE "
				 "(e.g. 'p95<=3ms')",
				 s);
			return -EINVAL;
		}
		c->kind = NV_CLAIM_CHANGE;
		ret = parse_target(s, s, (size_t)(colon - s), c, err, errlen);
		if (!ret && parse_change(colon + 1, c)) {
			snprintf(err, errlen,
				 "--claim '%s': '%s' is not a change: a percentage "
				 "('+50%%', '-20%%'), with a tolerance ('+50%%±2') or a ratio "
				 "('2.1x')",
				 s, colon + 1);
			ret = -EINVAL;
		}
	}
	if (!ret && !(c->text = strdup(s)))
		ret = -ENOMEM;
	if (ret)
		nv_claim_free(c);
	return ret;
}

/* ---- verdicts ---------------------------------------------------------- */

/* Whether x satisfies the claim's bound (one-sided or a tolerance band). */
static bool change_ok(const struct nv_claim *c, double x, bool higher_better)
{
	if (c->have_tol)
		return fabs(x - c->pct) <= c->tol;
	if (c->pct > 0)
		return x >= c->pct;
	if (c->pct < 0)
		return x <= c->pct;
	return higher_better ? x >= 0 : x <= 0;
}

/*
 * lo..hi against a test that holds on one interval of x: both ends agree,
 * or (a band) the interval spans it.  ok_lo/ok_hi the test at each end.
 */
static enum nv_claim_verdict interval_verdict(bool ok_lo, bool ok_hi, bool band_inside)
{
	if (ok_lo && ok_hi)
		return NV_CLAIM_MET;
	if (!ok_lo && !ok_hi && !band_inside)
		return NV_CLAIM_NOT_MET;
	return NV_CLAIM_CANNOT_TELL;
}

enum nv_claim_verdict nv_claim_judge_change(const struct nv_claim *c, const struct nv_change *ch,
					    bool higher_better)
{
	bool band_inside;

	if (!ch->have)
		return NV_CLAIM_CANNOT_TELL;
	if (!ch->have_ci && ch->why != NV_CI_SINGLE)
		return NV_CLAIM_CANNOT_TELL;	/* repeats without an interval (repeats.h) */
	if (!ch->have_ci && !c->have_tol && c->pct == 0)	/* not worse: as the tables say */
		return ch->verdict == NV_WORSE ? NV_CLAIM_NOT_MET : NV_CLAIM_MET;
	if (!ch->have_ci)
		return change_ok(c, ch->pct, higher_better) ? NV_CLAIM_MET : NV_CLAIM_NOT_MET;
	/* a band strictly inside [lo, hi]: neither end in it, yet some values are */
	band_inside = c->have_tol && ch->lo < c->pct - c->tol && ch->hi > c->pct + c->tol;
	return interval_verdict(change_ok(c, ch->lo, higher_better),
				change_ok(c, ch->hi, higher_better), band_inside);
}

static bool abs_ok(const struct nv_claim *c, double x)
{
	switch (c->op) {
	case NV_CLAIM_LE: return x <= c->value;
	case NV_CLAIM_LT: return x < c->value;
	case NV_CLAIM_GE: return x >= c->value;
	case NV_CLAIM_GT: return x > c->value;
	}
	return false;
}

enum nv_claim_verdict nv_claim_judge_abs(const struct nv_claim *c, const struct nv_cell *cell)
{
	double half;

	if (!cell->n)
		return NV_CLAIM_CANNOT_TELL;
	if (cell->n < 2)
		return abs_ok(c, cell->mean) ? NV_CLAIM_MET : NV_CLAIM_NOT_MET;
	half = nv_repeats_mean_half(cell);
	return interval_verdict(abs_ok(c, cell->mean - half), abs_ok(c, cell->mean + half), false);
}

/* ---- judging a report -------------------------------------------------- */

static bool job_matches(const struct nv_claim *c, const struct nv_report *r,
			const struct nv_block *b)
{
	const struct nv_job *j;

	if (!c->job || !fnmatch(c->job, b->key, 0))
		return true;
	/* the job name behind a key ("name #2", "name@host") */
	j = nv_block_job(r, b);
	return j && !fnmatch(c->job, j->name, 0);
}

static struct nv_claim_result *add_result(struct nv_report *r)
{
	struct nv_claim_result *n = realloc(r->claims, (r->nclaims + 1) * sizeof(*n));

	if (!n)
		return NULL;
	r->claims = n;
	memset(&n[r->nclaims], 0, sizeof(*n));
	return &n[r->nclaims++];
}

/*
 * The results of claim c on block bi; *values counts those with a value to
 * judge (a change: a value on either side; absolute: the run's).
 * Return: 0 or -ENOMEM.
 */
static int eval_block(struct nv_report *r, const struct nv_claim *c, size_t bi,
		      const struct nv_row *row, size_t *values)
{
	bool hb = nv_metric(c->metric)->higher_better;
	size_t n = c->kind == NV_CLAIM_CHANGE ? r->npairs : r->nsides;

	for (size_t i = 0; i < n; i++) {
		bool chg = c->kind == NV_CLAIM_CHANGE;
		size_t s = chg ? r->pairs[i].a : i, base = chg ? r->pairs[i].b : i;
		struct nv_claim_result *cr;

		if (chg && !row->cells[s].n && !row->cells[base].n)
			continue;
		if (!chg && !r->blocks[bi].present[s])
			continue;
		if (!(cr = add_result(r)))
			return -ENOMEM;
		cr->claim = c;
		cr->block = bi;
		cr->side = s;
		cr->base = base;
		if (chg)
			cr->chg = row->pchg[i];
		cr->cell = row->cells[s];
		cr->verdict = c->kind == NV_CLAIM_CHANGE ? nv_claim_judge_change(c, &cr->chg, hb)
							 : nv_claim_judge_abs(c, &cr->cell);
		*values += cr->cell.n || (chg && row->cells[base].n);
		if (cr->verdict == NV_CLAIM_NOT_MET)
			r->claims_failed = true;
	}
	return 0;
}

/* "--claim 'X': no job matches 'G' (jobs with IOs: a, b)" or "...has no metric M". */
static void claim_nomatch(const struct nv_report *r, const struct nv_claim *c, bool nojob,
			  char *err, size_t errlen)
{
	char name[32];
	size_t l;

	if (!nojob) {
		nv_claim_metric_name(name, sizeof(name), c);
		if (nv_claim_kind_shown(c, r->lat, "--claim", err, errlen))
			return;
		if (NV_M_IS_PCT(c->metric))
			snprintf(err, errlen, "--claim '%s': no run reports %s for the jobs it "
				 "names (the tables print '-'): add %g to fio's "
				 "percentile_list=, record traces (nv_trace=DIR) or claim a "
				 "level the runs report", c->text, name, c->level);
		else
			snprintf(err, errlen, "--claim '%s': no job it names has %s values "
				 "(rows in the tables)", c->text, name);
		return;
	}
	l = (size_t)snprintf(err, errlen, "--claim '%s': no job with IOs matches '%s' (jobs:",
			     c->text, c->job ? c->job : "*");
	for (size_t bi = 0, k = 0; bi < r->nblocks && l < errlen; bi++) {
		bool dup = false;

		for (size_t o = 0; o < bi && !dup; o++)
			dup = r->blocks[o].active && !strcmp(r->blocks[o].key, r->blocks[bi].key);
		if (!dup && r->blocks[bi].active)
			l += (size_t)snprintf(err + l, errlen - l, "%s %s", k++ ? "," : "",
					      r->blocks[bi].key);
	}
	if (l < errlen)
		snprintf(err + l, errlen - l, ")");
}

int nv_claim_kind_shown(const struct nv_claim *c, enum nv_latkind shown, const char *opt,
			char *err, size_t errlen)
{
	const char *s = nv_latkind_name(shown), *want = nv_latkind_name(c->lat);
	char name[32];

	if (!c->have_lat || c->lat == shown)
		return 0;
	nv_claim_metric_name(name, sizeof(name), c);
	snprintf(err, errlen, "%s '%s': the tables show %s latency (--lat %s), not %s: pass "
		 "--lat %s to judge %s, or name the statistic alone", opt, c->text, s, s, want,
		 want, name);
	return -ENOENT;
}

void nv_claim_metric_name(char *buf, size_t n, const struct nv_claim *c)
{
	char stat[32];

	if (NV_M_IS_PCT(c->metric))
		nv_pctl_name(stat, sizeof(stat), c->level);
	else
		snprintf(stat, sizeof(stat), "%s", nv_metric(c->metric)->key);
	snprintf(buf, n, "%s%s%s", c->have_lat ? nv_latkind_name(c->lat) : "",
		 c->have_lat ? "_" : "", stat);
}

int nv_claims_levels(const struct nv_claim *claims, size_t n, struct nv_pctl *l)
{
	for (size_t i = 0; i < n; i++)
		if (NV_M_IS_PCT(claims[i].metric) && nv_pctl_add(l, claims[i].level) == -ENOSPC)
			return -ENOSPC;
	return 0;
}

const struct nv_row *nv_claim_row(const struct nv_block *b, const struct nv_claim *c)
{
	if (c->have_lat && c->lat != b->lat)
		return NULL;	/* the tables show another kind */
	return NV_M_IS_PCT(c->metric) ? nv_block_level_row(b, c->level)
				      : nv_block_row(b, c->metric);
}

int nv_claims_eval(struct nv_report *r, const struct nv_claim *claims, size_t nclaims,
		   char *err, size_t errlen)
{
	for (size_t c = 0; c < nclaims; c++) {
		size_t jobs = 0, rows = 0, values = 0;

		for (size_t bi = 0; bi < r->nblocks; bi++) {
			const struct nv_block *b = &r->blocks[bi];
			const struct nv_row *row;
			int ret;

			if (!b->active || !job_matches(&claims[c], r, b))
				continue;
			jobs++;
			row = nv_claim_row(b, &claims[c]);
			if (!row)
				continue;
			rows++;
			if ((ret = eval_block(r, &claims[c], bi, row, &values)))
				return ret;
		}
		if (!jobs || !rows || !values) {	/* nothing to judge is no verdict */
			claim_nomatch(r, &claims[c], !jobs, err, errlen);
			return -ENOENT;
		}
	}
	return 0;
}
