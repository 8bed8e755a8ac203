/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fgdecode's files (fgdecode.c, options.c, report.c, map_cmd.c,
 * diff_cmd.c) share, private to the decoder: the parsed options, the state
 * of one run over a trace, the exit statuses, and the functions one file
 * calls in another.
 */
#ifndef FGDECODE_FGDECODE_H
#define FGDECODE_FGDECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses.h"
#include "filter.h"
#include "kallsyms.h"
#include "output.h"
#include "read.h"
#include "resolve.h"
#include "symbolize.h"
#include "message.h"

#define EXIT_ERROR		1
#define EXIT_USAGE		2
#define EXIT_STRICT		3

/* What fgdecode map and diff print (report's outputs: output.h). */
enum output_mode {
	OUT_TEXT = 0,
	OUT_JSON,
	OUT_FOLDED,
	OUT_TOP,
	OUT_FLAMEGRAPH,
};

struct options {
	bool summary;
	bool strict;
	const struct output_ops *output;	/* report: --json, ... (NULL: text) */
	struct output_args out;	/* what report's output is asked */
	enum output_mode mode;	/* map and diff */
	size_t top;		/* map and diff: --top N */
	const char *view;	/* diff: --flamegraph FILE */
	bool no_plugins;	/* -N */
	struct filter filter;
	const char *modules;
	bool debuginfo;
	const char *path;	/* NULL with --map: the live listing */
	bool map;
	const char *kallsyms;	/* --kallsyms, with --map */
	const char *stack_map;	/* --stack-map FILE or "live" */
	bool task_root;		/* --task-root, with --off-cpu */
	bool diff;		/* fgdecode diff */
	const char *new_path;	/* diff: the second trace (path: the base) */
	bool normalize;		/* diff --normalize */
	bool any_kernel;	/* diff --any-kernel */
	double interval;	/* --interval seconds, 0: read once */
	unsigned long count;	/* --count, 0: until interrupted */
};

/*
 * One run of the pass over one trace: its stages (output.h, analyses.h,
 * pair.h, resolve.h, read.h) and what the pass counts.
 */
struct fgdecode {
	struct options opt;
	struct reader reader;
	struct resolver res;
	struct kallsyms kallsyms;	/* the trace's kallsyms */
	struct symbolizer sz;
	struct analyses an;		/* the stack set, --weight, --off-cpu */
	struct output out;		/* set by the command (diff), else
					 * opt.output's, made by the run */
	struct output_env env;		/* what the output is given */
	struct resolved resolved;	/* the stack being resolved */
	size_t events;
	size_t matched;
	unsigned long long first_ts;	/* of the records read, in the trace */
	unsigned long long last_ts;	/* clock's units (ns) */
	size_t warnings;
	int err;			/* stops the pass: -ENOMEM, or -EINVAL
					 * after printing why */
};

/* fgdecode.c */

/**
 * open_symbols() - set up fg->sz for the kallsyms a handle holds
 * @fg: the run, its options parsed
 * @tep: the trace's (or with map, the --kallsyms file's) handle
 * @name: the file errors are about
 *
 * The kallsyms are listed once for the module names (not needed by
 * --folded, which prints names only, without --vmlinux or --modules); with
 * --vmlinux or --modules (or what --debuginfo found), the vmlinux and
 * modules are placed by them too.
 *
 * Return: 0, or -1 after printing why.
 */
int open_symbols(struct fgdecode *fg, struct tep_handle *tep,
		 const char *name);

/**
 * fg_run_trace() - decode the trace fg->opt.path as fg->opt asks
 * @fg: the run, its options parsed and the rest zeroed
 *
 * A crash of libtraceevent on a corrupt page (fault.h) is caught and
 * reported; the reader is then left unclosed.
 *
 * Return: the exit status, 0, EXIT_ERROR or EXIT_STRICT.
 */
int fg_run_trace(struct fgdecode *fg);

/**
 * run_command() - run a command on a fresh struct fgdecode
 * @argc: the command's argc
 * @argv: the command's argv, read with getopt_long()
 * @parse: fills in the options from @argc and @argv; -1 on a usage error
 * @cmd: runs the command, returning its exit status
 *
 * Return: @cmd's exit status; EXIT_USAGE when @parse failed; EXIT_ERROR
 * when out of memory.
 */
int run_command(int argc, char **argv,
		int (*parse)(struct options *, int, char **),
		int (*cmd)(struct fgdecode *));

/* options.c: each parses @argc, @argv with getopt_long() into @opt, zeroed. */

/**
 * parse_report_options() - fgdecode report: exactly one trace.dat
 * @opt: the options, set
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_report_options(struct options *opt, int argc, char **argv);

/**
 * parse_diff_options() - fgdecode diff: exactly two traces
 * @opt: the options, set
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * The table, --folded or --top N is printed after both are read: while
 * reading, the mode is OUT_FOLDED (no per-event output, folded stacks) and
 * @opt->diff_mode the one asked for.
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_diff_options(struct options *opt, int argc, char **argv);

/**
 * parse_map_options() - fgdecode map: at most one LISTING
 * @opt: the options, set
 * @argc: the command's argc
 * @argv: the command's argv
 *
 * --count and --interval go together; --interval prints text or --top N.
 *
 * Return: 0, or -1 on a usage error (printed).
 */
int parse_map_options(struct options *opt, int argc, char **argv);

/* report.c */

/**
 * fg_decode() - the pass: every record in time order through the pipeline
 * @fg: the run, its reader, resolver, symbols, analyses and output set up
 * and begun
 *
 * Return: 0; -EINVAL when an error was printed; -ENOMEM; an output's error
 * (-EIO, printed).
 */
int fg_decode(struct fgdecode *fg);

#endif /* FGDECODE_FGDECODE_H */
