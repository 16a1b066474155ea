/*
 * nvtrace_write.c - the trace writer: IO-thread side append into fixed
 * chunks, one background writer that encodes, compresses and writes blocks
 * (nvtrace_wfile.c).  The writer is a thread, or for a job process under
 * autogroup a task of its own session sharing this memory (nvtrace_task.h).
 *
 * Chunks form a ring used in order (nvtrace_ring.c), which grows while the
 * writer is behind by less than buffer_ms of completions.  A chunk is
 * FILLING (owned by the IO thread, which writes records through the
 * appender: nvtrace.h), READY (sealed, waiting for the writer) or FREE.  The
 * IO thread takes the mutex only when it seals a chunk; the writer processes
 * READY chunks in ring order and frees them.  Each side sleeps on a futex
 * word the other bumps under the mutex (ready_seq, free_seq), and wakes the
 * other only when it sleeps.  After a write error the writer keeps freeing
 * chunks (so the IO thread never deadlocks) and the error is sticky: append
 * and close return it.  An own-session writer can die alone (a signal): the
 * IO thread then checks it every WRITER_CHECK_MS while it waits, and fails
 * instead of hanging, even when the writer died holding the mutex.
 *
 * Durability (nvtrace_wfile.c): blocks are appended in order with write(2);
 * with sync_ms the writer also calls fdatasync() once a written block is
 * sync_ms old (or the next block comes later), never more often than every
 * sync_ms, and once after the footer.
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_clock.h"
#include "trace/nvtrace_futex.h"
#include "trace/nvtrace_sched.h"
#include "trace/nvtrace_writer.h"

/*
 * The own-session writer ended by signal sig (0: not known): the sticky
 * error, unless an earlier one is set.  Return: nothing.
 */
static void writer_died(struct nvt_writer *w, int sig)
{
	int err = atomic_load_explicit(&w->err, memory_order_relaxed);

	if (err && !(err == -EPIPE && w->writer_dead))
		return;
	w->writer_dead = true;
	snprintf(w->errmsg, sizeof(w->errmsg),
		 "the trace writer of %s (pid %d, a task of its own session) was killed%s%s: "
		 "the trace is incomplete", w->path, (int)w->task.pid, sig ? " by SIG" : "",
		 sig ? sigabbrev_np(sig) : "");
	atomic_store_explicit(&w->err, -EPIPE, memory_order_release);
}

/* How often the IO thread checks that an own-session writer lives while it waits for it. */
#define WRITER_CHECK_MS	100

/*
 * By the IO thread: lock mu.  An own-session writer can be killed while it
 * holds mu (a thread cannot: its death ends the process), so then mu is
 * taken with a timeout and the writer checked every WRITER_CHECK_MS.
 * Return: true with mu held; false when the writer died holding it (the
 * sticky error is set; mu stays locked).
 */
static bool io_lock(struct nvt_writer *w)
{
	struct timespec dl;

	if (!w->task.own_session) {
		pthread_mutex_lock(&w->mu);
		return true;
	}
	if (!pthread_mutex_trylock(&w->mu))
		return true;
	for (;;) {
		dl = nvt_futex_in_ms(WRITER_CHECK_MS);
		if (!pthread_mutex_clocklock(&w->mu, CLOCK_MONOTONIC, &dl))
			return true;
		if (nvt_task_running(&w->task))
			continue;
		if (!pthread_mutex_trylock(&w->mu))
			return true;	/* released just before the end */
		writer_died(w, nvt_task_signal(&w->task));
		return false;
	}
}

/*
 * Wait (mu held) until chunk c is READY or the writer is closing; with
 * blocks written but not yet synced, wake at the sync deadline and sync
 * them.  Return: nothing.
 */
static void wait_ready(struct nvt_writer *w, struct chunk *c)
{
	while (c->state != CHUNK_READY && !w->closing) {
		uint32_t seq = w->ready_seq;
		struct timespec dl;
		bool timed;
		uint64_t at;

		timed = w->dirty && w->sync_ns &&
			!atomic_load_explicit(&w->err, memory_order_relaxed);
		at = w->synced_ns + w->sync_ns;
		dl = nvt_ns_timespec(at);
		w->writer_sleeping = true;
		pthread_mutex_unlock(&w->mu);
		if (nvt_futex_wait(&w->ready_seq, seq, timed ? &dl : NULL) == -ETIMEDOUT)
			nvt_wfile_sync_if_due(w);
		pthread_mutex_lock(&w->mu);
		w->writer_sleeping = false;
	}
}

