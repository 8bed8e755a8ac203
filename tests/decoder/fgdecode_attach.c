// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's text output: event lines as trace-cmd report prints them, and
 * each stack under the event it belongs to (stack_define, stack_cookie,
 * stack_fallback; lost events).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fgdecode_fixture.h"

START_TEST(trace_without_stackmap_events_prints_like_report)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 1);
	tick(1, 1 * SEC + 500, 2);
	tick(0, 2 * SEC, 3);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		TICK_LINE(1, "1.000001", 2)
		TICK_LINE(0, "2.000000", 3));
	ck_assert_str_eq(res.err,
		"fgdecode: 3 events (3 records), no stack record (neither stackmap's events nor ftrace's kernel_stack)\n");
}
END_TEST

/*
 * fgdecode formats the line start itself (format.c); the real trace-cmd
 * report must print the same bytes: comm padding, long comms, unknown and
 * idle comms, pids of 1 to 7 digits, times rounded to microseconds across a
 * second and beyond 99999 s, event names shorter and longer than the column.
 */
START_TEST(event_lines_equal_trace_cmd_report_byte_for_byte)
{
	static const char long_fmt[] =
		"name: a_rather_long_event_name_here\n"
		"ID: 901\n"
		"format:\n"
		FX_COMMON_FIELDS
		"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"n=%d\", REC->n\n";
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", long_fmt },
		{ NULL, NULL },
	};
	static const char names[] =
		"42 worker\n"
		"298 other\n"
		"7 a-comm-longer-than-16\n"
		"1234567 kworker/u4:1-events_unbound\n";
	char cmd[1024], *report;

	tick_from(0, 999, 42, 1);		/* 0.000001 */
	tick_from(1, 1999999499ULL, 0, 2);	/* <idle>, 1.999999 */
	tick_from(0, 1999999500ULL, 7, 3);	/* rounds up to 2.000000 */
	tick_from(1, 123456789012345ULL, 1234567, 4);
	tick_from(0, 123456789012346ULL, 99, 5);	/* no saved comm */
	/* fgdecode keeps line starts by pid % 256: 298 shares 42's place */
	tick_from(0, 123456789012347ULL, 298, 7);
	tick_from(0, 123456789012348ULL, 42, 8);
	tick_from(0, 123456789012349ULL, 99, 9);
	fx_tick(&buf, 6);
	buf.data[0] = 901 & 0xff;
	buf.data[1] = 901 >> 8;
	mkt_add(mt, 1, 123456789012999ULL, buf.data, buf.len);
	ck_assert_int_eq(mkt_write(mt, trace_path, formats, kallsyms, names), 0);
	mt = NULL;
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' >'%s/report' 2>/dev/null",
		 trace_path, dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/report", dir);
	report = slurp(cmd);
	ck_assert_str_eq(res.out, report);
	/* and the cases really are in it */
	ck_assert_ptr_nonnull(strstr(report, "<idle>-0     [001]" LAT "     1.999999:"));
	ck_assert_ptr_nonnull(strstr(report, "     2.000000:"));
	ck_assert_ptr_nonnull(strstr(report, "-1234567 [001]" LAT " 123456.789012:"));
	ck_assert_ptr_nonnull(strstr(report, "<...>-99"));
	ck_assert_ptr_nonnull(strstr(report, "other-298   [000]" LAT " 123456.789012: tick:                 n=7"));
	ck_assert_ptr_nonnull(strstr(report, "worker-42    [000]" LAT " 123456.789012: tick:                 n=8"));
	ck_assert_ptr_nonnull(strstr(report, " a_rather_long_event_name_here: n=6"));
	free(report);
}
END_TEST

START_TEST(cookie_stack_is_printed_under_its_event)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames3, 3);
	cookie(0, 1 * SEC + 2000, ck);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 1000, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 2 cookies, 2 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(show_defines_prints_the_definition_after_the_stack)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames2, 2);
	cookie(0, 1 * SEC + 2000, ck);
	write_trace();
	run("--show-defines --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2
		"          worker-42    [000]" LAT "     1.000001: stack_define:         cookie=0xca100002874 depth=2 owner=900 flags=0x0 (owner test:tick)\n"
		STACK2);
	ck_assert_str_eq(res.err, "");
}
END_TEST

