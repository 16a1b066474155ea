/*
 * trace_sections.c - trace sections: tables and findings (trace_sections.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/trace_sections.h"

/* Append to buf at *len. */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*len >= n)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (r > 0)
		*len += (size_t)r < n - *len ? (size_t)r : n - *len - 1;
}

/*
 * One line on op's slow IOs: the episodes (chains of at least
 * NV_SPIKE_EPISODE_MIN_IOS slow IOs, at most 10 listed) and the isolated
 * slow IOs (count and the worst).
 */
static void describe_spikes(const struct nv_tan *t, unsigned op, char *buf, size_t n, size_t *len)
{
	char a[64], b[64], c[64], d[64];
	size_t cnt = 0, single = 0, shown = 0;
	const struct nv_tan_spike *worst1 = NULL;

	for (size_t i = 0; i < t->nspikes; i++) {
		const struct nv_tan_spike *s = &t->spikes[i];

		if (s->op != op)
			continue;
		if (nv_tan_spike_is_episode(s)) {
			cnt++;
		} else {
			single++;
			if (!worst1 || s->worst_ns > worst1->worst_ns)
				worst1 = s;
		}
	}
	nv_fmt_value(a, sizeof(a), (double)t->spike_threshold_ns[op], NV_U_NS);
	put(buf, n, len, "- %s latency spikes (an IO >= %s, %gx the median interval p99.9): ",
	    nvt_op_name(op), a, t->spike_factor);
	if (!cnt)
		put(buf, n, len, "no episode (%d or more slow IOs in a row)",
		    NV_SPIKE_EPISODE_MIN_IOS);
	else
		put(buf, n, len, "%zu episode%s:", cnt, cnt > 1 ? "s" : "");
	for (size_t i = 0; i < t->nspikes && cnt; i++) {
		const struct nv_tan_spike *s = &t->spikes[i];

		if (s->op != op || !nv_tan_spike_is_episode(s))
			continue;
		if (shown++ == 10) {
			put(buf, n, len, " ... and %zu more", cnt - 10);
			break;
		}
		nv_fmt_time(b, sizeof(b), (double)s->start_ns / 1e9);
		nv_fmt_value(c, sizeof(c), (double)(s->end_ns - s->start_ns), NV_U_NS);
		nv_fmt_value(d, sizeof(d), (double)s->worst_ns, NV_U_NS);
		put(buf, n, len, "%s at %s for %s, worst %s (%" PRIu64 " IO%s)",
		    shown > 1 ? ";" : "", b, c, d, s->slow_ios, s->slow_ios == 1 ? "" : "s");
	}
	if (worst1) {
		nv_fmt_value(b, sizeof(b), (double)worst1->worst_ns, NV_U_NS);
		nv_fmt_time(c, sizeof(c), (double)worst1->start_ns / 1e9);
		put(buf, n, len, "; %zu isolated slow IO%s, worst %s at %s", single,
		    single > 1 ? "s" : "", b, c);
	} else {
		put(buf, n, len, "; no isolated slow IO");
	}
	put(buf, n, len, ".\n");
}

