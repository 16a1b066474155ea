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

#define SUB_BITS	NV_EXACT_SUB_BITS
/* The single pass counts values below lim (a 32nd of dense_limit, at most
 * DENSE_LO: 64 K, 256 KiB of counts) and lists the others until the list
 * holds RAISE_AT of them (weighed as 256 KiB, what a 64 K range of counts
 * costs, though held in half: 32-bit offsets); only then are the values up
 * to dense_limit counted (single_raise), and only if their counts take no
 * more memory than the list (list_cheaper): else the list goes on to twice
 * as many values, and so on.  A state with few values spread over its
 * range (a rare queue-depth class of a trace whose tail spreads over
 * milliseconds; a thread trace's class of a few thousand IOs; a long run's
 * tail) so holds a list, not a count page per 1024 ns its values touch. */
#define DENSE_LO	(1u << 16)
#define RAISE_AT	(1u << 15)

/* Return: the limit a state of dense_limit counts below at first. */
static uint64_t first_lim(uint64_t dense_limit)
{
	return dense_limit >> 5 < DENSE_LO ? dense_limit >> 5 : DENSE_LO;
}
#define NBUCKETS	NV_EXACT_NBUCKETS
_Static_assert(NBUCKETS == ((64 - SUB_BITS + 1) << SUB_BITS), "bucket count");

enum probe_mode { PROBE_COLLECT, PROBE_COUNT };

struct probe {
	uint64_t lo, hi;	/* value range */
	uint64_t below;		/* values < lo (all passes agree) */
	uint64_t cnt;		/* values in [lo, hi] */
	enum probe_mode mode;
	uint64_t *vals;		/* COLLECT: up to cnt values */
	uint64_t nvals;		/* values seen in range this pass */
	uint64_t *sub;		/* COUNT: nsub counters */
	uint64_t nsub, subw;
};

struct target {
	double pct;
	uint64_t rank;		/* 1-based */
	bool done;
	uint64_t value;
	int probe;		/* index in probes while pending */
};

struct nv_exact {
	size_t ntarget;
	struct target *t;
	struct probe *probes;
	size_t nprobes;
	size_t collect_cap, nsub_max;
	unsigned pass;		/* passes completed */
	bool finished;
	bool bad;		/* a value outside pass 1's range */

	uint64_t *hist;		/* pass 1 */
	uint64_t n, pass_n, min, max;
	uint64_t shift;		/* the first value: sums are of v - shift */
	__int128 sum;		/* exact */
	double sumsq;

	/* Single-pass path: exact counts of values < dense_limit, the others
	 * in a list; when both hold, pass 1 resolves every rank. */
	uint32_t *dense;	/* dense_mapped counts (exact_dense.c), used up to ndense */
	uint64_t ndense, dense_limit, dense_n, dense_mapped;
	uint64_t lim;		/* below it counted, the others listed (single_raise) */
	uint64_t dense_span;	/* what earlier users of the array may have written */
	unsigned role;		/* nv_exact_set_role */
	unsigned dense_role;	/* the role dense was taken for (lent: another's) */
	/* the list: offsets from obase (lim at first, never raised) of the values
	 * within 2^32 of it, 4 bytes each; the rare larger ones in far */
	uint32_t *ovf;
	uint64_t obase, *far;
	size_t novf, nfar, ovf_cap;	/* ovf_cap: novf + nfar at most */
	size_t raise_at;	/* the list's size at which a raise is weighed (0: RAISE_AT) */
	bool single_failed;	/* a count wrapped, the list filled, or no memory */
	bool dense_lent;	/* dense belongs to another state (nv_exact_merge_move) */
};

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

/*
 * The dense array mapped, at its limit's size, on first need (its pages
 * are touched only as counts reach them).  Return: true, or false with
 * the single pass given up (no memory).
 */
static bool dense_map(struct nv_exact *e)
{
	if (e->dense)
		return true;
	e->dense_role = e->role;
	e->dense = nv_dense_get(e->dense_limit, e->role, &e->dense_span);
	if (!e->dense) {
		e->single_failed = true;
		return false;
	}
	e->dense_mapped = e->dense_limit;
	return true;
}

