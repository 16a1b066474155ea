/*
 * fiotables.h - fio's tables that are not one number per direction, per
 * side of a report: the job's latency buckets (fio's latency_ns/us/ms) and
 * the runs' disk utilisation (disk_util, md arrays' aggr_*).  A side with
 * repeats gets the mean over the runs that have the value.
 */
#ifndef NV_ANALYZE_FIOTABLES_H
#define NV_ANALYZE_FIOTABLES_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/report/model.h"

/* One bucket of a job over a side's runs. */
struct nv_side_bucket {
	double lo_ns, hi_ns;	/* hi_ns INFINITY for the last (">=") */
	size_t n;		/* runs with the bucket (0: missing) */
	double pct;		/* mean share, % of the job's IOs */
};

/*
 * The latency buckets of block b's job in side s of r, in the rows every
 * side shares: fio's ladder edges that all of b's sources have
 * (nv_fio_ladder_common, aligned by edge, never by position), each row the
 * sum of the source's buckets in it, averaged over the side's sources with
 * buckets.  Every side gets the same rows, whatever their order.  *out
 * malloc'ed (free it; NULL with *n 0 when no source has buckets).
 * Return: 0 or -ENOMEM.
 */
int nv_side_buckets(const struct nv_report *r, const struct nv_block *b, size_t s,
		    struct nv_side_bucket **out, size_t *n);

/*
 * Whether some bucket of some side of block b has a non-zero share (fio
 * prints all-zero buckets for jobs without IOs).
 * Return: true when there is something to show.
 */
bool nv_block_has_buckets(const struct nv_report *r, const struct nv_block *b);

/*
 * --buckets from the traces: the exact counts of block b's direction in
 * side s, summed over the side's traced sources, in counts[0..*nedges]
 * (bucket i is [edges[i-1], edges[i]) ns, 0 and infinity at the ends).
 * Return: the number of traced sources (0: none; counts left zero).
 */
size_t nv_side_trace_buckets(const struct nv_block *b, size_t s, uint64_t *counts,
			     size_t *nedges, const uint64_t **edges);

/*
 * The devices of fio's disk_util over all sides (first-seen order): names
 * in *names (pointers into the runs; free the array), *n of them.
 * Return: 0 or -ENOMEM.
 */
int nv_report_disks(const struct nv_report *r, const char ***names, size_t *n);

/*
 * Counter f (NV_DISK_*) of device name in side s, aggr: the md aggregate.
 * Return: the number of runs that have it (0: missing); *mean their mean.
 */
size_t nv_side_disk(const struct nv_side *s, const char *name, unsigned f, bool aggr,
		    double *mean);

#endif
