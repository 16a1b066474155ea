/*
 * cdm.c - CrystalDiskMark 5.x to 9.x text exports read into a run (cdm.h).
 *
 * The export is read line by line.  Lines before the "CrystalDiskMark X.Y.Z"
 * banner are noise (a shell prompt, the prose of a Markdown post and its
 * ``` fence) and skipped; after it, a line is the banner's own text, a
 * section header ([Read] ...), a result row, a footer field (Test, Date, OS,
 * Profile, Mode, Time, Comment) or, once the footer began, a comment.  A
 * ``` line after the banner closes the pasted export: what follows is the
 * post's prose, skipped, except a second banner (two exports pasted into
 * one file), an error.  Results pasted without the banner (7.x and later:
 * "[Read]" and its rows, the lines above it left out) start at "[Read]",
 * their version unknown.  Anything else, and a row that does not parse, is an
 * error naming the line: nothing is read silently as zero.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/cdm.h"
#include "analyze/input/textlines.h"

#define CDM_BANNER "CrystalDiskMark "
#define KDM_BANNER "KDiskMark ("
#define CDM_NOBANNER "CrystalDiskMark (no banner)"

struct cdm_ctx {
	const char *path;
	struct nv_run *run;
	size_t cap;		/* run->jobs allocated */
	unsigned line;
	bool banner;		/* the "CrystalDiskMark X.Y.Z" line (or, without
				 * one, the first "[Read]") was seen */
	bool read;		/* a "[Read]" section was seen */
	bool footer;		/* a footer field was seen */
	bool closed;		/* a ``` fence, or prose after the results, ended the export */
	bool blank;		/* the line before was blank */
	int sect;		/* 7.x+: the section's direction, -1 before one */
	char *desc;		/* the footer, "Key: value; ...", NULL before one */
	bool nomem;		/* an allocation for desc failed */
	uint64_t digest;	/* of the banner and result lines: the same export
				 * pasted twice is the same, whatever prose is around */
	char *err;
	size_t errlen;
};

/* One parsed result row. */
struct cdm_row {
	char name[64];
	const char *rw;
	char bs[16];
	unsigned q, t;
	enum nv_dir dir;
	struct nv_val bw, iops, lat;
};

bool nv_cdm_sniff(const char *text, size_t len)
{
	return (memmem(text, len, CDM_BANNER, strlen(CDM_BANNER)) ||
		memmem(text, len, KDM_BANNER, strlen(KDM_BANNER)) ||
		(memmem(text, len, "[Read]", 6) && memmem(text, len, " IOPS] <", 8))) &&
	       memmem(text, len, "MB/s", 4);
}

static int cdm_error(struct cdm_ctx *c, const char *what)
{
	snprintf(c->err, c->errlen, "%s:%u: %s export, read up to here: %s", c->path, c->line,
		 c->run->fio_version ? c->run->fio_version : "CrystalDiskMark", what);
	return -EINVAL;
}

static int cdm_nomem(struct cdm_ctx *c)
{
	snprintf(c->err, c->errlen, "%s: out of memory", c->path);
	return -ENOMEM;
}

/* Expect word at *p after blanks; move past it.  Return: true if there. */
static bool cdm_word(const char **p, const char *word)
{
	const char *s = nv_text_skip(*p);
	size_t n = strlen(word);

	if (strncmp(s, word, n))
		return false;
	*p = s + n;
	return true;
}

/* "Q= 32,T= 1", "Q=  8, T=16" or "T= 1" (Q1).  Return: 0, or -EINVAL. */
static int cdm_qt(const char *s, const char *rp, unsigned *q, unsigned *t)
{
	const char *qs = strstr(s, "Q="), *ts = strstr(s, "T=");
	char *end;

	*q = 1;
	if (!ts || ts > rp || (qs && qs > rp))
		return -EINVAL;
	if (qs) {
		*q = (unsigned)strtoul(qs + 2, &end, 10);
		if (end == qs + 2 || *q == 0)
			return -EINVAL;
	}
	*t = (unsigned)strtoul(ts + 2, &end, 10);
	return end == ts + 2 || *t == 0 ? -EINVAL : 0;
}

/* The values after "):": MB/s, then optional [IOPS] and <us>.  Return: 0, -EINVAL. */
static int cdm_values(const char *s, struct cdm_row *r)
{
	if (!cdm_word(&s, ":") || nv_text_number(&s, 1e6, &r->bw) || !cdm_word(&s, "MB/s"))
		return -EINVAL;
	if (cdm_word(&s, "[") && (nv_text_number(&s, 1, &r->iops) || !cdm_word(&s, "IOPS") ||
				  !cdm_word(&s, "]")))
		return -EINVAL;
	if (cdm_word(&s, "<") && (nv_text_number(&s, 1000, &r->lat) || !cdm_word(&s, "us") ||
				  !cdm_word(&s, ">")))
		return -EINVAL;
	return *nv_text_skip(s) ? -EINVAL : 0;
}

