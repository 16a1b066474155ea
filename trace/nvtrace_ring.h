/*
 * nvtrace_ring.h - the trace writer's chunk ring (private to trace/): the
 * chunks records wait in between the IO thread and the writer process,
 * linked in the order the writer takes them, and the rule by which the ring
 * grows (buffer by time: docs/engine.md, nv_trace_buffer_ms).  Chunks come
 * from an arena in memory shared with the writer process (nvtrace_proc.h),
 * sized for the most chunks the ring may grow to, so that a chunk added
 * after the writer started is where the writer sees it.
 */
#ifndef NVTRACE_RING_H
#define NVTRACE_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/nvtrace.h"

enum chunk_state { CHUNK_FREE, CHUNK_FILLING, CHUNK_READY };

/* Where chunks are cut from: len bytes at base (shared memory), used so far. */
struct nvt_arena {
	uint8_t *base;
	size_t len, used;
};

struct chunk {
	struct nvt_record *rec;
	unsigned n;
	enum chunk_state state;
	uint64_t first_ns;	/* complete_ns of its first record (valid once begun) */
	struct chunk *next;	/* the chunk after it in the ring (under the writer's mu) */
};

/*
 * The bytes an arena needs for max_chunks chunks of block_records records.
 * Return: the size.
 */
size_t nvt_arena_bytes(unsigned max_chunks, unsigned block_records);

/*
 * A FREE chunk of block_records records from arena a, its pages touched (no
 * page fault on the hot path later), not linked.  Return: it, or NULL (the
 * arena is used up).
 */
struct chunk *nvt_chunk_new(struct nvt_arena *a, unsigned block_records);

/*
 * A ring of n FREE chunks from arena a linked in a circle (n >= 1).
 * Return: its first chunk, or NULL (the arena is too small).
 */
struct chunk *nvt_ring_new(struct nvt_arena *a, unsigned n, unsigned block_records);

/*
 * The most chunks a ring of block_records-record chunks may grow to:
 * NVT_RING_MAX_BYTES of records, at least nchunks (the ring it starts
 * with), at most NVT_RING_MAX_CHUNKS.  Return: the count.
 */
unsigned nvt_ring_max_chunks(unsigned block_records, unsigned nchunks);

/*
 * Whether the IO thread, needing a chunk while the oldest unwritten one
 * (oldest, begun at oldest->first_ns) still waits for the writer, should
 * add a chunk rather than wait: the unwritten records span less than
 * buffer_ns of completion time up to now_ns (the record about to be
 * stored), and the ring (nchunks) is below max_chunks.  buffer_ns 0 never
 * grows.  Return: true to grow.
 */
bool nvt_ring_should_grow(const struct chunk *oldest, uint64_t now_ns, uint64_t buffer_ns,
			  unsigned nchunks, unsigned max_chunks);

#endif
