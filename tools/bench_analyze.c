/*
 * bench_analyze - trace analyzer throughput: decode, decode + exact
 * percentiles, and `nvanalyze stat`, per CPU second, with peak memory.
 *
 *   bench_analyze [-n RECORDS] [-p randread|seqwrite|mixed] [-r REPEATS]
 *                 [-f TRACE] [-k] [-a NVANALYZE]
 *
 * Without -f, writes a synthetic trace of RECORDS IOs (default 20 M;
 * tests/unit/trace_gen.h at QD 32 through the real writer, level 1) to
 * /tmp/bench_analyze.nvt and deletes it at the end unless -k.  With -f
 * FILE, reads that trace (kept).  Then, REPEATS times (default 3) each:
 *   records   nvt_reader_next_block over the whole trace (dump's path);
 *   columns   nvt_reader_next_cols with latency, op, length, status;
 *   exact     columns + one exact-percentile state per operation
 *             (nv_exact_add_many) until every percentile is resolved;
 *   stat      NVANALYZE stat TRACE (default ./nvanalyze), output discarded;
 *   tables    nv_tan_run: the per-job analysis behind the tables and -o
 *             (intervals, exact percentiles per op and queue depth, spikes).
 * Every measurement runs in a child process; its CPU time (user + sys) and
 * peak RSS come from wait4(), so they cover that step alone.  Printed:
 * the median over the repeats of M IOs per CPU second, wall seconds, and
 * the largest max RSS.  The trace is read from the page cache after the
 * first repeat.  Built by `make bench-analyze` (BENCH_ANALYZE_ARGS).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/stats/exact.h"
#include "analyze/stats/trace_stats.h"
#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"

#define MAXREP 31

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Write n synthetic records of pattern pat to path.  0 or 2 after a message. */
static int make_trace(const char *path, enum gen_pattern pat, size_t n)
{
	const struct nvt_kv hdr[] = { { "job.name", "bench_analyze" },
				      { "clock", "CLOCK_MONOTONIC" } };
	struct nvt_writer *w;
	struct gen g;
	char msg[600];
	int err;

	err = nvt_writer_open(&w, path, hdr, 2, NULL);
	if (err) {
		fprintf(stderr, "bench_analyze: %s: %s\n", path, strerror(-err));
		return 2;
	}
	gen_init(&g, pat, 32, 1);
	for (size_t i = 0; i < n && !err; i++) {
		struct nvt_record r;

		gen_record(&g, &r);
		err = nvt_writer_append(w, &r);
	}
	err = nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "bench_analyze: %s\n", msg);
		return 2;
	}
	return 0;
}

enum step { STEP_RECORDS, STEP_COLUMNS, STEP_EXACT, STEP_STAT, STEP_TABLES, STEP__N };

static const char *const step_name[STEP__N] = {
	[STEP_RECORDS] = "decode, records (nvt_reader_next_block)",
	[STEP_COLUMNS] = "decode, columns (nvt_reader_next_cols)",
	[STEP_EXACT] = "decode + exact percentiles per op",
	[STEP_STAT] = "nvanalyze stat",
	[STEP_TABLES] = "trace analysis of the tables/-o (nv_tan_run)",
};

static struct nvt_reader *open_or_die(const char *path)
{
	struct nvt_reader *r;

	if (nvt_reader_open(&r, path)) {
		fprintf(stderr, "bench_analyze: %s\n",
			r ? nvt_reader_strerror(r) : strerror(ENOMEM));
		exit(2);
	}
	return r;
}

/* The child's work for steps records, columns and exact; exits 0 or 2. */
static void run_step(enum step s, const char *path)
{
	static const double pct[] = { 50, 90, 95, 99, 99.9, 99.99 };
	const unsigned want = NVT_COL_LATENCY | NVT_COL_OP | NVT_COL_LENGTH | NVT_COL_STATUS;
	struct nv_exact *ex[NVT_OP__MAX] = { 0 };
	struct nvt_reader *r = open_or_die(path);
	const struct nvt_record *recs;
	const struct nvt_cols *c;
	uint64_t sum = 0;
	size_t n;
	int err, more = 1;

	if (s == STEP_TABLES) {
		struct nv_tan_opts o = { 0 };
		struct nv_tan t;
		char msg[600];

		nvt_reader_close(r);
		if (nv_tan_run(&path, 1, &o, &t, msg, sizeof(msg))) {
			fprintf(stderr, "bench_analyze: %s\n", msg);
			exit(2);
		}
		sum = t.records;
		nv_tan_free(&t);
		exit(sum == 1 ? 3 : 0);
	}
	if (s == STEP_RECORDS) {
		while ((err = nvt_reader_next_block(r, &recs, &n)) == 1)
			sum += n ? recs[n - 1].complete_ns : 0;
		goto out;
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++)
		if (nv_exact_new(&ex[k], pct, sizeof(pct) / sizeof(pct[0])))
			exit(2);
	while (more == 1) {
		while ((err = nvt_reader_next_cols(r, want, &c)) == 1) {
			if (s == STEP_COLUMNS) {
				sum += c->latency_ns[c->n - 1];
				continue;
			}
			for (size_t i = 0; i < c->n;) {	/* runs of one op */
				size_t j = i + 1;

				if (c->op[i] >= NVT_OP__MAX)
					exit(2);
				while (j < c->n && c->op[j] == c->op[i])
					j++;
				nv_exact_add_many(ex[c->op[i]], c->latency_ns + i, j - i);
				i = j;
			}
		}
		if (err < 0 || s == STEP_COLUMNS)
			break;
		more = 0;
		for (unsigned k = 0; k < NVT_OP__MAX; k++) {
			int e = nv_exact_end_pass(ex[k]);

			if (e < 0)
				exit(2);
			more |= e;
		}
		if (more) {
			nvt_reader_close(r);
			r = open_or_die(path);
		}
	}
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		sum += nv_exact_value(ex[k], 0);
		nv_exact_free(ex[k]);
	}
