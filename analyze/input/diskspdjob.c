/*
 * diskspdjob.c - the parameters, names and jobs diskspd's text and XML
 * readers share (diskspdjob.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/diskspdjob.h"

void nv_diskspd_size(const char *v, char *out, size_t n)
{
	char *end;
	unsigned long x = strtoul(v, &end, 10);
	char u = (char)(*end | 0x20);

	if (end == v)
		snprintf(out, n, "64k");
	else if (u == 'k' || u == 'm' || u == 'g')
		snprintf(out, n, "%lu%c", x, u);
	else if (x % 1048576 == 0 && x)
		snprintf(out, n, "%lum", x / 1048576);
	else if (x % 1024 == 0 && x)
		snprintf(out, n, "%luk", x / 1024);
	else
		snprintf(out, n, "%lu", x);
}


/*
 * The name jobs/diskspd/ gives p ("randread-4k-t4-qd32") into name and its
 * fio rw= into rw.  Return: nothing.
 */
static void ds_name(const struct nv_diskspd_params *p, char *name, size_t n, char *rw,
		    size_t rwn)
{
	const char *kind = p->w == 0 ? "read" : p->w >= 100 ? "write" : "rw";
	size_t len;

	snprintf(rw, rwn, "%s%s", p->rnd ? "rand" : "", kind);
	snprintf(name, n, "%s%s-%s-t%u-qd%u%s", p->rnd ? "rand" : "seq", kind, p->bs,
		 p->threads ? p->threads : 1, p->qd, p->si ? "-si" : "");
	len = strlen(name);
	if (p->w > 0 && p->w < 100)
		snprintf(name + len, n - len, "-w%u", p->w);
}

int nv_diskspd_job(struct nv_run *run, const struct nv_diskspd_params *p, unsigned n,
		   struct nv_job **job)
{
	struct nv_job *nj = realloc(run->jobs, (run->njobs + 1) * sizeof(*nj));
	struct nv_job *j;
	char name[96], rw[16];

	if (!nj)
		return -ENOMEM;
	ds_name(p, name, sizeof(name), rw, sizeof(rw));
	run->jobs = nj;
	j = &run->jobs[run->njobs++];
	memset(j, 0, sizeof(*j));
	if (n <= 1)
		j->name = strdup(name);
	else if (asprintf(&j->name, "%s #%u", name, n) < 0)
		j->name = NULL;
	j->key = j->name ? strdup(j->name) : NULL;
	j->rw = strdup(rw);
	if (asprintf(&j->desc, "rw=%s bs=%s iodepth=%u numjobs=%u", rw, p->bs, p->qd,
		     p->threads ? p->threads : 1) < 0)
		j->desc = NULL;
	if (!j->name || !j->key || !j->rw || !j->desc)
		return -ENOMEM;
	for (unsigned d = 0; d < 3; d++)
		j->bs[d] = nv_fio_bs_parse(p->bs, (enum nv_dir)d, 1024);
	*job = j;
	return 0;
}

int nv_diskspd_point(struct nv_latstat *ls, double pct, struct nv_val ns)
{
	struct nv_pctpt *np;

	if (pct == -1) {
		ls->min = ns;
		return 0;
	}
	if (pct == -2) {
		ls->max = ns;
		return 0;
	}
	if (ls->npoints && pct <= ls->points[ls->npoints - 1].pct)
		return -EINVAL;	/* diskspd writes its levels ascending: damage */
	np = realloc(ls->points, (ls->npoints + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	ls->points = np;
	np[ls->npoints].pct = pct;
	np[ls->npoints++].ns = ns.v;
	for (int i = 0; i < NV_PCT_NR; i++)
		if (nv_pcts[i].value > pct - 1e-9 && nv_pcts[i].value < pct + 1e-9)
			ls->pct[i] = ns;
	return 0;
}
