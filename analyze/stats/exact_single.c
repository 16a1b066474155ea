/*
 * exact_single.c - exact.c's single-pass path (see exact.h, nv_exact_set_single):
 * pass 1's exact counts below a limit (the dense array) and its list of the
 * larger values; when both hold, pass 1 resolves every rank.
 */
#include <stdlib.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/exact_dense.h"
#include "analyze/stats/exact_int.h"

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

/* e's list, fewer after a raise, to the capacity nv_single_add would have given
 * it (at least 1024, or the least power of two it fits: nv_single_add grows it
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
void nv_single_add(struct nv_exact *e, uint64_t v)
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

void nv_single_free(struct nv_exact *e)
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
void nv_single_resolve(struct nv_exact *e)
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

/* src's list of values >= dense_limit added to e's (nv_single_add: e's list). */
void nv_single_ovf_merge(struct nv_exact *e, const struct nv_exact *src)
{
	for (size_t i = 0; i < src->novf + src->nfar && !e->single_failed; i++)
		nv_single_add(e, listed(src, i));
}

/* src's single-pass data added to e's (both intact); gives up e's on a
 * wrapped count, a full list or no memory. */
void nv_single_merge(struct nv_exact *e, const struct nv_exact *src)
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
	nv_single_ovf_merge(e, src);
}

/*
 * c copies of v, below e's counting limit, counted at once (e's single-pass
 * data intact).  *page: the dense page counted in last; a page's first count
 * is a write, as in nv_exact_add_many (never a read that maps the zero page).
 * Return: nothing (e->single_failed on a wrapped count or no memory).
 */
static void dense_add_copies(struct nv_exact *e, uint64_t v, uint32_t c, uint64_t *page)
{
	if (!dense_reach(e, v + 1))
		return;
	if (v / NV_DENSE_PAGE != *page) {
		*page = v / NV_DENSE_PAGE;
		__atomic_fetch_add(&e->dense[v], 0, __ATOMIC_RELAXED);
	}
	if (__builtin_add_overflow(e->dense[v], c, &e->dense[v]))
		e->single_failed = true;	/* 2^32 equal values: nv_exact_add's */
	e->dense_n += c;
}

/* Return: nothing; c copies of v in e's single-pass data, as c nv_single_add
 * would (those below the counting limit at once, the others one by one). */
static void single_add_copies(struct nv_exact *e, uint64_t v, uint32_t c, uint64_t *page)
{
	for (uint32_t k = 0; k < c && !e->single_failed; k++) {
		if (v < e->lim) {	/* at first, or since a raise */
			dense_add_copies(e, v, c - k, page);
			return;
		}
		nv_single_add(e, v);
	}
}

/* Return: nothing; c copies of v added to e in pass 1, whatever its dense
 * array holds (the general case of nv_exact_add_counts). */
static void counts_one(struct nv_exact *e, uint64_t v, uint32_t c, uint64_t *page)
{
	if (!e->pass_n)
		e->min = e->max = v;
	e->min = v < e->min ? v : e->min;
	e->max = v > e->max ? v : e->max;
	e->pass_n += c;
	e->hist[nv_exact_bucket_of(v)] += c;
	nv_sums_add_count(&e->sums, v, c);
	if (!e->single_failed)
		single_add_copies(e, v, c, page);
}

/*
 * The entries cnt[i..n) whose values e's dense array already holds (every
 * value once the single pass is given up), counted with pass 1's state in
 * locals as in nv_exact_add_many; zero counts cost a test each.
 * *page: as for dense_add_copies.
 * Return: the first entry left to counts_one (its value past the array, or
 * its count would wrap one), or n.
 */
static size_t counts_run(struct nv_exact *e, uint64_t lo, const uint32_t *cnt, size_t i,
			 size_t n, uint64_t *page)
{
	uint64_t *hist = e->hist, mn = e->pass_n ? e->min : UINT64_MAX;
	uint64_t mx = e->pass_n ? e->max : 0, total = 0, pg = *page;
	bool counting = !e->single_failed;
	uint64_t ndense = counting ? e->ndense : UINT64_MAX;
	uint32_t *dense = e->dense;
	struct nv_exact_sums sums = e->sums;

	for (; i < n; i++) {
		uint64_t v = lo + i;
		uint32_t c = cnt[i];

		if (!c)
			continue;
		if (v >= ndense)
			break;
		if (counting) {
			if (v / NV_DENSE_PAGE != pg) {	/* the page's first touch: a write */
				pg = v / NV_DENSE_PAGE;
				__atomic_fetch_add(&dense[v], 0, __ATOMIC_RELAXED);
			}
			if (c > UINT32_MAX - dense[v])
				break;	/* it would wrap: counts_one gives the data up */
			dense[v] += c;
		}
		hist[nv_exact_bucket_of(v)] += c;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		nv_sums_add_count(&sums, v, c);
		total += c;
	}
	if (total) {
		e->min = mn;
		e->max = mx;
	}
	e->pass_n += total;
	e->dense_n += counting ? total : 0;
	e->sums = sums;
	*page = pg;
	return i;
}

void nv_exact_add_counts(struct nv_exact *e, uint64_t lo, const uint32_t *cnt, size_t n)
{
	uint64_t page = UINT64_MAX;

	if (e->pass || e->finished) {	/* a later pass: rare */
		for (size_t i = 0; i < n; i++)
			for (uint32_t k = 0; k < cnt[i]; k++)
				nv_exact_add(e, lo + i);
		return;
	}
	for (size_t i = 0; (i = counts_run(e, lo, cnt, i, n, &page)) < n; i++)
		counts_one(e, lo + i, cnt[i], &page);
}
