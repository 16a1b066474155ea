/*
 * curve.c - sweeps recognised from job options, the knee, the SLA search
 * (see curve.h and docs/analysis.md).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/fiojson.h"
#include "analyze/stats/curve.h"

static const char *const sweep_names[NV_SW_NR] = { "bs", "rwmixread", "numjobs", "iodepth" };

/* Options that differ between the jobs of one sweep without making it another workload. */
static const char *const ignored[] = {
	"name", "description", "stonewall", "wait_for", "wait_for_previous", "new_group",
	"group_reporting",
};

const char *nv_sweep_key_name(enum nv_sweep_key k)
{
	return (unsigned)k < NV_SW_NR ? sweep_names[k] : "?";
}

/* fio's aliases as one name: readwrite -> rw, blocksize -> bs. */
static const char *canon(const char *k)
{
	if (!strcmp(k, "readwrite"))
		return "rw";
	if (!strcmp(k, "blocksize"))
		return "bs";
	return k;
}

static int sweep_key(const char *k)
{
	k = canon(k);
	if (!strcmp(k, "rwmixwrite"))
		return NV_SW_RWMIX;
	for (unsigned i = 0; i < NV_SW_NR; i++)
		if (!strcmp(k, sweep_names[i]))
			return (int)i;
	return -1;
}

static bool is_ignored(const char *k)
{
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		if (!strcmp(k, ignored[i]))
			return true;
	return false;
}

/*
 * A job's swept values (fio's defaults for those it does not set: bs 4k,
 * rwmixread 50, numjobs 1, iodepth 1).  Return: 0, or -EINVAL when one
 * does not parse (the job then is in no sweep).
 */
