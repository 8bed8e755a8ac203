/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: the one interface through which the pass (commands/pass.c)
 * hands what it decoded to whichever output the command line chose, and the
 * table (outputs.c) that chooses.  The pass names no output; an output is
 * one file defining a struct output_ops, and one line of the table.
 *
 * For one trace the pass calls, in this order:
 *
 *   begin(state, env)      once, the trace open, its symbols and stack set
 *                          set up; @state is the output's own, zeroed
 *   define(state, def)     for each selected stack_define, if .define is set
 *   event(state, ev)       for each selected event, in time order, with the
 *                          stack the pass paired it with (struct fg_event),
 *                          and for each stack record shown on its own
 *   interval(state, iv)    with --off-cpu, for each off-CPU interval as it
 *                          ends (at its task's switch-in), if set
 *   end(state, env, span)  after the last record: what an aggregate output
 *                          prints or writes (--folded, --top, --pprof, ...)
 *   fini(state)            always after begin(), even when a step failed
 *
 * Every callback but fini() returns 0, -ENOMEM, or -EIO after printing one
 * line saying what could not be written; any of them stops the pass.
 * Standard output is flushed and checked by the caller.
 *
 * Modelled on perf's struct perf_tool (one callback table per consumer of
 * the event stream) and libtraceevent's event handlers (the core knows no
 * printer by name).
 */
#ifndef FGDECODE_OUTPUT_H
#define FGDECODE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

#include "analyses.h"
#include "event.h"
#include "offcpu.h"
#include "resolve.h"
#include "sm_err.h"
#include "stackset.h"
#include "symbolize.h"

/**
 * struct output_args - what the command line asked of the output
 * @arg: the argument of the option that chose it (--top N, --pprof FILE),
 *	NULL for one without (checked by its .check at parse time)
 * @cookies: --cookies (text)
 * @show_defines: --show-defines (text)
 * @merge: --merge (folded, flamegraph): no event root frame (--off-cpu
 *	folds without one too: folded.c)
 */
struct output_args {
	const char *arg;
	bool cookies;
	bool show_defines;
	bool merge;
};

/**
 * struct output_env - what the run gives every output
 * @path: the trace.dat (for titles and messages)
 * @file: the file to read the trace's options from: @path, or the copy
 *	rebuilt when @path was truncated (reader_open())
 * @tep: its handle
 * @nr_cpus: its CPU count
 * @uname: the uname of its kernel as trace-cmd stored it, or ""
 * @sz: the symbolizer
 * @vmlinux: the vmlinux it reads DWARF from (--vmlinux, or what
 *	--debuginfo found), NULL: none (pprof names its mapping after it)
 * @set: the stack set every counted stack is in (weighed as sset_weighted()
 *	says); aggregate outputs read it in end()
 * @args: the command line's wishes
 * @analysis: the analyses the stacks went through (--weight, --off-cpu)
 * @selected: the events the filters selected so far, with a stack or not
 *	(stack records shown on their own not counted); final in end()
 * @define_stacks: set by begin(): resolve the stack of each stack_define
 *	given to define()
 */
struct output_env {
	const char *path;
	const char *file;
	struct tep_handle *tep;
	int nr_cpus;
	const char *uname;
	const struct symbolizer *sz;
	const char *vmlinux;
	struct stackset *set;
	const struct output_args *args;
	const struct analysis_args *analysis;
	const size_t *selected;
	bool define_stacks;
};

/*
 * struct output_ops .flags: which of the options that shape an output it
 * takes (the others are usage errors with it), and what it needs.
 */
#define OUTPUT_TEXT_MARKS	0x1	/* --cookies, --show-defines */
#define OUTPUT_WEIGHS		0x2	/* --weight: it shows weighed stacks */
#define OUTPUT_OFF_CPU		0x4	/* --off-cpu (intervals or their sums) */
#define OUTPUT_MERGES		0x8	/* --merge */
#define OUTPUT_NAMES_ONLY	0x10	/* prints function names only: no
					 * module list needed without DWARF */
