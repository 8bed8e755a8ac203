// SPDX-License-Identifier: GPL-2.0
/*
 * Which event a stack belongs to (events.h, "Which event a stack belongs
 * to"): owners, orphans, the look-ahead past nested contexts, stackless and
 * truncated stacks, traces of stackmap 0.1.
 */
#include <string.h>

#include "fgdecode_fixture.h"

static const struct mkt_format owner_formats[] = {
	{ "test", fx_fmt_tick },
	{ "test", fx_fmt_tock },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

#define TOCK_LINE_LAT(cpu, lat, time, n) \
	"          worker-42    [00" #cpu "]" lat "     " time ": tock:                 n=" #n "\n"
#define TOCK_LINE(cpu, time, n)	TOCK_LINE_LAT(cpu, LAT, time, n)

/* A stack_cookie in context @ctx, as tock_in() writes a tock. */
static void cookie_in(int cpu, unsigned long long ts, sm_u64 ck, int ctx)
{
	fx_cookie(&buf, ck);
	fx_set_flags(&buf, ctx);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/*
 * sched_waking with sched_switch's stack after it (sched_switch filtered
 * out of the recording): the stack is sched_switch's, never the waking's.
 */
START_TEST(cookie_of_another_owner_is_an_orphan_not_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TOCK, 0);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		"    <orphan stack of test:tock>\n"
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack)\n");
	run("--strict --no-summary trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --strict: 0 stale, 0 unknown, 0 conflicting cookies, 0 corrupt records, 1 orphan stacks\n");
	run("--json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"fields\":{\"n\":1},\"status\":\"none\"}\n"
		"{\"time\":1.000000,\"ts\":1000000100,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"stack_cookie\",\"system\":\"stackmap\","
		"\"orphan\":true,\"owner\":\"test:tock\","
		"\"cookie\":\"0x700000001\",\"gen\":7,\"slot\":1,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n");
	/* Charged to no event: its own root, and not in --merge or --top. */
	run("--folded trace.dat");
	ck_assert_str_eq(res.out,
		"[orphan test:tock];kthread;schedule;__schedule 1\n");
	run("--folded --merge --no-summary trace.dat");
	ck_assert_str_eq(res.out, "");
	run("--top 5 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: top 0 of 0 distinct stacks over 0 events with a stack\n");
}
END_TEST

/*
 * An owner the trace has no format for is named by its id (and, after a
 * definition, as not in the trace).
 */
START_TEST(orphan_of_an_event_without_a_format_names_its_id)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 50, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_PROBE, 2, frames2, 2, 4242, 0);
	mkt_add(mt, 0, 1 * SEC + 100, buf.data, buf.len);
	define_owned(0, 1 * SEC + 150, ck, frames3, 3, 4243, 0);
	cookie(0, 1 * SEC + 200, ck);
	write_trace_with(owner_formats);
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2
		"          worker-42    [000]" LAT "     1.000000: stack_fallback:       reason=2 depth=2 owner=4242 flags=0x0\n"
		"    <orphan stack of event id 4242>\n"
		STACK2
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		"    <orphan stack of event id 4243>\n"
		STACK3);
	/* --show-defines says so after the id the definition prints. */
	run("--no-summary --show-defines trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"stack_define:         cookie=0x700000001 depth=3 owner=4243 flags=0x0 (owner not in the trace)\n"));
}
END_TEST

/*
 * An event whose type owns stacks but that has no stack record after it is
 * counted; only the one that ends its stream (tracing_on went to 0 between
 * the two writes) is marked.  A type that owns no stack is not counted.
 */
