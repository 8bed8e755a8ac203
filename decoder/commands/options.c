// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's command lines (options.h): one table of long options per
 * command (report's output options from the output table), one parser per
 * command sharing the parsers of the options they have in common (the
 * trace's, the symbols', the weights'), the checks between options, and
 * each command's help.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "filter.h"
#include "output.h"
#include "stackmap/version.h"
#include "message.h"

/* The help lines of the outputs of the table that have an option. */
static void outputs_usage(FILE *out)
{
	const struct output_ops *const *o;

	for (o = output_table(); *o; o++)
		if ((*o)->help)
			fputs((*o)->help, out);
}

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode [options] trace.dat\n"
		"       fgdecode report [options] trace.dat\n"
		"       fgdecode map [options] [LISTING]   (fgdecode map --help)\n"
		"       fgdecode diff [options] BASE.dat NEW.dat   (fgdecode diff --help)\n"
		"       fgdecode help [report|map|diff]\n"
		"\n"
		"Print the events of trace.dat in time order, like trace-cmd report, with the\n"
		"stack each stackmap stack_cookie or stack_fallback event, or ftrace kernel_stack\n"
		"event, carries printed as '=> ' lines under the event it follows on the same CPU.\n"
		"\n"
		"Output (default: text):\n");
	outputs_usage(out);
	fprintf(out,
		"  --merge         with --folded or --flamegraph: merge all events, no\n"
		"                  event root frame\n"
		"  --cookies       text output: head each cookie's stack with\n"
		"                  <cookie 0xC gen G slot S>, each fallback stack with\n"
		"                  <fallback REASON>\n"
		"  --show-defines  text output: also print the stack_define events\n"
		"  --weight FIELD  weigh each stack by the sum of the numeric FIELD of its\n"
		"                  events (e.g. bytes_alloc) instead of their number, in\n"
		"                  --top, --folded, --json, --pprof and --flamegraph; every\n"
		"                  selected event must have FIELD\n"
		"  --off-cpu       with --top N, --folded, --pprof or --flamegraph: weigh\n"
		"                  each sched_switch stack by the ns its task then spent\n"
		"                  off the CPU, under the state it left in ([S], [D],\n"
		"                  [R+], ...); with --json: one object per interval\n"
		"  --task-root     with --off-cpu: the task's comm as the root frame\n"
		"  --wakers        with --off-cpu: each interval under the stack of the\n"
		"                  wakeup that ended it (sched_waking with stacks), as\n"
		"                  'WAKER;waker stack;--;[STATE];blocked stack'\n"
		"Symbols (default: the kallsyms stored in the trace):\n"
		"  --vmlinux FILE  DWARF function names, file:line and inlined frames from\n"
		"                  FILE, placed at the recorded (KASLR) address; refused\n"
		"                  when its symbols do not match the recording\n"
		"  --modules DIR   the same for the recorded modules' NAME.ko files\n"
		"                  found under DIR\n"
		"  --debuginfo     find the vmlinux and modules of the recorded kernel\n"
		"                  release under /usr/lib/debug, /boot and /lib/modules\n"
		"Definitions (after the trace's own and its map snapshot):\n"
		"  --stack-map FILE|live  also resolve cookies from a saved stack_map\n"
		"                  listing (live: the module's), for its generation only\n"
		"Filters (repeatable ones accept comma-separated lists):\n"
		"  --event NAME    only events NAME or SYSTEM:NAME (repeatable)\n"
		"  --pid PID       only events of PID (repeatable)\n"
		"  --cpu CPU       only events on CPU (repeatable)\n"
		"  --from SEC      only events at or after SEC (seconds, as printed)\n"
		"  --to SEC        only events at or before SEC\n"
		"Event text (default: as trace-cmd report, with its libtraceevent plugins):\n"
		"  -N, --no-plugins  load no plugin, as trace-cmd report -N (the text and\n"
		"                  --perf-script outputs: the others print no event text)\n"
		"Other:\n"
		"  --strict        exit 3 if any cookie is stale, unknown or conflicting,\n"
		"                  any stack is an orphan or any record is corrupt\n"
		"  --no-summary    do not print the summary line on stderr\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

static void map_usage(FILE *out)
{
	fprintf(out,
		"usage: fgdecode map [options] [LISTING]\n"
		"       fgdecode --map [options] [LISTING]\n"
		"\n"
		"Print the stacks of the module's stack_map (live, or LISTING, a saved copy)\n"
		"with their hit counts, as a stack profile.\n"
		"\n"
		"Output (default: text):\n"
		"  --json          one JSON object per stack per line\n"
		"  --folded        folded stacks (flame graphs) weighted by hits\n"
		"  --top N         the N stacks with the most hits\n"
		"Symbols:\n"
		"  --kallsyms FILE symbols from FILE, a saved /proc/kallsyms, trace-cmd dump\n"
		"                  --kallsyms's output or a trace.dat (default:\n"
		"                  /proc/kallsyms for the live map, the names a LISTING\n"
		"                  carries beside its addresses)\n"
		"  --vmlinux FILE, --modules DIR  DWARF symbols, as for fgdecode report\n"
		"Over time:\n"
		"  --interval SEC  read the map every SEC seconds and print the hits per\n"
		"                  second of the stacks that changed (text or --top N)\n"
		"  --count N       with --interval: stop after N intervals\n"
		"Other:\n"
		"  --no-summary    accepted as by report and diff; map prints no summary\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}

enum {
	OPT_SHOW_DEFINES = 256, OPT_NO_SUMMARY, OPT_VERSION, OPT_COOKIES,
	OPT_STRICT, OPT_JSON, OPT_FOLDED, OPT_MERGE, OPT_TOP, OPT_EVENT,
	OPT_PID, OPT_CPU, OPT_FROM, OPT_TO, OPT_VMLINUX, OPT_MODULES, OPT_DEBUGINFO,
	OPT_OFF_CPU, OPT_TASK_ROOT, OPT_NORMALIZE, OPT_ANY_KERNEL,
	OPT_WAKERS,
	OPT_KALLSYMS, OPT_INTERVAL, OPT_COUNT, OPT_STACK_MAP,
	OPT_WEIGHT, OPT_FLAMEGRAPH,
	/* report: the outputs of the table, OPT_OUTPUT + their index */
	OPT_OUTPUT,
};

/*
 * fgdecode report: the trace decoder's options; those that choose an output
 * come from the output table (report_longopts()).
 */
static const struct option report_fixed_longopts[] = {
	{ "cookies", no_argument, NULL, OPT_COOKIES },
	{ "show-defines", no_argument, NULL, OPT_SHOW_DEFINES },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "debuginfo", no_argument, NULL, OPT_DEBUGINFO },
	{ "stack-map", required_argument, NULL, OPT_STACK_MAP },
	{ "no-plugins", no_argument, NULL, 'N' },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "task-root", no_argument, NULL, OPT_TASK_ROOT },
	{ "wakers", no_argument, NULL, OPT_WAKERS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/*
 * fgdecode map: the map profiler's options (--no-summary is accepted, as
 * it always was, and changes nothing: map prints no summary; its help says
 * so).
 */
static const struct option map_longopts[] = {
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

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

/* Outputs in the table, at most (the default has no option). */
#define MAX_OUTPUTS	16
#define NR_FIXED	(sizeof(report_fixed_longopts) / \
			 sizeof(report_fixed_longopts[0]))

/*
 * report_fixed_longopts, then one option per output of the table (its
 * value OPT_OUTPUT + its index), then the end.
 */
static const struct option *report_longopts(void)
{
	static struct option opts[NR_FIXED + MAX_OUTPUTS];
	const struct output_ops *const *o = output_table();
	size_t n = NR_FIXED - 1;
	int i;

	memcpy(opts, report_fixed_longopts, n * sizeof(opts[0]));
	for (i = 0; o[i] && i < MAX_OUTPUTS - 1; i++)
		if (o[i]->option)
			opts[n++] = (struct option){
				o[i]->option,
				o[i]->arg ? required_argument : no_argument,
				NULL, OPT_OUTPUT + i };
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
	return opts;
}

static void diff_usage(FILE *out)
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
		"  --weight FIELD, --off-cpu, --task-root, --wakers, --event, --pid, --cpu,\n"
		"  --from, --to, --vmlinux FILE, --modules DIR\n"
		"Other:\n"
		"  --any-kernel    compare traces of two kernel releases (refused by default)\n"
		"  --no-summary    no summary lines on stderr\n"
		"  -h, --help      print this help and exit\n"
		"  --version       print the version and exit\n");
}


/* A command: its name in messages, its help. */
struct command {
	const char *name;	/* "map ", "diff ", "" (report) */
	void (*usage)(FILE *out);
};

static const struct command report_cmd = { "", report_usage };
static const struct command diff_cmd = { "diff ", diff_usage };
static const struct command map_cmd = { "map ", map_usage };

/*
 * After a usage error (getopt_long() or the caller printed what it was):
 * one line pointing to the command's help, not the whole help.
 */
static int usage_hint(const struct command *cmd)
{
	fprintf(stderr, "Try 'fgdecode %s--help' for more information.\n",
		cmd->name);
	return -1;
}

/*
 * The options every command has: --help and --version (exit 0), and what
 * getopt_long() refused.  Return: -1 (a usage error, printed).
 */
static int parse_common(const struct command *cmd, int c)
{
	switch (c) {
	case 'h':
		cmd->usage(stdout);
		exit(0);
	case OPT_VERSION:
		printf("fgdecode %s\n", STACKMAP_VERSION);
		exit(0);
	}
	return usage_hint(cmd);
}

/*
 * map and diff: print @value, one of @which ("--folded, --top and
 * --flamegraph"), only one of which may be given.
 */
static int set_print(enum print *print, enum print value, const char *which)
{
	if (*print != PRINT_TEXT && *print != value) {
		fg_error("%s exclude each other", which);
		return -1;
	}
	*print = value;
	return 0;
}

/* --count N: a positive count; -1 after printing why not. */
static int parse_count(unsigned long *count, const char *arg)
{
	size_t n;

	if (output_parse_count("count", arg, &n))
		return -1;
	*count = n;
	return 0;
}

/* --interval SECONDS: a positive number of seconds, at most a day. */
static int parse_interval(struct map_options *opt, const char *arg)
{
	char *end;

	errno = 0;
	opt->interval = strtod(arg, &end);
	if (errno || *end || !*arg || !(opt->interval >= 0.001) ||
	    opt->interval > 86400) {
		fg_error("--interval: '%s' is not a number of seconds from 0.001 to 86400",
			 arg);
		return -1;
	}
	return 0;
}

/* A filter option: --event, --pid, --cpu, --from, --to. */
static int parse_filter(struct filter *filter, const char *name,
			const char *arg)
{
	if (!filter_add(filter, name, arg))
		return 0;
	fg_error("--%s: invalid value '%s'", name, arg);
	return -1;
}

/* --vmlinux, --modules, --debuginfo; 1 for another option. */
static int parse_symbol_option(struct symbol_options *sym, int c,
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

/* report: choose the output of the table at @index, with @arg. */
static int set_output(struct trace_options *opt, int index, const char *arg)
{
	const struct output_ops *ops = output_table()[index];
	char list[256];

	if (opt->output && opt->output != ops) {
		fg_error("%s exclude each other",
			 output_list(0, " and ", list, sizeof(list)));
		return -1;
	}
	if (ops->check && ops->check(arg))
		return -1;
	opt->output = ops;
	opt->out.arg = arg;
	return 0;
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

/*
 * An option of how a trace is read and its stacks weighed: the filters,
 * -N, the symbols, the weights, --no-summary; 1 for another option, -1 on
 * a usage error (printed).
 */
static int parse_trace_option(struct trace_options *opt, int c,
			      const char *arg)
{
	int ret;

	switch (c) {
	case OPT_EVENT:
		return parse_filter(&opt->filter, "event", arg);
	case OPT_PID:
		return parse_filter(&opt->filter, "pid", arg);
	case OPT_CPU:
		return parse_filter(&opt->filter, "cpu", arg);
	case OPT_FROM:
		return parse_filter(&opt->filter, "from", arg);
	case OPT_TO:
		return parse_filter(&opt->filter, "to", arg);
	case 'N':
		opt->no_plugins = true;
		return 0;
	case OPT_NO_SUMMARY:
		opt->summary = false;
		return 0;
	}
	ret = parse_symbol_option(&opt->sym, c, arg);
	return ret > 0 ? parse_weigh_option(opt, c, arg) : ret;
}

/* An option of fgdecode report only; 1 for another option. */
static int parse_report_option(struct trace_options *opt, int c,
			       const char *arg)
{
	switch (c) {
	case OPT_COOKIES:
		opt->out.cookies = true;
		return 0;
	case OPT_SHOW_DEFINES:
		opt->out.show_defines = true;
		return 0;
	case OPT_STRICT:
		opt->strict = true;
		return 0;
	case OPT_STACK_MAP:
		opt->stack_map = arg;
		return 0;
	}
	if (c >= OPT_OUTPUT && c < OPT_OUTPUT + (int)MAX_OUTPUTS)
		return set_output(opt, c - OPT_OUTPUT, arg);
	return 1;
}

/*
 * --off-cpu sums intervals, not events: not with --weight (its folded
 * stacks have no event root: sched_switch, always; folded.c).
 */
static int parse_off_cpu(struct trace_options *opt)
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

/* The output report prints: the one chosen, or the table's default. */
static const struct output_ops *chosen_output(const struct trace_options *opt)
{
	return opt->output ? opt->output : output_table()[0];
}

/*
 * Options that shape one kind of output do nothing in another: a usage
 * error rather than silence.  Which output takes which is in its flags
 * (output.h): --cookies and --show-defines mark the text output; --weight
 * and --off-cpu weigh the stacks of the others (--off-cpu: --json lists
 * its intervals); --merge merges the event roots of --folded; -N changes
 * the events' text, which only the text output and --perf-script print.
 */
static int check_output_options(const struct trace_options *opt)
{
	const struct output_ops *ops = chosen_output(opt);
	const struct output_args *out = &opt->out;
	char list[256];

	if (out->merge && !(ops->flags & OUTPUT_MERGES)) {
		fg_error("--merge needs %s",
			 output_list(OUTPUT_MERGES, " or ", list, sizeof(list)));
		return -1;
	}
	if (opt->an.off_cpu && !(ops->flags & OUTPUT_OFF_CPU)) {
		fg_error("--off-cpu sums time per stack or lists intervals: not with %s (--json for intervals)",
			 output_name(ops));
		return -1;
	}
	if (!(ops->flags & OUTPUT_TEXT_MARKS) &&
	    (out->cookies || out->show_defines)) {
		fg_error("%s marks the text output: not with %s",
			 out->cookies ? "--cookies" : "--show-defines",
			 output_name(ops));
		return -1;
	}
	if (opt->no_plugins && !(ops->flags & OUTPUT_EVENT_TEXT)) {
		fg_error("-N changes the event text, which %s does not print (the text output and %s do)",
			 output_name(ops),
			 output_list(OUTPUT_EVENT_TEXT, " and ", list, sizeof(list)));
		return -1;
	}
	if (opt->an.weight && !(ops->flags & OUTPUT_WEIGHS)) {
		fg_error("--weight weighs the stacks of %s: not %s",
			 output_list(OUTPUT_WEIGHS, " or ", list, sizeof(list)),
			 output_name(ops));
		return -1;
	}
	return 0;
}

int parse_report_options(struct trace_options *opt, int argc, char **argv)
{
	int c, ret;

	opt->summary = true;
	while ((c = getopt_long(argc, argv, "hN", report_longopts(),
				NULL)) != -1) {
		ret = parse_report_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_trace_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_common(&report_cmd, c);
		if (ret)
			return -1;
	}
	if (check_output_options(opt) || parse_off_cpu(opt))
		return -1;
	if (optind != argc - 1) {
		fg_error("expected one trace.dat file");
		return usage_hint(&report_cmd);
	}
	opt->path = argv[optind];
	return 0;
}

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

int parse_diff_options(struct diff_options *opt, int argc, char **argv)
{
	int c, ret;

	opt->trace.summary = true;
	/* No -N: diff prints no event text (check_output_options()). */
	while ((c = getopt_long(argc, argv, "h", diff_longopts, NULL)) != -1) {
		ret = parse_diff_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_trace_option(&opt->trace, c, optarg);
		if (ret > 0)
			ret = parse_common(&diff_cmd, c);
		if (ret)
			return -1;
	}
	if (parse_off_cpu(&opt->trace))
		return -1;
	if (optind != argc - 2) {
		fprintf(stderr, "fgdecode diff: expected two trace.dat files, BASE and NEW\n");
		return usage_hint(&diff_cmd);
	}
	opt->trace.path = argv[optind];
	opt->new_path = argv[optind + 1];
	return 0;
}

/*
 * An option of fgdecode map (--no-summary is accepted, as it always was,
 * and changes nothing: map prints no summary); 1 for another option.
 */
static int parse_map_option(struct map_options *opt, int c, const char *arg)
{
	static const char which[] = "--json, --folded and --top";

	switch (c) {
	case OPT_JSON:
		return set_print(&opt->print, PRINT_JSON, which);
	case OPT_FOLDED:
		return set_print(&opt->print, PRINT_FOLDED, which);
	case OPT_TOP:
		if (output_parse_count("top", arg, &opt->top))
			return -1;
		return set_print(&opt->print, PRINT_TOP, which);
	case OPT_KALLSYMS:
		opt->kallsyms = arg;
		return 0;
	case OPT_INTERVAL:
		return parse_interval(opt, arg);
	case OPT_COUNT:
		return parse_count(&opt->count, arg);
	case OPT_NO_SUMMARY:
		return 0;
	}
	return parse_symbol_option(&opt->sym, c, arg);
}

int parse_map_options(struct map_options *opt, int argc, char **argv)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", map_longopts, NULL)) != -1) {
		ret = parse_map_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_common(&map_cmd, c);
		if (ret)
			return -1;
	}
	if (optind < argc - 1) {
		fg_error("--map: expected at most one listing file");
		return -1;
	}
	opt->path = optind < argc ? argv[optind] : NULL;
	if (opt->count && !opt->interval) {
		fg_error("--count needs --interval");
		return -1;
	}
	if (opt->interval && (opt->print == PRINT_JSON ||
			      opt->print == PRINT_FOLDED)) {
		fg_error("--interval prints text (or --top N), not --json or --folded");
		return -1;
	}
	return 0;
}

int fgdecode_usage(const char *command, FILE *out)
{
	if (command && !strcmp(command, "map"))
		map_usage(out);
	else if (command && !strcmp(command, "diff"))
		diff_usage(out);
	else if (!command || !strcmp(command, "report") || !strcmp(command, "help"))
		report_usage(out);
	else
		return -1;
	return 0;
}
