/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's command lines (options.c): what each command parses into, and
 * the parsers.  fgdecode report reads one trace (struct trace_options);
 * fgdecode diff reads two the same way, then prints what changed (struct
 * diff_options); fgdecode map reads the module's listing (struct
 * map_options).  Each parser reads argv as main() does, with
 * getopt_long(), prints a usage error as one line and a pointer to the
 * command's --help, and exits 0 after printing --help or --version.
 */
#ifndef FGDECODE_OPTIONS_H
#define FGDECODE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses.h"
#include "filter.h"
#include "output.h"
#include "symbols.h"

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
 * struct diff_options - fgdecode diff BASE.dat NEW.dat
 * @trace: how each is decoded (@trace.path: BASE); its output is the diff's
 * @new_path: NEW.dat
 * @print: what is printed (not PRINT_JSON)
 * @top: with PRINT_TOP, N
 * @flamegraph: with PRINT_FLAMEGRAPH, the file
 * @normalize: --normalize: scale BASE's weights to NEW's total
 * @any_kernel: --any-kernel: compare traces of two kernel releases
 */
struct diff_options {
	struct trace_options trace;
	const char *new_path;
	enum print print;
	size_t top;
	const char *flamegraph;
	bool normalize;
	bool any_kernel;
};

/**
 * struct map_options - fgdecode map [LISTING]
 * @path: the saved listing, NULL: the live one
 * @sym: --vmlinux, --modules (--debuginfo is not an option of map)
 * @kallsyms: --kallsyms FILE, NULL: /proc/kallsyms for the live map, none
 *	for a saved listing
 * @print: text, --json, --folded or --top N (not PRINT_FLAMEGRAPH)
 * @top: with PRINT_TOP, N
 * @interval: --interval seconds, 0: read once
 * @count: --count, 0: until interrupted
 */
struct map_options {
	const char *path;
	struct symbol_options sym;
	const char *kallsyms;
	enum print print;
	size_t top;
	double interval;
	unsigned long count;
};

/**
 * parse_report_options() - fgdecode report: exactly one trace.dat
 * @opt: zeroed, set
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_report_options(struct trace_options *opt, int argc, char **argv);

/**
 * parse_diff_options() - fgdecode diff: exactly two traces
 * @opt: zeroed, set; @opt->trace's output is none of the table's (the
 *	diff command gives each trace its own)
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_diff_options(struct diff_options *opt, int argc, char **argv);

/**
 * parse_map_options() - fgdecode map: at most one LISTING
 * @opt: zeroed, set
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * --count and --interval go together; --interval prints text or --top N.
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_map_options(struct map_options *opt, int argc, char **argv);

#endif /* FGDECODE_OPTIONS_H */
