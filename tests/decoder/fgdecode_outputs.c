// SPDX-License-Identifier: GPL-2.0
/*
 * The aggregate outputs (--folded, --perf-script, --flamegraph, --top,
 * --json), the options that choose them, and --weight.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fgdecode_fixture.h"

START_TEST(folded_prints_root_first_per_event_sorted_with_counts)
{
	write_mixed_trace();
	run("--folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;[stale cookie] 1\n"
		"tick;kthread;schedule;__schedule 2\n"
		"tick;p9_client_rpc;__schedule 1\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 5 events (10 records), 3 cookies, 2 resolved, 1 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 1 without a stack (1 at the end of a CPU's recording)\n");
	run("--folded --merge --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[stale cookie] 1\n"
		"kthread;schedule;__schedule 2\n"
		"p9_client_rpc;__schedule 1\n");
	/* The flame graph too: its event frame ("tick") goes. */
	run("--flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_int_eq(count_of(res.out, "<g class=\"f event\""), 1);
	run("--flamegraph - --merge --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_int_eq(count_of(res.out, "<g class=\"f event\""), 0);
	ck_assert_ptr_nonnull(strstr(res.out, "data-n=\"all\"><title>all: 4 events"));
}
END_TEST

/*
 * --perf-script: perf script's header and callchain lines; an event whose
 * stack is stale or missing gets its header and the empty line only.
 */
START_TEST(perf_script_prints_each_event_with_its_callchain)
{
	write_mixed_trace();
	run("--perf-script --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		PERF_TICK("0", "1", "1") PERF_STACK3 "\n"
		PERF_TICK("1", "2", "2") PERF_STACK3 "\n"
		PERF_TICK("0", "3", "3")
		"\tffffffff832528c8 __schedule+0x4f8 ([kernel.kallsyms])\n"
		"\tffffffffc03e3cca p9_client_rpc+0x14a ([9pnet])\n\n"
		PERF_TICK("1", "4", "4") "\n"
		PERF_TICK("0", "5", "5") "\n");
	run("--perf-script --weight n trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: --weight weighs the stacks of --json, --folded, --top, --pprof or --flamegraph: not --perf-script\n"
		"Try 'fgdecode --help' for more information.\n");
}
END_TEST

/*
 * A flame graph of tens of thousands of stacks stays a file a browser
 * opens: one hot stack weighs half, 20000 stacks of one event each, every
 * one with a leaf function of its own, share the rest.  Each of those is
 * far narrower than FLAMEGRAPH_MIN_WIDTH, so they are drawn as one
 * "[20000 frames]" frame with their total, not as 20000 frames.
 */
START_TEST(flamegraph_merges_tens_of_thousands_of_narrow_stacks)
{
	enum { NR = 20000 };
	sm_u64 hot = stackmap_cookie_make(7, 0), frames[2];
	unsigned long long ts = 1 * SEC;
	size_t len = strlen(kallsyms), size = len + NR * 40;
	char path[4096], *syms = malloc(size), *svg;
	int i;

	ck_assert_ptr_nonnull(syms);
	memcpy(syms, kallsyms, len);
	define(0, ts++, hot, frames3, 3);
	for (i = 1; i <= NR; i++) {
		frames[0] = 0xffffffff90000000ULL + 16ULL * i + 4;
		frames[1] = FX_KTHREAD_START + 0xda;
		len += snprintf(syms + len, size - len, "%llx T leaf_%05d\n",
				(unsigned long long)(frames[0] - 4), i);
		define(0, ts++, stackmap_cookie_make(7, i), frames, 2);
		tick(0, ts++, i);
		cookie(0, ts++, stackmap_cookie_make(7, i));
		tick(0, ts++, i);
		cookie(0, ts++, hot);
	}
	ck_assert_int_eq(mkt_write(mt, trace_path, all_formats, syms, cmdlines),
			 0);
	mt = NULL;
	free(syms);
	run("--flamegraph %s/fg.svg --no-summary trace.dat", dir);
	ck_assert_int_eq(res.status, 0);
	snprintf(path, sizeof(path), "%s/fg.svg", dir);
	svg = slurp(path);
	ck_assert_ptr_nonnull(svg);
	ck_assert_ptr_nonnull(strstr(svg,
		"<title>[20000 frames]: 20000 events, 50.00%</title>"));
	/* all, tick, kthread, schedule, __schedule, the merged frame. */
	ck_assert_int_eq(count_of(svg, "<g class=\"f "), 6);
	ck_assert_int_lt((int)strlen(svg), 64 * 1024);
	free(svg);
}
END_TEST

