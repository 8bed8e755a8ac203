// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/tgids.c: tracefs's saved_tgids text as a pid -> tgid
 * table.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tgids.h"

static struct sm_err err;

static int parse(struct sm_tgids *tg, const char *text)
{
	return sm_tgids_parse(tg, text, strlen(text), &err);
}

START_TEST(threads_name_their_process)
{
	struct sm_tgids tg = { 0 };

	/* saved_tgids of a guest: a kthread, a shell, two threads of 412. */
	ck_assert_int_eq(parse(&tg, "2 2\n118 118\n412 412\n415 412\n"), 0);
	ck_assert_uint_eq(sm_tgids_count(&tg), 4);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 415), 412);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 412), 412);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 2), 2);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 3), -1);
	ck_assert_int_eq(sm_tgids_lookup(&tg, -1), -1);
	sm_tgids_fini(&tg);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 415), -1);
}
END_TEST

START_TEST(pid_0_and_a_later_line_win)
{
	struct sm_tgids tg = { 0 };

	/* No newline at the end; pid 7 reused by another process later on. */
	ck_assert_int_eq(parse(&tg, "0 0\n7 5\n7 7"), 0);
	ck_assert_uint_eq(sm_tgids_count(&tg), 2);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 0), 0);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 7), 7);
	sm_tgids_fini(&tg);
}
END_TEST

START_TEST(empty_text_knows_no_task)
{
	struct sm_tgids tg = { 0 };

	ck_assert_int_eq(parse(&tg, ""), 0);
	ck_assert_uint_eq(sm_tgids_count(&tg), 0);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 1), -1);
	sm_tgids_fini(&tg);
}
END_TEST

START_TEST(bad_lines_are_named)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "1 1\n2\n", "line 2: " },
		{ "1 1\n\n", "line 2: " },
		{ "x 1\n", "line 1: " },
		{ "1  1\n", "line 1: " },
		{ "1 1 \n", "line 1: " },
		{ "1 -1\n", "line 1: " },
		{ "1 2147483648\n", "line 1: " },
		{ "3 3\n4 4\n5\t5\n", "line 3: " },
	};
	struct sm_tgids tg;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&tg, 0, sizeof(tg));
		ck_assert_int_eq(parse(&tg, bad[i].text), -EBADMSG);
		ck_assert_msg(strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) == 0,
			      "%s: got \"%s\"", bad[i].text, err.msg);
		sm_tgids_fini(&tg);
	}
	memset(&tg, 0, sizeof(tg));
	ck_assert_int_eq(parse(&tg, "1 2147483647\n"), 0);
	ck_assert_int_eq(sm_tgids_lookup(&tg, 1), 2147483647);
	sm_tgids_fini(&tg);
}
END_TEST

static Suite *tgids_suite(void)
{
	Suite *s = suite_create("tgids");
	TCase *tc = tcase_create("tgids");

	tcase_add_test(tc, threads_name_their_process);
	tcase_add_test(tc, pid_0_and_a_later_line_win);
	tcase_add_test(tc, empty_text_knows_no_task);
	tcase_add_test(tc, bad_lines_are_named);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tgids_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
