/*
 * diskspdxml.c - diskspd's XML reports (-Rxml) read into a run (diskspdxml.h).
 *
 * expat reads the XML; the handlers keep the path of open elements
 * ("Results/TimeSpan/Thread/Target/ReadCount") and act on the elements of
 * the table fields[] when they close, with their text.  The Profile's
 * timespans come first in the file (XmlResultParser::ParseResults writes
 * System, Profile, then the result TimeSpans), so each result TimeSpan is
 * named when it opens.  Every number must parse whole; a required count
 * missing, a count that does not add up, or XML that is not well-formed is
 * an error naming the line (expat's line numbers).
 */
#include <errno.h>
#include <stdarg.h>
#include <expat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/diskspdjob.h"
#include "analyze/input/diskspdxml.h"
#include "analyze/input/textlines.h"

#define DX_DEPTH 24	/* deeper elements are none of ours: not tracked */
#define DX_TEXT 256	/* an element's text kept; longer is none of ours */

/* The elements read (see fields[]). */
enum dx_field {
	F_NONE, F_COMPUTER, F_VERSION, F_PTS, F_PTS_THREADS, F_PTARGET, F_P_BS, F_P_RANDOM,
	F_P_SI, F_P_QD, F_P_W, F_P_TPF, F_TS, F_TS_TIME, F_TS_THREADS, F_CPU, F_CPU_USER,
	F_CPU_KERNEL, F_AVG_USER, F_AVG_KERNEL, F_THREAD, F_TARGET, F_T_BYTES, F_T_IOS,
	F_T_RB, F_T_RC, F_T_WB, F_T_WC, F_T_RLAT, F_T_WLAT, F_LAT_R, F_LAT_RDEV, F_LAT_W,
	F_LAT_WDEV, F_BUCKET, F_B_PCT, F_B_R, F_B_W, F_B_T, F_IOPS_RDEV, F_IOPS_WDEV,
	F_IOPS_BUCKET, F_CHECK, F_CHECKNUM,
};

#define PTS "Results/Profile/TimeSpans/TimeSpan"
#define PTG PTS "/Targets/Target/"
#define RTS "Results/TimeSpan"
#define RTG RTS "/Thread/Target/"

static const struct { const char *path; enum dx_field f; } fields[] = {
	{ "Results/System/ComputerName", F_COMPUTER },
	{ "Results/System/Tool/Version", F_VERSION },
	{ PTS, F_PTS }, { PTS "/ThreadCount", F_PTS_THREADS }, { PTS "/RequestCount", F_CHECK },
	{ RTS "/RequestCount", F_CHECK }, { RTS "/ProcCount", F_CHECK },
	{ PTS "/Targets/Target", F_PTARGET },
	{ PTG "BlockSize", F_P_BS }, { PTG "Random", F_P_RANDOM },
	{ PTG "InterlockedSequential", F_P_SI }, { PTG "RequestCount", F_P_QD },
	{ PTG "WriteRatio", F_P_W }, { PTG "ThreadsPerFile", F_P_TPF },
	{ RTS, F_TS }, { RTS "/TestTimeSeconds", F_TS_TIME }, { RTS "/ThreadCount", F_TS_THREADS },
	{ RTS "/CpuUtilization/CPU", F_CPU },
	{ RTS "/CpuUtilization/CPU/UserPercent", F_CPU_USER },
	{ RTS "/CpuUtilization/CPU/KernelPercent", F_CPU_KERNEL },
	{ RTS "/CpuUtilization/Average/UserPercent", F_AVG_USER },
	{ RTS "/CpuUtilization/Average/KernelPercent", F_AVG_KERNEL },
	{ RTS "/Thread", F_THREAD }, { RTS "/Thread/Target", F_TARGET },
	{ RTG "BytesCount", F_T_BYTES }, { RTG "IOCount", F_T_IOS }, { RTG "ReadBytes", F_T_RB },
	{ RTG "ReadCount", F_T_RC }, { RTG "WriteBytes", F_T_WB }, { RTG "WriteCount", F_T_WC },
	{ RTG "AverageReadLatencyMilliseconds", F_T_RLAT },
	{ RTG "AverageWriteLatencyMilliseconds", F_T_WLAT },
	{ RTS "/Latency/AverageReadMilliseconds", F_LAT_R },
	{ RTS "/Latency/ReadLatencyStdev", F_LAT_RDEV },
	{ RTS "/Latency/AverageWriteMilliseconds", F_LAT_W },
	{ RTS "/Latency/WriteLatencyStdev", F_LAT_WDEV },
	{ RTS "/Latency/Bucket", F_BUCKET }, { RTS "/Latency/Bucket/Percentile", F_B_PCT },
	{ RTS "/Latency/Bucket/ReadMilliseconds", F_B_R },
	{ RTS "/Latency/Bucket/WriteMilliseconds", F_B_W },
	{ RTS "/Latency/Bucket/TotalMilliseconds", F_B_T },
	{ RTS "/Iops/ReadIopsStdDev", F_IOPS_RDEV }, { RTS "/Iops/WriteIopsStdDev", F_IOPS_WDEV },
	{ RTS "/Iops/Bucket", F_IOPS_BUCKET },
	{ RTG "Iops/ReadIopsStdDev", F_CHECKNUM }, { RTG "Iops/WriteIopsStdDev", F_CHECKNUM },
};

