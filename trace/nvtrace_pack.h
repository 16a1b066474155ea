/*
 * nvtrace_pack.h - a block's columns (struct nvt_cols) kept small between
 * reads: what a reader holds of a block it stopped inside (nvt_reader_keep_rest)
 * until it is read on.  Private to trace/.
 */
#ifndef NVTRACE_PACK_H
#define NVTRACE_PACK_H

#include <stddef.h>

#include "trace/nvtrace.h"

/* One array of struct nvt_cols: its NVT_COL_* bit (0: complete_ns, always
 * there), where its pointer is and the size of a value. */
struct nvt_col_field {
	unsigned bit;
	void **p;
	size_t size;
};

#define NVT_NCOLS 8

/* The arrays of c, complete_ns first.  Return: nothing. */
void nvt_col_fields(struct nvt_cols *c, struct nvt_col_field f[NVT_NCOLS]);

struct nvt_packed;

/*
 * c's records from `from` on (from <= c->n), packed: a column known constant
 * (c->uniform) as one value, a 64-bit column whose values lie within 2^32 of
 * their least as 32-bit offsets from it, the others as they are (nv_nop's
 * and gen_trace's rests: 10 bytes a record, not 27); c's columns that are
 * NULL stay out.  c is unchanged.
 * Return: 0 with *out set (nvt_packed_free), or -ENOMEM.
 */
int nvt_cols_pack(const struct nvt_cols *c, size_t from, struct nvt_packed **out);
/* Return: the records p holds. */
size_t nvt_packed_n(const struct nvt_packed *p);
/* Return: the NVT_COL_* bits of the columns p holds (complete_ns always). */
unsigned nvt_packed_want(const struct nvt_packed *p);
/*
 * p's records into c: c's arrays of p's columns (nvt_packed_want) hold at
 * least nvt_packed_n(p) values each; c->n, its times' range, uniform and
 * back set as they were.  Return: nothing.
 */
void nvt_cols_unpack(const struct nvt_packed *p, struct nvt_cols *c);
/* Return: nothing; p (or NULL) freed. */
void nvt_packed_free(struct nvt_packed *p);

#endif
