/*
 * trace_interval.c - one open interval of one operation (trace_tan.h's
 * struct ibuf): its IOs counted so that its exact p50/p99/p99.9 come out
 * when it closes, without holding the IOs themselves.
 *
 * Each latency is counted in its exact.h bucket (the counts find the bucket
 * a rank falls in) and, below the buffer's limit, in a count per nanosecond
 * (dense: the rank within the bucket is a walk over at most the bucket's
 * width); a latency at or above the limit is kept in a list (wide) and
 * selected on.  The limit starts at IV_DENSE_LO (buckets of at most 256
 * ns, so clearing the counts of the buckets used costs little per
 * interval); when the list fills up it is raised to IV_DENSE_HI once, and
 * when it fills again the interval spills (counts only: trace_series.c's
 * second read resolves it).  The IOs at or above a cut, which rises with
 * the interval's counts to about its p99.8 and never past what was kept,
 * are kept with their completion times: the candidates for the spike
 * episodes (trace_spikes.c).  The counts and list also give the interval's
 * IOs back to the exact states at the close (tan_ibuf_exact), less those
 * noted as of another queue-depth class (tan_ibuf_minor).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/exact_dense.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"

/* The dense counts: 4 bytes per nanosecond below IV_DENSE_HI, zero pages
 * until a count lands there (exact_dense.h: the array of the same op's
 * buffer in the trace before, its pages already mapped in).
 * Return: 0 or -ENOMEM. */
static int ibuf_dense(struct ibuf *b, unsigned role)
{
	if (b->dense)
		return 0;
	b->role = role;
	b->dense = nv_dense_get(IV_DENSE_HI, role, &b->dense_span);
	return b->dense ? 0 : -ENOMEM;
}

int tan_ibuf_init(struct ibuf *b, size_t vcap, bool dense, unsigned role)
{
	memset(b, 0, sizeof(*b));
	b->vcap = vcap;
	b->dense_ok = dense;
	b->lim = dense ? IV_DENSE_LO : 0;
	if (!(b->hist = nv_exact_hist_new()))
		return -ENOMEM;
	return dense ? ibuf_dense(b, role) : 0;
}

void tan_ibuf_free(struct ibuf *b)
{
	nv_exact_hist_free(b->hist);
	if (b->dense)	/* counts only below lim, which only rises */
		nv_dense_put(b->dense, IV_DENSE_HI,
			     b->lim > b->dense_span ? b->lim : b->dense_span, b->role);
	free(b->wide);
	free(b->cv);
	free(b->minor);
	memset(b, 0, sizeof(*b));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The limit raised to IV_DENSE_HI: the listed values below it counted per ns.
 * Return: nothing; *spilled set when a count wrapped (2^32 equal values). */
static void ibuf_raise(struct ibuf *b, bool *spilled)
{
	size_t m = 0;

	b->lim = IV_DENSE_HI;
	for (size_t i = 0; i < b->nwide; i++) {
		uint64_t v = b->wide[i];

		if (v >= b->lim)
			b->wide[m++] = v;
		else if (!++b->dense[v])
			*spilled = true;
	}
	b->nwide = m;
}

/* Return: how many of lat[0..n) are at or above lim. */
static size_t count_from(const uint64_t *lat, size_t n, uint64_t lim)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += lat[i] >= lim;
	return w;
}

/*
 * The wide list is full: grow it up to vcap, else raise the limit (the
 * values below it move to the dense counts), else spill.
 * Return: 0 or -ENOMEM.
 */
static int wide_full(struct ibuf *b, bool *spilled)
{
	if (b->widecap < b->vcap) {
		size_t nc = b->widecap ? b->widecap * 2 : 4096;
		uint64_t *n;

		if (nc > b->vcap)
			nc = b->vcap;
		if (!(n = realloc(b->wide, nc * sizeof(*n))))
			return -ENOMEM;
		b->wide = n;
		b->widecap = nc;
		return 0;
	}
	if (b->dense_ok && b->lim < IV_DENSE_HI) {
		ibuf_raise(b, spilled);
		if (b->nwide < b->widecap)
			return 0;
	}
	*spilled = true;
	return 0;
}

bool tan_ibuf_will_hold(struct ibuf *b, const uint64_t *lat, size_t n)
{
	bool spilled = false;

	if (!b->dense || b->ios + n >= UINT32_MAX)	/* no count can wrap */
		return false;
	if (b->nwide + n <= b->vcap)
		return true;
	if (b->nwide + count_from(lat, n, b->lim) <= b->vcap)
		return true;
	if (!b->dense_ok || b->lim >= IV_DENSE_HI)
		return false;
	ibuf_raise(b, &spilled);	/* as the push would once the list filled */
	return !spilled && b->nwide + count_from(lat, n, b->lim) <= b->vcap;
}

