/*
 * commands.h - the nvanalyze subcommands.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status: 0 success, 1 a finding
 * the user asked to be told about (e.g. a claim not met), 2 bad input.
 */
#ifndef NV_ANALYZE_COMMANDS_H
#define NV_ANALYZE_COMMANDS_H

int cmd_compare(int argc, char **argv);	/* nvanalyze [compare] a.json b.json ... */
int cmd_dump(int argc, char **argv);	/* nvanalyze dump TRACE... */
int cmd_stat(int argc, char **argv);	/* nvanalyze stat TRACE... */
int cmd_watch(int argc, char **argv);	/* nvanalyze watch DIR|TRACE... */

/* nvanalyze's usage text (all subcommands and the comparison's options). */
#include <stdio.h>
void cmd_compare_usage(FILE *out);
/*
 * The synopsis and one line pointing to --help and the man page, for
 * nvanalyze with no arguments.  Return: nothing; writes to out.
 */
void cmd_compare_short_usage(FILE *out);

#endif
