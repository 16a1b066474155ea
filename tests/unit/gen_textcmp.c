/*
 * gen_textcmp - compare a fio text output's reading with the JSON reading
 * of the same run, field by field (tests/integration/fio_text.sh).
 *
 *   gen_textcmp TEXT JSON
 *
 * Both files go through nv_input_load.  For every job of the JSON file
 * (matched by key) and every active direction: IOPS, bandwidth, runtime,
 * IO count and bytes, slat/clat/lat min, max, mean, stdev and percentiles,
 * the bw/iops samples, CPU and context switches, fio's latency buckets
 * (row by row, aligned by edge: nv_fio_ladder_cmp); and every disk's
 * counters.  A text value must lie within its printed precision
 * (nv_val.prec) of the JSON value; a value the text lacks is a mismatch
 * unless the JSON value is 0 (fio leaves empty lines out; terse v2-v4 have
 * no sample counts).  Prints "compared N (buckets B)" and each mismatch;
 * exits 1 when there is one, 2 when a file does not read.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/input/fioladder.h"
#include "analyze/input/multiout.h"

static unsigned compared, bad, buckets;
static bool terse;	/* the text is terse: no IO counts, no trim in v3 */

static void cmp_val(const char *what, const char *job, const struct nv_val *t,
		    const struct nv_val *j)
{
	if (!j->src)
		return;
	compared++;
	if (!t->src) {
		if (j->v != 0) {
			printf("%s %s: text has none, JSON %.17g\n", job, what, j->v);
			bad++;
		}
		return;
	}
	if (!nv_fio_val_agrees(t, j)) {
		printf("%s %s: text %.17g (+-%g), JSON %.17g (+-%g)\n", job, what, t->v, t->prec,
		       j->v, j->prec);
		bad++;
	}
}

static void cmp_lat(const char *job, const char *dname, enum nv_latkind k,
		    const struct nv_latstat *t, const struct nv_latstat *j, bool pcts)
{
	char w[64];

	snprintf(w, sizeof(w), "%s %s min", dname, nv_latkind_name(k));
	cmp_val(w, job, &t->min, &j->min);
	snprintf(w, sizeof(w), "%s %s max", dname, nv_latkind_name(k));
	cmp_val(w, job, &t->max, &j->max);
	snprintf(w, sizeof(w), "%s %s mean", dname, nv_latkind_name(k));
	cmp_val(w, job, &t->mean, &j->mean);
	snprintf(w, sizeof(w), "%s %s stdev", dname, nv_latkind_name(k));
	cmp_val(w, job, &t->stdev, &j->stdev);
	for (unsigned i = 0; pcts && i < NV_PCT_NR; i++) {
		snprintf(w, sizeof(w), "%s %s %s", dname, nv_latkind_name(k), nv_pcts[i].name);
		cmp_val(w, job, &t->pct[i], &j->pct[i]);
	}
}

static void cmp_samples(const char *job, const char *what, const struct nv_samples *t,
			const struct nv_samples *j)
{
	const struct nv_val *tv[] = { &t->min, &t->max, &t->mean, &t->dev, &t->n };
	const struct nv_val *jv[] = { &j->min, &j->max, &j->mean, &j->dev, &j->n };
	static const char *const n[] = { "min", "max", "mean", "dev", "samples" };
	char w[64];

	for (unsigned i = 0; i < 5; i++) {
		if (terse && !tv[i]->src)
			continue;	/* terse v2-v4: no sample counts, no iops samples */
		snprintf(w, sizeof(w), "%s %s", what, n[i]);
		cmp_val(w, job, tv[i], jv[i]);
	}
}

/* unit: the text's (terse's io is whole KiB, j - t in [0, 1024)), else 1 */
static void cmp_count(const char *job, const char *what, bool th, uint64_t t, bool jh,
		      uint64_t j, uint64_t unit)
{
	if (!jh || (terse && !th))
		return;	/* terse has no IO counts */
	compared++;
	if (!th || j < t || j - t >= unit) {
		printf("%s %s: text %s%llu, JSON %llu\n", job, what, th ? "" : "none ",
		       (unsigned long long)t, (unsigned long long)j);
		bad++;
	}
}

