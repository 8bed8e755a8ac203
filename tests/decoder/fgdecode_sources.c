// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks from other sources than stackmap's events: ftrace's kernel_stack;
 * buffer instances; version 7 files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fgdecode_fixture.h"

/* A kernel_stack record: 'size' @size, then @nframes caller[] entries. */
static void kstack_to(int buffer, int cpu, unsigned long long ts, int size,
		      const sm_u64 *frames, int nframes)
{
	int i;

	fx_common(&buf, FX_ID_KSTACK, 42);
	fx_put(&buf, (unsigned int)size, 4);
	fx_put(&buf, 0, 4);
	for (i = 0; i < nframes; i++)
		fx_put(&buf, frames[i], 8);
	mkt_add_to(mt, buffer, cpu, ts, buf.data, buf.len);
}

static void tick_to(int buffer, int cpu, unsigned long long ts, int n)
{
	fx_tick(&buf, n);
	mkt_add_to(mt, buffer, cpu, ts, buf.data, buf.len);
}

START_TEST(kernel_stack_is_printed_under_its_event)
{
	static const sm_u64 frames[] = {
		FX___SCHEDULE_START + 0x4f8,
		FX_SCHEDULE_START + 0x5a,
		FX_KTHREAD_START + 0xda,
		~0ULL,				/* end marker */
		FX_KTHREAD_START,
	};

	tick(0, 1 * SEC, 1);
	kstack_to(0, 0, 1 * SEC + 1000, 3, frames, 5);
	tick(0, 2 * SEC, 2);
	/* size says 5 but the 4th entry ends the stack */
	kstack_to(0, 0, 2 * SEC + 1000, 5, frames, 5);
	tick(0, 3 * SEC, 3);
	/* size larger than the record: bounded by the record */
	kstack_to(0, 0, 3 * SEC + 1000, 1000, frames, 2);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TICK_LINE(0, "3.000000", 3)
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => schedule+0x5a/0xb0 (ffffffff83252e2a)\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 3 events (6 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 0 fallback stacks, 0 definitions (0 distinct stacks), 3 kernel stacks\n");
}
END_TEST

/*
 * ftrace's own frames atop a kernel_stack (trace_event_raw_event_*,
 * __traceiter_*) are dropped, so the stack starts where the tracepoint was
 * hit, unless --tracer-frames; a stack of nothing else is kept whole.
 */
START_TEST(tracer_frames_atop_kernel_stacks_are_dropped_unless_asked)
{
	static const char tracer[] =
		"ffffffff81000000 T trace_event_raw_event_tick\n"
		"ffffffff81000100 T __traceiter_tick\n"
		"ffffffff81000200 T tracer_end\n";
	static const sm_u64 frames[] = {
		0xffffffff81000010, 0xffffffff81000110,
		FX___SCHEDULE_START + 0x4f8, FX_SCHEDULE_START + 0x5a,
		FX_KTHREAD_START + 0xda,
	};
	char syms[1024];

	snprintf(syms, sizeof(syms), "%s%s", tracer, kallsyms);
	tick(0, 1 * SEC, 1);
	kstack_to(0, 0, 1 * SEC + 1000, 5, frames, 5);
	tick(0, 2 * SEC, 2);
	kstack_to(0, 0, 2 * SEC + 1000, 2, frames, 2);
	ck_assert_int_eq(mkt_write(mt, trace_path, kstack_formats, syms,
				   cmdlines), 0);
	mt = NULL;
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		"    => trace_event_raw_event_tick+0x10/0x100 (ffffffff81000010)\n"
		"    => __traceiter_tick+0x10/0x100 (ffffffff81000110)\n");
	run("--no-summary --tracer-frames --top 1 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out,
		"    => trace_event_raw_event_tick+0x10/0x100 (ffffffff81000010)\n"
		"    => __traceiter_tick+0x10/0x100 (ffffffff81000110)\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"));
}
END_TEST

/*
 * One stack under two events, alternating: each (event, stack) pair keeps
 * its own count (the set tries the pair it counted last first).
 */