/* One Thread/Target's counts: T_* bits say which were read. */
enum { T_BYTES = 1, T_IOS = 2, T_RB = 4, T_RC = 8, T_WB = 16, T_WC = 32, T_NEED = 60 };

/* The numbers of a result TimeSpan read so far (both directions: [0] read, [1] write). */
struct dx_ts {
	size_t job;			/* its index in run->jobs */
	struct nv_val time;		/* TestTimeSeconds */
	long threadcount;		/* ThreadCount, -1 not read */
	unsigned threads;		/* Thread elements */
	uint64_t ios[2], bytes[2];
	double latsum[2];		/* per-target mean * IOs: the mean without <Latency> */
	uint64_t latios[2];
	double usr, sys;		/* per-CPU sums, when no Average */
	unsigned ncpu, nusr, nsys;
	bool avg_usr, avg_sys;
	struct { double min, max, sum; unsigned n; } iops[2];	/* Iops Buckets */
};

struct dx_ctx {
	const char *path;
	struct nv_run *run;
	XML_Parser xp;
	char *err;
	size_t errlen;
	int ret;			/* the first error; the handlers do nothing after it */
	char where[DX_DEPTH * 40];	/* the path of open elements, '/' between */
	size_t off[DX_DEPTH + 1];	/* where[] length at each depth */
	unsigned depth;
	unsigned skip;			/* depth inside an element not tracked */
	char text[DX_TEXT];
	size_t tlen;
	bool tlong;			/* the text did not fit */
	struct nv_diskspd_params *prof;	/* the Profile's timespans */
	size_t nprof;
	unsigned ptargets;		/* Targets of the Profile timespan being read */
	long pthreads;			/* its ThreadCount (-F), -1 none */
	char *version, *computer;
	unsigned nts;			/* result TimeSpans opened */
	bool in_ts;
	struct dx_ts ts;
	unsigned thave;			/* the Target being read: T_* */
	uint64_t t[6];			/* its BytesCount, IOCount, ReadBytes, ... by bit */
	struct nv_val tlat[2];		/* its mean latencies, src 0 if none */
	bool bhave_pct;			/* the Latency Bucket being read */
	double bpct;
	struct nv_val bval[3];		/* Read, Write, Total (all operations) */
};