/*
 * Raise the candidates' cut to the low end of the bucket holding the
 * interval's rank 99.8% so far (once it has IV_CUT_MIN IOs), drop the kept
 * IOs below it, and grow the list when it stays more than half full.  Return: 0 or -ENOMEM.
 */
static int cand_full(struct ibuf *b)
{
	uint64_t n = b->ios, keep = n - (n * 998) / 1000, above = 0, lo, hi;
	unsigned bk = b->hhi;
	size_t m = 0;

	if (n < IV_CUT_MIN)	/* too few IOs to say where the tail starts: keep all */
		goto grow;
	while (bk > b->hlo && above + b->hist[bk] < keep)
		above += b->hist[bk--];
	nv_exact_bucket_range(bk, &lo, &hi);
	if (lo > b->cut)
		b->cut = lo;
	for (size_t i = 0; i < b->ncv; i++)
		if (b->cv[i].lat >= b->cut)
			b->cv[m++] = b->cv[i];
	b->ncv = m;
grow:
	if (b->ncv > b->cvcap / 2 || !b->cvcap) {
		size_t nc = b->cvcap ? b->cvcap * 2 : 1024;
		struct ivcand *c = realloc(b->cv, nc * sizeof(*c));

		if (!c)
			return -ENOMEM;
		b->cv = c;
		b->cvcap = nc;
	} else if (b->cvcap > 1024 && b->ncv < b->cvcap / 8) {
		/* the cut rose past most of what the first IOs kept: the list
		 * shrinks to four times what it holds (a job's thread traces
		 * keep their buffers until the interval closes) */
		size_t nc = 1024;
		struct ivcand *c;

		while (nc < 4 * b->ncv)
			nc *= 2;
		if ((c = realloc(b->cv, nc * sizeof(*c)))) {
			b->cv = c;
			b->cvcap = nc;
		}
	}
	return 0;
}

