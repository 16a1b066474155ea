/*
 * multiout.c - several fio outputs in one file: status-interval snapshots
 * and runs appended to one log (multiout.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/common.h"
#include "analyze/input/detect.h"
#include "analyze/input/fioterse.h"
#include "analyze/input/multiout.h"
#include "analyze/input/multiout_cut.h"
#include "analyze/input/page.h"
#include "analyze/input/readfile.h"
#include "analyze/input/textlines.h"

#define run_note(o, ...) nv_note_add(&(o)->notes, &(o)->nnotes, __VA_ARGS__)

/* The integer after the first key in [p, p + n), skipping " :". Return: found. */
static bool num_after(const char *p, size_t n, const char *key, long long *v)
{
	const char *k = memmem(p, n, key, strlen(key)), *end = p + n;
	char *e;

	if (!k)
		return false;
	for (k += strlen(key); k < end && (*k == ' ' || *k == ':' || *k == '='); k++)
		;
	if (k >= end || *k < '0' || *k > '9')
		return false;
	*v = strtoll(k, &e, 10);
	return e > k && e <= end;
}

/* Who wrote the output sg (pid, start time) and its longest runtime. */
static void identify(const char *text, struct seg *sg)
{
	const char *p = text + sg->off;
	long long ts, el;

	sg->have_pid = num_after(p, sg->len, " pid=", &sg->pid);
	if (num_after(p, sg->len, "\"timestamp\"", &ts) &&
	    num_after(p, sg->len, "\"elapsed\"", &el)) {
		sg->have_start = true;
		sg->start = ts - el;
	}
	for (size_t j = 0; j < sg->run.njobs; j++)
		for (unsigned d = 0; d < NV_DIR_NR; d++) {
			const struct nv_val *r = &sg->run.jobs[j].dir[d].runtime_ms;

			if (r->src && r->v > sg->runtime_ms)
				sg->runtime_ms = r->v;
		}
}

/* The bytes the jobs of run moved, all directions. */
static double run_bytes(const struct nv_run *run)
{
	double b = 0;

	for (size_t j = 0; j < run->njobs; j++)
		for (unsigned d = 0; d < NV_DIR_NR; d++)
			b += (double)run->jobs[j].dir[d].io_bytes;
	return b;
}

/*
 * Whether b's counts continue a's (fio's snapshots are cumulative): more
 * bytes, and no more than ten times a's average rate over the time added.
 * A run appended anew moves its bytes from zero: as many as a's in about
 * a's runtime.  Lines of one job name (numjobs' processes of one output,
 * which end within milliseconds of each other) must also be 100 ms apart.
 * Return: true for counts that continue.
 */
static bool continues(const struct seg *a, const struct seg *b)
{
	double ba = run_bytes(&a->run), bb = run_bytes(&b->run);

	if (b->one_name && b->runtime_ms - a->runtime_ms < 100)
		return false;	/* numjobs' processes of one output end together */
	return bb > ba && ba > 0 &&
	       bb - ba <= 10 * ba / a->runtime_ms * (b->runtime_ms - a->runtime_ms);
}

/*
 * True when b is a later snapshot of a's fio run (multiout.h): the same
 * process (pid=, JSON start time), or without either (terse lines) counts
 * that continue a's.
 */
static bool snapshot_of(const struct seg *a, const struct seg *b)
{
	if (!nv_run_same_jobs(&a->run, &b->run) || b->runtime_ms <= a->runtime_ms)
		return false;
	if (a->have_pid && b->have_pid)
		return a->pid == b->pid;
	if (a->have_start && b->have_start)
		return llabs(a->start - b->start) <= 1;
	return !a->have_pid && !b->have_pid && !a->have_start && !b->have_start &&
	       continues(a, b);
}

/* Read each output of s. Return: 0, or -errno when one does not read (err set). */
/*
 * A reader numbers the lines of the output it is given from 1: its notes
 * "PATH:N: ..." of an output that starts at line base + 1 of the file are
 * renumbered to the file's lines (a note left as it is where memory runs
 * out).  Return: nothing.
 */
