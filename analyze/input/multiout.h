/*
 * multiout.h - several fio outputs in one file.
 *
 * fio's --status-interval=N writes its whole report every N seconds (the
 * normal output, each JSON object of --output-format=json, or both), and
 * people log repeated runs into one file with `fio ... >> log`.  Such a file
 * is cut into its outputs: a fio normal output ends with its "Run status
 * group" lines (and Disk stats), so a job header, job preamble or "fio-X.Y"
 * line after them starts the next output; a line "{" followed by the
 * "fio version" member starts the next JSON object once the output holds
 * one; in a file of terse lines, whose job names repeat in the same order in
 * each output, the smallest period of the names that repeats at least
 * twice.  Each output is read by its own reader (detect.h).  A last output
 * that fio stopped writing (a normal output of the process of the one
 * before it without its "Run status group" lines, fewer terse lines than
 * each output before it) is left out with a note, so that the one before
 * it is read, never the cut one.
 *
 * Consecutive outputs of one fio process are snapshots: the same jobs, the
 * runtime growing, and the same process (the normal output's pid=, or the
 * JSON's start time, "timestamp" - "elapsed", within a second; terse lines,
 * which say neither: counts that continue, more bytes at no more than ten
 * times the earlier average rate over the time added).  Of each run
 * the last snapshot is read, and a note says how many were left out.
 * Different runs of the same jobs, options lines and fio version are
 * repeats of one run (runset.h); terse lines of one job name none of which
 * is a snapshot (numjobs' processes of one output, or runs appended: they
 * cannot be told apart) are read as one output.
 *
 * CrystalDiskMark and KDiskMark exports (their banner) and diskspd reports
 * ("Command Line:" or "Input parameters:" after a report's results) are cut
 * the same way.  An article's machines are runs of their own (a page,
 * m->page): outputs under two or more different Markdown headings (the
 * nearest "## title" above each output, outside code fences), or text
 * outputs of those tools that are not repeats or have prose or another
 * tool's table between them (run->text_after), or fio outputs whose
 * captions name different things (the line above each that is not a line
 * of the output before it: "FIO on Erofs:", a command line on another file
 * system; the same command line above each keeps repeats), each labelled by its
 * heading (the file's name without one), " #2" for a second output under
 * one heading that does not repeat the first; outputs under one heading
 * that repeat each other stay repeats of that machine (the same label)
 * unless the captions above them name different things (page.h).  An
 * output under one heading that follows that machine's outputs (no other
 * heading's between), holds none of their jobs (a name with the same
 * options line) and whose jobs are its first output's with another rw=
 * (the write test, then the read test) is another test of that machine:
 * the same label, joined into its run.
 * --split outputs makes every output a run of its own, --split headings
 * a page whatever the headings, --split none never a page.  A paste
 * repeated (the same output twice), outputs that do not read one by one,
 * or runs holding different jobs not on a page, are read as one file (the
 * reader's own rules, as for any file).
 */
#ifndef NV_ANALYZE_MULTIOUT_H
#define NV_ANALYZE_MULTIOUT_H

#include <stddef.h>

#include "analyze/input/fiojson.h"

/* The runs of one file, in file order. */
struct nv_multiout {
	size_t n;
	struct nv_run *runs;	/* [n]: each fio run (its last snapshot) */
	bool page;		/* different machines of a page (above), not repeats */
	char **labels;		/* [n] on a page: each run's label; else NULL entries */
	bool *joined;		/* [n] on a page: another test of the machine of the
				 * last run before it of the same label that is not
				 * joined (its run is theirs joined, runset.h); else NULL */
};

/* How a file's outputs become runs (--split; above). */
enum nv_split { NV_SPLIT_AUTO, NV_SPLIT_OUTPUTS, NV_SPLIT_HEADINGS, NV_SPLIT_NONE };

/* Set the split for the files read from now on.  Return: nothing. */
void nv_multiout_split(enum nv_split mode);

/*
 * "auto", "outputs", "headings" or "none" into *out.
 * Return: 0, or -EINVAL for another word.
 */
int nv_split_parse(const char *s, enum nv_split *out);

/*
 * Cut buf (len bytes as read from the file, any encoding nv_input_decode
 * takes) into its fio outputs and read them: m->n is 1 for a file of one
 * run (also one run's status-interval snapshots, the last read, a note on
 * it) or the number of runs found.  run->format is set as nv_input_parse.
 * Return: 0 and *m filled (nv_multiout_free), or as nv_input_parse.
 */
int nv_multiout_parse(const char *buf, size_t len, const char *path, struct nv_multiout *m,
		      char *err, size_t errlen);

/* Read the file at path and nv_multiout_parse it.  Return: as nv_multiout_parse. */
int nv_multiout_load(const char *path, struct nv_multiout *m, char *err, size_t errlen);

/*
 * Read the file at path as one run: nv_input_parse's, or for a file of
 * several fio outputs (above) the last snapshot of its one run, or of
 * several runs the last, with a note saying so (nv_runset_load reads those
 * as repeats).  Return: as nv_input_parse.
 */
int nv_input_load(const char *path, struct nv_run *run, char *err, size_t errlen);

/* Free the runs of m.  Return: nothing. */
void nv_multiout_free(struct nv_multiout *m);

#endif