/* 5.x/6.x: "Sequential Read", "Random Write 4KiB".  Return: 0, or -EINVAL. */
static int cdm_name_old(const char *label, struct cdm_row *r)
{
	bool seq = !strncmp(label, "Sequential ", 11), q1 = r->q == 1 && r->t == 1;
	const char *d = label + (seq ? 11 : 7);

	if (!seq && (strncmp(label, "Random ", 7) || !strstr(label, "4KiB")))
		return -EINVAL;
	if (!strncmp(d, "Read", 4))
		r->dir = NV_DIR_READ;
	else if (!strncmp(d, "Write", 5))
		r->dir = NV_DIR_WRITE;
	else
		return -EINVAL;
	r->rw = seq ? nv_dir_name(r->dir) : r->dir == NV_DIR_READ ? "randread" : "randwrite";
	snprintf(r->bs, sizeof(r->bs), "%s", !seq ? "4k" : q1 ? "1m" : "128k");
	if (q1)
		snprintf(r->name, sizeof(r->name), "%s-%s", seq ? "Seq" : "4K",
			 nv_dir_name(r->dir));
	else
		snprintf(r->name, sizeof(r->name), "%sQ%uT%u-%s", seq ? "Seq" : "4K", r->q, r->t,
			 nv_dir_name(r->dir));
	return 0;
}

/* 7.x+: "SEQ    1MiB", "Sequential 1MiB", "RND 4KiB" in a section.  Return: 0, -EINVAL. */
static int cdm_name_new(const char *label, int sect, struct cdm_row *r)
{
	static const char *const rws[NV_DIR_NR][2] = {
		[NV_DIR_READ] = { "read", "randread" }, [NV_DIR_WRITE] = { "write", "randwrite" },
		[NV_DIR_MIXED] = { "rw", "randrw" },
	};
	bool seq = !strncmp(label, "SEQ ", 4) || !strncmp(label, "Sequential ", 11);
	unsigned long size;
	char *end;

	if (sect < 0)
		return -EINVAL;
	if (!seq && strncmp(label, "RND ", 4) && strncmp(label, "Random ", 7))
		return -EINVAL;
	label = nv_text_skip(strchr(label, ' '));
	size = strtoul(label, &end, 10);
	if (end == label)
		return -EINVAL;
	end = (char *)nv_text_skip(end);	/* KDiskMark: "Sequential   1 MiB" */
	if (size == 0 || size > 4096 || (*end != 'K' && *end != 'M') || strcmp(end + 1, "iB"))
		return -EINVAL;
	r->dir = (enum nv_dir)sect;
	r->rw = rws[sect][!seq];
	snprintf(r->bs, sizeof(r->bs), "%lu%c", size, *end == 'K' ? 'k' : 'm');
	snprintf(r->name, sizeof(r->name), "%s%lu%c-Q%uT%u-%s", seq ? "SEQ" : "RND", size, *end,
		 r->q, r->t, sect == NV_DIR_MIXED ? "mix" : nv_dir_name(r->dir));
	return 0;
}

/*
 * 2.x-4.x: "Sequential Read : 505.825 MB/s", "Random Write 512KB : ...",
 * "Random Read 4KB (QD=32) : 271.859 MB/s [ 66371.9 IOPS]": sequential 1 MiB
 * and random 512 KiB at queue depth 1, 4 KiB at QD 1 and 32, one thread.
 * Return: 0, or -EINVAL.
 */
