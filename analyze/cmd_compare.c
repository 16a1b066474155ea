/* Placeholder until the fio JSON reader lands (issue 5): fails loudly. */
#include <stdio.h>
#include "analyze/commands.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "%s: comparison not built yet\n", argv[0]);
	return 2;
}