static void cmp_dir(const char *job, enum nv_dir d, const struct nv_dirstat *t,
		    const struct nv_dirstat *j)
{
	const char *dn = nv_dir_name(d);
	bool lat_pcts;
	char w[64];

	if (!nv_dir_active(j) || (terse && !t->present))
		return;	/* terse v3 has no trim */
	snprintf(w, sizeof(w), "%s iops", dn);
	cmp_val(w, job, &t->iops, &j->iops);
	snprintf(w, sizeof(w), "%s bw", dn);
	cmp_val(w, job, &t->bw, &j->bw);
	snprintf(w, sizeof(w), "%s runtime", dn);
	cmp_val(w, job, &t->runtime_ms, &j->runtime_ms);
	snprintf(w, sizeof(w), "%s ios", dn);
	cmp_count(job, w, t->have_ios, t->ios, j->have_ios, j->ios, 1);
	snprintf(w, sizeof(w), "%s io_bytes", dn);
	cmp_count(job, w, t->have_io_bytes, t->io_bytes, j->have_io_bytes, j->io_bytes,
		  terse ? 1024 : 1);
	/* terse does not say whether its percentiles are clat's or, with
	 * lat_percentiles, lat's (fio prints lat's then): with lat's in the
	 * JSON, the text's list is compared with those */
	lat_pcts = terse && j->lat[NV_LAT_TOTAL].pct[NV_P50].src;
	for (unsigned k = 0; k < NV_LAT_NR; k++) {
		struct nv_latstat tl = t->lat[k];

		if (lat_pcts && k == NV_LAT_TOTAL)
			memcpy(tl.pct, t->lat[NV_LAT_CLAT].pct, sizeof(tl.pct));
		cmp_lat(job, dn, (enum nv_latkind)k, &tl, &j->lat[k],
			!(lat_pcts && k == NV_LAT_CLAT));
	}
	snprintf(w, sizeof(w), "%s bw samples", dn);
	cmp_samples(job, w, &t->bw_samples, &j->bw_samples);
	snprintf(w, sizeof(w), "%s iops samples", dn);
	cmp_samples(job, w, &t->iops_samples, &j->iops_samples);
}

/* fio's latency buckets, row by row (nv_fio_ladder_cmp, the one rule). */
static void cmp_buckets(const char *job, const struct nv_jobextra *t,
			const struct nv_jobextra *j)
{
	struct nv_ladder_cmp c;

	if (nv_fio_ladder_cmp(t, j, &c)) {
		printf("%s buckets: the text has none on fio's ladder, the JSON %zu\n", job,
		       j->nbuckets);
		bad++;
		return;
	}
	buckets += (unsigned)c.rows;
	compared += (unsigned)c.rows;
	bad += (unsigned)c.bad;
	if (c.bad)
		printf("%s bucket [%g, %g) ns: text %.2f%%, JSON %.6f%% (%zu rows differ)\n", job,
		       c.lo, c.hi, c.text, c.json, c.bad);
}

static void cmp_runs(const struct nv_run *t, const struct nv_run *j)
{
	if (t->njobs != j->njobs) {
		printf("jobs: text %zu, JSON %zu\n", t->njobs, j->njobs);
		bad++;
	}
	for (size_t i = 0; i < j->njobs; i++) {
		const struct nv_job *jj = &j->jobs[i], *tj = NULL;

		for (size_t o = 0; o < t->njobs && !tj; o++)
			if (!strcmp(t->jobs[o].key, jj->key))
				tj = &t->jobs[o];
		if (!tj) {
			printf("%s: not in the text\n", jj->key);
			bad++;
			continue;
		}
		for (unsigned d = 0; d < NV_DIR_NR; d++)
			cmp_dir(jj->key, (enum nv_dir)d, &tj->dir[d], &jj->dir[d]);
		for (unsigned d = 0; d < 3; d++) {	/* the options line's bs (not terse) */
			char w[32];

			snprintf(w, sizeof(w), "%s bs", nv_dir_name((enum nv_dir)d));
			cmp_count(jj->key, w, tj->bs[d] || !terse, tj->bs[d], jj->bs[d] != 0,
				  jj->bs[d], 1);
		}
		cmp_val("usr_cpu", jj->key, &tj->x.usr_cpu, &jj->x.usr_cpu);
		cmp_val("sys_cpu", jj->key, &tj->x.sys_cpu, &jj->x.sys_cpu);
		cmp_val("ctx", jj->key, &tj->x.ctx, &jj->x.ctx);
		cmp_buckets(jj->key, &tj->x, &jj->x);
	}
	for (size_t i = 0; i < j->ndisks; i++)
		for (unsigned f = 0; f < NV_DISK_NR; f++)
			cmp_val(nv_disk_key(f), j->disks[i].name,
				i < t->ndisks ? &t->disks[i].v[f] : &(struct nv_val){ 0 },
				&j->disks[i].v[f]);
}

int main(int argc, char **argv)
{
	struct nv_run t, j;
	char err[512];

	if (argc != 3) {
		fprintf(stderr, "usage: gen_textcmp TEXT JSON\n");
		return 2;
	}
	if (nv_input_load(argv[1], &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (nv_input_load(argv[2], &j, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		nv_run_free(&t);
		return 2;
	}
	terse = !strcmp(t.format, "fio-terse");
	printf("text format %s (%s), JSON format %s (%s)\n", t.format, t.fio_version, j.format,
	       j.fio_version);
	cmp_runs(&t, &j);
	printf("compared %u (buckets %u), mismatches %u\n", compared, buckets, bad);
	nv_run_free(&t);
	nv_run_free(&j);
	return bad ? 1 : 0;
}