/* Return: whether n counts fit e's dense array, mapped and grown to them (the
 * single pass given up when it cannot be mapped). */
static bool dense_reach(struct nv_exact *e, uint64_t n)
{
	uint64_t nd = e->ndense ? e->ndense : 4096;

	if (n <= e->ndense)
		return true;
	while (nd < n)
		nd *= 2;
	if (nd > e->lim)
		nd = e->lim;
	if (!dense_map(e))
		return false;
	e->ndense = nd;
	return true;
}

/* Return: e's i-th listed value (i < novf + nfar: the offsets, then far). */
static inline uint64_t listed(const struct nv_exact *e, size_t i)
{
	return i < e->novf ? e->obase + e->ovf[i] : e->far[i - e->novf];
}

/* e's list, fewer after a raise, to the capacity single_add would have given
 * it (at least 1024, or the least power of two it fits: single_add grows it
 * when it holds a power of two).  Return: nothing (kept as it is when the
 * smaller one cannot be had). */
static void ovf_shrink(struct nv_exact *e)
{
	size_t nc = 1024;
	uint32_t *o;

	while (nc < e->novf)
		nc *= 2;
	if (nc >= RAISE_AT || !e->ovf)
		return;
	if ((o = realloc(e->ovf, nc * sizeof(*o))))
		e->ovf = o;
}

/*
 * The list holds RAISE_AT values: from now on every value below dense_limit
 * is counted, the listed ones too (what is left listed is at or above it).
 * Return: nothing (e->single_failed set on a wrapped count or no memory).
 */
/* v counted by a raise.  Return: nothing (e->single_failed on a wrapped count). */
static void raise_count(struct nv_exact *e, uint64_t v)
{
	if (!++e->dense[v])
		e->single_failed = true;	/* 2^32 equal values */
	e->dense_n++;
}

static void single_raise(struct nv_exact *e)
{
	uint64_t top = 0;
	size_t m = 0, mf = 0;

	e->lim = e->dense_limit;
	for (size_t i = 0; i < e->novf + e->nfar; i++) {
		uint64_t v = listed(e, i);

		if (v < e->lim && v >= top)
			top = v + 1;
	}
	if (!dense_reach(e, top))
		return;
	for (size_t i = 0; i < e->novf; i++) {
		if (e->obase + e->ovf[i] >= e->lim)
			e->ovf[m++] = e->ovf[i];
		else
			raise_count(e, e->obase + e->ovf[i]);
	}
	for (size_t i = 0; i < e->nfar; i++) {
		if (e->far[i] >= e->lim)
			e->far[mf++] = e->far[i];
		else
			raise_count(e, e->far[i]);
	}
	e->novf = m;
	e->nfar = mf;
	ovf_shrink(e);
}

/*
 * Whether e's list of novf values costs less than counting its values
 * below dense_limit would: a 4 KiB page of counts for each 1024 ns range
 * they touch, against 8 bytes a listed value (4 held, but a listed value
 * also costs time each merge, a page of counts once); and whether it may double
 * (ovf_cap).  Return: true to keep listing.
 */
static bool list_cheaper(const struct nv_exact *e)
{
	size_t npages = (size_t)((e->dense_limit + 1023) >> 10), nbits = 0;
	uint64_t *seen;

	if (2 * (e->novf + e->nfar) > e->ovf_cap || !npages)
		return false;
	seen = calloc((npages + 63) / 64, sizeof(*seen));
	if (!seen)
		return false;	/* counting, as before */
	for (size_t i = 0; i < e->novf + e->nfar; i++) {
		uint64_t v = listed(e, i), b;

		if (v >= e->dense_limit)
			continue;
		b = v >> 10;
		nbits += !(seen[b / 64] & (1ull << (b % 64)));
		seen[b / 64] |= 1ull << (b % 64);
	}
	free(seen);
	return nbits * 4096 > (e->novf + e->nfar) * sizeof(uint64_t);
}

