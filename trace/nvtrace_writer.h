/*
 * nvtrace_writer.h - the trace writer's state (private to trace/), shared by
 * its two halves: nvtrace_write.c (the ring between the IO thread and the
 * writer, the writer's life: open, append, close) and nvtrace_wfile.c (what
 * the writer does with the file: blocks, footer, syncs, the sticky error).
 */
#ifndef NVTRACE_WRITER_H
#define NVTRACE_WRITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_ring.h"
#include "trace/nvtrace_task.h"

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
	uint32_t ready_seq;		/* futex: a chunk became READY, or closing */
	uint32_t free_seq;		/* futex: a chunk became FREE */
	bool writer_sleeping;		/* the writer sleeps on ready_seq */
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
	/* the writer: a thread, or a task of its own session */
	struct nvt_task task;

	/* sticky error: message written before err is published */
	atomic_int err;
	char errmsg[512];
	bool writer_dead;		/* the error is an own-session writer's death */

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

/*
 * The sticky error, unless one is set: "WHAT PATH: strerror(-err)WHY" (what
 * names the action, e.g. "write"; why may be "").  Any side.  Return: nothing.
 */
void nvt_wfile_fail_why(struct nvt_writer *w, int err, const char *what, const char *why);
void nvt_wfile_fail(struct nvt_writer *w, int err, const char *what);

/*
 * The writer's side: write n bytes at the file's end (the header), or encode,
 * compress and write n records as the next block, counting them for the
 * footer.  Return: 0 or the sticky -errno.
 */
int nvt_wfile_emit(struct nvt_writer *w, const uint8_t *buf, size_t n);
int nvt_wfile_block(struct nvt_writer *w, const struct nvt_record *r, unsigned n);

/* The writer's side, closing: the footer (w->footer_kv, then its own keys).  Return: nothing. */
void nvt_wfile_footer(struct nvt_writer *w);

/*
 * The writer's side: fdatasync when the last sync is sync_ns old; fsync the
 * file's directory once (Return: 0 or the sticky -errno); after a sticky
 * error, sync what the file validly holds.  Errors are sticky.
 */
void nvt_wfile_sync_if_due(struct nvt_writer *w);
int nvt_wfile_sync_dir(struct nvt_writer *w);
void nvt_wfile_sync_after_error(struct nvt_writer *w);

/* The file header of a trace with the nhdr pairs hdr, into b.  Return: 0 or -errno. */
int nvt_wfile_header(struct nvt_buf *b, int codec, const struct nvt_kv *hdr, size_t nhdr);

#endif
