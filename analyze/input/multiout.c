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
#include "analyze/input/multiout_page.h"
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
	struct nv_mo_runs mr;	/* m's runs, for the page rules (multiout_page.h) */
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
	mr = (struct nv_mo_runs){ .n = m->n, .runs = m->runs };
	if (!ret && m->n > 1 && split_mode != NV_SPLIT_NONE)
		ret = nv_mo_run_headings(text, &mr, &heads);
	if (!ret && heads && (split_mode != NV_SPLIT_AUTO ||
			      nv_mo_is_page(text, (const char (*)[NV_PAGE_HEAD])heads, &mr))) {
		m->page = true;
		if (!(m->joined = calloc(m->n, sizeof(*m->joined))))
			ret = -ENOMEM;
		if (!ret)
			ret = nv_mo_label_runs(text, (const char (*)[NV_PAGE_HEAD])heads, path,
					       &mr, split_mode != NV_SPLIT_OUTPUTS, m->labels,
					       m->joined);
		free(heads);
		nv_mo_segs_free(&s);
		return ret;
	}
	free(heads);
	if (!ret && m->n == 1)
		m->runs[0].line = 0;	/* one run: the whole file */
	if (!ret && m->n > 1 && !nv_mo_repeats(&mr))
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
