/*
 * watch.c - `nvanalyze watch` (watch.h): the trace directories and files
 * followed (each directory read again at every turn, woken early by
 * inotify, polling where inotify is missing), each new trace given to its
 * job (watch_job.c), the records handed to the outputs, and the ending
 * rules: every footer in, Ctrl-C, --idle-timeout, --follow.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/live/watch.h"
#include "analyze/live/watch_priv.h"
#include "trace/nvtrace.h"

#define SCAN_DEPTH 3	/* DIR/traces/NAME/JOB.N.nvt of jobs/run's result directory */
#define SCAN_S 0.5	/* the directories read again at most this often */
/* Turns at most every quarter interval, at most every TURN_S (a busy trace's
 * writes wake inotify at every block): a turn reads what landed since the
 * last in one go.  Beside fio, which keeps the cores busy, every wake-up
 * starts with caches fio filled: 0.05 s turns cost 7% more CPU per IO than
 * 0.25 s ones (BENCHMARKS.md, section 15, and bench/analysis.md). */
#define TURN_S 0.25

double watch_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Call hook h of every output with rec, in order; the first error stops the watch. */
#define EACH_SINK(w, h, rec)                                                   \
	do {                                                                   \
		for (size_t i_ = 0; i_ < (w)->o->nsinks && !(w)->failed; i_++) \
			if ((w)->o->sinks[i_].h)                               \
				(w)->failed = (w)->o->sinks[i_].h(             \
					(w)->o->sinks[i_].arg, rec);           \
		return (w)->failed;                                            \
	} while (0)

int watch_job_rec(struct nv_watch *w, const struct nv_live_job *j)
{
	EACH_SINK(w, job, j);
}

int watch_interval_rec(struct nv_watch *w, const struct nv_live_interval *iv)
{
	EACH_SINK(w, interval, iv);
}

int watch_health_rec(struct nv_watch *w, const struct nv_live_health *h)
{
	EACH_SINK(w, health, h);
}

int watch_end_rec(struct nv_watch *w, const struct nv_live_end *e)
{
	EACH_SINK(w, end, e);
}

static int finding_rec(struct nv_watch *w, const struct nv_live_finding *f)
{
	EACH_SINK(w, finding, f);
}

