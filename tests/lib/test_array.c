// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/array.c: growing a malloc'ed array.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

START_TEST(grows_from_min_by_doubling_and_keeps_the_elements)
{
	size_t alloc = 0, i;
	int *a = NULL;

	ck_assert_int_eq(sm_array_reserve(&a, &alloc, 1, sizeof(*a), 4), 0);
	ck_assert_uint_eq(alloc, 4);
	for (i = 0; i < 4; i++)
		a[i] = (int)i;
	ck_assert_int_eq(sm_array_reserve(&a, &alloc, 4, sizeof(*a), 4), 0);
	ck_assert_uint_eq(alloc, 4);		/* fits: unchanged */
	ck_assert_int_eq(sm_array_reserve(&a, &alloc, 9, sizeof(*a), 4), 0);
	ck_assert_uint_eq(alloc, 16);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(a[i], (int)i);
	free(a);
}
END_TEST

START_TEST(an_overflowing_size_is_enomem_and_changes_nothing)
{
	size_t alloc = 2;
	char *a = malloc(2);

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(sm_array_reserve(&a, &alloc, SIZE_MAX / 2 + 2, 1, 2),
			 -ENOMEM);
	ck_assert_int_eq(sm_array_reserve(&a, &alloc, 4, SIZE_MAX / 2, 2),
			 -ENOMEM);
	ck_assert_uint_eq(alloc, 2);
	free(a);
}
END_TEST

static Suite *array_suite(void)
{
	Suite *s = suite_create("array");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, grows_from_min_by_doubling_and_keeps_the_elements);
	tcase_add_test(tc, an_overflowing_size_is_enomem_and_changes_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(array_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
