/*
 * nvanalyze - fio JSON and nvengine traces into comparison tables and plots.
 *
 * main() only dispatches: "dump" and "stat" work on traces; anything else is
 * the comparison (an explicit "compare" word is accepted and dropped).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/commands.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	return cmd_compare(argc, argv);
}
