/*
 * nvtrace_write.c - the trace writer: IO-thread side append into fixed chunks,
 * one background process that encodes, compresses and writes blocks.
 *
 * The writer is a child process in a session of its own (nvtrace_proc.h:
 * why), sharing with the IO thread one mapping that holds this struct, the
 * footer's index and kv, and the chunk arena; the mutex and condition
 * variables work across the two processes.  The writer thread below is
 * that process's only thread.  Chunks form a ring used in order
 * (nvtrace_ring.c), which grows while the writer is behind by less than
 * buffer_ms of completions.  A chunk is FILLING (owned by the IO
 * thread, which writes records through the appender: nvtrace.h), READY
 * (sealed, waiting for the writer thread) or FREE.  The IO thread touches
 * the mutex only when it seals a chunk; the writer thread processes READY
 * chunks in ring order and frees them.  After a write error
 * the thread keeps freeing chunks (so the IO thread never deadlocks) and the
 * error is sticky: append and close return it.  A writer process that dies
 * is a sticky error too (the IO thread looks once a second while it waits);
 * one whose IO thread ends is killed (PR_SET_PDEATHSIG), as a thread would be.
 *
 * The file itself (blocks, footer, fdatasync): nvtrace_wfile.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_proc.h"
#include "trace/nvtrace_writer.h"

void nvt_writer_set_error_why(struct nvt_writer *w, int err, const char *what, const char *why)
{
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		return;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s %s: %s%s", what, w->path, strerror(-err), why);
	atomic_store_explicit(&w->err, err, memory_order_release);
}

void nvt_writer_set_error(struct nvt_writer *w, int err, const char *what)
{
	nvt_writer_set_error_why(w, err, what, "");
}

/*
 * The writer process has ended or died before it was done (the IO thread
 * found it so): a sticky error that says how.  Return: nothing.
 */
static void writer_died(struct nvt_writer *w)
{
	char how[96];

	if (!w->writer_ended)
		w->writer_ended = nvt_proc_ended(w->writer_pid, false, &w->writer_status);
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		return;
	snprintf(w->errmsg, sizeof(w->errmsg), "the trace writer process %d of %s ended before "
		 "the trace was closed%s: the file ends at its last complete block",
		 (int)w->writer_pid, w->path,
		 w->writer_ended ? nvt_proc_how(w->writer_status, how, sizeof(how)) : "");
	atomic_store_explicit(&w->err, -ECHILD, memory_order_release);
}

/*
 * Lock w's mutex.  Taken over from a writer process that died holding it:
 * a sticky error (the IO thread's side; the writer process's other side
 * dies with it).  Return: nothing.
 */
void nvt_writer_lock(struct nvt_writer *w)
{
	if (nvt_proc_lock(&w->mu) == -EOWNERDEAD && getpid() != w->writer_pid)
		writer_died(w);
}

/*
 * Wait (mu held) until chunk c is READY or the writer is closing; with
 * blocks written but not yet synced, wake at the sync deadline and sync
 * them.  Return: nothing.
 */
static void wait_ready(struct nvt_writer *w, struct chunk *c)
{
	while (c->state != CHUNK_READY && !w->closing) {
		uint64_t at;

		if (!w->dirty || !w->sync_ns || atomic_load_explicit(&w->err, memory_order_relaxed)) {
			nvt_proc_wait(&w->cv_ready, &w->mu, 0);
			continue;
		}
		at = w->synced_ns + w->sync_ns;
		if (nvt_proc_wait(&w->cv_ready, &w->mu, at) == -ETIMEDOUT) {
			pthread_mutex_unlock(&w->mu);
			nvt_wfile_sync_if_due(w);
			nvt_writer_lock(w);
		}
	}
}

/* The writer's class at its start (nvt_writer_sched).  Return: nothing. */
static void writer_sched_init(struct nvt_writer *w)
{
	bool may_leave = w->sched == NVT_SCHED_AUTO && sched_getscheduler(0) == SCHED_OTHER &&
			 nvt_sched_can_leave_idle();

	/* under the lock: the IO thread promotes only a writer that is idle now */
	nvt_writer_lock(w);
	if (w->sched == NVT_SCHED_IDLE)
		nvt_sched_idle(0, true);	/* best effort */
	else if (may_leave)
		w->auto_idle = !nvt_sched_idle(0, true);
	pthread_mutex_unlock(&w->mu);
	w->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	w->runq_ns0 = nvt_sched_runq_wait_ns(w->schedstat_fd);
}