/* mu held, by the IO thread: wake the writer for a READY chunk or the close.  Return: nothing. */
static void ready_signal(struct nvt_writer *w)
{
	__atomic_store_n(&w->ready_seq, w->ready_seq + 1, __ATOMIC_RELEASE);
	if (w->writer_sleeping)
		nvt_futex_wake(&w->ready_seq);
}

/* The writer thread's class at its start (nvt_writer_sched).  Return: nothing. */
static void writer_sched_init(struct nvt_writer *w)
{
	struct sched_param sp = { 0 };
	bool auto_idle = false;

	if (w->sched == NVT_SCHED_IDLE)
		sched_setscheduler(0, SCHED_IDLE, &sp);	/* this thread only; best effort */
	else if (w->sched == NVT_SCHED_AUTO && sched_getscheduler(0) == SCHED_OTHER &&
		 nvt_sched_can_leave_idle())
		auto_idle = !sched_setscheduler(0, SCHED_IDLE, &sp);
	pthread_mutex_lock(&w->mu);
	w->writer_tid = (pid_t)syscall(SYS_gettid);
	w->auto_idle = auto_idle;
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
	struct sched_param sp = { 0 };

	if (w->auto_idle && !w->promoted && w->backlog * 2 >= w->nchunks &&
	    !sched_setscheduler(w->writer_tid, SCHED_OTHER, &sp)) {
		w->promoted = true;
		w->promotions++;
	}
}

/* AUTO, mu held, by the writer: back to SCHED_IDLE once nothing waits.  Return: nothing. */
static void writer_demote_if_drained(struct nvt_writer *w)
{
	struct sched_param sp = { 0 };

	if (w->promoted && !w->backlog && !sched_setscheduler(0, SCHED_IDLE, &sp))
		w->promoted = false;
}

static void *writer_thread(void *arg)
{
	struct nvt_writer *w = arg;
	struct chunk *c = w->first;

	/* visible in top -H, ps -L and perf as the trace writer */
	prctl(PR_SET_NAME, "nvtrace-writer");	/* a thread's or an own-session task's */
	writer_sched_init(w);
	if ((!w->sync_ns || !nvt_wfile_sync_dir(w)) && !nvt_wfile_emit(w, w->hdr.p, w->hdr.len))
		w->dirty = true;
	nvt_buf_free(&w->hdr);

	for (;;) {
		pthread_mutex_lock(&w->mu);
		wait_ready(w, c);
		if (c->state != CHUNK_READY) {	/* closing, and nothing left */
			pthread_mutex_unlock(&w->mu);
			break;
		}
		pthread_mutex_unlock(&w->mu);

		if (!atomic_load_explicit(&w->err, memory_order_relaxed) &&
		    !nvt_wfile_block(w, c->rec, c->n))
			nvt_wfile_sync_if_due(w);

		pthread_mutex_lock(&w->mu);
		c->n = 0;
		c->state = CHUNK_FREE;
		w->backlog--;
		writer_demote_if_drained(w);
		__atomic_store_n(&w->free_seq, w->free_seq + 1, __ATOMIC_RELEASE);
		if (w->io_waiting)
			nvt_futex_wake(&w->free_seq);
		/* after c is READY: the IO thread links new chunks before that */
		c = c->next;
		pthread_mutex_unlock(&w->mu);
	}
	if (!atomic_load_explicit(&w->err, memory_order_relaxed))
		nvt_wfile_footer(w);
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		nvt_wfile_sync_after_error(w);
	if (w->schedstat_fd >= 0)
		close(w->schedstat_fd);
	return NULL;
}

