/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's command lines, what the commands share (options.c).  Each
 * command owns its table of long options, its parser and its help, in its
 * own file (report_cmd.c, map_cmd.c, diff_cmd.c); what more than one of
 * them parses is here: how a trace is read and its stacks weighed (struct
 * trace_options: fgdecode report reads one trace, fgdecode diff two),
 * --help and --version, the symbols, and the usage hint.  Each parser reads
 * argv as main() does, with getopt_long(), prints a usage error as one
 * line and a pointer to the command's --help, and exits 0 after printing
 * --help or --version.
 */
#ifndef FGDECODE_OPTIONS_H
#define FGDECODE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>

#include "analyses.h"
#include "filter.h"
#include "output.h"
#include "symbols.h"

/* getopt_long() values of the long options, one set for every command. */
enum {
	OPT_SHOW_DEFINES = 256, OPT_NO_SUMMARY, OPT_VERSION, OPT_COOKIES,
	OPT_STRICT, OPT_JSON, OPT_FOLDED, OPT_MERGE, OPT_TOP, OPT_EVENT,
	OPT_PID, OPT_COMM, OPT_CPU, OPT_TRACER_FRAMES, OPT_FROM, OPT_TO, OPT_VMLINUX, OPT_MODULES, OPT_DEBUGINFO,
	OPT_OFF_CPU, OPT_TASK_ROOT, OPT_NORMALIZE, OPT_ANY_KERNEL,
	OPT_WAKERS,
	OPT_KALLSYMS, OPT_INTERVAL, OPT_COUNT, OPT_STACK_MAP,
	OPT_WEIGHT, OPT_FLAMEGRAPH,
	/* report: the outputs of the table, OPT_OUTPUT + their index */
	OPT_OUTPUT,
};

/**
 * struct command - a command as its parser names it
 * @name: in messages and its help's command line: "map ", "diff ", ""
 *	(report)
 * @usage: prints its help
 */
struct command {
	const char *name;
	void (*usage)(FILE *out);
};

/**
 * struct trace_options - how one trace is decoded (fgdecode report; each
 * trace of fgdecode diff)
 * @path: the trace.dat
 * @no_plugins: -N: no libtraceevent plugin
 * @filter: --event, --pid, --cpu, --from, --to
 * @sym: --vmlinux, --modules, --debuginfo
 * @stack_map: --stack-map FILE or "live", NULL: none
 * @output: the output chosen (output.h), NULL: the text output
 * @out: what it was asked (--cookies, --merge, ...)
 * @an: the analyses asked for (--weight, --off-cpu, --wakers, --task-root)
 * @tracer_frames: --tracer-frames: keep ftrace's own frames atop -T stacks
 * @summary: print the summary lines on stderr (not --no-summary)
 * @strict: --strict: exit 3 on stale, unknown, conflicting cookies,
 *	orphans or corrupt records
 */
struct trace_options {
	const char *path;
	bool no_plugins;
	struct filter filter;
	struct symbol_options sym;
	const char *stack_map;
	const struct output_ops *output;
	struct output_args out;
	struct analysis_args an;
	bool tracer_frames;
	bool summary;
	bool strict;
};

/*
 * What fgdecode map and diff print: by default text (map's listing, diff's
 * table), or --json (map), --folded, --top N, --flamegraph FILE (diff).
 */
enum print {
	PRINT_TEXT = 0,
	PRINT_JSON,
	PRINT_FOLDED,
	PRINT_TOP,
	PRINT_FLAMEGRAPH,
};

/**
 * check_abbreviations() - refuse a long option given by the start of its
 * name: getopt_long() takes "--task" for "--task-root" in silence
 * @argc: the command's argc
 * @argv: the command's argv (up to a "--")
 * @opts: the command's struct option table
 *
 * Return: 0, or -1 after printing "--task: no such option (did you mean
 * --task-root? options are not abbreviated)".
 */
int check_abbreviations(int argc, char **argv, const struct option *opts);

/**
 * usage_hint() - after a usage error (getopt_long() or the caller printed
 * what it was): one line pointing to @cmd's help, not the whole help.
 * Each command prints it once when its parser fails, whatever the error
 * @cmd: the command
 *
 * Return: -1.
 */
int usage_hint(const struct command *cmd);

/**
 * parse_common() - the options every command has: --help and --version
 * (exit 0 after printing), and what getopt_long() refused
 * @cmd: the command
 * @c: getopt_long()'s value
 *
 * Return: -1 (a usage error, printed by getopt_long(); the command adds
 * usage_hint()).
 */
int parse_common(const struct command *cmd, int c);

/**
 * set_print() - map and diff: print @value, one of @which ("--folded, --top
 * and --flamegraph"), only one of which may be given
 * @print: what was chosen so far, set
 * @value: what this option chooses
 * @which: the options that exclude each other, for the message
 *
 * Return: 0, or -1 after printing "--folded, --top and --flamegraph
 * exclude each other".
 */
int set_print(enum print *print, enum print value, const char *which);

/**
 * parse_symbol_option() - --vmlinux, --modules, --debuginfo
 * @sym: set
 * @c: getopt_long()'s value
 * @arg: its argument
 *
 * Return: 0, or 1 for another option.
 */
int parse_symbol_option(struct symbol_options *sym, int c, const char *arg);

/**
 * parse_trace_option() - an option of how a trace is read and its stacks
 * weighed: the filters, -N, the symbols, the weights, --merge,
 * --no-summary
 * @opt: set
 * @c: getopt_long()'s value
 * @arg: its argument
 *
 * Return: 0; 1 for another option; -1 on a usage error (printed).
 */
int parse_trace_option(struct trace_options *opt, int c, const char *arg);

/**
 * check_outputs() - refuse to write over a file the command reads
 * @option: the option that names @file, for the message ("--flamegraph")
 * @file: the file it writes; NULL or "-": none but standard output
 * @inputs: the files the command reads (the trace.dat, a listing, a
 *	vmlinux), NULL-terminated; NULL entries before the end are skipped
 * @nr: the entries of @inputs
 *
 * Standard output is checked too, when it is a regular file (a shell's
 * "> FILE" or ">> FILE").  Files are compared by device and inode, so a
 * symbolic link, a path through "..", or a hard link to an input is that
 * input; an output file that does not exist yet is none.
 *
 * Return: 0, or -1 after printing "--flamegraph x.dat: that is x.dat,
 * which fgdecode reads: refusing to write over it".
 */
int check_outputs(const char *option, const char *file,
		  const char *const *inputs, int nr);

/**
 * check_trace_options() - after the options: --task-root and --wakers need
 * --off-cpu, which sums intervals, not events: not with --weight (its
 * folded stacks have no event root: sched_switch, always; folded.c)
 * @opt: the options parsed
 *
 * Return: 0, or -1 after printing why not.
 */
int check_trace_options(const struct trace_options *opt);

#endif /* FGDECODE_OPTIONS_H */