START_TEST(top_prints_the_hottest_stacks_with_counts_and_percentages)
{
	write_mixed_trace();
	run("--top 2 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 2 of 3 distinct stacks over 4 events with a stack\n"
		"#1 2 events 50.00% in tick; by worker-42\n"
		STACK3
		"#2 1 event 25.00% in tick; by worker-42\n"
		STACK2);
	run("--top 10 --no-summary trace.dat");
	ck_assert(strstr(res.out, "#3 1 event 25.00% in tick; by worker-42\n    => <stale cookie>\n"));
}
END_TEST

/*
 * --top names the tasks of a stack's events, most first: three of them,
 * then how many others and their events.
 */
START_TEST(top_names_the_tasks_of_each_stack)
{
	static const int pids[] = { 43, 42, 44, 42, 45, 43, 46, 42 };
	sm_u64 ck = stackmap_cookie_make(3233, 10356);
	size_t i;

	define(0, 1 * SEC - 1000, ck, frames3, 3);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		tick_from(0, (i + 1) * SEC, pids[i], (int)i);
		cookie_from(0, (i + 1) * SEC + 1000, pids[i], ck);
	}
	write_trace();
	run("--top 1 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	/* 42 has no saved comm but worker; the others print as <...>. */
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack over 8 events with a stack\n"
		"#1 8 events 100.00% in tick; by worker-42 (3), <...>-43 (2), <...>-44 (1) and 2 other tasks (2)\n"
		STACK3);
}
END_TEST

START_TEST(json_prints_one_object_per_event)
{
	write_mixed_trace();
	run("--json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":1},"
		"\"cookie\":\"0xca100002874\",\"gen\":3233,\"slot\":10356,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":1,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":2},"
		"\"cookie\":\"0xca100002874\",\"gen\":3233,\"slot\":10356,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"time\":3.000000,\"ts\":3000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":3},"
		"\"reason\":\"full\",\"status\":\"fallback\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]}\n"
		"{\"time\":4.000000,\"ts\":4000000000,\"cpu\":1,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":4},"
		"\"cookie\":\"0xca000002874\",\"gen\":3232,\"slot\":10356,\"status\":\"stale\",\"stack\":[]}\n"
		"{\"time\":5.000000,\"ts\":5000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":5},"
		"\"status\":\"none\"}\n");
}
END_TEST

