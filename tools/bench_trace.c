/*
 * bench_trace - trace writer throughput and size.
 *
 *   bench_trace [-n RECORDS] [-z LEVEL] [-p randread|seqwrite|mixed] [-o FILE]
 *   bench_trace -i TRACE...
 *
 * Pre-generates a synthetic completion stream (tests/unit/trace_gen.h, QD 32),
 * then reports:
 *   encode: one thread encoding + compressing blocks of 65536 records, no I/O
 *           (the background thread's work; the issue's >= 5 M records/s goal),
 *           per wall second and per CPU second (the latter is what counts on
 *           a loaded machine);
 *   append: nvt_writer_append() of every record then nvt_writer_close(), to
 *           FILE (default /tmp/bench_trace.nvt), i.e. the
 *           IO thread's view including waits for the writer thread;
 *   size:   bytes per IO of the trace written;
 *   read:   streaming read-back rate.
 * With -i it reads the given traces instead and prints, per trace, its
 * records, bytes and header and footer key/value pairs ("records N",
 * "bytes N", "header KEY=VALUE", "footer KEY=VALUE"): tools/bench.sh takes
 * the trace writer's CPU time per record from the footer's writer.cpu_ns.
 * Built by `make bench-trace`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One thread: encode + compress + CRC every block, as the writer thread does. */
