// SPDX-License-Identifier: GPL-2.0
/*
 * Cookies that resolve to no stack: stale, unknown, conflicting; --strict.
 */
#include <string.h>

#include "fgdecode_fixture.h"

START_TEST(stale_and_unknown_cookies_print_markers_never_a_stack)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(8, 5), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 5));
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, stackmap_cookie_make(8, 6));
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <stale cookie gen 7 slot 5>\n"
		TICK_LINE(0, "2.000000", 2)
		"    => <unknown cookie gen 8 slot 6>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 2 cookies, 0 resolved, 1 stale, 1 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(conflicting_definitions_are_reported_and_not_used)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(0, 1 * SEC - 20, ck, frames3, 3);
	define(1, 1 * SEC - 10, ck, frames2, 2);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <conflicting cookie gen 7 slot 1>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: CPU 1 ts 999999990: stack_define: cookie gen 7 slot 1 redefined with another stack (cookie unusable)\n"
		"fgdecode: 1 event (4 records), 1 cookie, 0 resolved, 0 stale, 0 unknown, 0 fallback stacks, 2 definitions (1 distinct stack), 1 conflicting\n");
}
END_TEST

START_TEST(strict_exits_3_on_stale_or_unknown_cookies_only)
{
	sm_u64 ck = stackmap_cookie_make(5, 9);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames3, 3);
	cookie(0, 1 * SEC + 2000, ck);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 1000, stackmap_cookie_make(4, 9));
	write_trace();
	run("--strict --no-summary --event tick --to 1.5 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.err, "");
	run("--strict --no-summary trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --strict: 1 stale, 0 unknown, 0 conflicting cookies, 0 corrupt records\n");
	ck_assert(strstr(res.out, "    => <stale cookie gen 4 slot 9>\n"));
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
}
END_TEST

TCase *unresolved_tcase(void)
{
	TCase *tc = fgd_tcase("unresolved", 60);

	tcase_add_test(tc, stale_and_unknown_cookies_print_markers_never_a_stack);
	tcase_add_test(tc, conflicting_definitions_are_reported_and_not_used);
	tcase_add_test(tc, strict_exits_3_on_stale_or_unknown_cookies_only);
	return tc;
}
