// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/sm_err.c: the one error type and the "PATH: " its
 * messages start with.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm_err.h"

START_TEST(set_keeps_one_line)
{
	struct sm_err err;

	sm_err_set(&err, "%s: offset %d: %s", "t.dat", 12, "bad");
	ck_assert_str_eq(err.msg, "t.dat: offset 12: bad");
	sm_err_set(NULL, "dropped %d", 1);
}
END_TEST

/* sm_err_code() sets the same line and returns the errno it is given. */
START_TEST(code_returns_its_errno_and_keeps_one_line)
{
	struct sm_err err;

	ck_assert_int_eq(sm_err_code(&err, -EBADMSG, "%s: offset %d: %s", "t.dat", 12, "bad"),
			 -EBADMSG);
	ck_assert_str_eq(err.msg, "t.dat: offset 12: bad");
	ck_assert_int_eq(sm_err_code(NULL, -ENOMEM, "dropped %d", 1), -ENOMEM);
}
END_TEST

START_TEST(after_path_strips_exactly_the_path_and_its_colon)
{
	struct sm_err err;

	sm_err_set(&err, "%s: offset 12: bad", "t.dat");
	ck_assert_str_eq(sm_err_after_path(&err, "t.dat"), "offset 12: bad");
	/* Another file, a prefix of the name, no ": ": the whole message. */
	ck_assert_str_eq(sm_err_after_path(&err, "u.dat"), "t.dat: offset 12: bad");
	ck_assert_str_eq(sm_err_after_path(&err, "t.da"), "t.dat: offset 12: bad");
	sm_err_set(&err, "t.dat:offset 12");
	ck_assert_str_eq(sm_err_after_path(&err, "t.dat"), "t.dat:offset 12");
}
END_TEST

/* A name longer than a message holds: the cut message, never past its end. */
START_TEST(after_path_of_a_path_longer_than_the_message_is_the_message)
{
	static char path[SM_ERR_LEN + 100];
	struct sm_err err;

	memset(path, 'a', sizeof(path) - 1);
	sm_err_set(&err, "%s: offset 12: bad", path);
	ck_assert_uint_eq(strlen(err.msg), SM_ERR_LEN - 1);
	ck_assert_ptr_eq(sm_err_after_path(&err, path), err.msg);
}
END_TEST

static Suite *sm_err_suite(void)
{
	Suite *s = suite_create("sm_err");
	TCase *tc = tcase_create("sm_err");

	tcase_add_test(tc, set_keeps_one_line);
	tcase_add_test(tc, code_returns_its_errno_and_keeps_one_line);
	tcase_add_test(tc, after_path_strips_exactly_the_path_and_its_colon);
	tcase_add_test(tc, after_path_of_a_path_longer_than_the_message_is_the_message);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sm_err_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
