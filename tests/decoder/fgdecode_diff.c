// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff: two traces' stacks compared.
 */
#include <stdio.h>
#include <string.h>

#include "fgdecode_fixture.h"

/* new.dat: frames3 under 6 ticks, frames2 (a fallback) under 2. */
static void write_new_trace(void)
{
	sm_u64 ck = stackmap_cookie_make(77, 5);
	char path[128];
	int i;

	mt = mkt_new(1);
	define(0, 1 * SEC - 10, ck, frames3, 3);
	for (i = 0; i < 8; i++) {
		tick(0, (2 + i) * SEC, i);
		if (i < 6)
			cookie(0, (2 + i) * SEC + 1, ck);
		else
			fallback(0, (2 + i) * SEC + 1, STACKMAP_FALLBACK_FULL,
				 frames2, 2, 2);
	}
	snprintf(path, sizeof(path), "%s/new.dat", dir);
	ck_assert_int_eq(mkt_write(mt, path, all_formats, kallsyms, cmdlines), 0);
	mt = NULL;
}

START_TEST(diff_matches_stacks_by_frames_and_sorts_by_change)
{
	write_mixed_trace();
	write_new_trace();
	/* Other cookies, other CPUs: the same stacks by their frames. */
	run("diff --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 4, new 8; 3 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             2              6             +4  tick;kthread;schedule;__schedule\n"
		"             1              0             -1  tick;[stale cookie]\n"
		"             1              2             +1  tick;p9_client_rpc;__schedule\n");
	run("diff --normalize --no-summary trace.dat new.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 4, new 8 (base normalized to the new total); 2 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             2              0             -2  tick;[stale cookie]\n"
		"             4              6             +2  tick;kthread;schedule;__schedule\n");
	run("diff --folded --merge trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[stale cookie] 1 0\n"
		"kthread;schedule;__schedule 2 6\n"
		"p9_client_rpc;__schedule 1 2\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 3 stacks, 1 only in base, 0 only in new, 2 changed, 0 unchanged; totals 4 -> 8\n"));
	/* One stack on each side (the ticks at 2 s): counted in the singular. */
	run("diff --from 1.5 --to 2.5 trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 1, new 1; 0 of 1 stack changed\n"
		"          BASE            NEW         CHANGE  STACK\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 1 stack, 0 only in base, 0 only in new, 0 changed, 1 unchanged; totals 1 -> 1\n"));
	run("diff --weight n --top 1 --no-summary trace.dat new.dat");
	/* n: 1 + 2 -> 0 + ... + 5 under frames3. */
	ck_assert_str_eq(res.out,
		"fgdecode: diff by n: base 10, new 28; 3 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             3             15            +12  tick;kthread;schedule;__schedule\n");
}
END_TEST

/*
 * new.dat of the off-CPU diff: worker (42) sleeps in S from 1 s to 1.5 s,
 * cat (44) is preempted (R+) from 2 s to 3 s, both on frames3.
 */
static void write_switch_trace_new(void)
{
	sm_u64 ck = stackmap_cookie_make(9, 1);

	mt = mkt_new(1);
	define_owned(0, 1 * SEC - 10, ck, frames3, 3, ID_SWITCH, 0);
	sched_switch(0, 1 * SEC, "worker", 42, 1, 0);
	cookie(0, 1 * SEC + 1, ck);
	sched_switch(0, 1 * SEC + SEC / 2, "swapper/0", 0, 0, 42);
	sched_switch(0, 2 * SEC, "cat", 44, 0x100, 42);
	cookie_from(0, 2 * SEC + 1, 44, ck);
	sched_switch(0, 3 * SEC, "worker", 42, 0, 44);
	snprintf(trace_path, sizeof(trace_path), "%s/new.dat", dir);
	write_trace_with(switch_formats);
}

/*
 * diff --off-cpu: the table and the summary give times as people read
 * them, with the exact ns; --folded keeps ns.
 */