START_TEST(stackless_events_are_counted_and_the_cut_one_marked)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);		/* its cookie filtered out */
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, ck);
	tock_in(1, 2 * SEC + 20, 3, 0);	/* tock owns no stack here */
	tick(0, 3 * SEC, 4);		/* the last record of CPU 0 */
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TOCK_LINE(1, "2.000000", 3)
		TICK_LINE(0, "3.000000", 4)
		CUT_LINE);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (6 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 2 without a stack (1 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A hard IRQ came in between an event and its stack record: the IRQ's own
 * event and stack, or only its stack (its event not recorded), come first.
 */
START_TEST(lookahead_passes_nested_interrupts_to_the_events_own_stack)
{
	sm_u64 task = stackmap_cookie_make(7, 1), irq = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, task, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, irq, frames2, 2, FX_ID_TOCK, 0);
	/* IRQ's stack only: an orphan, the tick still gets its own. */
	tick(0, 1 * SEC, 1);
	cookie_in(0, 1 * SEC + 10, irq, FX_CTX_HARDIRQ);
	cookie(0, 1 * SEC + 20, task);
	/* The IRQ's event and its stack: each gets its own. */
	tick(0, 2 * SEC, 2);
	tock_in(0, 2 * SEC + 10, 3, FX_CTX_HARDIRQ);
	cookie_in(0, 2 * SEC + 20, irq, FX_CTX_HARDIRQ);
	cookie(0, 2 * SEC + 30, task);
	/* A tock in task context does not take the IRQ's tock stack. */
	tock_in(0, 3 * SEC, 4, 0);
	cookie_in(0, 3 * SEC + 10, irq, FX_CTX_HARDIRQ);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		"          worker-42    [000]" LAT_HARDIRQ "     1.000000: stack_cookie:         cookie=0x700000002\n"
		"    <orphan stack of test:tock>\n"
		STACK2
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TOCK_LINE_LAT(0, LAT_HARDIRQ, "2.000000", 3)
		STACK2
		TOCK_LINE(0, "3.000000", 4)
		CUT_LINE
		"          worker-42    [000]" LAT_HARDIRQ "     3.000000: stack_cookie:         cookie=0x700000002\n"
		"    <orphan stack of test:tock>\n"
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (11 records), 5 cookies, 5 resolved, 0 stale, 0 unknown, 2 orphan, 0 fallback stacks, 2 definitions (2 distinct stacks), 1 without a stack (1 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A cookie written after its ring buffer refused a stack record on its CPU
 * (STACKMAP_COOKIE_AFTER_LOSS) may follow an event whose own stack was the
 * refused one: it is shown as an orphan, never under that event.
 */
START_TEST(cookie_after_a_refused_one_is_never_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, ck | STACKMAP_COOKIE_AFTER_LOSS);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x780000001\n"
		ORPHAN_OF_TICK
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 2 cookies, 2 resolved, 0 stale, 0 unknown, 1 orphan, 1 after a ring buffer loss, 0 fallback stacks, 1 definition (1 distinct stack), 1 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A stack_fallback flagged STACKMAP_FLAG_AFTER_LOSS is what a flagged cookie
 * is: an orphan, never the stack of the event before it, which keeps none.
 */
START_TEST(fallback_after_a_missing_one_is_never_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2,
			  FX_ID_TICK, STACKMAP_FLAG_AFTER_LOSS);
	mkt_add(mt, 0, 1 * SEC + 10, buf.data, buf.len);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"          worker-42    [000]" LAT "     1.000000: stack_fallback:       reason=1 depth=2 owner=900 flags=0x2\n"
		ORPHAN_OF_TICK
		STACK2
		TICK_LINE(0, "2.000000", 2)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 1 after a ring buffer loss, 1 fallback stack, 1 definition (1 distinct stack), 1 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

/* A stack record of another task is not the event's (events.h). */
START_TEST(cookie_of_another_task_is_never_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick_from(0, 1 * SEC, 43, 1);
	cookie(0, 1 * SEC + 10, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, ORPHAN_OF_TICK STACK3));
	ck_assert_ptr_null(strstr(res.out, "tick: n=1\n" STACK3));
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack), 1 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A task preempted between its event and its stack record (preemptible
 * probes, 7.x; the module keeps it on its CPU): another task's event and
 * stack come in between, and each event still gets its own task's stack.
 */
START_TEST(task_preempted_before_its_stack_keeps_its_stack)
{
	sm_u64 a = stackmap_cookie_make(7, 1), b = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, a, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, b, frames2, 2, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);
	tick_from(0, 1 * SEC + 10, 43, 2);
	cookie_from(0, 1 * SEC + 20, 43, b);
	cookie(0, 1 * SEC + 30, a);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, TICK_LINE(0, "1.000000", 1) STACK3));
	ck_assert_ptr_nonnull(strstr(res.out, "tick:                 n=2\n" STACK2));
	ck_assert_ptr_null(strstr(res.out, "orphan"));
}
END_TEST

