/*
 * nvtrace.h - the per-IO trace: record type, background writer, streaming reader.
 *
 * One codec shared by the engine (writer) and nvanalyze (reader).  The file
 * format is specified in docs/trace-format.md.
 *
 * Writer: nvt_writer_open() starts one background thread; the IO thread calls
 * nvt_writer_append() for every completion, which copies the record into the
 * current in-memory chunk (or nvt_append_slot(), inline, which returns the
 * place in the chunk where the caller writes the record itself).  A full
 * chunk (block_records records, or block_ns of completion time) is handed
 * to the background thread, which encodes, compresses and writes it as one
 * block.  Memory is bounded by nchunks chunks; when all are busy the IO
 * thread waits, records are never dropped.  Any write error is sticky:
 * append and close return it, and nvt_writer_strerror() names the file.
 * One writer has one producer: append and close must be called from one
 * thread at a time.
 *
 * Reader: nvt_reader_open() checks the file header; nvt_reader_next_block()
 * returns the records of one block at a time (memory: one block).  A file
 * cut short is readable up to its last complete block; nvt_reader_info()
 * says how many bytes at the end were unusable and whether the footer was
 * present.  A CRC mismatch is an error (-EBADMSG) naming the block sequence
 * number and file offset; damaged data is never decoded.
 */
#ifndef NV_TRACE_H
#define NV_TRACE_H

#include <stdbool.h>
#include <sys/types.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum nvt_op {
	NVT_OP_READ = 0,
	NVT_OP_WRITE,
	NVT_OP_TRIM,
	NVT_OP_FLUSH,
	NVT_OP_ZEROES,
	NVT_OP_UNCOR,
	NVT_OP_VERIFY,
	NVT_OP__MAX
};

/* "read", "write", "trim", "flush", "zeroes", "uncor", "verify"; NULL if out of range. */
const char *nvt_op_name(unsigned op);
/* The inverse of nvt_op_name(): the op number, or -1 for an unknown word. */
int nvt_op_parse(const char *name);

struct nvt_record {
	uint64_t submit_ns;	/* CLOCK_MONOTONIC ns at submission */
	uint64_t complete_ns;	/* CLOCK_MONOTONIC ns when the completion was reaped */
	uint64_t offset;	/* bytes */
	uint32_t length;	/* bytes */
	/* 0 ok, >0 NVMe status as the kernel returns it, <0 -errno */
	int32_t status;
	uint16_t qd;		/* IOs in flight at submission, this one included */
	uint8_t op;		/* enum nvt_op */
	uint8_t file;		/* index in the job's file list */
};

struct nvt_kv {
	const char *key;	/* non-empty, no NUL inside (it is a C string) */
	const char *value;	/* C string, may be empty */
};

/* Limits the format imposes (see docs/trace-format.md). */
#define NVT_MAX_BLOCK_RECORDS	(1u << 20)
#define NVT_MAX_KV_BYTES	(16u << 20)

/*
 * NVT_SCHED_NORMAL: the writer thread inherits the caller's policy.
 * NVT_SCHED_IDLE: it runs as SCHED_IDLE, only on CPU time nothing else wants,
 * so that on a machine whose cores the IO path keeps busy it does not take
 * turns with the IO threads; if it falls behind, appends wait (nothing is
 * dropped).  Best effort: where the kernel refuses the policy the thread runs
 * as NORMAL.  A writer denied CPU this way makes the IO loop wait.
 * NVT_SCHED_AUTO: SCHED_IDLE while at most a quarter of the chunks wait for
 * it; once half of them do, the IO thread promotes it to the caller's
 * policy (SCHED_OTHER), and it goes back to SCHED_IDLE when none waits.
 * Where leaving SCHED_IDLE is not permitted (no CAP_SYS_NICE, RLIMIT_NICE
 * too low) it runs as NORMAL throughout.
 */
enum nvt_writer_sched { NVT_SCHED_NORMAL = 0, NVT_SCHED_IDLE = 1, NVT_SCHED_AUTO = 2 };

enum nvt_writer_codec {
	NVT_WRITER_ZSTD = 0,	/* zstd frames (the default) */
	NVT_WRITER_ZLIB = 1,	/* zlib streams, as every trace before format 1.2 */
};

