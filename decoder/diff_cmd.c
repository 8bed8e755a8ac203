// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff: two traces, each decoded by fg_run_trace() into one diff.c
 * table by their folded stacks, then what changed printed (a table,
 * --folded, --top N or a differential --flamegraph).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diff.h"
#include "fgdecode.h"
#include "flamegraph.h"
#include "weight.h"
#include "message.h"

/* What the weights of @opt sum, and their unit. */
static void weight_of(const struct options *opt, struct fgdiff_print *p)
{
	p->name = opt->off_cpu ? "off-cpu" : opt->weight ? opt->weight : "events";
	p->unit = opt->off_cpu ? "ns" : opt->weight ? weight_unit(opt->weight) :
		  "events";
}

/* diff --flamegraph FILE: titled "BASE -> NEW".  Return: 0, or -1 (printed). */
static int write_diff_flamegraph(const struct options *opt,
				 const struct fgdiff *d,
				 const struct fgdiff_print *p)
{
	char title[512];
	struct sm_err err;

	snprintf(title, sizeof(title), "%s -> %s%s", opt->path, opt->new_path,
		 opt->normalize ? " (base normalized)" : "");
	if (!flamegraph_write_diff(opt->view, d, opt->normalize,
				   *p->unit ? p->unit : p->name, title, &err))
		return 0;
	fg_error("%s", err.msg);
	return -1;
}

/*
 * fgdecode diff: read BASE, then NEW, each into the diff, on a fresh
 * struct fgdecode; refuse traces of two kernel releases unless
 * --any-kernel (their stacks would differ for that alone); print.
 */
static int run_diff(struct fgdecode *fg)
{
	const struct options opt = fg->opt;
	const char *path[2] = { opt.path, opt.new_path };
	struct fgdiff_print p = {
		.folded = opt.diff_mode == OUT_FOLDED,
		.normalize = opt.normalize,
		.top = opt.diff_mode == OUT_TOP ? opt.top : 0,
	};
	struct fgdiff *d = fgdiff_new();
	char release[2][sizeof(fg->release)];
	int side, ret = EXIT_ERROR;

	if (!d) {
		fg_error("out of memory");
		return EXIT_ERROR;
	}
	for (side = DIFF_BASE; side <= DIFF_NEW; side++) {
		memset(fg, 0, sizeof(*fg));
		fg->opt = opt;
		fg->opt.path = path[side];
		fg->diff = d;
		fg->diff_side = side;
		ret = fg_run_trace(fg);
		if (ret == EXIT_ERROR)
			goto out;
		memcpy(release[side], fg->release, sizeof(release[side]));
	}
	if (!opt.any_kernel && strcmp(release[DIFF_BASE], release[DIFF_NEW])) {
		fg_error("diff: %s was recorded on kernel %s, %s on %s: their stacks differ for that alone (--any-kernel to compare them anyway)",
			 path[DIFF_BASE], release[DIFF_BASE], path[DIFF_NEW],
			 release[DIFF_NEW]);
		ret = EXIT_ERROR;
		goto out;
	}
	weight_of(&opt, &p);
	if (opt.diff_mode == OUT_FLAMEGRAPH) {
		if (write_diff_flamegraph(&opt, d, &p)) {
			ret = EXIT_ERROR;
			goto out;
		}
	} else if (fgdiff_print(stdout, d, &p) || fflush(stdout) ||
		   ferror(stdout)) {
		fg_error("diff: out of memory or cannot write the output");
		ret = EXIT_ERROR;
		goto out;
	}
	if (opt.summary)
		fgdiff_summary(stderr, d);
out:
	fgdiff_free(d);
	return ret;
}

int fgdecode_diff(int argc, char **argv)
{
	return run_command(argc, argv, parse_diff_options, run_diff);
}
