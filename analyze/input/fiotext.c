/*
 * fiotext.c - numbers, sizes and units as fio prints them in its text
 * outputs (stat.c's num2str and the unit names), and their lines, for the
 * text readers.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/input/fiotext.h"
#include "analyze/input/textlines.h"

/* The header says what each function does. */
int nv_fiotext_num(const char *s, const char **end, double *v, double *place)
{
	const char sfx[] = "kMGTP";
	const char *p = s, *dot;
	char *e;
	double d;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	d = strtod(p, &e);
	if (e == p || !isfinite(d))
		return -EINVAL;
	dot = memchr(p, '.', (size_t)(e - p));
	*place = dot ? pow(10, -(double)(e - dot - 1)) : 1;
	if (*e && strchr(sfx, *e) && e[1] != 'i' && e[1] != 'B') {	/* not "MiB", "MB" */
		double m = pow(1000, (double)(strchr(sfx, *e) - sfx + 1));

		d *= m;
		*place *= m;
		e++;
	}
	if (nv_text_junk(*e))	/* "0\xff.31": damage, not 0 */
		return -EINVAL;
	*v = d;
	*end = e;
	return 0;
}

double nv_fiotext_size_unit(const char *s, size_t *n, bool old)
{
	const char pfx[] = "KMGTPE";
	const char *k;
	double m;

	*n = 0;
	if (*s == 'B') {
		*n = 1;
		return 1;
	}
	if (!strncmp(s, "bit", 3)) {	/* unit_base=1: "571Mbit" (the M read as a count) */
		*n = 3;
		return 1.0 / 8;
	}
	k = *s ? strchr(pfx, toupper((unsigned char)*s)) : NULL;
	if (!k)
		return 0;
	if (s[1] == 'i' && s[2] == 'B') {
		*n = 3;
		return pow(1024, (double)(k - pfx + 1));
	}
	if (!strncmp(s + 1, "ibit", 4)) {	/* unit_base=1: "545Mibit" */
		*n = 5;
		return pow(1024, (double)(k - pfx + 1)) / 8;
	}
	m = old && *s != 'k' ? 1024 : 1000;	/* 2.x "KB" is KiB */
	if (old && !strncmp(s + 1, "bit", 3)) {	/* 2.x unit_base=1: "11331Kbit" */
		*n = 4;
		return pow(m, (double)(k - pfx + 1)) / 8;
	}
	if (s[1] != 'B')
		return 0;
	*n = 2;
	return pow(m, (double)(k - pfx + 1));
}

int nv_fiotext_size(const char *s, const char **end, bool old, double *v, double *prec)
{
	double d, place, m;
	size_t n;

	if (nv_fiotext_num(s, end, &d, &place))
		return -EINVAL;
	if (old && !strncmp(*end, "bit", 3) && *end > s && strchr("MGTP", (*end)[-1])) {
		/* 2.x "9.5Mbit": a prefix of the size unit, not a count */
		double c = pow(1000, (double)(strchr("kMGTP", (*end)[-1]) - "kMGTP" + 1));

		d /= c;
		place /= c;
		(*end)--;
	}
	m = nv_fiotext_size_unit(*end, &n, old);
	if (!m)
		return -EINVAL;
	*end += n;
	*v = d * m;
	*prec = place * m / 2;
	return 0;
}

bool nv_fiotext_key(const char *line, const char *key, const char **p)
{
	size_t kl = strlen(key);

	for (const char *s = strstr(line, key); s; s = strstr(s + 1, key)) {
		if (s[kl] != '=' || (s > line && !strchr(" ,(\t/", s[-1])))
			continue;
		*p = s + kl + 1;
		return true;
	}
	return false;
}

double nv_fiotext_time_unit(const char *s)
{
	if (!strncmp(s, "nsec)", 5))
		return 1;
	if (!strncmp(s, "usec)", 5))
		return 1e3;
	if (!strncmp(s, "msec)", 5))
		return 1e6;
	if (!strncmp(s, "sec)", 4))
		return 1e9;
	return 0;
}

/*
 * The length of the quote markers at the start of line p[0..n): each '>'
 * (not fio's ">=64=") and one blank after it, the blanks before the first
 * (an e-mail's "> > ", a Markdown blockquote's "> ").  Return: that length.
 */
static size_t quote_len(const char *p, size_t n)
{
	size_t i = 0, q = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	while (i < n && p[i] == '>' && (i + 1 >= n || p[i + 1] != '=')) {
		i++;
		if (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		q = i;
	}
	return q;
}

char *nv_fiotext_line(const char *p, size_t n)
{
	size_t q = quote_len(p, n);
	char *line = strndup(p + q, n - q);
	size_t len;

	if (!line)
		return NULL;
	len = strlen(line);	/* < n when the line holds a NUL */
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	return line;
}