struct nvt_writer_opts {
	int zlevel;		/* compression level 1..9; 0 selects the default, 1 */
	enum nvt_writer_codec codec;	/* the blocks' compressor */
	/* max records per block; 0: 65536; at most NVT_MAX_BLOCK_RECORDS */
	unsigned block_records;
	uint64_t block_ns;	/* max completion-time span of a block; 0: 1e9 (1 s) */
	unsigned nchunks;	/* in-memory chunks (>= 2); 0: 4 */
	enum nvt_writer_sched sched;	/* the writer thread's scheduling class */
	/* 0: never fdatasync; else at most every sync_ms ms (see below) */
	unsigned sync_ms;
	unsigned buffer_ms;	/* buffer by time (below); 0: the ring stays nchunks */
	bool own_session;	/* the writer as a task of its own session (below) */
};

/*
 * own_session: the writer runs as a task that shares the caller's memory
 * but is scheduled in a session (under autogroup: a group) of its own
 * (trace/nvtrace_task.h), for a caller that is a process in a session of its
 * own under autogroup scheduling, as fio's job processes are: a writer
 * thread would share the job's one CPU share with the job's io-wq workers.
 * The task dies with the thread that opened the writer, which must be the
 * one that closes it; a task killed by a signal makes appends and close
 * fail with -EPIPE (the message names the signal), never hang.  The footer
 * then says writer.process = own-session.  Where the task cannot be started
 * (a sandbox that refuses clone(2) of a process) the writer is a thread.
 * Open returns NVT_SESSION_SETTLE_MS
 * after the task started: IO begun sooner (fio starts every job at once)
 * stalled for 0.2-0.4 s in 7 of 8 runs of 8 jobs on 2 CPUs while the
 * scheduler took in the new groups, in none of 5 after 500 ms (measured:
 * docs/trace.md, "What survives what").
 */
#define NVT_SESSION_SETTLE_MS	500u

/*
 * Buffer by time (buffer_ms): when the IO thread needs a chunk and the next
 * one still waits for the writer thread, it adds a chunk to the ring instead
 * of waiting, as long as the records not yet written span less than
 * buffer_ms of completion time and the ring holds less than
 * NVT_RING_MAX_BYTES of records (NVT_RING_MAX_CHUNKS chunks at most, never
 * fewer than nchunks).  So a writer or disk pause shorter than buffer_ms
 * (less the backlog it began with) never makes an append wait; the ring
 * grows only while the writer is behind and keeps its size until close.
 * Memory per writer: 40 B x block_records x chunks, at most
 * max(nchunks x 40 B x block_records, NVT_RING_MAX_BYTES).
 */
#define NVT_RING_MAX_BYTES	(128u << 20)
#define NVT_RING_MAX_CHUNKS	65536u
#define NVT_MAX_BUFFER_MS	60000u

/*
 * Durability (sync_ms): blocks reach the file in order, each with one
 * write(2) per part; a written block is fdatasync'ed at most sync_ms after
 * it was written and syncs are at least sync_ms apart; the footer is synced
 * before close returns.  After a power cut the file thus holds every block
 * written more than sync_ms (plus one fdatasync) before it, and the reader
 * rejects a block the cut damaged (its CRCs).  With sync_ms the directory
 * is fsync'ed after the file is created, and after a sticky write error the
 * complete blocks and the truncation of a half-written one are still synced
 * (not after a failed fdatasync).  At most NVT_MAX_SYNC_MS.
 */
#define NVT_MAX_SYNC_MS	3600000u

struct nvt_writer;

/*
 * Create (truncate) the trace file at path and start the writer thread.  The
 * header (hdr, nhdr key/value pairs; copied) is written by the thread, so a
 * write error on it shows up as the sticky error of append/close.  opts may
 * be NULL.  Returns 0, or -errno (-EINVAL for bad opts or a bad kv, the
 * open(2) or pthread_create error otherwise) with *w = NULL.
 */
int nvt_writer_open(struct nvt_writer **w, const char *path,
		    const struct nvt_kv *hdr, size_t nhdr,
		    const struct nvt_writer_opts *opts);

/*
 * Hot path: copy *r into the current chunk.  May block while all chunks wait
 * for the writer thread.  Returns 0, -EINVAL for an op >= NVT_OP__MAX (not
 * stored, not sticky), or the sticky -errno once the writer thread failed
 * (the record is then not stored; the job must fail).
 */
int nvt_writer_append(struct nvt_writer *w, const struct nvt_record *r);

