/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's commands (report_cmd.c, map_cmd.c, diff_cmd.c), each a whole
 * program with its own options and help: main.c picks one from the command
 * line, the tests and fuzzers call them directly.
 *
 *   fgdecode [report] [options] trace.dat   the trace decoder
 *   fgdecode map [options] [LISTING]         the map profiler (--map: alias)
 *   fgdecode diff [options] BASE.dat NEW.dat what changed between two traces
 *
 * Each takes argv as main() does (argv[0] the program or command name, read
 * with getopt_long(), so set optind = 1 before a second call) and returns
 * the exit status: 0, EXIT_ERROR 1, EXIT_USAGE 2 or EXIT_STRICT 3.
 */
#ifndef FGDECODE_COMMANDS_H
#define FGDECODE_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

int fgdecode_report(int argc, char **argv);
int fgdecode_map(int argc, char **argv);
int fgdecode_diff(int argc, char **argv);

/*
 * Is @name (without its dashes: "top") one of fgdecode report's long
 * options?  main.c asks, to suggest "--top" for a first word "top".
 */
bool fgdecode_report_option(const char *name);

/* Print the help of each command to @out (fgdecode help COMMAND, --help). */
void fgdecode_report_usage(FILE *out);
void fgdecode_map_usage(FILE *out);
void fgdecode_diff_usage(FILE *out);

#endif /* FGDECODE_COMMANDS_H */
