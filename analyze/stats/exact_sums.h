/*
 * exact_sums.h - exact.c's sums (private): the exact sum of values and of
 * their squares, so count, mean and stdev depend only on which values were
 * added, never on their order or on how states were split and merged.
 *
 * P = sum of v in 128 bits (n < 2^64 values below 2^64), Q = sum of v^2 in
 * 192 bits (q plus the carry word qhi).  The standard deviation's numerator
 * n*Q - P^2 is then exact (256 bits); only its quotient is rounded.
 */
#ifndef NV_EXACT_SUMS_H
#define NV_EXACT_SUMS_H

#include <stdint.h>

struct nv_exact_sums {
	unsigned __int128 p;	/* sum of v */
	unsigned __int128 q;	/* sum of v^2, low 128 bits */
	uint64_t qhi;		/* sum of v^2, bits 128..191 */
};

/* Return: nothing; v added to s (inline: the hot loop's, once per IO). */
static inline void nv_sums_add(struct nv_exact_sums *s, uint64_t v)
{
	unsigned __int128 sq = (unsigned __int128)v * v;

	s->p += v;
	s->q += sq;
	s->qhi += s->q < sq;
}

/* Return: nothing; c copies of v added to s. */
void nv_sums_add_copies(struct nv_exact_sums *s, uint64_t v, uint64_t c);
/* Return: nothing; c copies of v added to s (inline: the bulk add's, once per
 * counted value; the product in 128 bits for values below 2^32). */
static inline void nv_sums_add_count(struct nv_exact_sums *s, uint64_t v, uint32_t c)
{
	unsigned __int128 sq;

	if (v >> 32) {
		nv_sums_add_copies(s, v, c);
		return;
	}
	sq = (unsigned __int128)(v * v) * c;
	s->p += v * c;
	s->q += sq;
	s->qhi += s->q < sq;
}
/* Return: nothing; src's sums added to s (exact: the same as adding its values). */
void nv_sums_merge(struct nv_exact_sums *s, const struct nv_exact_sums *src);
/* Return: the mean of n values of sums s (0 when n is 0), rounded once. */
double nv_sums_mean(const struct nv_exact_sums *s, uint64_t n);
/* Return: the sample standard deviation (n - 1) of n values of sums s (0 when n < 2). */
double nv_sums_stdev(const struct nv_exact_sums *s, uint64_t n);

#endif
