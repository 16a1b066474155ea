/*
 * cmd_watch.c - `nvanalyze watch`: its command line, the outputs chosen,
 * Ctrl-C, and the exit status (the watcher itself: analyze/live/watch.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/cli/commands.h"
#include "analyze/common.h"
#include "analyze/live/live_http.h"
#include "analyze/live/watch.h"


static const char watch_usage[] =
	"usage: nvanalyze watch [OPTIONS] DIR|TRACE...\n"
	"Follow the traces of a run while fio writes them (a trace directory: each\n"
	"job's files as they appear) and show each interval once every trace of\n"
	"the job has passed its end: the same IOs and exact p50/p99/p99.9/max as\n"
	"the post-run series (traces[i].series of -f json).  Ends when every trace\n"
	"has its footer (exit 0; 1 when some trace ended without it: fio killed,\n"
	"a file cut short or replaced), or with Ctrl-C (the totals so far).\n"
	"  --format F         term (a screen redrawn each interval; the default on\n"
	"                     a terminal), jsonl (one JSON object a line; the\n"
	"                     default otherwise) or text (lines for logs)\n"
	"  --interval SEC     interval length (default 1)\n"
	"  --idle-timeout SEC end when no trace grew for SEC seconds (a writer that\n"
	"                     died never writes its footer)\n"
	"  --follow           after every job ended, wait for the next ones\n"
	"  --from-now         leave out the intervals that ended before the start\n"
	"  --host NAME        the host label (default: this host's name)\n"
	"  --listen [ADDR:]PORT  also serve Prometheus metrics and a live page\n"
	"  --linger SEC       with --listen, after the run ended keep serving its\n"
	"                     final state for SEC seconds so that the last scrape\n"
	"                     gets it (default 5, or 2 intervals when longer; 0: none;\n"
	"                     Ctrl-C ends it at once)\n";

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

struct watch_args {
	struct nv_watch_opts o;
	const char *format, *listen;
	double linger_s;	/* < 0: the default */
};

/* --linger: the HTTP output's own close, called after the wait. */
static struct {
	void (*close)(void *arg);
	double s;
} linger;

/*
 * The HTTP output's close after the run's end: unless Ctrl-C ended the
 * watch, its final state served linger.s seconds more (or until Ctrl-C).
 * Return: nothing.
 */
static void linger_close(void *arg)
{
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)linger.s;
	end.tv_nsec += (long)((linger.s - (double)(time_t)linger.s) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	if (!stop && linger.s > 0)
		fprintf(stderr, "nvanalyze watch: the run ended; its final state served %g s "
			"more for the last scrape (--linger; Ctrl-C ends it)\n", linger.s);
	while (!stop && linger.s > 0) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		nanosleep(&ts, NULL);
	}
	linger.close(arg);
}

/* A positive number of seconds for option opt.  Return: 0 or -EINVAL (said). */
static int seconds(const char *opt, const char *v, double *out)
{
	if (!v || nv_parse_double(v, out) || !(*out > 0)) {
		fprintf(stderr, "nvanalyze watch: %s needs a number of seconds above 0, "
			"got '%s'\n", opt, v ? v : "");
		return -EINVAL;
	}
	return 0;
}