static void rebase_notes(struct nv_run *run, const char *path, unsigned base)
{
	size_t n = strlen(path);

	for (size_t i = 0; base && i < run->nnotes; i++) {
		char *note = run->notes[i], *end, *t;
		unsigned long line;

		if (strncmp(note, path, n) || note[n] != ':' || note[n + 1] < '0' ||
		    note[n + 1] > '9')
			continue;
		line = strtoul(note + n + 1, &end, 10);
		if (*end != ':' || asprintf(&t, "%s:%lu%s", path, line + base, end) < 0)
			continue;
		free(note);
		run->notes[i] = t;
	}
}

static int read_segs(const char *text, const char *path, struct segs *s, char *err,
		     size_t errlen)
{
	unsigned base = 0;	/* lines of the file before output i */
	size_t at = 0;

	for (size_t i = 0; i < s->n; i++) {
		int ret = nv_input_parse(text + s->v[i].off, s->v[i].len, path, &s->v[i].run,
					 err, errlen);

		if (ret)
			return ret;
		for (const char *q = text + at;
		     (q = memchr(q, '\n', s->v[i].off - (size_t)(q - text))); q++)
			base++;
		at = s->v[i].off;
		rebase_notes(&s->v[i].run, path, base);
		if (!s->v[i].run.digest)	/* the text readers leave it to us */
			s->v[i].run.digest = nv_hash(text + s->v[i].off, s->v[i].len);
		identify(text, &s->v[i]);
	}
	return 0;
}

/*
 * True when the last output of s (one of two or more) is a later snapshot
 * that fio stopped while it wrote it: terse lines fewer than each output
 * before it (terse_cut), or a normal output of the process of the one
 * before it (its first pid=) without its end (an article's output of
 * another machine, cut by its author, stays).
 */
static bool cut_short(const char *text, const struct segs *s)
{
	const struct seg *a = &s->v[s->n - 2], *b = &s->v[s->n - 1];
	long long pa, pb;

	return b->cut_short || (num_after(text + a->off, a->len, " pid=", &pa) &&
				num_after(text + b->off, b->len, " pid=", &pb) && pa == pb &&
				nv_mo_normal_cut_short(text, b));
}

/* "pid 123" or "started at 1796353020" or "" for the note. */
static void who(char *buf, size_t n, const struct seg *sg)
{
	if (sg->have_pid)
		snprintf(buf, n, ", pid %lld", sg->pid);
	else if (sg->have_start)
		snprintf(buf, n, ", started at %lld (Unix time)", sg->start);
	else
		*buf = 0;
}

/*
 * The version line fio prints once, before its first output: from the
 * first snapshot a to the last, b, when b has none of its own.
 */
static void take_version(struct nv_run *a, struct nv_run *b)
{
	char *t;

	if (!a->fio_version || !b->fio_version || !strncmp(b->fio_version, "fio-", 4) ||
	    strncmp(a->fio_version, "fio-", 4))
		return;
	t = a->fio_version;
	a->fio_version = b->fio_version;
	b->fio_version = t;
}

/*
 * Keep the last snapshot of each run of s in m, with a note on each run
 * that had several.  Return: 0 or -ENOMEM (m holds what it took).
 */
static int keep_last(struct segs *s, const char *path, struct nv_multiout *m)
{
	m->runs = calloc(s->n, sizeof(*m->runs));
	m->labels = calloc(s->n, sizeof(*m->labels));
	if (!m->runs || !m->labels)
		return -ENOMEM;
	for (size_t i = 0, first = 0; i < s->n; i++) {
		char w[64];

		if (i + 1 < s->n && snapshot_of(&s->v[i], &s->v[i + 1]))
			continue;
		take_version(&s->v[first].run, &s->v[i].run);
		m->runs[m->n] = s->v[i].run;
		m->runs[m->n].line = s->v[first].line;
		m->runs[m->n].at = s->v[first].at;
		memset(&s->v[i].run, 0, sizeof(s->v[i].run));
		who(w, sizeof(w), &s->v[i]);
		if (i > first)
			run_note(&m->runs[m->n], "%s: %zu status-interval snapshots of one fio run"
				 "%s (runtime %.0f -> %.0f ms); the last is read, the %zu before "
				 "it left out", path, i - first + 1, w, s->v[first].runtime_ms,
				 s->v[i].runtime_ms, i - first);
		m->n++;
		first = i + 1;
	}
	return 0;
}

/* The split of a file's outputs into runs (multiout.h): --split. */
static enum nv_split split_mode = NV_SPLIT_AUTO;