static int sweep_values(const struct nv_sweep_job *j, double v[NV_SW_NR])
{
	v[NV_SW_BS] = 4096;
	v[NV_SW_RWMIX] = 50;
	v[NV_SW_NUMJOBS] = 1;
	v[NV_SW_IODEPTH] = 1;
	for (size_t i = 0; i < j->meta->nopts; i++) {
		const char *k = j->meta->opts[i].key, *s = j->meta->opts[i].val;
		int w = sweep_key(k);
		char *end;
		double d;

		if (w < 0)
			continue;
		if (w == NV_SW_BS) {
			uint64_t b =
				nv_fio_bs_parse(s, j->dir == NV_DIR_WRITE || j->dir == NV_DIR_TRIM
							   ? (enum nv_dir)j->dir
							   : NV_DIR_READ,
					j->meta->bs_kb);

			if (!b)
				return -EINVAL;
			v[w] = (double)b;
			continue;
		}
		d = strtod(s, &end);
		if (end == s || *end || !isfinite(d))
			return -EINVAL;
		v[w] = !strcmp(k, "rwmixwrite") ? 100 - d : d;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The options that make a family: direction, then every option but the
 * swept and ignored ones, sorted, as one string.  Return: it (malloc'ed) or NULL.
 */
static char *family_sig(const struct nv_sweep_job *j)
{
	size_t n = 0, len = 16;
	char **kv = calloc(j->meta->nopts + 1, sizeof(*kv));
	char *sig = NULL;

	if (!kv)
		return NULL;
	for (size_t i = 0; i < j->meta->nopts; i++) {
		const struct nv_jobopt *o = &j->meta->opts[i];

		if (sweep_key(o->key) >= 0 || is_ignored(o->key))
			continue;
		if (asprintf(&kv[n], "%s=%s", canon(o->key), o->val) < 0)
			goto out;
		len += strlen(kv[n++]) + 1;
	}
	qsort(kv, n, sizeof(*kv), cmp_str);
	sig = malloc(len);
	if (!sig)
		goto out;
	len = (size_t)sprintf(sig, "%d", j->dir);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(sig + len, "\n%s", kv[i]);
out:
	for (size_t i = 0; i < n; i++)
		free(kv[i]);
	free(kv);
	return sig;
}

/*
 * The family's name: the common name before '@' as it is ("randread-j4"),
 * else the names' common stem less trailing digits and separators ("qd" of
 * qd1 ... qd16).  Return: it (malloc'ed) or NULL.
 */
static char *family_name(const struct nv_sweep_job *jobs, const struct nv_sweep *s)
{
	const char *first = jobs[s->pt[0].job].name;
	size_t len = strlen(first);
	const char *at = strchr(first, '@');
	const char *rw;

	for (size_t i = 1; i < s->npoints; i++) {
		const char *nm = jobs[s->pt[i].job].name;
		size_t k = 0;

		while (k < len && nm[k] == first[k])
			k++;
		len = k;
	}
	if (at && at > first && (size_t)(at - first) <= len)
		return strndup(first, (size_t)(at - first));	/* as named, digits and all */
	while (len &&
	       (isdigit((unsigned char)first[len - 1]) || strchr("-_.=@ #", first[len - 1])))
		len--;
	if (len)
		return strndup(first, len);
	rw = nv_jobmeta_opt(jobs[s->pt[0].job].meta, "rw");
	if (!rw)
		rw = nv_jobmeta_opt(jobs[s->pt[0].job].meta, "readwrite");
	return strdup(rw ? rw : "job");
}

static int cmp_point(const void *a, const void *b)
{
	const struct nv_sweep_point *x = a, *y = b;

	for (unsigned k = 0; k < NV_SW_NR; k++)
		if (x->v[k] != y->v[k])
			return x->v[k] < y->v[k] ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* Make group members[0..m) a sweep in out if it is one.  0 or -ENOMEM. */
static int try_sweep(const struct nv_sweep_job *jobs, const size_t *members, size_t m,
		     const double (*vals)[NV_SW_NR], struct nv_sweeps *out)
{
	struct nv_sweep s = { .dir = jobs[members[0]].dir };
	struct nv_sweep *n;

	for (unsigned k = 0; k < NV_SW_NR; k++)
		for (size_t i = 1; i < m; i++)
			if (vals[members[i]][k] != vals[members[0]][k]) {
				s.param[s.nparams++] = (enum nv_sweep_key)k;
				break;
			}
	if (!s.nparams)
		return 0;
	s.pt = calloc(m, sizeof(*s.pt));
	if (!s.pt)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++) {
		s.pt[i].job = members[i];
		memcpy(s.pt[i].v, vals[members[i]], sizeof(s.pt[i].v));
	}
	s.npoints = m;
	qsort(s.pt, m, sizeof(*s.pt), cmp_point);
	for (size_t i = 1; i < m; i++)
		if (!memcmp(s.pt[i].v, s.pt[i - 1].v, sizeof(s.pt[i].v))) {
			free(s.pt);	/* two jobs at one point: repeats or rounds, no sweep */
			return 0;
		}
	s.name = family_name(jobs, &s);
	n = s.name ? realloc(out->s, (out->n + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(s.name);
		free(s.pt);
		return -ENOMEM;
	}
	out->s = n;
	out->s[out->n++] = s;
	return 0;
}

int nv_sweeps_find(const struct nv_sweep_job *jobs, size_t n, struct nv_sweeps *out)
{
	double (*vals)[NV_SW_NR] = calloc(n + 1, sizeof(*vals));
	char **sig = calloc(n + 1, sizeof(*sig));
	size_t *members = calloc(n + 1, sizeof(*members));
	bool *done = calloc(n + 1, sizeof(*done));
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!vals || !sig || !members || !done)
		goto out;
	for (size_t i = 0; i < n; i++) {
		done[i] = sweep_values(&jobs[i], vals[i]) != 0;
		if (!done[i] && !(sig[i] = family_sig(&jobs[i])))
			goto out;
	}
	ret = 0;
	for (size_t i = 0; i < n && !ret; i++) {
		size_t m = 0;

		if (done[i])
			continue;
		for (size_t k = i; k < n; k++)
			if (!done[k] && !strcmp(sig[k], sig[i])) {
				members[m++] = k;
				done[k] = true;
			}
		if (m > 1)
			ret = try_sweep(jobs, members, m, (const double (*)[NV_SW_NR])vals, out);
	}
out:
	for (size_t i = 0; sig && i < n; i++)
		free(sig[i]);
	free(sig);
	free(vals);
	free(members);
	free(done);
	if (ret)
		nv_sweeps_free(out);
	return ret;
}

void nv_sweeps_free(struct nv_sweeps *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->s[i].name);
		free(s->s[i].pt);
	}
	free(s->s);
	memset(s, 0, sizeof(*s));
}

void nv_sweep_value_text(char *buf, size_t n, enum nv_sweep_key k, double v)
{
	static const char units[] = "kmgt";

	if (k == NV_SW_BS && v >= 1024 && fmod(v, 1024) == 0) {
		unsigned u = 0;

		v /= 1024;
		while (u + 1 < sizeof(units) - 1 && v >= 1024 && fmod(v, 1024) == 0) {
			v /= 1024;
			u++;
		}
		snprintf(buf, n, "%.0f%c", v, units[u]);
		return;
	}
	snprintf(buf, n, "%.15g", v);
}

void nv_sweep_point_name(char *buf, size_t n, const struct nv_sweep *s, size_t i)
{
	size_t len = 0;

	if (n)
		buf[0] = 0;
	for (unsigned k = 0; k < s->nparams && len < n; k++) {
		char v[32];

		nv_sweep_value_text(v, sizeof(v), s->param[k], s->pt[i].v[s->param[k]]);
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", k ? "," : "",
					nv_sweep_key_name(s->param[k]), v);
	}
}

