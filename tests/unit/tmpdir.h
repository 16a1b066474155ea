/*
 * tmpdir.h - a unit test's own temporary directory: made under $TESTTMP
 * (tests/run's per-run directory) or /tmp, paths inside it, and removed
 * with everything in it at the end, without a shell (the directory's name
 * is data, whatever characters $TESTTMP holds).
 *
 *   int main(void)
 *   {
 *           if (tmpdir_make("test_x"))
 *                   return 1;
 *           RUN(...);          // cases write tpath("a.nvt")
 *           tmpdir_remove();
 *           return check_summary();
 *   }
 */
#ifndef NV_TMPDIR_H
#define NV_TMPDIR_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[256];

/*
 * Make the test's directory, NAME.XXXXXX under $TESTTMP or /tmp.
 * Return: 0, or -1 after a FAIL line naming the directory (the test stops).
 */
static inline int tmpdir_make(const char *name)
{
	const char *base = getenv("TESTTMP");

	if ((size_t)snprintf(tmpdir, sizeof(tmpdir), "%s/%s.XXXXXX", base ? base : "/tmp",
			     name) >= sizeof(tmpdir) ||
	    !mkdtemp(tmpdir)) {
		printf("FAIL: %s/setup: cannot make the directory %s: %s\n", name, tmpdir,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* The path of name in the test's directory; four calls may be in use at once. */
static inline const char *tpath(const char *name)
{
	static char buf[4][512];
	static unsigned i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

static inline int tmpdir_remove_one(const char *path, const struct stat *st, int flag,
				    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path))
		fprintf(stderr, "could not remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* Remove the test's directory and all in it (symbolic links not followed). */
static inline void tmpdir_remove(void)
{
	if (tmpdir[0])
		nftw(tmpdir, tmpdir_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