void nv_multiout_split(enum nv_split mode)
{
	split_mode = mode;
}

int nv_split_parse(const char *s, enum nv_split *out)
{
	static const char *const names[] = {
		[NV_SPLIT_AUTO] = "auto", [NV_SPLIT_OUTPUTS] = "outputs",
		[NV_SPLIT_HEADINGS] = "headings", [NV_SPLIT_NONE] = "none",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum nv_split)i;
			return 0;
		}
	return -EINVAL;
}

/* True when each job of a has the options line (description) of b's job of its key. */
static bool same_options(const struct nv_run *a, const struct nv_run *b)
{
	for (size_t i = 0; i < a->njobs; i++) {
		const struct nv_job *x = &a->jobs[i], *y = NULL;

		for (size_t k = i < b->njobs ? i : 0; k < b->njobs && !y; k++)
			if (!strcmp(b->jobs[k].key, x->key))
				y = &b->jobs[k];
		if (y && strcmp(x->desc ? x->desc : "", y->desc ? y->desc : ""))
			return false;
	}
	return true;
}

/*
 * The length of the "Comment: " field of a CrystalDiskMark or KDiskMark
 * run's context (usually the drive), *at set to it; 0 when none.
 */
static size_t comment_of(const struct nv_run *r, const char **at)
{
	const char *c = r->desc ? strstr(r->desc, "Comment: ") : NULL;

	if (!c)
		return 0;
	*at = c + 9;
	return strcspn(c + 9, ";");
}

/*
 * True when b repeats a: the same jobs, options lines and tool version
 * (and for exports that name the drive in their Comment, the same one).
 */
static bool repeat_of(const struct nv_run *a, const struct nv_run *b)
{
	const char *ca = NULL, *cb = NULL;
	size_t na = comment_of(a, &ca), nb = comment_of(b, &cb);

	if (na != nb || (na && strncmp(ca, cb, na)))
		return false;
	return nv_run_same_jobs(a, b) && a->fio_version && b->fio_version &&
	       !strcmp(a->fio_version, b->fio_version) && same_options(a, b);
}

/*
 * True when the runs of m are repeats of one run: the same jobs with the
 * same options lines (not iodepth=1 then iodepth=10 under one name), the
 * same fio version, no run the same output as another (a paste repeated).
 */
static bool repeats(const struct nv_multiout *m)
{
	for (size_t k = 1; k < m->n; k++) {
		const struct nv_run *b = &m->runs[k];

		if (!repeat_of(&m->runs[0], b))
			return false;
		for (size_t i = 0; i < k; i++)
			if (m->runs[i].digest == b->digest)
				return false;
	}
	return true;
}

/* What page_rel needs: the text, its runs and their headings, whether any has one. */
struct page_ctx {
	const char *text;
	const struct nv_multiout *m;
	const char (*heads)[NV_PAGE_HEAD];
	bool headings;
};

/*
 * Where run k of pc's caption is looked for: above the code fence that
 * opens its block when it is in one of its own (opened after the run
 * before it started: the prose between fenced outputs, past the command
 * line above a fio output inside the block), else above its first line.
 * Return: that offset.
 */
static size_t caption_at(const struct page_ctx *pc, size_t k)
{
	const struct nv_run *r = pc->m->runs;
	size_t f = nv_page_fence_above(pc->text, k ? r[k - 1].at : 0, r[k].at);

	return f == SIZE_MAX ? r[k].at : f;
}

/*
 * Whether runs first and i of pc, under one heading with prose before i,
 * have captions (page.h) that name different things: "Samsung SSD 980
 * PRO" above one and "KIOXIA KXG60ZNV512G" above the other are two drives
 * of one post, "ZFS, block 4k:" and "Raw device, block 4k:" above two
 * fenced fio outputs two setups, "run 1:" and "run 2:" repeats.  Prose
 * before i: an export or report that other text follows (text_after), or
 * i in a code block of its own.  Return: true when they differ.
 */
static bool captioned_apart(const struct page_ctx *pc, size_t first, size_t i)
{
	const struct nv_run *r = pc->m->runs;
	const char *a, *b;
	size_t na, nb;

	if (!r[i - 1].text_after &&	/* nothing between: no caption of i's */
	    nv_page_fence_above(pc->text, r[i - 1].at, r[i].at) == SIZE_MAX)
		return false;
	na = nv_page_caption(pc->text, caption_at(pc, first), &a);
	nb = nv_page_caption(pc->text, caption_at(pc, i), &b);
	return na && nb && nv_page_captions_differ(a, na, b, nb);
}

