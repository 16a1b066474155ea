/*
 * watch_job.c - one job of `nvanalyze watch` (watch_priv.h): its traces
 * handed to a stream (trace_stream.h: pass 1 of the post-run analysis, its
 * intervals closed behind the watermark of every trace), each closed
 * interval handed to the outputs, the trace it waits on checked for faults
 * (truncated, deleted, replaced, its writer gone), its findings as they
 * happen (a stall, a throughput step, a p99 spike; tracing's waits on the
 * IO loop once the footers say them), and its totals at its
 * end, exact: pass 1's exact states, or where they need another read (or
 * fio's ramp_time left them unsure) the post-run analysis of its files.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "analyze/live/watch.h"
#include "analyze/live/watch_priv.h"
#include "analyze/report/format.h"
#include "analyze/stats/findings.h"
#include "analyze/stats/trace_find.h"
#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_wait.h"
#include "trace/nvtrace.h"

#define STALL_S 5.0		/* no new block for this long: a stall is said */
#define GONE_S 1.0		/* a trace not grown this long whose writer is gone: cut */

/* The job's record, once time 0 is known (before its first interval). */
static int announce(struct wjob *j, const struct nv_tan *t)
{
	struct nv_live_job r = {
		.job = j->name, .host = j->w->host, .nthreads = j->ntr,
		.interval_ns = t->interval_ns,
		.start_unix_ms = j->off_ms && t->t0 ? (int64_t)(t->t0 / 1000000) + j->off_ms : 0,
	};

	j->announced = true;
	return watch_job_rec(j->w, &r);
}

#define SPIKE_FACTOR 10	/* an interval's p99 this many times the median p99: a spike */
#define SPIKE_MIN 5		/* intervals with IOs before a spike is said */

/* Room for one more interval in j's findings' arrays.  Return: 0 or -ENOMEM. */
static int grow_find(struct wjob *j)
{
	size_t nc = j->cap ? j->cap * 2 : 64;
	double *m;
	uint64_t *p;

	if (j->nmb < j->cap && j->np99 < j->cap)
		return 0;
	if (!(m = realloc(j->mbps, nc * sizeof(*m))))
		return -ENOMEM;
	j->mbps = m;
	if (!(m = realloc(j->tmp, nc * sizeof(*m))))
		return -ENOMEM;
	j->tmp = m;
	if (!(p = realloc(j->p99, nc * sizeof(*p))))
		return -ENOMEM;
	j->p99 = p;
	j->cap = nc;
	return 0;
}

/*
 * The job's findings after its interval c (its all row, or its one
 * operation's): a throughput step (findings.h's rule over the full
 * intervals so far, said once with how long it held) and a p99 spike.
 * Return: 0 or an output's error.
 */
static int find(struct wjob *j, const struct nv_tan *t, const struct nv_tan_closed *c)
{
	char a[32], b[32], at[32], v[32], m[32];
	struct nv_step st;
	double med;
	int err;

	if ((err = grow_find(j)))
		return err;
	if (nv_tan_full(t, c->iv.index))
		j->mbps[j->nmb++] = c->iv.mb_per_s;
	if (c->iv.ios && j->np99 >= SPIKE_MIN) {
		for (size_t i = 0; i < j->np99; i++)	/* nv_median takes doubles */
			j->tmp[i] = (double)j->p99[i];
		med = nv_median(j->tmp, j->np99);
		if (med > 0 && (double)c->iv.p99_ns >= SPIKE_FACTOR * med) {
			nv_fmt_value(v, sizeof(v), (double)c->iv.p99_ns, NV_U_NS);
			nv_fmt_value(m, sizeof(m), med, NV_U_NS);
			err = watch_say(j->w, j, "spike", "p99 %s in %g-%g s, %.0fx the median "
					"p99 %s", v, c->iv.start_s, c->iv.end_s,
					(double)c->iv.p99_ns / med, m);
			if (err)
				return err;
		}
	}
	if (c->iv.ios)
		j->p99[j->np99++] = c->iv.p99_ns;
	if (j->step_said || j->nmb < NV_FIND_MIN_INTERVALS)
		return 0;
	nv_find_step(j->mbps, j->nmb, NV_STEP_MIN_DROP, &st);
	if (!st.found)
		return 0;
	j->step_said = true;
	j->step_at = st.at;
	nv_fmt_rate(a, sizeof(a), st.before);
	nv_fmt_rate(b, sizeof(b), st.after);
	nv_fmt_time(at, sizeof(at), (double)st.at * (double)t->interval_ns / 1e9);
	return watch_say(j->w, j, "step", "throughput step at %s: %s before, %s after (held "
			 "%g s so far)", at, a, b,
			 (double)(j->nmb - st.at) * (double)t->interval_ns / 1e9);
}

