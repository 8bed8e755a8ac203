// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of fgdecode's --interval arithmetic (decoder/pipeline/maplist.c):
 * which stacks changed between two reads of the map, by how much, in which
 * order, and what a reset does.
 */
#include <check.h>
#include <stdlib.h>

#include "maplist.h"

/* A snapshot of generation @gen with @nr entries (slot, hits). */
static struct stackmap_snapshot snap_of(sm_u32 gen, sm_u32 nr,
					const sm_u32 (*sh)[2])
{
	struct stackmap_snapshot s = { .generation = gen, .long_size = 8 };
	sm_u32 i;

	s.nr = nr;
	s.entries = calloc(nr ? nr : 1, sizeof(*s.entries));
	ck_assert_ptr_nonnull(s.entries);
	for (i = 0; i < nr; i++) {
		s.entries[i].slot = sh[i][0];
		s.entries[i].hits = sh[i][1];
	}
	return s;
}

START_TEST(delta_counts_growth_per_slot_sorted_by_rate)
{
	static const sm_u32 a[][2] = { { 1, 10 }, { 2, 5 }, { 3, 7 } };
	/* Another order; slot 4 is new; slot 3 did not change. */
	static const sm_u32 b[][2] = { { 4, 3 }, { 3, 7 }, { 2, 25 }, { 1, 12 } };
	struct stackmap_snapshot p = snap_of(9, 3, a), c = snap_of(9, 4, b);
	struct maplist_change *ch;
	size_t nr;
	bool reset;

	ch = maplist_delta(&p, &c, 2.0, &reset, &nr);
	ck_assert_ptr_nonnull(ch);
	ck_assert(!reset);
	ck_assert_uint_eq(nr, 3);
	ck_assert_uint_eq(ch[0].entry->slot, 2);
	ck_assert_uint_eq(ch[0].hits, 20);
	ck_assert(ch[0].rate == 10.0);
	ck_assert_uint_eq(ch[1].entry->slot, 4);
	ck_assert_uint_eq(ch[1].hits, 3);
	ck_assert_uint_eq(ch[2].entry->slot, 1);
	ck_assert_uint_eq(ch[2].hits, 2);
	free(ch);
	stackmap_snapshot_free(&p);
	stackmap_snapshot_free(&c);
}
END_TEST

START_TEST(delta_never_goes_negative_and_stops_at_saturation)
{
	static const sm_u32 a[][2] = { { 1, 10 }, { 2, 0xffffffff } };
	static const sm_u32 b[][2] = { { 1, 4 }, { 2, 0xffffffff } };
	struct stackmap_snapshot p = snap_of(9, 2, a), c = snap_of(9, 2, b);
	struct maplist_change *ch;
	size_t nr;
	bool reset;

	ch = maplist_delta(&p, &c, 1.0, &reset, &nr);
	ck_assert_ptr_nonnull(ch);
	ck_assert_uint_eq(nr, 0);
	free(ch);
	stackmap_snapshot_free(&p);
	stackmap_snapshot_free(&c);
}
END_TEST

START_TEST(delta_after_a_reset_counts_the_new_generation_from_zero)
{
	static const sm_u32 a[][2] = { { 1, 100 }, { 2, 50 } };
	static const sm_u32 b[][2] = { { 1, 3 }, { 2, 60 } };
	struct stackmap_snapshot p = snap_of(9, 2, a), c = snap_of(10, 2, b);
	struct maplist_change *ch;
	size_t nr;
	bool reset;

	ch = maplist_delta(&p, &c, 0.5, &reset, &nr);
	ck_assert_ptr_nonnull(ch);
	ck_assert(reset);
	ck_assert_uint_eq(nr, 2);
	ck_assert_uint_eq(ch[0].entry->slot, 2);
	ck_assert_uint_eq(ch[0].hits, 60);
	ck_assert(ch[0].rate == 120.0);
	ck_assert_uint_eq(ch[1].hits, 3);
	free(ch);
	stackmap_snapshot_free(&p);
	stackmap_snapshot_free(&c);
}
END_TEST

START_TEST(delta_of_empty_maps_is_empty)
{
	struct stackmap_snapshot p = snap_of(9, 0, NULL), c = snap_of(9, 0, NULL);
	struct maplist_change *ch;
	size_t nr = 7;
	bool reset;

	ch = maplist_delta(&p, &c, 1.0, &reset, &nr);
	ck_assert_ptr_nonnull(ch);
	ck_assert_uint_eq(nr, 0);
	free(ch);
	stackmap_snapshot_free(&p);
	stackmap_snapshot_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("maplist");
	TCase *tc = tcase_create("delta");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, delta_counts_growth_per_slot_sorted_by_rate);
	tcase_add_test(tc, delta_never_goes_negative_and_stops_at_saturation);
	tcase_add_test(tc, delta_after_a_reset_counts_the_new_generation_from_zero);
	tcase_add_test(tc, delta_of_empty_maps_is_empty);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