START_TEST(one_stack_under_alternating_events_counts_each_pair)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", fx_fmt_tock },
		{ "ftrace", fmt_kernel_stack },
		{ NULL, NULL },
	};
	static const sm_u64 frames[] = {
		FX___SCHEDULE_START + 0x4f8,
		FX_SCHEDULE_START + 0x5a,
		FX_KTHREAD_START + 0xda,
	};
	int i;

	for (i = 0; i < 5; i++) {
		if (i % 2)
			tock_in(0, (i + 1) * SEC, i, 0);
		else
			tick(0, (i + 1) * SEC, i);
		kstack_to(0, 0, (i + 1) * SEC + 1000, 3, frames, 3);
	}
	write_trace_with(formats);
	run("--folded --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;kthread;schedule;__schedule 3\n"
		"tock;kthread;schedule;__schedule 2\n");
	/* and the stack's own count is the sum */
	run("--top 1 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack over 5 events with a stack\n"
		"#1 5 events 100.00% in tick (3), tock (2); by worker-42\n"
		STACK3);
}
END_TEST

START_TEST(instances_merge_in_time_order_and_keep_their_own_stacks)
{
	int inst;
	sm_u64 ck = stackmap_cookie_make(7, 1);

	inst = mkt_add_buffer(mt, "inst");
	define(0, 1 * SEC - 1000, ck, frames3, 3);
	tick(0, 1 * SEC, 1);
	tick_to(inst, 0, 1 * SEC + 1000, 2);
	/* Same CPU, other buffer: belongs to tick 1, not to tick 2. */
	cookie(0, 1 * SEC + 2000, ck);
	kstack_to(inst, 1, 1 * SEC + 3000, 2, frames2, 2);
	tick_to(inst, 1, 2 * SEC, 3);
	kstack_to(inst, 1, 2 * SEC + 1000, 2, frames2, 2);
	tick(1, 3 * SEC, 4);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		/* trace-cmd report's prefixes: the top buffer's, then inst's */
		"      " TICK_LINE(0, "1.000000", 1)
		STACK3
		"inst: " TICK_LINE(0, "1.000001", 2)
		CUT_LINE
		"inst:           worker-42    [001]" LAT "     1.000003: kernel_stack:         size=2\n"
		STACK2
		"inst: " TICK_LINE(1, "2.000000", 3)
		STACK2
		"      " TICK_LINE(1, "3.000000", 4)
		CUT_LINE);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (8 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 2 kernel stacks, 2 without a stack (2 at the end of a CPU's recording)\n");
}
END_TEST

START_TEST(v7_file_from_trace_cmd_convert_decodes_the_same)
{
	char cmd[512], *v6_out, *v6_err;
	int inst = mkt_add_buffer(mt, "inst");

	tick(0, 1 * SEC, 1);
	kstack_to(0, 0, 1 * SEC + 1000, 3, frames3, 3);
	tick_to(inst, 1, 1 * SEC + 2000, 2);
	kstack_to(inst, 1, 1 * SEC + 3000, 2, frames2, 2);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	v6_out = strdup(res.out);
	v6_err = strdup(res.err);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && trace-cmd convert --file-version 7 -i trace.dat -o v7.dat >/dev/null 2>&1",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	run("v7.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, v6_out);
	ck_assert_str_eq(res.err, v6_err);
	ck_assert(strstr(res.out, "inst:"));
	free(v6_out);
	free(v6_err);
}
END_TEST

TCase *sources_tcase(void)
{
	TCase *tc = fgd_tcase("stack sources", 60);

	tcase_add_test(tc, kernel_stack_is_printed_under_its_event);
	tcase_add_test(tc, tracer_frames_atop_kernel_stacks_are_dropped_unless_asked);
	tcase_add_test(tc, one_stack_under_alternating_events_counts_each_pair);
	tcase_add_test(tc, instances_merge_in_time_order_and_keep_their_own_stacks);
	tcase_add_test(tc, v7_file_from_trace_cmd_convert_decodes_the_same);
	return tc;
}