int watch_say(struct nv_watch *w, const struct wjob *j, const char *kind, const char *fmt, ...)
{
	struct nv_live_finding f = { .job = j ? j->name : NULL, .host = w->host, .kind = kind };
	char text[PATH_MAX + 512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	f.text = text;
	if (j && j->ts && nv_tan_stream_begun(j->ts))
		f.at_s = (double)(nv_tan_stream_pos(j->ts) - nv_tan_stream_tan(j->ts)->t0) / 1e9;
	if (w->o->log) {
		fprintf(w->o->log, "nvanalyze watch: %s%s%s\n", j ? j->name : "", j ? ": " : "",
			text);
		fflush(w->o->log);
	}
	return finding_rec(w, &f);
}

/* "JOB.THREAD.nvt": the length of JOB and THREAD.  Return: true when base is one. */
static bool trace_name(const char *base, size_t *jlen, unsigned *thread)
{
	size_t n = strlen(base), d;
	char *end;

	if (n < 7 || strcmp(base + n - 4, ".nvt"))
		return false;
	for (d = n - 4; d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9'; d--)
		;
	if (d == n - 4 || d < 2 || base[d - 1] != '.')
		return false;
	*thread = (unsigned)strtoul(base + d, &end, 10);
	*jlen = d - 1;
	return true;
}

/* The trace at path with this inode, if known: not when its job ended and
 * the file was written since (truncated and written again by a new run).
 * Return: it, or NULL. */
static struct wtrace *known(const struct nv_watch *w, const char *path, const struct stat *sb)
{
	for (size_t i = 0; i < w->ntr; i++) {
		struct wtrace *t = w->tr[i];

		if (t->ino != sb->st_ino || t->dev != sb->st_dev || strcmp(t->path, path))
			continue;
		if (t->final && (t->mtime.tv_sec != sb->st_mtim.tv_sec ||
				 t->mtime.tv_nsec != sb->st_mtim.tv_nsec))
			t->ino = 0;	/* forgotten: its path is a new trace */
		else
			return t;
	}
	return NULL;
}

/* The job a new trace of key (thread) joins: one not ended without that
 * thread, else a new one.  Return: it, or NULL when out of memory. */
static struct wjob *job_for(struct nv_watch *w, const char *key, unsigned thread,
			    struct nvt_reader *r)
{
	const char *name = nvt_reader_get(r, "job.name"), *nj = nvt_reader_get(r, "job.numjobs");
	struct wjob *j, **n;

	for (size_t i = w->njobs; i-- > 0;) {
		bool has = false;

		j = w->jobs[i];
		if (j->ended || strcmp(j->key, key))
			continue;
		for (size_t k = 0; k < j->ntr; k++)
			has |= j->tr[k]->thread == thread;
		if (!has)
			return j;
	}
	if (!(n = realloc(w->jobs, (w->njobs + 1) * sizeof(*n))))
		return NULL;
	w->jobs = n;
	if (!(j = calloc(1, sizeof(*j))))
		return NULL;
	j->key = strdup(key);
	j->name = strdup(name ? name : key);
	j->expect = nj ? (unsigned)strtoul(nj, NULL, 10) : 0;
	j->first_at = watch_now();
	j->w = w;
	if (!j->key || !j->name) {
		wjob_free(j);
		return NULL;
	}
	w->jobs[w->njobs++] = j;
	return j;
}

/* The header's writer: its pid when it ran on this host (faults), else 0. */
static pid_t writer_pid(const struct nv_watch *w, struct nvt_reader *r)
{
	const char *pid = nvt_reader_get(r, "job.pid"), *host = nvt_reader_get(r, "host");
	char me[256] = "";

	if (!pid || !host || gethostname(me, sizeof(me) - 1) || strcmp(me, host))
		return 0;
	(void)w;
	return (pid_t)strtol(pid, NULL, 10);
}

/* A file named like a trace that is none (or of a format version this
 * reader does not read): said once, then known and left alone.
 * Return: 0, -ENOMEM or an output's error. */
static int foreign(struct nv_watch *w, const char *path, const struct stat *sb, const char *why)
{
	struct wtrace *tr = calloc(1, sizeof(*tr)), **n;

	n = realloc(w->tr, (w->ntr + 1) * sizeof(*n));
	if (n)
		w->tr = n;
	if (!tr || !n || !(tr->path = strdup(path))) {
		free(tr);
		return -ENOMEM;
	}
	tr->dev = sb->st_dev;
	tr->ino = sb->st_ino;
	tr->left_out = true;
	w->tr[w->ntr++] = tr;
	return watch_say(w, NULL, "fault", "%s: left out", why);
}

/*
 * A trace file at path (base its name): new ones whose header is in are
 * given to their job; one whose header is not written yet waits for the
 * next turn.  Return: 0 or -ENOMEM.
 */
static int found(struct nv_watch *w, const char *path, const char *base, const struct stat *sb)
{
	struct nvt_reader *r = NULL;
	struct wtrace *tr, **n;
	struct wjob *j;
	char key[PATH_MAX];
	unsigned thread;
	size_t jlen;
	int err;

	if (!S_ISREG(sb->st_mode) || !trace_name(base, &jlen, &thread) || known(w, path, sb))
		return 0;
	if ((err = nvt_reader_open(&r, path))) {
		if (!r)
			return -ENOMEM;
		if (err == -EINVAL || err == -ENOTSUP)	/* never a trace: said once */
			err = foreign(w, path, sb, nvt_reader_strerror(r));
		else
			err = 0;	/* its header not written yet: the next turn */
		nvt_reader_close(r);
		return err;
	}
	/* DIR/JOB: the path up to its name, and the name's JOB */
	snprintf(key, sizeof(key), "%.*s", (int)(strlen(path) - strlen(base) + jlen), path);
	j = job_for(w, key, thread, r);
	tr = calloc(1, sizeof(*tr));
	n = realloc(w->tr, (w->ntr + 1) * sizeof(*n));
	if (n)
		w->tr = n;
	if (!j || !tr || !n || !(tr->path = strdup(path)))
		goto oom;
	tr->thread = thread;
	tr->dev = sb->st_dev;
	tr->ino = sb->st_ino;
	tr->size = (uint64_t)sb->st_size;
	tr->grew_at = w->grew_at = watch_now();
	tr->pid = writer_pid(w, r);
	tr->job = j;
	nvt_reader_close(r);
	if (!(n = realloc(j->tr, (j->ntr + 1) * sizeof(*n)))) {
		free(tr->path);
		free(tr);
		return -ENOMEM;
	}
	j->tr = n;
	j->tr[j->ntr++] = tr;
	w->tr[w->ntr++] = tr;
	return 0;
oom:
	nvt_reader_close(r);
	free(tr);
	return -ENOMEM;
}

/* Read directory dir (and its subdirectories to depth), watched by inotify
 * fd ifd (-1: none).  Return: 0, -ENOMEM, or -errno when dir cannot be read. */
static int scan(struct nv_watch *w, const char *dir, int depth, int ifd)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	struct stat sb;
	int err = 0;

	if (!d)
		return -errno;
	if (ifd >= 0)	/* the same watch again when already added */
		inotify_add_watch(ifd, dir, IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_CLOSE_WRITE |
					    IN_DELETE | IN_ATTRIB);
	while (!err && (e = readdir(d))) {
		int len = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);

		if (e->d_name[0] == '.' || len < 0 || (size_t)len >= sizeof(path) ||
		    stat(path, &sb))
			continue;
		if (S_ISDIR(sb.st_mode))
			err = depth > 0 ? scan(w, path, depth - 1, ifd) : 0;
		else
			err = found(w, path, e->d_name, &sb);
		if (err && err != -ENOMEM)	/* a subdirectory gone meanwhile */
			err = 0;
	}
	closedir(d);
	return err;
}

