/*
 * nvtrace_ring.c - the trace writer's chunk ring: chunks cut from the shared
 * arena, the growth rule (buffer by time).  The locking is the writer's
 * (nvtrace_write.c): a chunk is linked in under its mutex.  Nothing is
 * freed chunk by chunk: the arena goes with the writer.
 */
#include <stddef.h>

#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_ring.h"

#define ARENA_ALIGN 64u	/* a cache line: no chunk shares one with another's records */

static size_t align_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

/* The bytes one chunk takes from an arena.  Return: them. */
static size_t chunk_bytes(unsigned block_records)
{
	return align_up(sizeof(struct chunk)) +
	       align_up((size_t)block_records * sizeof(struct nvt_record));
}

size_t nvt_arena_bytes(unsigned max_chunks, unsigned block_records)
{
	return (size_t)max_chunks * chunk_bytes(block_records);
}

struct chunk *nvt_chunk_new(struct nvt_arena *a, unsigned block_records)
{
	size_t bytes = (size_t)block_records * sizeof(struct nvt_record);
	struct chunk *c;

	if (a->len - a->used < chunk_bytes(block_records))
		return NULL;
	c = (struct chunk *)(a->base + a->used);
	c->rec = (struct nvt_record *)(a->base + a->used + align_up(sizeof(*c)));
	a->used += chunk_bytes(block_records);
	nvt_touch_pages(c->rec, bytes);
	c->n = 0;
	c->state = CHUNK_FREE;
	c->next = NULL;
	return c;
}

struct chunk *nvt_ring_new(struct nvt_arena *a, unsigned n, unsigned block_records)
{
	struct chunk *first = NULL, *last = NULL;

	for (unsigned i = 0; i < n; i++) {
		struct chunk *c = nvt_chunk_new(a, block_records);

		if (!c)
			return NULL;
		if (last)
			last->next = c;
		else
			first = c;
		last = c;
		c->next = first;	/* closes the circle as it grows */
	}
	return first;
}

unsigned nvt_ring_max_chunks(unsigned block_records, unsigned nchunks)
{
	uint64_t per = (uint64_t)block_records * sizeof(struct nvt_record);
	uint64_t max = per ? NVT_RING_MAX_BYTES / per : nchunks;

	if (max > NVT_RING_MAX_CHUNKS)
		max = NVT_RING_MAX_CHUNKS;
	return max > nchunks ? (unsigned)max : nchunks;
}

bool nvt_ring_should_grow(const struct chunk *oldest, uint64_t now_ns, uint64_t buffer_ns,
			  unsigned nchunks, unsigned max_chunks)
{
	if (!buffer_ns || nchunks >= max_chunks)
		return false;
	/* completion times are non-decreasing as the engine stores them; a step
	 * back (a caller's clock) counts as no time */
	return (int64_t)(now_ns - oldest->first_ns) < (int64_t)buffer_ns;
}
