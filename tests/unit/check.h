/*
 * check.h - minimal unit test support for nvengine.
 *
 * A test file defines cases with TEST(name) { ... CHECK(expr); ... } and a
 * main() that calls RUN(name) for each, then returns check_summary().  Each
 * case prints one line, "PASS: file/name" or "FAIL: file/name: expr at
 * line N", in the protocol that tests/run counts.  CHECK does not abort the
 * case; CHECK_EQ_U64 / CHECK_STR print both values on failure.
 */
#ifndef NV_CHECK_H
#define NV_CHECK_H

#include <stdio.h>
#include <string.h>
#include <inttypes.h>

static int check_failed_case;	/* failures in the running case */
static int check_failures;	/* failed cases */
static char check_msg[512];

#define TEST(name) static void name(void)

#define CHECK(expr) do { \
	if (!(expr)) { \
		if (!check_failed_case++) \
			snprintf(check_msg, sizeof(check_msg), "%s at %s:%d", #expr, \
				 __FILE__, __LINE__); \
	} \
} while (0)

#define CHECK_EQ_U64(a, b) do { \
	uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b); \
	if (check_a_ != check_b_ && !check_failed_case++) \
		snprintf(check_msg, sizeof(check_msg), \
			 "%s == %s: %" PRIu64 " != %" PRIu64 " at %s:%d", \
			 #a, #b, check_a_, check_b_, __FILE__, __LINE__); \
} while (0)

#define CHECK_EQ_I64(a, b) do { \
	int64_t check_a_ = (int64_t)(a), check_b_ = (int64_t)(b); \
	if (check_a_ != check_b_ && !check_failed_case++) \
		snprintf(check_msg, sizeof(check_msg), \
			 "%s == %s: %" PRId64 " != %" PRId64 " at %s:%d", \
			 #a, #b, check_a_, check_b_, __FILE__, __LINE__); \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *check_a_ = (a), *check_b_ = (b); \
	if ((!check_a_ || !check_b_ || strcmp(check_a_, check_b_)) && !check_failed_case++) \
		snprintf(check_msg, sizeof(check_msg), "%s == %s: \"%s\" != \"%s\" at %s:%d", \
			 #a, #b, check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)", \
			 __FILE__, __LINE__); \
} while (0)

#define RUN(name) do { \
	check_failed_case = 0; \
	name(); \
	if (check_failed_case) { \
		check_failures++; \
		printf("FAIL: %s/%s: %s\n", check_base(__FILE__), #name, check_msg); \
	} else { \
		printf("PASS: %s/%s\n", check_base(__FILE__), #name); \
	} \
	fflush(stdout); \
} while (0)

static inline const char *check_base(const char *path)
{
	const char *s = strrchr(path, '/');
	const char *b = s ? s + 1 : path;
	static char buf[128];
	size_t n = strcspn(b, ".");
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, b, n);
	buf[n] = 0;
	return buf;
}

static inline int check_summary(void)
{
	return check_failures ? 1 : 0;
}

#endif
