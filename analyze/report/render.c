/*
 * render.c - nvanalyze's output formats: the report printed by the renderer
 * of the format asked for (render_md.c for Markdown and text, render_csv.c,
 * render_json.c), the stream checked at the end.
 */
#include <errno.h>
#include <stdio.h>

#include "analyze/report/render.h"

int nv_report_print(FILE *out, const struct nv_report *r, enum nv_format f)
{
	int ret = 0;

	switch (f) {
	case NV_FMT_MD:
	case NV_FMT_TEXT:
		ret = nv_render_md(out, r, f);
		break;
	case NV_FMT_CSV:
		ret = nv_render_csv(out, r);
		break;
	case NV_FMT_JSON:
		ret = nv_render_json(out, r);
		break;
	}
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}

