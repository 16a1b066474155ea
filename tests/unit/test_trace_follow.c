/*
 * test_trace_follow.c - the reader's follow mode (nvt_reader_follow), for a
 * trace still being written: grown a byte at a time, every complete block
 * is returned once, in order, and every call before the next element is
 * complete says -EAGAIN (never a record of a block cut short, never an
 * error); the footer ends it.  Turned off, the same cut reads as
 * truncation.  A trace the analysis follows block by block (trace_stream.h)
 * gives the same series as the post-run analysis of the whole file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_stream.h"
#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_gen.h"
#include "tests/unit/trace_roundtrip.h"
#include "trace/nvtrace.h"

/* The whole file at path into *buf (*len bytes).  Return: 0 or -1. */
static int slurp(const char *path, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY), ok;

	if (fd < 0)
		return -1;
	ok = !fstat(fd, &st) && (*buf = malloc((size_t)st.st_size + 1)) &&
	     read(fd, *buf, (size_t)st.st_size) == st.st_size;
	*len = (size_t)st.st_size;
	close(fd);
	return ok ? 0 : -1;
}

/* The shortest prefix of buf a reader opens (the file header).  Return: its length. */
static size_t header_len(const char *p, const uint8_t *buf, size_t len)
{
	for (size_t n = 1; n <= len; n++) {
		struct nvt_reader *r = NULL;
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644), err;

		if (fd < 0 || write(fd, buf, n) != (ssize_t)n)
			return 0;
		close(fd);
		err = nvt_reader_open(&r, p);
		nvt_reader_close(r);
		if (!err)
			return n;
	}
	return 0;
}

TEST(grown_a_byte_at_a_time)
{
	struct nvt_writer_opts o = { .block_records = 7 };
	const char *src = tpath("src.nvt"), *p = tpath("grow.nvt");
	struct nvt_record *want = NULL;
	struct nvt_reader *r = NULL;
	struct nvt_read_info info;
	uint8_t *buf = NULL;
	size_t n = 40, len = 0, hdr, got = 0;
	int fd, bad = 0, rc = -EAGAIN;

	CHECK_EQ_I64(write_trace(src, GEN_MIXED, 4, 7, n, &o, &want), 0);
	CHECK_EQ_I64(slurp(src, &buf, &len), 0);
	hdr = header_len(p, buf, len);
	CHECK(hdr > 0);
	if (!hdr || nvt_reader_open(&r, p))
		goto out;
	CHECK_EQ_I64(nvt_reader_follow(r, true), 0);
	fd = open(p, O_WRONLY | O_APPEND);
	for (size_t at = hdr; at <= len && fd >= 0; at++) {
		const struct nvt_record *recs;
		size_t k;

		while ((rc = nvt_reader_next_block(r, &recs, &k)) == 1) {
			for (size_t i = 0; i < k; i++)
				bad += got + i >= n || !rec_eq(&recs[i], &want[got + i]);
			got += k;
		}
		if (rc != -EAGAIN || at == len)
			break;
		if (write(fd, buf + at, 1) != 1)
			break;
	}
	if (fd >= 0)
		close(fd);
	nvt_reader_info(r, &info);
	CHECK_EQ_I64(rc, 0);	/* the footer, once the last byte is in */
	CHECK_EQ_I64(bad, 0);
	CHECK_EQ_I64(got, n);
	CHECK(info.footer == 1 && !info.truncated);
	nvt_reader_close(r);
	r = NULL;

	/* cut inside a block: follow waits, off reads it as truncation */
	fd = open(p, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, buf, len / 2) == (ssize_t)(len / 2));
	if (fd >= 0)
		close(fd);
	CHECK_EQ_I64(nvt_reader_open(&r, p), 0);
	CHECK_EQ_I64(nvt_reader_follow(r, true), 0);
	got = 0;
	{
		const struct nvt_record *recs;
		size_t k;

		while ((rc = nvt_reader_next_block(r, &recs, &k)) == 1)
			got += k;
		CHECK_EQ_I64(rc, -EAGAIN);
		CHECK_EQ_I64(nvt_reader_next_block(r, &recs, &k), -EAGAIN);	/* not sticky */
		CHECK_EQ_I64(nvt_reader_follow(r, false), 0);
		CHECK_EQ_I64(nvt_reader_next_block(r, &recs, &k), 0);
	}
	nvt_reader_info(r, &info);
	CHECK(info.truncated && !info.footer && info.records == got && got > 0 && got < n);
