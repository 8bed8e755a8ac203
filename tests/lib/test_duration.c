// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/duration.c: nanoseconds as people read them.
 */
#include <check.h>
#include <stdlib.h>

#include "duration.h"

static const char *d(sm_u64 ns)
{
	static char buf[SM_DURATION_LEN];

	return sm_duration(buf, ns);
}

START_TEST(each_unit_from_its_first_value)
{
	ck_assert_str_eq(d(0), "0 ns");
	ck_assert_str_eq(d(999), "999 ns");
	ck_assert_str_eq(d(1000), "1.0 us");
	ck_assert_str_eq(d(12345), "12.3 us");
	ck_assert_str_eq(d(1000000), "1.0 ms");
	ck_assert_str_eq(d(840045868), "840.0 ms");
	ck_assert_str_eq(d(1000000000), "1.00 s");
	ck_assert_str_eq(d(2948778451ULL), "2.95 s");
}
END_TEST

START_TEST(the_largest_value_fits)
{
	/* 18446744073.71 s: 16 characters and the unit. */
	ck_assert_str_eq(d(~0ULL), "18446744073.71 s");
}
END_TEST

START_TEST(with_ns_gives_the_exact_figure_too)
{
	char buf[SM_DURATION_NS_LEN];

	ck_assert_str_eq(sm_duration_ns(buf, 2948778451ULL),
			 "2.95 s (2948778451 ns)");
	ck_assert_str_eq(sm_duration_ns(buf, 999), "999 ns (999 ns)");
	ck_assert_str_eq(sm_duration_ns(buf, ~0ULL),
			 "18446744073.71 s (18446744073709551615 ns)");
}
END_TEST

static Suite *duration_suite(void)
{
	Suite *s = suite_create("duration");
	TCase *tc = tcase_create("duration");

	tcase_add_test(tc, each_unit_from_its_first_value);
	tcase_add_test(tc, the_largest_value_fits);
	tcase_add_test(tc, with_ns_gives_the_exact_figure_too);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(duration_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