START_TEST(cookies_option_heads_each_stack_with_its_cookie_or_fallback_reason)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames2, 2);
	cookie(0, 1 * SEC + 2000, ck);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 1000, stackmap_cookie_make(1, 2));
	tick(0, 3 * SEC, 3);
	fallback(0, 3 * SEC + 1000, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	write_trace();
	run("--cookies --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    <cookie 0xca100002874 gen 3233 slot 10356>\n"
		STACK2
		TICK_LINE(0, "2.000000", 2)
		"    <cookie 0x100000002 gen 1 slot 2>\n"
		"    => <unknown cookie gen 1 slot 2>\n"
		TICK_LINE(0, "3.000000", 3)
		"    <fallback full>\n"
		STACK2);
}
END_TEST

START_TEST(definition_written_later_on_another_cpu_resolves)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(1, 1 * SEC, 1);
	cookie(1, 1 * SEC + 100, ck);
	define(0, 1 * SEC + 5000, ck, frames3, 3);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(1, "1.000000", 1)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(stack_attaches_to_the_event_of_its_own_cpu)
{
	sm_u64 a = stackmap_cookie_make(7, 1), b = stackmap_cookie_make(7, 2);

	define(0, 1 * SEC - 10, a, frames3, 3);
	define(1, 1 * SEC - 10, b, frames2, 2);
	tick(0, 1 * SEC, 1);
	tick(1, 1 * SEC + 1000, 2);
	cookie(1, 1 * SEC + 1500, b);
	cookie(0, 1 * SEC + 2000, a);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(1, "1.000001", 2)
		STACK2);
}
END_TEST

START_TEST(cookie_without_preceding_event_gets_its_own_line)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(0, 1 * SEC - 10, ck, frames2, 2);
	cookie(1, 1 * SEC, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		"          worker-42    [001]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 0 events (2 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(fallback_stack_is_printed_under_its_event)
{
	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 100, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (2 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 1 fallback stack, 0 definitions (0 distinct stacks)\n");
}
END_TEST

START_TEST(lost_events_keep_a_cookie_off_the_previous_event)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(1, 1 * SEC - 10, ck, frames2, 2);
	tick(0, 1 * SEC, 1);
	mkt_lose(mt, 0, 3);
	cookie(0, 1 * SEC + 100, ck);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"CPU:0 [3 EVENTS DROPPED]\n"
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
}
END_TEST

START_TEST(lost_events_before_a_hidden_definition_are_still_reported)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(0, 1 * SEC, 1);
	mkt_lose(mt, 0, 4);
	define(0, 1 * SEC + 100, ck, frames2, 2);
	cookie(0, 1 * SEC + 200, ck);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"CPU:0 [4 EVENTS DROPPED]\n"
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
}
END_TEST

TCase *attach_tcase(void)
{
	TCase *tc = fgd_tcase("attach", 60);

	tcase_add_test(tc, trace_without_stackmap_events_prints_like_report);
	tcase_add_test(tc, event_lines_equal_trace_cmd_report_byte_for_byte);
	tcase_add_test(tc, cookie_stack_is_printed_under_its_event);
	tcase_add_test(tc, show_defines_prints_the_definition_after_the_stack);
	tcase_add_test(tc, cookies_option_heads_each_stack_with_its_cookie_or_fallback_reason);
	tcase_add_test(tc, definition_written_later_on_another_cpu_resolves);
	tcase_add_test(tc, stack_attaches_to_the_event_of_its_own_cpu);
	tcase_add_test(tc, cookie_without_preceding_event_gets_its_own_line);
	tcase_add_test(tc, fallback_stack_is_printed_under_its_event);
	tcase_add_test(tc, lost_events_keep_a_cookie_off_the_previous_event);
	tcase_add_test(tc, lost_events_before_a_hidden_definition_are_still_reported);
	return tc;
}
