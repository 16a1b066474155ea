/*
 * diskspd.c - diskspd 2.0-2.2 text reports read into a run (diskspd.h).
 *
 * The report is read line by line, the reference being diskspd's own
 * ResultParser (ResultParser.cpp: _PrintSectionFieldNames, _PrintCpuUtilization,
 * _PrintLatencyPercentiles).  The "Command Line:" names the jobs; each
 * "Results for timespan" opens one; inside it "actual test time:", the
 * CPU table's "avg." row, the Total/Read/Write IO tables (their header says
 * which optional columns follow "I/O per s") and the "%-ile" table fill it.
 * With several targets diskspd prints a %-ile table per target, each after
 * the target's path, then the totals' after "total:" (2.2: "Total latency
 * distribution:"): only a table after one of those is read, the others
 * are left out with a note.
 * A table row that does not parse is an error naming the line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/diskspd.h"
#include "analyze/input/diskspdjob.h"
#include "analyze/input/textlines.h"

enum ds_col { DS_BYTES, DS_IOS, DS_MIBS, DS_IOPS, DS_AVGLAT, DS_IOPSDEV, DS_LATDEV, DS_NCOL };

enum ds_state { DS_NONE, DS_IOHEAD, DS_IOROWS, DS_PCT, DS_PCT_SKIP };

struct ds_ctx {
	const char *path;
	struct nv_run *run;
	unsigned line;
	struct nv_diskspd_params p;	/* from the command line or input parameters */
	bool cmdline;			/* a Command Line: was read */
	struct nv_job *job;	/* the timespan being read */
	unsigned timespans;
	enum ds_state state;
	int dir;		/* the IO table's direction, -1 for Total IO */
	int cols[DS_NCOL];	/* column index of each field, -1 absent */
	bool after_total;	/* the line before was "total:", "Total latency ..." or,
				 * blanks between, an IO table's total row (2.0.18a and
				 * before: one %-ile table, the totals', after it) */
	bool old_mbs;		/* an IO table headed MB/s (2^20 bytes/s): before 2.0.18 */
	bool in_cmd;		/* the lines after "Command Line:" up to a blank */
	size_t cmdlast;		/* the length of the command line's last line */
	char *cmd;		/* the command line, its wrapped lines joined */
	bool noted_targets;	/* the per-target %-ile tables' note was added */
	bool measuring;		/* "measuring latency" (-L): a %-ile table ends it */
	bool ended;		/* the timespan's last table was read */
	bool rest;		/* other text came after it: the rest is not the report's */
	char *err;
	size_t errlen;
};

bool nv_diskspd_sniff(const char *text, size_t len)
{
	return memmem(text, len, "Results for timespan", 20) &&
	       memmem(text, len, "I/O per s", 9);
}

static int ds_error(struct ds_ctx *c, const char *what)
{
	snprintf(c->err, c->errlen, "%s:%u: %s report%s, read up to here: %s", c->path, c->line,
		 c->old_mbs ? "diskspd 2.0.x (MB/s, before 2.0.18) text" : "diskspd text",
		 c->timespans ? "" : " (before its first timespan)", what);
	return -EINVAL;
}

static int ds_nomem(struct ds_ctx *c)
{
	snprintf(c->err, c->errlen, "%s: out of memory", c->path);
	return -ENOMEM;
}

/*
 * "Command Line: diskspd -b4K -t4 -o32 -r -w0 ..." -> "randread-4k-t4-qd32".
 * Return: 0, or -ENOMEM.
 */
static int ds_cmdline(struct ds_ctx *c, const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;

	if (!copy)
		return ds_nomem(c);
	c->cmdline = true;
	c->p = (struct nv_diskspd_params)NV_DISKSPD_PARAMS_INIT;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (tok[0] != '-' && tok[0] != '/')
			continue;
		switch (tok[1]) {
		case 'b': nv_diskspd_size(tok + 2, c->p.bs, sizeof(c->p.bs)); break;
		case 't':	/* threads per file */
		case 'F':	/* threads in all, each on every file (2.0.x's -F) */
			c->p.threads = (unsigned)strtoul(tok + 2, NULL, 10);
			break;
		case 'o': c->p.qd = (unsigned)strtoul(tok + 2, NULL, 10); break;
		case 'r': c->p.rnd = true; break;
		case 's': c->p.si = tok[2] == 'i'; break;
		case 'w': c->p.w = (unsigned)strtoul(tok + 2, NULL, 10); break;
		default: break;
		}
	}
	free(copy);
	return 0;
}