/*
 * AUTO, mu held, by the IO thread as it seals a chunk: promote the writer to
 * SCHED_OTHER once half the ring waits for it.  Return: nothing.
 */
static void writer_promote_if_behind(struct nvt_writer *w)
{
	if (w->auto_idle && !w->promoted && w->backlog * 2 >= w->nchunks &&
	    !nvt_sched_idle(w->writer_pid, false)) {
		w->promoted = true;
		w->promotions++;
	}
}

/* AUTO, mu held, by the writer: back to SCHED_IDLE once nothing waits.  Return: nothing. */
static void writer_demote_if_drained(struct nvt_writer *w)
{
	if (w->promoted && !w->backlog && !nvt_sched_idle(0, true))
		w->promoted = false;
}

/* What the writer process starts with: the writer, and the header to write first. */
struct writer_start {
	struct nvt_writer *w;
	struct nvt_buf hdr;	/* the child's copy (fork); the parent frees its own */
};

/*
 * The writer process (nvt_proc_start, named nvtrace-writer in top and ps):
 * the header, then READY chunks in ring order until closing, then the
 * footer.  Its encoder is its own (allocated here, in its memory).
 * Return: nothing; what failed is the sticky error.
 */
static void writer_main(void *arg)
{
	struct writer_start *st = arg;
	struct nvt_writer *w = st->w;
	struct chunk *c = w->first;

	writer_sched_init(w);
	if (nvt_encoder_init(&w->enc, w->codec, w->zlevel, w->block_records))
		nvt_writer_set_error(w, -ENOMEM, "allocate the encoder for");
	else if ((!w->sync_ns || !nvt_wfile_sync_dir(w)) && !nvt_wfile_emit(w, st->hdr.p, st->hdr.len))
		w->dirty = true;
	nvt_buf_free(&st->hdr);

	for (;;) {
		nvt_writer_lock(w);
		wait_ready(w, c);
		if (c->state != CHUNK_READY) {	/* closing, and nothing left */
			pthread_mutex_unlock(&w->mu);
			break;
		}
		pthread_mutex_unlock(&w->mu);

		if (!atomic_load_explicit(&w->err, memory_order_relaxed) &&
		    !nvt_wfile_block(w, c->rec, c->n))
			nvt_wfile_sync_if_due(w);

		nvt_writer_lock(w);
		c->n = 0;
		c->state = CHUNK_FREE;
		w->backlog--;
		writer_demote_if_drained(w);
		pthread_cond_signal(&w->cv_free);
		c = c->next;	/* after c is READY: the IO thread links new chunks before that */
		pthread_mutex_unlock(&w->mu);
	}
	if (!atomic_load_explicit(&w->err, memory_order_relaxed))
		nvt_wfile_footer(w);
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		nvt_wfile_sync_after_error(w);
	if (w->schedstat_fd >= 0)
		close(w->schedstat_fd);
	nvt_encoder_free(&w->enc);
	nvt_writer_lock(w);
	w->writer_done = true;
	pthread_mutex_unlock(&w->mu);
}

/*
 * mu held, next = w->cur->next still busy: add a chunk after the current one
 * if the buffer by time allows (nvt_ring_should_grow), allocating it with mu
 * released.  Return: the chunk to fill next (the new one, or next).
 */
static struct chunk *ring_grow(struct nvt_writer *w, struct chunk *next, uint64_t now_ns)
{
	struct chunk *c;
	uint64_t t0;

	if (!nvt_ring_should_grow(next, now_ns, w->buffer_ns, w->nchunks, w->max_chunks))
		return next;
	pthread_mutex_unlock(&w->mu);
	t0 = nvt_mono_ns();
	c = nvt_chunk_new(&w->arena, w->block_records);	/* NULL: wait as a full ring does */
	nvt_writer_lock(w);
	w->grow_ns += nvt_mono_ns() - t0;
	if (!c)
		return w->cur->next;
	c->next = w->cur->next;
	w->cur->next = c;
	w->nchunks++;
	return c;
}

/*
 * Mark the current chunk READY and take the next one (now_ns: the completion
 * that begins it), adding one to the ring or waiting until the next is FREE.
 */