/* trace_stream.h's fn: a closed interval to the outputs (not before the
 * start under --from-now).  Return: 0 or an output's error. */
static int on_interval(void *arg, const struct nv_tan *t, const struct nv_tan_closed *c)
{
	struct wjob *j = arg;
	struct nv_watch *w = j->w;
	int64_t t0_ms = j->off_ms ? (int64_t)(t->t0 / 1000000) + j->off_ms : 0;
	struct nv_live_interval iv = {
		.job = j->name, .host = w->host, .iv = c->iv,
		.end_unix_ms = t0_ms ? t0_ms + (int64_t)(c->iv.end_s * 1000 + 0.5) : 0,
		.lat_sum_ns = c->lat_sum_ns,
		.hist = c->hist, .hist_lo = c->hist_lo, .hist_hi = c->hist_hi,
	};
	int err;

	if (!j->announced && (err = announce(j, t)))
		return err;
	j->closed++;
	if (w->o->from_now && t->t0 + (uint64_t)(c->iv.end_s * 1e9) < w->start_ns)
		return 0;
	if (c->le) {	/* the stream's edges are nv_live_le_ns (start), when wanted */
		memcpy(iv.le, c->le, sizeof(iv.le));
		iv.le_inf = c->le[NV_LIVE_NLE];
	}
	if ((err = watch_interval_rec(w, &iv)))
		return err;
	if (c->iv.op == NV_TAN_ALL || nv_tan_nops(t) == 1)
		return find(j, t, c);
	return 0;
}

static int by_thread(const void *a, const void *b)
{
	const struct wtrace *x = *(struct wtrace *const *)a, *y = *(struct wtrace *const *)b;

	return (x->thread > y->thread) - (x->thread < y->thread);
}

/* The header's wall-clock offset of trace r (ms), 0 when it has none. */
static int64_t clock_offset(struct nvt_reader *r)
{
	const char *rt = nvt_reader_get(r, "clock.realtime_ns");
	const char *mo = nvt_reader_get(r, "clock.monotonic_ns");

	if (!rt || !mo)
		return 0;
	return (int64_t)(strtoull(rt, NULL, 10) / 1000000) -
	       (int64_t)(strtoull(mo, NULL, 10) / 1000000);
}

/* Trace tr into j's stream (a fault said when it cannot be read).
 * Return: 0 or an output's error. */
static int add_trace(struct wjob *j, struct wtrace *tr)
{
	char err[PATH_MAX + 256];

	if (nv_tan_stream_add(j->ts, tr->path, err, sizeof(err))) {
		tr->left_out = true;
		return watch_say(j->w, j, "fault", "%s: left out of the watch", err);
	}
	tr->idx = nv_tan_stream_ntraces(j->ts) - 1;
	tr->in_stream = true;
	if (!j->off_ms)
		j->off_ms = clock_offset(nv_tan_stream_reader(j->ts, tr->idx));
	if (nv_tan_stream_begun(j->ts))
		return watch_say(j->w, j, "fault", "%s appeared after the job's intervals "
				 "began: its IOs before them are not in the intervals shown "
				 "(the post-run analysis has them)", tr->path);
	return 0;
}

/* Whether j's traces are in: numjobs of them, or 1 s after the first of a
 * trace that does not say (older engines).  Return: true when ready. */
static bool ready(struct nv_watch *w, struct wjob *j)
{
	double waited = watch_now() - j->first_at;

	if (j->expect && j->ntr >= j->expect)
		return true;
	if (!j->expect)
		return waited >= 1.0;
	if (waited < 10.0)
		return false;
	watch_say(w, j, "fault", "only %zu of the job's %u traces appeared in 10 s: "
		  "watching those", j->ntr, j->expect);
	return true;
}

