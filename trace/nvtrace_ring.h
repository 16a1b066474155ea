/*
 * nvtrace_ring.h - the trace writer's chunk ring (private to trace/): the
 * chunks records wait in between the IO thread and the writer thread, linked
 * in the order the writer takes them, and the rule by which the ring grows
 * (buffer by time: docs/engine.md, nv_trace_buffer_ms).
 */
#ifndef NVTRACE_RING_H
#define NVTRACE_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/nvtrace.h"

enum chunk_state { CHUNK_FREE, CHUNK_FILLING, CHUNK_READY };

struct chunk {
	struct nvt_record *rec;
	unsigned n;
	enum chunk_state state;
	uint64_t first_ns;	/* complete_ns of its first record (valid once begun) */
	struct chunk *next;	/* the chunk after it in the ring (under the writer's mu) */
};

/*
 * A FREE chunk of block_records records, its pages touched (no page fault on
 * the hot path later), not linked.  Return: it, or NULL (out of memory).
 */
struct chunk *nvt_chunk_new(unsigned block_records);

/* Free chunk c (NULL: nothing), not linked in a ring.  Return: nothing. */
void nvt_chunk_free(struct chunk *c);

/*
 * A ring of n FREE chunks linked in a circle (n >= 1).  Return: its first
 * chunk, or NULL (out of memory; nothing is left allocated).
 */
struct chunk *nvt_ring_new(unsigned n, unsigned block_records);

/* Free every chunk of the ring that holds c (c may be NULL).  Return: nothing. */
void nvt_ring_free(struct chunk *c);

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