/*
 * A line of the command line: "Command Line: ..." (wrapped lines follow
 * up to a blank one).  A console wraps at its width, inside a word (the
 * line before exactly 80 characters or a multiple: joined as it is); an
 * editor at a blank (joined with one).  The joined command line names the
 * jobs (ds_cmdline) and is the run's context.  Return: 0, or -ENOMEM.
 */
static int ds_cmdpart(struct ds_ctx *c, const char *line, bool first)
{
	size_t o = c->cmd ? strlen(c->cmd) : 0, n = 0;
	bool glue = !first && c->cmdlast >= 80 && c->cmdlast % 80 == 0;
	const char *add = first ? nv_text_skip(line + 13) : glue ? line : nv_text_skip(line);
	char *d = realloc(first ? NULL : c->cmd, o + strlen(add) + 2);

	if (!d)
		return ds_nomem(c);
	if (first) {
		free(c->cmd);
		o = 0;
	}
	for (const char *p = line; *p; p++)	/* columns: characters, not UTF-8 bytes */
		n += ((unsigned char)*p & 0xc0) != 0x80;
	snprintf(d + o, strlen(add) + 2, "%s%s", o && !glue ? " " : "", add);
	c->cmd = d;
	c->cmdlast = n;
	c->in_cmd = true;
	return ds_cmdline(c, c->cmd);
}

/* A value after "KEY:" in s.  Return: a pointer into s past the colon, or NULL. */
static const char *ds_after(const char *s, const char *key)
{
	size_t n = strlen(key);

	return strncmp(s, key, n) || !strchr(s + n, ':') ? NULL :
	       nv_text_skip(strchr(s + n, ':') + 1);
}

/*
 * Without a command line, the "Input parameters:" lines give the same
 * parameters ("block size: 4KiB", "using random I/O", "performing mix test
 * (read/write ratio: 70/30)", ...).  Return: nothing.
 */
static void ds_param(struct ds_ctx *c, const char *s)
{
	const char *v;

	if (c->cmdline)
		return;
	if ((v = ds_after(s, "block size")))
		nv_diskspd_size(v, c->p.bs, sizeof(c->p.bs));
	else if ((v = ds_after(s, "number of outstanding I/O operations")))
		c->p.qd = (unsigned)strtoul(v, NULL, 10);
	else if ((v = ds_after(s, "threads per file")))
		c->p.threads = (unsigned)strtoul(v, NULL, 10);
	else if (!strncmp(s, "using random I/O", 16))
		c->p.rnd = true;
	else if (!strncmp(s, "using interlocked sequential I/O", 32))
		c->p.si = true;
	else if (!strncmp(s, "performing read test", 20))
		c->p.w = 0;
	else if (!strncmp(s, "performing write test", 21))
		c->p.w = 100;
	else if ((v = strstr(s, "read/write ratio:")) && (v = strchr(v, '/')) &&
		 (v = strchr(v + 1, '/')))
		c->p.w = (unsigned)strtoul(v + 1, NULL, 10);
}

/* "Results for timespan N:" opens a job.  Return: 0, or -errno. */
static int ds_timespan(struct ds_ctx *c)
{
	c->timespans++;
	c->ended = c->rest = false;
	if (nv_diskspd_job(c->run, &c->p, c->timespans, &c->job))
		return ds_nomem(c);
	return 0;
}

/* The IO table's header: which columns it has.  Return: 0, or -EINVAL. */
static int ds_header(struct ds_ctx *c, const char *s)
{
	static const char *const names[DS_NCOL] = { "bytes", "I/Os", "MiB/s", "I/O per s",
						    "AvgLat", "IopsStdDev", "LatStdDev" };
	int col = -1;	/* "thread" is column 0; the total row lacks it: see ds_total */
	char *copy = strdup(s), *tok, *save = NULL;

	if (!copy)
		return ds_nomem(c);
	for (int k = 0; k < DS_NCOL; k++)
		c->cols[k] = -1;
	for (tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save), col++) {
		const char *t = nv_text_skip(tok);
		size_t n = strlen(t);

		while (n && t[n - 1] == ' ')
			n--;
		for (int k = 0; k < DS_NCOL; k++)
			if (strlen(names[k]) == n && !strncmp(t, names[k], n))
				c->cols[k] = col;
		if (n == 4 && !strncmp(t, "MB/s", 4)) {	/* before 2.0.18: MiB/s as MB/s */
			c->cols[DS_MIBS] = col;
			c->old_mbs = true;
		}
	}
	free(copy);
	for (int k = DS_BYTES; k <= DS_IOPS; k++)
		if (c->cols[k] < 0)
			return ds_error(c, "an IO table header without its bytes, I/Os, "
					   "MiB/s (MB/s before 2.0.18) and I/O per s columns: "
					   "expected 'thread | bytes | I/Os | MiB/s | I/O per s "
					   "... | file'");
	return 0;
}

