/*
 * exact.c - exact nearest-rank percentiles in bounded memory (see exact.h).
 *
 * State per requested percentile ("target"): its rank, and once pass 1 is
 * over the value range [lo, hi] known to hold it, with `below` values
 * smaller than lo and `cnt` values inside.  Targets whose ranges coincide
 * share one probe (the collected values or the sub-range counters).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/exact_dense.h"
#include "analyze/stats/exact_int.h"

/* Return: the limit a state of dense_limit counts below at first. */
static uint64_t first_lim(uint64_t dense_limit)
{
	return dense_limit >> 5 < DENSE_LO ? dense_limit >> 5 : DENSE_LO;
}

uint64_t *nv_exact_hist_new(void)
{
	void *h = mmap(NULL, NBUCKETS * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return h == MAP_FAILED ? NULL : h;
}

void nv_exact_hist_free(uint64_t *h)
{
	if (h)
		munmap(h, NBUCKETS * sizeof(*h));
}

void nv_exact_bucket_range(unsigned b, uint64_t *lo, uint64_t *hi)
{
	unsigned e, m;

	if (b < (1u << SUB_BITS)) {
		*lo = *hi = b;
		return;
	}
	e = ((b - (1u << SUB_BITS)) >> SUB_BITS) + SUB_BITS;
	m = b & ((1u << SUB_BITS) - 1);
	*lo = (1ull << e) + ((uint64_t)m << (e - SUB_BITS));
	*hi = *lo + (1ull << (e - SUB_BITS)) - 1;
}

uint64_t nv_exact_rank(double p, uint64_t n)
{
	/* p in units of 1e-7 percent, so 99.9 is exact: rank = ceil(P * n / 1e9) */
	unsigned __int128 P, r;

	if (!(p > 0))
		return 1;
	if (p >= 100)
		return n;
	P = (unsigned __int128)llround(p * 1e7);
	r = (P * n + 999999999) / 1000000000;
	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return (uint64_t)r;
}

int nv_exact_new(struct nv_exact **ep, const double *pct, size_t npct)
{
	struct nv_exact *e;

	*ep = NULL;
	for (size_t i = 0; i < npct; i++)
		if (!(pct[i] >= 0 && pct[i] <= 100))
			return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->ntarget = npct;
	e->t = calloc(npct ? npct : 1, sizeof(*e->t));
	e->probes = calloc(npct ? npct : 1, sizeof(*e->probes));
	e->hist = nv_exact_hist_new();
	if (!e->t || !e->probes || !e->hist) {
		nv_exact_free(e);
		return -ENOMEM;
	}
	for (size_t i = 0; i < npct; i++)
		e->t[i].pct = pct[i];
	e->collect_cap = 1u << 18;
	e->nsub_max = 1u << 16;
	e->dense_limit = 1u << 21;
	e->lim = e->obase = first_lim(e->dense_limit);
	e->ovf_cap = 1u << 20;
	*ep = e;
	return 0;
}

void nv_exact_set_limits(struct nv_exact *e, size_t collect_cap, size_t nsub)
{
	e->collect_cap = collect_cap;
	e->nsub_max = nsub < 2 ? 2 : nsub;
}

void nv_exact_set_role(struct nv_exact *e, unsigned role)
{
	e->role = role;
}

void nv_exact_set_single(struct nv_exact *e, uint64_t dense_limit, size_t ovf_cap)
{
	e->dense_limit = dense_limit;
	e->lim = e->obase = first_lim(dense_limit);
	e->ovf_cap = ovf_cap;
}

void nv_exact_add(struct nv_exact *e, uint64_t v)
{
	if (e->finished)
		return;
	e->pass_n++;
	if (e->pass == 0) {
		e->hist[nv_exact_bucket_of(v)]++;
		if (e->pass_n == 1) {
			e->min = e->max = v;
		} else if (v < e->min) {
			e->min = v;
		} else if (v > e->max) {
			e->max = v;
		}
		nv_sums_add(&e->sums, v);
		if (!e->single_failed)
			nv_single_add(e, v);
		return;
	}
	if (v < e->min || v > e->max)
		e->bad = true;
	for (size_t i = 0; i < e->nprobes; i++) {
		struct probe *p = &e->probes[i];

		if (v < p->lo || v > p->hi)
			continue;
		if (p->mode == PROBE_COLLECT) {
			if (p->nvals < p->cnt)
				p->vals[p->nvals] = v;
			p->nvals++;
		} else {
			p->sub[(v - p->lo) / p->subw]++;
			p->nvals++;
		}
	}
}

/*
 * nv_exact_add for each of v[0..n), in order, with pass 1's state in
 * locals: the same histogram, exact sums and dense counts.  A value
 * the dense array cannot count yet (larger than it, or the single-pass
 * data given up) goes through nv_exact_add with the state stored back.
 */
void nv_exact_add_many(struct nv_exact *e, const uint64_t *v, size_t n)
{
	uint64_t *hist = e->hist, mn, mx, lim, obase;
	uint32_t *dense, *ovf;
	struct nv_exact_sums sums;
	size_t i = 0, start, ndense, novf, room;
	bool counting;

	if (e->pass != 0 || e->finished) {
		for (; i < n; i++)
			nv_exact_add(e, v[i]);
		return;
	}
	if (n && !e->pass_n)
		nv_exact_add(e, v[i++]);	/* the first value sets min and max */
	while (i < n) {
		mn = e->min;
		mx = e->max;
		sums = e->sums;
		counting = !e->single_failed;
		dense = e->dense;
		ndense = e->ndense;
		lim = e->lim;
		ovf = e->ovf;
		obase = e->obase;
		novf = e->novf;
		room = e->ovf_cap - e->nfar;
		for (start = i; i < n; i++) {
			uint64_t x = v[i];

			if (counting) {
				/* incremented before it is read: a page's first touch is then a
				 * write, never a read that maps the zero page and a write fault
				 * after it (whose TLB flush interrupts every other worker) */
				if (x < ndense) {
					if (!++dense[x]) {	/* 2^32 equal values */
						dense[x] = UINT32_MAX;	/* nv_exact_add's */
						break;
					}
				} else if (x >= lim && x - obase <= UINT32_MAX && novf < room &&
					   (novf & (novf - 1))) {
					/* listed in place while the list has room:
					 * nv_single_add grows it at a power of two,
					 * raises, lists far or gives up */
					ovf[novf++] = (uint32_t)(x - obase);
				} else {
					break;
				}
			}
			hist[nv_exact_bucket_of(x)]++;
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
			nv_sums_add(&sums, x);
		}
		e->pass_n += i - start;
		e->min = mn;
		e->max = mx;
		e->sums = sums;
		if (counting)	/* each value of the run counted or listed */
			e->dense_n += (i - start) - (novf - e->novf);
		e->novf = novf;
		if (i < n)
			nv_exact_add(e, v[i++]);
	}
}

/*
 * A deep copy of pass 1's state; -EINVAL once a pass ended (the probes of
 * later passes are not copied), -ENOMEM.  The copy continues exactly as the
 * original would: the same values added to both give the same results.
 */
int nv_exact_clone(const struct nv_exact *src, struct nv_exact **dst)
{
	struct nv_exact *e;
	size_t ocap = 0, fcap = 16;

	*dst = NULL;
	if (src->pass || src->finished)
		return -EINVAL;
	e = malloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	*e = *src;
	e->t = NULL;
	e->probes = NULL;
	e->hist = NULL;
	e->dense = NULL;
	e->ovf = NULL;
	e->far = NULL;
	while (fcap < src->nfar)	/* far_add's capacity */
		fcap *= 2;
	if (src->ovf) {		/* the capacity nv_single_add would have given it */
		ocap = src->novf ? (size_t)2 << (63 - __builtin_clzll(src->novf)) : 1024;
		if (ocap > src->ovf_cap)
			ocap = src->ovf_cap;
		if (ocap < src->novf)
			ocap = src->novf;
	}
	e->t = malloc((src->ntarget ? src->ntarget : 1) * sizeof(*e->t));
	e->probes = calloc(src->ntarget ? src->ntarget : 1, sizeof(*e->probes));
	e->hist = nv_exact_hist_new();
	if (src->dense)
		e->dense = nv_dense_get(src->dense_mapped, src->role, &e->dense_span);
	if (src->ovf)
		e->ovf = malloc((ocap ? ocap : 1) * sizeof(*e->ovf));
	if (src->far)
		e->far = malloc(fcap * sizeof(*e->far));
	if (!e->t || !e->probes || !e->hist || (src->dense && !e->dense) ||
	    (src->ovf && !e->ovf) || (src->far && !e->far)) {
		nv_exact_free(e);
		return -ENOMEM;
	}
	memcpy(e->t, src->t, src->ntarget * sizeof(*e->t));
	if (src->pass_n) {	/* its counts: the buckets of min to max */
		unsigned lo = nv_exact_bucket_of(src->min), hi = nv_exact_bucket_of(src->max);

		memcpy(e->hist + lo, src->hist + lo, (hi - lo + 1) * sizeof(*e->hist));
	}
	if (src->dense)
		memcpy(e->dense, src->dense, src->ndense * sizeof(*e->dense));
	if (src->ovf)
		memcpy(e->ovf, src->ovf, src->novf * sizeof(*e->ovf));
	if (src->far)
		memcpy(e->far, src->far, src->nfar * sizeof(*e->far));
	*dst = e;
	return 0;
}

/* src's count, range, sums and histogram added to e's (not the single-pass data). */
static void merge_sums(struct nv_exact *e, const struct nv_exact *src)
{
	if (!e->pass_n) {
		e->min = src->min;
		e->max = src->max;
	}
	e->min = src->min < e->min ? src->min : e->min;
	e->max = src->max > e->max ? src->max : e->max;
	nv_sums_merge(&e->sums, &src->sums);
	e->pass_n += src->pass_n;
	for (unsigned b = nv_exact_bucket_of(src->min); b <= nv_exact_bucket_of(src->max); b++)
		e->hist[b] += src->hist[b];	/* src's counts: min's bucket to max's */
}

static bool merge_ok(const struct nv_exact *e, const struct nv_exact *src)
{
	return !e->pass && !e->finished && !src->pass && !src->finished &&
	       src->dense_limit <= e->dense_limit;
}

int nv_exact_merge(struct nv_exact *e, const struct nv_exact *src)
{
	if (!merge_ok(e, src))
		return -EINVAL;
	if (!src->pass_n)
		return 0;
	if (src->single_failed)
		e->single_failed = true;
	else if (!e->single_failed)
		nv_single_merge(e, src);
	merge_sums(e, src);
	return 0;
}

int nv_exact_merge_move(struct nv_exact *e, struct nv_exact *src)
{
	int err;

	if (!merge_ok(e, src))
		return -EINVAL;
	if (!src->pass_n || src->single_failed || e->single_failed || e->dense || !src->dense ||
	    src->dense_limit != e->dense_limit ||	/* its array: e's size */
	    e->pass_n || src->lim != src->dense_limit)	/* e never raised: no array */
		return nv_exact_merge(e, src);
	e->lim = src->lim;
	nv_single_ovf_merge(e, src);
	merge_sums(e, src);
	e->dense = src->dense;	/* lent until src's results are taken from it */
	e->ndense = src->ndense;
	e->dense_mapped = src->dense_mapped;
	e->dense_span = src->dense_span;
	e->dense_role = src->dense_role;
	e->dense_n += src->dense_n;
	src->dense_lent = true;
	err = nv_exact_end_pass(src);	/* 0: the single-pass data was intact */
	src->dense = NULL;
	src->dense_lent = false;
	return err;
}

static void probe_free(struct probe *p)
{
	free(p->vals);
	free(p->sub);
	memset(p, 0, sizeof(*p));
}

/*
 * Attach target t, known to lie in [lo, hi] with `below` smaller values and
 * cnt inside, to a probe for the next pass (sharing one with the same
 * range), or finish it if the range is a single value.
 */
static int plan(struct nv_exact *e, struct target *t, uint64_t lo, uint64_t hi,
		uint64_t below, uint64_t cnt)
{
	struct probe *p;
	uint64_t w;

	if (lo == hi) {
		t->value = lo;
		t->done = true;
		return 0;
	}
	for (size_t i = 0; i < e->nprobes; i++)
		if (e->probes[i].lo == lo && e->probes[i].hi == hi) {
			t->probe = (int)i;
			return 0;
		}
	p = &e->probes[e->nprobes];
	memset(p, 0, sizeof(*p));
	p->lo = lo;
	p->hi = hi;
	p->below = below;
	p->cnt = cnt;
	if (cnt <= e->collect_cap) {
		p->mode = PROBE_COLLECT;
		p->vals = malloc((cnt ? cnt : 1) * sizeof(*p->vals));
		if (!p->vals)
			return -ENOMEM;
	} else {
		p->mode = PROBE_COUNT;
		w = hi - lo;	/* width - 1; hi - lo + 1 cannot overflow for buckets */
		p->nsub = w + 1 < e->nsub_max ? w + 1 : e->nsub_max;
		p->subw = w / p->nsub + 1;
		p->sub = calloc(p->nsub, sizeof(*p->sub));
		if (!p->sub)
			return -ENOMEM;
	}
	t->probe = (int)e->nprobes++;
	return 0;
}

/* After pass 1: locate every rank in the histogram. */
static int plan_from_hist(struct nv_exact *e)
{
	for (size_t i = 0; i < e->ntarget; i++) {
		struct target *t = &e->t[i];
		uint64_t below = 0, lo, hi;
		unsigned b = 0;
		int err;

		t->rank = nv_exact_rank(t->pct, e->n);
		if (t->rank == 1 || t->rank == e->n) {
			t->value = t->rank == 1 ? e->min : e->max;
			t->done = true;
			continue;
		}
		while (below + e->hist[b] < t->rank)
			below += e->hist[b++];
		nv_exact_bucket_range(b, &lo, &hi);
		if (lo < e->min)
			lo = e->min;
		if (hi > e->max)
			hi = e->max;
		err = plan(e, t, lo, hi, below, e->hist[b]);
		if (err)
			return err;
	}
	return 0;
}

/* After pass >= 2: resolve or narrow each pending target with its probe. */
static int resolve(struct nv_exact *e)
{
	struct probe *old = e->probes;
	size_t nold = e->nprobes;
	int err = 0;

	for (size_t i = 0; i < nold; i++)
		if (old[i].nvals != old[i].cnt)
			return -EINVAL;	/* the values changed between passes */
	e->probes = calloc(e->ntarget ? e->ntarget : 1, sizeof(*e->probes));
	if (!e->probes) {
		e->probes = old;
		return -ENOMEM;
	}
	e->nprobes = 0;
	for (size_t i = 0; i < e->ntarget && !err; i++) {
		struct target *t = &e->t[i];
		struct probe *p;
		uint64_t k, below, j;

		if (t->done)
			continue;
		p = &old[t->probe];
		k = t->rank - p->below - 1;	/* 0-based within the range */
		if (p->mode == PROBE_COLLECT) {
			t->value = nv_select_kth(p->vals, p->cnt, k);
			t->done = true;
			continue;
		}
		below = p->below;
		for (j = 0; below + p->sub[j] <= t->rank - 1; j++)
			below += p->sub[j];
		{
			uint64_t lo = p->lo + j * p->subw;
			uint64_t hi = p->hi - lo < p->subw - 1 ? p->hi : lo + p->subw - 1;

			err = plan(e, t, lo, hi, below, p->sub[j]);
		}
	}
	for (size_t i = 0; i < nold; i++)
		probe_free(&old[i]);
	free(old);
	return err;
}

int nv_exact_end_pass(struct nv_exact *e)
{
	int err;

	if (e->finished)
		return 0;
	if (e->pass == 0) {
		e->n = e->pass_n;
		if (!e->single_failed && e->n) {
			nv_single_resolve(e);
			nv_single_free(e);
			e->pass = 1;
			e->pass_n = 0;
			e->finished = true;
			return 0;
		}
		nv_single_free(e);
	} else if (e->pass_n != e->n || e->bad) {
		return -EINVAL;
	}
	e->pass_n = 0;
	err = e->pass == 0 ? (e->n ? plan_from_hist(e) : 0) : resolve(e);
	e->pass++;
	if (err)
		return err;
	for (size_t i = 0; i < e->ntarget; i++)
		if (!e->t[i].done && e->n)
			return 1;
	e->finished = true;
	return 0;
}

unsigned nv_exact_passes(const struct nv_exact *e)
{
	return e->pass;
}

size_t nv_exact_listed(const struct nv_exact *e)
{
	return e->pass ? 0 : e->novf + e->nfar;
}

uint64_t nv_exact_count(const struct nv_exact *e)
{
	return e->pass ? e->n : e->pass_n;
}

uint64_t nv_exact_min(const struct nv_exact *e)
{
	return e->min;
}

uint64_t nv_exact_max(const struct nv_exact *e)
{
	return e->max;
}

double nv_exact_mean(const struct nv_exact *e)
{
	return nv_sums_mean(&e->sums, nv_exact_count(e));
}

double nv_exact_stdev(const struct nv_exact *e)
{
	return nv_sums_stdev(&e->sums, nv_exact_count(e));
}

const uint64_t *nv_exact_hist(const struct nv_exact *e)
{
	return e->pass ? e->hist : NULL;
}

uint64_t nv_exact_value(const struct nv_exact *e, size_t i)
{
	return i < e->ntarget && e->t[i].done ? e->t[i].value : 0;
}

void nv_exact_free(struct nv_exact *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nprobes; i++)
		probe_free(&e->probes[i]);
	free(e->probes);
	free(e->t);
	nv_exact_hist_free(e->hist);
	nv_single_free(e);
	free(e);
}