bool nv_diskspdxml_sniff(const char *text, size_t len)
{
	const char *p = nv_text_skip(text), *end = text + len;

	while (p < end && (*p == '\n' || *p == '\r'))
		p = nv_text_skip(p + 1);
	if (!strncmp(p, "<?xml", 5)) {	/* the declaration PowerShell or an editor adds */
		p = memmem(p, (size_t)(end - p), "?>", 2);
		if (!p)
			return false;
		p += 2;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
	}
	return !strncmp(p, "<Results>", 9);
}

/* Record an error "path:line: what" (the first one wins).  Return: -EINVAL. */
static int dx_error(struct dx_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int dx_error(struct dx_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->ret)
		return c->ret;
	n = snprintf(c->err, c->errlen, "%s:%lu: ", c->path,
		     (unsigned long)XML_GetCurrentLineNumber(c->xp));
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	c->ret = -EINVAL;
	XML_StopParser(c->xp, XML_FALSE);
	return c->ret;
}

static int dx_nomem(struct dx_ctx *c)
{
	if (!c->ret)
		snprintf(c->err, c->errlen, "%s: out of memory", c->path);
	c->ret = -ENOMEM;
	XML_StopParser(c->xp, XML_FALSE);
	return c->ret;
}

/* The element just closed (the last name of c->where).  Return: its name. */
static const char *dx_name(const struct dx_ctx *c)
{
	const char *s = strrchr(c->where, '/');

	return s ? s + 1 : c->where;
}

/* s (the element's text or an attribute) as a decimal, whole, times mult.  Return: 0, -EINVAL. */
static int dx_decimal(struct dx_ctx *c, const char *s, const char *what, double mult,
		      struct nv_val *v)
{
	const char *p = s;

	if (nv_text_number(&p, mult, v) || *nv_text_skip(p) || !isfinite(v->v) || v->v < 0)
		return dx_error(c, "%s is not a number (the report damaged?)", what);
	return 0;
}

/* The text of the element as a decimal times mult.  Return: 0, -EINVAL. */
static int dx_number(struct dx_ctx *c, double mult, struct nv_val *v)
{
	char what[72];

	snprintf(what, sizeof(what), "<%.60s>", dx_name(c));
	if (c->tlong)
		return dx_error(c, "%s is not a number (the report damaged?)", what);
	return dx_decimal(c, c->text, what, mult, v);
}

/* The text as a count (digits only).  Return: 0, -EINVAL. */
static int dx_count(struct dx_ctx *c, uint64_t *out)
{
	const char *p = nv_text_skip(c->text);
	char *end;

	if (c->tlong || *p < '0' || *p > '9')
		return dx_error(c, "<%s> is not a count (the report damaged?)", dx_name(c));
	errno = 0;
	*out = strtoull(p, &end, 10);
	if (errno || *nv_text_skip(end))
		return dx_error(c, "<%s> is not a count (the report damaged?)", dx_name(c));
	return 0;
}

/* The text as a count that fits unsigned.  Return: 0, -EINVAL. */
static int dx_uint(struct dx_ctx *c, unsigned *out)
{
	uint64_t v;

	if (dx_count(c, &v))
		return c->ret;
	if (v > 1u << 30)
		return dx_error(c, "<%s> %llu is out of range", dx_name(c), (unsigned long long)v);
	*out = (unsigned)v;
	return 0;
}

/* The text as a string, or NULL out of memory.  Return: 0, -ENOMEM. */
static int dx_string(struct dx_ctx *c, char **out)
{
	free(*out);
	*out = strndup(c->text, c->tlen);
	return *out ? 0 : dx_nomem(c);
}

/* The Profile timespan being read, opened by F_PTS.  Return: it. */
static struct nv_diskspd_params *dx_prof(struct dx_ctx *c)
{
	return &c->prof[c->nprof - 1];
}

/* A Profile <TimeSpan> opens.  Return: 0, -ENOMEM. */
static int dx_prof_open(struct dx_ctx *c)
{
	static const struct nv_diskspd_params init = NV_DISKSPD_PARAMS_INIT;
	struct nv_diskspd_params *np = realloc(c->prof, (c->nprof + 1) * sizeof(*np));

	if (!np)
		return dx_nomem(c);
	c->prof = np;
	c->prof[c->nprof++] = init;
	c->ptargets = 0;
	c->pthreads = -1;
	return 0;
}

