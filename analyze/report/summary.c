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
			bh = nv_block_headline(r, b);
		if (bh != NV_HL_BW && (row = nv_block_row(b, NV_M_IOPS)))
			(*rows)[(*n)++] = (struct nv_summary_row){ i, row };
		if (bh != NV_HL_IOPS && (row = nv_block_row(b, NV_M_BW)))
			(*rows)[(*n)++] = (struct nv_summary_row){ i, row };
	}
	return 0;
}