size_t nv_tan_describe(const struct nv_tan *t, const struct nv_traceset *ts, char *buf, size_t n)
{
	struct nv_tan_find f;
	char a[64], b[64], c[64], d[64], e[64];
	double iv = (double)t->interval_ns / 1e9;
	size_t len = 0, lines = 0;

	buf[0] = 0;
	nv_tan_find(t, &f);
	if (f.nfull < NV_FIND_MIN_INTERVALS) {
		nv_fmt_time(a, sizeof(a), (double)t->span_ns / 1e9);
		put(buf, n, &len,
		    "- Too short for the rules over time: %s, %zu full intervals of %g s "
		    "(need %d; try a smaller --interval).\n",
		    a, f.nfull, iv, NV_FIND_MIN_INTERVALS);
		lines++;
	} else if (f.step.found) {
		nv_fmt_rate(a, sizeof(a), f.step.before);
		nv_fmt_time(b, sizeof(b), (double)f.step.at * iv);
		nv_fmt_rate(c, sizeof(c), f.step.after);
		nv_fmt_time(d, sizeof(d), (double)f.step.at * iv);
		nv_fmt_rate(e, sizeof(e), f.step.peak);
		put(buf, n, &len,
		    "- Burst then throttling: %s for %s, then %s from %s (%+.1f%%); "
		    "peak interval %s at %.0f s.\n",
		    a, b, c, d, 100 * (f.step.after - f.step.before) / f.step.before, e,
		    (double)f.step.peak_at * iv);
		lines++;
	} else {
		nv_fmt_rate(a, sizeof(a), f.median_mbps);
		nv_fmt_rate(b, sizeof(b), f.step.peak);
		put(buf, n, &len,
		    "- Throughput steady: median %s per %g s interval, peak %s at %.0f s; "
		    "no sustained drop (>= %.0f%%).\n",
		    a, iv, b, (double)f.step.peak_at * iv, 100 * NV_STEP_MIN_DROP);
		lines++;
	}
	if (f.warm.found) {
		nv_fmt_time(a, sizeof(a), (double)f.warm.end * iv);
		nv_fmt_rate(b, sizeof(b), f.warm.during);
		nv_fmt_rate(c, sizeof(c), f.warm.steady);
		put(buf, n, &len,
		    "- Warm-up: the first %s averaged %s (%.0f%% of the steady %s).\n", a, b,
		    100 * f.warm.during / f.warm.steady, c);
		lines++;
	} else if (f.nfull >= NV_FIND_MIN_INTERVALS) {
		put(buf, n, &len,
		    "- No warm-up: throughput within 10%% of its steady level from the start.\n");
		lines++;
	}
	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		if (t->series[op] && t->spike_threshold_ns[op] &&
		    (!ts || nv_traces_op_shown(ts, op))) {
			describe_spikes(t, op, buf, n, &len);
			lines++;
		}
	return lines;
}

static void ns_cell(struct nv_grid *g, size_t r, size_t c, double ns)
{
	char buf[64];

	nv_fmt_value(buf, sizeof(buf), ns, NV_U_NS);
	nv_grid_set(g, r, c, buf);
}

static int op_table(FILE *out, const struct nv_traceset *ts, const struct nv_tan *t,
		    enum nv_format f)
{
	static const char *const head[] = { "op", "IOs", "errors", "IOPS", "MB/s", "p50", "p90",
					    "p99", "p99.9", "p99.99", "max", "mean" };
	unsigned nops = 0, row = 1;
	double span = (double)t->span_ns / 1e9;
	struct nv_grid g;
	char buf[64];

	for (unsigned op = 0; op < NVT_OP__MAX; op++)
		nops += t->op[op].records && nv_traces_op_shown(ts, op);
	if (nv_grid_init(&g, nops + 1 + (nops > 1), 12))
		return -ENOMEM;
	for (unsigned c = 0; c < 12; c++)
		nv_grid_set(&g, 0, c, head[c]);
	for (unsigned op = 0; op < NV_TAN_NOPS; op++) {
		const struct nv_tan_op *o = &t->op[op];

		/* "all": every operation's IOs, shown when several operations are */
		if (op == NV_TAN_ALL ? nops < 2 : !o->records || !nv_traces_op_shown(ts, op))
			continue;
		nv_grid_set(&g, row, 0, op == NV_TAN_ALL ? "all" : nvt_op_name(op));
		snprintf(buf, sizeof(buf), "%" PRIu64, o->records);
		nv_grid_set(&g, row, 1, buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, o->errors);
		nv_grid_set(&g, row, 2, buf);
		nv_fmt_value(buf, sizeof(buf), span > 0 ? (double)o->lat.n / span : 0, NV_U_IOPS);
		nv_grid_set(&g, row, 3, buf);
		nv_fmt_value(buf, sizeof(buf), span > 0 ? (double)o->bytes / 1e6 / span : 0,
			     NV_U_MBPS);
		nv_grid_set(&g, row, 4, buf);
		{
			static const unsigned cols[] = { NV_P50, NV_P90, NV_P99, NV_P999,
							 NV_P9999 };

			for (unsigned k = 0; k < 5; k++)
				ns_cell(&g, row, 5 + k, (double)o->lat.pct[cols[k]]);
		}
		ns_cell(&g, row, 10, (double)o->lat.max);
		ns_cell(&g, row, 11, o->lat.mean);
		row++;
	}
	nv_grid_print(out, &g, f);
	nv_grid_free(&g);
	return 0;
}

