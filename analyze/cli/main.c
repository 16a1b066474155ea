/*
 * nvanalyze - fio JSON and nvengine traces into comparison tables and plots.
 *
 * main() only dispatches: "dump" and "stat" work on traces; anything else is
 * the comparison (an explicit "compare" word is accepted and dropped).
 * "-h"/"--help" prints the usage to stdout (exit 0); no arguments at all is
 * a usage error (usage on stderr, exit 2).  One exit-status rule for all:
 * a subcommand's 0, 1 or 2 is the status; anything else (a -errno that
 * slipped through) is a failure, 2, never success.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/cli/commands.h"

/* The process exit status of a subcommand's result.  Return: 0, 1 or 2. */
static int exit_status(int ret)
{
	return ret >= 0 && ret <= 2 ? ret : 2;
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
	if (!strcmp(argv[1], "dump"))
		return exit_status(cmd_dump(argc - 1, argv + 1));
	if (!strcmp(argv[1], "stat"))
		return exit_status(cmd_stat(argc - 1, argv + 1));
	if (!strcmp(argv[1], "compare"))
		return exit_status(cmd_compare(argc - 1, argv + 1));
	return exit_status(cmd_compare(argc, argv));
}