/* Return: true when the line [c, c + n) is one of a fio normal output's last
 * (its "Run status group" lines, its "Disk stats", a device's "ios="). */
static bool fio_tail_line(const char *c, size_t n)
{
	static const char *const head[] = { "READ:", "WRITE:", "TRIM:", "MIXED:",
					    "Run status group", "Disk stats" };

	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		if (n >= strlen(head[k]) && !strncmp(c, head[k], strlen(head[k])))
			return true;
	return memmem(c, n, ": ios=", 6) || memmem(c, n, "aggrios=", 8);
}

/*
 * Whether fio outputs first and i of pc have captions that name different
 * things (as captioned_apart), i's not a line of the output before it: two
 * outputs pasted into a message under "FIO on Erofs:" and "FIO on SquashFs:",
 * or below the command lines that ran them on two file systems, are two
 * setups, while a log of runs appended (nothing between them) and a
 * terminal's runs of one command (the same command line above each) are
 * repeats.  Return: true when they differ.
 */
static bool fio_captioned_apart(const struct page_ctx *pc, size_t first, size_t i)
{
	const struct nv_run *r = pc->m->runs;
	const char *a, *b;
	size_t na, nb;

	if (!r[first].format || !r[i].format || strncmp(r[first].format, "fio", 3) ||
	    strncmp(r[i].format, "fio", 3))
		return false;
	na = nv_page_caption(pc->text, caption_at(pc, first), &a);
	nb = nv_page_caption(pc->text, caption_at(pc, i), &b);
	if (!na || !nb || fio_tail_line(a, na) || fio_tail_line(b, nb) ||
	    b < pc->text + r[i - 1].at)
		return false;
	return nv_page_captions_differ(a, na, b, nb);
}

/*
 * nv_page_labels' repeat: run i repeats run first (ctx a page_ctx): the
 * same jobs, options, version (repeat_of), not the same output; on a page
 * without headings no prose or other tool's table between them (a post's
 * next machine); under a heading no captions naming different things (a
 * drive's name above each; "Run 2:" between repeats is theirs).
 */
static bool page_repeat(size_t first, size_t i, void *ctx)
{
	const struct page_ctx *pc = ctx;
	const struct nv_multiout *m = pc->m;

	for (size_t j = first; !pc->headings && j < i; j++)
		if (m->runs[j].text_after)
			return false;
	if (pc->headings && captioned_apart(pc, first, i))
		return false;
	if (!pc->headings && fio_captioned_apart(pc, first, i))
		return false;
	return repeat_of(&m->runs[first], &m->runs[i]) &&
	       m->runs[first].digest != m->runs[i].digest;
}

/* Return: true when run b holds a job of a with the same name and options line. */
static bool shares_job(const struct nv_run *a, const struct nv_run *b)
{
	for (size_t i = 0; i < a->njobs; i++)
		for (size_t j = 0; j < b->njobs; j++)
			if (!strcmp(a->jobs[i].name, b->jobs[j].name) &&
			    !strcmp(a->jobs[i].desc, b->jobs[j].desc))
				return true;
	return false;
}

/* Return: the length of desc's rw= value at its start, 0 when it does not start with rw=. */
static size_t rw_len(const char *d)
{
	return strncmp(d, "rw=", 3) ? 0 : 3 + strcspn(d + 3, ", ");
}

/*
 * Whether options lines a and b say the same but their rw= (fio's normal
 * output: "rw=write, bs=(R) ..."; JSON: "rw=randread bs=4k ..."): the write
 * test and the read test of one setup.  Return: true when so.
 */
static bool same_but_rw(const char *a, const char *b)
{
	size_t la = rw_len(a), lb = rw_len(b);

	return la && lb && !strcmp(a + la, b + lb);
}

/* Return: true when every job of b has one of a's names, with a's options but rw=. */
static bool other_direction(const struct nv_run *a, const struct nv_run *b)
{
	for (size_t j = 0; j < b->njobs; j++) {
		bool found = false;

		for (size_t i = 0; i < a->njobs && !found; i++)
			found = !strcmp(a->jobs[i].name, b->jobs[j].name) &&
				same_but_rw(a->jobs[i].desc, b->jobs[j].desc);
		if (!found)
			return false;
	}
	return b->njobs > 0;
}

