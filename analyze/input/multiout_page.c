/*
 * multiout_page.c - which outputs of a file of several are repeats of one
 * run and which are a page's machines, their labels and the tests of one
 * machine joined (multiout.h: the rules; multiout_page.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/multiout_page.h"
#include "analyze/input/page.h"

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
bool nv_mo_repeats(const struct nv_mo_runs *m)
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
	const struct nv_mo_runs *m;
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
 * Whether the captions (page.h) of runs first and i of pc name different
 * things; for fio text outputs (fio) none is a line of fio's output and i's
 * is below the run before it.  Return: true when they differ.
 */
static bool captions_differ(const struct page_ctx *pc, size_t first, size_t i, bool fio)
{
	const char *a, *b;
	size_t na = nv_page_caption(pc->text, caption_at(pc, first), &a),
	       nb = nv_page_caption(pc->text, caption_at(pc, i), &b);

	if (!na || !nb)
		return false;
	if (fio && (fio_tail_line(a, na) || fio_tail_line(b, nb) ||
		    b < pc->text + pc->m->runs[i - 1].at))
		return false;
	return nv_page_captions_differ(a, na, b, nb);
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

	if (!r[i - 1].text_after &&	/* nothing between: no caption of i's */
	    nv_page_fence_above(pc->text, r[i - 1].at, r[i].at) == SIZE_MAX)
		return false;
	return captions_differ(pc, first, i, false);
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

	/* fio text only: fio JSON (no format) is cut at its objects, a '}' above each */
	if (!r[first].format || !nv_run_is_fio(&r[first]) || !r[i].format ||
	    !nv_run_is_fio(&r[i]))
		return false;
	return captions_differ(pc, first, i, true);
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
	const struct nv_mo_runs *m = pc->m;

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
int nv_mo_run_headings(const char *text, const struct nv_mo_runs *m,
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
int nv_mo_label_runs(const char *text, const char (*heads)[NV_PAGE_HEAD], const char *path,
		     const struct nv_mo_runs *m, bool group, char **labels, bool *joined)
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
	return nv_page_labels(heads, m->n, stem, group ? page_rel : never_rel, &pc,
			      labels, joined);
}

/* True when every run of m was read by a text tool other than fio's readers. */
static bool other_tools(const struct nv_mo_runs *m)
{
	for (size_t i = 0; i < m->n; i++)
		if (nv_run_is_fio(&m->runs[i]))
			return false;
	return true;
}

/* True when other text (prose, another tool's table) follows a run of m but the last. */
static bool text_between(const struct nv_mo_runs *m)
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
bool nv_mo_is_page(const char *text, const char (*heads)[NV_PAGE_HEAD],
		   const struct nv_mo_runs *m)
{
	struct page_ctx pc = { .text = text, .m = m, .heads = heads };

	if (m->n < 2)
		return false;
	if (nv_page_distinct(heads, m->n) >= 2 ||
	    (other_tools(m) && (!nv_mo_repeats(m) || text_between(m))))
		return true;
	for (size_t i = 1; i < m->n; i++)	/* fio outputs captioned apart */
		if (fio_captioned_apart(&pc, 0, i))
			return true;
	return false;
}
