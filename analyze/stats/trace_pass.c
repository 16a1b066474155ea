/*
 * trace_pass.c - one trace's statistics, pass by pass (trace_pass.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/stats/trace_check.h"
#include "analyze/stats/trace_pass.h"

void nv_trace_stat_init(struct nv_trace_stat *s)
{
	memset(s, 0, sizeof(*s));
	nv_opstats_init(&s->lat);
}

void nv_trace_stat_free(struct nv_trace_stat *s)
{
	nv_opstats_free(&s->lat);
}

/*
 * Every record of a block valid (trace_check.h).
 * Return: 0, or -EINVAL with err naming path and the record.
 */
static int check_block(const char *path, const struct nvt_cols *c, uint64_t seen, char *err,
		       size_t errlen)
{
	char why[192];

	if (!nv_trace_cols_check(c, seen, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "%s: %s", path, why);
	return -EINVAL;
}

/* Pass 1's totals of one block: per op records, bytes, errors; the time span. */
static void count_block(struct nv_trace_stat *s, const struct nvt_cols *c)
{
	uint64_t lo = UINT64_MAX;

	if (c->uniform & NVT_COL_OP) {
		struct nv_trace_count *o = &s->op[c->op[0]];
		uint64_t bytes = 0, errors = 0;

		if (c->uniform & NVT_COL_LENGTH)	/* constant columns: no loop */
			bytes = (uint64_t)c->length[0] * c->n;
		else
			for (size_t i = 0; i < c->n; i++)
				bytes += c->length[i];
		if (c->uniform & NVT_COL_STATUS)
			errors = c->status[0] ? c->n : 0;
		else
			for (size_t i = 0; i < c->n; i++)
				errors += c->status[i] != 0;
		o->records += c->n;
		o->bytes += bytes;
		o->errors += errors;
	} else {
		for (size_t i = 0; i < c->n; i++) {
			struct nv_trace_count *o = &s->op[c->op[i]];

			o->records++;
			o->bytes += c->length[i];
			o->errors += c->status[i] != 0;
		}
	}
	for (size_t i = 0; i < c->n; i++) {
		uint64_t sub = c->complete_ns[i] - c->latency_ns[i];

		lo = sub < lo ? sub : lo;
	}
	if (!s->records || lo < s->first_submit)
		s->first_submit = lo;
	if (!s->records || c->max_complete_ns > s->last_complete)
		s->last_complete = c->max_complete_ns;
	s->records += c->n;
}

/* Tell the caller where the pass is: seen of total records (0: unknown) of r. */
static void progress(struct nvt_reader *r, const struct nv_trace_stat *s, uint64_t seen,
		     uint64_t total, uint64_t size)
{
	struct nv_tan_progress p = {
		.path = nvt_reader_path(r), .nfiles = 1, .pass = s->pass + 1,
		.records = seen, .total = total, .total_bytes = size,
	};
	struct nvt_read_info in;

	nvt_reader_info(r, &in);
	p.bytes = in.used_bytes;
	s->progress(&p, s->progress_arg);
}

int nv_trace_stat_read(struct nvt_reader *r, struct nv_trace_stat *s, bool first, char *err,
		       size_t errlen)
{
	unsigned want =
		NVT_COL_LATENCY | NVT_COL_OP | (first ? NVT_COL_LENGTH | NVT_COL_STATUS : 0);
	const char *path = nvt_reader_path(r);
	const struct nvt_cols *c;
	uint64_t seen = 0, size = 0, total = first ? 0 : s->records;	/* pass 1 counted */
	struct stat sb;
	int ret;

	if (s->progress && !stat(path, &sb))
		size = (uint64_t)sb.st_size;
	if (s->progress && first && nvt_reader_footer_records(r, &total))
		total = 0;	/* no footer: the bytes tell */
	while ((ret = nvt_reader_next_cols(r, want, &c)) == 1) {
		if ((ret = check_block(path, c, seen, err, errlen)))
			return ret;
		if (nv_opstats_add_block(&s->lat, c->op, c->latency_ns, c->n,
					 c->uniform & NVT_COL_OP)) {
			snprintf(err, errlen, "%s: out of memory", path);
			return -ENOMEM;
		}
		if (first)
			count_block(s, c);
		seen += c->n;
		if (s->progress)
			progress(r, s, seen, total, size);
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s", nvt_reader_strerror(r));
		return ret;
	}
	if (first) {
		s->op[NV_TRACE_STAT_ALL].records = s->records;
		for (unsigned i = 0; i < NVT_OP__MAX; i++) {
			s->op[NV_TRACE_STAT_ALL].bytes += s->op[i].bytes;
			s->op[NV_TRACE_STAT_ALL].errors += s->op[i].errors;
		}
	}
	return 0;
}

int nv_trace_stat_end_pass(struct nv_trace_stat *s, const char *path, bool *more, char *err,
			   size_t errlen)
{
	int ret = nv_opstats_end_pass(&s->lat);

	s->pass++;
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, ret == -EINVAL ?
			 "the trace changed while it was being read" : strerror(-ret));
		return ret;
	}
	*more = ret == 1;
	return 0;
}
