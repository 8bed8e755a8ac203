// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/stacktab.c: the cookie -> stack table.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/cookie.h"
#include "stacktab.h"

static struct stacktab *tab;

static void setup(void)
{
	tab = stacktab_new();
	ck_assert_ptr_nonnull(tab);
}

static void teardown(void)
{
	stacktab_free(tab);
	tab = NULL;
}

static const sm_u64 stack_a[] = { 0xffffffff81000010ULL, 0xffffffff81000200ULL,
				  0xffffffff81003000ULL };
static const sm_u64 stack_b[] = { 0xffffffff82000010ULL, 0xffffffff82000200ULL };

START_TEST(lookup_returns_the_stack_of_exactly_that_cookie)
{
	sm_u64 ck = stackmap_cookie_make(7, 3);
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_define(tab, ck, 3, stack_a), 0);
	ck_assert_int_eq(stacktab_lookup(tab, ck, &st), STACKTAB_FOUND);
	ck_assert_uint_eq(st.depth, 3);
	ck_assert_mem_eq(st.frames, stack_a, sizeof(stack_a));
	ck_assert_uint_eq(stacktab_count(tab), 1);
}
END_TEST

START_TEST(define_copies_the_frames)
{
	sm_u64 frames[2] = { 1, 2 };
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(1, 1), 2,
					 frames), 0);
	frames[0] = 99;
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(1, 1), &st),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.frames[0], 1);
}
END_TEST

/*
 * The text slot of a stack is per stack, empty at first, the same slot on
 * every lookup even after the table grew, absent for misses, and freed with
 * the table (ASan's leak check fails the test otherwise).
 */
START_TEST(text_slot_is_per_stack_and_survives_growth)
{
	sm_u64 ck = stackmap_cookie_make(5, 9);
	struct stacktab_stack st, again;
	char **slot;
	sm_u32 i;

	ck_assert_int_eq(stacktab_define(tab, ck, 3, stack_a), 0);
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(5, 10), 0,
					 NULL), 0);
	ck_assert_int_eq(stacktab_lookup(tab, ck, &st), STACKTAB_FOUND);
	ck_assert_ptr_nonnull(st.text);
	ck_assert_ptr_null(*st.text);
	*st.text = strdup("rendered");
	slot = st.text;
	for (i = 1; i <= 1000; i++)
		ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(6, i),
						 2, stack_b), 0);
	ck_assert_int_eq(stacktab_lookup(tab, ck, &again), STACKTAB_FOUND);
	ck_assert_ptr_eq(again.text, slot);
	ck_assert_str_eq(*again.text, "rendered");
	ck_assert_mem_eq(again.frames, stack_a, sizeof(stack_a));
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(5, 10), &st),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.depth, 0);
	ck_assert_ptr_nonnull(st.text);
	ck_assert_ptr_ne(st.text, slot);
	*st.text = strdup("");
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(4, 9), &st),
			 STACKTAB_STALE);
	ck_assert_ptr_null(st.text);
}
END_TEST

START_TEST(other_generation_of_a_known_slot_is_stale)
{
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(7, 3), 3,
					 stack_a), 0);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(6, 3), &st),
			 STACKTAB_STALE);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(8, 3), &st),
			 STACKTAB_STALE);
	ck_assert_ptr_null(st.frames);
	ck_assert_uint_eq(st.depth, 0);
}
END_TEST

START_TEST(slot_without_definition_is_unknown)
{
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(7, 3), &st),
			 STACKTAB_UNKNOWN);
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(7, 3), 3,
					 stack_a), 0);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(7, 4), &st),
			 STACKTAB_UNKNOWN);
	/* Same low 32 bits in the generation half do not make it stale. */
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(3, 7), &st),
			 STACKTAB_UNKNOWN);
}
END_TEST

START_TEST(cookie_zero_is_never_defined_nor_found)
{
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_define(tab, STACKMAP_COOKIE_NONE, 3, stack_a),
			 -EINVAL);
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(0, 5), 3,
					 stack_a), -EINVAL);
	ck_assert_uint_eq(stacktab_count(tab), 0);
	ck_assert_int_eq(stacktab_lookup(tab, 0, &st), STACKTAB_UNKNOWN);
	/* Slot 0 is a real slot under a real generation. */
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(1, 0), 2,
					 stack_b), 0);
	ck_assert_int_eq(stacktab_lookup(tab, 0, &st), STACKTAB_UNKNOWN);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(1, 0), &st),
			 STACKTAB_FOUND);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(2, 0), &st),
			 STACKTAB_STALE);
}
END_TEST

