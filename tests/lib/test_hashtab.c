// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/hashtab.c: the one open-addressing hash table.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

struct el {
	sm_u64 key;
	sm_u32 value;
};

static struct sm_hashtab t;

static void setup(void)
{
	ck_assert_int_eq(sm_hashtab_init(&t, sizeof(struct el), 4), 0);
}

static void teardown(void)
{
	sm_hashtab_fini(&t);
}

/* Insert @key with @value through reserve + insert; the element. */
static struct el *put(sm_u64 key, sm_u32 value)
{
	struct el *e;

	ck_assert_int_eq(sm_hashtab_reserve(&t), 0);
	e = sm_hashtab_insert(&t, key);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->key, key);
	if (!e->value)
		e->value = value;
	return e;
}

START_TEST(insert_finds_or_adds_one_element_per_key)
{
	struct el *e;

	put(7, 70);
	put(8, 80);
	e = put(7, 71);		/* already there: the first value stays */
	ck_assert_uint_eq(e->value, 70);
	ck_assert_uint_eq(t.used, 2);
	e = sm_hashtab_find(&t, 8);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->value, 80);
	ck_assert_ptr_null(sm_hashtab_find(&t, 9));
	ck_assert_ptr_null(sm_hashtab_next(&t, sm_hashtab_find(&t, 7)));
}
END_TEST

START_TEST(add_keeps_every_element_of_a_key_in_order)
{
	struct el *e;
	sm_u32 i, n = 0;

	/* Interleaved with other keys, and through several growths. */
	for (i = 0; i < 1000; i++) {
		ck_assert_int_eq(sm_hashtab_reserve(&t), 0);
		e = sm_hashtab_add(&t, i % 3 ? 1000 + i : 42);
		ck_assert_uint_eq(e->value, 0);
		e->value = i;
	}
	ck_assert_uint_eq(t.used, 1000);
	ck_assert_uint_ge(t.cap, 2000);
	for (e = sm_hashtab_find(&t, 42); e; e = sm_hashtab_next(&t, e)) {
		ck_assert_uint_eq(e->key, 42);
		ck_assert_uint_eq(e->value, 3 * n);	/* 0, 3, 6, ... */
		n++;
	}
	ck_assert_uint_eq(n, 334);
}
END_TEST

START_TEST(grows_to_100k_keys_and_finds_each_once)
{
	size_t i, seen = 0;
	struct el *e;

	for (i = 1; i <= 100000; i++)
		put(i << 32 | (i & 0xff), (sm_u32)i);
	ck_assert_uint_eq(t.used, 100000);
	ck_assert_uint_le(2 * t.used, t.cap);
	for (i = 1; i <= 100000; i++) {
		e = sm_hashtab_find(&t, i << 32 | (i & 0xff));
		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(e->value, i);
	}
	for (i = 0; i < t.cap; i++)
		seen += sm_hashtab_at(&t, i) != NULL;
	ck_assert_uint_eq(seen, 100000);
	ck_assert_ptr_null(sm_hashtab_at(&t, t.cap));
}
END_TEST

START_TEST(hashes_are_fnv1a_and_splitmix64)
{
	/* FNV-1a 64 of "a" (its published test vector). */
	ck_assert_uint_eq(sm_hash_bytes(SM_HASH_SEED, "a", 1),
			  0xaf63dc4c8601ec8cULL);
	/* Hashing in pieces is hashing the whole. */
	ck_assert_uint_eq(sm_hash_bytes(sm_hash_bytes(SM_HASH_SEED, "ab", 2), "c", 1),
			  sm_hash_bytes(SM_HASH_SEED, "abc", 3));
	ck_assert_uint_eq(sm_hash64(0), 0);
	ck_assert_uint_ne(sm_hash64(1), sm_hash64(2));
	ck_assert_uint_eq(sm_hash_key(0), 1);
	ck_assert_uint_eq(sm_hash_key(5), 5);
}
END_TEST

static Suite *hashtab_suite(void)
{
	Suite *s = suite_create("hashtab");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, insert_finds_or_adds_one_element_per_key);
	tcase_add_test(tc, add_keeps_every_element_of_a_key_in_order);
	tcase_add_test(tc, grows_to_100k_keys_and_finds_each_once);
	tcase_add_test(tc, hashes_are_fnv1a_and_splitmix64);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hashtab_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
