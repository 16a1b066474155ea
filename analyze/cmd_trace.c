/* Placeholder until the trace reader lands (issue 4): fails loudly. */
#include <stdio.h>
#include "analyze/commands.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "nvanalyze %s: not built yet\n", argv[0]);
	return 2;
}

int cmd_stat(int argc, char **argv)
{
	return cmd_dump(argc, argv);
}