/*
 * mu held, next = w->cur->next still busy: add a chunk after the current one
 * if the buffer by time allows (nvt_ring_should_grow), allocating it with mu
 * released.  While mu is released the writer may write every READY chunk,
 * the current one included, and take the current one's successor as the
 * chunk it waits for: a chunk linked after the current one then would be
 * filled but never written (its records lost, the ones after it out of
 * order).  So the new chunk is linked only while the current one is still
 * READY (the writer reads cur->next under mu when it frees cur); otherwise
 * the ring has caught up and the new chunk is not needed.  Return: the chunk
 * to fill next (the new one, or next), mu held; NULL with mu released when
 * a dead writer holds it (io_lock).
 */
static struct chunk *ring_grow(struct nvt_writer *w, struct chunk *next, uint64_t now_ns)
{
	struct chunk *c;
	uint64_t t0;

	if (!nvt_ring_should_grow(next, now_ns, w->buffer_ns, w->nchunks, w->max_chunks))
		return next;
	pthread_mutex_unlock(&w->mu);
	t0 = nvt_mono_ns();
	c = nvt_chunk_new(w->block_records);	/* NULL: wait as a full ring does */
	if (!io_lock(w)) {
		nvt_chunk_free(c);
		return NULL;
	}
	w->grow_ns += nvt_mono_ns() - t0;
	if (!c || w->cur->state != CHUNK_READY) {	/* none, or the writer went past */
		nvt_chunk_free(c);
		return w->cur->next;
	}
	c->next = w->cur->next;
	w->cur->next = c;
	w->nchunks++;
	return c;
}

/*
 * mu held, by the IO thread: wait until chunk next is FREE.  An own-session
 * writer is checked every WRITER_CHECK_MS: once it has died nothing will
 * free the chunk.  Return: 0 with mu held, or -EPIPE with mu released (the
 * writer died; the sticky error is set).
 */
static int wait_free(struct nvt_writer *w, struct chunk *next)
{
	uint64_t t0 = nvt_mono_ns();

	w->waits++;
	w->io_waiting = true;
	while (next->state != CHUNK_FREE) {
		uint32_t seq = w->free_seq;
		struct timespec dl;

		pthread_mutex_unlock(&w->mu);
		if (w->task.own_session) {
			dl = nvt_futex_in_ms(WRITER_CHECK_MS);
			nvt_futex_wait(&w->free_seq, seq, &dl);
		} else {
			nvt_futex_wait(&w->free_seq, seq, NULL);
		}
		if (!io_lock(w))
			return -EPIPE;
		if (next->state != CHUNK_FREE && !nvt_task_running(&w->task)) {
			writer_died(w, nvt_task_signal(&w->task));
			pthread_mutex_unlock(&w->mu);
			return -EPIPE;
		}
	}
	w->io_waiting = false;
	w->wait_ns += nvt_mono_ns() - t0;
	return 0;
}

/*
 * Mark the current chunk READY and take the next one (now_ns: the completion
 * that begins it), adding one to the ring or waiting until the next is FREE.
 * Return: 0, or -EPIPE when the writer died (the sticky error is set).
 */
static int seal_current(struct nvt_writer *w, uint64_t now_ns)
{
	struct chunk *next;

	if (!io_lock(w))
		return -EPIPE;
	w->cur->n = (unsigned)(w->app.pos - w->cur->rec);
	w->cur->state = CHUNK_READY;
	if (++w->backlog > w->ring_high)
		w->ring_high = w->backlog;
	writer_promote_if_behind(w);
	ready_signal(w);
	next = w->cur->next;
	if (next->state != CHUNK_FREE) {
		next = ring_grow(w, next, now_ns);
		if (!next)
			return -EPIPE;
	}
	if (next->state != CHUNK_FREE && wait_free(w, next))
		return -EPIPE;
	next->state = CHUNK_FILLING;
	pthread_mutex_unlock(&w->mu);
	w->cur = next;
	w->app.pos = w->app.end = w->cur->rec;	/* not begun */
	return 0;
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
	if (a->pos != w->cur->rec && seal_current(w, complete_ns))
		return NULL;
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
	bool locked = io_lock(w);	/* false: the writer died holding mu */

	s->waits = w->waits;
	s->waiting = w->io_waiting;
	s->chunks = w->nchunks;
	s->ring_high = w->ring_high;
	s->backlog = w->backlog;
	s->writer = w->writer_tid;
	if (locked)
		pthread_mutex_unlock(&w->mu);
}