/*
 * The numbers of an IO table row from p (after "total:" or the thread
 * number): one per column of the header, '|' between them, "N/A" left
 * missing; a thread row ends with "| file".  Return: 0, or -EINVAL.
 */
static int ds_fields(const struct ds_ctx *c, const char *p, struct nv_val v[DS_NCOL])
{
	int ncols = 0;

	for (int k = 0; k < DS_NCOL; k++)
		if (c->cols[k] + 1 > ncols)
			ncols = c->cols[k] + 1;
	for (int col = 0; col < ncols; col++) {
		struct nv_val x;

		if (col > 0) {
			p = nv_text_skip(p);
			if (*p++ != '|')
				return -EINVAL;
		}
		p = nv_text_skip(p);
		if (!strncmp(p, "N/A", 3)) {	/* LatStdDev of a direction without IOs */
			p += 3;
			continue;
		}
		if (nv_text_number(&p, 1, &x))
			return -EINVAL;
		for (int k = 0; k < DS_NCOL; k++)
			if (c->cols[k] == col)
				v[k] = x;
	}
	p = nv_text_skip(p);
	return *p && *p != '|' ? -EINVAL : 0;
}

/* v (ms as printed) as ns into *out.  Return: nothing. */
static void ds_ms(struct nv_val *out, struct nv_val v)
{
	*out = v;
	out->v *= 1e6;
	out->prec *= 1e6f;
}

/* The "total:" row of a Read or Write IO table.  Return: 0, or -EINVAL. */
static int ds_total(struct ds_ctx *c, const char *s)
{
	struct nv_val v[DS_NCOL] = { { 0 } };
	struct nv_dirstat *ds;

	if (ds_fields(c, s + 6, v))
		return ds_error(c, "an IO table's total: row that does not parse (a number "
				   "missing or garbled; the report damaged?)");
	c->state = DS_NONE;
	if (c->dir < 0)
		return 0;	/* Total IO: the sum of Read IO and Write IO */
	c->ended = c->dir == NV_DIR_WRITE && !c->measuring;
	ds = &c->job->dir[c->dir];
	ds->present = true;
	ds->have_ios = ds->have_io_bytes = true;
	ds->ios = (uint64_t)v[DS_IOS].v;
	ds->io_bytes = (uint64_t)v[DS_BYTES].v;
	ds->iops = v[DS_IOPS];
	ds->bw = v[DS_MIBS];
	ds->bw.v *= 1048576;
	ds->bw.prec *= 1048576;
	if (ds->ios == 0)
		return 0;	/* no IOs: diskspd prints 0.000 and N/A, not latencies */
	if (v[DS_AVGLAT].src)
		ds_ms(&ds->lat[NV_LAT_TOTAL].mean, v[DS_AVGLAT]);
	if (v[DS_LATDEV].src)
		ds_ms(&ds->lat[NV_LAT_TOTAL].stdev, v[DS_LATDEV]);
	return 0;
}

/* An IO table line after the header.  Return: 0, or -EINVAL. */
static int ds_iorow(struct ds_ctx *c, const char *s)
{
	struct nv_val v[DS_NCOL] = { { 0 } };
	char *end;

	if (!strncmp(s, "total:", 6))
		return ds_total(c, s);
	if (*s == '-')
		return 0;
	strtoul(s, &end, 10);
	if (end == s || ds_fields(c, nv_text_skip(end) + (*nv_text_skip(end) == '|'), v))
		return ds_error(c, "an IO table row that does not parse (expected 'thread | "
				   "bytes | I/Os | MiB/s | I/O per s ... | file'; the report "
				   "damaged?)");
	return 0;
}

/* The percentile of a %-ile row's label ("25th", "3-nines"); -1 min, -2 max, 0 bad. */
static double ds_pct_label(const char *t)
{
	char *end;
	double n;

	if (!strncmp(t, "min", 3))
		return -1;
	if (!strncmp(t, "max", 3))
		return -2;
	n = strtod(t, &end);
	if (end == t || n <= 0)
		return 0;
	if (!strncmp(end, "th", 2) || !strncmp(end, "st", 2) || !strncmp(end, "nd", 2))
		return n < 100 ? n : 0;
	if (!strncmp(end, "-nines", 6) && n < 16) {
		double p = 100;

		for (int i = 0; i < (int)n; i++)
			p /= 10;
		return 100 - p;
	}
	return 0;
}