/*
 * A Profile Target's parameter closes; the first Target names the test
 * (diskspd.h).  Return: 0, -EINVAL.
 */
static int dx_prof_field(struct dx_ctx *c, enum dx_field f)
{
	struct nv_diskspd_params *p = dx_prof(c);
	uint64_t bs;

	if (c->ptargets > 1)
		return 0;
	switch (f) {
	case F_P_BS:
		if (dx_count(c, &bs))
			return c->ret;
		nv_diskspd_size(nv_text_skip(c->text), p->bs, sizeof(p->bs));
		return 0;
	case F_P_RANDOM: p->rnd = true; return 0;
	case F_P_SI: p->si = !strncmp(nv_text_skip(c->text), "true", 4); return 0;
	case F_P_QD: return dx_uint(c, &p->qd);
	case F_P_W: return dx_uint(c, &p->w);
	case F_P_TPF: return dx_uint(c, &p->threads);
	default: return 0;
	}
}

/* A result <TimeSpan> opens: its job.  Return: 0, -errno. */
static int dx_ts_open(struct dx_ctx *c)
{
	static const struct nv_diskspd_params dflt = NV_DISKSPD_PARAMS_INIT;
	const struct nv_diskspd_params *p = c->nts < c->nprof ? &c->prof[c->nts] : &dflt;
	struct nv_job *j;

	if (c->nts >= c->nprof)
		nv_note_add(&c->run->notes, &c->run->nnotes, "%s:%lu: a result TimeSpan without "
			    "its Profile TimeSpan: named from diskspd's defaults", c->path,
			    (unsigned long)XML_GetCurrentLineNumber(c->xp));
	memset(&c->ts, 0, sizeof(c->ts));
	c->ts.threadcount = -1;
	c->in_ts = true;
	c->nts++;
	if (nv_diskspd_job(c->run, p, c->nts, &j))
		return dx_nomem(c);
	c->ts.job = c->run->njobs - 1;
	return 0;
}

/* The job of the result TimeSpan being read.  Return: it. */
static struct nv_job *dx_job(struct dx_ctx *c)
{
	return &c->run->jobs[c->ts.job];
}

/* A Thread/Target closes: its counts add to the TimeSpan's.  Return: 0, -EINVAL. */
static int dx_target_close(struct dx_ctx *c)
{
	uint64_t rb = c->t[2], rc = c->t[3], wb = c->t[4], wc = c->t[5];

	if ((c->thave & T_NEED) != T_NEED)
		return dx_error(c, "a Thread's Target without ReadBytes, ReadCount, WriteBytes "
				   "and WriteCount (the report damaged?)");
	if ((c->thave & T_BYTES) && c->t[0] != rb + wb)
		return dx_error(c, "a Target whose BytesCount is not ReadBytes + WriteBytes "
				   "(the report damaged?)");
	if ((c->thave & T_IOS) && c->t[1] != rc + wc)
		return dx_error(c, "a Target whose IOCount is not ReadCount + WriteCount "
				   "(the report damaged?)");
	c->ts.bytes[0] += rb;
	c->ts.ios[0] += rc;
	c->ts.bytes[1] += wb;
	c->ts.ios[1] += wc;
	for (int d = 0; d < 2; d++) {
		uint64_t n = d ? wc : rc;

		if (c->tlat[d].src && n) {
			c->ts.latsum[d] += c->tlat[d].v * (double)n;
			c->ts.latios[d] += n;
		}
	}
	return 0;
}

/*
 * A Latency Bucket closes: its values are points of lat (Total: of the mixed
 * direction, kept by dx_ts_close when the test both reads and writes).
 * Return: 0, -errno.
 */