static void seal_current(struct nvt_writer *w, uint64_t now_ns)
{
	struct chunk *next;

	nvt_writer_lock(w);
	w->cur->n = (unsigned)(w->app.pos - w->cur->rec);
	w->cur->state = CHUNK_READY;
	if (++w->backlog > w->ring_high)
		w->ring_high = w->backlog;
	writer_promote_if_behind(w);
	pthread_cond_signal(&w->cv_ready);
	next = w->cur->next;
	if (next->state != CHUNK_FREE)
		next = ring_grow(w, next, now_ns);
	if (next->state != CHUNK_FREE) {
		uint64_t t0 = nvt_mono_ns();

		w->waits++;
		w->io_waiting = true;
		while (next->state != CHUNK_FREE &&
		       !atomic_load_explicit(&w->err, memory_order_relaxed))
			if (nvt_proc_wait(&w->cv_free, &w->mu, nvt_mono_ns() + 1000000000ull) ==
			    -ETIMEDOUT && nvt_proc_ended(w->writer_pid, false, &w->writer_status)) {
				w->writer_ended = true;
				writer_died(w);	/* nothing frees next now: it is the IO thread's */
			}
		w->io_waiting = false;
		w->wait_ns += nvt_mono_ns() - t0;
	}
	next->state = CHUNK_FILLING;
	pthread_mutex_unlock(&w->mu);
	w->cur = next;
	w->app.pos = w->app.end = w->cur->rec;	/* not begun */
}

struct nvt_appender *nvt_writer_appender(struct nvt_writer *w)
{
	return &w->app;
}

/*
 * A chunk with records is sealed here when the next record does not fit
 * (full, or block_ns after its first completion); an empty one begins with
 * this record, which sets its time limit.
 */
struct nvt_record *nvt_append_slot_slow(struct nvt_appender *a, uint64_t complete_ns)
{
	struct nvt_writer *w = a->w;

	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		return NULL;
	if (a->pos != w->cur->rec)
		seal_current(w, complete_ns);
	w->cur->first_ns = complete_ns;
	a->end = w->cur->rec + w->block_records;
	a->seal_ns = complete_ns + w->block_ns;
	return a->pos++;
}

int nvt_writer_append(struct nvt_writer *w, const struct nvt_record *r)
{
	int err = atomic_load_explicit(&w->err, memory_order_relaxed);
	struct nvt_record *slot;

	if (err)
		return err;
	if (r->op >= NVT_OP__MAX)
		return -EINVAL;
	slot = nvt_append_slot(&w->app, r->complete_ns);
	if (!slot)
		return atomic_load_explicit(&w->err, memory_order_relaxed);
	*slot = *r;
	return 0;
}

uint64_t nvt_writer_waits(const struct nvt_writer *w)
{
	return w->waits;
}

void nvt_writer_stats(struct nvt_writer *w, struct nvt_writer_stats *s)
{
	nvt_writer_lock(w);
	s->waits = w->waits;
	s->waiting = w->io_waiting;
	s->chunks = w->nchunks;
	s->ring_high = w->ring_high;
	pthread_mutex_unlock(&w->mu);
}

const char *nvt_writer_strerror(struct nvt_writer *w)
{
	if (!atomic_load_explicit(&w->err, memory_order_acquire))
		return "";
	return w->errmsg;
}

/*
 * Free what open set up (the writer process has ended or never started).
 * The locks go with the mapping, not destroyed: pthread_cond_destroy waits
 * for the waiters to leave, and a writer process killed while waiting
 * never does.  Return: nothing.
 */
static void writer_free(struct nvt_writer *w)
{
	free(w->path);
	nvt_shm_unmap(w, w->map_len);
}

/*
 * The file header: magic, version, kv length, kv area, CRC.  The version is
 * the oldest that holds the file: 1.2 with zstd blocks, 1.1 with zlib ones
 * (older readers read those).
 */