/*
 * A %-ile row "  25th |  1.063 |  N/A |  1.063": Read and Write into their
 * directions; Total, the distribution of all operations, into the mixed
 * direction when the test both reads and writes (else it is the one
 * direction's column again).  Return: 0, or -errno.
 */
static int ds_pctrow(struct ds_ctx *c, const char *s)
{
	static const enum nv_dir dirs[3] = { NV_DIR_READ, NV_DIR_WRITE, NV_DIR_MIXED };
	const char *p = strchr(s, '|');
	double pct = ds_pct_label(s);
	int ncol = c->job->dir[NV_DIR_READ].ios && c->job->dir[NV_DIR_WRITE].ios ? 3 : 2;
	int ret;

	if (!p || pct == 0)
		return ds_error(c, "a %-ile row that does not parse (expected 'LEVEL | Read | "
				   "Write | Total' in ms)");
	c->job->dir[NV_DIR_MIXED].present |= ncol == 3;
	for (int d = 0; d < ncol; d++) {
		struct nv_val v;

		p = nv_text_skip(p + 1);
		if (!strncmp(p, "N/A", 3)) {
			p = strchr(p, '|');
		} else if (nv_text_number(&p, 1e6, &v) ||
			   !strchr("|\r\n", *(p = nv_text_skip(p)))) {
			/* "0#junk.5": damage */
			return ds_error(c, "a %-ile row with a value that does not parse");
		} else if ((ret = nv_diskspd_point(&c->job->dir[dirs[d]].lat[NV_LAT_TOTAL], pct,
						   v))) {
			return ret == -EINVAL ? ds_error(c, "a %-ile row out of order (each level "
							    "after a lower one, min to max)")
					      : ds_nomem(c);
		}
		p = p ? strchr(p, '|') : NULL;
		if (!p && d < 2)
			return ds_error(c, "a %-ile row with fewer than 3 columns");
	}
	return 0;
}

/*
 * The CPU table's "avg.|  3.94%|   0.94%|   3.01%|  96.06%" (either layout).
 * Return: 0, or -EINVAL.
 */
static int ds_cpu(struct ds_ctx *c, const char *s)
{
	struct nv_val f[8];
	int n = 0;

	for (const char *p = strchr(s, '|'); p && n < 8; p = strchr(p, '|')) {
		p++;
		if (nv_text_number(&p, 1, &f[n++]) || *p != '%')
			return ds_error(c, "a CPU avg. row that does not parse (expected 'avg.| "
					   "Usage%| User%| Kernel%| Idle%')");
	}
	if (n < 4)
		return ds_error(c, "a CPU avg. row with fewer than 4 columns");
	c->job->x.usr_cpu = f[n - 3];
	c->job->x.sys_cpu = f[n - 2];
	return 0;
}

/* The job of a timespan is whole: Read IO and Write IO totals read.  Return: 0, -EINVAL. */
static int ds_close(struct ds_ctx *c)
{
	if (c->job && (!c->job->dir[NV_DIR_READ].present || !c->job->dir[NV_DIR_WRITE].present))
		return ds_error(c, "a timespan without its Read IO and Write IO totals (the "
				   "report cut short?)");
	return 0;
}

/* "actual test time:	60.00s".  Return: 0, -EINVAL. */
static int ds_time(struct ds_ctx *c, const char *s)
{
	struct nv_val t;

	if (nv_text_number(&s, 1000, &t))
		return ds_error(c, "an actual test time that does not parse");
	for (int d = 0; d < NV_DIR_NR; d++)
		c->job->dir[d].runtime_ms = t;
	return 0;
}

/*
 * A "%-ile" header: the totals' table after "total:" / "Total latency
 * distribution:", else one target's (left out, noted once).  Return: 0.
 */
static int ds_pcthead(struct ds_ctx *c, bool after_total)
{
	if (after_total) {
		c->state = DS_PCT;
		return 0;
	}
	c->state = DS_PCT_SKIP;
	if (!c->noted_targets)
		nv_note_add(&c->run->notes, &c->run->nnotes,
			    "%s:%u: per-target latency percentiles left out: the total: "
			    "table's are read", c->path, c->line);
	c->noted_targets = true;
	return 0;
}

/*
 * A line s after the timespan's last table: a %-ile table whose -L the
 * report did not say (no "measuring latency") goes on with it; anything
 * else, prose, a prompt, another output's tables, ends the report, its
 * rest not read (noted): text after it, a post's next machine.
 * Return: nothing.
 */
