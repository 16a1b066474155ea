/*
 * nvtrace_pack.c - a block's columns kept small between reads
 * (nvtrace_pack.h): each column by itself, one value when constant, 32-bit
 * offsets when its values fit, as it is otherwise; unpacked bit for bit.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/nvtrace_pack.h"

enum pack_how {
	PACK_NONE,	/* not wanted (NULL) */
	PACK_ONE,	/* constant: the value in base */
	PACK_OFF32,	/* uint32_t offsets from base */
	PACK_RAW,	/* as the column holds it */
};

struct pack_col {
	enum pack_how how;
	uint64_t base;
	size_t at;	/* where its values start in data */
};

struct nvt_packed {
	size_t n;
	unsigned uniform, want;
	uint64_t min_complete_ns, max_complete_ns;
	bool back;
	struct pack_col col[NVT_NCOLS];
	unsigned char data[];
};

void nvt_col_fields(struct nvt_cols *c, struct nvt_col_field f[NVT_NCOLS])
{
	f[0] = (struct nvt_col_field){ 0, (void **)&c->complete_ns, sizeof(*c->complete_ns) };
	f[1] = (struct nvt_col_field){ NVT_COL_LATENCY, (void **)&c->latency_ns,
				       sizeof(*c->latency_ns) };
	f[2] = (struct nvt_col_field){ NVT_COL_OFFSET, (void **)&c->offset, sizeof(*c->offset) };
	f[3] = (struct nvt_col_field){ NVT_COL_LENGTH, (void **)&c->length, sizeof(*c->length) };
	f[4] = (struct nvt_col_field){ NVT_COL_STATUS, (void **)&c->status, sizeof(*c->status) };
	f[5] = (struct nvt_col_field){ NVT_COL_QD, (void **)&c->qd, sizeof(*c->qd) };
	f[6] = (struct nvt_col_field){ NVT_COL_OP, (void **)&c->op, sizeof(*c->op) };
	f[7] = (struct nvt_col_field){ NVT_COL_FILE, (void **)&c->file, sizeof(*c->file) };
}

/*
 * How values v[0..n) of a column of size bytes pack (uniform: known
 * constant), into *pc's how and base.  Return: the bytes its values take.
 */
static size_t pack_plan(const void *v, size_t n, size_t size, bool uniform,
			struct pack_col *pc)
{
	const uint64_t *w = v;
	uint64_t lo = UINT64_MAX, hi = 0;

	pc->base = 0;
	if (!n || uniform) {
		pc->how = PACK_ONE;
		if (n)
			memcpy(&pc->base, v, size);	/* its bytes, copied back as they are */
		return 0;
	}
	if (size != sizeof(uint64_t)) {
		pc->how = PACK_RAW;
		return n * size;
	}
	for (size_t i = 0; i < n; i++) {
		lo = w[i] < lo ? w[i] : lo;
		hi = w[i] > hi ? w[i] : hi;
	}
	if (hi - lo > UINT32_MAX) {
		pc->how = PACK_RAW;
		return n * size;
	}
	pc->how = PACK_OFF32;
	pc->base = lo;
	return n * sizeof(uint32_t);
}

int nvt_cols_pack(const struct nvt_cols *c, size_t from, struct nvt_packed **out)
{
	struct nvt_col_field f[NVT_NCOLS];
	struct pack_col pc[NVT_NCOLS] = { 0 };
	struct nvt_cols cc = *c;
	struct nvt_packed *p;
	size_t n = c->n - from, bytes = 0;

	nvt_col_fields(&cc, f);
	for (size_t i = 0; i < NVT_NCOLS; i++) {
		if (!*f[i].p)
			continue;
		pc[i].at = bytes;
		bytes += pack_plan((char *)*f[i].p + from * f[i].size, n, f[i].size,
				   f[i].bit && (c->uniform & f[i].bit), &pc[i]);
		bytes = (bytes + 7) & ~(size_t)7;
	}
	if (!(p = malloc(sizeof(*p) + bytes)))
		return -ENOMEM;
	*p = (struct nvt_packed){ .n = n, .uniform = c->uniform,
				  .min_complete_ns = c->min_complete_ns,
				  .max_complete_ns = c->max_complete_ns, .back = c->back };
	memcpy(p->col, pc, sizeof(pc));
	for (size_t i = 0; i < NVT_NCOLS; i++) {
		const char *v = (char *)*f[i].p + from * f[i].size;
		uint32_t *o = (uint32_t *)(p->data + pc[i].at);

		if (!*f[i].p)
			continue;
		p->want |= f[i].bit;
		if (pc[i].how == PACK_RAW)
			memcpy(p->data + pc[i].at, v, n * f[i].size);
		else if (pc[i].how == PACK_OFF32)
			for (size_t k = 0; k < n; k++)
				o[k] = (uint32_t)(((const uint64_t *)v)[k] - pc[i].base);
	}
	*out = p;
	return 0;
}

size_t nvt_packed_n(const struct nvt_packed *p)
{
	return p->n;
}

unsigned nvt_packed_want(const struct nvt_packed *p)
{
	return p->want;
}

/* Return: nothing; d[0..n) of size bytes each set to the value at v. */
static void fill_one(void *d, size_t n, size_t size, const void *v)
{
	uint64_t x8;
	uint32_t x4;
	uint16_t x2;

	switch (size) {
	case 8:
		memcpy(&x8, v, 8);
		for (size_t k = 0; k < n; k++)
			((uint64_t *)d)[k] = x8;
		break;
	case 4:
		memcpy(&x4, v, 4);
		for (size_t k = 0; k < n; k++)
			((uint32_t *)d)[k] = x4;
		break;
	case 2:
		memcpy(&x2, v, 2);
		for (size_t k = 0; k < n; k++)
			((uint16_t *)d)[k] = x2;
		break;
	default:
		memset(d, *(const unsigned char *)v, n);
	}
}

void nvt_cols_unpack(const struct nvt_packed *p, struct nvt_cols *c)
{
	struct nvt_col_field f[NVT_NCOLS];

	nvt_col_fields(c, f);
	for (size_t i = 0; i < NVT_NCOLS; i++) {
		const struct pack_col *pc = &p->col[i];
		char *d = *f[i].p;
		const uint32_t *o = (const uint32_t *)(p->data + pc->at);

		if (pc->how == PACK_NONE || !d)
			continue;
		if (pc->how == PACK_RAW)
			memcpy(d, p->data + pc->at, p->n * f[i].size);
		else if (pc->how == PACK_OFF32)
			for (size_t k = 0; k < p->n; k++)
				((uint64_t *)d)[k] = pc->base + o[k];
		else
			fill_one(d, p->n, f[i].size, &pc->base);
	}
	c->n = p->n;
	c->uniform = p->uniform;
	c->min_complete_ns = p->min_complete_ns;
	c->max_complete_ns = p->max_complete_ns;
	c->back = p->back;
}

void nvt_packed_free(struct nvt_packed *p)
{
	free(p);
}