static int dx_bucket_close(struct dx_ctx *c)
{
	static const enum nv_dir dirs[3] = { NV_DIR_READ, NV_DIR_WRITE, NV_DIR_MIXED };
	double pct = c->bpct;

	if (!c->bhave_pct)
		return dx_error(c, "a Latency Bucket without its Percentile "
				"(the report damaged?)");
	if (pct > 100)
		return dx_error(c, "a Latency Bucket's Percentile above 100");
	if (pct == 0 || pct == 100)
		pct = pct == 0 ? -1 : -2;
	for (int d = 0; d < 3; d++) {
		struct nv_latstat *ls = &dx_job(c)->dir[dirs[d]].lat[NV_LAT_TOTAL];
		int ret = c->bval[d].src ? nv_diskspd_point(ls, pct, c->bval[d]) : 0;

		if (ret == -EINVAL)
			return dx_error(c, "a Latency Bucket's Percentile %g after %g: the "
					"buckets out of order (the report damaged?)", c->bpct,
					ls->points[ls->npoints - 1].pct);
		if (ret)
			return dx_nomem(c);
	}
	return 0;
}

/* An Iops Bucket (-D): its Read and Write attributes are IOPS samples.  Return: 0, -EINVAL. */
static int dx_iops_bucket(struct dx_ctx *c, const XML_Char **attr)
{
	for (; attr[0] && attr[1]; attr += 2) {
		int d = !strcmp(attr[0], "Read") ? 0 : !strcmp(attr[0], "Write") ? 1 : -1;
		struct nv_val v;

		if (d < 0)
			continue;
		if (dx_decimal(c, attr[1], d ? "an Iops Bucket's Write" : "an Iops Bucket's Read",
			       1, &v))
			return c->ret;
		if (!c->ts.iops[d].n || v.v < c->ts.iops[d].min)
			c->ts.iops[d].min = v.v;
		if (!c->ts.iops[d].n || v.v > c->ts.iops[d].max)
			c->ts.iops[d].max = v.v;
		c->ts.iops[d].sum += v.v;
		c->ts.iops[d].n++;
	}
	return 0;
}

/* x read, exact.  Return: it as a value. */
static struct nv_val dx_val(double x, float prec)
{
	return (struct nv_val){ .v = x, .src = NV_SRC_FIO, .prec = prec };
}

/* The CPU: Average's, else the mean of the CPUs'.  Return: nothing. */
static void dx_cpu(struct dx_ctx *c, struct nv_job *j)
{
	if (!c->ts.avg_usr && c->ts.nusr)
		j->x.usr_cpu = dx_val(c->ts.usr / c->ts.nusr, 0.005f);
	if (!c->ts.avg_sys && c->ts.nsys)
		j->x.sys_cpu = dx_val(c->ts.sys / c->ts.nsys, 0.005f);
}

/* Direction d (0 read, 1 write) of the closing TimeSpan from its sums.  Return: nothing. */
static void dx_dir(struct dx_ctx *c, struct nv_job *j, int d)
{
	struct nv_dirstat *ds = &j->dir[d];
	const struct nv_val *t = &c->ts.time;
	double rel = t->prec / t->v;
	uint64_t n = c->ts.ios[d];

	ds->present = ds->have_ios = ds->have_io_bytes = true;
	ds->ios = n;
	ds->io_bytes = c->ts.bytes[d];
	ds->runtime_ms = dx_val(t->v * 1000, t->prec * 1000);
	ds->iops = dx_val((double)n / t->v, (float)((double)n / t->v * rel));
	ds->bw = dx_val((double)ds->io_bytes / t->v, (float)((double)ds->io_bytes / t->v * rel));
	if (c->ts.iops[d].n) {
		ds->iops_samples.min = dx_val(c->ts.iops[d].min, 0.5f);
		ds->iops_samples.max = dx_val(c->ts.iops[d].max, 0.5f);
		ds->iops_samples.mean = dx_val(c->ts.iops[d].sum / c->ts.iops[d].n, 0.5f);
		ds->iops_samples.n = dx_val(c->ts.iops[d].n, 0);
	}
	if (!n) {	/* no IOs: no latencies (diskspd prints none either) */
		free(ds->lat[NV_LAT_TOTAL].points);
		memset(&ds->lat[NV_LAT_TOTAL], 0, sizeof(ds->lat[NV_LAT_TOTAL]));
	} else if (!ds->lat[NV_LAT_TOTAL].mean.src && c->ts.latios[d]) {
		ds->lat[NV_LAT_TOTAL].mean =
			dx_val(c->ts.latsum[d] / (double)c->ts.latios[d], 500.0f);
	}
}