static void ds_rest(struct ds_ctx *c, const char *s)
{
	if (!c->measuring && c->state == DS_NONE &&
	    (!strncmp(s, "%-ile", 5) || !strcmp(s, "total:") ||
	     !strncmp(s, "Total latency distribution:", 27))) {
		c->ended = false;
		return;
	}
	c->rest = c->run->text_after = true;
	nv_note_add(&c->run->notes, &c->run->nnotes, "%s:%u: the diskspd report ends before "
		    "this line (prose, a prompt or another output's tables follow it): the rest "
		    "of the output is not read", c->path, c->line);
}

/* One line of the report (CR and newline removed).  Return: 0, or -errno. */
static int ds_line(void *ctx, const char *line, unsigned lineno)
{
	struct ds_ctx *c = ctx;
	const char *s = nv_text_skip(line);
	bool after_total = c->after_total;

	c->line = lineno;
	if (*s)
		c->after_total = !strcmp(s, "total:") || (c->state == DS_IOROWS &&
							   !strncmp(s, "total:", 6)) ||
				 !strncmp(s, "Total latency distribution:", 27);
	if (!strncmp(s, "Command Line:", 13))
		return ds_cmdpart(c, line, true);
	if (c->in_cmd && *s && !c->job)
		return ds_cmdpart(c, line, false);
	c->in_cmd = false;
	if (!strncmp(s, "Results for timespan", 20)) {
		int ret = ds_close(c);

		return ret ? ret : ds_timespan(c);
	}
	if (!c->job) {
		c->measuring |= !strcmp(s, "measuring latency");
		ds_param(c, s);
		return 0;
	}
	if (c->rest)
		return 0;
	if (c->state == DS_IOROWS && *s)
		return ds_iorow(c, s);
	if (c->state == DS_PCT || c->state == DS_PCT_SKIP) {
		if (*s == '-')
			return 0;
		if (*s && strchr(s, '|'))
			return c->state == DS_PCT ? ds_pctrow(c, s) : 0;
		c->ended |= c->state == DS_PCT;	/* the totals' table: the last */
		c->state = DS_NONE;
	}
	if (c->ended && *s && strncmp(s, "```", 3))
		ds_rest(c, s);
	if (c->rest)
		return 0;
	if (c->state == DS_IOHEAD && !strncmp(s, "thread", 6)) {
		c->state = DS_IOROWS;
		return ds_header(c, s);
	}
	if (!strncmp(s, "actual test time:", 17))
		return ds_time(c, s + 17);
	if (!strncmp(s, "avg.|", 5))
		return ds_cpu(c, s);
	if (!strcmp(s, "Total IO") || !strcmp(s, "Read IO") || !strcmp(s, "Write IO")) {
		c->state = DS_IOHEAD;
		c->dir = s[0] == 'T' ? -1 : s[0] == 'R' ? NV_DIR_READ : NV_DIR_WRITE;
		return 0;
	}
	if (!strncmp(s, "%-ile", 5))
		return ds_pcthead(c, after_total);
	return 0;
}

int nv_diskspd_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		     char *err, size_t errlen)
{
	struct ds_ctx c = { .path = path, .run = run, .dir = -1, .err = err, .errlen = errlen,
			    .p = NV_DISKSPD_PARAMS_INIT };
	int ret;

	memset(run, 0, sizeof(*run));
	*err = '\0';
	ret = nv_text_lines(text, len, ds_line, &c, &c.line);
	if (ret == -EINVAL && !*err)
		ds_error(&c, "a NUL byte in the text");
	else if (ret == -ENOMEM && !*err)
		ds_nomem(&c);
	if (!ret && c.state == DS_IOROWS)
		ret = ds_error(&c, "an IO table without its total: row (the report cut short?)");
	if (!ret)
		ret = ds_close(&c);
	if (!ret && !run->njobs) {
		snprintf(err, errlen, "%s: a diskspd report without results", path);
		ret = -EINVAL;
	}
	if (!ret) {
		run->path = strdup(path);
		run->fio_version = strdup(c.old_mbs ? "diskspd 2.0.x (before 2.0.18)" : "diskspd");
		run->objects = 1;
		run->digest = nv_hash(text, len);
		if (c.cmd && asprintf(&run->desc, "Command Line: %s", c.cmd) < 0)
			run->desc = NULL;
		if (!run->path || !run->fio_version || (c.cmd && !run->desc))
			ret = ds_nomem(&c);
	}
	free(c.cmd);
	if (ret)
		nv_run_free(run);
	return ret;
}