START_TEST(output_options_reject_bad_combinations)
{
	write_mixed_trace();
	run("--top 0 trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --top: '0' is not a positive number\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--top x trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--json --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --json, --folded, --top, --pprof, --flamegraph and --perf-script exclude each other\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--merge trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --merge needs --folded or --flamegraph\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--merge --pprof - trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--from 1.5x trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --from: '1.5x' is not a time: seconds as the event lines print them, with at most 6 decimals (942.000001), or +SECONDS after the first record (+0.5)\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--pid -3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--cpu 1,,2 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--event tick, trace.dat");
	ck_assert_int_eq(res.status, 2);
	/* Options that would do nothing in the output chosen. */
	run("--cookies --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --cookies marks the text output: not with --folded\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--json --cookies trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--show-defines --top 3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --show-defines marks the text output: not with --top\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--weight n trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: --weight weighs the stacks of --json, --folded, --top, --pprof or --flamegraph: not the text output\n"
		"Try 'fgdecode --help' for more information.\n");
	/* -N changes the event text: not with an output that prints none. */
	run("-N --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: -N changes the event text, which --folded does not print (the text output and --perf-script do)\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--no-plugins --json trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("-N --top 3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("-N --perf-script --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("-N --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("diff -N trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
}
END_TEST

/* An event with a string field, to be refused as a weight. */
static const char fmt_tag[] =
	"name: tag\n"
	"ID: 902\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:char label[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"label=%s\", REC->label\n";

START_TEST(weight_sums_the_field_per_stack_in_every_output)
{
	write_mixed_trace();
	/* n = 1, 2 under frames3, 3 under frames2, 4 stale, 5 no stack. */
	run("--folded --weight n trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;[stale cookie] 4\n"
		"tick;kthread;schedule;__schedule 3\n"
		"tick;p9_client_rpc;__schedule 3\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 5 events (10 records), 3 cookies, 2 resolved, 1 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 1 without a stack (1 at the end of a CPU's recording)\n"
		"fgdecode: weight: sum of n, 10 over 4 events with a stack\n");
	run("--folded --merge --weight n --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"[stale cookie] 4\n"
		"kthread;schedule;__schedule 3\n"
		"p9_client_rpc;__schedule 3\n");
	run("--top 2 --weight n --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 2 of 3 distinct stacks by n over 4 events with a stack, 10 n in all\n"
		"#1 4 n 40.00% (1 event) in tick; by worker-42\n"
		"    => <stale cookie>\n"
		"#2 3 n 30.00% (2 events) in tick; by worker-42\n"
		STACK3);
	run("--json --weight n --no-summary --cpu 0 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "\"system\":\"test\",\"fields\":{\"n\":1},\"weight\":1,\"cookie\""));
	ck_assert(strstr(res.out, "\"system\":\"test\",\"fields\":{\"n\":3},\"weight\":3,\"reason\""));
	ck_assert(strstr(res.out, "\"system\":\"test\",\"fields\":{\"n\":5},\"weight\":5,\"status\":\"none\"}"));
}
END_TEST

START_TEST(weight_of_an_event_without_the_field_is_an_error_naming_it)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", fmt_tag },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 7);
	fx_common(&buf, 902, 42);
	fx_put(&buf, 0x6f6c6c6568ULL, 8);	/* "hello" */
	mkt_add(mt, 0, 2 * SEC, buf.data, buf.len);
	write_trace_with(formats);
	run("--folded --weight bytes_alloc trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight bytes_alloc: event test:tick has no field 'bytes_alloc' (select events that have it with --event)\n");
	run("--folded --weight label trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight label: event test:tick has no field 'label' (select events that have it with --event)\n");
	run("--folded --weight label --event tag --no-summary trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight label: field 'label' of event test:tag is not a number (char[8])\n");
	/* --weight n is taken; the ticks here carry no stack to weigh. */
	run("--weight n --event tick --folded trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert(!strncmp(res.err,
		"fgdecode: trace.dat: the one selected event has no stack, for --folded, nor does any event of the trace (record with -O stackmap, or trace-cmd record -T)\n", 150));
	run("map --weight n x");
	ck_assert_int_eq(res.status, 2);
}
END_TEST

