// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode report (the default command): its options, its help and its
 * run over one trace (fg_run(), fgdecode.c).  The options that choose an
 * output come from the output table (outputs.c); those it shares with
 * diff are parsed by options.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fgdecode.h"
#include "message.h"
#include "options.h"
#include "output.h"

static const struct command report_cmd = { "", fgdecode_report_usage };

/* The help lines of the outputs of the table that have an option. */
static void outputs_usage(FILE *out)
{
	const struct output_ops *const *o;

	for (o = output_table(); *o; o++)
		if ((*o)->help)
			fputs((*o)->help, out);
}

void fgdecode_report_usage(FILE *out)
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
		"                  wakeup that ended it (sched_waking with stacks), past\n"
		"                  a -- frame, and its comm; folded:\n"
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
		"  --event NAME    only events NAME, SYSTEM:NAME or of SYSTEM, each part a\n"
		"                  glob as for trace-cmd record -e ('sched:*') (repeatable)\n"
		"  --pid PID       only events of PID (repeatable)\n"
		"  --comm COMM     only events of tasks named COMM (repeatable)\n"
		"  --cpu CPU       only events on CPU (repeatable)\n"
		"  --from SEC      only events at or after SEC (seconds, as printed;\n"
		"                  +SEC: after the trace's first record)\n"
		"  --to SEC        only events at or before SEC (+SEC as for --from)\n"
		"  -F, --filter FILTER  only events FILTER matches, as trace-cmd report -F\n"
		"                  ('kmem:kmalloc: bytes_alloc > 4096'; repeatable)\n"
		"Stacks:\n"
		"  --tracer-frames keep ftrace's own frames (trace_event_raw_event_*,\n"
		"                  __traceiter_*) atop the stacks of trace-cmd record -T\n"
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
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "tracer-frames", no_argument, NULL, OPT_TRACER_FRAMES },
	{ "filter", required_argument, NULL, 'F' },
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

/* No output over the trace, the --stack-map listing or the --vmlinux. */
static int check_report_outputs(const struct trace_options *opt)
{
	const struct output_ops *ops = chosen_output(opt);
	const char *map = opt->stack_map && strcmp(opt->stack_map, "live") ?
			  opt->stack_map : NULL;
	const char *inputs[] = { opt->path, map, opt->sym.vmlinux };
	char option[64];

	snprintf(option, sizeof(option), "--%s", ops->option ? ops->option : "");
	return check_outputs(option,
			     ops->flags & OUTPUT_WRITES_ARG ? opt->out.arg : NULL,
			     inputs, 3);
}

/*
 * fgdecode report: exactly one trace.dat.  @opt: zeroed, set.
 * Return: 0, or -1 on a usage error (printed).
 */
static int parse_report_options(struct trace_options *opt, int argc,
				char **argv)
{
	int c, ret;

	opt->summary = true;
	if (check_abbreviations(argc, argv, report_longopts()))
		return -1;
	while ((c = getopt_long(argc, argv, "hNF:", report_longopts(),
				NULL)) != -1) {
		ret = parse_report_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_trace_option(opt, c, optarg);
		if (ret > 0)
			ret = parse_common(&report_cmd, c);
		if (ret)
			return -1;
	}
	if (check_output_options(opt) || check_trace_options(opt))
		return -1;
	if (optind != argc - 1) {
		fg_error("expected one trace.dat file");
		return -1;
	}
	/* "-": standard input, read by name (a pipe is refused as such). */
	opt->path = strcmp(argv[optind], "-") ? argv[optind] : "/dev/stdin";
	return check_report_outputs(opt);
}

/*
 * A text report writes hundreds of bytes per event: into a file or a pipe,
 * in 1 MiB writes instead of stdio's st_blksize ones (4 KiB).  A terminal
 * keeps its line buffering.
 */
static void buffer_stdout(void)
{
	static char buf[1 << 20];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int fgdecode_report(int argc, char **argv)
{
	struct trace_options opt = { 0 };

	buffer_stdout();
	if (parse_report_options(&opt, argc, argv)) {
		usage_hint(&report_cmd);
		return EXIT_USAGE;
	}
	return fg_run(&opt, NULL);
}

bool fgdecode_report_option(const char *name)
{
	const struct option *o;

	for (o = report_longopts(); o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}
