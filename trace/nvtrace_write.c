/*
 * nvtrace_write.c - the trace writer: IO-thread side append into fixed chunks,
 * one background thread that encodes, compresses and writes blocks.
 *
 * Chunks form a ring used in order (nvtrace_ring.c), which grows while the
 * writer is behind by less than buffer_ms of completions.  A chunk is FILLING (owned by the IO
 * thread, which writes records through the appender: nvtrace.h), READY
 * (sealed, waiting for the writer thread) or FREE.  The IO thread touches
 * the mutex only when it seals a chunk; the writer thread processes READY
 * chunks in ring order and frees them.  After a write error
 * the thread keeps freeing chunks (so the IO thread never deadlocks) and the
 * error is sticky: append and close return it.
 *
 * Durability: blocks are appended in order with write(2); with sync_ms the
 * thread also calls fdatasync() once a written block is sync_ms old (or the
 * next block comes later), never more often than every sync_ms, and once
 * after the footer.  A block whose write fails part way (a disk that fills)
 * is cut off again (ftruncate), so the file ends at its last complete block.
 * With sync_ms the directory is fsync'ed once the file is created (its
 * entry is on the disk), and after a sticky error the thread still syncs
 * what is valid: the complete blocks and the truncation.
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_ring.h"
#include "trace/nvtrace_sched.h"

struct nvt_writer {
	/* IO-thread side */
	struct nvt_appender app;	/* the FILLING chunk: where the next record goes */
	struct chunk *cur;
	uint64_t waits;			/* times append had to wait for a free chunk */
	uint64_t wait_ns;		/* CLOCK_MONOTONIC time spent in those waits */
	uint64_t grow_ns;		/* time spent adding chunks to the ring */

	/* configuration (read-only after open) */
	char *path;
	int fd;
	int zlevel;
	int codec;			/* NVT_CODEC_* */
	enum nvt_writer_sched sched;
	unsigned block_records;
	uint64_t block_ns;
	unsigned max_chunks;		/* the ring's cap (nvt_ring_max_chunks) */
	uint64_t buffer_ns;		/* buffer by time; 0: the ring does not grow */
	struct chunk *first;		/* the ring's first chunk (the writer starts there) */
	uint64_t sync_ns;		/* fdatasync period; 0: never */

	/* shared, under mu (wait_ns and waits of the IO thread: read once closing) */
	pthread_mutex_t mu;
	pthread_cond_t cv_ready;	/* a chunk became READY, or closing */
	pthread_cond_t cv_free;		/* a chunk became FREE */
	bool closing;
	unsigned nchunks;		/* chunks in the ring (the IO thread adds them) */
	bool io_waiting;		/* the IO thread waits for a free chunk now */
	unsigned backlog;		/* READY chunks */
	unsigned ring_high;		/* most READY chunks at once */
	bool promoted;			/* AUTO: the writer runs SCHED_OTHER now */
	bool auto_idle;			/* AUTO: SCHED_IDLE between promotions */
	pid_t writer_tid;		/* the writer thread's tid (AUTO promotion) */
	uint64_t promotions;		/* AUTO: times promoted */
	const struct nvt_kv *footer_kv;
	size_t nfooter;
	pthread_t thread;
	bool thread_started;

	/* sticky error: message written before err is published */
	atomic_int err;
	char errmsg[512];

	/* writer-thread side */
	struct nvt_buf hdr;		/* encoded file header, written first */
	struct nvt_encoder enc;
	uint64_t file_off;
	uint32_t seq;
	struct nvt_footer foot;
	uint64_t synced_ns;		/* CLOCK_MONOTONIC of the last fdatasync (or open) */
	bool dirty;			/* blocks written since then */
	bool sync_failed;		/* an fdatasync failed: the sticky error is its */
	uint64_t syncs;			/* fdatasync calls */
	uint64_t write_ns;		/* time inside write(2) */
	uint64_t fdatasync_ns;		/* time inside fdatasync(2) */
	uint64_t fdatasync_max_ns;	/* the longest of those calls */
	uint64_t runq_ns0;		/* schedstat run-queue wait at the thread's start */
	int schedstat_fd;		/* the writer's /proc/thread-self/schedstat, or -1 */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void set_error_why(struct nvt_writer *w, int err, const char *what, const char *why)
{
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		return;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s %s: %s%s", what, w->path, strerror(-err), why);
	atomic_store_explicit(&w->err, err, memory_order_release);
}

