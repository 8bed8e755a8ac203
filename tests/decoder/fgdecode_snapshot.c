// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks from a map snapshot stored in the trace, and from --stack-map.
 */
#include <string.h>

#include "fgdecode_fixture.h"

/* The same stacks under generation 9. */
static const char listing7_other_gen[] =
	"# generation 9 entries 1/16384 frames 3/262144 bytes 4096\n"
	"slot 3 generation 9 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffff83252e2a schedule+0x5a/0xd0\n"
	" 0xffffffff828cd41a kthread+0xda/0x100\n";

/* Slot 3 of generation 7 owned by test:tock. */
static const char listing7_tock[] =
	"# generation 7 entries 1/16384 frames 1/262144 bytes 4096\n"
	"slot 3 generation 7 hits 12 depth 1 owner 901 test:tock flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n";

/*
 * Write trace.dat in a shape trace-cmd 3.1.6 convert accepts (it fails on
 * mktrace files without a buffer instance): an empty instance is added.
 */
static void write_v7_trace(void)
{
	mkt_add_buffer(mt, "inst");
	write_trace_with(kstack_formats);
}

/*
 * trace.dat -> snap.dat: the trace as version 7 with @listing stored as its
 * map snapshot.
 */
static void store_snapshot(const char *listing)
{
	write_file("listing", listing);
	ck_assert_int_eq(shell("trace-cmd convert --file-version 7 -i trace.dat -o snap.dat >/dev/null 2>&1"), 0);
	ck_assert_int_eq(shell("'%s' write snap.dat listing >/dev/null", snaptool), 0);
}

START_TEST(snapshot_resolves_cookies_without_a_definition)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	tick(0, 2 * SEC, 2);
	/* Defined in the trace with frames3: the definition wins. */
	cookie(0, 2 * SEC + 10, stackmap_cookie_make(7, 4));
	tick(0, 3 * SEC, 3);
	cookie(0, 3 * SEC + 10, stackmap_cookie_make(6, 3));
	tick(0, 4 * SEC, 4);
	cookie(0, 4 * SEC + 10, stackmap_cookie_make(7, 9));
	write_v7_trace();
	store_snapshot(listing7);
	run("snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TICK_LINE(0, "3.000000", 3)
		"    => <stale cookie gen 6 slot 3>\n"
		TICK_LINE(0, "4.000000", 4)
		"    => <unknown cookie gen 7 slot 9>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (9 records), 4 cookies, 2 resolved, 1 stale, 1 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 1 from snapshot\n");
	/* Without the snapshot, the same trace cannot resolve (7, 3). */
	run("trace.dat");
	ck_assert(strstr(res.out, "<unknown cookie gen 7 slot 3>"));
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (9 records), 4 cookies, 1 resolved, 0 stale, 3 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

/*
 * --perf-script names a task's process (PID/TID) when the trace stores its
 * tgid (stackmap-snapshot tgids, as the front end does), its tid alone
 * otherwise; a malformed tgids option is refused where it is written.
 */
START_TEST(perf_script_names_the_process_from_stored_tgids)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 4));
	write_v7_trace();
	store_snapshot(listing7);
	write_file("tgids", "42 40\n7 7\n");
	ck_assert_int_eq(shell("'%s' tgids snap.dat tgids >/dev/null", snaptool), 0);
	run("--perf-script --no-summary snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"worker      40/42      [000]     1.000000: test:tick: n=1\n"
		PERF_STACK3 "\n");
	ck_assert_str_eq(res.err, "");
	/* The same trace without the option: the tid alone. */
	run("--perf-script --no-summary trace.dat");
	ck_assert_str_eq(res.out, PERF_TICK("0", "1", "1") PERF_STACK3 "\n");
	write_file("bad", "42 forty\n");
	ck_assert_int_ne(shell("'%s' tgids snap.dat bad 2>err.txt", snaptool), 0);
	ck_assert_int_eq(shell("grep -q 'bad: line 1: not \"PID TGID\"' err.txt"), 0);
}
END_TEST

/* --stack-map: one more source, after definitions and snapshot. */
START_TEST(stack_map_option_resolves_its_generation_only)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, stackmap_cookie_make(8, 4));
	write_trace();
	write_file("listing", listing7);
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		"    => <stale cookie gen 8 slot 4>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (4 records), 2 cookies, 1 resolved, 1 stale, 0 unknown, 0 fallback stacks, 0 definitions (0 distinct stacks), 1 from stack map\n");
	/* A listing of another generation resolves nothing. */
	write_file("listing", listing7_other_gen);
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <stale cookie gen 7 slot 3>\n"
		TICK_LINE(0, "2.000000", 2)
		"    => <unknown cookie gen 8 slot 4>\n");
	/* Its owner is checked like a definition's (test:tock has no format here). */
	write_file("listing", listing7_tock);
	run("--no-summary --stack-map listing trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"stack_cookie:         cookie=0x700000003\n"
		"    <orphan stack of event id 901>\n"));
	/* Unreadable or malformed: one line, exit 1. */
	run("--stack-map nonexistent trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map: nonexistent: No such file or directory\n");
	write_file("listing", "# generation 7 entries 1/16384 frames 0/262144 bytes 4096\n"
		   "slot 3 generation 7 hits 12 depth 0\n");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
}
END_TEST

/* A listing of another load of the module: refused even for its generation. */
START_TEST(stack_map_of_another_load_is_refused)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	write_trace();
	write_listing7_of("0x0000000000000bad");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map listing: map id 0x0000000000000bad is not the trace's (0x5eed5eed0000f00d): the map of another load of the stackmap module\n");
	/* The trace's own map: used. */
	write_listing7_of("0x5eed5eed0000f00d");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.err, ", 1 from stack map\n"));
}
END_TEST

START_TEST(snapshot_never_resolves_another_generation)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(8, 3));
	write_v7_trace();
	store_snapshot(listing7);
	run("--strict snap.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <stale cookie gen 8 slot 3>\n");
}
END_TEST

START_TEST(corrupt_snapshot_is_one_warning_and_decoding_goes_on)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	write_v7_trace();
	store_snapshot(listing7);
	/* Flip one byte of the first entry: the payload's crc fails. */
	ck_assert_int_eq(shell("off=$(grep -boa STKMAPS snap.dat | tail -n1 | cut -d: -f1) && "
			       "printf '\\377' | dd of=snap.dat bs=1 seek=$((off + 40)) conv=notrunc 2>/dev/null"), 0);
	run("snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "<unknown cookie gen 7 slot 3>"));
	ck_assert_ptr_nonnull(strstr(res.err, "fgdecode: warning: "));
	ck_assert_ptr_nonnull(strstr(res.err, "(map snapshot not used)\n"
		"fgdecode: 1 event (2 records), 1 cookie, 0 resolved, 0 stale, 1 unknown,"));
	/* The warning and the summary, nothing else. */
	ck_assert_int_eq(count_lines(res.err), 2);
}
END_TEST

TCase *snapshot_tcase(void)
{
	TCase *tc = fgd_tcase("map snapshot", 60);

	tcase_add_test(tc, snapshot_resolves_cookies_without_a_definition);
	tcase_add_test(tc, perf_script_names_the_process_from_stored_tgids);
	tcase_add_test(tc, snapshot_never_resolves_another_generation);
	tcase_add_test(tc, stack_map_option_resolves_its_generation_only);
	tcase_add_test(tc, stack_map_of_another_load_is_refused);
	tcase_add_test(tc, corrupt_snapshot_is_one_warning_and_decoding_goes_on);
	return tc;
}