/* v, past the offsets' reach, into e's far list.  Return: nothing
 * (e->single_failed when it cannot grow). */
static void far_add(struct nv_exact *e, uint64_t v)
{
	if (!e->nfar || (e->nfar >= 16 && !(e->nfar & (e->nfar - 1)))) {	/* full: grow */
		uint64_t *f = realloc(e->far, (e->nfar ? 2 * e->nfar : 16) * sizeof(*f));

		if (!f) {
			e->single_failed = true;
			return;
		}
		e->far = f;
	}
	e->far[e->nfar++] = v;
}

/* Pass 1's exact side: count v in the dense array or keep it in the list. */
static void single_add(struct nv_exact *e, uint64_t v)
{
	size_t at = e->raise_at ? e->raise_at : RAISE_AT < e->ovf_cap ? RAISE_AT : e->ovf_cap;

	if (v >= e->lim && e->lim < e->dense_limit && e->novf == at) {
		if (list_cheaper(e)) {
			e->raise_at = 2 * at;	/* weighed again then */
		} else {
			single_raise(e);
			if (e->single_failed)
				return;
		}
	}
	if (v < e->lim) {
		if (!dense_reach(e, v + 1))
			return;
		if (!++e->dense[v])
			e->single_failed = true;	/* 2^32 equal values */
		e->dense_n++;
		return;
	}
	if (e->novf + e->nfar == e->ovf_cap) {
		e->single_failed = true;
		return;
	}
	if (v - e->obase > UINT32_MAX) {	/* 4.3 s past obase: rare */
		far_add(e, v);
		return;
	}
	if (!e->ovf || !(e->novf & (e->novf - 1))) {	/* grow at powers of two */
		size_t nc = e->novf ? e->novf * 2 : 1024;
		uint32_t *o = realloc(e->ovf, (nc < e->ovf_cap ? nc : e->ovf_cap) * sizeof(*o));

		if (!o) {
			e->single_failed = true;
			return;
		}
		e->ovf = o;
	}
	e->ovf[e->novf++] = (uint32_t)(v - e->obase);
}

static void single_free(struct nv_exact *e)
{
	if (e->dense && !e->dense_lent)
		nv_dense_put(e->dense, e->dense_mapped,
			     e->ndense > e->dense_span ? e->ndense : e->dense_span, e->dense_role);
	free(e->ovf);
	free(e->far);
	e->dense = NULL;
	e->ovf = NULL;
	e->far = NULL;
	e->ndense = e->novf = e->nfar = 0;
}

/*
 * The k-th smallest (0-based, k < novf) listed value, one of the offsets
 * (every far value is larger), selected within the part of the
 * list that the targets selected before left it in: a selection leaves the
 * list partitioned at its position (nv_select_kth), so the k-th lies
 * between the nearest earlier positions below and above k, and only that
 * part is searched (the first target searches it all).  done[0..ndone):
 * the positions selected so far; k is added.
 * Return: the value.
 */
static uint64_t ovf_kth(struct nv_exact *e, size_t *done, size_t *ndone, size_t k)
{
	size_t l = 0, r = e->novf;

	for (size_t j = 0; j < *ndone; j++) {
		if (done[j] == k)
			return e->obase + e->ovf[k];
		if (done[j] < k && done[j] + 1 > l)
			l = done[j] + 1;
		if (done[j] > k && done[j] < r)
			r = done[j];
	}
	done[(*ndone)++] = k;
	return e->obase + nv_select_kth32(e->ovf + l, r - l, k - l);
}