START_TEST(weight_counts_a_negative_value_as_zero_and_says_so)
{
	sm_u64 ck = stackmap_cookie_make(3, 4);

	define(0, 1 * SEC - 10, ck, frames3, 3);
	tick(0, 1 * SEC, -5);
	cookie(0, 1 * SEC + 1, ck);
	tick(0, 2 * SEC, 7);
	cookie(0, 2 * SEC + 1, ck);
	write_trace();
	run("--folded --merge --weight n trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "kthread;schedule;__schedule 7\n");
	ck_assert(strstr(res.err,
		"fgdecode: weight: sum of n, 7 over 2 events with a stack, 1 negative values taken as 0\n"));
}
END_TEST

/* Where a refused output would have gone: "PATH: that is trace.dat, ..." */
#define OVER_TRACE(what, cmd)						\
	"fgdecode: " what ": that is trace.dat, which fgdecode reads: "	\
	"refusing to write over it\n"					\
	"Try 'fgdecode " cmd "--help' for more information.\n"

/*
 * No output is written over a file fgdecode reads, by any of its names (a
 * symbolic link, a path through "..", a hard link), nor through standard
 * output: a usage error, and the trace is left as it was.
 */
START_TEST(outputs_never_write_over_what_fgdecode_reads)
{
	char path[256], *before, *after;

	write_mixed_trace();
	before = slurp(trace_path);
	snprintf(path, sizeof(path), "%s/link.dat", dir);
	ck_assert_int_eq(symlink("trace.dat", path), 0);
	snprintf(path, sizeof(path), "%s/hard.dat", dir);
	ck_assert_int_eq(link(trace_path, path), 0);
	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	run("--flamegraph trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, OVER_TRACE("--flamegraph trace.dat", ""));
	run("--pprof link.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, OVER_TRACE("--pprof link.dat", ""));
	run("--flamegraph sub/../hard.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
			 OVER_TRACE("--flamegraph sub/../hard.dat", ""));
	run("diff --flamegraph hard.dat trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
			 OVER_TRACE("--flamegraph hard.dat", "diff "));
	/* Standard output appended to the trace (run() sends it to "out"). */
	run("--top 1 trace.dat >>link.dat 2>err; s=$?; : >out; exit $s #");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: standard output is trace.dat, which fgdecode reads: refusing to write over it\n"
		"Try 'fgdecode --help' for more information.\n");
	after = slurp(trace_path);
	ck_assert_mem_eq(before, after, 1 << 19);
	free(before);
	free(after);
	/* Beside the trace, and to a standard output that is not it: written. */
	run("--no-summary --flamegraph sub/graph.svg trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("--no-summary --pprof - trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(res.out[0] == '\x1f');
}
END_TEST

/*
 * One time in every output: an event at 1.0000015 s reads 1.000002 in the
 * text output, in --json and in --perf-script (rounded, as trace-cmd
 * report prints it; perf script would cut it to 1.000001).
 */
START_TEST(every_output_rounds_times_to_the_microsecond)
{
	tick(0, 1 * SEC + 1500, 1);
	tick(0, 1 * SEC + 2499, 2);
	write_trace();
	run("--perf-script --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, " 1.000002: test:tick: n=1\n"));
	ck_assert_ptr_nonnull(strstr(res.out, " 1.000002: test:tick: n=2\n"));
	run("--no-summary trace.dat");
	ck_assert_int_eq(count_of(res.out, " 1.000002: "), 2);
	run("--json --no-summary trace.dat");
	ck_assert_int_eq(count_of(res.out, "{\"time\":1.000002,"), 2);
}
END_TEST

/*
 * An output of stacks alone (--top, --folded, --pprof, --flamegraph) on
 * selected events that carry none says so and names the events that do,
 * rather than print "top 0 of 0" or write an empty picture; the text
 * output still prints the events.
 */
START_TEST(stack_outputs_say_when_no_selected_event_has_a_stack)
{
	char path[256];

	write_mixed_trace();
	run("--top 3 --from 5 trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: the one selected event has no stack, for --top (the events with one: test:tick)\n");
	run("--flamegraph graph.svg --from 5 trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert(strstr(res.err, "has no stack, for --flamegraph (the events with one: test:tick)\n"));
	snprintf(path, sizeof(path), "%s/graph.svg", dir);
	ck_assert_int_eq(access(path, F_OK), -1);
	/* A stale cookie is a stack the outputs show, as a marker. */
	run("--top 3 --from 4 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("--from 5 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "n=5"));
}
END_TEST

TCase *outputs_tcase(void)
{
	TCase *tc = fgd_tcase("outputs", 60);

	tcase_add_test(tc, folded_prints_root_first_per_event_sorted_with_counts);
	tcase_add_test(tc, perf_script_prints_each_event_with_its_callchain);
	tcase_add_test(tc, top_prints_the_hottest_stacks_with_counts_and_percentages);
	tcase_add_test(tc, top_names_the_tasks_of_each_stack);
	tcase_add_test(tc, flamegraph_merges_tens_of_thousands_of_narrow_stacks);
	tcase_add_test(tc, json_prints_one_object_per_event);
	tcase_add_test(tc, output_options_reject_bad_combinations);
	tcase_add_test(tc, weight_sums_the_field_per_stack_in_every_output);
	tcase_add_test(tc, weight_of_an_event_without_the_field_is_an_error_naming_it);
	tcase_add_test(tc, weight_counts_a_negative_value_as_zero_and_says_so);
	tcase_add_test(tc, outputs_never_write_over_what_fgdecode_reads);
	tcase_add_test(tc, every_output_rounds_times_to_the_microsecond);
	tcase_add_test(tc, stack_outputs_say_when_no_selected_event_has_a_stack);
	return tc;
}