START_TEST(identical_redefinition_is_accepted)
{
	struct stacktab_stack st;
	sm_u64 ck = stackmap_cookie_make(2, 9);

	ck_assert_int_eq(stacktab_define(tab, ck, 3, stack_a), 0);
	ck_assert_int_eq(stacktab_define(tab, ck, 3, stack_a), 1);
	ck_assert_uint_eq(stacktab_count(tab), 1);
	ck_assert_int_eq(stacktab_lookup(tab, ck, &st), STACKTAB_FOUND);
}
END_TEST

START_TEST(conflicting_redefinition_is_an_error_and_poisons_the_cookie)
{
	struct stacktab_stack st;
	sm_u64 ck = stackmap_cookie_make(2, 9);

	ck_assert_int_eq(stacktab_define(tab, ck, 3, stack_a), 0);
	ck_assert_int_eq(stacktab_define(tab, ck, 2, stack_b), -EEXIST);
	ck_assert_int_eq(stacktab_lookup(tab, ck, &st), STACKTAB_CONFLICT);
	ck_assert_ptr_null(st.frames);
	/* Same depth, one frame differs. */
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(2, 10), 2,
					 stack_b), 0);
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(2, 10), 2,
					 stack_a), -EEXIST);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(2, 10), &st),
			 STACKTAB_CONFLICT);
	ck_assert_uint_eq(stacktab_count(tab), 2);
}
END_TEST

START_TEST(empty_stack_is_a_definition)
{
	struct stacktab_stack st;

	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(4, 4), 0,
					 NULL), 0);
	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(4, 4), 0,
					 NULL), 1);
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(4, 4), &st),
			 STACKTAB_FOUND);
	ck_assert_uint_eq(st.depth, 0);
}
END_TEST

#define MANY	100000

/* Frames derived from the index, so every entry can be checked. */
static void frames_of(sm_u32 i, sm_u64 *frames, sm_u32 *depth)
{
	sm_u32 d;

	*depth = 1 + i % 8;
	for (d = 0; d < *depth; d++)
		frames[d] = 0xffffffff80000000ULL + (sm_u64)i * 64 + d;
}

START_TEST(grows_to_100k_entries_and_finds_each)
{
	struct stacktab_stack st;
	sm_u64 frames[8];
	sm_u32 i, depth;

	for (i = 0; i < MANY; i++) {
		frames_of(i, frames, &depth);
		/* Generations 1 and 2 alternate over consecutive slots. */
		ck_assert_int_eq(stacktab_define(tab,
				 stackmap_cookie_make(1 + i % 2, i), depth,
				 frames), 0);
	}
	ck_assert_uint_eq(stacktab_count(tab), MANY);
	for (i = 0; i < MANY; i++) {
		frames_of(i, frames, &depth);
		ck_assert_int_eq(stacktab_lookup(tab,
				 stackmap_cookie_make(1 + i % 2, i), &st),
				 STACKTAB_FOUND);
		ck_assert_uint_eq(st.depth, depth);
		ck_assert_mem_eq(st.frames, frames, depth * sizeof(*frames));
		ck_assert_int_eq(stacktab_lookup(tab,
				 stackmap_cookie_make(2 - i % 2, i), &st),
				 STACKTAB_STALE);
	}
	ck_assert_int_eq(stacktab_lookup(tab, stackmap_cookie_make(1, MANY),
					 &st), STACKTAB_UNKNOWN);
}
END_TEST

START_TEST(result_names)
{
	ck_assert_str_eq(stacktab_result_name(STACKTAB_FOUND), "found");
	ck_assert_str_eq(stacktab_result_name(STACKTAB_STALE), "stale");
	ck_assert_str_eq(stacktab_result_name(STACKTAB_UNKNOWN), "unknown");
	ck_assert_str_eq(stacktab_result_name(STACKTAB_CONFLICT), "conflicting");
	ck_assert_str_eq(stacktab_result_name((enum stacktab_result)42),
			 "invalid");
}
END_TEST

START_TEST(free_of_null_is_harmless)
{
	stacktab_free(NULL);
}
END_TEST

static Suite *stacktab_suite(void)
{
	Suite *s = suite_create("stacktab");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lookup_returns_the_stack_of_exactly_that_cookie);
	tcase_add_test(tc, define_copies_the_frames);
	tcase_add_test(tc, text_slot_is_per_stack_and_survives_growth);
	tcase_add_test(tc, other_generation_of_a_known_slot_is_stale);
	tcase_add_test(tc, slot_without_definition_is_unknown);
	tcase_add_test(tc, cookie_zero_is_never_defined_nor_found);
	tcase_add_test(tc, identical_redefinition_is_accepted);
	tcase_add_test(tc, conflicting_redefinition_is_an_error_and_poisons_the_cookie);
	tcase_add_test(tc, empty_stack_is_a_definition);
	tcase_add_test(tc, grows_to_100k_entries_and_finds_each);
	tcase_add_test(tc, result_names);
	tcase_add_test(tc, free_of_null_is_harmless);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stacktab_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