out:
	nvt_reader_close(r);
	free(want);
	free(buf);
}

/* Return: whether a and b say the same, field for field. */
static bool iv_eq(const struct nv_tan_iv *a, const struct nv_tan_iv *b)
{
	return a->op == b->op && a->index == b->index && a->start_s == b->start_s &&
	       a->end_s == b->end_s && a->ios == b->ios && a->bytes == b->bytes &&
	       a->errors == b->errors && a->iops == b->iops && a->mb_per_s == b->mb_per_s &&
	       a->p50_ns == b->p50_ns && a->p99_ns == b->p99_ns && a->p999_ns == b->p999_ns &&
	       a->max_ns == b->max_ns;
}

struct seen {
	size_t n;
	struct nv_tan_iv iv[64];
};

static int keep(void *arg, const struct nv_tan *t, const struct nv_tan_closed *c)
{
	struct seen *s = arg;

	(void)t;
	if (s->n < 64)
		s->iv[s->n] = c->iv;
	s->n++;
	return 0;
}

TEST(stream_equals_post_run)
{
	struct nvt_writer_opts o = { .block_records = 500 };
	const char *src = tpath("s.nvt"), *p = tpath("live.nvt");
	struct nv_tan_opts to = { .interval_ns = 2000000 };
	struct nv_tan_stream_opts so = { .interval_ns = 2000000 };
	struct nv_tan_stream *ts = NULL;
	struct seen s = { 0 };
	struct nv_tan t;
	uint8_t *buf = NULL;
	size_t len = 0, need, cut;
	char err[256];
	int fd, rc, bad = 0;

	so.fn = keep;
	so.arg = &s;
	CHECK_EQ_I64(write_trace(src, GEN_MIXED, 8, 3, 6000, &o, NULL), 0);
	CHECK_EQ_I64(slurp(src, &buf, &len), 0);
	CHECK_EQ_I64(nv_tan_run(&src, 1, &to, &t, err, sizeof(err)), 0);
	cut = header_len(p, buf, len);
	CHECK_EQ_I64(nv_tan_stream_new(&ts, &so), 0);
	CHECK_EQ_I64(nv_tan_stream_add(ts, p, err, sizeof(err)), 0);
	fd = open(p, O_WRONLY | O_APPEND);
	for (rc = 1; rc == 1 && fd >= 0 && cut <= len; cut += 997) {	/* odd steps */
		size_t to_ = cut + 997 < len ? cut + 997 : len;

		rc = nv_tan_stream_step(ts, &need, err, sizeof(err));
		if (rc == 1 && write(fd, buf + cut, to_ - cut) != (ssize_t)(to_ - cut))
			break;
	}
	while (rc == 1)
		rc = nv_tan_stream_step(ts, &need, err, sizeof(err));
	if (fd >= 0)
		close(fd);
	CHECK_EQ_I64(rc, 0);
	CHECK(s.n > 3 && s.n <= 64);
	CHECK(s.n >= t.nint);	/* every interval, of every operation seen */
	for (size_t k = 0; k < s.n && k < 64; k++) {
		struct nv_tan_iv want;

		nv_tan_iv_of(&t, s.iv[k].op, s.iv[k].index, &want);
		bad += !iv_eq(&want, &s.iv[k]);
	}
	CHECK_EQ_I64(bad, 0);
	nv_tan_stream_free(ts);
	nv_tan_free(&t);
	free(buf);
}

int main(void)
{
	if (tmpdir_make("test_trace_follow"))
		return 1;
	RUN(grown_a_byte_at_a_time);
	RUN(stream_equals_post_run);
	tmpdir_remove();
	return check_summary();
}