static int cdm_parse_v3(const char *s, struct cdm_row *r)
{
	const char *colon = strchr(s, ':'), *qd = strstr(s, "(QD=");
	bool seq = !strncmp(s, "Sequential ", 11), k512 = strstr(s, " 512K") != NULL;
	char *end;

	if (!colon || (!seq && (strncmp(s, "Random ", 7) || (!k512 && !strstr(s, " 4K")))))
		return -EINVAL;
	r->q = r->t = 1;
	if (qd && qd < colon) {
		r->q = (unsigned)strtoul(qd + 4, &end, 10);
		if (end == qd + 4 || *end != ')' || !r->q)
			return -EINVAL;
	}
	if (strstr(s, " Read ") && strstr(s, " Read ") < colon)
		r->dir = NV_DIR_READ;
	else if (strstr(s, " Write") && strstr(s, " Write") < colon)
		r->dir = NV_DIR_WRITE;
	else
		return -EINVAL;
	if (cdm_values(colon, r))
		return -EINVAL;
	r->rw = seq ? nv_dir_name(r->dir) : r->dir == NV_DIR_READ ? "randread" : "randwrite";
	snprintf(r->bs, sizeof(r->bs), "%s", seq ? "1m" : k512 ? "512k" : "4k");
	if (r->q > 1)
		snprintf(r->name, sizeof(r->name), "4KQ%uT1-%s", r->q, nv_dir_name(r->dir));
	else
		snprintf(r->name, sizeof(r->name), "%s-%s", seq ? "Seq" : k512 ? "512K" : "4K",
			 nv_dir_name(r->dir));
	return 0;
}

/* Parse one result row s.  Return: 0, or -EINVAL. */
static int cdm_parse_row(const char *s, int sect, struct cdm_row *r)
{
	const char *lp = strchr(s, '('), *rp = lp ? strchr(lp, ')') : NULL;
	char label[64];
	size_t n;

	memset(r, 0, sizeof(*r));
	if (!strstr(s, "T=") && sect < 0)
		return cdm_parse_v3(s, r);
	if (!lp || !rp || cdm_qt(lp, rp, &r->q, &r->t) || cdm_values(rp + 1, r))
		return -EINVAL;
	n = 0;	/* the label, its blanks (re-padded by hand in a post) one space */
	for (const char *p = s; p < lp && n + 1 < sizeof(label); p++)
		if ((*p != ' ' && *p != '\t') || (n && label[n - 1] != ' '))
			label[n++] = *p == '\t' ? ' ' : *p;
	while (n && label[n - 1] == ' ')
		n--;
	if (n == 0 || n + 1 >= sizeof(label))
		return -EINVAL;
	label[n] = '\0';
	if (strstr(label, " Read") || strstr(label, " Write"))
		return cdm_name_old(label, r);
	return cdm_name_new(label, sect, r);
}

/* Append a job for row r to c->run.  Return: 0, -ENOMEM, or -EINVAL (a repeat). */
static int cdm_add_job(struct cdm_ctx *c, const struct cdm_row *r)
{
	struct nv_run *run = c->run;
	struct nv_dirstat *ds;
	struct nv_job *j;

	for (size_t i = 0; i < run->njobs; i++)
		if (!strcmp(run->jobs[i].name, r->name))
			return cdm_error(c, "a test printed twice (two exports pasted "
					    "into one file? give each its own file)");
	if (run->njobs == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;
		struct nv_job *nj = realloc(run->jobs, ncap * sizeof(*nj));

		if (!nj)
			return cdm_nomem(c);
		run->jobs = nj;
		c->cap = ncap;
	}
	j = &run->jobs[run->njobs++];
	memset(j, 0, sizeof(*j));
	j->name = strdup(r->name);
	j->key = strdup(r->name);
	j->rw = strdup(r->rw);
	if (asprintf(&j->desc, "rw=%s bs=%s iodepth=%u numjobs=%u", r->rw, r->bs, r->q, r->t) < 0)
		j->desc = NULL;
	if (!j->name || !j->key || !j->rw || !j->desc)
		return cdm_nomem(c);
	for (unsigned d = 0; d < 3; d++)
		j->bs[d] = nv_fio_bs_parse(r->bs, (enum nv_dir)d, 1024);
	ds = &j->dir[r->dir];
	ds->present = true;
	ds->bw = r->bw;
	ds->iops = r->iops;
	if (!ds->iops.src && j->bs[0]) {	/* 5.x/6.x sequential: MB/s only */
		ds->iops.v = r->bw.v / (double)j->bs[0];
		ds->iops.src = NV_SRC_FIO;
		ds->iops.prec = r->bw.prec / (float)j->bs[0];
	}
	ds->lat[NV_LAT_TOTAL].mean = r->lat;
	return 0;
}

/*
 * Append "Key: value" to the description, grown to fit: a comment is kept
 * as written, however long.  Return: nothing (c->nomem set on failure).
 */
static void cdm_desc_add(struct cdm_ctx *c, const char *key, const char *val)
{
	size_t o = c->desc ? strlen(c->desc) : 0;
	size_t n = o + 2 + strlen(key) + 2 + strlen(val) + 1;
	char *d;

	if (!*val)
		return;
	d = realloc(c->desc, n);
	if (!d) {
		c->nomem = true;
		return;
	}
	snprintf(d + o, n - o, "%s%s: %s", o ? "; " : "", key, val);
	c->desc = d;
}

