/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FGDECODE_FGDECODE_H
#define FGDECODE_FGDECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "diff.h"
#include "filter.h"
#include "kallsyms.h"
#include "offcpu.h"
#include "pprof.h"
#include "read.h"
#include "resolve.h"
#include "stackset.h"
#include "symbolize.h"
#include "weight.h"

#define EXIT_ERROR		1
#define EXIT_USAGE		2
#define EXIT_STRICT		3

enum output_mode {
	OUT_TEXT = 0,
	OUT_JSON,
	OUT_FOLDED,
	OUT_TOP,
	OUT_PPROF,
	OUT_FLAMEGRAPH,
};

struct options {
	bool show_defines;
	bool cookies;
	bool summary;
	bool strict;
	bool merge;
	enum output_mode mode;
	size_t top;
	const char *view;	/* --pprof or --flamegraph FILE */
	bool no_plugins;	/* -N */
	struct filter filter;
	const char *vmlinux;
	const char *modules;
	bool debuginfo;
	const char *path;	/* NULL with --map: the live listing */
	bool map;
	const char *kallsyms;	/* --kallsyms, with --map */
	const char *stack_map;	/* --stack-map FILE or "live" */
	const char *weight;	/* --weight FIELD, NULL: count events */
	bool off_cpu;		/* --off-cpu */
	bool task_root;		/* --task-root, with --off-cpu */
	bool wakers;		/* --wakers, with --off-cpu */
	bool diff;		/* fgdecode diff */
	const char *new_path;	/* diff: the second trace (path: the base) */
	bool normalize;		/* diff --normalize */
	bool any_kernel;	/* diff --any-kernel */
	enum output_mode diff_mode;	/* diff: OUT_TEXT (table), OUT_FOLDED
					 * or OUT_TOP */
	double interval;	/* --interval seconds, 0: read once */
	unsigned long count;	/* --count, 0: until interrupted */
};

struct fgdecode {
	struct options opt;
	struct reader reader;
	struct resolver res;
	struct stackset *set;
	struct pprof *pprof;		/* with --pprof */
	struct kallsyms kallsyms;	/* with --vmlinux */
	struct symbolizer sz;
	struct resolved resolved;	/* the stack being printed */
	struct trace_seq line;		/* the event and its stack */
	struct trace_seq after;		/* definitions met while attaching */
	struct weight weight;		/* with --weight */
	struct offcpu offcpu;		/* with --off-cpu */
	struct fgdiff *diff;		/* fgdecode diff: where stacks go */
	int diff_side;			/* DIFF_BASE or DIFF_NEW */
	char release[128];		/* kernel release, for diff */
	size_t events;
	size_t matched;
	size_t warnings;
	bool cut;			/* the event printed lost its stack
					 * to the end of its stream */
	bool nomem;
	bool failed;			/* an error was printed: stop */
};

/* fgdecode.c */
__attribute__((format(printf, 2, 3)))
void fg_fatal(const char *path, const char *fmt, ...);
int open_symbols(struct fgdecode *fg, struct tep_handle *tep,
		 const char *name);
int fg_run_trace(struct fgdecode *fg);
int run_command(int argc, char **argv,
		int (*parse)(struct options *, int, char **),
		int (*cmd)(struct fgdecode *));

/* options.c */
int parse_report_options(struct options *opt, int argc, char **argv);
int parse_diff_options(struct options *opt, int argc, char **argv);
int parse_map_options(struct options *opt, int argc, char **argv);

/* report.c */
int fg_decode(struct fgdecode *fg);

#endif /* FGDECODE_FGDECODE_H */