/* A result TimeSpan closes: its job is whole.  Return: 0, -EINVAL. */
static int dx_ts_close(struct dx_ctx *c)
{
	struct nv_job *j = dx_job(c);

	c->in_ts = false;
	if (!c->ts.time.src || c->ts.time.v <= 0)
		return dx_error(c, "a TimeSpan without its TestTimeSeconds (the report damaged?)");
	if (!c->ts.threads)
		return dx_error(c, "a TimeSpan without Thread results (the report damaged?)");
	if (c->ts.threadcount >= 0 && (unsigned long)c->ts.threadcount != c->ts.threads)
		return dx_error(c, "a TimeSpan whose ThreadCount %ld is not its %u Thread "
				   "elements (the report damaged?)", c->ts.threadcount,
				   c->ts.threads);
	for (int d = 0; d < 2; d++)
		dx_dir(c, j, d);
	/* Total: all operations, a direction of its own only when there are both */
	j->dir[NV_DIR_MIXED].present = c->ts.ios[0] && c->ts.ios[1] &&
				       j->dir[NV_DIR_MIXED].lat[NV_LAT_TOTAL].npoints;
	if (!j->dir[NV_DIR_MIXED].present) {
		free(j->dir[NV_DIR_MIXED].lat[NV_LAT_TOTAL].points);
		memset(&j->dir[NV_DIR_MIXED].lat[NV_LAT_TOTAL], 0,
		       sizeof(j->dir[NV_DIR_MIXED].lat[NV_LAT_TOTAL]));
	}
	dx_cpu(c, j);
	return 0;
}

/* The field of the open element's path.  Return: it, or F_NONE. */
static enum dx_field dx_field(const struct dx_ctx *c)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].path, c->where))
			return fields[i].f;
	return F_NONE;
}

/* A Target's count closes into bit b of c->t.  Return: 0, -EINVAL. */
static int dx_tcount(struct dx_ctx *c, unsigned bit)
{
	int i = __builtin_ctz(bit);

	if (dx_count(c, &c->t[i]))
		return c->ret;
	c->thave |= bit;
	return 0;
}

/* A per-CPU percentage adds to sum.  Return: 0, -EINVAL. */
static int dx_cpu_one(struct dx_ctx *c, double *sum, unsigned *n)
{
	struct nv_val v;

	if (dx_number(c, 1, &v))
		return c->ret;
	*sum += v.v;
	(*n)++;
	return 0;
}