/*
 * In-place appends, for an IO thread that writes each record where the
 * writer keeps it (no copy, no call on most records): take the writer's
 * appender once after open (nvt_writer_appender), then for every
 * completion, in completion-time order, nvt_append_slot(a, complete_ns)
 * returns the record to fill, which the caller fills completely (op <
 * NVT_OP__MAX) before its next call on this writer (slot, append or close).
 * The fields are the writer's; read them only through these functions.
 */
struct nvt_appender {
	struct nvt_record *pos;		/* the next free record of the current chunk */
	struct nvt_record *end;		/* its end; pos == end on a chunk not begun */
	uint64_t seal_ns;		/* a completion at or after this goes to the next chunk */
	const atomic_int *err;		/* the writer's sticky error */
	struct nvt_writer *w;
};

/* The appender of w (valid until close).  Return: it. */
struct nvt_appender *nvt_writer_appender(struct nvt_writer *w);

/*
 * nvt_append_slot when the chunk is full, its time is up, not begun, or the
 * writer failed: seals the chunk and takes the next (waiting while every
 * chunk is busy, as append does).  Return: the record to fill, or NULL once
 * the writer has failed (nvt_writer_strerror says why; nothing more is
 * stored).
 */
struct nvt_record *nvt_append_slot_slow(struct nvt_appender *a, uint64_t complete_ns);

/*
 * Hot path: the record that completed at complete_ns goes here.  Return: the
 * place to fill, or NULL once the writer has failed (see above).  A record
 * with op >= NVT_OP__MAX fails the writer when its block is encoded
 * (-EINVAL, sticky).
 */
static inline struct nvt_record *nvt_append_slot(struct nvt_appender *a, uint64_t complete_ns)
{
	if (__builtin_expect(a->pos < a->end && (int64_t)(complete_ns - a->seal_ns) < 0 &&
			     !atomic_load_explicit(a->err, memory_order_relaxed), 1))
		return a->pos++;
	return nvt_append_slot_slow(a, complete_ns);
}

/*
 * Seal the last block, write the footer (per-op totals, time index, the
 * footer kv), join the thread, close the file and free w (w may be NULL).
 * Returns 0 or the first error.  The message: nvt_writer_strerror() before
 * close, or through nvt_writer_close_msg()'s errbuf (may be NULL), which gets
 * a copy since w is gone on return.  A footer kv that cannot be stored is
 * left out (the footer is still written) and close returns -EINVAL.
 */
int nvt_writer_close(struct nvt_writer *w, const struct nvt_kv *footer, size_t nfooter);
int nvt_writer_close_msg(struct nvt_writer *w, const struct nvt_kv *footer, size_t nfooter,
			 char *errbuf, size_t errlen);

/*
 * How many times append had to wait because every chunk was busy (the
 * writer thread fell behind).  Call from the appending thread; an engine
 * may report it so a user sees that tracing slowed the IO loop.  The
 * footer records it (writer.io_waits) and the time those waits took
 * (writer.io_wait_ns).  Return: the count.
 */
uint64_t nvt_writer_waits(const struct nvt_writer *w);

/* The ring as the writer's mutex sees it now (nvt_writer_stats). */
struct nvt_writer_stats {
	uint64_t waits;		/* times an append waited for a free chunk */
	bool waiting;		/* an append waits now */
	unsigned chunks;	/* chunks in the ring */
	unsigned ring_high;	/* most chunks waiting for the writer at once */
	unsigned backlog;	/* chunks waiting for the writer now */
	/* the writer's tid (own session: its pid); 0 before it runs */
	pid_t writer;
};

/*
 * A snapshot of w's ring, from any thread (takes the writer's mutex), e.g. a
 * monitor or a test that tells whether the IO thread is held.  Return: nothing.
 */
void nvt_writer_stats(struct nvt_writer *w, struct nvt_writer_stats *s);

/* The sticky error as text, e.g. "write /path/trace.nvt: No space left on device"; "" if none. */
const char *nvt_writer_strerror(struct nvt_writer *w);

/* Per-operation totals, as stored in the footer. */
struct nvt_totals {
	uint64_t records;
	uint64_t bytes;		/* sum of length */
	uint64_t errors;	/* records with status != 0 */
};

struct nvt_footer {
	uint32_t blocks;
	uint64_t records;
	uint64_t min_complete_ns, max_complete_ns;	/* 0, 0 if no records */
	struct nvt_totals op[NVT_OP__MAX];
	uint32_t index_stride;	/* every index_stride-th block is indexed */
	uint32_t nindex;
	struct nvt_index_entry {
		uint64_t file_offset;	/* of the block header */
		uint64_t min_complete_ns;
		uint32_t seq;
		uint32_t nrec;
	} *index;
	size_t nkv;
	struct nvt_kv *kv;
};

