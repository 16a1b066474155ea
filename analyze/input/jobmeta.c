/*
 * jobmeta.c - a fio job's options, steady-state and latency-target results
 * (see jobmeta.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/jobmeta.h"

unsigned nv_fio_kb_base(const char *opt)
{
	return opt && !strcmp(opt, "1000") ? 1000 : 1024;
}

/* A finite number member; false when absent or not a number. */
static bool num(const json_t *o, const char *key, double *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_number(x) || !isfinite(json_number_value(x)))
		return false;
	*v = json_number_value(x);
	return true;
}

static int cmp_opt(const void *a, const void *b)
{
	return strcmp(((const struct nv_jobopt *)a)->key, ((const struct nv_jobopt *)b)->key);
}

/* Add the string members of o not yet in m (the job's come first). */
static int add_opts(struct nv_jobmeta *m, const json_t *o)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)o, k, v) {
		struct nv_jobopt *n;
		bool have = false;

		if (!json_is_string(v))
			continue;
		for (size_t i = 0; i < m->nopts && !have; i++)
			have = !strcmp(m->opts[i].key, k);
		if (have)
			continue;
		n = realloc(m->opts, (m->nopts + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		m->opts = n;
		n[m->nopts].key = strdup(k);
		n[m->nopts].val = strdup(json_string_value(v));
		m->nopts++;
		if (!n[m->nopts - 1].key || !n[m->nopts - 1].val)
			return -ENOMEM;
	}
	return 0;
}

/* A "data" array of numbers as doubles; 0 or -ENOMEM. */
static int samples(const json_t *a, double **out, size_t *n)
{
	size_t i;
	json_t *x;

	*n = json_array_size(a);
	if (!*n)
		return 0;
	*out = calloc(*n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	json_array_foreach(a, i, x)
		(*out)[i] = json_is_number(x) ? json_number_value(x) : NAN;
	return 0;
}

static int parse_ss(const json_t *e, struct nv_steadystate *ss)
{
	const json_t *o = json_object_get(e, "steadystate");
	const json_t *data = json_object_get(o, "data");
	const char *s = json_string_value(json_object_get(o, "ss"));
	const char *c = json_string_value(json_object_get(o, "criterion"));
	size_t nb = 0;
	double v;

	if (!json_is_object(o))
		return 0;
	ss->present = true;
	ss->duration = ss->max_deviation = ss->slope = ss->bw_mean = ss->iops_mean = NAN;
	ss->elapsed = NAN;
	num(o, "duration", &ss->duration);
	ss->attained = num(o, "attained", &v) && v != 0;
	num(o, "max_deviation", &ss->max_deviation);
	num(o, "slope", &ss->slope);
	num(data, "bw_mean", &ss->bw_mean);
	num(data, "iops_mean", &ss->iops_mean);
	num(e, "elapsed", &ss->elapsed);
	if ((s && !(ss->ss = strdup(s))) || (c && !(ss->criterion = strdup(c))))
		return -ENOMEM;
	if (samples(json_object_get(data, "iops"), &ss->iops, &ss->ndata) ||
	    samples(json_object_get(data, "bw"), &ss->bw, &nb))
		return -ENOMEM;
	if (nb != ss->ndata) {	/* both or neither: fio writes them together */
		free(ss->iops);
		free(ss->bw);
		ss->iops = ss->bw = NULL;
		ss->ndata = 0;
	}
	return 0;
}

static void parse_lt(const json_t *e, struct nv_lattarget *lt)
{
	double d;

	/* fio writes these for every job (the depth is the iodepth) once it has
	 * them; they are a result only when a target was set */
	if (!num(e, "latency_depth", &d) || !num(e, "latency_target", &lt->target_ns) ||
	    !(lt->target_ns > 0))
		return;
	lt->present = true;
	lt->depth = d;
	lt->percentile = lt->window_ns = NAN;
	num(e, "latency_percentile", &lt->percentile);
	if (num(e, "latency_window", &d))
		lt->window_ns = d * 1e3;
}

/*
 * The kb_base the job's bs= was parsed under: fio parses the global
 * options, then the job's, each in order, and kb_base applies to the
 * options after it ("--bs=4k --kb_base=1000" is 4096 bytes, "--kb_base=1000
 * --bs=4k" 4000; a job file's section is parsed kb_base first, and fio's
 * JSON lists the options in the order it parsed them).
 * Return: 1000 or 1024.
 */
static unsigned bs_kb_base(const json_t *jo, const json_t *go)
{
	const json_t *sec[2] = { go, jo };
	unsigned kb = 1024, at_bs = 1024;

	for (unsigned i = 0; i < 2; i++) {
		const char *k;
		json_t *v;

		if (!json_is_object(sec[i]))
			continue;
		json_object_foreach((json_t *)sec[i], k, v) {
			if (!strcmp(k, "kb_base"))
				kb = nv_fio_kb_base(json_string_value(v));
			else if (!strcmp(k, "bs") || !strcmp(k, "blocksize"))
				at_bs = kb;
		}
	}
	return at_bs;
}

int nv_jobmeta_parse(const json_t *e, const json_t *jopt, const json_t *gopt,
		     struct nv_jobmeta *m)
{
	memset(m, 0, sizeof(*m));
	m->bs_kb = bs_kb_base(jopt, gopt);
	if ((json_is_object(jopt) && add_opts(m, jopt)) ||
	    (json_is_object(gopt) && add_opts(m, gopt)))
		return -ENOMEM;
	if (m->nopts)
		qsort(m->opts, m->nopts, sizeof(*m->opts), cmp_opt);
	parse_lt(e, &m->lt);
	return parse_ss(e, &m->ss);
}

const char *nv_jobmeta_opt(const struct nv_jobmeta *m, const char *key)
{
	for (size_t i = 0; i < m->nopts; i++)
		if (!strcmp(m->opts[i].key, key))
			return m->opts[i].val;
	return NULL;
}

void nv_jobmeta_free(struct nv_jobmeta *m)
{
	for (size_t i = 0; i < m->nopts; i++) {
		free(m->opts[i].key);
		free(m->opts[i].val);
	}
	free(m->opts);
	free(m->ss.ss);
	free(m->ss.criterion);
	free(m->ss.iops);
	free(m->ss.bw);
	memset(m, 0, sizeof(*m));
}
