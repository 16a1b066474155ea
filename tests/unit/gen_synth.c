/*
 * gen_synth - a synthetic trace with known behaviour over time, for the
 * acceptance test of nvanalyze's findings (tests/integration/analysis.sh).
 *
 *   gen_synth FILE [SECONDS [DROP_S [SPIKE_S [STALL_MS [AFTER_US]]]]]
 *
 * Simulates 4k random reads at queue depth 4 for SECONDS (default 40):
 * service time 200 us +-10% until DROP_S (default 20), AFTER_US (default
 * 400) after it, so throughput halves at DROP_S ("burst then throttling";
 * a smaller AFTER_US: a device that gets faster); the device stalls
 * from SPIKE_S (default 8) for STALL_MS (default 300): every IO in service
 * then completes at the end of the stall (a garbage-collection pause).  Time
 * 0 is the first submission.  Records go through the real trace writer in
 * completion order.  Prints "records N" on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"

#define QD 4
#define T0 1000000000ull

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 40, drop = argc > 3 ? atof(argv[3]) : 20;
	double spike = argc > 4 ? atof(argv[4]) : 8, stall_ms = argc > 5 ? atof(argv[5]) : 300;
	uint64_t after_ns = argc > 6 ? (uint64_t)(atof(argv[6]) * 1e3) : 400000;
	uint64_t end = T0 + (uint64_t)(secs * 1e9), drop_ns = T0 + (uint64_t)(drop * 1e9);
	uint64_t st0 = T0 + (uint64_t)(spike * 1e9), st1 = st0 + (uint64_t)(stall_ms * 1e6);
	struct nvt_kv hdr[] = { { "job.name", "synth" }, { "job.number", "1" } };
	struct gen_rng rng = { 42 };
	struct nvt_record io[QD];
	struct nvt_writer *w;
	uint64_t n = 0;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: gen_synth FILE [SECONDS [DROP_S [SPIKE_S [STALL_MS "
			"[AFTER_US]]]]]\n");
		return 2;
	}
	err = nvt_writer_open(&w, argv[1], hdr, 2, NULL);
	if (err) {
		fprintf(stderr, "gen_synth: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	for (unsigned i = 0; i < QD; i++) {
		memset(&io[i], 0, sizeof(io[i]));
		io[i].submit_ns = T0 + i * 1000;	/* slot 0 is the first submission */
		io[i].complete_ns = 0;
	}
	for (;;) {
		unsigned best = 0;

		/* schedule every slot without a completion */
		for (unsigned i = 0; i < QD; i++) {
			struct nvt_record *r = &io[i];
			uint64_t svc, c;

			if (r->complete_ns)
				continue;
			svc = (r->submit_ns >= drop_ns ? after_ns : 200000);
			svc = svc * 9 / 10 + gen_below(&rng, svc / 5);
			c = r->submit_ns + svc;
			if (c > st0 && r->submit_ns < st1)
				c = st1 + gen_below(&rng, 20000);	/* held by the stall */
			r->complete_ns = c;
			r->offset = gen_below(&rng, 1u << 18) * 4096;
			r->length = 4096;
			r->op = NVT_OP_READ;
			r->qd = QD;
		}
		for (unsigned i = 1; i < QD; i++)
			if (io[i].complete_ns < io[best].complete_ns)
				best = i;
		if (io[best].complete_ns > end)
			break;
		err = nvt_writer_append(w, &io[best]);
		if (err)
			break;
		n++;
		io[best].submit_ns = io[best].complete_ns + 5000;
		io[best].complete_ns = 0;
	}
	if (err || (err = nvt_writer_close(w, NULL, 0))) {
		fprintf(stderr, "gen_synth: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	printf("records %llu\n", (unsigned long long)n);
	return 0;
}
