/*
 * nvtrace_cols.c - the column-encoded record payload of a block: integer
 * columns as byte planes, the record packing the writer does and the two
 * decoders (records, columns) the reader does.  docs/trace-format.md,
 * "Block payload", is the specification; keep the two in step.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/nvtrace_fmt.h"

/*
 * The byte-plane loops below are the hot path of every trace read: let
 * GCC vectorize them at -O2 too (its -O2 "very cheap" cost model leaves
 * loops of unknown length scalar).  Other compilers: as they are.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

/* ---- integer columns ---- */

/* Append v as LEB128 (7 bits per byte, low first); room must be reserved. */
static void put_varint(struct nvt_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

/* Read a LEB128 value of at most 10 bytes; 0 or -EBADMSG past the end. */
static int get_varint(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint8_t c;

		if (*pos >= len)
			return -EBADMSG;
		c = in[(*pos)++];
		if (shift == 63 && c > 1)
			return -EBADMSG;
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -EBADMSG;
}

/*
 * Zigzag of the two's complement difference d (every 64-bit pattern
 * round-trips), without a branch: the sign of a random offset's distance
 * cannot be predicted, and the encoder computes three of these per record.
 * For a d that 2^shift divides, zz0(d) >> shift is the zigzag of
 * d / 2^shift, which unzz_shift() inverts.
 */
static inline uint64_t zz0(uint64_t d)
{
	return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static uint64_t unzz_shift(uint64_t u, unsigned shift)
{
	if (u & 1)
		return 0 - (((u >> 1) + 1) << shift);
	return (u >> 1) << shift;
}

static unsigned byte_width(uint64_t v)
{
	unsigned w = 0;

	while (v) {
		w++;
		v >>= 8;
	}
	return w;
}

/*
 * Byte planes of the m values v[i] - lo, all w planes in one pass (plane k
 * = byte k of each value) at p.  One loop per common width so that GCC
 * vectorizes it; the caller has checked that every v[i] - lo fits in w bytes.
 */
static void put_planes(uint8_t *p, const uint64_t *v, size_t m, unsigned w, uint64_t lo)
{
	uint8_t *p0 = p, *p1 = p + m, *p2 = p + 2 * m, *p3 = p + 3 * m;

	switch (w) {
	case 0:
		break;
	case 1:
		for (size_t i = 0; i < m; i++)
			p0[i] = (uint8_t)(v[i] - lo);
		break;
	case 2:
		for (size_t i = 0; i < m; i++) {
			uint64_t x = v[i] - lo;

			p0[i] = (uint8_t)x;
			p1[i] = (uint8_t)(x >> 8);
		}
		break;
	case 3:
		for (size_t i = 0; i < m; i++) {
			uint64_t x = v[i] - lo;

			p0[i] = (uint8_t)x;
			p1[i] = (uint8_t)(x >> 8);
			p2[i] = (uint8_t)(x >> 16);
		}
		break;
	case 4:
		for (size_t i = 0; i < m; i++) {
			uint64_t x = v[i] - lo;

			p0[i] = (uint8_t)x;
			p1[i] = (uint8_t)(x >> 8);
			p2[i] = (uint8_t)(x >> 16);
			p3[i] = (uint8_t)(x >> 24);
		}
		break;
	default:
		for (size_t i = 0; i < m; i++) {
			uint64_t x = v[i] - lo;

			for (unsigned k = 0; k < w; k++)
				p[k * m + i] = (uint8_t)(x >> (8 * k));
		}
		break;
	}
}

/*
 * Append an integer column of m values whose minimum is lo and maximum hi:
 * u8 width, varint base (lo), then width byte planes of m bytes each (plane
 * k = byte k of value - base).  Constant columns cost two bytes and v is
 * not read (it may be NULL).  Room must be reserved.
 */
static void put_column(struct nvt_buf *b, const uint64_t *v, size_t m, uint64_t lo, uint64_t hi)
{
	unsigned w = m ? byte_width(hi - lo) : 0;

	if (!m)
		lo = 0;
	b->p[b->len++] = (uint8_t)w;
	put_varint(b, lo);
	put_planes(b->p + b->len, v, m, w, lo);
	b->len += (size_t)w * m;
}

/*
 * The head of a column of m values at *pos: width and base, and the check
 * that its width planes lie inside in[0..len).  On success *pos is at
 * plane 0.  0, or -EBADMSG if the column does not fit in len.
 */
static int col_head(const uint8_t *in, size_t len, size_t *pos, size_t m, unsigned *w,
		    uint64_t *base)
{
	if (*pos >= len)
		return -EBADMSG;
	*w = in[(*pos)++];
	if (*w > 8 || get_varint(in, len, pos, base))
		return -EBADMSG;
	if (*w && (len - *pos) / *w < m)
		return -EBADMSG;
	return 0;
}

/*
 * v[i] = base + sum over k < w of p[k*m + i] << 8k (mod 2^64): the values of
 * a column from its planes.  One simple loop per common width, so that the
 * compiler turns each into vector code; the byte planes are the hot input
 * of every trace read.
 */
static void planes_to_u64(const uint8_t *p, size_t m, unsigned w, uint64_t base, uint64_t *v)
{
	const uint8_t *p0 = p, *p1 = p + m, *p2 = p + 2 * m, *p3 = p + 3 * m;

	switch (w) {
	case 0:
		for (size_t i = 0; i < m; i++)
			v[i] = base;
		break;
	case 1:
		for (size_t i = 0; i < m; i++)
			v[i] = base + p0[i];
		break;
	case 2:
		for (size_t i = 0; i < m; i++)
			v[i] = base + (uint64_t)(p0[i] | (uint32_t)p1[i] << 8);
		break;
	case 3:
		for (size_t i = 0; i < m; i++)
			v[i] = base + (uint64_t)(p0[i] | (uint32_t)p1[i] << 8 |
						 (uint32_t)p2[i] << 16);
		break;
	case 4:
		for (size_t i = 0; i < m; i++)
			v[i] = base + (uint64_t)(p0[i] | (uint32_t)p1[i] << 8 |
						 (uint32_t)p2[i] << 16 | (uint32_t)p3[i] << 24);
		break;
	default:
		for (size_t i = 0; i < m; i++) {
			uint64_t x = 0;

			for (unsigned k = 0; k < w; k++)
				x |= (uint64_t)p[k * m + i] << (8 * k);
			v[i] = base + x;
		}
		break;
	}
}

/* Inverse of put_column: 0, or -EBADMSG if the column does not fit in len. */
static int get_column(const uint8_t *in, size_t len, size_t *pos, uint64_t *v, size_t m)
{
	uint64_t base;
	unsigned w;

	if (col_head(in, len, pos, m, &w, &base))
		return -EBADMSG;
	planes_to_u64(in + *pos, m, w, base, v);
	*pos += (size_t)w * m;
	return 0;
}

/*
 * Skip a column whose values are not wanted, checking only that every value
 * is <= max (what decoding it would check): without reading the planes when
 * base + the largest w-byte number cannot exceed max, else value by value
 * through tmp (m values).  0, or -EBADMSG.
 */
static int skip_column(const uint8_t *in, size_t len, size_t *pos, uint64_t *tmp, size_t m,
		       uint64_t max)
{
	uint64_t base, span;
	unsigned w;

	if (col_head(in, len, pos, m, &w, &base))
		return -EBADMSG;
	span = w >= 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;
	if (!m || (base <= max && span <= max - base)) {
		*pos += (size_t)w * m;
		return 0;
	}
	planes_to_u64(in + *pos, m, w, base, tmp);
	*pos += (size_t)w * m;
	for (size_t i = 0; i < m; i++)
		if (tmp[i] > max)
			return -EBADMSG;
	return 0;
}

/* The smallest and largest of the values seen, in one struct per column. */
struct span {
	uint64_t lo, hi;
};

static inline void span_add(struct span *s, uint64_t v)
{
	if (v < s->lo)
		s->lo = v;
	if (v > s->hi)
		s->hi = v;
}

static inline void span_init(struct span *s, uint64_t v)
{
	s->lo = s->hi = v;
}

/* In place: v[i] >>= shift for the m values (a loop the compiler vectorizes). */
static void shift_values(uint64_t *v, size_t m, unsigned shift)
{
	if (shift)
		for (size_t i = 0; i < m; i++)
			v[i] >>= shift;
}

/* The ranges of a block's columns, and the scratch arrays of the ones that vary. */
struct scan {
	struct span comp, dt, lat, off, len, st, qd, op, file, dist;
	uint64_t acc;		/* OR of every offset and length: their common alignment */
};

/* Bytes 24..31 of a record (length, status) and 34..35 (op, file): the
 * columns constant in most jobs, compared as two words. */
static inline uint64_t rare_lo(const struct nvt_record *r)
{
	return (uint64_t)r->length | (uint64_t)(uint32_t)r->status << 32;
}

static inline unsigned rare_hi(const struct nvt_record *r)
{
	return r->op | (unsigned)r->file << 8;
}

/*
 * The ranges of length, status, op and file, and their share of the
 * alignment: the pass over the records that only a block where one of them
 * varies needs.  Return: nothing (fills s).
 */
static void scan_rare(const struct nvt_record *r, size_t n, struct scan *s)
{
	span_init(&s->len, r[0].length);
	span_init(&s->st, zz0((uint64_t)(int64_t)r[0].status));
	span_init(&s->op, r[0].op);
	span_init(&s->file, r[0].file);
	for (size_t i = 1; i < n; i++) {
		span_add(&s->len, r[i].length);
		span_add(&s->st, zz0((uint64_t)(int64_t)r[i].status));
		span_add(&s->op, r[i].op);
		span_add(&s->file, r[i].file);
		s->acc |= r[i].length;
	}
}

/*
 * The one pass over the records that every block takes (n >= 1): the
 * completion deltas, latencies, offsets, distances and queue depths into
 * tmp (one array each, see encode_records) with their ranges, the alignment
 * of the offsets, and whether any of length, status, op and file varies
 * (compared as two words with the first record's, not ranged: scan_rare
 * ranges them when they do).  The completion range comes from the first and
 * last record unless a completion time goes backwards.  Return: nothing
 * (fills s).
 */
static void scan_records(const struct nvt_record *r, size_t n, uint64_t *tmp, struct scan *s)
{
	uint64_t *t_dt = tmp, *t_lat = tmp + n, *t_dist = tmp + 2 * n, *t_off = tmp + 3 * n;
	uint64_t *t_qd = tmp + 4 * n;
	uint64_t lo0 = rare_lo(&r[0]), vary = 0, back = 0, acc = r[0].offset;
	unsigned hi0 = rare_hi(&r[0]);

	span_init(&s->dt, n > 1 ? zz0(r[1].complete_ns - r[0].complete_ns) : 0);
	span_init(&s->lat, zz0(r[0].complete_ns - r[0].submit_ns));
	span_init(&s->off, r[0].offset);
	span_init(&s->qd, r[0].qd);
	span_init(&s->dist, n > 1 ? zz0(r[1].offset - (r[0].offset + r[0].length)) : 0);
	t_lat[0] = s->lat.lo;
	t_off[0] = r[0].offset;
	t_qd[0] = r[0].qd;
	for (size_t i = 1; i < n; i++) {
		uint64_t dc = r[i].complete_ns - r[i - 1].complete_ns;
		uint64_t d = zz0(dc);
		uint64_t x = zz0(r[i].offset - (r[i - 1].offset + r[i - 1].length));
		uint64_t l = zz0(r[i].complete_ns - r[i].submit_ns);

		t_dt[i - 1] = d;
		t_dist[i - 1] = x;
		t_lat[i] = l;
		t_off[i] = r[i].offset;
		t_qd[i] = r[i].qd;
		back |= dc;
		span_add(&s->dt, d);
		span_add(&s->dist, x);
		span_add(&s->lat, l);
		span_add(&s->off, r[i].offset);
		span_add(&s->qd, r[i].qd);
		vary |= (rare_lo(&r[i]) ^ lo0) | (rare_hi(&r[i]) ^ hi0);
		acc |= r[i].offset;
	}
	s->acc = acc | r[0].length;
	span_init(&s->comp, r[0].complete_ns);
	span_add(&s->comp, r[n - 1].complete_ns);
	if (back >> 63)			/* out of order: range them all */
		for (size_t i = 1; i < n - 1; i++)
			span_add(&s->comp, r[i].complete_ns);
	if (vary) {
		scan_rare(r, n, s);
		return;
	}
	span_init(&s->len, r[0].length);
	span_init(&s->st, zz0((uint64_t)(int64_t)r[0].status));
	span_init(&s->op, r[0].op);
	span_init(&s->file, r[0].file);
}

/*
 * The payload (see docs/trace-format.md, "Block payload"): completion times
 * as first value + zigzag deltas, latency (complete - submit) zigzag, offset
 * in units of the block's alignment either absolute or as zigzag distance
 * from the previous record's end (whichever needs fewer bytes), length in
 * the same units, zigzag status, qd, op, file.
 *
 * This runs on the trace writer thread for every record, so it reads the
 * records as few times as it can: one pass (scan_records) finds the range
 * of every column that varies in most jobs and stores its values into tmp,
 * one array each; each column's planes are then written from its array.
 * The columns constant in most jobs (length, status, op, file) are written
 * from their range alone, or, when they vary, from one more pass.
 * Shifting by the common alignment keeps order, so the offset and length
 * ranges are the unshifted ones shifted; so are the distances' ranges,
 * because for a d that 2^shift divides, its shifted zigzag is
 * zz0(d) >> shift.  Return: 0, -ENOMEM, or -EINVAL (no records, or an op
 * >= NVT_OP__MAX).
 */
int nvt_encode_records_u(const struct nvt_record *r, size_t n, uint64_t *tmp, struct nvt_buf *out,
			 uint64_t *min_complete, uint64_t *max_complete, bool *uniform)
{
	uint64_t *t_dist = tmp + 2 * n, *t_off = tmp + 3 * n;
	struct scan s;
	unsigned shift;
	int err;

	if (!n)
		return -EINVAL;
	err = nvt_buf_reserve(out, NVT_RAW_BOUND(n));
	if (err)
		return err;
	scan_records(r, n, tmp, &s);
	if (s.op.hi >= NVT_OP__MAX)	/* no reader would take the block */
		return -EINVAL;
	*min_complete = s.comp.lo;
	*max_complete = s.comp.hi;
	if (uniform)
		*uniform = s.op.lo == s.op.hi && s.len.lo == s.len.hi && s.st.lo == s.st.hi;

	put_varint(out, r[0].complete_ns);
	put_column(out, tmp, n - 1, s.dt.lo, s.dt.hi);
	put_column(out, tmp + n, n, s.lat.lo, s.lat.hi);

	/* Offsets: absolute, or distances from the previous end if narrower. */
	shift = s.acc ? (unsigned)__builtin_ctzll(s.acc) : 0;
	if (shift > NVT_MAX_SHIFT)
		shift = NVT_MAX_SHIFT;
	s.off.lo >>= shift;
	s.off.hi >>= shift;
	s.dist.lo >>= shift;
	s.dist.hi >>= shift;
	out->p[out->len++] = (uint8_t)shift;
	if (byte_width(s.dist.hi) < byte_width(s.off.hi)) {
		out->p[out->len++] = NVT_OFFSET_DELTA;
		put_varint(out, r[0].offset >> shift);
		if (s.dist.lo != s.dist.hi)
			shift_values(t_dist, n - 1, shift);
		put_column(out, t_dist, n - 1, s.dist.lo, s.dist.hi);
	} else {
		out->p[out->len++] = NVT_OFFSET_ABS;
		if (s.off.lo != s.off.hi)
			shift_values(t_off, n, shift);
		put_column(out, t_off, n, s.off.lo, s.off.hi);
	}

	if (s.len.lo != s.len.hi)
		for (size_t i = 0; i < n; i++)
			tmp[i] = r[i].length >> shift;
	put_column(out, tmp, n, s.len.lo >> shift, s.len.hi >> shift);
	if (s.st.lo != s.st.hi)
		for (size_t i = 0; i < n; i++)
			tmp[i] = zz0((uint64_t)(int64_t)r[i].status);
	put_column(out, tmp, n, s.st.lo, s.st.hi);
	put_column(out, tmp + 4 * n, n, s.qd.lo, s.qd.hi);
	if (s.op.lo != s.op.hi)
		for (size_t i = 0; i < n; i++)
			tmp[i] = r[i].op;
	put_column(out, tmp, n, s.op.lo, s.op.hi);
	if (s.file.lo != s.file.hi)
		for (size_t i = 0; i < n; i++)
			tmp[i] = r[i].file;
	put_column(out, tmp, n, s.file.lo, s.file.hi);
	return 0;
}

int nvt_encode_records(const struct nvt_record *r, size_t n, uint64_t *tmp, struct nvt_buf *out,
		       uint64_t *min_complete, uint64_t *max_complete)
{
	return nvt_encode_records_u(r, n, tmp, out, min_complete, max_complete, NULL);
}

/*
 * Where the decoder puts each column: a base pointer and the byte distance
 * between values, so that one decoder fills both the column arrays of
 * nvt_decode_cols (stride = the value size: loops the compiler vectorizes)
 * and the records of nvt_decode_records (stride = sizeof(struct
 * nvt_record)).  p NULL: the column is checked, not stored.
 */
enum { S_COMPLETE, S_LATENCY, S_OFFSET, S_LENGTH, S_STATUS, S_QD, S_OP, S_FILE, S__N };

struct sink {
	void *p;
	size_t stride;
};

struct sinks {
	struct sink s[S__N];
	bool submit;		/* S_LATENCY receives complete - latency (the records) */
	unsigned uniform;	/* out: NVT_COL_* of constant columns */
	uint64_t lo, hi;	/* out: min/max completion time */
	bool back;		/* out: a completion before the one before it */
};

#define AT(k, T, i) (*(T *)(void *)((uint8_t *)(k)->p + (i) * (k)->stride))

/* Unzigzag, shift 0, without a branch: (u >> 1) ^ -(u & 1). */
static inline uint64_t unzz(uint64_t u)
{
	return (u >> 1) ^ (0 - (u & 1));
}

/* complete_ns: c0, then n-1 zigzag deltas; also its min/max and whether a
 * delta is negative (odd: its zigzag's low bit). */
static int dec_complete(const uint8_t *in, size_t len, size_t *pos, size_t n, uint64_t *tmp,
			struct sinks *s)
{
	const struct sink *k = &s->s[S_COMPLETE];
	uint64_t c, lo, hi, odd = 0;

	if (get_varint(in, len, pos, &c) || get_column(in, len, pos, tmp, n - 1))
		return -EBADMSG;
	lo = hi = c;
	AT(k, uint64_t, 0) = c;
	if (k->stride == sizeof(uint64_t)) {
		uint64_t *o = k->p;

		for (size_t i = 1; i < n; i++) {
			c += unzz(tmp[i - 1]);
			odd |= tmp[i - 1];
			lo = c < lo ? c : lo;
			hi = c > hi ? c : hi;
			o[i] = c;
		}
	} else {
		for (size_t i = 1; i < n; i++) {
			c += unzz(tmp[i - 1]);
			odd |= tmp[i - 1];
			lo = c < lo ? c : lo;
			hi = c > hi ? c : hi;
			AT(k, uint64_t, i) = c;
		}
	}
	s->lo = lo;
	s->hi = hi;
	s->back = odd & 1;
	return 0;
}

/* Latency (or, for records, submit_ns = complete_ns - latency). */
static int dec_latency(const uint8_t *in, size_t len, size_t *pos, size_t n, uint64_t *tmp,
		       struct sinks *s)
{
	const struct sink *k = &s->s[S_LATENCY], *c = &s->s[S_COMPLETE];
	uint64_t base;
	unsigned w;

	if (!k->p)
		return skip_column(in, len, pos, tmp, n, UINT64_MAX);
	if (col_head(in, len, pos, n, &w, &base))
		return -EBADMSG;
	if (!w)
		s->uniform |= NVT_COL_LATENCY;
	if (!s->submit && k->stride == sizeof(uint64_t)) {
		uint64_t *o = k->p;

		planes_to_u64(in + *pos, n, w, base, o);
		for (size_t i = 0; i < n; i++)
			o[i] = unzz(o[i]);
	} else {
		planes_to_u64(in + *pos, n, w, base, tmp);
		for (size_t i = 0; i < n; i++)
			AT(k, uint64_t, i) = s->submit ? AT(c, uint64_t, i) - unzz(tmp[i])
				: unzz(tmp[i]);
	}
	*pos += (size_t)w * n;
	return 0;
}

/* A narrow column: values <= max, stored as T (the field's type). */
#define DEC_NARROW(name, T, conv)							\
static int name(const uint8_t *in, size_t len, size_t *pos, size_t n, uint64_t *tmp,	\
		const struct sink *k, uint64_t max, unsigned *uniform, unsigned bit)	\
{											\
	uint64_t base, bad = 0;								\
	unsigned w;									\
											\
	if (!k->p)									\
		return skip_column(in, len, pos, tmp, n, max);				\
	if (col_head(in, len, pos, n, &w, &base))					\
		return -EBADMSG;							\
	if (!w)										\
		*uniform |= bit;							\
	planes_to_u64(in + *pos, n, w, base, tmp);					\
	*pos += (size_t)w * n;								\
	if (k->stride == sizeof(T)) {							\
		T *o = k->p;								\
											\
		for (size_t i = 0; i < n; i++) {					\
			bad |= tmp[i] > max;						\
			o[i] = (T)(conv);						\
		}									\
	} else {									\
		for (size_t i = 0; i < n; i++) {					\
			bad |= tmp[i] > max;						\
			AT(k, T, i) = (T)(conv);					\
		}									\
	}										\
	return bad ? -EBADMSG : 0;							\
}

DEC_NARROW(dec_status, int32_t, unzz(tmp[i]))
DEC_NARROW(dec_u16, uint16_t, tmp[i])
DEC_NARROW(dec_u8, uint8_t, tmp[i])

/*
 * Offsets and lengths (see "offsets" in docs/trace-format.md).  Delta mode
 * needs the lengths, which come after the offsets: the zigzag deltas wait
 * in the offset sink until the lengths are known.  The lengths are needed
 * for that even when not stored, so they are always decoded (into tmp).
 */
static int dec_offset_length(const uint8_t *in, size_t len, size_t *pos, size_t n, uint64_t *tmp,
			     struct sinks *s)
{
	const struct sink *ko = &s->s[S_OFFSET], *kl = &s->s[S_LENGTH];
	uint64_t first_off = 0, bad = 0, base;
	unsigned shift, mode, w;

	if (len - *pos < 2)
		return -EBADMSG;
	shift = in[(*pos)++];
	mode = in[(*pos)++];
	if (shift > NVT_MAX_SHIFT)
		return -EBADMSG;
	if (mode == NVT_OFFSET_DELTA) {
		if (get_varint(in, len, pos, &first_off))
			return -EBADMSG;
		if (!ko->p) {
			if (skip_column(in, len, pos, tmp, n - 1, UINT64_MAX))
				return -EBADMSG;
		} else {
			if (get_column(in, len, pos, tmp, n - 1))
				return -EBADMSG;
			for (size_t i = 1; i < n; i++)
				AT(ko, uint64_t, i) = tmp[i - 1];
		}
		if ((first_off << shift) >> shift != first_off)
			return -EBADMSG;
		if (ko->p)
			AT(ko, uint64_t, 0) = first_off << shift;
	} else if (mode == NVT_OFFSET_ABS) {
		if (!ko->p) {
			if (skip_column(in, len, pos, tmp, n, UINT64_MAX >> shift))
				return -EBADMSG;
		} else {
			if (col_head(in, len, pos, n, &w, &base))
				return -EBADMSG;
			if (!w)
				s->uniform |= NVT_COL_OFFSET;
			planes_to_u64(in + *pos, n, w, base, tmp);
			*pos += (size_t)w * n;
			for (size_t i = 0; i < n; i++) {
				bad |= tmp[i] > UINT64_MAX >> shift;
				AT(ko, uint64_t, i) = tmp[i] << shift;
			}
			if (bad)
				return -EBADMSG;
		}
	} else {
		return -EBADMSG;
	}

	if (col_head(in, len, pos, n, &w, &base))
		return -EBADMSG;
	if (!w)
		s->uniform |= NVT_COL_LENGTH;
	planes_to_u64(in + *pos, n, w, base, tmp);
	*pos += (size_t)w * n;
	for (size_t i = 0; i < n; i++)
		bad |= tmp[i] > (uint64_t)UINT32_MAX >> shift;
	if (bad)
		return -EBADMSG;
	if (mode == NVT_OFFSET_DELTA && ko->p)
		for (size_t i = 1; i < n; i++)
			AT(ko, uint64_t, i) = AT(ko, uint64_t, i - 1) + (tmp[i - 1] << shift) +
					      unzz_shift(AT(ko, uint64_t, i), shift);
	if (kl->p) {
		if (kl->stride == sizeof(uint32_t)) {
			uint32_t *o = kl->p;

			for (size_t i = 0; i < n; i++)
				o[i] = (uint32_t)(tmp[i] << shift);
		} else {
			for (size_t i = 0; i < n; i++)
				AT(kl, uint32_t, i) = (uint32_t)(tmp[i] << shift);
		}
	}
	return 0;
}

/*
 * The payload decoder behind nvt_decode_cols and nvt_decode_records: the
 * columns in file order, each checked as the format requires (width,
 * room, varints, values fitting their field, exact consumption) whether
 * it is stored or not, so both entry points accept exactly the same
 * payloads.
 */
static int decode_payload(const uint8_t *in, size_t len, size_t n, uint64_t *tmp,
			  struct sinks *s, const char **why)
{
	size_t pos = 0;

	*why = "malformed block payload";
	s->uniform = 0;
	if (!n)
		return -EBADMSG;
	if (dec_complete(in, len, &pos, n, tmp, s) ||
	    dec_latency(in, len, &pos, n, tmp, s) ||
	    dec_offset_length(in, len, &pos, n, tmp, s) ||
	    dec_status(in, len, &pos, n, tmp, &s->s[S_STATUS], UINT32_MAX, &s->uniform,
		       NVT_COL_STATUS) ||
	    dec_u16(in, len, &pos, n, tmp, &s->s[S_QD], UINT16_MAX, &s->uniform, NVT_COL_QD) ||
	    dec_u8(in, len, &pos, n, tmp, &s->s[S_OP], UINT8_MAX, &s->uniform, NVT_COL_OP) ||
	    dec_u8(in, len, &pos, n, tmp, &s->s[S_FILE], UINT8_MAX, &s->uniform, NVT_COL_FILE))
		return -EBADMSG;
	if (pos != len) {
		*why = "block payload has trailing bytes";
		return -EBADMSG;
	}
	*why = NULL;
	return 0;
}

int nvt_decode_records(const uint8_t *in, size_t len, size_t n, uint64_t *tmp,
		       struct nvt_record *out, uint64_t *min_complete, uint64_t *max_complete,
		       const char **why)
{
	struct sinks s = { .submit = true };
	const size_t st = sizeof(*out);
	int err;

	s.s[S_COMPLETE] = (struct sink){ &out->complete_ns, st };
	s.s[S_LATENCY] = (struct sink){ &out->submit_ns, st };
	s.s[S_OFFSET] = (struct sink){ &out->offset, st };
	s.s[S_LENGTH] = (struct sink){ &out->length, st };
	s.s[S_STATUS] = (struct sink){ &out->status, st };
	s.s[S_QD] = (struct sink){ &out->qd, st };
	s.s[S_OP] = (struct sink){ &out->op, st };
	s.s[S_FILE] = (struct sink){ &out->file, st };
	err = decode_payload(in, len, n, tmp, &s, why);
	if (min_complete)
		*min_complete = s.lo;
	if (max_complete)
		*max_complete = s.hi;
	return err;
}

int nvt_decode_cols(const uint8_t *in, size_t len, size_t n, unsigned want, uint64_t *tmp,
		    struct nvt_cols *c, const char **why)
{
	struct sinks s = { .submit = false };
	int err;

	s.s[S_COMPLETE] = (struct sink){ c->complete_ns, sizeof(uint64_t) };
	if (want & NVT_COL_LATENCY)
		s.s[S_LATENCY] = (struct sink){ c->latency_ns, sizeof(uint64_t) };
	if (want & NVT_COL_OFFSET)
		s.s[S_OFFSET] = (struct sink){ c->offset, sizeof(uint64_t) };
	if (want & NVT_COL_LENGTH)
		s.s[S_LENGTH] = (struct sink){ c->length, sizeof(uint32_t) };
	if (want & NVT_COL_STATUS)
		s.s[S_STATUS] = (struct sink){ c->status, sizeof(int32_t) };
	if (want & NVT_COL_QD)
		s.s[S_QD] = (struct sink){ c->qd, sizeof(uint16_t) };
	if (want & NVT_COL_OP)
		s.s[S_OP] = (struct sink){ c->op, sizeof(uint8_t) };
	if (want & NVT_COL_FILE)
		s.s[S_FILE] = (struct sink){ c->file, sizeof(uint8_t) };
	err = decode_payload(in, len, n, tmp, &s, why);
	c->n = err ? 0 : n;
	c->uniform = s.uniform & want;
	c->min_complete_ns = s.lo;
	c->max_complete_ns = s.hi;
	c->back = s.back;
	return err;
}

