/*
 * nvtrace_ring.c - the trace writer's chunk ring: allocation, the growth
 * rule (buffer by time) and freeing.  The locking is the writer's
 * (nvtrace_write.c): a chunk is linked in under its mutex.
 */
#include <stdlib.h>

#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_ring.h"

struct chunk *nvt_chunk_new(unsigned block_records)
{
	size_t bytes = (size_t)block_records * sizeof(struct nvt_record);
	struct chunk *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->rec = malloc(bytes);
	if (!c->rec) {
		free(c);
		return NULL;
	}
	nvt_touch_pages(c->rec, bytes);
	c->state = CHUNK_FREE;
	return c;
}

void nvt_chunk_free(struct chunk *c)
{
	if (!c)
		return;
	free(c->rec);
	free(c);
}

struct chunk *nvt_ring_new(unsigned n, unsigned block_records)
{
	struct chunk *first = NULL, *last = NULL;

	for (unsigned i = 0; i < n; i++) {
		struct chunk *c = nvt_chunk_new(block_records);

		if (!c)
			goto fail;
		if (last)
			last->next = c;
		else
			first = c;
		last = c;
		c->next = first;	/* closes the circle as it grows */
	}
	return first;
fail:
	if (last) {
		last->next = first;
		nvt_ring_free(first);
	}
	return NULL;
}

void nvt_ring_free(struct chunk *c)
{
	struct chunk *p;

	if (!c)
		return;
	p = c->next;
	while (p != c) {
		struct chunk *q = p->next;

		nvt_chunk_free(p);
		p = q;
	}
	nvt_chunk_free(c);
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