struct nvt_reader;

/* What the reader has seen so far; final once next_block returned 0 or < 0. */
struct nvt_read_info {
	unsigned major, minor;	/* format version of the file */
	uint32_t blocks;	/* complete, verified blocks returned */
	uint64_t records;	/* records in them */
	uint64_t used_bytes;	/* header + those blocks (+ footer) */
	uint64_t unused_bytes;	/* bytes after that which could not be used */
	int footer;		/* 1: a valid footer was read and matched the blocks */
	int truncated;		/* 1: the file ends inside a block or the footer, or
				 * without footer */
	uint64_t last_block_offset;	/* file offset of the last good block's header */
};

/*
 * Open path (or "-" for stdin) and verify the file header.  Returns 0, or
 * -errno: -EINVAL not an nvtrace file, -ENOTSUP unsupported major version,
 * -EBADMSG damaged or truncated header, or the open/read error.  On failure
 * *r is still set when errmsg is wanted: call nvt_reader_strerror(*r) and
 * then nvt_reader_close(*r); *r is NULL only when out of memory.
 */
int nvt_reader_open(struct nvt_reader **r, const char *path);

/*
 * Read the next block: *recs points to its *n records (valid until the next
 * call).  Returns 1 with a block, 0 at the end of usable data (clean end or
 * truncation: see nvt_reader_info), or -errno on damage (-EBADMSG: CRC
 * mismatch, bad framing, footer inconsistent with the blocks) or I/O error;
 * the message names the block sequence number and file offset.
 */
int nvt_reader_next_block(struct nvt_reader *r, const struct nvt_record **recs, size_t *n);

/*
 * Columns of one block (nvt_reader_next_cols), for consumers that need only
 * some fields: the reader then skips the work of the others (their values
 * are still checked, so a block is accepted or rejected exactly as by
 * nvt_reader_next_block).  complete_ns is always filled; the other arrays
 * only when their NVT_COL_* bit was asked for (else NULL).  Value i of every
 * array belongs to record i of the block, as nvt_reader_next_block returns
 * it.
 */
enum nvt_col {
	NVT_COL_LATENCY = 1u << 0,	/* complete_ns - submit_ns, mod 2^64 */
	NVT_COL_OFFSET = 1u << 1,
	NVT_COL_LENGTH = 1u << 2,
	NVT_COL_STATUS = 1u << 3,
	NVT_COL_QD = 1u << 4,
	NVT_COL_OP = 1u << 5,
	NVT_COL_FILE = 1u << 6,
	NVT_COL_ALL = (1u << 7) - 1,
};

struct nvt_cols {
	size_t n;			/* records in the block */
	unsigned uniform;		/* NVT_COL_* of wanted columns known to hold one value
					 * n times (a constant column); a clear bit proves
					 * nothing */
	uint64_t min_complete_ns, max_complete_ns;
	bool back;			/* a record completes before the one before it */
	uint64_t *complete_ns;
	uint64_t *latency_ns;
	uint64_t *offset;
	uint32_t *length;
	int32_t *status;
	uint16_t *qd;
	uint8_t *op;
	uint8_t *file;
};

/*
 * nvt_reader_next_block, as columns: want is a set of NVT_COL_* bits; *c
 * points to the block's columns (valid until the next call, owned by the
 * reader).  Same returns, checks and errors as nvt_reader_next_block; a
 * reader may mix the two calls from block to block.
 */
int nvt_reader_next_cols(struct nvt_reader *r, unsigned want, const struct nvt_cols **c);

/*
 * Position the reader at the last indexed block that starts at or before
 * complete time t_ns (from the footer's index; records with complete_ns >= t
 * follow if completion times are non-decreasing, as the engine writes them).
 * Needs a seekable file with a valid footer.  Returns 0 or -errno
 * (-ENOENT: no footer/index, -ESPIPE: not seekable).
 */
int nvt_reader_seek_time(struct nvt_reader *r, uint64_t t_ns);

