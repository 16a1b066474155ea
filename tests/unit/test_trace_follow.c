/*
 * test_trace_follow.c - the reader's follow mode (nvt_reader_follow), for a
 * trace still being written: grown a byte at a time, every complete block
 * is returned once, in order, and every call before the next element is
 * complete says -EAGAIN (never a record of a block cut short, never an
 * error); the footer ends it.  Turned off, the same cut reads as
 * truncation.  A trace the analysis follows block by block (trace_stream.h)
 * gives the same series as the post-run analysis of the whole file, and each
 * interval's fixed histogram and latency sum equal a count record by record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

/* The histogram's edges the stream is given: 1, 2, 5 us ... 10 s, as live.h's. */
static const uint64_t edges[] = {
	1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000,
	5000000, 10000000, 20000000, 50000000, 100000000, 200000000, 500000000, 1000000000,
	2000000000, 5000000000, 10000000000,
};
#define NE (sizeof(edges) / sizeof(edges[0]))

struct seen {
	size_t n;
	struct nv_tan_iv iv[64];
	uint64_t le[64][NE + 1], lat_sum[64];
	uint64_t t0;
};

static int keep(void *arg, const struct nv_tan *t, const struct nv_tan_closed *c)
{
	struct seen *s = arg;

	s->t0 = t->t0;
	if (s->n < 64) {
		s->iv[s->n] = c->iv;
		memcpy(s->le[s->n], c->le, sizeof(s->le[0]));
		s->lat_sum[s->n] = c->lat_sum_ns;
	}
	s->n++;
	return 0;
}

/* Interval k of op (NV_TAN_ALL: every op) of the trace at p counted record by
 * record: its histogram (le, each latency in the first bucket whose edge is
 * at or above it) and the sum of its latencies.  Return: 0 or -1. */
static int count_le(const char *p, uint64_t t0, uint64_t iv, size_t k, unsigned op,
		    uint64_t *le, uint64_t *sum)
{
	struct nvt_reader *r = NULL;
	const struct nvt_record *recs;
	size_t n;
	int rc;

	memset(le, 0, (NE + 1) * sizeof(*le));
	*sum = 0;
	if (nvt_reader_open(&r, p))
		return -1;
	while ((rc = nvt_reader_next_block(r, &recs, &n)) == 1)
		for (size_t i = 0; i < n; i++) {
			uint64_t lat = recs[i].complete_ns - recs[i].submit_ns;
			size_t b = 0;

			if ((recs[i].complete_ns - t0) / iv != k ||
			    (op != NV_TAN_ALL && recs[i].op != op))
				continue;
			while (b < NE && edges[b] < lat)
				b++;
			le[b]++;
			*sum += lat;
		}
	nvt_reader_close(r);
	return rc;
}

TEST(stream_equals_post_run)
{
	struct nvt_writer_opts o = { .block_records = 500 };
	const char *src = tpath("s.nvt"), *p = tpath("live.nvt");
	struct nv_tan_opts to = { .interval_ns = 2000000 };
	struct nv_tan_stream_opts so = { .interval_ns = 2000000, .le_ns = edges, .nle = NE };
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

		uint64_t le[NE + 1], sum;

		nv_tan_iv_of(&t, s.iv[k].op, s.iv[k].index, &want);
		bad += !iv_eq(&want, &s.iv[k]);
		bad += count_le(src, s.t0, so.interval_ns, s.iv[k].index, s.iv[k].op, le, &sum) ||
		       memcmp(le, s.le[k], sizeof(le)) || sum != s.lat_sum[k];
	}
	CHECK_EQ_I64(bad, 0);
	nv_tan_stream_free(ts);
	nv_tan_free(&t);
	free(buf);
}

/* Latencies on both sides of edges, below the per-ns counts' limit (20 us)
 * and above it (100 us, 1 ms: listed values): each in its bucket.  */
TEST(edges_split_exactly)
{
	static const uint64_t around[] = { 20000, 100000, 1000000 };
	struct nv_tan_stream_opts so = { .interval_ns = 1000000000, .le_ns = edges, .nle = NE };
	const char *p = tpath("edges.nvt");
	struct nv_tan_stream *ts = NULL;
	struct nvt_writer *w = NULL;
	struct seen s = { 0 };
	uint64_t le[NE + 1], sum, t = 1000000000;
	size_t need;
	char err[256];
	int rc;

	so.fn = keep;
	so.arg = &s;
	CHECK_EQ_I64(nvt_writer_open(&w, p, hdr_kv, 5, NULL), 0);
	for (unsigned a = 0; w && a < 3; a++)
		for (int64_t d = -300; d <= 300; d++) {
			struct nvt_record r = { .length = 4096, .op = NVT_OP_READ, .qd = 1 };

			t += 1000;
			r.complete_ns = t;
			r.submit_ns = t - (uint64_t)((int64_t)around[a] + d);
			nvt_writer_append(w, &r);
		}
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(nv_tan_stream_new(&ts, &so), 0);
	CHECK_EQ_I64(nv_tan_stream_add(ts, p, err, sizeof(err)), 0);
	while ((rc = nv_tan_stream_step(ts, &need, err, sizeof(err))) == 1)
		;
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(s.n, 1);
	CHECK_EQ_I64(count_le(p, s.t0, so.interval_ns, 0, NVT_OP_READ, le, &sum), 0);
	CHECK(!memcmp(le, s.le[0], sizeof(le)));
	CHECK_EQ_I64(sum, s.lat_sum[0]);
	CHECK_EQ_I64(s.le[0][4], 301);	/* 19700 .. 20000 ns: (10, 20] us */
	CHECK_EQ_I64(s.le[0][6], 301);	/* 99700 .. 100000 ns */
	CHECK_EQ_I64(s.le[0][9], 301);	/* 999700 .. 1000000 ns */
	nv_tan_stream_free(ts);
}

int main(void)
{
	if (tmpdir_make("test_trace_follow"))
		return 1;
	RUN(grown_a_byte_at_a_time);
	RUN(stream_equals_post_run);
	RUN(edges_split_exactly);
	tmpdir_remove();
	return check_summary();
}