/* Return: the first of edges e[0..n) (ascending) at or above v, n above them all. */
static unsigned le_index(const uint64_t *e, unsigned n, uint64_t v)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (e[mid] >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The hot loop's copies of b's counters, in locals so that the stores to
 * the counts (uint64_t and uint32_t arrays that could alias b's fields) do
 * not reload them every IO; put back before a helper reads b and taken
 * again after it changed the limit or the cut.
 */
struct push_regs {
	uint64_t ios, lat_sum, max, lim, cut;
	unsigned hlo, hhi;
	size_t nwide, ncv;
};

static inline void regs_put(struct ibuf *b, const struct push_regs *r)
{
	b->ios = r->ios, b->lat_sum = r->lat_sum, b->max = r->max;
	b->hlo = r->hlo, b->hhi = r->hhi, b->nwide = r->nwide, b->ncv = r->ncv;
}

static inline void regs_get(const struct ibuf *b, struct push_regs *r)
{
	r->lim = b->lim, r->cut = b->cut, r->nwide = b->nwide, r->ncv = b->ncv;
}

int tan_ibuf_push(struct ibuf *b, const uint64_t *lat, const uint64_t *cpl, size_t n,
		  bool *spilled)
{
	uint64_t *hist = b->hist;
	struct push_regs r = {
		.ios = b->ios, .lat_sum = b->lat_sum, .max = b->max,
		.hlo = b->ios ? b->hlo : UINT32_MAX, .hhi = b->ios ? b->hhi : 0,
	};
	bool spill = *spilled;
	int err = 0;

	regs_get(b, &r);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = lat[i];
		unsigned h = nv_exact_bucket_of(v);

		hist[h]++;
		r.lat_sum += v;
		r.hlo = h < r.hlo ? h : r.hlo;
		r.hhi = h > r.hhi ? h : r.hhi;
		r.max = v > r.max ? v : r.max;
		r.ios++;
		if (spill)
			continue;
		if (v < r.lim) {
			if (!++b->dense[v])
				spill = true;	/* 2^32 equal values */
		} else {
			if (r.nwide == b->widecap) {
				regs_put(b, &r);
				err = wide_full(b, &spill);
				regs_get(b, &r);
				if (err)
					break;
				if (spill)
					continue;
				if (v < r.lim) {	/* raised */
					if (!++b->dense[v])
						spill = true;
					goto cand;
				}
			}
			b->wide[r.nwide++] = v;
		}
cand:
		if (v < r.cut)
			continue;
		if (r.ncv == b->cvcap) {
			regs_put(b, &r);
			err = cand_full(b);
			regs_get(b, &r);
			if (err)
				break;
			if (v < r.cut)
				continue;
		}
		b->cv[r.ncv++] = (struct ivcand){ v, cpl[i] };
	}
	regs_put(b, &r);
	*spilled = spill;
	return err;
}


/* Return: the bucket of counts h (nonzero in [lo, hi]) holding the k-th
 * smallest (0-based), the values in the buckets below it in *below. */
unsigned tan_rank_bucket(const uint64_t *h, unsigned lo, unsigned hi, uint64_t k,
			 uint64_t *below)
{
	unsigned bk = lo;

	*below = 0;
	while (bk < hi && *below + h[bk] <= k)
		*below += h[bk++];
	return bk;
}

int tan_ibuf_kth(struct ibuf *const *bufs, unsigned nb, unsigned bk, uint64_t k,
		 uint64_t **scratch, size_t *scratchcap, uint64_t *out)
{
	uint64_t lo, hi, cum = 0;
	size_t m = 0, w = 0;
	bool dense = false;

	nv_exact_bucket_range(bk, &lo, &hi);
	for (unsigned j = 0; j < nb; j++) {
		const struct ibuf *b = bufs[j];

		if (hi < b->lim) {	/* a bucket is below the limit or above it, whole */
			dense = true;
			continue;
		}
		for (size_t i = 0; i < b->nwide; i++) {
			if (b->wide[i] < lo || b->wide[i] > hi)
				continue;
			if (m == *scratchcap) {
				size_t nc = m ? m * 2 : 1024;
				uint64_t *s = realloc(*scratch, nc * sizeof(*s));

				if (!s)
					return -ENOMEM;
				*scratch = s;
				*scratchcap = nc;
			}
			(*scratch)[m++] = b->wide[i];
		}
	}
	if (!dense) {
		if (k >= m)
			return -EINVAL;
		*out = nv_select_kth(*scratch, m, k);
		return 0;
	}
	if (m > 1)	/* the wide values in order, walked beside the counts */
		qsort(*scratch, m, sizeof(**scratch), cmp_u64);
	for (uint64_t v = lo; v <= hi; v++) {
		uint64_t c = 0;

		for (unsigned j = 0; j < nb; j++)
			if (hi < bufs[j]->lim)
				c += bufs[j]->dense[v];
		while (w < m && (*scratch)[w] == v) {
			c++;
			w++;
		}
		if (cum + c > k) {
			*out = v;
			return 0;
		}
		cum += c;
	}
	return -EINVAL;
}

int tan_ibuf_cands(const struct ibuf *b, uint64_t from, uint64_t *cut,
		   int (*keep)(void *arg, uint64_t lat, uint64_t cpl), void *arg)
{
	int err = 0;

	*cut = from > b->cut ? from : b->cut;
	for (size_t i = 0; i < b->ncv && !err; i++)
		if (b->cv[i].lat >= *cut)
			err = keep(arg, b->cv[i].lat, b->cv[i].cpl);
	return err;
}

int tan_ibuf_minor(struct ibuf *b, const uint64_t *lat, size_t n)
{
	if (b->nminor + n > IV_MINOR_MAX)
		return -ENOSPC;
	if (b->nminor + n > b->minorcap) {
		size_t nc = b->minorcap ? b->minorcap : 256;
		uint64_t *m;

		while (nc < b->nminor + n)
			nc *= 2;
		if (!(m = realloc(b->minor, nc * sizeof(*m))))
			return -ENOMEM;
		b->minor = m;
		b->minorcap = nc;
	}
	memcpy(b->minor + b->nminor, lat, n * sizeof(*lat));
	b->nminor += n;
	return 0;
}

/*
 * b's listed latencies less the noted ones m[0..nm) (ascending, each one of
 * the listed), in list order, into *out (malloc'ed, *nout of them; b's own
 * list when none is noted, *out then NULL).  The noted are few: each listed
 * value is looked up among them (a binary search past a range check), the
 * list is not sorted.  Return: 0 or -ENOMEM.
 */
static int wide_less(const struct ibuf *b, const uint64_t *m, size_t nm, uint64_t **out,
		     size_t *nout)
{
	uint64_t *w;
	bool *used;
	size_t k = 0;

	*out = NULL;
	*nout = b->nwide;
	if (!nm)
		return 0;
	w = malloc(b->nwide * sizeof(*w));
	used = calloc(nm, sizeof(*used));
	if (!w || !used) {
		free(w);
		free(used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->nwide; i++) {
		uint64_t v = b->wide[i];

		if (v >= m[0] && v <= m[nm - 1]) {
			size_t lo = le_index(m, (unsigned)nm, v);	/* nm <= IV_MINOR_MAX */

			while (lo < nm && m[lo] == v && used[lo])
				lo++;
			if (lo < nm && m[lo] == v) {	/* one noted copy of v: left out */
				used[lo] = true;
				continue;
			}
		}
		w[k++] = v;
	}
	free(used);
	*out = w;
	*nout = k;
	return 0;
}

int tan_ibuf_exact(struct ibuf *b, struct nv_exact *e)
{
	uint32_t tmp[1u << 12];	/* a bucket's counts below IV_DENSE_HI (2^21: 4096 ns) */
	size_t j = 0, nm = b->nminor, nw;
	uint64_t *w;
	int err;

	if (nm > 1)
		qsort(b->minor, nm, sizeof(*b->minor), cmp_u64);
	while (j < nm && b->minor[j] < b->lim)
		j++;
	if ((err = wide_less(b, b->minor + j, nm - j, &w, &nw)))
		return err;
	j = 0;
	for (unsigned h = b->hlo; b->ios && h <= b->hhi; h++) {
		uint64_t lo, hi;
		size_t n;

		if (!b->hist[h])
			continue;
		nv_exact_bucket_range(h, &lo, &hi);
		if (hi >= b->lim)	/* a bucket is below the limit or above it, whole */
			break;
		n = (size_t)(hi - lo + 1);
		while (j < nm && b->minor[j] < lo)
			j++;
		if (j == nm || b->minor[j] > hi) {
			nv_exact_add_counts(e, lo, b->dense + lo, n);
			continue;
		}
		memcpy(tmp, b->dense + lo, n * sizeof(*tmp));
		for (; j < nm && b->minor[j] <= hi; j++)
			tmp[b->minor[j] - lo]--;
		nv_exact_add_counts(e, lo, tmp, n);
	}
	nv_exact_add_many(e, w ? w : b->wide, nw);
	free(w);
	b->nminor = 0;
	return 0;
}

void tan_ibuf_clear(struct ibuf *b)
{
	if (b->ios) {
		for (unsigned h = b->hlo; b->dense && h <= b->hhi; h++) {
			uint64_t lo, hi;

			if (!b->hist[h])
				continue;
			nv_exact_bucket_range(h, &lo, &hi);
			if (hi < b->lim)
				memset(b->dense + lo, 0, (hi - lo + 1) * sizeof(*b->dense));
		}
		memset(b->hist + b->hlo, 0, (b->hhi - b->hlo + 1) * sizeof(*b->hist));
	}
	b->lim = b->dense_ok ? IV_DENSE_LO : 0;
	b->ios = 0;
	b->nwide = 0;
	b->nminor = 0;
	b->ncv = 0;
	b->cut = 0;
	b->bytes = 0;
	b->errors = 0;
	b->max = 0;
	b->lat_sum = 0;
}

/* The first edge of e[0..n) at or above v's bucket's low end, and whether an
 * edge falls inside the bucket [lo, hi] (values <= it before, above after).
 * Return: that edge's index (n: above them all). */
static unsigned le_bucket(const uint64_t *e, unsigned n, unsigned h, bool *split)
{
	uint64_t lo, hi;
	unsigned i;

	nv_exact_bucket_range(h, &lo, &hi);
	i = le_index(e, n, lo);
	*split = i < n && e[i] < hi;
	return i;
}

void tan_ibuf_le(const struct ibuf *b, const uint64_t *e, unsigned n, uint64_t *le)
{
	bool split, wide = false;

	memset(le, 0, (n + 1) * sizeof(*le));
	for (unsigned h = b->hlo; b->ios && h <= b->hhi; h++) {
		uint64_t lo, hi, below = 0;
		unsigned i;

		if (!b->hist[h])
			continue;
		i = le_bucket(e, n, h, &split);
		if (!split) {	/* the whole bucket at or below edge i */
			le[i] += b->hist[h];
			continue;
		}
		nv_exact_bucket_range(h, &lo, &hi);
		if (hi >= b->lim) {	/* a bucket is below the limit or above it, whole */
			wide = true;
			continue;
		}
		for (uint64_t v = lo; v <= e[i]; v++)
			below += b->dense[v];
		le[i] += below;
		le[i + 1] += b->hist[h] - below;
	}
	for (size_t k = 0; wide && k < b->nwide; k++) {	/* split buckets' listed values */
		unsigned i = le_bucket(e, n, nv_exact_bucket_of(b->wide[k]), &split);

		if (split)
			le[b->wide[k] <= e[i] ? i : i + 1]++;
	}
}