/* Header kv pairs, in file order. */
size_t nvt_reader_nkv(const struct nvt_reader *r);
const struct nvt_kv *nvt_reader_kv(const struct nvt_reader *r);
/* The value for key in the header, or NULL. */
const char *nvt_reader_get(const struct nvt_reader *r, const char *key);
/*
 * The value of key in the footer's kv area, into *value (NULL when the footer
 * lacks the key).  The footer is read from the end of the file when the
 * blocks have not been read yet (seekable files), without moving the
 * reader.  Returns 0, -ENOENT (no valid footer: truncated), -ESPIPE (not
 * seekable) or -ENOMEM.
 */
int nvt_reader_footer_get(struct nvt_reader *r, const char *key, const char **value);
/*
 * The footer's record count (all blocks), read from the end of the file
 * when the blocks have not been read yet, as nvt_reader_footer_get: a hint
 * before the blocks are verified (a progress line's total).  Returns 0 with
 * *records set, -ENOENT (no valid footer), -ESPIPE (not seekable) or
 * -ENOMEM.
 */
int nvt_reader_footer_records(struct nvt_reader *r, uint64_t *records);
/*
 * Follow mode (on), for a trace still being written (nvanalyze watch): where
 * the file ends inside a block or the footer, or before the footer, the
 * next_block/next_cols call returns -EAGAIN, not sticky, and the reader
 * stays at that element's start: call again once the file grew.  Only
 * complete, verified blocks are ever returned; damage is still -EBADMSG.
 * Turned off, the next call reads the end as truncation (a writer that
 * died).  Return: 0, or -ESPIPE for a file that is not seekable.
 */
int nvt_reader_follow(struct nvt_reader *r, bool on);
/* Return: the bytes consumed from the file so far (the next element's offset). */
uint64_t nvt_reader_pos(const struct nvt_reader *r);
/* Return: the reader's file descriptor (fstat: a trace truncated or replaced). */
int nvt_reader_fd(const struct nvt_reader *r);
/* The footer once it has been read (after next_block returned 0), else NULL. */
const struct nvt_footer *nvt_reader_footer(const struct nvt_reader *r);
void nvt_reader_info(const struct nvt_reader *r, struct nvt_read_info *info);
/* Last error message, naming the file; "" if none. */
const char *nvt_reader_strerror(const struct nvt_reader *r);
const char *nvt_reader_path(const struct nvt_reader *r);
void nvt_reader_close(struct nvt_reader *r);

/*
 * The buffers a reader reads and decodes a block in (its stored bytes, its
 * payload, the decoding's scratch, the decompressors): only the block being read needs them,
 * the columns and records returned are elsewhere.  A caller that keeps many
 * readers open but reads with a few at a time (one job's thread traces
 * going interval by interval) lends each reader, while it reads, the
 * scratch of the thread reading: one scratch per thread instead of per
 * reader.  Zeroed: empty (grown as blocks need).
 */
struct ZSTD_DCtx_s;
struct z_stream_s;

struct nvt_scratch {
	uint8_t *comp, *raw;
	uint64_t *tmp;
	size_t comp_cap, raw_cap, tmp_cap;
	struct ZSTD_DCtx_s *zd;		/* the decompressors, made on first need: */
	struct z_stream_s *z;		/* 95 KiB a zstd one, not one per trace */
};

/*
 * The block nvt_reader_next_cols returned kept from record `from` on only,
 * packed (nvtrace_pack.h: a constant column as one value, times and
 * latencies as 32-bit offsets where they fit), its column arrays freed: a
 * reader held between reads holds its block's rest, small.  The view
 * returned must not be read until nvt_reader_unpack_rest gives it back; a
 * next_cols call first passes over a rest not taken back.
 * Return: 0, -EINVAL (from past the block's end) or -ENOMEM (the view as it was).
 */
int nvt_reader_keep_rest(struct nvt_reader *r, size_t from);
/*
 * The rest nvt_reader_keep_rest kept, unpacked into the view next_cols
 * returned (the same pointer), bit for bit what it held from `from` on, at
 * the front.  Return: 1 (the view holds it), 0 (no rest held, or an empty
 * one: the view holds no record) or -ENOMEM.
 */
int nvt_reader_unpack_rest(struct nvt_reader *r);

/* r reads its next blocks in s (NULL: its own again); s outlives that use and
 * is used by one reader at a time.  Return: nothing. */
void nvt_reader_scratch(struct nvt_reader *r, struct nvt_scratch *s);

/* Return: nothing; s's buffers freed, s empty. */
void nvt_scratch_free(struct nvt_scratch *s);

#endif