static int encode_file_header(struct nvt_buf *b, int codec, const struct nvt_kv *hdr,
			      size_t nhdr)
{
	size_t kv_len;
	int err;

	err = nvt_buf_reserve(b, NVT_FILE_HDR_FIXED);
	if (err)
		return err;
	memcpy(b->p, NVT_FILE_MAGIC, 8);
	nvt_put16(b->p + 8, NVT_VERSION_MAJOR);
	nvt_put16(b->p + 10, codec == NVT_CODEC_ZSTD ? NVT_VERSION_MINOR : 1);
	b->len = NVT_FILE_HDR_FIXED;
	err = nvt_kv_encode(hdr, nhdr, b);
	if (err)
		return err;
	kv_len = b->len - NVT_FILE_HDR_FIXED;
	nvt_put32(b->p + 12, (uint32_t)kv_len);
	err = nvt_buf_reserve(b, 4);
	if (err)
		return err;
	nvt_put32(b->p + b->len, nvt_crc32(b->p, b->len));
	b->len += 4;
	return 0;
}

/* Fill in defaults and check ranges; -EINVAL for nonsense. */
static int apply_opts(struct nvt_writer *w, const struct nvt_writer_opts *o)
{
	struct nvt_writer_opts d = { 0 };

	if (o)
		d = *o;
	w->zlevel = d.zlevel ? d.zlevel : 1;
	if (d.codec != NVT_WRITER_ZSTD && d.codec != NVT_WRITER_ZLIB)
		return -EINVAL;
	w->codec = d.codec == NVT_WRITER_ZLIB ? NVT_CODEC_ZLIB : NVT_CODEC_ZSTD;
	w->block_records = d.block_records ? d.block_records : 65536;
	w->block_ns = d.block_ns ? d.block_ns : 1000000000ull;
	w->nchunks = d.nchunks ? d.nchunks : 4;
	w->sched = d.sched;
	if (d.sync_ms > NVT_MAX_SYNC_MS || d.buffer_ms > NVT_MAX_BUFFER_MS)
		return -EINVAL;
	w->buffer_ns = (uint64_t)d.buffer_ms * 1000000ull;
	w->sync_ns = (uint64_t)d.sync_ms * 1000000ull;
	if (w->sched != NVT_SCHED_NORMAL && w->sched != NVT_SCHED_IDLE &&
	    w->sched != NVT_SCHED_AUTO)
		return -EINVAL;
	if (w->zlevel < 1 || w->zlevel > 9 || w->block_records > NVT_MAX_BLOCK_RECORDS ||
	    w->nchunks < 2 || w->nchunks > 64 || w->block_ns > INT64_MAX)
		return -EINVAL;
	w->max_chunks = nvt_ring_max_chunks(w->block_records, w->nchunks);
	return 0;
}

/*
 * The shared mapping for a writer configured as cfg: this struct, the
 * footer's index and kv area, then the chunk arena.  Return: w in it, set
 * from cfg with its locks made, or NULL (-errno in *err).
 */
static struct nvt_writer *writer_map(const struct nvt_writer *cfg, int *err)
{
	size_t head = (sizeof(*cfg) + 63) & ~(size_t)63;
	size_t index = NVT_INDEX_MAX * sizeof(*cfg->foot.index);
	size_t len = head + index + FOOTER_KV_AREA +
		     nvt_arena_bytes(cfg->max_chunks, cfg->block_records);
	struct nvt_writer *w = nvt_shm_map(len);
	uint8_t *base = (uint8_t *)w;

	if (!w) {
		*err = -errno;
		return NULL;
	}
	*w = *cfg;
	w->map_len = len;
	w->foot.index = (void *)(base + head);
	w->foot.index_stride = 1;
	w->kv_area = (char *)(base + head + index);
	w->arena.base = base + head + index + FOOTER_KV_AREA;
	w->arena.len = len - head - index - FOOTER_KV_AREA;
	w->fd = -1;
	w->schedstat_fd = -1;
	atomic_init(&w->err, 0);
	*err = nvt_proc_mutex_init(&w->mu);
	if (!*err)
		*err = nvt_proc_cond_init(&w->cv_ready);
	if (!*err)
		*err = nvt_proc_cond_init(&w->cv_free);
	if (*err) {
		nvt_shm_unmap(w, len);
		return NULL;
	}
	return w;
}