/*
 * Run i is another test of the machine whose first run is mach (multiout.h):
 * under a heading, read by the same reader, right after that machine's
 * runs (every run between under the same heading), sharing no job with any
 * of them, its jobs those of the machine's first run with another rw= (the
 * read test after the write test; a drive tested with another block size
 * or on another file system is another setup, "#2").  Return: true when so.
 */
static bool page_join(const struct page_ctx *pc, size_t mach, size_t i)
{
	const struct nv_run *r = pc->m->runs;

	if (!pc->headings || r[mach].format != r[i].format ||
	    !other_direction(&r[mach], &r[i]))
		return false;
	for (size_t j = mach; j < i; j++)
		if (strcmp(pc->heads[j], pc->heads[i]) || shares_job(&r[j], &r[i]))
			return false;
	return true;
}

/* nv_page_labels' rel (ctx a page_ctx).  Return: what run i is to the runs before it. */
static enum nv_page_rel page_rel(size_t first, size_t mach, size_t i, void *ctx)
{
	if (page_repeat(first, i, ctx))
		return NV_PAGE_REPEAT;
	return page_join(ctx, mach, i) ? NV_PAGE_JOIN : NV_PAGE_OTHER;
}

/* page_rel for --split outputs: every output a machine.  Return: NV_PAGE_OTHER. */
static enum nv_page_rel never_rel(size_t first, size_t mach, size_t i, void *ctx)
{
	(void)first, (void)mach, (void)i, (void)ctx;
	return NV_PAGE_OTHER;
}

/*
 * The headings above each run of m (page.h) into *heads.
 * Return: 0 or -ENOMEM.
 */
static int run_headings(const char *text, const struct nv_multiout *m,
			char (**heads)[NV_PAGE_HEAD])
{
	size_t *at = malloc((m->n ? m->n : 1) * sizeof(*at));
	int ret;

	if (!at)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++)
		at[i] = m->runs[i].at;
	ret = nv_page_headings(text, at, m->n, heads);
	free(at);
	return ret;
}

/*
 * Label each run of m (a page of machines; page.h): its heading, else the
 * file's stem, " #N" for a later one under a heading unless (group) it
 * repeats the first there or is another test of the machine before it
 * (m->joined).  Return: 0 or -ENOMEM.
 */
static int label_runs(const char *text, const char (*heads)[NV_PAGE_HEAD], const char *path,
		      struct nv_multiout *m, bool group)
{
	const char *base = strrchr(path, '/'), *dot;
	char stem[NV_PAGE_HEAD];

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	snprintf(stem, sizeof(stem), "%.*s", (int)(dot && dot > base ? dot - base
						   : (long)strlen(base)), base);
	struct page_ctx pc = { .text = text, .m = m, .heads = heads };

	for (size_t i = 0; i < m->n && !pc.headings; i++)
		pc.headings = *heads[i] != '\0';
	if (!(m->joined = calloc(m->n, sizeof(*m->joined))))
		return -ENOMEM;
	return nv_page_labels(heads, m->n, stem, group ? page_rel : never_rel, &pc,
			      m->labels, m->joined);
}

/* True when every run of m was read by a text tool other than fio's readers. */
static bool other_tools(const struct nv_multiout *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (!m->runs[i].format || !strncmp(m->runs[i].format, "fio", 3))
			return false;
	return true;
}

/* True when other text (prose, another tool's table) follows a run of m but the last. */
static bool text_between(const struct nv_multiout *m)
{
	for (size_t i = 0; i + 1 < m->n; i++)
		if (m->runs[i].text_after)
			return true;
	return false;
}

/*
 * Whether the runs of m, under heads, are different machines of a page
 * (--split): with outputs or headings always, with none never; auto: when
 * they lie under two or more headings, or are CrystalDiskMark, KDiskMark
 * or diskspd outputs that are not repeats or have prose or other tools'
 * tables between them (a post's machines; repeats pasted one after the
 * other have none).  Return: true for a page.
 */