/* Every argument read.  Return: 0, or -errno with err set. */
static int scan_args(struct nv_watch *w, int ifd, char *err, size_t errlen)
{
	for (size_t i = 0; i < w->o->nargs; i++) {
		const char *a = w->o->args[i], *base = strrchr(a, '/');
		struct stat sb;
		int ret;

		if (stat(a, &sb)) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", a, strerror(errno));
			return ret;
		}
		if (S_ISDIR(sb.st_mode))
			ret = scan(w, a, SCAN_DEPTH, ifd);
		else if (!trace_name(base ? base + 1 : a, &(size_t){ 0 }, &(unsigned){ 0 }))
			ret = -EINVAL;
		else
			ret = found(w, a, base ? base + 1 : a, &sb);
		if (ret == -EINVAL)
			snprintf(err, errlen, "%s: not a trace (NAME.THREAD.nvt) nor a directory",
				 a);
		else if (ret)
			snprintf(err, errlen, "%s: %s", a, strerror(-ret));
		if (ret)
			return ret;
	}
	return 0;
}

/* Wait for a change (inotify) or the poll interval.  Return: nothing. */
static void wait_turn(int ifd, unsigned ms)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct pollfd p = { .fd = ifd, .events = POLLIN };

	if (ifd < 0) {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

		nanosleep(&ts, NULL);
		return;
	}
	if (poll(&p, 1, (int)ms) > 0)
		while (read(ifd, buf, sizeof(buf)) > 0)	/* what changed: every job looks */
			;
}

/* The watch's end without every footer: each job's traces cut where they are. */
static int stop_all(struct nv_watch *w)
{
	int err = 0;

	for (size_t i = 0; i < w->njobs && !err; i++)
		if (w->jobs[i]->ntr)
			err = wjob_stop(w, w->jobs[i]);
	return err;
}

/* One turn: new traces (the directories read at most every SCAN_S), every
 * job stepped.  Return: 0 or -errno (err set). */