START_TEST(diff_of_off_cpu_time_reads_durations_and_folds_ns)
{
	write_switch_trace();
	write_switch_trace_new();
	run("diff --off-cpu --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by off-cpu (ns): base 2.75 s (2750000000 ns), new 1.50 s (1500000000 ns); 3 of 3 stacks changed\n"
		"                      BASE                        NEW                     CHANGE  STACK\n"
		"    2.00 s (2000000000 ns)    500.0 ms (500000000 ns)    -1.50 s (1500000000 ns)  [S];kthread;schedule;__schedule\n"
		"   250.0 ms (250000000 ns)     1.00 s (1000000000 ns)   +750.0 ms (750000000 ns)  [R+];kthread;schedule;__schedule\n"
		"   500.0 ms (500000000 ns)                0 ns (0 ns)   -500.0 ms (500000000 ns)  [D];p9_client_rpc;__schedule\n");
	run("diff --off-cpu --folded trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[D];p9_client_rpc;__schedule 500000000 0\n"
		"[R+];kthread;schedule;__schedule 250000000 1000000000\n"
		"[S];kthread;schedule;__schedule 2000000000 500000000\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 3 stacks, 1 only in base, 0 only in new, 2 changed, 0 unchanged; totals 2.75 s (2750000000 ns) -> 1.50 s (1500000000 ns)\n"));
	/* The differential flame graph's tooltips, base and change too. */
	run("diff --off-cpu --flamegraph - --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out,
		"<title>all: 1.50 s (1500000000 ns), 100.00% (base 2.75 s (2750000000 ns), -1.25 s (1250000000 ns))</title>"));
}
END_TEST

START_TEST(diff_needs_two_traces_of_one_kernel_and_reports_which_one_is_bad)
{
	write_mixed_trace();
	write_new_trace();
	run("diff trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert(strstr(res.err, "fgdecode diff: expected two trace.dat files, BASE and NEW\n"));
	run("diff --json trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("diff --no-summary trace.dat missing.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert(strstr(res.err, "fgdecode: missing.dat: "));
	/* A NEW that is no trace is refused before BASE is decoded. */
	write_file("listing", "# generation 7 entries 0/16 frames 0/64 bytes 0\n");
	run("diff trace.dat listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: listing: a stack_map listing, not a trace.dat: read it with fgdecode map\n");
	run("diff --weight nope --no-summary trace.dat trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert(strstr(res.err, "event test:tick has no field 'nope'"));
	/* Traces of two kernels: refused, unless --any-kernel. */
	mt = mkt_new(1);
	mkt_set_uname(mt, "Linux guest 6.12.117+deb12-amd64 #1 SMP PREEMPT_DYNAMIC");
	tick(0, 1 * SEC, 1);
	snprintf(trace_path, sizeof(trace_path), "%s/other.dat", dir);
	write_trace();
	run("diff --no-summary new.dat other.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: diff: new.dat was recorded on kernel (not recorded), other.dat on 6.12.117+deb12-amd64: their stacks differ for that alone (--any-kernel to compare them anyway)\n");
	run("diff --any-kernel --no-summary new.dat other.dat");
	ck_assert_int_eq(res.status, 0);
	/*
	 * Both with a uname: refused before either is decoded (decoding would
	 * have failed on --weight nope first).
	 */
	mt = mkt_new(1);
	mkt_set_uname(mt, "Linux guest 7.3.4+deb13-amd64 #1 SMP PREEMPT_DYNAMIC");
	tick(0, 1 * SEC, 1);
	snprintf(trace_path, sizeof(trace_path), "%s/newest.dat", dir);
	write_trace();
	run("diff --weight nope other.dat newest.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: diff: other.dat was recorded on kernel 6.12.117+deb12-amd64, newest.dat on 7.3.4+deb13-amd64: their stacks differ for that alone (--any-kernel to compare them anyway)\n");
	run("help diff");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "usage: fgdecode diff [options] BASE.dat NEW.dat\n"));
}
END_TEST

TCase *diff_tcase(void)
{
	TCase *tc = fgd_tcase("diff", 60);

	tcase_add_test(tc, diff_matches_stacks_by_frames_and_sorts_by_change);
	tcase_add_test(tc, diff_needs_two_traces_of_one_kernel_and_reports_which_one_is_bad);
	tcase_add_test(tc, diff_of_off_cpu_time_reads_durations_and_folds_ns);
	return tc;
}