/* Start j: its stream, its traces in thread order.  Return: 0 or -errno. */
static int start(struct nv_watch *w, struct wjob *j)
{
	struct nv_tan_stream_opts so = {
		.interval_ns = w->o->interval_ns, .fn = on_interval, .arg = j,
	};
	int err;

	for (size_t i = 0; i < w->o->nsinks; i++)	/* the histogram, where it is shown */
		if (w->o->sinks[i].want_le) {
			so.le_ns = nv_live_le_ns;
			so.nle = NV_LIVE_NLE;
		}

	if ((err = nv_tan_stream_new(&j->ts, &so)))
		return err;
	qsort(j->tr, j->ntr, sizeof(*j->tr), by_thread);
	j->started = true;
	j->data_at = watch_now();
	for (size_t i = 0; i < j->ntr; i++)
		if ((err = add_trace(j, j->tr[i])))
			return err;
	if (nv_tan_stream_tan(j->ts)->ramp_ns)
		return watch_say(w, j, "note", "fio's ramp_time: where it ended is in the "
				 "footers, so the intervals count the ramp's IOs; the totals "
				 "leave them out, as the post-run analysis does");
	return 0;
}

/* The trace of j with stream index i.  Return: it, or NULL. */
static struct wtrace *trace_at(struct wjob *j, size_t i)
{
	for (size_t k = 0; k < j->ntr; k++)
		if (j->tr[k]->in_stream && j->tr[k]->idx == i)
			return j->tr[k];
	return NULL;
}

/* Return: true when the file system of fd has less room than a trace block
 * takes (its writer stopped on it: ENOSPC). */