const char *nvt_writer_strerror(struct nvt_writer *w)
{
	if (!atomic_load_explicit(&w->err, memory_order_acquire))
		return "";
	return w->errmsg;
}

static void writer_free(struct nvt_writer *w)
{
	nvt_ring_free(w->first);
	free(w->foot.index);
	nvt_buf_free(&w->hdr);
	nvt_encoder_free(&w->enc);
	pthread_mutex_destroy(&w->mu);
	free(w->path);
	free(w);
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

int nvt_writer_open(struct nvt_writer **wp, const char *path,
		    const struct nvt_kv *hdr, size_t nhdr,
		    const struct nvt_writer_opts *opts)
{
	struct nvt_writer *w;
	uint64_t t0;
	int err;

	*wp = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->schedstat_fd = -1;
	pthread_mutex_init(&w->mu, NULL);
	atomic_init(&w->err, 0);

	err = apply_opts(w, opts);
	if (err)
		goto fail;
	err = nvt_wfile_header(&w->hdr, w->codec, hdr, nhdr);
	if (err)
		goto fail;
	err = -ENOMEM;
	w->path = strdup(path);
	w->foot.index = malloc(NVT_INDEX_MAX * sizeof(*w->foot.index));
	w->foot.index_stride = 1;
	if (!w->path || !w->foot.index)
		goto fail;
	nvt_touch_pages(w->foot.index, NVT_INDEX_MAX * sizeof(*w->foot.index));
	/*
	 * The chunks' pages are touched now (nvt_chunk_new): otherwise the IO
	 * thread takes a page fault every 100 records during the first lap, on
	 * the hot path, and each may wait for the mm lock.
	 */
	w->first = nvt_ring_new(w->nchunks, w->block_records);
	if (!w->first)
		goto fail;
	if (nvt_encoder_init(&w->enc, w->codec, w->zlevel, w->block_records))
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
	t0 = nvt_mono_ns();
	err = nvt_task_start(&w->task, writer_thread, w, opts && opts->own_session,
			     w->sched == NVT_SCHED_IDLE ? 19 : 0);
	if (err && opts && opts->own_session)	/* a sandbox refusing the clone: a thread */
		err = nvt_task_start(&w->task, writer_thread, w, false, 0);
	if (err)
		goto fail;
	if (w->task.own_session)	/* nvtrace.h: the scheduler takes in the new group */
		nvt_sleep_until_ns(t0 + NVT_SESSION_SETTLE_MS * 1000000ull);
	*wp = w;
	return 0;
fail:
	if (w->fd >= 0) {
		close(w->fd);
		unlink(path);
	}
	writer_free(w);
	return err;
}

int nvt_writer_close_msg(struct nvt_writer *w, const struct nvt_kv *footer, size_t nfooter,
			 char *errbuf, size_t errlen)
{
	bool bad_kv;
	int err, sig;

	if (errbuf && errlen)
		errbuf[0] = 0;
	if (!w)
		return 0;
	/* A bad footer kv must not cost the records: write the footer without it. */
	bad_kv = nvt_kv_check(footer, nfooter) != 0;
	if (bad_kv) {
		footer = NULL;
		nfooter = 0;
	}

	if (io_lock(w)) {	/* else the writer died holding it: join reaps it */
		w->cur->n = (unsigned)(w->app.pos - w->cur->rec);
		if (w->cur->n) {
			w->cur->state = CHUNK_READY;
			if (++w->backlog > w->ring_high)
				w->ring_high = w->backlog;
		}
		w->footer_kv = footer;
		w->nfooter = nfooter;
		w->closing = true;
		ready_signal(w);
		pthread_mutex_unlock(&w->mu);
	}
	sig = nvt_task_join(&w->task);
	if (sig)
		writer_died(w, sig);

	if (close(w->fd) && errno != EINTR)
		nvt_wfile_fail(w, -errno, "close");
	if (bad_kv)
		nvt_wfile_fail(w, -EINVAL,
			       "footer key/value rejected (empty key or too long) for");
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
