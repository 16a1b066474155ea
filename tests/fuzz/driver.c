/*
 * driver.c - main() for a fuzz target outside libFuzzer: the unit test
 * test_fuzz_NAME (built by `make unit` with the project's compiler, and with
 * ASan+UBSan by `make asan`).
 *
 *   test_fuzz_NAME [FILE|DIR...]
 *
 * Without arguments it replays $TOP/tests/fuzz/regress/fuzz_NAME/ (inputs
 * that crashed or broke an invariant once, kept after the fix) and
 * $TOP/tests/fuzz/corpus/fuzz_NAME/ (small seeds), TOP defaulting to the
 * current directory.  Each input is fed to LLVMFuzzerTestOneInput() once; a
 * crash or a broken invariant aborts, which the runner reports with the
 * "replaying" line from stderr naming the input.  Prints one PASS line per
 * regression input and one per corpus directory.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

/* Feed one file to the target; 0, or -errno when it cannot be read. */
static int replay(const char *path)
{
	struct stat st;
	uint8_t *buf;
	FILE *f;
	size_t n;

	fprintf(stderr, "replaying %s\n", path);
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	if (fstat(fileno(f), &st)) {
		fclose(f);
		return -errno;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Replay every regular file in dir (sorted, dot files skipped).  each: one
 * PASS line per file (named SUITE/FILE), else one for the directory.
 * Returns the number of failures (unreadable files); a missing directory is
 * no failure (a target may have no regressions yet).
 */
static int replay_dir(const char *suite, const char *dir, int each)
{
	struct dirent *de;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0;
	int fails = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!nn)
				break;
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		int err;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		err = replay(path);
		if (err) {
			printf("FAIL: %s/%s: cannot read: %s\n", suite, names[i], strerror(-err));
			fails++;
		} else if (each) {
			printf("PASS: %s/%s\n", suite, names[i]);
		}
		free(names[i]);
	}
	if (!each && n && !fails)
		printf("PASS: %s (%zu inputs)\n", suite, n);
	free(names);
	return fails;
}

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

/*
 * Without ASan (which reserves terabytes of address space), cap the address
 * space at 1 GiB as libFuzzer's -rss_limit_mb does: an input that makes a
 * parser allocate what the input cannot justify then fails the test with
 * ENOMEM instead of passing on a machine with memory to spare.
 */
static void limit_memory(void)
{
#ifndef HAVE_ASAN
	struct rlimit rl = { .rlim_cur = 1ul << 30, .rlim_max = RLIM_INFINITY };

	getrlimit(RLIMIT_AS, &rl);
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1ul << 30))
		rl.rlim_cur = 1ul << 30;
	setrlimit(RLIMIT_AS, &rl);
#endif
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP");
	char *me = strdup(argv[0]), *name, dir[4096], suite[256];
	struct stat st;
	int fails = 0;

	if (!me)
		return 1;
	name = basename(me);
	if (!strncmp(name, "test_", 5))
		name += 5;			/* test_fuzz_x -> fuzz_x */
	setvbuf(stdout, NULL, _IOLBF, 0);
	limit_memory();
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
				fails += replay_dir(name, argv[i], 1);
			} else if (replay(argv[i])) {
				printf("FAIL: %s: cannot read %s\n", name, argv[i]);
				fails++;
			} else {
				printf("PASS: %s/%s\n", name, argv[i]);
			}
		}
		free(me);
		return fails ? 1 : 0;
	}
	if (!top)
		top = ".";
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/regress/%s", top, name);
	snprintf(suite, sizeof(suite), "%s/regress", name);
	fails += replay_dir(suite, dir, 1);
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top, name);
	snprintf(suite, sizeof(suite), "%s/corpus", name);
	fails += replay_dir(suite, dir, 0);
	free(me);
	return fails ? 1 : 0;
}
