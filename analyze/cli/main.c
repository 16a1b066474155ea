/*
 * nvanalyze - fio JSON and nvengine traces into comparison tables and plots.
 *
 * main() only dispatches: "dump" and "stat" work on traces; anything else is
 * the comparison (an explicit "compare" word is accepted and dropped).
 * "-h"/"--help" prints the usage to stdout (exit 0), "--version" the version
 * (tools/version.sh, as the Debian package's) and the trace format versions
 * it reads; no arguments at all is a usage error (usage on stderr, exit 2).
 */
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

int main(int argc, char **argv)
{
	if (argc < 2) {
		cmd_compare_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		cmd_compare_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		return print_version();
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	return cmd_compare(argc, argv);
}