static double bench_encode(const struct nvt_record *r, size_t n, int codec, int level,
			   size_t *bytes, double *cpu)
{
	const unsigned B = 65536;
	struct nvt_encoder e;
	struct nvt_block_hdr h;
	double t0;

	if (nvt_encoder_init(&e, codec, level, B)) {
		fprintf(stderr, "bench_trace: out of memory\n");
		exit(2);
	}
	*bytes = 0;
	*cpu = cpu_s(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_s();
	for (size_t i = 0; i < n; i += B) {
		unsigned k = n - i < B ? (unsigned)(n - i) : B;

		if (nvt_encoder_block(&e, r + i, k, (uint32_t)(i / B), &h)) {
			fprintf(stderr, "bench_trace: encode failed\n");
			exit(2);
		}
		*bytes += h.comp_len + NVT_BLOCK_HDR_LEN;
	}
	t0 = now_s() - t0;
	*cpu = cpu_s(CLOCK_THREAD_CPUTIME_ID) - *cpu;
	nvt_encoder_free(&e);
	return t0;
}

/* -i: the records, size and kv pairs of one trace on stdout; 0, or 2 with a message. */
static int trace_info(const char *path)
{
	const struct nvt_footer *f;
	const struct nvt_record *recs;
	const struct nvt_kv *kv;
	struct nvt_read_info info;
	struct nvt_reader *rd;
	size_t k, i;
	int err;

	err = nvt_reader_open(&rd, path);
	if (err) {
		fprintf(stderr, "bench_trace: %s\n",
			rd ? nvt_reader_strerror(rd) : strerror(-err));
		nvt_reader_close(rd);
		return 2;
	}
	while ((err = nvt_reader_next_block(rd, &recs, &k)) == 1)
		;
	nvt_reader_info(rd, &info);
	f = nvt_reader_footer(rd);
	if (err || !f) {
		fprintf(stderr, "bench_trace: %s: %s\n", path,
			err ? nvt_reader_strerror(rd) : "no footer (trace not closed)");
		nvt_reader_close(rd);
		return 2;
	}
	printf("trace %s\nrecords %llu\nbytes %llu\n", path, (unsigned long long)info.records,
	       (unsigned long long)info.used_bytes);
	kv = nvt_reader_kv(rd);
	for (i = 0; i < nvt_reader_nkv(rd); i++)
		printf("header %s=%s\n", kv[i].key, kv[i].value);
	for (i = 0; i < f->nkv; i++)
		printf("footer %s=%s\n", f->kv[i].key, f->kv[i].value);
	nvt_reader_close(rd);
	return 0;
}

int main(int argc, char **argv)
{
	enum gen_pattern pat = GEN_RANDREAD;
	size_t n = 8u << 20, bytes;
	const char *path = "/tmp/bench_trace.nvt";
	struct nvt_writer_opts o = { 0 };
	struct nvt_record *r;
	struct nvt_writer *w;
	struct nvt_reader *rd;
	const struct nvt_record *recs;
	struct stat st;
	struct gen g;
	double t, c, ec;
	size_t k, got = 0;
	int opt, err;

	while ((opt = getopt(argc, argv, "n:z:c:p:o:ih")) != -1) {
		switch (opt) {
		case 'i':
			for (err = 0; optind < argc && !err; optind++)
				err = trace_info(argv[optind]);
			return err;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'z': o.zlevel = atoi(optarg); break;
		case 'c':
			if (strcmp(optarg, "zstd") && strcmp(optarg, "zlib")) {
				fprintf(stderr, "bench_trace: -c %s: zstd or zlib\n", optarg);
				return 2;
			}
			o.codec = strcmp(optarg, "zlib") ? NVT_WRITER_ZSTD : NVT_WRITER_ZLIB;
			break;
		case 'o': path = optarg; break;
		case 'p':
			if (gen_pattern_parse(optarg, &pat)) {
				fprintf(stderr, "bench_trace: unknown pattern %s\n", optarg);
				return 2;
			}
			break;
		default:
			printf("usage: bench_trace [-n RECORDS] [-z LEVEL] [-c zstd|zlib] "
			       "[-p randread|seqwrite|mixed] "
			       "[-o FILE]\n       bench_trace -i TRACE...\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	r = malloc(n * sizeof(*r));
	if (!r || !n) {
		fprintf(stderr, "bench_trace: cannot allocate %zu records\n", n);
		return 2;
	}
	gen_init(&g, pat, 32, 1);
	for (size_t i = 0; i < n; i++)
		gen_record(&g, &r[i]);

	t = bench_encode(r, n, o.codec == NVT_WRITER_ZLIB ? NVT_CODEC_ZLIB : NVT_CODEC_ZSTD,
			 o.zlevel ? o.zlevel : 1, &bytes, &ec);
	printf("encode  %.2f M records/s wall, %.2f M per CPU second (one thread, %s level %d, "
	       "%.3f bytes/IO)\n", n / t / 1e6, n / ec / 1e6,
	       o.codec == NVT_WRITER_ZLIB ? "zlib" : "zstd", o.zlevel ? o.zlevel : 1,
	       (double)bytes / n);

	err = nvt_writer_open(&w, path, NULL, 0, &o);
	if (err) {
		fprintf(stderr, "bench_trace: %s: %s\n", path, strerror(-err));
		return 2;
	}
	c = cpu_s(CLOCK_PROCESS_CPUTIME_ID);
	t = now_s();
	for (size_t i = 0; i < n && !err; i++)
		err = nvt_writer_append(w, &r[i]);
	err = nvt_writer_close(w, NULL, 0);
	t = now_s() - t;
	c = cpu_s(CLOCK_PROCESS_CPUTIME_ID) - c;
	if (err) {
		fprintf(stderr, "bench_trace: %s\n", strerror(-err));
		return 2;
	}
	stat(path, &st);
	printf("append  %.2f M records/s end to end (%.2f s wall, %.2f s CPU both threads)\n",
	       n / t / 1e6, t, c);
	printf("size    %.3f bytes/IO (%lld bytes, %zu records)\n",
	       (double)st.st_size / n, (long long)st.st_size, n);

	t = now_s();
	if (nvt_reader_open(&rd, path)) {
		fprintf(stderr, "bench_trace: %s\n", nvt_reader_strerror(rd));
		return 2;
	}
	while ((err = nvt_reader_next_block(rd, &recs, &k)) == 1)
		got += k;
	if (err || got != n) {
		fprintf(stderr, "bench_trace: read back: %s (%zu of %zu records)\n",
			nvt_reader_strerror(rd), got, n);
		return 2;
	}
	nvt_reader_close(rd);
	t = now_s() - t;
	printf("read    %.2f M records/s\n", n / t / 1e6);
	free(r);
	return 0;
}