/* A result TimeSpan's element closes.  Return: 0, -errno. */
static int dx_ts_field(struct dx_ctx *c, enum dx_field f)
{
	struct nv_dirstat *dir = dx_job(c)->dir;
	struct nv_val v;

	switch (f) {
	case F_TS: return dx_ts_close(c);
	case F_TS_TIME: return dx_number(c, 1, &c->ts.time);
	case F_TS_THREADS:
		if (dx_number(c, 1, &v))
			return c->ret;
		c->ts.threadcount = (long)v.v;
		return 0;
	case F_CPU_USER: return dx_cpu_one(c, &c->ts.usr, &c->ts.nusr);
	case F_CPU_KERNEL: return dx_cpu_one(c, &c->ts.sys, &c->ts.nsys);
	case F_AVG_USER:
		c->ts.avg_usr = true;
		return dx_number(c, 1, &dx_job(c)->x.usr_cpu);
	case F_AVG_KERNEL:
		c->ts.avg_sys = true;
		return dx_number(c, 1, &dx_job(c)->x.sys_cpu);
	case F_THREAD: c->ts.threads++; return 0;
	case F_TARGET: return dx_target_close(c);
	case F_T_BYTES: return dx_tcount(c, T_BYTES);
	case F_T_IOS: return dx_tcount(c, T_IOS);
	case F_T_RB: return dx_tcount(c, T_RB);
	case F_T_RC: return dx_tcount(c, T_RC);
	case F_T_WB: return dx_tcount(c, T_WB);
	case F_T_WC: return dx_tcount(c, T_WC);
	case F_T_RLAT: return dx_number(c, 1e6, &c->tlat[0]);
	case F_T_WLAT: return dx_number(c, 1e6, &c->tlat[1]);
	case F_LAT_R: return dx_number(c, 1e6, &dir[0].lat[NV_LAT_TOTAL].mean);
	case F_LAT_RDEV: return dx_number(c, 1e6, &dir[0].lat[NV_LAT_TOTAL].stdev);
	case F_LAT_W: return dx_number(c, 1e6, &dir[1].lat[NV_LAT_TOTAL].mean);
	case F_LAT_WDEV: return dx_number(c, 1e6, &dir[1].lat[NV_LAT_TOTAL].stdev);
	case F_BUCKET: return dx_bucket_close(c);
	case F_B_PCT:
		if (dx_number(c, 1, &v))
			return c->ret;
		c->bpct = v.v;
		c->bhave_pct = true;
		return 0;
	case F_B_R: return dx_number(c, 1e6, &c->bval[0]);
	case F_B_W: return dx_number(c, 1e6, &c->bval[1]);
	case F_B_T: return dx_number(c, 1e6, &c->bval[2]);
	case F_IOPS_RDEV: return dx_number(c, 1, &dir[0].iops_samples.dev);
	case F_IOPS_WDEV: return dx_number(c, 1, &dir[1].iops_samples.dev);
	default: return 0;
	}
}

/* An element closes.  Return: 0, -errno. */
static int dx_close(struct dx_ctx *c, enum dx_field f)
{
	uint64_t n;

	c->text[c->tlen] = '\0';
	switch (f) {
	case F_NONE: return 0;
	case F_COMPUTER: return dx_string(c, &c->computer);
	case F_VERSION: return dx_string(c, &c->version);
	case F_PTS:
		if (c->pthreads > 0)
			dx_prof(c)->threads = (unsigned)c->pthreads;
		return 0;
	case F_PTS_THREADS:
		if (dx_count(c, &n))
			return c->ret;
		c->pthreads = n > 1u << 30 ? 0 : (long)n;
		return 0;
	case F_P_BS: case F_P_RANDOM: case F_P_SI: case F_P_QD: case F_P_W: case F_P_TPF:
		return dx_prof_field(c, f);
	case F_CHECK:	/* not used, but a count: one that is not says the file is damaged */
		return dx_count(c, &n);
	case F_CHECKNUM: {	/* the same for a decimal */
		struct nv_val v;

		return dx_number(c, 1, &v);
	}
	default:
		return c->in_ts ? dx_ts_field(c, f) : 0;
	}
}

/* An element opens.  Return: 0, -errno. */
static int dx_open(struct dx_ctx *c, enum dx_field f, const XML_Char **attr)
{
	switch (f) {
	case F_PTS: return dx_prof_open(c);
	case F_PTARGET: c->ptargets++; return 0;
	case F_TS:
		if (c->in_ts)
			return dx_error(c, "a TimeSpan inside a TimeSpan");
		return dx_ts_open(c);
	case F_TARGET:
		c->thave = 0;
		memset(c->tlat, 0, sizeof(c->tlat));
		return 0;
	case F_BUCKET:
		c->bhave_pct = false;
		memset(c->bval, 0, sizeof(c->bval));
		return 0;
	case F_IOPS_BUCKET: return c->in_ts ? dx_iops_bucket(c, attr) : 0;
	default: return 0;
	}
}

