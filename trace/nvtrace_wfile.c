/*
 * nvtrace_wfile.c - what the trace writer does with its file: blocks encoded,
 * compressed and written in order (a block cut short by a full disk is cut
 * off again), the footer, fdatasync on the sync_ms schedule, the directory's
 * fsync, the time each took, and the sticky error (nvtrace_write.c: the ring
 * and the writer's life; docs/trace-format.md: the bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace/nvtrace_clock.h"
#include "trace/nvtrace_sched.h"
#include "trace/nvtrace_writer.h"

void nvt_wfile_fail_why(struct nvt_writer *w, int err, const char *what, const char *why)
{
	if (atomic_load_explicit(&w->err, memory_order_relaxed))
		return;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s %s: %s%s", what, w->path, strerror(-err), why);
	atomic_store_explicit(&w->err, err, memory_order_release);
}

void nvt_wfile_fail(struct nvt_writer *w, int err, const char *what)
{
	nvt_wfile_fail_why(w, err, what, "");
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
	uint64_t t = nvt_mono_ns() - t0, q = nvt_sched_runq_wait_ns(w->schedstat_fd) - q0;

	return q < t ? t - q : 0;
}

/* write_all, its time added to the writer's write_ns.  Return: 0 or -errno. */
static int write_timed(struct nvt_writer *w, const uint8_t *buf, size_t n)
{
	uint64_t q0 = nvt_sched_runq_wait_ns(w->schedstat_fd), t0 = nvt_mono_ns();
	int err = write_all(w->fd, buf, n);

	w->write_ns += disk_time(w, t0, q0);
	return err;
}

int nvt_wfile_emit(struct nvt_writer *w, const uint8_t *buf, size_t n)
{
	int err = write_timed(w, buf, n);

	if (err) {
		nvt_wfile_fail(w, err, "write");
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
				 "and cutting it off failed: %s)", w->seq, got, len,
				 strerror(errno));
		else
			snprintf(why, sizeof(why), " (block %u half written, %llu of %zu bytes: "
				 "cut off, the file ends after its %u complete blocks)", w->seq,
				 got, len, w->seq);
	}
	nvt_wfile_fail_why(w, err, "write", why);
}

/* fdatasync the file now.  Return: 0 or the sticky -errno. */
static int sync_now(struct nvt_writer *w)
{
	uint64_t q0 = nvt_sched_runq_wait_ns(w->schedstat_fd), t0 = nvt_mono_ns();
	int rc = fdatasync(w->fd);
	uint64_t d = disk_time(w, t0, q0);

	w->fdatasync_ns += d;
	if (d > w->fdatasync_max_ns)
		w->fdatasync_max_ns = d;
	if (rc) {
		int err = -errno;

		w->sync_failed = true;
		nvt_wfile_fail(w, err, "fdatasync");
		return err;
	}
	w->syncs++;
	w->dirty = false;
	w->synced_ns = nvt_mono_ns();
	return 0;
}

/* After a block: sync if the last sync is sync_ns old.  Return: nothing (errors are sticky). */
void nvt_wfile_sync_if_due(struct nvt_writer *w)
{
	if (w->sync_ns && w->dirty && !atomic_load_explicit(&w->err, memory_order_relaxed) &&
	    nvt_mono_ns() - w->synced_ns >= w->sync_ns)
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
int nvt_wfile_block(struct nvt_writer *w, const struct nvt_record *r, unsigned n)
{
	uint8_t hb[NVT_BLOCK_HDR_LEN];
	uint64_t start = w->file_off;
	struct nvt_block_hdr h;
	int err;

	err = nvt_encoder_block(&w->enc, r, n, w->seq, &h);
	if (err) {
		nvt_wfile_fail(w, err, "encode block for");
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

#define FOOTER_OWN 17	/* the writer's own footer keys (and writer.process) */

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
 * fdatasync (writer.fdatasync_max_ns); a writer in a session of its own
 * (nvtrace_task.h) adds writer.process = own-session.
 */
void nvt_wfile_footer(struct nvt_writer *w)
{
	static const char *const keys[FOOTER_OWN] = {
		"writer.cpu_ns", "writer.io_waits", "writer.io_wait_ns", "writer.sync_ms",
		"writer.syncs", "writer.write_ns", "writer.fdatasync_ns", "writer.runq_wait_ns",
		"writer.ring_high", "writer.ring_chunks", "writer.promotions", "writer.buffer_ms",
		"writer.ring_max", "writer.ring_grow_ns", "writer.fdatasync_max_ns",
		"writer.sched", "writer.sched_effective",
	};
	static const char *const sched[] = { "normal", "idle", "auto" };
	char val[FOOTER_OWN][32];
	unsigned long long v[FOOTER_OWN - 2];
	struct nvt_buf b = { 0 };
	struct nvt_kv *kv;
	struct timespec ts;
	size_t n = w->nfooter;
	int err;

	kv = malloc((w->nfooter + FOOTER_OWN + 1) * sizeof(*kv));
	if (!kv) {
		nvt_wfile_fail(w, -ENOMEM, "encode footer for");
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
	if (w->task.own_session) {
		kv[n].key = "writer.process";
		kv[n++].value = "own-session";
	}
	w->foot.kv = kv;
	w->foot.nkv = n;
	err = nvt_footer_encode(&w->foot, &b);
	w->foot.kv = NULL;
	w->foot.nkv = 0;
	free(kv);
	if (err)
		nvt_wfile_fail(w, err, "encode footer for");
	else if (!nvt_wfile_emit(w, b.p, b.len) && w->sync_ns)
		sync_now(w);	/* a closed trace is on the disk */
	nvt_buf_free(&b);
}

/*
 * fsync the directory that holds the new file, so that its entry survives a
 * power cut (some file systems do not order it with the file's data).  A
 * file system that cannot sync a directory (EINVAL) has nothing to sync.
 * Return: 0 or the sticky -errno.
 */
int nvt_wfile_sync_dir(struct nvt_writer *w)
{
	char *dir = strdup(w->path), *slash;
	int fd, err = 0;

	if (!dir) {
		nvt_wfile_fail(w, -ENOMEM, "fsync the directory of");
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
		nvt_wfile_fail(w, err, "fsync the directory of");
	return err;
}

/*
 * After a sticky error: sync what the file validly holds (its complete
 * blocks and the truncation of a half-written one), unless the error was
 * fdatasync's own (the kernel may have dropped the pages: a retry proves
 * nothing).  Return: nothing (the first error stays the one reported).
 */
void nvt_wfile_sync_after_error(struct nvt_writer *w)
{
	if (w->sync_ns && !w->sync_failed)
		sync_now(w);
}

/*
 * The file header: magic, version, kv length, kv area, CRC.  The version is
 * the oldest that holds the file: 1.2 with zstd blocks, 1.1 with zlib ones
 * (older readers read those).
 */
int nvt_wfile_header(struct nvt_buf *b, int codec, const struct nvt_kv *hdr,
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
