/*
 * summary.c - which rows make the suite summary (rule in summary.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report/summary.h"

int nv_headline_parse(const char *s, enum nv_headline *h)
{
	static const struct { const char *name; enum nv_headline h; } names[] = {
		{ "auto", NV_HL_AUTO }, { "iops", NV_HL_IOPS }, { "bw", NV_HL_BW },
		{ "mbps", NV_HL_BW }, { "both", NV_HL_BOTH },
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			*h = names[i].h;
			return 0;
		}
	}
	return -EINVAL;
}

/* The block size of a direction (bs= option) or, without one, bytes per IO measured. */
static double io_size(const struct nv_job *j, enum nv_dir d)
{
	const struct nv_dirstat *ds = &j->dir[d];

	if (d <= NV_DIR_TRIM && j->bs[d])
		return (double)j->bs[d];
	if (ds->have_ios && ds->ios)
		return (double)ds->io_bytes / (double)ds->ios;
	if (ds->iops.src && ds->iops.v > 0 && ds->bw.src)
		return ds->bw.v / ds->iops.v;
	return 0;
}

enum nv_headline nv_summary_headline(const struct nv_report *r, const struct nv_block *b)
{
	const struct nv_job *j = nv_block_job(r, b);
	double size;

	if (!j)
		return NV_HL_IOPS;
	if (j->rw && !strncmp(j->rw, "rand", 4))
		return NV_HL_IOPS;
	size = io_size(j, b->dir);
	return size > 0 && size < NV_SUMMARY_SMALL_BS ? NV_HL_IOPS : NV_HL_BW;
}

int nv_summary_build(const struct nv_report *r, enum nv_headline h, struct nv_summary_row **rows,
		     size_t *n)
{
	*n = 0;
	*rows = calloc(2 * r->nblocks + 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < r->nblocks; i++) {
		const struct nv_block *b = &r->blocks[i];
		enum nv_headline bh = h;
		const struct nv_row *row;

		if (!b->active || b->dir == NV_DIR_SYNC)
			continue;
		if (bh == NV_HL_AUTO)
			bh = nv_summary_headline(r, b);
		if (bh != NV_HL_BW && (row = nv_block_row(b, NV_M_IOPS)))
			(*rows)[(*n)++] = (struct nv_summary_row){ i, row };
		if (bh != NV_HL_IOPS && (row = nv_block_row(b, NV_M_BW)))
			(*rows)[(*n)++] = (struct nv_summary_row){ i, row };
	}
	return 0;
}