size_t nv_sweep_values(const struct nv_sweep *s, enum nv_sweep_key k, double *v, size_t max)
{
	size_t n = 0;

	for (size_t p = 0; p < s->npoints; p++) {
		size_t i = 0;

		while (i < n && v[i] < s->pt[p].v[k])
			i++;
		if ((i < n && v[i] == s->pt[p].v[k]) || n == max)
			continue;
		memmove(v + i + 1, v + i, (n - i) * sizeof(*v));
		v[i] = s->pt[p].v[k];
		n++;
	}
	return n;
}

/* Whether t grew by at least o->tput_pct % over base. */
static bool grew(double t, double base, const struct nv_knee_opts *o)
{
	return !(100 * (t - base) < o->tput_pct * base);
}

/* Whether a point after i has a throughput that grew enough over base. */
static bool grows_later(const double *tput, size_t i, size_t n, double base,
			const struct nv_knee_opts *o)
{
	for (size_t k = i + 1; k < n; k++)
		if (tput[k] > 0 && grew(tput[k], base, o))
			return true;
	return false;
}

long nv_knee_find(const double *tput, const double *lat, size_t n, const struct nv_knee_opts *o,
		  size_t *prev)
{
	long last = -1;

	for (size_t i = 0; i < n; i++) {
		if (!(tput[i] > 0) || !(lat[i] > 0))
			continue;
		if (last >= 0 && lat[i] > o->lat_factor * lat[last] &&
		    !grew(tput[i], tput[last], o) &&
		    !grows_later(tput, (size_t)i, n, tput[last], o)) {
			*prev = (size_t)last;
			return (long)i;
		}
		last = (long)i;
	}
	return -1;
}

void nv_sla_search(const enum nv_sla_verdict *v, const double *tput, size_t n,
		   struct nv_sla_answer *a)
{
	a->best = a->first_fail = a->first_unsure = a->first_absent = -1;
	a->nabsent = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == NV_SLA_ABSENT && a->nabsent++ == 0)
			a->first_absent = (long)i;
		if (v[i] == NV_SLA_MET && (a->best < 0 || tput[i] > tput[a->best]))
			a->best = (long)i;
		if (v[i] == NV_SLA_NOT_MET && a->first_fail < 0)
			a->first_fail = (long)i;
		if (v[i] == NV_SLA_CANNOT_TELL && a->first_unsure < 0)
			a->first_unsure = (long)i;
	}
}
