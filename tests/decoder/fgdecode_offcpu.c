// SPDX-License-Identifier: GPL-2.0
/*
 * --off-cpu: time off the CPU per switch-out stack; --wakers.
 */
#include <stdio.h>
#include <string.h>

#include "fgdecode_fixture.h"
#include "profile_read.h"

START_TEST(off_cpu_charges_each_interval_to_its_switch_out_stack_and_state)
{
	write_switch_trace();
	run("--off-cpu --folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[D];p9_client_rpc;__schedule 500000000\n"
		"[R+];kthread;schedule;__schedule 250000000\n"
		"[S];kthread;schedule;__schedule 2000000000\n");
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.75 s (2750000000 ns) in 3 intervals, 1 switch-in with no switch-out in the trace, 2 tasks still off the CPU at its end (neither charged)\n"));
	run("--off-cpu --task-root --folded --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"cat;[R+];kthread;schedule;__schedule 250000000\n"
		"io;[D];p9_client_rpc;__schedule 500000000\n"
		"worker;[S];kthread;schedule;__schedule 2000000000\n");
	run("--off-cpu --top 1 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 3 distinct stacks by off-cpu over 3 intervals, 2.75 s (2750000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 72.73% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n");
	/* --pid selects whose switch-outs are charged. */
	run("--off-cpu --folded --pid 43 --no-summary trace.dat");
	ck_assert_str_eq(res.out, "[D];p9_client_rpc;__schedule 500000000\n");
}
END_TEST

/*
 * --off-cpu --top names the tasks of each stack as --top does for events
 * (their intervals all are sched_switch's: no event named), and counts one
 * in the singular.
 */
START_TEST(off_cpu_top_names_the_tasks_of_each_stack)
{
	write_switch_trace();
	run("--off-cpu --top 3 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 3 of 3 distinct stacks by off-cpu over 3 intervals, 2.75 s (2750000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 72.73% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n"
		"#2 500.0 ms (500000000 ns) 18.18% (1 interval); by <...>-43\n"
		STACK2
		"    => [D]\n"
		"#3 250.0 ms (250000000 ns) 9.09% (1 interval); by <...>-44\n"
		STACK3
		"    => [R+]\n");
	run("--off-cpu --top 1 --pid 42 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack by off-cpu over 1 interval, 2.00 s (2000000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 100.00% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n");
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.00 s (2000000000 ns) in 1 interval, 1 switch-in with no switch-out in the trace, 0 tasks still off the CPU at its end (neither charged)\n"));
}
END_TEST

/*
 * An off-CPU flame graph gives times as people read them, in its title and
 * in every tooltip, with the exact ns, and counts intervals, not events.
 */
START_TEST(off_cpu_flamegraph_reads_durations_and_counts_intervals)
{
	write_switch_trace();
	run("--off-cpu --flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out,
		">trace.dat (2.75 s, 2750000000 ns over 3 intervals)</text>\n"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"all\"><title>all: 2.75 s (2750000000 ns), 100.00%, 3 intervals</title>"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"[S]\"><title>[S]: 2.00 s (2000000000 ns), 72.73%, 1 interval</title>"));
	/* Every frame counts intervals: its tooltip says so. */
	ck_assert_int_eq(count_of(res.out, " interval") -
			 count_of(res.out, " intervals)</text>"),
			 count_of(res.out, "<title>"));
	/* Events keep their count, in the title too. */
	mt = mkt_new(2);
	write_mixed_trace();
	run("--flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out,
		">trace.dat (4 events with a stack, of 5)</text>\n"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"all\"><title>all: 4 events, 100.00%</title>"));
}
END_TEST

/* frames3 and frames2 as the "stack" arrays of --json. */
#define JSON_STACK3 \
	"[{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560}," \
	"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176}," \
	"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]"
#define JSON_STACK2 \
	"[{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560}," \
	"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]"

/*
 * The intervals of write_switch_trace() as they end: io's (D, 1.5 s to 2 s
 * on CPU 1, its fallback stack), cat's (R+, 2 s to 2.25 s), worker's (S,
 * 1 s to 3 s on CPU 0); pid 45's switch-in and the tasks still off print
 * nothing.
 */
