/*
 * exact_sums.c - exact.c's exact sums, mean and standard deviation (see
 * exact_sums.h): multi-word integers as little-endian 64-bit limbs.
 */
#include <math.h>
#include <stddef.h>

#include "analyze/stats/exact_sums.h"

/* Return: nothing; r[0..na+nb) = a[0..na) * b[0..nb) (schoolbook). */
static void limbs_mul(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *r)
{
	for (size_t k = 0; k < na + nb; k++)
		r[k] = 0;
	for (size_t i = 0; i < na; i++) {
		uint64_t carry = 0;

		for (size_t j = 0; j < nb; j++) {
			unsigned __int128 t = (unsigned __int128)a[i] * b[j] + r[i + j] + carry;

			r[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		r[i + nb] = carry;
	}
}

/* Return: nothing; r[0..n) -= b[0..n) (modulo 2^(64n); callers know r >= b). */
static void limbs_sub(uint64_t *r, const uint64_t *b, size_t n)
{
	uint64_t borrow = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t x = r[i] - b[i], y = x - borrow;

		borrow = (r[i] < b[i]) | (x < borrow);
		r[i] = y;
	}
}

/* Return: nothing; the 192-bit value (lo, hi) += the 192 bits of a[0..3). */
static void add192(unsigned __int128 *lo, uint64_t *hi, const uint64_t *a)
{
	unsigned __int128 x = (unsigned __int128)a[1] << 64 | a[0];

	*lo += x;
	*hi += a[2] + (*lo < x);
}

void nv_sums_add_copies(struct nv_exact_sums *s, uint64_t v, uint64_t c)
{
	unsigned __int128 sq = (unsigned __int128)v * v;
	uint64_t w[2] = { (uint64_t)sq, (uint64_t)(sq >> 64) }, r[3];

	s->p += (unsigned __int128)v * c;
	limbs_mul(&c, 1, w, 2, r);
	add192(&s->q, &s->qhi, r);
}

void nv_sums_merge(struct nv_exact_sums *s, const struct nv_exact_sums *src)
{
	uint64_t r[3] = { (uint64_t)src->q, (uint64_t)(src->q >> 64), src->qhi };

	s->p += src->p;
	add192(&s->q, &s->qhi, r);
}

double nv_sums_mean(const struct nv_exact_sums *s, uint64_t n)
{
	/* the quotient (below 2^64) and the remainder's fraction: exact in a
	 * long double's 64 bits but for the fraction's rounding */
	if (!n)
		return 0.0;
	return (double)((long double)(uint64_t)(s->p / n) +
			(long double)(uint64_t)(s->p % n) / (long double)n);
}

/* Return: the 256-bit r[0..4) as a long double (its top 64 bits, truncated). */
static long double limbs_to_ld(const uint64_t *r)
{
	int top = 3, sh;
	uint64_t m;

	while (top >= 0 && !r[top])
		top--;
	if (top < 0)
		return 0.0L;
	if (!top)
		return (long double)r[0];
	sh = __builtin_clzll(r[top]);
	m = sh ? r[top] << sh | r[top - 1] >> (64 - sh) : r[top];
	return ldexpl((long double)m, 64 * top - sh);
}

double nv_sums_stdev(const struct nv_exact_sums *s, uint64_t n)
{
	uint64_t q[3] = { (uint64_t)s->q, (uint64_t)(s->q >> 64), s->qhi };
	uint64_t p[2] = { (uint64_t)s->p, (uint64_t)(s->p >> 64) }, nq[4], pp[4];
	long double num, den;

	if (n < 2)
		return 0.0;
	/* n*Q - P^2 = n * sum of (v - mean)^2 >= 0 (Cauchy-Schwarz), exact */
	limbs_mul(&n, 1, q, 3, nq);
	limbs_mul(p, 2, p, 2, pp);
	limbs_sub(nq, pp, 4);
	num = limbs_to_ld(nq);
	den = (long double)n * (long double)(n - 1);
	return (double)sqrtl(num / den);
}