static bool is_page(const char *text, const char (*heads)[NV_PAGE_HEAD],
		    const struct nv_multiout *m)
{
	struct page_ctx pc = { .text = text, .m = m, .heads = heads };

	if (m->n < 2 || split_mode == NV_SPLIT_NONE)
		return false;
	if (split_mode != NV_SPLIT_AUTO)
		return true;
	if (nv_page_distinct(heads, m->n) >= 2 ||
	    (other_tools(m) && (!repeats(m) || text_between(m))))
		return true;
	for (size_t i = 1; i < m->n; i++)	/* fio outputs captioned apart */
		if (fio_captioned_apart(&pc, 0, i))
			return true;
	return false;
}

/* The whole text as one run in m (the reader's own rules). Return: as nv_input_parse. */
static int read_whole(const char *text, size_t len, const char *path, struct nv_multiout *m,
		      char *err, size_t errlen)
{
	int ret;

	nv_multiout_free(m);
	m->runs = calloc(1, sizeof(*m->runs));
	if (!m->runs) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	m->n = 1;
	ret = nv_input_parse(text, len, path, &m->runs[0], err, errlen);
	if (!ret && !m->runs[0].digest)	/* the text readers leave it to us */
		m->runs[0].digest = nv_hash(text, len);
	return ret;
}

/*
 * Cut, read, keep the last snapshots.  Terse lines of one job name with no
 * snapshot among them are numjobs' processes of one output (or runs
 * appended: the lines cannot tell), read whole.
 * Return: 0, -ENOMEM, or > 0: read it whole.
 */
static int read_outputs(const char *text, size_t len, const char *path, struct nv_multiout *m)
{
	const struct nv_format *f = nv_input_detect(text, len);
	struct segs s = { 0 };
	size_t period = 0;
	char err[512], (*heads)[NV_PAGE_HEAD] = NULL;
	unsigned cut_line = 0;	/* a last output cut short, left out: its line */
	int ret = nv_mo_cut(text, len, &s);

	if (!ret && s.n < 2 && f && !strcmp(f->name, "fio-terse"))
		ret = nv_mo_terse_cut(text, len, &s, &period);
	if (!ret && s.n < 2)
		ret = 1;
	if (!ret && cut_short(text, &s))
		cut_line = s.v[--s.n].line;	/* the one before it ends where it starts */
	if (!ret && read_segs(text, path, &s, err, sizeof(err)))
		ret = 1;
	if (!ret)
		ret = keep_last(&s, path, m);
	if (!ret && cut_line)
		run_note(&m->runs[m->n - 1], "%s:%u: the last fio output stops before its end "
			 "(%s: fio stopped while it wrote it): left out, the one before it read",
			 path, cut_line, period ? "fewer terse lines than each output before it" :
			 "no \"Run status group\" lines");
	if (!ret && period == 1 && m->n == s.n)
		ret = 1;
	if (!ret && m->n > 1 && split_mode != NV_SPLIT_NONE)
		ret = run_headings(text, m, &heads);
	if (!ret && heads && is_page(text, (const char (*)[NV_PAGE_HEAD])heads, m)) {
		m->page = true;
		ret = label_runs(text, (const char (*)[NV_PAGE_HEAD])heads, path, m,
				 split_mode != NV_SPLIT_OUTPUTS);
		free(heads);
		nv_mo_segs_free(&s);
		return ret;
	}
	free(heads);
	if (!ret && m->n == 1)
		m->runs[0].line = 0;	/* one run: the whole file */
	if (!ret && m->n > 1 && !repeats(m))
		ret = 1;
	if (!ret && m->n > 1)
		run_note(&m->runs[0], "%s: %zu runs of the same fio jobs in one file (%s): "
			 "read as repeats of one run", path, m->n, period ? "terse lines whose "
			 "counts start anew" : "different processes or start times");
	nv_mo_segs_free(&s);
	return ret;
}

/* True when run was read from a text report (not fio JSON). */
static bool text_format(const struct nv_run *run)
{
	return run->format && strncmp(run->format, "fio-json", 8);
}

/*
 * A NUL byte in a text report (not JSON: its reader says where) is damage
 * that the text readers, which read lines as strings, must not see.
 * Return: 0, or -EINVAL with err naming the file and line.
 */