/*
 * PREEMPT_RT: an interrupt between an event and its stack record wakes its
 * threads on the way out with the task's context, so an event of another
 * type (sched_waking) comes in between.  The stack is still the tick's; a
 * second tick ends the scan, so the first never takes the second's stack.
 */
START_TEST(lookahead_passes_an_other_event_of_the_same_context)
{
	sm_u64 task = stackmap_cookie_make(7, 1), irq = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, task, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, irq, frames2, 2, FX_ID_TOCK, 0);
	tick(0, 1 * SEC, 1);
	tock_in(0, 1 * SEC + 10, 2, 0);
	cookie(0, 1 * SEC + 20, task);
	/* The tock's own stack after it, then the tick's. */
	tick(0, 2 * SEC, 3);
	tock_in(0, 2 * SEC + 10, 4, 0);
	cookie(0, 2 * SEC + 20, irq);
	cookie(0, 2 * SEC + 30, task);
	/*
	 * A tick without its stack: the next tick's is not taken.  The tocks
	 * own stacks too (the irq cookie's owner) and carry none here.
	 */
	tick(0, 3 * SEC, 5);
	tock_in(0, 3 * SEC + 10, 6, 0);
	tick(0, 3 * SEC + 20, 7);
	cookie(0, 3 * SEC + 30, task);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TOCK_LINE(0, "1.000000", 2)
		TICK_LINE(0, "2.000000", 3)
		STACK3
		TOCK_LINE(0, "2.000000", 4)
		STACK2
		TICK_LINE(0, "3.000000", 5)
		TOCK_LINE(0, "3.000000", 6)
		TICK_LINE(0, "3.000000", 7)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 7 events (13 records), 4 cookies, 4 resolved, 0 stale, 0 unknown, 0 fallback stacks, 2 definitions (2 distinct stacks), 3 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

START_TEST(truncated_stack_is_marked_in_every_output)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK,
		     STACKMAP_FLAG_TRUNCATED);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		"    => ... [truncated]\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 1 truncated\n");
	run("--folded --no-summary trace.dat");
	ck_assert_str_eq(res.out, "tick;[truncated];kthread;schedule;__schedule 1\n");
	run("--json --no-summary trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"\"status\":\"resolved\",\"truncated\":true,\"stack\":[{"));
	run("--top 1 --no-summary trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out, STACK3 "    => ... [truncated]\n"));
}
END_TEST

/* stackmap 0.1 formats name no owner: stacks attach as before, unverified. */
START_TEST(trace_of_stackmap_0_1_attaches_stacks_unverified)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback_01 },
		{ STACKMAP_SYSTEM, fx_fmt_stack_define_01 },
		{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
		{ NULL, NULL },
	};
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 3, frames3, 3, -1, 0);
	mkt_add(mt, 0, 1 * SEC - 10, buf.data, buf.len);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	tick(0, 2 * SEC, 2);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2, -1, 0);
	mkt_add(mt, 0, 2 * SEC + 100, buf.data, buf.len);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 2 unverified\n");
}
END_TEST

TCase *owners_tcase(void)
{
	TCase *tc = fgd_tcase("owners", 60);

	tcase_add_test(tc, cookie_of_another_owner_is_an_orphan_not_the_events_stack);
	tcase_add_test(tc, orphan_of_an_event_without_a_format_names_its_id);
	tcase_add_test(tc, lookahead_passes_nested_interrupts_to_the_events_own_stack);
	tcase_add_test(tc, stackless_events_are_counted_and_the_cut_one_marked);
	tcase_add_test(tc, lookahead_passes_an_other_event_of_the_same_context);
	tcase_add_test(tc, cookie_after_a_refused_one_is_never_the_events_stack);
	tcase_add_test(tc, fallback_after_a_missing_one_is_never_the_events_stack);
	tcase_add_test(tc, cookie_of_another_task_is_never_the_events_stack);
	tcase_add_test(tc, task_preempted_before_its_stack_keeps_its_stack);
	tcase_add_test(tc, truncated_stack_is_marked_in_every_output);
	tcase_add_test(tc, trace_of_stackmap_0_1_attaches_stacks_unverified);
	return tc;
}