out:
	if (err < 0) {
		fprintf(stderr, "bench_analyze: %s\n", nvt_reader_strerror(r));
		exit(2);
	}
	nvt_reader_close(r);
	exit(sum == 1 ? 3 : 0);	/* uses sum, so the work cannot be dropped */
}

/* Run one step in a child: CPU seconds, wall seconds and max RSS (KiB). */
static int measure(enum step s, const char *path, const char *nvanalyze, double *cpu,
		   double *wall, long *rss)
{
	struct rusage ru;
	int status;
	double t0 = now_s();
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (s == STEP_STAT) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
				_exit(2);
			execl(nvanalyze, nvanalyze, "stat", path, (char *)NULL);
			fprintf(stderr, "bench_analyze: %s: %s\n", nvanalyze, strerror(errno));
			_exit(2);
		}
		run_step(s, path);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -errno;
	*wall = now_s() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_analyze: step \"%s\" failed\n", step_name[s]);
		return -EIO;
	}
	*cpu = tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
	*rss = ru.ru_maxrss;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Records in the trace (one read through it). */
static uint64_t count_records(const char *path)
{
	struct nvt_reader *r = open_or_die(path);
	const struct nvt_cols *c;
	uint64_t n = 0;
	int err;

	while ((err = nvt_reader_next_cols(r, 0, &c)) == 1)
		n += c->n;
	if (err < 0) {
		fprintf(stderr, "bench_analyze: %s\n", nvt_reader_strerror(r));
		exit(2);
	}
	nvt_reader_close(r);
	return n;
}

int main(int argc, char **argv)
{
	enum gen_pattern pat = GEN_RANDREAD;
	const char *path = "/tmp/bench_analyze.nvt", *nvanalyze = "./nvanalyze";
	size_t n = 20000000;
	bool given = false, keep = false;
	int reps = 3, opt, rc = 0;
	struct stat st;
	uint64_t nrec;
	double t;

	while ((opt = getopt(argc, argv, "n:p:r:f:ka:h")) != -1) {
		switch (opt) {
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'r': reps = atoi(optarg); break;
		case 'f': path = optarg; given = true; break;
		case 'k': keep = true; break;
		case 'a': nvanalyze = optarg; break;
		case 'p':
			if (gen_pattern_parse(optarg, &pat)) {
				fprintf(stderr, "bench_analyze: unknown pattern %s\n", optarg);
				return 2;
			}
			break;
		default:
			printf("usage: bench_analyze [-n RECORDS] [-p randread|seqwrite|mixed]"
			       " [-r REPEATS] [-f TRACE] [-k] [-a NVANALYZE]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (reps < 1 || reps > MAXREP || !n) {
		fprintf(stderr, "bench_analyze: -r takes 1..%d, -n at least 1\n", MAXREP);
		return 2;
	}
	if (!given) {
		t = now_s();
		if (make_trace(path, pat, n))
			return 2;
		printf("trace   %s: %zu records written in %.1f s\n", path, n, now_s() - t);
	}
	if (stat(path, &st)) {
		fprintf(stderr, "bench_analyze: %s: %s\n", path, strerror(errno));
		return 2;
	}
	nrec = count_records(path);
	printf("trace   %s: %llu records, %.1f MB, %.3f bytes/IO; %d repeats, medians\n", path,
	       (unsigned long long)nrec, (double)st.st_size / 1e6,
	       nrec ? (double)st.st_size / (double)nrec : 0.0, reps);
	for (int s = 0; s < STEP__N && !rc; s++) {
		double cpu[MAXREP], wall[MAXREP], c, w;
		long rss = 0;

		for (int i = 0; i < reps && !rc; i++) {
			long r = 0;

			rc = measure((enum step)s, path, nvanalyze, &cpu[i], &wall[i], &r);
			rss = r > rss ? r : rss;
		}
		if (rc)
			break;
		c = median(cpu, reps);
		w = median(wall, reps);
		printf("%-46s %6.2f M IOs per CPU s  (%.2f s CPU, %.2f s wall, %.2f M IOs/s wall)"
		       "  max RSS %.1f MiB\n", step_name[s], (double)nrec / c / 1e6, c, w,
		       (double)nrec / w / 1e6, (double)rss / 1024);
	}
	if (!given && !keep)
		unlink(path);
	return rc ? 2 : 0;
}