/* After pass 1 with the single-pass data intact: every rank, exactly. */
static void single_resolve(struct nv_exact *e)
{
	size_t stack[16], ndone = 0;
	size_t *done = e->ntarget <= 16 ? stack : malloc(e->ntarget * sizeof(*done));

	for (size_t i = 0; i < e->ntarget; i++) {
		struct target *t = &e->t[i];
		uint64_t cum = 0, v = 0, k;

		t->rank = nv_exact_rank(t->pct, e->n);
		if (t->rank <= e->dense_n) {
			unsigned b = 0;
			uint64_t hi;

			while (cum + e->hist[b] < t->rank)	/* its bucket, then within it */
				cum += e->hist[b++];
			nv_exact_bucket_range(b, &v, &hi);
			while (cum + e->dense[v] < t->rank)
				cum += e->dense[v++];
			t->value = v;
		} else if ((k = t->rank - e->dense_n - 1) >= e->novf) {	/* a far one */
			t->value = nv_select_kth(e->far, e->nfar, k - e->novf);
		} else if (done) {
			t->value = ovf_kth(e, done, &ndone, k);
		} else {	/* no memory for the positions: the whole list each time */
			t->value = e->obase + nv_select_kth32(e->ovf, e->novf, k);
		}
		t->done = true;
	}
	if (done != stack)
		free(done);
}

