/*
 * nvanalyze - fio JSON and nvengine traces into comparison tables and plots.
 *
 * main() only dispatches: "dump" and "stat" work on traces; anything else is
 * the comparison (an explicit "compare" word is accepted and dropped).
 * "-h"/"--help" prints the usage to stdout (exit 0); no arguments at all is
 * a usage error (usage on stderr, exit 2).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/cli/commands.h"

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
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	return cmd_compare(argc, argv);
}
