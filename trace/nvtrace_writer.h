/*
 * nvtrace_writer.h - the trace writer's state (private to trace/), shared
 * by the IO thread's side (nvtrace_write.c: the ring, the writer process's
 * loop, open and close) and the file's side (nvtrace_wfile.c: blocks,
 * footer and syncs, all in the writer process).  The struct lives in memory
 * shared by the two processes (nvtrace_proc.h); its fields say whose they are.
 */
#ifndef NVTRACE_WRITER_H
#define NVTRACE_WRITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/nvtrace_clock.h"
#include "trace/nvtrace_fmt.h"
#include "trace/nvtrace_ring.h"
#include "trace/nvtrace_sched.h"

/* Room for the footer kv the IO thread hands the writer process at close. */
#define FOOTER_KV_AREA	(1u << 20)

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
	struct nvt_arena arena;		/* where chunks come from (the IO thread's) */
	size_t map_len;			/* the shared mapping, at this struct */
	char *kv_area;			/* FOOTER_KV_AREA bytes in it for the footer kv */
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
	uint64_t promotions;		/* AUTO: times promoted */
	const struct nvt_kv *footer_kv;	/* in kv_area */
	size_t nfooter;
	pid_t writer_pid;		/* the writer process */
	int writer_status;		/* its waitpid status once ended */
	bool writer_ended;		/* reaped (or known gone) */
	bool writer_done;		/* it finished: footer written or error set */

	/* sticky error: message written before err is published */
	atomic_int err;
	char errmsg[512];

	/* writer-thread side */
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
 * Make err the sticky error with "WHAT PATH: strerror(err)WHY" as its text,
 * unless one is already set.  Return: nothing.
 */
void nvt_writer_set_error_why(struct nvt_writer *w, int err, const char *what, const char *why);
void nvt_writer_set_error(struct nvt_writer *w, int err, const char *what);

/*
 * Lock w's mutex.  Taken over from a writer process that died holding it:
 * a sticky error on the IO thread's side.  Return: nothing.
 */
void nvt_writer_lock(struct nvt_writer *w);

/* In the writer process (nvtrace_wfile.c), each error sticky: */

/* Write n bytes at the file's end.  Return: 0 or -errno. */
int nvt_wfile_emit(struct nvt_writer *w, const uint8_t *buf, size_t n);

/* Encode, compress and write the n records as one block; totals.  Return: 0 or -errno. */
int nvt_wfile_block(struct nvt_writer *w, const struct nvt_record *r, unsigned n);

/* The footer: the IO thread's kv, then the writer's own keys.  Return: nothing. */
void nvt_wfile_footer(struct nvt_writer *w);

/* fsync the directory that holds the new file.  Return: 0 or -errno. */
int nvt_wfile_sync_dir(struct nvt_writer *w);

/* fdatasync if the last one is sync_ms old and blocks wait.  Return: nothing. */
void nvt_wfile_sync_if_due(struct nvt_writer *w);

/* After a sticky error: sync what the file validly holds.  Return: nothing. */
void nvt_wfile_sync_after_error(struct nvt_writer *w);

#endif
