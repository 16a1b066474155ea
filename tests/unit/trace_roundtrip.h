/*
 * trace_roundtrip.h - the trace tests' round trip: a trace of generated
 * records (tests/unit/trace_gen.h) written through the real writer, with the
 * header and footer pairs below, and a trace read back record for record
 * against what was written.
 */
#ifndef NV_TRACE_ROUNDTRIP_H
#define NV_TRACE_ROUNDTRIP_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/trace_gen.h"
#include "trace/nvtrace.h"

static const struct nvt_kv hdr_kv[] = {
	{ "job.name", "randread" },
	{ "job.number", "3" },
	{ "clock", "CLOCK_MONOTONIC" },
	{ "file.0.path", "/dev/ng0n1" },
	{ "empty", "" },
};

static const struct nvt_kv foot_kv[] = {
	{ "smart.after.temperature", "310" },
};

/* Write n generated records; return them through *out (malloc'd) if wanted. */
static inline int write_trace(const char *path, enum gen_pattern pat, unsigned qd,
			      uint64_t seed, size_t n, const struct nvt_writer_opts *o,
			      struct nvt_record **out)
{
	struct nvt_writer *w;
	struct nvt_record *keep = NULL;
	struct gen g;
	int err;

	err = nvt_writer_open(&w, path, hdr_kv, 5, o);
	if (err)
		return err;
	if (out) {
		keep = malloc((n ? n : 1) * sizeof(*keep));
		if (!keep) {
			nvt_writer_close(w, NULL, 0);
			return -ENOMEM;
		}
	}
	gen_init(&g, pat, qd, seed);
	for (size_t i = 0; i < n; i++) {
		struct nvt_record r;

		gen_record(&g, &r);
		if (keep)
			keep[i] = r;
		err = nvt_writer_append(w, &r);
		if (err)
			break;
	}
	if (err)
		nvt_writer_close(w, foot_kv, 1);
	else
		err = nvt_writer_close(w, foot_kv, 1);
	if (out)
		*out = keep;
	return err;
}

static inline int rec_eq(const struct nvt_record *a, const struct nvt_record *b)
{
	return a->submit_ns == b->submit_ns && a->complete_ns == b->complete_ns &&
	       a->offset == b->offset && a->length == b->length && a->status == b->status &&
	       a->qd == b->qd && a->op == b->op && a->file == b->file;
}

/*
 * Read path completely, comparing each record with want[] (unless NULL).  Returns the
 * number of records read and matching, or -1 at the first differing record.
 * *rc gets the reader's final return (0 or -errno).
 */
static inline long read_compare(const char *path, const struct nvt_record *want,
				size_t nwant, int *rc, struct nvt_read_info *info)
{
	struct nvt_reader *r;
	const struct nvt_record *recs;
	size_t n, got = 0;
	int err;

	err = nvt_reader_open(&r, path);
	if (err) {
		*rc = err;
		if (info)
			memset(info, 0, sizeof(*info));
		nvt_reader_close(r);
		return 0;
	}
	while ((err = nvt_reader_next_block(r, &recs, &n)) == 1) {
		for (size_t i = 0; i < n; i++, got++)
			if (want && (got >= nwant || !rec_eq(&recs[i], &want[got]))) {
				nvt_reader_close(r);
				return -1;
			}
	}
	*rc = err;
	if (info)
		nvt_reader_info(r, info);
	nvt_reader_close(r);
	return (long)got;
}

#endif
