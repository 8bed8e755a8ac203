// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/render_cache.c: render once, copy afterwards.
 */
#include <check.h>
#include <stdlib.h>

#include <event-parse.h>

#include "render_cache.h"

static int calls;

static void render(struct trace_seq *out, const void *ctx)
{
	calls++;
	trace_seq_printf(out, "=> %s #%d", (const char *)ctx, calls);
}

/* @s's text, terminated. */
static const char *text(struct trace_seq *s)
{
	trace_seq_terminate(s);
	return s->buffer;
}

START_TEST(renders_once_then_copies)
{
	struct trace_seq s;
	char *cache = NULL;

	calls = 0;
	trace_seq_init(&s);
	ck_assert_int_eq(sm_render_once(&s, &cache, render, "a"), 0);
	ck_assert_int_eq(sm_render_once(&s, &cache, render, "b"), 0);
	ck_assert_int_eq(calls, 1);
	ck_assert_str_eq(text(&s), "=> a #1=> a #1");
	ck_assert_str_eq(cache, "=> a #1");
	free(cache);
	trace_seq_destroy(&s);
}
END_TEST

START_TEST(without_a_cache_renders_every_time)
{
	struct trace_seq s;

	calls = 0;
	trace_seq_init(&s);
	ck_assert_int_eq(sm_render_once(&s, NULL, render, "a"), 0);
	ck_assert_int_eq(sm_render_once(&s, NULL, render, "a"), 0);
	ck_assert_int_eq(calls, 2);
	ck_assert_str_eq(text(&s), "=> a #1=> a #2");
	trace_seq_destroy(&s);
}
END_TEST

static Suite *render_cache_suite(void)
{
	Suite *s = suite_create("render_cache");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, renders_once_then_copies);
	tcase_add_test(tc, without_a_cache_renders_every_time);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(render_cache_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