/* A footer field "Key : value" / "Key: value"; true if s is one (recorded). */
static bool cdm_footer(struct cdm_ctx *c, const char *s)
{
	static const char *const keys[] = { "Test", "Date", "OS", "Profile", "Mode", "Time",
					    "Comment", "Interval", "Target" };

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i]);
		const char *v = nv_text_skip(s + n);

		if (strncmp(s, keys[i], n) || *v != ':')
			continue;
		cdm_desc_add(c, keys[i], nv_text_skip(v + 1));
		c->footer = true;
		return true;
	}
	return false;
}

/*
 * The banner "CrystalDiskMark 5.2.1 x64 ..." sets the version; a second one
 * is a second export in the file.  Return: 0, -ENOMEM, or -EINVAL (a second).
 */
static int cdm_banner(struct cdm_ctx *c, const char *s)
{
	bool kdm = !strncmp(s, KDM_BANNER, strlen(KDM_BANNER));
	const char *v = s + strlen(kdm ? KDM_BANNER : CDM_BANNER);
	size_t n = strspn(v, "0123456789.abcdefghijklmnopqrstuvwxyz");

	if (c->banner)
		return cdm_error(c, "a second CrystalDiskMark export in this file (several "
				    "pasted into one post?): one export per output; "
				    "--split outputs reads each as a run");
	c->banner = true;
	if (asprintf(&c->run->fio_version, "%s %.*s", kdm ? "KDiskMark" : "CrystalDiskMark",
		     (int)n, v) < 0) {
		c->run->fio_version = NULL;
		return cdm_nomem(c);
	}
	return 0;
}

/*
 * "[Read]" without a banner above it: the results of a 7.x or later export
 * pasted alone; the export starts here, its version unknown (noted).
 * Return: 0, or -ENOMEM.
 */
static int cdm_nobanner(struct cdm_ctx *c)
{
	c->banner = true;
	c->run->fio_version = strdup(CDM_NOBANNER);
	if (!c->run->fio_version)
		return cdm_nomem(c);
	nv_note_add(&c->run->notes, &c->run->nnotes, "%s:%u: CrystalDiskMark results without "
		    "the export's banner (its first lines not pasted): read from their [Read] "
		    "line, the version unknown (7.x or later by its sections)", c->path, c->line);
	return 0;
}

/* A section header "[Read]", "[Write]", "[Mix] Read 70%/Write 30%".  Return: true if one. */
static bool cdm_section(struct cdm_ctx *c, const char *s)
{
	if (!strncmp(s, "[Read]", 6))
		c->sect = NV_DIR_READ;
	else if (!strncmp(s, "[Write]", 7))
		c->sect = NV_DIR_WRITE;
	else if (!strncmp(s, "[Mix]", 5))
		c->sect = NV_DIR_MIXED;
	else
		return false;
	return true;
}

/* The banner's fixed lines, separators and blanks.  Return: true for one. */
static bool cdm_boilerplate(const char *s)
{
	return !*s || strspn(s, "-=") == strlen(s) || strstr(s, "Crystal Dew World") ||
	       !strncmp(s, "* MB/s", 6) || !strncmp(s, "* KB", 4);
}

/*
 * KDiskMark's second line, "Flexible I/O Tester (fio-3.30): https://...":
 * the fio under it, kept as the run's context.  Return: true for that line.
 */
static bool cdm_fio_line(struct cdm_ctx *c, const char *s)
{
	const char *v = s + 21, *e;

	if (strncmp(s, "Flexible I/O Tester (", 21) || !(e = strchr(v, ')')))
		return false;
	if (e > v) {
		char ver[64];

		snprintf(ver, sizeof(ver), "%.*s", (int)(e - v < 63 ? e - v : 63), v);
		cdm_desc_add(c, "fio", ver);
	}
	return true;
}

/*
 * True when s may be a (damaged) line of the export's own: a test label, a
 * section or "(Q=", "T=", "(QD=" anywhere in it (another tool's table
 * with its own MB/s is not).
 */
static bool cdm_rowish(const char *s)
{
	static const char *const words[] = { "SEQ", "RND", "Sequential", "Random", "[" };
	static const char *const inside[] = { "(Q=", "T=", "(QD=", "[Read]", "[Write]",
					      "[Mix]" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strncmp(s, words[i], strlen(words[i])))
			return true;
	for (size_t i = 0; i < sizeof(inside) / sizeof(inside[0]); i++)
		if (strstr(s, inside[i]))
			return true;
	return false;
}