static int qd_table(FILE *out, const struct nv_traceset *ts, const struct nv_tan *t,
		    enum nv_format f)
{
	static const char *const head[] = {
		"op", "qd", "IOs", "mean", "p50", "p99", "p99.9", "max"
	};
	size_t rows = 0, r = 0;
	struct nv_grid g;
	char buf[64];

	for (size_t i = 0; i < t->nqd; i++)
		rows += nv_traces_op_shown(ts, t->qd[i].op);
	if (nv_grid_init(&g, rows + 1, 8))
		return -ENOMEM;
	for (unsigned c = 0; c < 8; c++)
		nv_grid_set(&g, 0, c, head[c]);
	for (size_t k = 0; k < t->nqd; k++) {
		const struct nv_tan_qd *q = &t->qd[k];
		size_t i = r;

		if (!nv_traces_op_shown(ts, q->op))
			continue;
		r++;
		nv_grid_set(&g, i + 1, 0, nvt_op_name(q->op));
		if (q->qd_lo == q->qd_hi)
			snprintf(buf, sizeof(buf), "%u", q->qd_lo);
		else
			snprintf(buf, sizeof(buf), "%u-%u", q->qd_lo, q->qd_hi);
		nv_grid_set(&g, i + 1, 1, buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, q->lat.n);
		nv_grid_set(&g, i + 1, 2, buf);
		ns_cell(&g, i + 1, 3, q->lat.mean);
		ns_cell(&g, i + 1, 4, (double)q->lat.pct[NV_P50]);
		ns_cell(&g, i + 1, 5, (double)q->lat.pct[NV_P99]);
		ns_cell(&g, i + 1, 6, (double)q->lat.pct[NV_P999]);
		ns_cell(&g, i + 1, 7, (double)q->lat.max);
	}
	nv_grid_print(out, &g, f);
	nv_grid_free(&g);
	return 0;
}

int nv_trace_sections_print(FILE *out, const struct nv_tracejoin *tj,
			    const char *(*label)(const struct nv_run *run, void *arg), void *arg,
			    enum nv_format f)
{
	const struct nv_traceset *ts = tj->ts;
	bool md = f == NV_FMT_MD;
	char *text = malloc(16384);