void nv_exact_add(struct nv_exact *e, uint64_t v)
{
	if (e->finished)
		return;
	e->pass_n++;
	if (e->pass == 0) {
		double d;

		e->hist[nv_exact_bucket_of(v)]++;
		if (e->pass_n == 1) {
			e->min = e->max = e->shift = v;
		} else if (v < e->min) {
			e->min = v;
		} else if (v > e->max) {
			e->max = v;
		}
		d = (double)v - (double)e->shift;
		e->sum += (__int128)v - (__int128)e->shift;
		e->sumsq += d * d;
		if (!e->single_failed)
			single_add(e, v);
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
 * locals: the same histogram, sums (the sum of squares accumulated in the
 * same order, so bit for bit the same double) and dense counts.  A value
 * the dense array cannot count yet (larger than it, or the single-pass
 * data given up) goes through nv_exact_add with the state stored back.
 */
void nv_exact_add_many(struct nv_exact *e, const uint64_t *v, size_t n)
{
	uint64_t *hist = e->hist, mn, mx, shift, dense_n, lim, obase;
	uint32_t *dense, *ovf;
	__int128 sum;
	double sumsq;
	size_t i = 0, start, ndense, novf, room;
	bool counting;

	if (e->pass != 0 || e->finished) {
		for (; i < n; i++)
			nv_exact_add(e, v[i]);
		return;
	}
	if (n && !e->pass_n)
		nv_exact_add(e, v[i++]);	/* the first value sets min, max, shift */
	while (i < n) {
		mn = e->min;
		mx = e->max;
		shift = e->shift;
		sum = e->sum;
		sumsq = e->sumsq;
		counting = !e->single_failed;
		dense = e->dense;
		ndense = e->ndense;
		dense_n = e->dense_n;
		lim = e->lim;
		ovf = e->ovf;
		obase = e->obase;
		novf = e->novf;
		room = e->ovf_cap - e->nfar;
		for (start = i; i < n; i++) {
			uint64_t x = v[i];
			double d;

			if (counting) {
				/* incremented before it is read: a page's first touch is then a
				 * write, never a read that maps the zero page and a write fault
				 * after it (whose TLB flush interrupts every other worker) */
				if (x < ndense) {
					if (!++dense[x]) {	/* 2^32 equal values */
						dense[x] = UINT32_MAX;	/* nv_exact_add's */
						break;
					}
					dense_n++;
				} else if (x >= lim && x - obase <= UINT32_MAX && novf < room &&
					   (novf & (novf - 1))) {
					/* listed in place while the list has room:
					 * single_add grows it at a power of two,
					 * raises, lists far or gives up */
					ovf[novf++] = (uint32_t)(x - obase);
				} else {
					break;
				}
			}
			hist[nv_exact_bucket_of(x)]++;
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
			d = (double)x - (double)shift;
			sum += (__int128)x - (__int128)shift;
			sumsq += d * d;
		}
		e->pass_n += i - start;
		e->min = mn;
		e->max = mx;
		e->sum = sum;
		e->sumsq = sumsq;
		e->dense_n = dense_n;
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
	if (src->ovf) {		/* the capacity single_add would have given it */
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

/*
 * src's dense counts added to e's, only from the pages mapped in
 * (nv_dense_resident: a page never written is never read either, so it
 * stays unmapped); when that cannot be told, every page.
 * Return: false when a count would wrap (e's data given up).
 */
static bool dense_merge(struct nv_exact *e, const struct nv_exact *src)
{
	size_t npages = (src->ndense + NV_DENSE_PAGE - 1) / NV_DENSE_PAGE;
	unsigned char *in = malloc(npages ? npages : 1);

	if (in && !nv_dense_resident(src->dense, src->ndense, in)) {
		free(in);
		in = NULL;
	}
	for (size_t pg = 0; pg < npages; pg++) {
		uint64_t p = pg * NV_DENSE_PAGE;
		uint64_t end = p + NV_DENSE_PAGE < src->ndense ? p + NV_DENSE_PAGE : src->ndense;
		bool touched = false;

		if (in && !(in[pg] & 1))
			continue;
		for (uint64_t v = p; v < end; v++) {
			uint32_t c = src->dense[v];

			if (!c)
				continue;
			/* e's page first touched by a write, as in nv_exact_add_many: an
			 * atomic add of 0 is one whatever the compiler makes of the add
			 * below (a sanitizer's build reads first) */
			if (!touched)
				__atomic_fetch_add(&e->dense[v], 0, __ATOMIC_RELAXED);
			touched = true;
			/* a wrapped count gives e's data up anyway */
			if (__builtin_add_overflow(e->dense[v], c, &e->dense[v])) {
				free(in);
				return false;
			}
		}
	}
	free(in);
	return true;
}

/* src's list of values >= dense_limit added to e's (single_add: e's list). */
static void ovf_merge(struct nv_exact *e, const struct nv_exact *src)
{
	for (size_t i = 0; i < src->novf + src->nfar && !e->single_failed; i++)
		single_add(e, listed(src, i));
}

/* src's single-pass data added to e's (both intact); gives up e's on a
 * wrapped count, a full list or no memory. */
static void single_merge(struct nv_exact *e, const struct nv_exact *src)
{
	if (src->lim > e->lim)	/* src counts values e lists: e counts them too */
		single_raise(e);
	if (e->single_failed || !dense_reach(e, src->ndense))
		return;
	if (src->ndense && !dense_merge(e, src)) {
		e->single_failed = true;
		return;
	}
	e->dense_n += src->dense_n;
	ovf_merge(e, src);
}

/* src's count, range, sums and histogram added to e's (not the single-pass data). */
static void merge_sums(struct nv_exact *e, const struct nv_exact *src)
{
	double d;

	if (!e->pass_n) {
		e->min = src->min;
		e->max = src->max;
		e->shift = src->shift;
	}
	e->min = src->min < e->min ? src->min : e->min;
	e->max = src->max > e->max ? src->max : e->max;
	/* src's sums are of v - src->shift: moved to e's shift by d */
	d = (double)src->shift - (double)e->shift;
	e->sum += src->sum + (__int128)src->pass_n * ((__int128)src->shift - (__int128)e->shift);
	e->sumsq += src->sumsq + 2 * d * (double)src->sum + (double)src->pass_n * d * d;
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
		single_merge(e, src);
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
	ovf_merge(e, src);
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
			single_resolve(e);
			single_free(e);
			e->pass = 1;
			e->pass_n = 0;
			e->finished = true;
			return 0;
		}
		single_free(e);
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
	uint64_t n = nv_exact_count(e);

	return n ? (double)e->shift + (double)e->sum / (double)n : 0.0;
}

double nv_exact_stdev(const struct nv_exact *e)
{
	uint64_t n = nv_exact_count(e);

	double s = (double)e->sum, ss = e->sumsq - s * s / (double)n;

	return n < 2 ? 0.0 : sqrt(ss > 0 ? ss / (double)(n - 1) : 0.0);
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
	single_free(e);
	free(e);
}