static void XMLCALL dx_start(void *ud, const XML_Char *name, const XML_Char **attr)
{
	struct dx_ctx *c = ud;
	size_t len = c->off[c->depth], n = strlen(name);

	if (c->ret)
		return;
	c->tlen = 0;
	c->tlong = false;
	if (c->skip || c->depth >= DX_DEPTH || len + n + 2 > sizeof(c->where)) {
		c->skip++;	/* none of ours, nor what it holds: not tracked */
		return;
	}
	if (c->depth)
		c->where[len++] = '/';
	memcpy(c->where + len, name, n + 1);
	c->off[++c->depth] = len + n;
	dx_open(c, dx_field(c), attr);
}

static void XMLCALL dx_end(void *ud, const XML_Char *name)
{
	struct dx_ctx *c = ud;

	(void)name;
	if (c->ret)
		return;
	if (c->skip) {
		c->skip--;
		return;
	}
	if (!c->depth)
		return;
	dx_close(c, dx_field(c));
	c->depth--;
	c->where[c->off[c->depth]] = '\0';
	c->tlen = 0;
}

static void XMLCALL dx_chars(void *ud, const XML_Char *s, int n)
{
	struct dx_ctx *c = ud;

	if (c->tlong || c->skip || n < 0)
		return;
	if (c->tlen + (size_t)n >= sizeof(c->text)) {
		c->tlong = true;
		return;
	}
	memcpy(c->text + c->tlen, s, (size_t)n);
	c->tlen += (size_t)n;
}

/* The run's tool version and description from System.  Return: 0, -ENOMEM. */
static int dx_finish(struct dx_ctx *c, const char *text, size_t len)
{
	struct nv_run *run = c->run;

	run->path = strdup(c->path);
	if (c->version && asprintf(&run->fio_version, "diskspd-%s", c->version) < 0)
		run->fio_version = NULL;
	else if (!c->version)
		run->fio_version = strdup("diskspd");
	if (asprintf(&run->desc, "diskspd %s XML report%s%s", c->version ? c->version : "",
		     c->computer ? " of " : "", c->computer ? c->computer : "") < 0)
		run->desc = NULL;
	run->objects = 1;
	run->digest = nv_hash(text, len);
	return run->path && run->fio_version && run->desc ? 0 : -ENOMEM;
}

int nv_diskspdxml_parse(const char *text, size_t len, const char *path, struct nv_run *run,
			char *err, size_t errlen)
{
	struct dx_ctx c = { .path = path, .run = run, .err = err, .errlen = errlen };
	int ret;

	memset(run, 0, sizeof(*run));
	*err = '\0';
	c.xp = XML_ParserCreate("UTF-8");	/* detect.c made it UTF-8, whatever it says */
	if (!c.xp) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	XML_SetUserData(c.xp, &c);
	XML_SetElementHandler(c.xp, dx_start, dx_end);
	XML_SetCharacterDataHandler(c.xp, dx_chars);
	if (len > (size_t)1 << 30)
		ret = dx_error(&c, "a file over 1 GiB: not a diskspd report");
	else if (XML_Parse(c.xp, text, (int)len, XML_TRUE) == XML_STATUS_ERROR && !c.ret)
		dx_error(&c, "not well-formed XML: %s (the report cut short or damaged?)",
			 XML_ErrorString(XML_GetErrorCode(c.xp)));
	ret = c.ret;
	if (!ret && !run->njobs)
		ret = dx_error(&c, "a diskspd XML report without result TimeSpans");
	if (!ret && dx_finish(&c, text, len))
		ret = dx_nomem(&c);
	XML_ParserFree(c.xp);
	free(c.prof);
	free(c.version);
	free(c.computer);
	if (ret)
		nv_run_free(run);
	return ret;
}