/* Return: the index of the first operand, -1 after --help, -2 on a usage error (said). */
static int parse(int argc, char **argv, struct watch_args *a)
{
	double iv = 1;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--")) {
			i++;
			break;
		}
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fputs(watch_usage, stdout);
			return -1;
		}
		if (!strcmp(o, "--follow")) {
			a->o.follow = true;
			continue;
		}
		if (!strcmp(o, "--from-now")) {
			a->o.from_now = true;
			continue;
		}
		if (!v) {
			fprintf(stderr, "nvanalyze watch: unknown option %s, or it needs a value "
				"(try -h)\n", o);
			return -2;
		}
		i++;
		if (!strcmp(o, "--format")) {
			a->format = v;
		} else if (!strcmp(o, "--interval")) {
			if (seconds(o, v, &iv))
				return -2;
		} else if (!strcmp(o, "--idle-timeout")) {
			if (seconds(o, v, &a->o.idle_timeout_s))
				return -2;
		} else if (!strcmp(o, "--host")) {
			a->o.host = v;
		} else if (!strcmp(o, "--listen")) {
			a->listen = v;
		} else if (!strcmp(o, "--linger")) {
			if (nv_parse_double(v, &a->linger_s) || !(a->linger_s >= 0) ||
			    a->linger_s > 86400) {
				fprintf(stderr, "nvanalyze watch: --linger needs a number of "
					"seconds from 0 to 86400, got '%s'\n", v);
				return -2;
			}
		} else {
			fprintf(stderr, "nvanalyze watch: unknown option %s (try -h)\n", o);
			return -2;
		}
	}
	a->o.interval_ns = (uint64_t)(iv * 1e9 + 0.5);
	if (!a->o.interval_ns) {
		fprintf(stderr, "nvanalyze watch: --interval %g is below 1 ns\n", iv);
		return -2;
	}
	if (a->linger_s >= 0 && !a->listen) {
		fprintf(stderr, "nvanalyze watch: --linger goes with --listen (it keeps the "
			"endpoint up after the run)\n");
		return -2;
	}
	if (a->linger_s < 0)
		a->linger_s = iv * 2 > 5 ? iv * 2 : 5;
	if (i >= argc) {
		fprintf(stderr, "nvanalyze watch: no trace directory or trace given (try -h)\n");
		return -2;
	}
	return i;
}

/* The outputs: --format's and --listen's, into sinks[0..*n).  Return: 0 or -errno (said). */
static int outputs(struct watch_args *a, struct nv_live_sink *sinks, size_t *n)
{
	const char *f = a->format ? a->format : isatty(STDOUT_FILENO) ? "term" : "jsonl";
	char err[512];
	int ret;

	if (!strcmp(f, "jsonl"))
		ret = nv_live_jsonl_sink(stdout, &sinks[0]);
	else if (!strcmp(f, "text"))
		ret = nv_live_text_sink(stdout, &sinks[0]);
	else if (!strcmp(f, "term"))
		ret = nv_live_term_sink(stdout, &sinks[0]);
	else {
		fprintf(stderr, "nvanalyze watch: --format %s: term, jsonl or text\n", f);
		return -EINVAL;
	}
	if (ret)
		return ret;
	*n = 1;
	a->o.log = strcmp(f, "jsonl") ? NULL : stderr;	/* the others show them */
	if (!a->listen)
		return 0;
	if ((ret = nv_live_http_sink(a->listen, &sinks[1], err, sizeof(err)))) {
		fprintf(stderr, "nvanalyze watch: --listen %s: %s\n", a->listen, err);
		return ret;
	}
	linger.close = sinks[1].close;
	linger.s = a->linger_s;
	sinks[1].close = linger_close;
	*n = 2;
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_args a = { .o = { .stop = &stop }, .linger_s = -1 };
	struct nv_live_sink sinks[2];
	struct sigaction sa = { .sa_handler = on_sigint };
	char err[4096];
	size_t ns = 0;
	int first = parse(argc, argv, &a), ret;

	if (first < 0)
		return first == -1 ? 0 : 2;
	if (outputs(&a, sinks, &ns)) {
		for (size_t i = 0; i < ns; i++)
			if (sinks[i].close)
				sinks[i].close(sinks[i].arg);
		return 2;
	}
	a.o.args = argv + first;
	a.o.nargs = (size_t)(argc - first);
	a.o.sinks = sinks;
	a.o.nsinks = ns;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe: the output says so and the watch ends */
	ret = nv_watch_run(&a.o, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "nvanalyze watch: %s\n", err);
		return 2;
	}
	return ret == NV_WATCH_INCOMPLETE ? 1 : 0;
}