int nvt_writer_open(struct nvt_writer **wp, const char *path,
		    const struct nvt_kv *hdr, size_t nhdr,
		    const struct nvt_writer_opts *opts)
{
	struct writer_start st = { 0 };
	struct nvt_writer cfg = { 0 }, *w;
	int err;

	*wp = NULL;
	err = apply_opts(&cfg, opts);
	if (err)
		return err;
	w = writer_map(&cfg, &err);
	if (!w)
		return err;
	err = encode_file_header(&st.hdr, w->codec, hdr, nhdr);
	if (err)
		goto fail;
	err = -ENOMEM;
	w->path = strdup(path);
	if (!w->path)
		goto fail;
	nvt_touch_pages(w->foot.index, NVT_INDEX_MAX * sizeof(*w->foot.index));
	/*
	 * The chunks' pages are touched now (nvt_chunk_new): otherwise the IO
	 * thread takes a page fault every 100 records during the first lap, on
	 * the hot path, and each may wait for the mm lock.
	 */
	w->first = nvt_ring_new(&w->arena, w->nchunks, w->block_records);
	if (!w->first)
		goto fail;

	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		err = -errno;
		goto fail;
	}
	w->synced_ns = nvt_mono_ns();
	w->first->state = CHUNK_FILLING;
	w->cur = w->first;
	w->app.pos = w->app.end = w->cur->rec;
	w->app.err = &w->err;
	w->app.w = w;
	st.w = w;
	err = nvt_proc_start(&w->writer_pid, "nvtrace-writer", w->fd, writer_main, &st);
	if (err)
		goto fail;
	nvt_buf_free(&st.hdr);	/* the writer's copy is its own */
	*wp = w;
	return 0;
fail:
	if (w->fd >= 0) {
		close(w->fd);
		unlink(path);
	}
	nvt_buf_free(&st.hdr);
	writer_free(w);
	return err;
}

/*
 * Copy the footer kv into the shared kv area, where the writer process
 * reads it.  Return: 0, or -E2BIG (more than FOOTER_KV_AREA bytes).
 */
static int footer_kv_share(struct nvt_writer *w, const struct nvt_kv *kv, size_t n)
{
	struct nvt_kv *out = (struct nvt_kv *)(void *)w->kv_area;
	size_t used = n * sizeof(*out);

	if (n > FOOTER_KV_AREA / sizeof(*out))
		return -E2BIG;
	for (size_t i = 0; i < n; i++) {
		size_t kl = strlen(kv[i].key) + 1, vl = strlen(kv[i].value) + 1;
		char *k = w->kv_area + used;

		if (FOOTER_KV_AREA - used < kl + vl)
			return -E2BIG;
		memcpy(k, kv[i].key, kl);
		memcpy(k + kl, kv[i].value, vl);
		out[i].key = k;
		out[i].value = k + kl;
		used += kl + vl;
	}
	w->footer_kv = n ? out : NULL;
	w->nfooter = n;
	return 0;
}

int nvt_writer_close_msg(struct nvt_writer *w, const struct nvt_kv *footer, size_t nfooter,
			 char *errbuf, size_t errlen)
{
	bool bad_kv;
	int err;

	if (errbuf && errlen)
		errbuf[0] = 0;
	if (!w)
		return 0;
	/* A bad footer kv must not cost the records: write the footer without it. */
	bad_kv = nvt_kv_check(footer, nfooter) != 0 || footer_kv_share(w, footer, nfooter);
	if (bad_kv)
		footer_kv_share(w, NULL, 0);

	nvt_writer_lock(w);
	w->cur->n = (unsigned)(w->app.pos - w->cur->rec);
	if (w->cur->n) {
		w->cur->state = CHUNK_READY;
		if (++w->backlog > w->ring_high)
			w->ring_high = w->backlog;
	}
	w->closing = true;
	pthread_cond_signal(&w->cv_ready);
	pthread_mutex_unlock(&w->mu);
	if (!w->writer_ended)
		w->writer_ended = nvt_proc_ended(w->writer_pid, true, &w->writer_status);
	if (!w->writer_done)
		writer_died(w);

	if (close(w->fd) && errno != EINTR)
		nvt_writer_set_error(w, -errno, "close");
	if (bad_kv)
		nvt_writer_set_error(w, -EINVAL, "footer key/value rejected (empty key or too long) for");
	w->fd = -1;
	err = atomic_load_explicit(&w->err, memory_order_acquire);
	if (err && errbuf && errlen)
		snprintf(errbuf, errlen, "%s", w->errmsg);
	writer_free(w);
	return err;
}

int nvt_writer_close(struct nvt_writer *w, const struct nvt_kv *footer, size_t nfooter)
{
	return nvt_writer_close_msg(w, footer, nfooter, NULL, 0);
}
