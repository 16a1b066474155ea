/*
 * exact_select.c - the k-th smallest of an array, by quickselect (three-way
 * partition, median of three): one template for the 64-bit values the
 * series and probes select among and the 32-bit offsets an exact state's
 * list holds (exact.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "analyze/stats/exact.h"

/* NAME(a, n, k): the k-th smallest (0-based, k < n) of a[0..n) of type T,
 * a reordered so that a[0..k) <= a[k] <= a[k+1..n). */
#define SELECT_KTH(NAME, T)								\
T NAME(T *a, size_t n, size_t k)							\
{											\
	size_t l = 0, r = n;	/* [l, r) holds the answer */				\
											\
	while (r - l > 1) {								\
		size_t m = l + (r - l) / 2, lt = l, i = l, gt = r;			\
		T x = a[l], y = a[m], z = a[r - 1], piv, t;				\
											\
		/* median of three */							\
		piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y)); \
		while (i < gt) {							\
			if (a[i] < piv) {						\
				t = a[lt], a[lt++] = a[i], a[i++] = t;			\
			} else if (a[i] > piv) {					\
				t = a[i], a[i] = a[--gt], a[gt] = t;			\
			} else {							\
				i++;							\
			}								\
		}									\
		if (k < lt)								\
			r = lt;								\
		else if (k >= gt)							\
			l = gt;								\
		else									\
			return a[k];	/* == piv: [lt, gt) all hold it */		\
	}										\
	return a[l];									\
}

SELECT_KTH(nv_select_kth, uint64_t)
SELECT_KTH(nv_select_kth32, uint32_t)
