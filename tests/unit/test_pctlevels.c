/*
 * test_pctlevels.c - --percentiles lists: parsing, order, refusals with
 * their messages, names and fio's keys.
 */
#include <errno.h>
#include <string.h>

#include "tests/unit/check.h"
#include "analyze/stats/pctlevels.h"

static char err[300];

static int parse(const char *s, struct nv_pctl *l)
{
	err[0] = 0;
	return nv_pctl_parse(s, l, err, sizeof(err));
}

TEST(parse_list)
{
	struct nv_pctl l;

	CHECK(parse("99.9,1,50,p25", &l) == 0);
	CHECK(!l.fio && l.n == 4);
	CHECK(l.v[0] == 1 && l.v[1] == 25 && l.v[2] == 50 && l.v[3] == 99.9);
	CHECK(parse("100", &l) == 0 && l.n == 1 && l.v[0] == 100);
	CHECK(parse("99.9999", &l) == 0 && l.v[0] == 99.9999);
	CHECK(parse("fio", &l) == 0 && l.fio && l.n == 0);
}

TEST(parse_refused)
{
	struct nv_pctl l = { .n = 7 };

	CHECK(parse("", &l) == -EINVAL && strstr(err, "an empty level"));
	CHECK(parse("1,,2", &l) == -EINVAL && strstr(err, "an empty level"));
	CHECK(parse("50,", &l) == -EINVAL);
	CHECK(parse("0", &l) == -EINVAL && strstr(err, "'0' is not a percentile"));
	CHECK(parse("100.1", &l) == -EINVAL && strstr(err, "(0, 100]"));
	CHECK(parse("-5", &l) == -EINVAL && strstr(err, "not a number"));
	CHECK(parse("abc", &l) == -EINVAL && strstr(err, "'abc' is not a number"));
	CHECK(parse("1e1", &l) == -EINVAL);
	CHECK(parse("50,99,50.0", &l) == -EINVAL && strstr(err, "'50.0' is given twice"));
	CHECK(parse("99.999999999", &l) == -EINVAL && strstr(err, "more than 7 decimals"));
	CHECK(strstr(err, "--percentiles '99.999999999'"));
	CHECK(l.n == 7);	/* untouched */
}

TEST(too_many)
{
	char s[NV_PCTL_MAX * 8 + 16] = "";
	struct nv_pctl l;

	for (int i = 1; i <= NV_PCTL_MAX + 1; i++)
		sprintf(s + strlen(s), "%s%d", i > 1 ? "," : "", i);
	CHECK(parse(s, &l) == -EINVAL && strstr(err, "more than 64 levels"));
}

TEST(defaults_add_find)
{
	struct nv_pctl l;

	nv_pctl_default(&l);
	CHECK(l.n == 5 && l.v[0] == 50 && l.v[1] == 95 && l.v[4] == 99.99);
	CHECK(nv_pctl_add(&l, 99.5) == 0 && l.n == 6 && l.v[3] == 99.5 && l.v[4] == 99.9);
	CHECK(nv_pctl_add(&l, 99.5) == 0 && l.n == 6);
	CHECK(nv_pctl_add(&l, 0) == -EINVAL && nv_pctl_add(&l, 101) == -EINVAL);
	CHECK(nv_pctl_find(&l, 99.9) == 4 && nv_pctl_find(&l, 25) == -1);
	l.n = NV_PCTL_MAX;
	CHECK(nv_pctl_add(&l, 0.5) == -ENOSPC);
}

TEST(names)
{
	char b[32];
	double p;

	nv_pctl_name(b, sizeof(b), 99.5);
	CHECK_STR(b, "p99.5");
	nv_pctl_name(b, sizeof(b), 50);
	CHECK_STR(b, "p50");
	nv_pctl_name(b, sizeof(b), 99.99);
	CHECK_STR(b, "p99.99");
	nv_pctl_fio_key(b, sizeof(b), 99.5);
	CHECK_STR(b, "99.500000");
	/* issue 59 item 3: diskspd's 7-, 8- and 9-nines, each its own name and key */
	CHECK(nv_pctl_parse_name("p99.9999999", &p) == 0 && p == 99.9999999);
	CHECK(!nv_pctl_same(99.9999999, 99.999999) && !nv_pctl_same(99.9999999, 100));
	nv_pctl_name(b, sizeof(b), 99.9999999);
	CHECK_STR(b, "p99.9999999");
	nv_pctl_name(b, sizeof(b), 99.99999);
	CHECK_STR(b, "p99.99999");
	nv_pctl_fio_key(b, sizeof(b), 99.999999);
	CHECK_STR(b, "99.999999");
	nv_pctl_fio_key(b, sizeof(b), 99.9999999);
	CHECK_STR(b, "99.9999999");
	CHECK(nv_pctl_parse_name("p99.5", &p) == 0 && p == 99.5);
	CHECK(nv_pctl_parse_name("p25", &p) == 0 && p == 25);
	CHECK(nv_pctl_parse_name("99.5", &p) == -EINVAL);
	CHECK(nv_pctl_parse_name("p0", &p) == -EINVAL);
	CHECK(nv_pctl_parse_name("pfoo", &p) == -EINVAL);
}

int main(void)
{
	RUN(parse_list);
	RUN(parse_refused);
	RUN(too_many);
	RUN(defaults_add_find);
	RUN(names);
	return check_summary();
}
