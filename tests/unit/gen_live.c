/*
 * gen_live - a stand-in watcher for the HTTP output's integration tests
 * (tests/integration/live_http.sh, live_prometheus.sh, live_page.sh): it
 * opens nv_live_http_sink and calls its hooks from one thread, as
 * `nvanalyze watch` does, with synthetic intervals (live_gen.h).
 *
 *   gen_live --listen [ADDR:]PORT [--job NAME | --job-file PATH]...
 *            [--host NAME] [--intervals N] [--period-ms MS] [--hold-ms MS]
 *            [--log FILE]
 *
 * Prints "listening" once the socket listens (or the sink's error and exit
 * status 2), then per job the job record, every period one interval per job
 * and op (read, write) ending at its wall-clock time, a health record, a
 * finding every 5th interval naming the job; after N intervals the end
 * records, serves --hold-ms longer (or until SIGTERM/SIGINT), closes, and
 * prints "hook_max_ns N" (the longest hook call) and "closed".  --log
 * writes each interval as a JSON line (job, host, op, index, end_unix_ms, the
 * quantiles in ns, ios, bytes, errors): what Prometheus must have stored.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "analyze/live/live_http.h"
#include "analyze/report/json_value.h"
#include "tests/unit/live_gen.h"

#define MAX_JOBS 64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleep until the wall clock reaches ms (or a signal). */
static void sleep_until_ms(int64_t ms)
{
	while (!stop && now_ns(CLOCK_REALTIME) / 1000000 < ms) {
		struct timespec ts = { 0, 20 * 1000000 };

		nanosleep(&ts, NULL);
	}
}

/* A file's bytes as a string (a hostile name: any byte but NUL). */
static char *read_name(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	int c;

	if (!f || !m) {
		fprintf(stderr, "gen_live: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return s;
}

static void log_interval(FILE *log, const struct nv_live_interval *iv)
{
	json_t *o = json_object();

	nv_json_value_set(o, "job", nv_json_value_str(iv->job));
	nv_json_value_set(o, "host", nv_json_value_str(iv->host));
	nv_json_value_set(o, "op", json_string(nv_live_op_name(iv->iv.op)));
	nv_json_value_set(o, "index", json_integer((json_int_t)iv->iv.index));
	nv_json_value_set(o, "end_unix_ms", json_integer(iv->end_unix_ms));
	nv_json_value_set(o, "p50_ns", json_integer((json_int_t)iv->iv.p50_ns));
	nv_json_value_set(o, "p99_ns", json_integer((json_int_t)iv->iv.p99_ns));
	nv_json_value_set(o, "p99.9_ns", json_integer((json_int_t)iv->iv.p999_ns));
	nv_json_value_set(o, "max_ns", json_integer((json_int_t)iv->iv.max_ns));
	nv_json_value_set(o, "ios", json_integer((json_int_t)iv->iv.ios));
	nv_json_value_set(o, "bytes", json_integer((json_int_t)iv->iv.bytes));
	nv_json_value_set(o, "errors", json_integer((json_int_t)iv->iv.errors));
	json_dumpf(o, log, JSON_COMPACT);
	fputc('\n', log);
	fflush(log);
	json_decref(o);
}

/* One hook call timed: the longest kept in *max. */
#define TIMED(max, call) do { \
	int64_t t0_ = now_ns(CLOCK_MONOTONIC); \
	call; \
	int64_t d_ = now_ns(CLOCK_MONOTONIC) - t0_; \
	if (d_ > *(max)) \
		*(max) = d_; \
} while (0)

int main(int argc, char **argv)
{
	const char *listen = NULL, *host = "testhost", *jobs[MAX_JOBS];
	char *owned[MAX_JOBS];	/* the names read from files, freed at the end */
	size_t nowned = 0;
	size_t njobs = 0, nint = 10;
	uint64_t period = 1000, hold = 0;
	FILE *log = NULL;
	struct nv_live_sink s;
	int64_t t0, hook_max = 0;
	char err[512];
	int ret;

	/* First: a test's SIGTERM must always end in "closed", never a kill. */
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--listen"))
			listen = argv[i + 1];
		else if (!strcmp(argv[i], "--job") && njobs < MAX_JOBS)
			jobs[njobs++] = argv[i + 1];
		else if (!strcmp(argv[i], "--job-file") && njobs < MAX_JOBS)
			jobs[njobs++] = owned[nowned++] = read_name(argv[i + 1]);
		else if (!strcmp(argv[i], "--host"))
			host = argv[i + 1];
		else if (!strcmp(argv[i], "--intervals"))
			nint = strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--period-ms"))
			period = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--hold-ms"))
			hold = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--log") && !(log = fopen(argv[i + 1], "w")))
			return fprintf(stderr, "gen_live: %s: %s\n", argv[i + 1],
				       strerror(errno)), 2;
	}
	if (!listen || !period)
		return fprintf(stderr, "usage: gen_live --listen [ADDR:]PORT [--job NAME]..."
			       "\n"), 2;
	if (!njobs)
		jobs[njobs++] = "job1";
	if ((ret = nv_live_http_sink(listen, &s, err, sizeof(err)))) {
		fprintf(stderr, "gen_live: --listen %s: %s (%s)\n", listen, err, strerror(-ret));
		return 2;
	}
	printf("listening\n");
	fflush(stdout);
	t0 = now_ns(CLOCK_REALTIME) / 1000000 / (int64_t)period * (int64_t)period;
	for (size_t j = 0; j < njobs; j++) {
		struct nv_live_job jb = { .job = jobs[j], .host = host, .nthreads = 1,
					  .interval_ns = period * 1000000, .start_unix_ms = t0 };

		TIMED(&hook_max, s.job(s.arg, &jb));
	}
	for (size_t k = 0; k < nint && !stop; k++) {
		sleep_until_ms(t0 + (int64_t)((k + 1) * period));
		for (size_t j = 0; j < njobs && !stop; j++) {
			struct nv_live_health h = {
				.job = jobs[j], .host = host, .io_wait_s = 0.001 * (double)k,
				.behind_s = 0.5, .jobs_seen = njobs,
			};
			struct nv_live_finding f = {
				.job = jobs[j], .host = host, .kind = "step", .text = jobs[j],
				.at_s = (double)(k + 1) * (double)period / 1e3,
			};

			for (size_t o = 0; o < 2; o++) {
				struct nv_live_interval iv;

				live_gen_interval(&iv, jobs[j], host, j, o, k, period, t0);
				TIMED(&hook_max, s.interval(s.arg, &iv));
				if (log)
					log_interval(log, &iv);
			}
			TIMED(&hook_max, s.health(s.arg, &h));
			if (k % 5 == 4)
				TIMED(&hook_max, s.finding(s.arg, &f));
		}
	}
	for (size_t j = 0; j < njobs; j++) {
		struct nv_live_end e = { .job = jobs[j], .host = host, .op = "read",
					 .complete = true };
		struct nv_live_health h = { .host = host, .jobs_seen = njobs,
					    .jobs_ended = j + 1 };

		TIMED(&hook_max, s.end(s.arg, &e));
		TIMED(&hook_max, s.health(s.arg, &h));
	}
	printf("done\n");
	fflush(stdout);
	sleep_until_ms(now_ns(CLOCK_REALTIME) / 1000000 + (int64_t)hold);
	nv_live_http_close(&s);
	printf("hook_max_ns %" PRId64 "\nclosed\n", hook_max);
	if (log)
		fclose(log);
	while (nowned)
		free(owned[--nowned]);
	return 0;
}