static void set_error(struct nvt_writer *w, int err, const char *what)
{
	set_error_why(w, err, what, "");
}

/* write(2) all of buf, retrying short writes and EINTR; 0 or -errno. */
static int write_all(int fd, const uint8_t *buf, size_t n)
{
	while (n) {
		ssize_t k = write(fd, buf, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			return -EIO;
		buf += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * Time since t0 with q0 the run-queue wait then, less the run-queue wait
 * since: the time the disk took, not the time the CPU was denied meanwhile.
 * Return: nanoseconds.
 */
static uint64_t disk_time(struct nvt_writer *w, uint64_t t0, uint64_t q0)
{
	uint64_t t = mono_ns() - t0, q = nvt_sched_runq_wait_ns(w->schedstat_fd) - q0;

	return q < t ? t - q : 0;
}

/* write_all, its time added to the writer's write_ns.  Return: 0 or -errno. */
static int write_timed(struct nvt_writer *w, const uint8_t *buf, size_t n)
{
	uint64_t q0 = nvt_sched_runq_wait_ns(w->schedstat_fd), t0 = mono_ns();
	int err = write_all(w->fd, buf, n);

	w->write_ns += disk_time(w, t0, q0);
	return err;
}

static int emit(struct nvt_writer *w, const uint8_t *buf, size_t n)
{
	int err = write_timed(w, buf, n);

	if (err) {
		set_error(w, err, "write");
		return err;
	}
	w->file_off += n;
	return 0;
}

/*
 * A block write failed (err) after part of the block may have reached the
 * file (a disk that filled mid-block): cut the file back to the end of the
 * last complete block, so that it reads as a clean truncation, and fail the
 * writer with a message that says how far the block got.
 */
static void cut_block(struct nvt_writer *w, int err, uint64_t start, size_t len)
{
	off_t end = lseek(w->fd, 0, SEEK_END);
	char why[200] = "";

	if (end >= 0 && (uint64_t)end > start) {
		unsigned long long got = (unsigned long long)end - start;

		if (ftruncate(w->fd, (off_t)start))
			snprintf(why, sizeof(why), " (block %u half written, %llu of %zu bytes, "
				 "and cutting it off failed: %s)", w->seq, got, len, strerror(errno));
		else
			snprintf(why, sizeof(why), " (block %u half written, %llu of %zu bytes: "
				 "cut off, the file ends after its %u complete blocks)", w->seq,
				 got, len, w->seq);
	}
	set_error_why(w, err, "write", why);
}

/* fdatasync the file now.  Return: 0 or the sticky -errno. */
static int sync_now(struct nvt_writer *w)
{
	uint64_t q0 = nvt_sched_runq_wait_ns(w->schedstat_fd), t0 = mono_ns();
	int rc = fdatasync(w->fd);
	uint64_t d = disk_time(w, t0, q0);

	w->fdatasync_ns += d;
	if (d > w->fdatasync_max_ns)
		w->fdatasync_max_ns = d;
	if (rc) {
		int err = -errno;

		w->sync_failed = true;
		set_error(w, err, "fdatasync");
		return err;
	}
	w->syncs++;
	w->dirty = false;
	w->synced_ns = mono_ns();
	return 0;
}

/* After a block: sync if the last sync is sync_ns old.  Return: nothing (errors are sticky). */
static void sync_if_due(struct nvt_writer *w)
{
	if (w->sync_ns && w->dirty && !atomic_load_explicit(&w->err, memory_order_relaxed) &&
	    mono_ns() - w->synced_ns >= w->sync_ns)
		sync_now(w);
}

/* Keep at most NVT_INDEX_MAX entries: when full, keep every other one and
 * double the stride, so memory does not grow with the run length. */
static void index_add(struct nvt_writer *w, uint64_t off, const struct nvt_block_hdr *h)
{
	struct nvt_footer *f = &w->foot;

	if (h->seq % f->index_stride)
		return;
	if (f->nindex == NVT_INDEX_MAX) {
		uint32_t j = 0;

		for (uint32_t i = 0; i < f->nindex; i += 2)
			f->index[j++] = f->index[i];
		f->nindex = j;
		f->index_stride *= 2;
		if (h->seq % f->index_stride)
			return;
	}
	f->index[f->nindex].file_offset = off;
	f->index[f->nindex].min_complete_ns = h->min_complete_ns;
	f->index[f->nindex].seq = h->seq;
	f->index[f->nindex].nrec = h->nrec;
	f->nindex++;
}

/* Encode, compress and write the n records as one block; account totals. */
static int write_block(struct nvt_writer *w, const struct nvt_record *r, unsigned n)
{
	uint8_t hb[NVT_BLOCK_HDR_LEN];
	uint64_t start = w->file_off;
	struct nvt_block_hdr h;
	int err;

	err = nvt_encoder_block(&w->enc, r, n, w->seq, &h);
	if (err) {
		set_error(w, err, "encode block for");
		return err;
	}
	nvt_block_hdr_pack(hb, &h);
	index_add(w, w->file_off, &h);
	err = write_timed(w, hb, sizeof(hb));
	if (!err)
		err = write_timed(w, w->enc.comp.p, h.comp_len);
	if (err) {
		cut_block(w, err, start, sizeof(hb) + h.comp_len);
		return err;
	}
	w->file_off += sizeof(hb) + h.comp_len;
	w->dirty = true;

	if (w->enc.uniform) {
		/* one op, length and status in the whole block (most jobs): no pass over it */
		struct nvt_totals *t = &w->foot.op[r[0].op];	/* checked by append */

		t->records += n;
		t->bytes += (uint64_t)n * r[0].length;
		t->errors += r[0].status != 0 ? n : 0;
	} else {
		for (unsigned i = 0; i < n; i++) {
			struct nvt_totals *t = &w->foot.op[r[i].op];

			t->records++;
			t->bytes += r[i].length;
			t->errors += r[i].status != 0;
		}
	}
	if (!w->foot.records || h.min_complete_ns < w->foot.min_complete_ns)
		w->foot.min_complete_ns = h.min_complete_ns;
	if (h.max_complete_ns > w->foot.max_complete_ns)
		w->foot.max_complete_ns = h.max_complete_ns;
	w->foot.records += n;
	w->foot.blocks++;
	w->seq++;
	return 0;
}

#define FOOTER_OWN 17	/* the writer's own footer keys */

/*
 * The footer: the caller's kv pairs, then the writer thread's own: its CPU
 * time up to here (writer.cpu_ns, CLOCK_THREAD_CPUTIME_ID: encoding,
 * compression and writes of every block), so a benchmark can divide it by
 * the records; how often and how long the IO thread waited for a free chunk
 * (writer.io_waits, writer.io_wait_ns: the writer or its disk fell behind);
 * the fdatasync period and calls (writer.sync_ms, writer.syncs); where the
 * writer's time went: inside write(2) and fdatasync(2), less the run-queue
 * wait meanwhile (writer.write_ns, writer.fdatasync_ns: the disk) and
 * waiting on a run queue
 * (writer.runq_wait_ns: the CPU); how full the ring got (writer.ring_high
 * of writer.ring_chunks chunks waiting at once), its class (writer.sched)
 * and, for auto, its promotions (writer.promotions); the buffer by time
 * (writer.buffer_ms), the ring's cap in chunks (writer.ring_max) and the
 * IO thread's time adding chunks (writer.ring_grow_ns); the longest
 * fdatasync (writer.fdatasync_max_ns).
 */
static void write_footer(struct nvt_writer *w)
{
	static const char *const keys[FOOTER_OWN] = {
		"writer.cpu_ns", "writer.io_waits", "writer.io_wait_ns", "writer.sync_ms",
		"writer.syncs", "writer.write_ns", "writer.fdatasync_ns", "writer.runq_wait_ns",
		"writer.ring_high", "writer.ring_chunks", "writer.promotions", "writer.buffer_ms",
		"writer.ring_max", "writer.ring_grow_ns", "writer.fdatasync_max_ns", "writer.sched",
		"writer.sched_effective",
	};
	static const char *const sched[] = { "normal", "idle", "auto" };
	char val[FOOTER_OWN][32];
	unsigned long long v[FOOTER_OWN - 2];
	struct nvt_buf b = { 0 };
	struct nvt_kv *kv;
	struct timespec ts;
	size_t n = w->nfooter;
	int err;

	kv = malloc((w->nfooter + FOOTER_OWN) * sizeof(*kv));
	if (!kv) {
		set_error(w, -ENOMEM, "encode footer for");
		return;
	}
	if (w->nfooter)
		memcpy(kv, w->footer_kv, w->nfooter * sizeof(*kv));
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	v[0] = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
	pthread_mutex_lock(&w->mu);
	v[1] = w->waits;
	v[2] = w->wait_ns;
	v[8] = w->ring_high;
	v[9] = w->nchunks;
	v[10] = w->promotions;
	v[13] = w->grow_ns;
	pthread_mutex_unlock(&w->mu);
	v[3] = w->sync_ns / 1000000;
	v[4] = w->syncs;
	v[5] = w->write_ns;
	v[6] = w->fdatasync_ns;
	v[7] = nvt_sched_runq_wait_ns(w->schedstat_fd) - w->runq_ns0;
	v[11] = w->buffer_ns / 1000000;
	v[12] = w->max_chunks;
	v[14] = w->fdatasync_max_ns;
	for (unsigned i = 0; i < FOOTER_OWN; i++) {
		if (i < FOOTER_OWN - 2)
			snprintf(val[i], sizeof(val[i]), "%llu", v[i]);
		else if (i == FOOTER_OWN - 2)
			snprintf(val[i], sizeof(val[i]), "%s", sched[w->sched]);
		else
			snprintf(val[i], sizeof(val[i]), "%s",
				 w->sched == NVT_SCHED_AUTO && !w->auto_idle ? "normal" :
				 sched[w->sched]);
		kv[n].key = keys[i];
		kv[n++].value = val[i];
	}
	w->foot.kv = kv;
	w->foot.nkv = n;
	err = nvt_footer_encode(&w->foot, &b);
	w->foot.kv = NULL;
	w->foot.nkv = 0;
	free(kv);
	if (err)
		set_error(w, err, "encode footer for");
	else if (!emit(w, b.p, b.len) && w->sync_ns)
		sync_now(w);	/* a closed trace is on the disk */
	nvt_buf_free(&b);
}

/*
 * Wait (mu held) until chunk c is READY or the writer is closing; with
 * blocks written but not yet synced, wake at the sync deadline and sync
 * them.  Return: nothing.
 */
static void wait_ready(struct nvt_writer *w, struct chunk *c)
{
	while (c->state != CHUNK_READY && !w->closing) {
		struct timespec dl;
		uint64_t at;

		if (!w->dirty || !w->sync_ns || atomic_load_explicit(&w->err, memory_order_relaxed)) {
			pthread_cond_wait(&w->cv_ready, &w->mu);
			continue;
		}
		at = w->synced_ns + w->sync_ns;
		dl.tv_sec = (time_t)(at / 1000000000ull);
		dl.tv_nsec = (long)(at % 1000000000ull);
		if (pthread_cond_timedwait(&w->cv_ready, &w->mu, &dl) == ETIMEDOUT) {
			pthread_mutex_unlock(&w->mu);
			sync_if_due(w);
			pthread_mutex_lock(&w->mu);
		}
	}
}

/*
 * fsync the directory that holds the new file, so that its entry survives a
 * power cut (some file systems do not order it with the file's data).  A
 * file system that cannot sync a directory (EINVAL) has nothing to sync.
 * Return: 0 or the sticky -errno.
 */
static int sync_dir(struct nvt_writer *w)
{
	char *dir = strdup(w->path), *slash;
	int fd, err = 0;

	if (!dir) {
		set_error(w, -ENOMEM, "fsync the directory of");
		return -ENOMEM;
	}
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || (fsync(fd) && errno != EINVAL))
		err = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	if (err)
		set_error(w, err, "fsync the directory of");
	return err;
}

/*
 * After a sticky error: sync what the file validly holds (its complete
 * blocks and the truncation of a half-written one), unless the error was
 * fdatasync's own (the kernel may have dropped the pages: a retry proves
 * nothing).  Return: nothing (the first error stays the one reported).
 */
static void sync_after_error(struct nvt_writer *w)
{
	if (w->sync_ns && !w->sync_failed)
		sync_now(w);
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
	pthread_setname_np(pthread_self(), "nvtrace-writer");
	writer_sched_init(w);
	if ((!w->sync_ns || !sync_dir(w)) && !emit(w, w->hdr.p, w->hdr.len))
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
		    !write_block(w, c->rec, c->n))
			sync_if_due(w);

		pthread_mutex_lock(&w->mu);
		c->n = 0;
		c->state = CHUNK_FREE;
		w->backlog--;
		writer_demote_if_drained(w);
		pthread_cond_signal(&w->cv_free);
		c = c->next;	/* after c is READY: the IO thread links new chunks before that */
		pthread_mutex_unlock(&w->mu);
	}
	if (!atomic_load_explicit(&w->err, memory_order_relaxed))
		write_footer(w);
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		sync_after_error(w);
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
 * to fill next (the new one, or next).
 */
static struct chunk *ring_grow(struct nvt_writer *w, struct chunk *next, uint64_t now_ns)
{
	struct chunk *c;
	uint64_t t0;

	if (!nvt_ring_should_grow(next, now_ns, w->buffer_ns, w->nchunks, w->max_chunks))
		return next;
	pthread_mutex_unlock(&w->mu);
	t0 = mono_ns();
	c = nvt_chunk_new(w->block_records);	/* NULL: wait as a full ring does */
	pthread_mutex_lock(&w->mu);
	w->grow_ns += mono_ns() - t0;
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
 * Mark the current chunk READY and take the next one (now_ns: the completion
 * that begins it), adding one to the ring or waiting until the next is FREE.
 */
static void seal_current(struct nvt_writer *w, uint64_t now_ns)
{
	struct chunk *next;

	pthread_mutex_lock(&w->mu);
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
		uint64_t t0 = mono_ns();

		w->waits++;
		w->io_waiting = true;
		while (next->state != CHUNK_FREE)
			pthread_cond_wait(&w->cv_free, &w->mu);
		w->io_waiting = false;
		w->wait_ns += mono_ns() - t0;
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
	pthread_mutex_lock(&w->mu);
	s->waits = w->waits;
	s->waiting = w->io_waiting;
	s->chunks = w->nchunks;
	s->ring_high = w->ring_high;
	s->backlog = w->backlog;
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
	pthread_cond_destroy(&w->cv_ready);
	pthread_cond_destroy(&w->cv_free);
	free(w->path);
	free(w);
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

int nvt_writer_open(struct nvt_writer **wp, const char *path,
		    const struct nvt_kv *hdr, size_t nhdr,
		    const struct nvt_writer_opts *opts)
{
	pthread_condattr_t ca;
	struct nvt_writer *w;
	int err;

	*wp = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->schedstat_fd = -1;
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);	/* the sync deadlines' clock */
	pthread_cond_init(&w->cv_ready, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&w->cv_free, NULL);
	atomic_init(&w->err, 0);

	err = apply_opts(w, opts);
	if (err)
		goto fail;
	err = encode_file_header(&w->hdr, w->codec, hdr, nhdr);
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
	w->synced_ns = mono_ns();
	w->first->state = CHUNK_FILLING;
	w->cur = w->first;
	w->app.pos = w->app.end = w->cur->rec;
	w->app.err = &w->err;
	w->app.w = w;
	err = -pthread_create(&w->thread, NULL, writer_thread, w);
	if (err)
		goto fail;
	w->thread_started = true;
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
	int err;

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

	pthread_mutex_lock(&w->mu);
	w->cur->n = (unsigned)(w->app.pos - w->cur->rec);
	if (w->cur->n) {
		w->cur->state = CHUNK_READY;
		if (++w->backlog > w->ring_high)
			w->ring_high = w->backlog;
	}
	w->footer_kv = footer;
	w->nfooter = nfooter;
	w->closing = true;
	pthread_cond_signal(&w->cv_ready);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);

	if (close(w->fd) && errno != EINTR)
		set_error(w, -errno, "close");
	if (bad_kv)
		set_error(w, -EINVAL, "footer key/value rejected (empty key or too long) for");
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