static int turn(struct nv_watch *w, int ifd, char *err, size_t errlen)
{
	double now = watch_now();
	int ret = 0;

	if (now - w->scanned >= SCAN_S || !w->scanned) {
		w->scanned = now;
		ret = scan_args(w, ifd, err, errlen);
	}

	for (size_t i = 0; !ret && i < w->njobs; i++)
		ret = wjob_tick(w, w->jobs[i]);
	if (ret && !err[0])
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" :
			 "an output failed");
	return ret;
}

/* Return: the least time between turns, seconds: a quarter of the interval,
 * TURN_S at most. */
static double turn_s(const struct nv_watch_opts *o)
{
	double q = (o->interval_ns ? (double)o->interval_ns : 1e9) / 4e9;

	return q < TURN_S ? q : TURN_S;
}

/* The loop until an ending rule holds.  Return: enum nv_watch_end or -errno. */
static int loop(struct nv_watch *w, int ifd, char *err, size_t errlen)
{
	const struct nv_watch_opts *o = w->o;
	unsigned ms = o->poll_ms ? o->poll_ms : 200;
	double rest;
	int ret;

	for (;;) {
		if ((ret = turn(w, ifd, err, errlen)))
			return ret;
		if (o->stop && *o->stop) {
			ret = watch_say(w, NULL, "end", "stopped (a signal): the totals so far");
			if (ret || (ret = stop_all(w)))
				return ret;
			return NV_WATCH_STOPPED;
		}
		if (w->njobs && w->ended == w->njobs && !o->follow) {
			if (w->scan_after_end)	/* a trace that appeared meanwhile */
				return w->incomplete ? NV_WATCH_INCOMPLETE : NV_WATCH_DONE;
			w->scanned = 0;	/* the directories once more first */
			w->scan_after_end = true;
			continue;
		}
		w->scan_after_end = false;
		if (o->idle_timeout_s > 0 && watch_now() - w->grew_at >= o->idle_timeout_s) {
			bool open = w->ended < w->njobs;	/* jobs without footers */

			if ((ret = watch_say(w, NULL, "end", "no trace grew for %g s "
					     "(--idle-timeout)%s", o->idle_timeout_s,
					     open ? ": the writers are gone without footers "
					     "(fio killed?); the totals of the complete blocks" :
					     "")) || (ret = stop_all(w)))
				return ret;
			return w->incomplete ? NV_WATCH_INCOMPLETE : NV_WATCH_DONE;
		}
		wait_turn(ifd, ifd >= 0 ? ms * 5 : ms);
		rest = turn_s(o) - (watch_now() - w->turned);
		if (rest > 0) {	/* wake-ups coalesced */
			struct timespec ts = { 0, (long)(rest * 1e9) };

			nanosleep(&ts, NULL);
		}
		w->turned = watch_now();
	}
}

int nv_watch_run(const struct nv_watch_opts *o, char *err, size_t errlen)
{
	struct nv_watch w = { .o = o };
	int ifd, ret;

	err[0] = 0;
	if (o->host)
		snprintf(w.host, sizeof(w.host), "%s", o->host);
	else if (gethostname(w.host, sizeof(w.host) - 1))
		snprintf(w.host, sizeof(w.host), "localhost");
	w.start = w.grew_at = watch_now();
	w.start_ns = (uint64_t)(w.start * 1e9);
	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);	/* -1: polling */
	ret = loop(&w, ifd, err, errlen);
	if (ret < 0 && !err[0])
		snprintf(err, errlen, "%s", strerror(-ret));
	if (ifd >= 0)
		close(ifd);
	for (size_t i = 0; i < o->nsinks; i++)
		if (o->sinks[i].close)
			o->sinks[i].close(o->sinks[i].arg);
	for (size_t i = 0; i < w.njobs; i++)
		wjob_free(w.jobs[i]);
	for (size_t i = 0; i < w.ntr; i++) {
		free(w.tr[i]->path);
		free(w.tr[i]);
	}
	free(w.jobs);
	free(w.tr);
	return ret;
}
