// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff: two traces, each decoded by fg_run_trace() into one diff.c
 * table by their folded stacks, then what changed printed (a table,
 * --folded, --top N or a differential --flamegraph).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "debuginfo.h"
#include "diff_table.h"
#include "fgdecode.h"
#include "flamegraph.h"
#include "folded.h"
#include "weight.h"
#include "message.h"

/*
 * The output of each trace of fgdecode diff: one side of the diff, its
 * stacks matched by their folded lines (names only, as --folded prints
 * them), and the kernel release the trace recorded.
 */
struct diff_side {
	struct fgdiff *d;
	int side;			/* DIFF_BASE or DIFF_NEW */
	char release[128];
};

static int side_begin(void *state, struct output_env *env)
{
	struct diff_side *ds = state;

	if (debuginfo_release(env->uname, ds->release, sizeof(ds->release)))
		snprintf(ds->release, sizeof(ds->release), "(not recorded)");
	return 0;
}

/* folded_fn: a stack of this side. */
static int add_to_diff(void *ctx, const char *stack, sm_u64 weight)
{
	struct diff_side *ds = ctx;

	return fgdiff_add(ds->d, ds->side, stack, weight);
}

static int side_end(void *state, const struct output_env *env,
		    sm_u64 span_ns)
{
	(void)span_ns;
	return folded_foreach(env->sz, env->set,
			      env->args->merge || env->analysis->off_cpu,
			      add_to_diff, state);
}

static const struct output_ops diff_side_output = {
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU | OUTPUT_MERGES |
		 OUTPUT_NAMES_ONLY,
	.begin = side_begin,
	.end = side_end,
};

/* What the weights of @opt sum, and their unit. */
static void weight_of(const struct trace_options *opt, struct fgdiff_print *p)
{
	const struct analysis_args *an = &opt->an;

	p->name = an->off_cpu ? "off-cpu" : an->weight ? an->weight : "events";
	p->unit = an->off_cpu ? "ns" : an->weight ? weight_unit(an->weight) :
		  "events";
}

/* diff --flamegraph FILE: titled "BASE -> NEW".  Return: 0, or -1 (printed). */
static int write_diff_flamegraph(const struct diff_options *opt,
				 const struct fgdiff *d,
				 const struct fgdiff_print *p)
{
	char title[512];
	struct sm_err err;

	snprintf(title, sizeof(title), "%s -> %s%s", opt->trace.path,
		 opt->new_path, opt->normalize ? " (base normalized)" : "");
	if (!flamegraph_write_diff(opt->flamegraph, d, opt->normalize,
				   *p->unit ? p->unit : p->name, title, &err))
		return 0;
	fg_error("%s", err.msg);
	return -1;
}

/*
 * Read BASE, then NEW, each into the diff by a run of its own; refuse
 * traces of two kernel releases unless --any-kernel (their stacks would
 * differ for that alone).  Return: 0, or EXIT_ERROR (printed).
 */
static int read_sides(const struct diff_options *opt, struct fgdiff *d)
{
	const char *path[2] = { opt->trace.path, opt->new_path };
	struct diff_side sides[2] = { { .d = d, .side = DIFF_BASE },
				      { .d = d, .side = DIFF_NEW } };
	struct trace_options trace = opt->trace;
	struct sm_err err;
	int side;

	/* Both readable before either is decoded. */
	for (side = DIFF_BASE; side <= DIFF_NEW; side++)
		if (reader_check(path[side], &err)) {
			fg_file_error(path[side], "%s", err.msg);
			return EXIT_ERROR;
		}
	for (side = DIFF_BASE; side <= DIFF_NEW; side++) {
		trace.path = path[side];
		if (fg_run(&trace, &(struct output){ &diff_side_output,
						    &sides[side] }) ==
		    EXIT_ERROR)
			return EXIT_ERROR;
	}
	if (opt->any_kernel ||
	    !strcmp(sides[DIFF_BASE].release, sides[DIFF_NEW].release))
		return 0;
	fg_error("diff: %s was recorded on kernel %s, %s on %s: their stacks differ for that alone (--any-kernel to compare them anyway)",
		 path[DIFF_BASE], sides[DIFF_BASE].release, path[DIFF_NEW],
		 sides[DIFF_NEW].release);
	return EXIT_ERROR;
}

/* fgdecode diff: both traces into one diff, then what changed printed. */
static int run_diff(const struct diff_options *opt)
{
	struct fgdiff_print p = {
		.folded = opt->print == PRINT_FOLDED,
		.normalize = opt->normalize,
		.top = opt->print == PRINT_TOP ? opt->top : 0,
	};
	struct fgdiff *d = fgdiff_new();
	int ret = EXIT_ERROR;

	if (!d) {
		fg_error("out of memory");
		return EXIT_ERROR;
	}
	if (read_sides(opt, d))
		goto out;
	weight_of(&opt->trace, &p);
	if (opt->print == PRINT_FLAMEGRAPH) {
		if (write_diff_flamegraph(opt, d, &p))
			goto out;
	} else if (fgdiff_print(stdout, d, &p) || fflush(stdout) ||
		   ferror(stdout)) {
		fg_error("diff: out of memory or cannot write the output");
		goto out;
	}
	if (opt->trace.summary)
		fgdiff_summary(stderr, d, p.unit);
	ret = 0;
out:
	fgdiff_free(d);
	return ret;
}

int fgdecode_diff(int argc, char **argv)
{
	struct diff_options opt = { 0 };

	if (parse_diff_options(&opt, argc, argv))
		return EXIT_USAGE;
	return run_diff(&opt);
}