	if (!text)
		return -ENOMEM;
	for (size_t i = 0; i < tj->n; i++) {
		const struct nv_jobtraces *e = tj->j[i].jt;
		const struct nv_tan *t = &tj->j[i].tan;
		char span[64], ios[64];

		nv_fmt_time(span, sizeof(span), (double)t->span_ns / 1e9);
		nv_fmt_value(ios, sizeof(ios), (double)t->records, NV_U_COUNT);
		fprintf(out,
			md ? "### %s · %s: from the traces\n\n"
			   : "== %s · %s: from the traces ==\n",
			e->run->jobs[e->job].key, label(e->run, arg));
		fprintf(out, "%s IO%s in %zu trace%s (%s%s), %s", ios,
			t->records == 1 ? "" : "s", e->npaths, e->npaths > 1 ? "s" : "",
			e->paths[0], e->npaths > 1 ? " ..." : "", span);
		if (nv_display.verbose)
			fprintf(out, "; %u pass%s", t->passes, t->passes == 1 ? "" : "es");
		fprintf(out, ".  Exact latency: completion - submission, nearest rank over every "
			"IO.\n\n");
		if (t->ramp_ns) {
			nv_fmt_time(span, sizeof(span), (double)t->ramp_ns / 1e9);
			fprintf(out,
				"ramp_time %s: the %" PRIu64 " IOs submitted before fio's ramp "
							     "ended "
				"are left out, as fio leaves them out of its counts.\n\n",
				span, t->ramp_records);
		}
		if (t->disturb.traces) {
			char line[512];

			nv_trace_disturb_line(&t->disturb, line, sizeof(line));
			fprintf(out, "Tracing: %s.\n\n", line);
		}
		if (!t->records) {
			fprintf(out, "No IOs.\n\n");
			continue;
		}
		if (op_table(out, ts, t, f) < 0)
			goto nomem;
		fprintf(out, md ? "\nLatency by queue depth at submission (IOs in flight, "
			"this one included):\n\n" : "\nLatency by queue depth at submission:\n");
		if (qd_table(out, ts, t, f) < 0)
			goto nomem;
		nv_tan_describe(t, ts, text, 16384);
		fprintf(out, md ? "\nBehaviour over time (%g s intervals, t = 0 at the first "
			"submission):\n\n%s\n" : "\nBehaviour over time (%g s intervals):\n%s\n",
			(double)t->interval_ns / 1e9, text);
	}
	free(text);
	return 0;
nomem:
	free(text);
	return -ENOMEM;
}

/* One row of nv_trace_disturb_csv (have: the value is known).  Return: nothing. */
static void disturb_row(FILE *out, const char *job, const char *run, const char *metric,
			const char *unit, bool have, double v)
{
	char num[400] = "";

	if (have)
		nv_fmt_decimal(num, sizeof(num), v);
	nv_render_csv_field(out, job, true, true);
	nv_render_csv_field(out, run, false, true);
	nv_render_csv_field(out, metric, false, false);
	nv_render_csv_field(out, unit, false, false);
	nv_render_csv_field(out, num, false, false);
	fputc('\n', out);
}

int nv_trace_disturb_csv(FILE *out, const struct nv_tracejoin *tj,
			 const char *(*label)(const struct nv_run *run, void *arg), void *arg)
{
	bool head = false;

	for (size_t i = 0; i < tj->n; i++) {
		const struct nv_trace_disturb *d = &tj->j[i].tan.disturb;
		const struct nv_jobtraces *e = tj->j[i].jt;
		const char *job = e->run->jobs[e->job].key, *run = label(e->run, arg);
		bool cpu = d->cpus && d->records;

		if (!d->traces)
			continue;
		if (!head)
			fprintf(out, "\njob,run,metric,unit,value\n");
		head = true;
		disturb_row(out, job, run, "tracing IO-loop wait share", "%", true,
			    d->traced_ns ? 100.0 * (double)d->wait_ns / (double)d->traced_ns : 0);
		disturb_row(out, job, run, "tracing IO-loop waits", "count", true,
			    (double)d->waits);
		disturb_row(out, job, run, "tracing IO-loop wait", "ns", true, (double)d->wait_ns);
		disturb_row(out, job, run, "traced time", "ns", true, (double)d->traced_ns);
		disturb_row(out, job, run, "trace ring high-water", "chunks", d->rings,
			    (double)d->ring_high);
		disturb_row(out, job, run, "trace ring size", "chunks", d->rings,
			    (double)d->ring_chunks);
		disturb_row(out, job, run, "trace writer CPU per record", "ns", cpu,
			    cpu ? (double)d->cpu_ns / (double)d->records : 0);
		if (d->grouped)	/* docs/trace.md: the writer can stall this IO */
			disturb_row(out, job, run, "traces with io-wq IO under autogroup", "count",
				    true, (double)d->grouped);
	}
	return 0;
}
