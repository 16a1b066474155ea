/*
 * trace_gen.h - deterministic synthetic IO streams for the trace tests, the
 * CLI test generator (gen_trace) and tools/bench_trace.
 *
 * gen_qd_stream() simulates an engine loop at a fixed queue depth: IOs finish
 * after a jittered service time, the loop reaps every finished IO (taking
 * one clock reading per completion, tens of ns apart), then resubmits as
 * many.  Records come out in completion order, as the engine appends them.
 */
#ifndef NV_TRACE_GEN_H
#define NV_TRACE_GEN_H

#include <stdint.h>
#include <string.h>

#include "trace/nvtrace.h"

struct gen_rng {
	uint64_t s;
};

static inline uint64_t gen_next(struct gen_rng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t gen_below(struct gen_rng *g, uint64_t n)
{
	return n ? gen_next(g) % n : 0;
}

enum gen_pattern {
	GEN_RANDREAD,	/* 4k random reads over file_size, all ok */
	GEN_SEQWRITE,	/* 128k sequential writes */
	GEN_MIXED,	/* every op, odd lengths, errors, several files, big offsets */
};

/* The pattern named s ("randread", "seqwrite", "mixed"): 0, or -1 if unknown. */
static inline int gen_pattern_parse(const char *s, enum gen_pattern *p)
{
	static const char *const names[] = {
		[GEN_RANDREAD] = "randread", [GEN_SEQWRITE] = "seqwrite", [GEN_MIXED] = "mixed",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*p = (enum gen_pattern)i;
			return 0;
		}
	}
	return -1;
}

#define GEN_MAXQD 256

struct gen_io {
	uint64_t submit, finish;
	uint16_t qd;
	int used;
};

struct gen {
	struct gen_rng rng;
	enum gen_pattern pat;
	unsigned qd;
	uint64_t file_size;
	uint64_t now;
	uint64_t seq_off;
	uint64_t service_ns;	/* mean device time */
	uint64_t tail_ns;	/* 1 IO in 1000 takes up to this much longer */
	unsigned tail_per_mille;	/* ... or this many in 1000 */
	struct gen_io io[GEN_MAXQD];
	unsigned inflight;
	/* completions of the current reap batch not yet handed out */
	struct nvt_record batch[GEN_MAXQD];
	unsigned nbatch, ibatch;
};

static inline void gen_init(struct gen *g, enum gen_pattern pat, unsigned qd, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->rng.s = seed;
	g->pat = pat;
	g->qd = qd > GEN_MAXQD ? GEN_MAXQD : (qd ? qd : 1);
	g->file_size = 1ull << 30;
	g->now = 1000000000ull + gen_below(&g->rng, 1000000000ull);
	g->service_ns = 20000;
	g->tail_ns = 2000000;
	g->tail_per_mille = 1;
}

static inline void gen_submit(struct gen *g, unsigned slot)
{
	struct gen_io *io = &g->io[slot];
	/* service time: mean service_ns, +-25% uniform, plus a rare long tail */
	uint64_t st = g->service_ns * 3 / 4 + gen_below(&g->rng, g->service_ns / 2);

	if (gen_below(&g->rng, 1000) < g->tail_per_mille)
		st += gen_below(&g->rng, g->tail_ns);
	g->now += 60 + gen_below(&g->rng, 40);
	io->submit = g->now;
	io->finish = g->now + st;
	io->used = 1;
	g->inflight++;
	io->qd = (uint16_t)g->inflight;
}

/* Fill in the IO-specific fields (offset, length, op, status, file). */
static inline void gen_fill(struct gen *g, struct nvt_record *r)
{
	switch (g->pat) {
	case GEN_RANDREAD:
		r->offset = gen_below(&g->rng, g->file_size / 4096) * 4096;
		r->length = 4096;
		r->op = NVT_OP_READ;
		break;
	case GEN_SEQWRITE:
		r->length = 131072;
		if (g->seq_off + r->length > g->file_size)
			g->seq_off = 0;
		r->offset = g->seq_off;
		g->seq_off += r->length;
		r->op = NVT_OP_WRITE;
		break;
	case GEN_MIXED: {
		uint64_t k = gen_next(&g->rng);

		r->op = (uint8_t)(k % NVT_OP__MAX);
		r->length = (uint32_t)(512 * (1 + (k >> 8) % 256));
		if (r->op == NVT_OP_FLUSH)
			r->length = 0;
		if ((k >> 20) % 7 == 0)
			/* unaligned, up to 4 GiB */
			r->length = (uint32_t)((k >> 24) & 0xffffffff);
		r->offset = gen_next(&g->rng);
		if ((k >> 30) % 3)
			r->offset &= ~0xfffull;
		r->file = (uint8_t)((k >> 40) % 5);
		switch ((k >> 44) % 16) {
		case 0: r->status = -(int32_t)(1 + (k >> 50) % 133); break;	/* -errno */
		case 1:	/* NVMe, DNR */
			r->status = (int32_t)(0x4000 | ((k >> 50) & 0x7ff));
			break;
		case 2: r->status = INT32_MIN; break;
		case 3: r->status = INT32_MAX; break;
		default: r->status = 0;
		}
		break;
	}
	}
}

/* The next record in completion order. */
static inline void gen_record(struct gen *g, struct nvt_record *out)
{
	while (g->ibatch == g->nbatch) {
		uint64_t next = UINT64_MAX;

		g->nbatch = g->ibatch = 0;
		while (g->inflight < g->qd) {
			for (unsigned i = 0; i < g->qd; i++)
				if (!g->io[i].used) {
					gen_submit(g, i);
					break;
				}
		}
		for (unsigned i = 0; i < g->qd; i++)
			if (g->io[i].finish < next)
				next = g->io[i].finish;
		if (g->now < next)
			g->now = next + gen_below(&g->rng, 500);	/* poll latency */
		for (unsigned i = 0; i < g->qd; i++) {
			struct gen_io *io = &g->io[i];
			struct nvt_record *r;

			if (!io->used || io->finish > g->now)
				continue;
			g->now += 30 + gen_below(&g->rng, 30);
			r = &g->batch[g->nbatch++];
			memset(r, 0, sizeof(*r));
			r->submit_ns = io->submit;
			r->complete_ns = g->now;
			r->qd = io->qd;
			gen_fill(g, r);
			io->used = 0;
			g->inflight--;
		}
	}
	*out = g->batch[g->ibatch++];
}

#endif