#define OUTPUT_EVENT_TEXT	0x20	/* prints the events' text, which -N
					 * changes */
#define OUTPUT_WRITES_ARG	0x40	/* writes the file its option names
					 * ("-": standard output) */
#define OUTPUT_STACKS_ONLY	0x80	/* shows stacks only: an event without
					 * one is not in it at all */

/**
 * struct output_ops - one output of fgdecode report
 * @option: the long option that chooses it ("json": --json); NULL for the
 *	default (text)
 * @arg: the name of that option's argument ("N", "FILE"), NULL: none
 * @help: its lines in the help's Output section, each ending in "\n"
 * @flags: OUTPUT_*
 * @size: the size of its state (zeroed before begin())
 * @check: checks @arg at parse time; 0, or -1 after printing a one-line
 *	usage error; NULL: any
 * @begin: see the top of this file; NULL: nothing to do
 * @define: NULL: stack_define records are not given
 * @event: required
 * @interval: NULL: intervals are not given
 * @end: NULL: nothing to do
 * @fini: NULL: nothing to free
 */
struct output_ops {
	const char *option;
	const char *arg;
	const char *help;
	unsigned int flags;
	size_t size;
	int (*check)(const char *arg);
	int (*begin)(void *state, struct output_env *env);
	int (*define)(void *state, const struct fg_define *def);
	int (*event)(void *state, const struct fg_event *ev);
	int (*interval)(void *state, const struct offcpu_interval *iv);
	int (*end)(void *state, const struct output_env *env,
		   sm_u64 span_ns);
	void (*fini)(void *state);
};

/**
 * struct output - an output and its state
 * @ops: what it is
 * @state: its state, @ops->size bytes (output_new())
 */
struct output {
	const struct output_ops *ops;
	void *state;
};

/* outputs.c */

/**
 * output_table() - every output of fgdecode report, the default first
 *
 * Return: a NULL-terminated array (text, then --json, --folded, --top,
 * --pprof, --flamegraph, --perf-script).
 */
const struct output_ops *const *output_table(void);

/**
 * output_name() - how messages name @ops: "--json", or "the text output"
 * @ops: an output of the table
 *
 * Return: a static string.
 */
const char *output_name(const struct output_ops *ops);

/**
 * output_list() - the options of the outputs whose flags have all of @flags
 * @flags: OUTPUT_* bits, 0: every output with an option
 * @sep: the separator before the last one (" or ", " and ")
 * @buf: filled in: "--json, --folded or --top"
 * @size: of @buf
 *
 * Return: @buf.
 */
const char *output_list(unsigned int flags, const char *sep, char *buf,
			size_t size);

/**
 * output_new() - set @out up for @ops with a zeroed state
 * @out: filled in
 * @ops: the output
 *
 * Return: 0, or -ENOMEM.
 */
int output_new(struct output *out, const struct output_ops *ops);

/**
 * output_free() - free the state output_new() made
 * @out: set up by output_new(), or zeroed; its fini() was called if it was
 *	begun
 */
void output_free(struct output *out);

/**
 * output_parse_count() - the positive count @arg of option --@option
 * @option: its name, for the message ("top")
 * @arg: the argument
 * @n: set to the count
 *
 * Return: 0, or -1 after printing "--top: 'x' is not a positive number".
 */
int output_parse_count(const char *option, const char *arg, size_t *n);

/**
 * output_failed() - report a view that could not be written
 * @ret: what writing it returned: 0, -ENOMEM, or another error with @err set
 * @path: the file it was written to
 * @err: the error's line (set here for -ENOMEM)
 *
 * Return: 0 when @ret is 0; else -EIO, after printing the line.
 */
int output_failed(int ret, const char *path, struct sm_err *err);

#endif /* FGDECODE_OUTPUT_H */
