/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fgdecode report's files (fgdecode.c, the run; pass.c, the pass)
 * and fgdecode diff (diff_cmd.c, which runs it on two traces) share,
 * private to the decoder: the state of one run over a trace, the exit
 * statuses, and the functions one file calls in another.
 */
#ifndef FGDECODE_FGDECODE_H
#define FGDECODE_FGDECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses.h"
#include "options.h"
#include "output.h"
#include "read.h"
#include "resolve.h"
#include "symbols.h"
#include "message.h"

#define EXIT_ERROR		1
#define EXIT_USAGE		2
#define EXIT_STRICT		3

/*
 * One run of the pass over one trace: its stages (read.h, pair.h,
 * resolve.h, analyses.h, output.h), its symbols and what the pass counts.
 */
struct fgdecode {
	struct trace_options opt;
	struct reader reader;
	struct resolver res;
	struct symbols syms;
	struct analyses an;		/* the stack set, --weight, --off-cpu */
	struct output out;		/* set by the command (diff), else
					 * opt.output's, made by the run */
	struct output_env env;		/* what the output is given */
	struct resolved resolved;	/* the stack being resolved */
	size_t records;			/* read, stackmap ones included */
	size_t events;			/* read, stackmap ones left out */
	size_t matched;
	size_t selected;		/* events (not stack records) matched */
	/* Event types (common_type) of which an event had a stack. */
	unsigned long stack_types[(1 << 16) / (8 * sizeof(unsigned long))];
	unsigned long long first_ts;	/* of the records read, in the trace */
	unsigned long long last_ts;	/* clock's units (ns) */
	size_t warnings;
	size_t unread;			/* CPUs whose data was not all read */
	int err;			/* stops the pass: -ENOMEM, or -EINVAL
					 * after printing why */
};

/* fgdecode.c */

/**
 * fg_run_trace() - decode the trace fg->opt.path as fg->opt asks
 * @fg: the run, its options parsed and the rest zeroed (bar fg->out, which
 *	a command may set to an output of its own, begun and ended by the run
 *	but not freed)
 *
 * A crash of libtraceevent on a corrupt page (fault.h) is caught and
 * reported; the reader is then left unclosed.
 *
 * Return: the exit status, 0, EXIT_ERROR or EXIT_STRICT.
 */
int fg_run_trace(struct fgdecode *fg);

/**
 * fg_run() - fg_run_trace() on a fresh run
 * @opt: its options
 * @out: an output of the command's own (fg_run_trace()); NULL: the one
 *	@opt chose
 *
 * Return: as fg_run_trace(); EXIT_ERROR when out of memory.
 */
int fg_run(const struct trace_options *opt, const struct output *out);

/* pass.c */

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
