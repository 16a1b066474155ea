/*
 * nvanalyze - fio JSON and nvengine traces into comparison tables and plots.
 *
 * main() only dispatches: "dump", "stat" and "watch" work on traces; anything else is
 * the comparison (an explicit "compare" word is accepted and dropped).
 * "-h"/"--help" prints the usage to stdout (exit 0), "--version" the version
 * (tools/version.sh, as the Debian package's) and the trace format versions
 * it reads; no arguments at all is a usage error (the synopsis and where the
 * options are explained on stderr, exit 2).
 * One exit-status rule for all: a subcommand's 0, 1 or 2 is the status;
 * anything else (a -errno that slipped through) is a failure, 2, never success.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "analyze/cli/commands.h"
#include "nv_version.h"		/* $(O)/gen/, written by the Makefile */
#include "trace/nvtrace_fmt.h"

/* nvanalyze --version.  Return: 0. */
static int print_version(void)
{
	printf("nvanalyze %s\n", NV_VERSION);
	printf("reads nvtrace format %d.0 to %d.%d (a later %d.x too, without what it adds;"
	       " docs/trace-format.md)\n", NVT_VERSION_MAJOR, NVT_VERSION_MAJOR,
	       NVT_VERSION_MINOR, NVT_VERSION_MAJOR);
	printf("reads fio JSON (--output-format=json or json+) of fio 2.x and 3.x\n");
	return 0;
}

/* The process exit status of a subcommand's result.  Return: 0, 1 or 2. */
static int exit_status(int ret)
{
	return ret >= 0 && ret <= 2 ? ret : 2;
}

/*
 * Each job's analysis holds its open interval in buffers of tens of MiB
 * (docs/analysis.md, memory per worker); glibc would map them afresh and
 * unmap them at every job's end, so that the next job faults them in again
 * (a third of the CPU of 64 one-job hosts was that).  Kept in the heap
 * instead: the peak is the same, the pages are reused.
 * Return: nothing.
 */
static void keep_big_buffers(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv)
{
	keep_big_buffers();
	if (argc < 2) {
		cmd_compare_short_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		cmd_compare_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		return print_version();
	if (!strcmp(argv[1], "dump"))
		return exit_status(cmd_dump(argc - 1, argv + 1));
	if (!strcmp(argv[1], "stat"))
		return exit_status(cmd_stat(argc - 1, argv + 1));
	if (!strcmp(argv[1], "watch"))
		return exit_status(cmd_watch(argc - 1, argv + 1));
	if (!strcmp(argv[1], "compare"))
		return exit_status(cmd_compare(argc - 1, argv + 1));
	return exit_status(cmd_compare(argc, argv));
}
