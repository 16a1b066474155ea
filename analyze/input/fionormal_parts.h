/*
 * fionormal_parts.h - the parts of the fio normal output reader, private to
 * analyze/input/fionormal*.c: the reader's state, and one direction's lines
 * with the job's numbers (fionormal_dir.c: the direction line, latencies,
 * percentiles, samples, buckets, the exact values of a finished entry).
 */
#ifndef NV_ANALYZE_FIONORMAL_PARTS_H
#define NV_ANALYZE_FIONORMAL_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/input/fiojson.h"

struct fn_opts {		/* "NAME: (g=0): rw=randread, bs=(R) 4096B-4096B, ..." */
	char *name;
	char *rw;
	char *desc;
	uint64_t bs[3];
};

struct fn_state {
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
	struct nv_run *run;
	size_t cap;
	struct nv_job *job;		/* the entry being read, or NULL */
	int dir;			/* its direction being read, -1 none */
	struct nv_latstat *pct;		/* a percentile list being read */
	double pct_mult;
	bool disks;			/* after "Disk stats" */
	bool status;			/* a "Run status group" line was read */
	bool fmt3;			/* the entry's direction lines are 3.x's */
	bool mixed0;			/* its "mixed: IOPS=0, BW=0 (0)" (fio's misprint) */
	double kbase;			/* its kb_base: 1000 when BW= prints "MB/s" first */
	double io[NV_DIR_NR], io_prec[NV_DIR_NR];	/* printed io= / (14.4GiB/...) */
	bool have_issued;
	uint64_t issued[4];
	struct fn_opts *opts;
	size_t nopts;
	size_t *oslot, omask;		/* opts by name: index + 1, 0 empty (fn_opts_index) */
};

/* ---- fionormal.c ----------------------------------------------------------- */

/* "path:line: what in "text"" into st->err.  Return: -EINVAL. */
int fn_fail(struct fn_state *st, const char *what, const char *text);

/*
 * key=NUMBER of line into *val (times mult; its precision the printed
 * digits' times mult times pf).  Return: 0 (also when key is absent), or
 * -EINVAL naming the line.
 */
int fn_keyval(struct fn_state *st, const char *line, const char *key, double mult, double pf,
	      struct nv_val *val);

/* ---- fionormal_dir.c ------------------------------------------------------- */

/*
 * The exact values of a finished entry j (IOPS, bandwidth, IO counts and
 * bytes from issued counts, bs and runtimes; unified_rw_reporting=both's
 * mixed sums).  Return: nothing.
 */
void fn_exact(struct fn_state *st, struct nv_job *j);

/*
 * The direction of a line "read:", "write :", ... (*n the length up to the
 * ':').  Return: its enum nv_dir, or -1 for none.
 */
int fn_dirname(const char *s, size_t *n);

/* A direction line of direction d, rest after its ':'.  Return: 0 or -EINVAL. */
int fn_dir(struct fn_state *st, int d, const char *line, const char *rest);

/* A latency line of kind k in unit mult (ns).  Return: 0 or -EINVAL. */
int fn_lat(struct fn_state *st, enum nv_latkind k, const char *line, double mult);

/* A line of percentiles into st->pct.  Return: 0, -EINVAL or -ENOMEM. */
int fn_pctline(struct fn_state *st, const char *line);

/* A samples line (bw or iops) in unit mult into *s.  Return: 0 or -EINVAL. */
int fn_samples(struct fn_state *st, const char *line, double mult, struct nv_samples *s);

/* A "bw (UNIT/s):" line.  Return: 0 or -EINVAL. */
int fn_bwline(struct fn_state *st, const char *line);

/* A "lat (UNIT) :" bucket line in unit mult.  Return: 0, -EINVAL or -ENOMEM. */
int fn_buckets(struct fn_state *st, const char *line, double mult);

#endif
