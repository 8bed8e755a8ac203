// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff: two traces, each decoded by fg_run_trace() into one diff.c
 * table by their folded stacks, then what changed printed (a table,
 * --folded, --top N or a differential --flamegraph).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "debuginfo.h"
#include "diff_table.h"
#include "fgdecode.h"
#include "flamegraph.h"
#include "folded.h"
#include "weight.h"
#include "message.h"
#include "options.h"
#include "tracedat_file.h"
#include "tracedat_options.h"

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

static const struct command diff_cmd = { "diff ", fgdecode_diff_usage };

void fgdecode_diff_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode diff [options] BASE.dat NEW.dat\n"
		"\n"
		"Compare the stacks of two traces: each stack's weight in BASE and in NEW,\n"
		"stacks matched by their symbolized frames (as --folded prints them), not by\n"
		"cookie.  By default a table of the stacks that changed, most change first.\n"
		"\n"
		"Output:\n"
		"  --folded        every stack as 'STACK BASE NEW' (differential flame graphs)\n"
		"  --top N         the table's N stacks of most change\n"
		"  --flamegraph FILE  a differential SVG flame graph: NEW's stacks, red where\n"
		"                  they grew, blue where they shrank\n"
		"  --normalize     scale BASE's weights to NEW's total first\n"
		"  --merge         no event root frame\n"
		"What is compared (as for fgdecode report):\n"
		"  --weight FIELD, --off-cpu, --task-root, --wakers, --event, --pid, --comm,\n"
		"  --cpu, --from, --to, --tracer-frames, --vmlinux FILE, --modules DIR\n"
		"  -F, --filter FILTER\n"
		"Other:\n"
		"  --any-kernel    compare traces of two kernel releases (refused by default)\n"
		"  --no-summary    no summary lines on stderr\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

/* fgdecode diff: the options of the stacks compared, and how to print. */
static const struct option diff_longopts[] = {
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "any-kernel", no_argument, NULL, OPT_ANY_KERNEL },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "task-root", no_argument, NULL, OPT_TASK_ROOT },
	{ "wakers", no_argument, NULL, OPT_WAKERS },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "tracer-frames", no_argument, NULL, OPT_TRACER_FRAMES },
	{ "filter", required_argument, NULL, 'F' },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* An option of fgdecode diff only; 1 for another option. */
static int parse_diff_option(struct diff_options *opt, int c, const char *arg)
{
	static const char which[] = "--folded, --top and --flamegraph";

	switch (c) {
	case OPT_FOLDED:
		return set_print(&opt->print, PRINT_FOLDED, which);
	case OPT_TOP:
		if (output_parse_count("top", arg, &opt->top))
			return -1;
		return set_print(&opt->print, PRINT_TOP, which);
	case OPT_FLAMEGRAPH:
		opt->flamegraph = arg;
		return set_print(&opt->print, PRINT_FLAMEGRAPH, which);
	case OPT_NORMALIZE:
		opt->normalize = true;
		return 0;
	case OPT_ANY_KERNEL:
		opt->any_kernel = true;
		return 0;
	}
	return 1;
}

/*
 * fgdecode diff: exactly two traces.  @opt: zeroed, set; @opt->trace's
 * output is none of the table's (the diff command gives each trace its
 * own).  Return: 0, or -1 on a usage error (printed).
 */
static int parse_diff_options(struct diff_options *opt, int argc,
			      char **argv)
{
	int c, ret;

	opt->trace.summary = true;
	/* No -N: diff prints no event text (check_output_options()). */
	if (check_abbreviations(argc, argv, diff_longopts))
		return -1;
	while ((c = getopt_long(argc, argv, "hF:", diff_longopts, NULL)) != -1) {
		ret = parse_diff_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_trace_option(&opt->trace, c, optarg);
		if (ret > 0)
			ret = parse_common(&diff_cmd, c);
		if (ret)
			return -1;
	}
	if (check_trace_options(&opt->trace))
		return -1;
	if (optind != argc - 2) {
		fprintf(stderr, "fgdecode diff: expected two trace.dat files, BASE and NEW\n");
		return -1;
	}
	opt->trace.path = argv[optind];
	opt->new_path = argv[optind + 1];
	if (check_outputs("--flamegraph", opt->flamegraph,
			  (const char *[]){ opt->trace.path, opt->new_path,
					    opt->trace.sym.vmlinux }, 3))
		return -1;
	return 0;
}

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

/* Refuse traces of two kernel releases; -1 after printing. */
static int refuse_releases(const struct diff_options *opt,
			   const char *const path[2],
			   const char *const release[2])
{
	if (opt->any_kernel || !strcmp(release[DIFF_BASE], release[DIFF_NEW]))
		return 0;
	fg_error("diff: %s was recorded on kernel %s, %s on %s: their stacks differ for that alone (--any-kernel to compare them anyway)",
		 path[DIFF_BASE], release[DIFF_BASE], path[DIFF_NEW],
		 release[DIFF_NEW]);
	return -1;
}

/*
 * The kernel release @path recorded, from its UNAME option, read without
 * decoding the trace; "" when it cannot be read so (a version 6 file, a
 * compressed options section: the run reads it then).
 */
static void early_release(const char *path, char *release, size_t size)
{
	struct sm_err err;
	size_t len;
	char *uname;

	*release = '\0';
	if (stackmap_tracedat_read_option(path, TRACEDAT_OPTION_UNAME, 4096,
					  &uname, &len, &err))
		return;
	if (debuginfo_release(uname, release, size))
		*release = '\0';
	free(uname);
}

/*
 * Read BASE, then NEW, each into the diff by a run of its own; refuse
 * traces of two kernel releases unless --any-kernel (their stacks would
 * differ for that alone), before decoding either when their UNAME options
 * can be read first.  Return: 0, or EXIT_ERROR (printed).
 */
static int read_sides(const struct diff_options *opt, struct fgdiff *d)
{
	const char *path[2] = { opt->trace.path, opt->new_path };
	struct diff_side sides[2] = { { .d = d, .side = DIFF_BASE },
				      { .d = d, .side = DIFF_NEW } };
	struct trace_options trace = opt->trace;
	char early[2][128];
	struct sm_err err;
	int side;

	/* Both readable, and of one kernel, before either is decoded. */
	for (side = DIFF_BASE; side <= DIFF_NEW; side++) {
		if (reader_check(path[side], &err)) {
			fg_file_error(path[side], "%s", err.msg);
			return EXIT_ERROR;
		}
		early_release(path[side], early[side], sizeof(early[side]));
	}
	if (*early[DIFF_BASE] && *early[DIFF_NEW] &&
	    refuse_releases(opt, path, (const char *[]){ early[DIFF_BASE],
							early[DIFF_NEW] }))
		return EXIT_ERROR;
	for (side = DIFF_BASE; side <= DIFF_NEW; side++) {
		trace.path = path[side];
		if (fg_run(&trace, &(struct output){ &diff_side_output,
						    &sides[side] }) ==
		    EXIT_ERROR)
			return EXIT_ERROR;
	}
	return refuse_releases(opt, path,
			       (const char *[]){ sides[DIFF_BASE].release,
						 sides[DIFF_NEW].release }) ?
	       EXIT_ERROR : 0;
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

	if (parse_diff_options(&opt, argc, argv)) {
		usage_hint(&diff_cmd);
		return EXIT_USAGE;
	}
	return run_diff(&opt);
}
