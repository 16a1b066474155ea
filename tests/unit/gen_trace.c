/*
 * gen_trace - test helper (not a test): write a synthetic trace through the
 * real writer, and optionally the records it appended as the CSV that
 * `nvanalyze dump` must print (the expected output, made without the reader).
 *
 *   gen_trace [-p randread|seqwrite|mixed] [-n RECORDS] [-b BLOCK_RECORDS]
 *             [-q QD] [-s SEED] [-c zstd|zlib] [-t TAIL_NS[:PER_MILLE]]
 *             [-S SERVICE_NS] OUT.nvt [EXPECTED.csv]
 *
 * -c zlib writes the blocks as traces before format 1.2 hold them.  -t:
 * PER_MILLE IOs in 1000 (default 1) take up to TAIL_NS (default 2 ms)
 * longer.  -S: the IOs' mean device time (default 20 us): QD / SERVICE_NS
 * IOs per second of the trace's clock (tools/bench-sections/watch.sh: an
 * hour of timestamps at a given rate).
 *
 * Used by tests/integration/trace_cli.sh.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"

static const char *const op_words[] = {
	"read", "write", "trim", "flush", "zeroes", "uncor", "verify",
};

int main(int argc, char **argv)
{
	struct nvt_writer_opts o = { 0 };
	enum gen_pattern pat = GEN_MIXED;
	unsigned long n = 10000, qd = 8, seed = 1;
	const struct nvt_kv hdr[] = {
		{ "job.name", "gen" }, { "job.number", "0" }, { "clock", "CLOCK_MONOTONIC" },
		{ "file.0.path", "/synthetic" },
		{ "note", "a value with spaces, = and \"quotes\"" },
	};
	const struct nvt_kv foot[] = { { "smart.after.temperature", "305" } };
	struct nvt_writer *w;
	FILE *csv = NULL;
	struct gen g;
	char msg[600], *end;
	unsigned long long tail_ns = 2000000, tail_pm = 1, service_ns = 0;
	int opt, err = 0;

	while ((opt = getopt(argc, argv, "p:n:b:q:s:c:t:S:")) != -1) {
		switch (opt) {
		case 'p':
			if (gen_pattern_parse(optarg, &pat)) {
				fprintf(stderr, "gen_trace: unknown pattern %s (randread, "
					"seqwrite, mixed)\n",
					optarg);
				return 2;
			}
			break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'b': o.block_records = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'q': qd = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'c':
			if (strcmp(optarg, "zstd") && strcmp(optarg, "zlib")) {
				fprintf(stderr, "gen_trace: unknown codec %s (zstd, zlib)\n",
					optarg);
				return 2;
			}
			o.codec = strcmp(optarg, "zlib") ? NVT_WRITER_ZSTD : NVT_WRITER_ZLIB;
			break;
		case 't':
			tail_ns = strtoull(optarg, &end, 0);
			if (*end == ':')
				tail_pm = strtoull(end + 1, &end, 0);
			if (*end || tail_pm > 1000) {
				fprintf(stderr, "gen_trace: -t %s: want "
					"TAIL_NS[:PER_MILLE <= 1000]\n", optarg);
				return 2;
			}
			break;
		case 'S':
			service_ns = strtoull(optarg, &end, 0);
			if (*end || !service_ns) {
				fprintf(stderr, "gen_trace: -S %s: want SERVICE_NS > 0\n",
					optarg);
				return 2;
			}
			break;
		default: return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: gen_trace [-p PAT] [-n N] [-b BLOCK] [-q QD] [-s SEED] "
			"[-c zstd|zlib] [-t TAIL_NS[:PER_MILLE]] [-S SERVICE_NS] OUT.nvt "
			"[EXPECTED.csv]\n");
		return 2;
	}
	if (optind + 1 < argc && !(csv = fopen(argv[optind + 1], "w"))) {
		perror(argv[optind + 1]);
		return 2;
	}
	err = nvt_writer_open(&w, argv[optind], hdr, sizeof(hdr) / sizeof(hdr[0]), &o);
	if (err) {
		fprintf(stderr, "gen_trace: %s: %s\n", argv[optind], strerror(-err));
		return 2;
	}
	gen_init(&g, pat, (unsigned)qd, seed);
	g.tail_ns = tail_ns;
	g.tail_per_mille = (unsigned)tail_pm;
	if (service_ns)
		g.service_ns = service_ns;
	for (unsigned long i = 0; i < n && !err; i++) {
		struct nvt_record r;

		gen_record(&g, &r);
		err = nvt_writer_append(w, &r);
		if (csv)
			fprintf(csv,
				"%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",%u,%s,%d,%u,%u\n",
				r.submit_ns, r.complete_ns, (int64_t)(r.complete_ns - r.submit_ns),
				r.offset, (unsigned)r.length, op_words[r.op], (int)r.status,
				(unsigned)r.qd, (unsigned)r.file);
	}
	err = nvt_writer_close_msg(w, foot, 1, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "gen_trace: %s\n", msg);
		return 2;
	}
	if (csv && fclose(csv)) {
		perror("gen_trace: expected csv");
		return 2;
	}
	return 0;
}
