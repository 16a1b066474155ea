/*
 * test_common.c - analyze/common.c: the command line's numbers.
 */
#include <errno.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "analyze/common.h"

TEST(cli_numbers)
{
	double v;
	unsigned long n;

	CHECK(nv_parse_double("0.1888", &v) == 0 && v == 0.1888);
	CHECK(nv_parse_double("+50", &v) == 0 && v == 50);
	CHECK(nv_parse_double("", &v) == -EINVAL);
	CHECK(nv_parse_double(" 1", &v) == -EINVAL);
	CHECK(nv_parse_double("1x", &v) == -EINVAL);
	CHECK(nv_parse_double("nan", &v) == -EINVAL);
	CHECK(nv_parse_double("1e999", &v) == -ERANGE);
	CHECK(nv_parse_index("2", &n) == 0 && n == 2);
	CHECK(nv_parse_index("0", &n) == -ERANGE);
	CHECK(nv_parse_index("-1", &n) == -EINVAL);
}

int main(void)
{
	RUN(cli_numbers);
	return check_summary();
}