START_TEST(off_cpu_json_prints_each_interval_as_it_ends)
{
	write_switch_trace();
	run("--off-cpu --json trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.500000,\"ts\":1500000000,\"cpu\":1,\"pid\":43,\"comm\":\"io\",\"state\":\"D\","
		"\"off_ns\":500000000,\"end_ts\":2000000000,\"end_cpu\":1,\"status\":\"frames\",\"stack\":" JSON_STACK2 "}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":1,\"pid\":44,\"comm\":\"cat\",\"state\":\"R+\","
		"\"off_ns\":250000000,\"end_ts\":2250000000,\"end_cpu\":1,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n"
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"state\":\"S\","
		"\"off_ns\":2000000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
	/* The same summary as the aggregate outputs. */
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.75 s (2750000000 ns) in 3 intervals, 1 switch-in with no switch-out in the trace, 2 tasks still off the CPU at its end (neither charged)\n"));
	run("--off-cpu --json --pid 42 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"state\":\"S\","
		"\"off_ns\":2000000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
}
END_TEST

/* A switch-out with no stack, and one whose cookie no definition names. */
START_TEST(off_cpu_json_says_when_the_stack_is_missing)
{
	sched_switch(0, 1 * SEC, "nostack", 50, 1, 0);
	sched_switch(0, 1 * SEC + SEC / 2, "lost", 51, 2, 0);
	cookie_from(0, 1 * SEC + SEC / 2 + 1, 51, stackmap_cookie_make(9, 7));
	sched_switch(0, 2 * SEC, "swapper/0", 0, 0, 50);
	sched_switch(0, 3 * SEC, "swapper/0", 0, 0, 51);
	write_trace_with(switch_formats);
	run("--off-cpu --json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":50,\"comm\":\"nostack\",\"state\":\"S\","
		"\"off_ns\":1000000000,\"end_ts\":2000000000,\"end_cpu\":0,\"status\":\"none\"}\n"
		"{\"time\":1.500000,\"ts\":1500000000,\"cpu\":0,\"pid\":51,\"comm\":\"lost\",\"state\":\"D\","
		"\"off_ns\":1500000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"unknown\",\"stack\":[]}\n");
}
END_TEST

START_TEST(off_cpu_refuses_other_outputs_and_traces_without_sched_switch)
{
	run("--off-cpu trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --off-cpu sums time per stack or lists intervals: not with the text output (--json for intervals)\n"
		"Try 'fgdecode --help' for more information.\n");
	run("--task-root --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--off-cpu --weight n --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	tick(0, 1 * SEC, 1);
	write_trace();
	run("--off-cpu --folded trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --off-cpu: the trace has no sched:sched_switch events (record them, with stacks: -e sched:sched_switch)\n");
}
END_TEST

#define ID_WAKING	316

static const char fmt_waking[] =
	"name: sched_waking\n"
	"ID: 316\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d\", REC->comm, REC->pid\n";

/* @waker wakes @pid at @ts on CPU @cpu. */
static void sched_waking(int cpu, unsigned long long ts, int waker, int pid)
{
	fx_common(&buf, ID_WAKING, waker);
	put_comm("io");
	fx_put(&buf, (unsigned int)pid, 4);
	fx_put(&buf, 120, 4);
	fx_put(&buf, (unsigned int)cpu, 4);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/*
 * io (43) waits in D from 1 s, worker (42) wakes it at 1.5 s with the stack
 * frames2, it is back at 2 s; cat (44) is preempted at 2 s, back at 2.25 s:
 * nothing woke it.
 */
static void write_waker_trace(void)
{
	static const struct mkt_format formats[] = {
		{ "sched", fmt_switch },
		{ "sched", fmt_waking },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
		{ STACKMAP_SYSTEM, fx_fmt_stack_define },
		{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
		{ NULL, NULL },
	};
	sm_u64 ck = stackmap_cookie_make(9, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, ID_SWITCH, 0);
	sched_switch(0, 1 * SEC, "io", 43, 2, 42);
	cookie_from(0, 1 * SEC + 1, 43, ck);
	sched_waking(0, 1 * SEC + SEC / 2, 42, 43);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2, ID_WAKING, 0);
	mkt_add(mt, 0, 1 * SEC + SEC / 2 + 1, buf.data, buf.len);
	sched_switch(0, 2 * SEC, "cat", 44, 0x100, 43);
	cookie_from(0, 2 * SEC + 1, 44, ck);
	sched_switch(0, 2 * SEC + SEC / 4, "io", 43, 0, 44);
	write_trace_with(formats);
}

START_TEST(wakers_join_each_interval_to_the_wakeup_that_ended_it)
{
	write_waker_trace();
	run("--off-cpu --wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[no wakeup in the trace];--;[R+];kthread;schedule;__schedule 250000000\n"
		"worker;p9_client_rpc;__schedule;--;[D];kthread;schedule;__schedule 1000000000\n");
	ck_assert(strstr(res.err, "fgdecode: off-cpu: 1.25 s (1250000000 ns) in 2 intervals, 1 switch-in with no switch-out in the trace, 1 task still off the CPU at its end (neither charged), 1 ended by a wakeup in the trace, 1 by none\n"));
	/* Per interval: worker and its wakeup's stack, or null. */
	run("--off-cpu --wakers --json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":43,\"comm\":\"io\",\"state\":\"D\","
		"\"off_ns\":1000000000,\"end_ts\":2000000000,\"end_cpu\":0,"
		"\"waker\":{\"pid\":42,\"comm\":\"worker\",\"status\":\"frames\",\"stack\":" JSON_STACK2 "},"
		"\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":0,\"pid\":44,\"comm\":\"cat\",\"state\":\"R+\","
		"\"off_ns\":250000000,\"end_ts\":2250000000,\"end_cpu\":0,\"waker\":null,"
		"\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
	run("--wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --wakers needs --off-cpu\n"
		"Try 'fgdecode --help' for more information.\n");
}
END_TEST

/*
 * One rule: a waker's frames print as the blocked ones do, past a "--"
 * frame; its comm is no frame where the output has a place for it (the
 * line of --top, a label of --pprof).
 */
START_TEST(wakers_print_waker_frames_as_blocked_frames)
{
	write_waker_trace();
	run("--off-cpu --wakers --top 2 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 2 of 2 distinct stacks by off-cpu over 2 intervals, 1.25 s (1250000000 ns) in all\n"
		"#1 1.00 s (1000000000 ns) 80.00% (1 interval); by <...>-43; woken by worker\n"
		STACK3
		"    => [D]\n"
		"    => --\n"
		STACK2
		"#2 250.0 ms (250000000 ns) 20.00% (1 interval); by <...>-44\n"
		STACK3
		"    => [R+]\n"
		"    => --\n"
		"    => [no wakeup in the trace]\n");
}
END_TEST

/* The name of the only function of location @id of @p. */
static const char *location_name(const PrProfile *p, sm_u64 id)
{
	return profile_line_function(p, profile_location(p, id), 0);
}

START_TEST(wakers_pprof_has_waker_addresses_and_a_waker_label)
{
	static const char *const woken[] = {
		"__schedule", "schedule", "kthread", "[D]", "--",
		"__schedule", "p9_client_rpc",
	};
	static const char *const unwoken[] = {
		"__schedule", "schedule", "kthread", "[R+]", "--",
		"[no wakeup in the trace]",
	};
	Perftools__Profiles__Sample *s;
	const char *const *want;
	char path[128];
	PrProfile *p;
	size_t i, j;

	write_waker_trace();
	run("--off-cpu --wakers --pprof p.pb.gz --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	snprintf(path, sizeof(path), "%s/p.pb.gz", dir);
	p = profile_read(path);
	ck_assert_uint_eq(p->n_sample, 2);
	for (i = 0; i < p->n_sample; i++) {
		s = p->sample[i];
		/* event, and waker when a wakeup ended the interval. */
		ck_assert_str_eq(p->string_table[s->label[0]->key], "event");
		if (s->value[1] == 1000000000) {
			want = woken;
			ck_assert_uint_eq(s->n_label, 2);
			ck_assert_str_eq(p->string_table[s->label[1]->key], "waker");
			ck_assert_str_eq(p->string_table[s->label[1]->str], "worker");
		} else {
			want = unwoken;
			ck_assert_uint_eq(s->n_label, 1);
		}
		ck_assert_uint_eq(s->n_location_id, want == woken ? 7 : 6);
		for (j = 0; j < s->n_location_id; j++)
			ck_assert_str_eq(location_name(p, s->location_id[j]),
					 want[j]);
	}
	/* The waker's frames are addresses: p9_client_rpc's is frames2's. */
	ck_assert_ptr_nonnull(profile_location_at(p, 0xffffffffc03e3ccaULL));
	profile_free(p);
}
END_TEST

START_TEST(wakers_without_wakeup_events_is_an_error)
{
	write_switch_trace();
	run("--off-cpu --wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --wakers: the trace has no sched:sched_waking or sched:sched_wakeup events with a pid (attach the module to sched:sched_waking and record it)\n");
}
END_TEST

TCase *off_cpu_tcase(void)
{
	TCase *tc = fgd_tcase("off-cpu", 60);

	tcase_add_test(tc, off_cpu_charges_each_interval_to_its_switch_out_stack_and_state);
	tcase_add_test(tc, off_cpu_top_names_the_tasks_of_each_stack);
	tcase_add_test(tc, off_cpu_flamegraph_reads_durations_and_counts_intervals);
	tcase_add_test(tc, off_cpu_json_prints_each_interval_as_it_ends);
	tcase_add_test(tc, off_cpu_json_says_when_the_stack_is_missing);
	tcase_add_test(tc, off_cpu_refuses_other_outputs_and_traces_without_sched_switch);
	tcase_add_test(tc, wakers_join_each_interval_to_the_wakeup_that_ended_it);
	tcase_add_test(tc, wakers_print_waker_frames_as_blocked_frames);
	tcase_add_test(tc, wakers_pprof_has_waker_addresses_and_a_waker_label);
	tcase_add_test(tc, wakers_without_wakeup_events_is_an_error);
	return tc;
}
