// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's command lines, what the commands share (options.h): --help and
 * --version, the usage hint, the parsers of the options several commands
 * take (the filters, the symbols, the weights) and the checks between
 * them.  Each command's own table, parser and help are in its file
 * (report_cmd.c, map_cmd.c, diff_cmd.c), as bpftool's commands each own
 * their do_help().
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filter.h"
#include "message.h"
#include "options.h"
#include "stackmap/version.h"

int usage_hint(const struct command *cmd)
{
	fprintf(stderr, "Try 'fgdecode %s--help' for more information.\n",
		cmd->name);
	return -1;
}

int parse_common(const struct command *cmd, int c)
{
	switch (c) {
	case 'h':
		cmd->usage(stdout);
		exit(0);
	case OPT_VERSION:
		printf("fgdecode %s\n", STACKMAP_VERSION);
		exit(0);
	}
	return -1;
}

int set_print(enum print *print, enum print value, const char *which)
{
	if (*print != PRINT_TEXT && *print != value) {
		fg_error("%s exclude each other", which);
		return -1;
	}
	*print = value;
	return 0;
}

/* A filter option: --event, --pid, --comm, --cpu, --from, --to. */
static int parse_filter(struct filter *filter, const char *name,
			const char *arg)
{
	if (!filter_add(filter, name, arg))
		return 0;
	if (!strcmp(name, "from") || !strcmp(name, "to"))
		fg_error("--%s: '%s' is not a time: seconds as the event lines print them, with at most 6 decimals (942.000001), or +SECONDS after the first record (+0.5)",
			 name, arg);
	else
		fg_error("--%s: invalid value '%s'", name, arg);
	return -1;
}

int parse_symbol_option(struct symbol_options *sym, int c,
			       const char *arg)
{
	switch (c) {
	case OPT_VMLINUX:
		sym->vmlinux = arg;
		return 0;
	case OPT_MODULES:
		sym->modules = arg;
		return 0;
	case OPT_DEBUGINFO:
		sym->debuginfo = true;
		return 0;
	}
	return 1;
}

/* What weighs the stacks: --weight, --off-cpu, --task-root, --wakers, --merge. */
static int parse_weigh_option(struct trace_options *opt, int c,
			      const char *arg)
{
	switch (c) {
	case OPT_WEIGHT:
		opt->an.weight = arg;
		return 0;
	case OPT_OFF_CPU:
		opt->an.off_cpu = true;
		return 0;
	case OPT_TASK_ROOT:
		opt->an.task_root = true;
		return 0;
	case OPT_WAKERS:
		opt->an.wakers = true;
		return 0;
	case OPT_MERGE:
		opt->out.merge = true;
		return 0;
	}
	return 1;
}

int parse_trace_option(struct trace_options *opt, int c,
			      const char *arg)
{
	int ret;

	switch (c) {
	case OPT_EVENT:
		return parse_filter(&opt->filter, "event", arg);
	case OPT_PID:
		return parse_filter(&opt->filter, "pid", arg);
	case OPT_COMM:
		return parse_filter(&opt->filter, "comm", arg);
	case OPT_CPU:
		return parse_filter(&opt->filter, "cpu", arg);
	case OPT_FROM:
		return parse_filter(&opt->filter, "from", arg);
	case OPT_TO:
		return parse_filter(&opt->filter, "to", arg);
	case 'N':
		opt->no_plugins = true;
		return 0;
	case OPT_TRACER_FRAMES:
		opt->tracer_frames = true;
		return 0;
	case 'F':
		return parse_filter(&opt->filter, "filter", arg);
	case OPT_NO_SUMMARY:
		opt->summary = false;
		return 0;
	}
	ret = parse_symbol_option(&opt->sym, c, arg);
	return ret > 0 ? parse_weigh_option(opt, c, arg) : ret;
}

int check_trace_options(const struct trace_options *opt)
{
	const struct analysis_args *an = &opt->an;

	if ((an->task_root || an->wakers) && !an->off_cpu) {
		fg_error("--%s needs --off-cpu",
			 an->wakers ? "wakers" : "task-root");
		return -1;
	}
	if (!an->off_cpu)
		return 0;
	if (an->weight) {
		fg_error("--off-cpu weighs by time: not with --weight");
		return -1;
	}
	return 0;
}

/* The input of @inputs that @st is (same device and inode), or NULL. */
static const char *input_of(const struct stat *st, const char *const *inputs,
			    int nr)
{
	struct stat in;
	int i;

	for (i = 0; i < nr; i++)
		if (inputs[i] && !stat(inputs[i], &in) &&
		    in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return inputs[i];
	return NULL;
}

int check_outputs(const char *option, const char *file,
		  const char *const *inputs, int nr)
{
	const char *in;
	struct stat st;

	if (file && strcmp(file, "-") && !stat(file, &st) &&
	    (in = input_of(&st, inputs, nr))) {
		fg_error("%s %s: that is %s, which fgdecode reads: refusing to write over it",
			 option, file, in);
		return -1;
	}
	if (!fstat(STDOUT_FILENO, &st) && S_ISREG(st.st_mode) &&
	    (in = input_of(&st, inputs, nr))) {
		fg_error("standard output is %s, which fgdecode reads: refusing to write over it",
			 in);
		return -1;
	}
	return 0;
}

/* The option of @opts named exactly @name (@len bytes), or NULL. */
static const struct option *option_named(const struct option *opts,
					 const char *name, size_t len)
{
	for (; opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

int check_abbreviations(int argc, char **argv, const struct option *opts)
{
	const struct option *o;
	const char *name;
	size_t len;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (strncmp(argv[i], "--", 2))
			continue;
		name = argv[i] + 2;
		len = strcspn(name, "=");
		o = option_named(opts, name, len);
		if (o) {
			/* Its argument, when separate, is no option. */
			i += o->has_arg == required_argument && !name[len];
			continue;
		}
		for (o = opts; o->name; o++)
			if (len && !strncmp(o->name, name, len))
				break;
		if (!o->name)
			continue;	/* getopt_long() says it is unknown */
		fg_error("--%.*s: no such option (did you mean --%s? options are not abbreviated)",
			 (int)len, name, o->name);
		return -1;
	}
	return 0;
}