static int check_nul(const char *text, size_t len, const char *path, char *err,
		     size_t errlen)
{
	const struct nv_format *f = nv_input_detect(text, len);
	const char *z = memchr(text, '\0', len);
	size_t line = 1;

	if (!z || !f || !strncmp(f->name, "fio-json", 8))
		return 0;
	for (const char *p = text; p < z; p++)
		line += *p == '\n';
	snprintf(err, errlen, "%s:%zu: a NUL byte in what reads as %s (the file is damaged there; "
		 "remove it to read the rest)", path, line, f->what);
	return -EINVAL;
}

/* True when the last line of text (len > 0) holds a digit: a value it may cut. */
static bool last_has_digit(const char *text, size_t len)
{
	for (size_t i = len; i > 0 && text[i - 1] != '\n'; i--)
		if (text[i - 1] >= '0' && text[i - 1] <= '9')
			return true;
	return false;
}

/*
 * A text report whose jobs hold no results at all (their direction lines
 * damaged) is an error here, naming the file, rather than an empty run;
 * a text whose last line holds a digit and no line end may be cut inside
 * it: a note says so.  Return: 0, or -EINVAL with err set.
 */
static int check_text(const char *text, size_t len, const char *path, struct nv_multiout *m,
		      char *err, size_t errlen)
{
	size_t lines = 1;
	struct nv_run *last = &m->runs[m->n - 1];

	for (size_t k = 0; k < m->n; k++) {
		const struct nv_run *r = &m->runs[k];
		bool any = !r->njobs || !text_format(r);

		for (size_t j = 0; j < r->njobs && !any; j++) {
			any = r->jobs[j].error != 0;
			for (unsigned d = 0; d < NV_DIR_NR && !any; d++)
				any = nv_dir_active(&r->jobs[j].dir[d]);
		}
		if (!any) {
			snprintf(err, errlen, "%s: no job of this %s output holds results (its "
				 "read/write/trim lines are missing or damaged)", path, r->format);
			return -EINVAL;
		}
	}
	if (!text_format(last))
		return 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (!len || text[len - 1] == '\n' || !last_has_digit(text, len))
		return 0;
	run_note(last, "%s:%zu: the last line has no line end: the file may be cut inside it, "
		 "and its values read as far as they go", path, lines);
	return 0;
}

int nv_multiout_parse(const char *buf, size_t len, const char *path, struct nv_multiout *m,
		      char *err, size_t errlen)
{
	char *text = NULL;
	const char *enc = NULL;
	size_t tlen = 0;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = nv_input_text(buf, len, &text, &tlen, &enc);
	if (ret) {	/* its reader says what is wrong */
		ret = read_whole(buf, len, path, m, err, errlen);
	} else if (check_nul(text, tlen, path, err, errlen)) {
		free(text);
		return -EINVAL;
	} else {
		ret = read_outputs(text, tlen, path, m);
	}
	if (ret > 0)
		ret = read_whole(text, tlen, path, m, err, errlen);
	else if (ret && text)
		snprintf(err, errlen, "%s: out of memory", path);
	if (!ret && text)
		ret = check_text(text, tlen, path, m, err, errlen);
	if (!ret && enc && strncmp(enc, "UTF-16", 6))
		nv_input_note_encoding(&m->runs[0], path, enc);
	free(text);
	if (ret)
		nv_multiout_free(m);
	return ret;
}

int nv_multiout_load(const char *path, struct nv_multiout *m, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = nv_readfile(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = nv_multiout_parse(buf, len, path, m, err, errlen);
	free(buf);
	return ret;
}

void nv_multiout_free(struct nv_multiout *m)
{
	for (size_t i = 0; i < m->n; i++) {
		nv_run_free(&m->runs[i]);
		free(m->labels ? m->labels[i] : NULL);
	}
	free(m->labels);
	free(m->joined);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

/* The header says what it does. */
int nv_input_load(const char *path, struct nv_run *run, char *err, size_t errlen)
{
	struct nv_multiout m;
	int ret;

	memset(run, 0, sizeof(*run));
	ret = nv_multiout_load(path, &m, err, errlen);
	if (ret)
		return ret;
	*run = m.runs[m.n - 1];
	memset(&m.runs[m.n - 1], 0, sizeof(*run));
	if (m.n > 1)
		nv_note_add(&run->notes, &run->nnotes,
			    "%s: holds %zu fio runs; as part of a '+' join or a directory only "
			    "the last is read (give the file alone to read them as repeats)",
			    path, m.n);
	nv_multiout_free(&m);
	return 0;
}