static bool disk_full(int fd)
{
	struct statvfs sv;

	return !fstatvfs(fd, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < (64u << 10);
}

/* Return: true when pid (a job on this host) is gone. */
static bool pid_gone(pid_t pid)
{
	return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/*
 * The trace j waits on (stream index i): grown, cut short, deleted,
 * replaced, or its writer gone without a footer.
 * Return: 1 when it was cut (the merge goes on without it), 0, or an
 * output's error.
 */
static int check_trace(struct nv_watch *w, struct wjob *j, size_t i)
{
	struct wtrace *tr = trace_at(j, i);
	struct nvt_reader *r = nv_tan_stream_reader(j->ts, i);
	struct stat fs, ps;
	uint64_t pos = r ? nvt_reader_pos(r) : 0;
	int err;

	if (!tr || !r || fstat(nvt_reader_fd(r), &fs))
		return 0;
	if ((uint64_t)fs.st_size > tr->size) {
		tr->size = (uint64_t)fs.st_size;
		tr->grew_at = w->grew_at = watch_now();
	}
	if ((uint64_t)fs.st_size < pos) {
		nv_tan_stream_cut(j->ts, i);
		err = watch_say(w, j, "fault", "%s was truncated while watched (%jd bytes, %"
				PRIu64 " of them read): it ends at its last complete block",
				tr->path, (intmax_t)fs.st_size, pos);
		return err ? err : 1;
	}
	if (stat(tr->path, &ps)) {
		if (!tr->deleted_said) {
			tr->deleted_said = true;
			if ((err = watch_say(w, j, "fault", "%s was deleted while watched: "
					     "reading on from the open file", tr->path)))
				return err;
		}
	} else if (ps.st_ino != fs.st_ino || ps.st_dev != fs.st_dev) {
		nv_tan_stream_cut(j->ts, i);
		err = watch_say(w, j, "fault", "%s was replaced while watched: the old file ends "
				"at its last complete block, the new one is watched as a new job",
				tr->path);
		return err ? err : 1;
	}
	if (watch_now() - tr->grew_at >= GONE_S && pid_gone(tr->pid)) {
		nv_tan_stream_cut(j->ts, i);
		err = watch_say(w, j, "fault", "%s has no footer and its writer (pid %d) is "
				"gone: %s; it ends at its last complete block", tr->path,
				(int)tr->pid, disk_full(nvt_reader_fd(r)) ?
				"its file system is full (the job failed on it)" :
				"fio was killed or the job failed");
		return err ? err : 1;
	}
	return 0;
}

/* One end record of operation k of t (exact totals of a), all of j's. */
static int end_op(struct wjob *j, const struct nv_tan *a, unsigned k, bool complete)
{
	const struct nv_tan_op *o = &a->op[k];
	double span = (double)a->span_ns / 1e9;
	struct nv_live_end e = {
		.job = j->name, .host = j->w->host, .op = nv_live_op_name(k),
		.complete = complete, .span_s = span,
		.ios = o->records, .bytes = o->bytes, .errors = o->errors,
		.iops = span > 0 ? (double)o->records / span : 0,
		.mb_per_s = span > 0 ? (double)o->bytes / 1e6 / span : 0,
		.p50_ns = o->lat.pct[NV_P50], .p99_ns = o->lat.pct[NV_P99],
		.p999_ns = o->lat.pct[NV_P999], .max_ns = o->lat.max,
	};

	return watch_end_rec(j->w, &e);
}

/* Tracing's waits on the IO loop, from j's footers now that they are in
 * (trace_wait.h): a finding per trace that held its IO loop, and the health
 * record with the job's total.  Return: 0 or an output's error. */
static int waits(struct nv_watch *w, struct wjob *j, const struct nv_tan *t)
{
	struct nv_trace_disturb d = { 0 };
	struct nv_live_health h = { .job = j->name, .host = w->host, .jobs_seen = w->njobs,
				    .jobs_ended = w->ended };
	char line[512];
	int err = 0, r;

	for (size_t i = 0; i < nv_tan_stream_ntraces(j->ts) && !err; i++) {
		struct nvt_reader *rd = nv_tan_stream_reader(j->ts, i);

		if (!nv_tan_stream_ended(j->ts, i) || !nvt_reader_footer(rd))
			continue;
		if (nv_trace_disturb_add(rd, t->span_ns, &d) < 0 ||
		    (r = nv_trace_wait_finding(rd, t->span_ns, line, sizeof(line))) < 0)
			return -ENOMEM;
		if (r == 1)
			err = watch_say(w, j, "wait", "%s: %s", nvt_reader_path(rd), line);
	}
	h.io_wait_s = (double)d.wait_ns / 1e9;
	return err ? err : watch_health_rec(w, &h);
}

/*
 * The post-run analysis of j's n traces into *a (to: its options), for the
 * totals pass 1 could not resolve: read from the open files (deleted or
 * replaced ones too).  Return: 0, or -errno with err set.
 */
static int rerun(struct wjob *j, size_t n, const struct nv_tan_opts *to, struct nv_tan *a,
		 char *err, size_t errlen)
{
	char (*paths)[32] = calloc(n, sizeof(*paths));
	const char **pp = calloc(n, sizeof(*pp));
	int ret = -ENOMEM;

	if (paths && pp) {
		for (size_t i = 0; i < n; i++) {
			snprintf(paths[i], sizeof(paths[i]), "/proc/self/fd/%d",
				 nvt_reader_fd(nv_tan_stream_reader(j->ts, i)));
			pp[i] = paths[i];
		}
		ret = nv_tan_run(pp, n, to, a, err, errlen);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(paths);
	free(pp);
	return ret;
}

/*
 * j's end: its totals, exact (what `nvanalyze -f json` will say: pass 1's
 * exact states, or where they need another read the post-run analysis of
 * its files), per operation and of all with several.
 * Return: 0 or an output's error.
 */
static int finish(struct nv_watch *w, struct wjob *j, bool complete)
{
	size_t n = j->ts ? nv_tan_stream_ntraces(j->ts) : 0;
	struct nv_tan_opts to = { .interval_ns = w->o->interval_ns };
	char err[PATH_MAX + 256];
	const struct nv_tan *t;
	struct nv_tan a;
	int ret = 0, got;

	j->ended = true;
	w->ended++;
	w->incomplete += !complete;
	for (size_t i = 0; i < j->ntr; i++) {	/* a later write: a new trace (watch.c) */
		struct stat sb;

		j->tr[i]->final = !stat(j->tr[i]->path, &sb);
		j->tr[i]->mtime = sb.st_mtim;
	}
	if (!n)
		return 0;
	/* fio's ramp: pass 1 of a trace without footer counted the ramp's IOs */
	if ((got = nv_tan_stream_tan(j->ts)->ramp_ns ? 0 : nv_tan_stream_exact(j->ts)) < 0)
		return got;
	if (!got && (ret = rerun(j, n, &to, &a, err, sizeof(err))))
		return ret == -ENOMEM ? ret :
		       watch_say(w, j, "fault", "the job's totals: %s", err);
	t = got ? nv_tan_stream_tan(j->ts) : &a;
	if (!j->announced)
		ret = announce(j, t);
	if (!ret)
		ret = waits(w, j, t);
	if (!ret && j->step_said)
		ret = watch_say(w, j, "step", "the throughput step at %g s held %g s, to the end",
				(double)j->step_at * (double)t->interval_ns / 1e9,
				(double)(j->nmb - j->step_at) * (double)t->interval_ns / 1e9);
	if (!ret && !complete)
		ret = watch_say(w, j, "end", "ended without every footer: totals of the "
				"complete blocks");
	for (unsigned k = 0; k < NVT_OP__MAX && !ret; k++)
		if (t->op[k].records)
			ret = end_op(j, t, k, complete);
	if (!ret && nv_tan_nops(t) > 1)
		ret = end_op(j, t, NV_TAN_ALL, complete);
	if (!ret && !t->records)
		ret = watch_say(w, j, "end", "no IO in its traces");
	if (!got)
		nv_tan_free(&a);
	return ret;
}

/* After the merge moved: the stall cleared, tracing's health to the outputs. */
static int moved(struct nv_watch *w, struct wjob *j)
{
	const struct nv_tan *t = nv_tan_stream_tan(j->ts);
	uint64_t pos = nv_tan_stream_pos(j->ts);
	struct nv_live_health h = {
		.job = j->name, .host = w->host,
		.io_wait_s = (double)t->disturb.wait_ns / 1e9,
		.jobs_seen = w->njobs, .jobs_ended = w->ended,
	};

	if (pos == j->pos)
		return 0;
	j->pos = pos;
	j->data_at = w->grew_at = watch_now();
	j->stall_said = false;
	h.behind_s = j->data_at - (double)pos / 1e9;
	return watch_health_rec(w, &h);
}

/* Step j's stream until it waits with nothing cut.  Return: as wjob_tick. */
static int step(struct nv_watch *w, struct wjob *j, bool cut_all)
{
	char err[PATH_MAX + 256];
	size_t need = 0;
	int r, e;

	for (;;) {
		r = nv_tan_stream_step(j->ts, &need, err, sizeof(err));
		if (w->failed)
			return w->failed;
		if ((e = moved(w, j)))
			return e;
		if (r == 0)
			return finish(w, j, !j->cut);
		if (r == -EBADMSG || r == -EINVAL || r == -EIO) {	/* one trace went bad */
			nv_tan_stream_cut(j->ts, need);
			j->cut = true;
			if ((e = watch_say(w, j, "fault", "%s: it ends at its last good "
					   "block", err)))
				return e;
			continue;
		}
		if (r < 0) {
			e = watch_say(w, j, "fault", "%s: the job's watch ends", err);
			return e ? e : finish(w, j, false);
		}
		if (cut_all) {
			nv_tan_stream_cut(j->ts, need);
			j->cut = true;
			continue;
		}
		if ((e = check_trace(w, j, need)) < 0)
			return e;
		j->cut |= e == 1;
		if (!e)
			return 0;
	}
}

int wjob_tick(struct nv_watch *w, struct wjob *j)
{
	int err;

	if (j->ended)
		return 0;
	if (!j->started) {
		if (!ready(w, j))
			return 0;
		if ((err = start(w, j)))
			return err;
	}
	for (size_t i = 0; i < j->ntr; i++)	/* a trace that appeared after the start */
		if (!j->tr[i]->in_stream && !j->tr[i]->left_out && (err = add_trace(j, j->tr[i])))
			return err;
	if ((err = step(w, j, false)) || j->ended)
		return err;
	if (!j->stall_said && watch_now() - j->data_at >= STALL_S) {
		j->stall_said = true;
		return watch_say(w, j, "stall", "no trace data for %.0f s: IO stalled or the "
				 "writer behind", STALL_S);
	}
	return 0;
}

int wjob_stop(struct nv_watch *w, struct wjob *j)
{
	int err;

	if (j->ended)
		return 0;
	if (!j->started && (err = start(w, j)))
		return err;
	return step(w, j, true);
}

void wjob_free(struct wjob *j)
{
	if (!j)
		return;
	nv_tan_stream_free(j->ts);
	free(j->tr);
	free(j->mbps);
	free(j->tmp);
	free(j->p99);
	free(j->key);
	free(j->name);
	free(j);
}