/*
 * A line after the export's results that is none of its own, after a
 * blank line: the post's prose or another tool's table.  The export ends
 * there, the rest skipped with a note.  Return: true when it ended.
 */
static bool cdm_ends(struct cdm_ctx *c, const char *s, bool blank_before)
{
	if (!c->run->njobs || !blank_before || cdm_rowish(s))
		return false;
	c->closed = true;
	c->run->text_after = true;
	nv_note_add(&c->run->notes, &c->run->nnotes, "%s:%u: the %s export ends before this "
		    "line (prose or another tool's output follows it): the rest of the output is "
		    "not read", c->path, c->line, c->run->fio_version);
	return true;
}

/* One line (CR and newline removed).  Return: 0, or -errno with err set. */
static int cdm_line(void *ctx, const char *line, unsigned lineno)
{
	struct cdm_ctx *c = ctx;
	const char *s = nv_text_skip(line);
	bool blank_before = c->blank;
	struct cdm_row r;

	c->line = lineno;
	c->blank = !*s;
	if (!strncmp(s, CDM_BANNER, strlen(CDM_BANNER)) ||
	    !strncmp(s, KDM_BANNER, strlen(KDM_BANNER))) {
		c->digest = nv_hash(s, strlen(s));
		return cdm_banner(c, s);
	}
	if (!strncmp(s, "```", 3)) {	/* a Markdown fence: closes a pasted export */
		c->closed = c->banner;
		return 0;
	}
	if (!strncmp(s, "[Read]", 6)) {
		int ret = c->banner ? 0 : cdm_nobanner(c);

		if (ret)
			return ret;
		if (c->read)
			return cdm_error(c, "a second [Read] section: a second CrystalDiskMark "
					    "export in this file (several pasted into one post?): "
					    "one export per output; --split outputs reads each as "
					    "a run");
		c->read = true;
		c->digest = (c->digest ^ nv_hash(s, strlen(s))) * 0x100000001b3ULL;
	}
	if (c->closed && *s)
		c->run->text_after = true;
	if (!c->banner || c->closed || cdm_boilerplate(s) || cdm_section(c, s) ||
	    cdm_fio_line(c, s) || cdm_footer(c, s) || cdm_ends(c, s, blank_before))
		return 0;
	if (strstr(s, "MB/s") || strstr(s, "T=")) {
		c->digest = (c->digest ^ nv_hash(s, strlen(s))) * 0x100000001b3ULL;
		if (cdm_parse_row(s, c->sect, &r))
			return cdm_error(c, "a result line that does not parse: expected "
					    "'TEST (Q= n,T= n) : VALUE MB/s [VALUE IOPS] "
					    "<VALUE us>' "
					    "(the line damaged? export the text again)");
		if (r.bw.v == 0) {
			nv_note_add(&c->run->notes, &c->run->nnotes,
				    "%s:%u: test %s printed 0 MB/s (not run): left out", c->path,
				    c->line, r.name);
			return 0;
		}
		return cdm_add_job(c, &r);
	}
	if (c->footer) {
		cdm_desc_add(c, "Comment", s);
		return 0;
	}
	return cdm_error(c, "neither a result line nor a footer field: expected 'TEST (Q= n,"
			    "T= n) : VALUE MB/s ...' or 'Profile:', 'Test:', 'Date:', 'OS:', "
			    "'Comment:' (is the export damaged or edited?)");
}

int nv_cdm_parse(const char *text, size_t len, const char *path, struct nv_run *run,
		 char *err, size_t errlen)
{
	struct cdm_ctx c = { .path = path, .run = run, .sect = -1, .err = err, .errlen = errlen };
	int ret;

	memset(run, 0, sizeof(*run));
	*err = '\0';
	ret = nv_text_lines(text, len, cdm_line, &c, &c.line);
	if (ret == -EINVAL && !*err)
		cdm_error(&c, "a NUL byte in the text");
	else if (ret == -ENOMEM)
		cdm_nomem(&c);
	if (!ret && c.nomem)
		ret = cdm_nomem(&c);
	if (!ret && !run->njobs) {
		snprintf(err, errlen, "%s: a CrystalDiskMark export without test results", path);
		ret = -EINVAL;
	}
	if (!ret) {
		run->path = strdup(path);
		run->desc = strdup(c.desc ? c.desc : "");
		run->objects = 1;
		run->digest = c.digest;
		if (!run->path || !run->desc || !run->fio_version)
			ret = cdm_nomem(&c);
	}
	free(c.desc);
	if (ret)
		nv_run_free(run);
	return ret;
}
