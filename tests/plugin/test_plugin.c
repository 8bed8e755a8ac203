// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of plugin/plugin_stackmap.so: load it into a tep handle the way
 * libtraceevent does (dlopen, tep_plugin_loader), print hand-built stackmap
 * records with tep_print_event() and compare the exact text.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "tep_fixture.h"

#ifndef PLUGIN_PATH
#define PLUGIN_PATH "./plugin_stackmap.so"
#endif

static void *dl;
static tep_plugin_load_func load;
static tep_plugin_unload_func unload;
static struct tep_handle *tep;
static struct trace_seq seq;
static struct fx_buf buf;

static const sm_u64 frames3[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_SCHEDULE_START + 0x5a,
	FX_KTHREAD_START + 0xda,
};

static void open_plugin(void)
{
	dl = dlopen(PLUGIN_PATH, RTLD_NOW | RTLD_GLOBAL);
	ck_assert_msg(dl != NULL, "dlopen: %s", dlerror());
	load = (tep_plugin_load_func)dlsym(dl, "tep_plugin_loader");
	unload = (tep_plugin_unload_func)dlsym(dl, "tep_plugin_unloader");
	ck_assert_ptr_nonnull(load);
	ck_assert_ptr_nonnull(unload);
}

static void setup(void)
{
	open_plugin();
	tep = fx_tep_new(8, false);
	ck_assert_int_eq(load(tep), 0);
	fx_buf_init(&buf, 8, false);
	trace_seq_init(&seq);
}

static void teardown(void)
{
	trace_seq_destroy(&seq);
	unload(tep);
	tep_free(tep);
	dlclose(dl);
}

/* The INFO part of @b's record as `trace-cmd report` would print it. */
static const char *info_on(struct tep_handle *t, struct fx_buf *b)
{
	struct tep_record rec = fx_record(b, 0, 1000);

	trace_seq_reset(&seq);
	tep_print_event(t, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	return seq.buffer;
}

static const char *info(struct fx_buf *b)
{
	return info_on(tep, b);
}

START_TEST(define_prints_a_short_line)
{
	fx_define(&buf, stackmap_cookie_make(3233, 10356), 3, frames3, 3);
	ck_assert_str_eq(info(&buf), "define cookie gen 3233 slot 10356 depth 3 owner test:tick");
}
END_TEST

START_TEST(cookie_after_its_define_prints_the_stack)
{
	fx_define(&buf, stackmap_cookie_make(3233, 10356), 3, frames3, 3);
	info(&buf);
	fx_cookie(&buf, stackmap_cookie_make(3233, 10356));
	ck_assert_str_eq(info(&buf),
		"cookie gen 3233 slot 10356 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)"
		"\n=> kthread+0xda/0x120 (ffffffff828cd41a)");
}
END_TEST

/* The plugin's option "name", through the array libtraceevent reads. */
static struct tep_plugin_option *plugin_option(const char *name)
{
	struct tep_plugin_option *o = dlsym(dl, "tep_plugin_options");

	ck_assert_ptr_nonnull(o);
	for (; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	ck_abort_msg("no option %s", name);
	return NULL;
}

/*
 * A stack is rendered once and copied afterwards: the copy must equal the
 * first rendering, follow an option changed later (rendered afresh), and
 * never outlive a conflicting redefinition of its cookie.
 */
START_TEST(repeated_cookie_prints_the_same_stack_and_follows_options)
{
	static const char with_addr[] =
		"cookie gen 3233 slot 10356 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)"
		"\n=> kthread+0xda/0x120 (ffffffff828cd41a)";
	struct tep_plugin_option *addr = plugin_option("addr");
	sm_u64 ck = stackmap_cookie_make(3233, 10356);
	int i;

	fx_define(&buf, ck, 3, frames3, 3);
	info(&buf);
	fx_cookie(&buf, ck);
	for (i = 0; i < 3; i++)
		ck_assert_str_eq(info(&buf), with_addr);
	addr->set = 0;
	ck_assert_str_eq(info(&buf),
		"cookie gen 3233 slot 10356 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00"
		"\n=> schedule+0x5a/0xb0"
		"\n=> kthread+0xda/0x120");
	addr->set = 1;
	ck_assert_str_eq(info(&buf), with_addr);
	fx_define(&buf, ck, 2, frames3, 2);
	info(&buf);
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info(&buf),
		"cookie gen 3233 slot 10356\n=> <conflicting cookie gen 3233 slot 10356>");
}
END_TEST

START_TEST(cookie_before_its_define_is_unknown)
{
	fx_cookie(&buf, stackmap_cookie_make(1, 2));
	ck_assert_str_eq(info(&buf),
		"cookie gen 1 slot 2\n=> <unknown cookie gen 1 slot 2>");
}
END_TEST

START_TEST(cookie_of_an_old_generation_is_stale)
{
	fx_define(&buf, stackmap_cookie_make(2, 7), 1, frames3, 1);
	info(&buf);
	fx_cookie(&buf, stackmap_cookie_make(1, 7));
	ck_assert_str_eq(info(&buf),
		"cookie gen 1 slot 7\n=> <stale cookie gen 1 slot 7>");
}
END_TEST

START_TEST(conflicting_define_is_flagged_and_its_cookie_not_resolved)
{
	fx_define(&buf, stackmap_cookie_make(2, 7), 3, frames3, 3);
	info(&buf);
	fx_define(&buf, stackmap_cookie_make(2, 7), 2, frames3, 2);
	ck_assert_str_eq(info(&buf),
		"define cookie gen 2 slot 7 depth 2 owner test:tick <redefined with another stack>");
	fx_cookie(&buf, stackmap_cookie_make(2, 7));
	ck_assert_str_eq(info(&buf),
		"cookie gen 2 slot 7\n=> <conflicting cookie gen 2 slot 7>");
}
END_TEST

START_TEST(invalid_cookie_define_is_flagged)
{
	fx_define(&buf, 5, 1, frames3, 1);
	ck_assert_str_eq(info(&buf),
		"define cookie gen 0 slot 5 depth 1 owner test:tick <invalid cookie>");
}
END_TEST

START_TEST(fallback_prints_reason_and_stack)
{
	fx_fallback(&buf, STACKMAP_FALLBACK_PROBE, 2, frames3, 2);
	ck_assert_str_eq(info(&buf),
		"fallback reason probe depth 2 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	fx_fallback(&buf, 77, 1, frames3, 1);
	ck_assert_str_eq(info(&buf),
		"fallback reason invalid depth 1 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
}
END_TEST

START_TEST(corrupt_record_prints_the_problem)
{
	sm_u64 frames[STACKMAP_MAX_DEPTH + 1] = { 0 };

	fx_define(&buf, stackmap_cookie_make(1, 1), STACKMAP_MAX_DEPTH + 1,
		  frames, STACKMAP_MAX_DEPTH + 1);
	ck_assert_str_eq(info(&buf),
		"<stack_define: field 'depth' is 65, more than 64 frames>");
	fx_fallback(&buf, 1, 3, frames3, 2);
	ck_assert_str_eq(info(&buf),
		"<stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs>");
}
END_TEST

START_TEST(each_tep_handle_has_its_own_definitions)
{
	struct tep_handle *other = fx_tep_new(8, false);

	ck_assert_int_eq(load(other), 0);
	fx_define(&buf, stackmap_cookie_make(1, 1), 1, frames3, 1);
	info(&buf);
	fx_cookie(&buf, stackmap_cookie_make(1, 1));
	ck_assert_str_eq(info_on(other, &buf),
		"cookie gen 1 slot 1\n=> <unknown cookie gen 1 slot 1>");
	ck_assert_str_eq(info(&buf),
		"cookie gen 1 slot 1 owner test:tick\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
	unload(other);
	tep_free(other);
}
END_TEST

START_TEST(unloader_restores_the_print_format)
{
	fx_cookie(&buf, stackmap_cookie_make(1, 1));
	unload(tep);
	ck_assert_str_eq(info(&buf), "cookie=0x100000001");
	/* Loading again works (teardown unloads once more: harmless). */
	ck_assert_int_eq(load(tep), 0);
	ck_assert_str_eq(info(&buf),
		"cookie gen 1 slot 1\n=> <unknown cookie gen 1 slot 1>");
}
END_TEST

START_TEST(handlers_registered_before_formats_are_parsed_apply)
{
	struct tep_handle *t = tep_alloc();

	/* trace-cmd loads plugins first, then parses the trace's formats. */
	tep_set_long_size(t, 8);
	ck_assert_int_eq(load(t), 0);
	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_stack_cookie, STACKMAP_SYSTEM));
	fx_cookie(&buf, stackmap_cookie_make(3, 4));
	ck_assert_str_eq(info_on(t, &buf),
		"cookie gen 3 slot 4\n=> <unknown cookie gen 3 slot 4>");
	unload(t);
	tep_free(t);
}
END_TEST

/* ---- owners ---- */

/* Print @b's record on @cpu at @ts with context bits @ctx. */
static const char *info_at(struct fx_buf *b, int cpu, unsigned long long ts,
			   int ctx)
{
	struct tep_record rec;

	fx_set_flags(b, ctx);
	rec = fx_record(b, cpu, ts);
	trace_seq_reset(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	return seq.buffer;
}

START_TEST(cookie_of_another_owner_is_printed_as_an_orphan)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 2, frames3, 2, FX_ID_TOCK, 0);
	ck_assert_str_eq(info_at(&buf, 0, 1, 0),
		"define cookie gen 7 slot 1 depth 2 owner test:tock");
	/* The wrapped event still prints its own format. */
	fx_tick(&buf, 5);
	ck_assert_str_eq(info_at(&buf, 0, 2, 0), "n=5");
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info_at(&buf, 0, 3, 0),
		"cookie gen 7 slot 1 owner test:tock"
		"\n<orphan stack of test:tock>"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	/* After a tock it is the tock's; a second one is an orphan again. */
	fx_tock(&buf, 6);
	ck_assert_str_eq(info_at(&buf, 0, 4, 0), "n=6");
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info_at(&buf, 0, 5, 0),
		"cookie gen 7 slot 1 owner test:tock"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 6, 0),
				     "\n<orphan stack of test:tock>\n"));
	/* Another CPU's event does not own it. */
	fx_tock(&buf, 7);
	info_at(&buf, 1, 7, 0);
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 8, 0), "<orphan stack"));
	/* A fallback is checked the same way; compact keeps one line. */
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 1, frames3, 1,
			  FX_ID_TOCK, 0);
	plugin_option("compact")->set = 1;
	ck_assert_str_eq(info_at(&buf, 0, 9, 0),
		"fallback reason full depth 1 owner test:tock <orphan stack of test:tock>"
		" => __schedule+0x4f8/0xa00 (ffffffff832528c8)");
	plugin_option("compact")->set = 0;
}
END_TEST

START_TEST(interrupt_stack_between_an_event_and_its_own_is_an_orphan)
{
	sm_u64 task = stackmap_cookie_make(7, 1), irq = stackmap_cookie_make(7, 2);

	fx_define_owned(&buf, task, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_define_owned(&buf, irq, 1, frames3 + 1, 1, FX_ID_TOCK, 0);
	info_at(&buf, 0, 2, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 3, 0);
	fx_cookie(&buf, irq);
	ck_assert_str_eq(info_at(&buf, 0, 4, FX_CTX_HARDIRQ),
		"cookie gen 7 slot 2 owner test:tock"
		"\n<orphan stack of test:tock>"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	fx_cookie(&buf, task);
	ck_assert_str_eq(info_at(&buf, 0, 5, 0),
		"cookie gen 7 slot 1 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
	/* With the IRQ's event: each gets its own. */
	fx_tick(&buf, 2);
	info_at(&buf, 0, 6, 0);
	fx_tock(&buf, 3);
	info_at(&buf, 0, 7, FX_CTX_HARDIRQ);
	fx_cookie(&buf, irq);
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 8, FX_CTX_HARDIRQ), "orphan"));
	fx_cookie(&buf, task);
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 9, 0), "orphan"));
}
END_TEST

/*
 * PREEMPT_RT: an event of another type in the same context (an interrupt's
 * wakeup on its way out) between an event and its stack record: the stack
 * is still the event's, and only once.
 */
START_TEST(other_event_between_an_event_and_its_stack_passes)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 2, 0);
	fx_tock(&buf, 2);
	info_at(&buf, 0, 3, 0);
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info_at(&buf, 0, 4, 0),
		"cookie gen 7 slot 1 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 5, 0),
				     "<orphan stack of test:tick>"));
	/* A task-context event ends the hard IRQ's: its tick is forgotten. */
	fx_tick(&buf, 3);
	info_at(&buf, 0, 6, FX_CTX_HARDIRQ);
	fx_tock(&buf, 4);
	info_at(&buf, 0, 7, 0);
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 8, FX_CTX_HARDIRQ),
				     "<orphan stack of test:tick>"));
}
END_TEST

/*
 * A cookie its ring buffer took after refusing one on that CPU
 * (STACKMAP_COOKIE_AFTER_LOSS) is an orphan, and the tick before it keeps
 * no stack: the next cookie is an orphan too, until a tick comes.
 */
START_TEST(cookie_after_a_refused_one_is_an_orphan)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 2, 0);
	fx_cookie(&buf, ck | STACKMAP_COOKIE_AFTER_LOSS);
	ck_assert_str_eq(info_at(&buf, 0, 3, 0),
		"cookie gen 7 slot 1 owner test:tick"
		"\n<orphan stack of test:tick>"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 4, 0),
				     "<orphan stack of test:tick>"));
	fx_tick(&buf, 2);
	info_at(&buf, 0, 5, 0);
	fx_cookie(&buf, ck);
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 6, 0), "orphan"));
}
END_TEST

/*
 * A stack_fallback flagged STACKMAP_FLAG_AFTER_LOSS is what a flagged cookie
 * is: an orphan, and the tick before it keeps no stack.
 */
START_TEST(fallback_after_a_missing_one_is_an_orphan)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 2, 0);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 1, frames3, 1,
			  FX_ID_TICK, STACKMAP_FLAG_AFTER_LOSS);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 3, 0),
				     "\n<orphan stack of test:tick>"));
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 4, 0),
				     "<orphan stack of test:tick>"));
	fx_tick(&buf, 2);
	info_at(&buf, 0, 5, 0);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 1, frames3, 1,
			  FX_ID_TICK, 0);
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 6, 0), "orphan"));
}
END_TEST

/* A cookie another task wrote is not the stack of the tick before it. */
START_TEST(cookie_of_another_task_is_an_orphan)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 2, 0);
	fx_cookie(&buf, ck);
	buf.data[4] = 43;	/* common_pid: 42 in every fixture record */
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 3, 0),
				     "<orphan stack of test:tick>"));
}
END_TEST

/* Task 42 preempted between its tick and its stack: 43's tick and stack between. */
START_TEST(task_preempted_before_its_stack_keeps_its_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_at(&buf, 0, 1, 0);
	fx_tick(&buf, 1);
	info_at(&buf, 0, 2, 0);
	fx_tick(&buf, 2);
	buf.data[4] = 43;
	info_at(&buf, 0, 3, 0);
	fx_cookie(&buf, ck);
	buf.data[4] = 43;
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 4, 0), "orphan"));
	fx_cookie(&buf, ck);
	ck_assert_ptr_null(strstr(info_at(&buf, 0, 5, 0), "orphan"));
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_at(&buf, 0, 6, 0), "orphan"));
}
END_TEST

START_TEST(stack_after_lost_events_is_an_orphan)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);
	struct tep_record rec;

	fx_define(&buf, ck, 1, frames3, 1);
	info(&buf);
	fx_tick(&buf, 1);
	info(&buf);
	fx_cookie(&buf, ck);
	rec = fx_record(&buf, 0, 10);
	rec.missed_events = 3;
	trace_seq_reset(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	ck_assert_str_eq(seq.buffer,
		"cookie gen 7 slot 1 owner test:tick"
		"\n<orphan stack of test:tick>"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
}
END_TEST

START_TEST(truncated_stack_ends_with_a_marker)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK,
			STACKMAP_FLAG_TRUNCATED);
	info(&buf);
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info(&buf),
		"cookie gen 7 slot 1 owner test:tick"
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> ... [truncated]");
	plugin_option("compact")->set = 1;
	ck_assert_str_eq(info(&buf),
		"cookie gen 7 slot 1 owner test:tick"
		" => __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		" => ... [truncated]");
	plugin_option("compact")->set = 0;
}
END_TEST

START_TEST(stack_map_option_resolves_its_own_generation_only)
{
	char path[] = "/tmp/test_plugin_map.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "# generation 9 entries 1/16 frames 1/64 bytes 100\n"
		   "slot 4 generation 9 hits 3 depth 1 owner 900 test:tick flags 0x0\n"
		   " 0xffffffff83252e2a schedule+0x5a/0xb0\n");
	fclose(f);
	plugin_option("stack_map")->value = path;
	fx_cookie(&buf, stackmap_cookie_make(9, 4));
	ck_assert_str_eq(info(&buf),
		"cookie gen 9 slot 4 owner test:tick"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	fx_cookie(&buf, stackmap_cookie_make(8, 4));
	ck_assert_str_eq(info(&buf),
		"cookie gen 8 slot 4\n=> <stale cookie gen 8 slot 4>");
	fx_cookie(&buf, stackmap_cookie_make(9, 5));
	ck_assert_str_eq(info(&buf),
		"cookie gen 9 slot 5\n=> <unknown cookie gen 9 slot 5>");
	plugin_option("stack_map")->value = "";
	unlink(path);
}
END_TEST

/* A listing for the option, of generation 9 (slot 4), of map @map_id. */
static void write_listing9(char *path, const char *map_id)
{
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "# generation 9 entries 1/16 frames 1/64 bytes 100 map_id %s\n"
		   "slot 4 generation 9 hits 3 depth 1 owner 900 test:tick flags 0x0\n"
		   " 0xffffffff83252e2a schedule+0x5a/0xb0\n", map_id);
	fclose(f);
	plugin_option("stack_map")->value = path;
}

/* The definitions seen are of map FX_MAP_ID: a listing of another is not used. */
START_TEST(stack_map_option_of_another_load_is_refused)
{
	char path[] = "/tmp/test_plugin_map.XXXXXX";

	write_listing9(path, "0x0000000000000bad");
	fx_define(&buf, stackmap_cookie_make(9, 3), 3, frames3, 3);
	info(&buf);
	fx_cookie(&buf, stackmap_cookie_make(9, 4));
	ck_assert_str_eq(info(&buf),
		"cookie gen 9 slot 4\n=> <unknown cookie gen 9 slot 4>");
	plugin_option("stack_map")->value = "";
	unlink(path);
}
END_TEST

START_TEST(stack_map_option_of_the_same_load_is_used)
{
	char path[] = "/tmp/test_plugin_map.XXXXXX";

	write_listing9(path, "0x5eed5eed0000f00d");
	fx_define(&buf, stackmap_cookie_make(9, 3), 3, frames3, 3);
	info(&buf);
	fx_cookie(&buf, stackmap_cookie_make(9, 4));
	ck_assert_str_eq(info(&buf),
		"cookie gen 9 slot 4 owner test:tick"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)");
	plugin_option("stack_map")->value = "";
	unlink(path);
}
END_TEST

/*
 * A handle the plugin is loaded into before any format is parsed, as
 * trace-cmd does, then the tick and stackmap formats parsed.
 */
static struct tep_handle *formats_after_loading(void)
{
	struct tep_handle *t = tep_alloc();

	ck_assert_ptr_nonnull(t);
	tep_set_long_size(t, 8);
	ck_assert_int_eq(load(t), 0);
	tep_list_events(t, TEP_EVENT_SORT_ID);
	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_tick, "test"));
	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_stack_define, STACKMAP_SYSTEM));
	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_stack_cookie, STACKMAP_SYSTEM));
	return t;
}

/*
 * trace-cmd loads plugins before it parses the formats: events are wrapped
 * when the first stackmap record is printed (tep_list_events() would still
 * return the empty list it made at load time).
 */
START_TEST(events_parsed_after_loading_are_watched_too)
{
	struct tep_handle *t = formats_after_loading();
	sm_u64 ck = stackmap_cookie_make(3, 4);
	struct tep_record rec;

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_on(t, &buf);
	fx_tick(&buf, 1);
	ck_assert_str_eq(info_on(t, &buf), "n=1");
	fx_cookie(&buf, ck);
	ck_assert_ptr_null(strstr(info_on(t, &buf), "orphan"));
	/* The tick was seen, and its stack taken: a second one has none. */
	fx_cookie(&buf, ck);
	rec = fx_record(&buf, 0, 1000);
	trace_seq_reset(&seq);
	tep_print_event(t, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	ck_assert_str_eq(seq.buffer,
		"cookie gen 3 slot 4 owner test:tick"
		"\n<orphan stack of test:tick>"
		"\n=> 0xffffffff832528c8");
	unload(t);
	tep_free(t);
}
END_TEST

/*
 * A stack record of task 42's tick that the plugin cannot check is printed
 * as the tick's; then, its tick seen, its stack record is the tick's, and a
 * second one after it has no event (an orphan).
 */
static void stack_kept_then_ticks_checked(struct tep_handle *t, sm_u64 ck)
{
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info_on(t, &buf),
		"cookie gen 3 slot 4 owner test:tick\n=> 0xffffffff832528c8");
	fx_tick(&buf, 3);
	info_on(t, &buf);
	fx_cookie(&buf, ck);
	ck_assert_ptr_null(strstr(info_on(t, &buf), "orphan"));
	fx_cookie(&buf, ck);
	ck_assert_ptr_nonnull(strstr(info_on(t, &buf),
				     "<orphan stack of test:tick>"));
}

/*
 * Watching that began while printing is partial: task 42's tick was
 * printed before the first stackmap record wrapped the events, then task
 * 43's tick came between it and its stack (a preemptible probe, 7.x): the
 * stack is not called an orphan.  Once 42 was seen, its stacks are checked.
 */
START_TEST(task_seen_before_watching_began_keeps_its_stack)
{
	struct tep_handle *t = formats_after_loading();
	sm_u64 ck = stackmap_cookie_make(3, 4);

	fx_tick(&buf, 1);
	ck_assert_str_eq(info_on(t, &buf), "n=1");
	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_on(t, &buf);
	fx_tick(&buf, 2);
	buf.data[4] = 43;	/* common_pid: 42 in every fixture record */
	info_on(t, &buf);
	stack_kept_then_ticks_checked(t, ck);
	unload(t);
	tep_free(t);
}
END_TEST

/*
 * The task's tick printed before watching began, then the task preempted
 * before its stack record: its own event of another type in between (its
 * sched_switch, on 7.x) does not tell whether its tick was seen, so the
 * stack stays the tick's; once one of its ticks is seen, they are checked.
 */
START_TEST(task_event_of_another_type_keeps_its_stack)
{
	struct tep_handle *t = formats_after_loading();
	sm_u64 ck = stackmap_cookie_make(3, 4);

	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_tock, "test"));
	fx_tick(&buf, 1);
	info_on(t, &buf);
	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TICK, 0);
	info_on(t, &buf);
	fx_tock(&buf, 2);
	info_on(t, &buf);
	stack_kept_then_ticks_checked(t, ck);
	unload(t);
	tep_free(t);
}
END_TEST

/*
 * A stack whose owner's format the trace lacks (its event was not
 * recorded, here in a handle that never parsed it) is an orphan, even
 * before anything else was seen on its CPU.
 */
START_TEST(stack_of_an_event_not_in_the_trace_is_an_orphan)
{
	struct tep_handle *t = formats_after_loading();
	sm_u64 ck = stackmap_cookie_make(3, 4);

	fx_define_owned(&buf, ck, 1, frames3, 1, FX_ID_TOCK, 0);
	info_on(t, &buf);
	fx_cookie(&buf, ck);
	ck_assert_str_eq(info_on(t, &buf),
		"cookie gen 3 slot 4 owner event id 901"
		"\n<orphan stack of event id 901>"
		"\n=> 0xffffffff832528c8");
	unload(t);
	tep_free(t);
}
END_TEST

static Suite *plugin_suite(void)
{
	Suite *s = suite_create("plugin_stackmap");
	TCase *tc = tcase_create("print");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, define_prints_a_short_line);
	tcase_add_test(tc, cookie_after_its_define_prints_the_stack);
	tcase_add_test(tc, repeated_cookie_prints_the_same_stack_and_follows_options);
	tcase_add_test(tc, cookie_before_its_define_is_unknown);
	tcase_add_test(tc, cookie_of_an_old_generation_is_stale);
	tcase_add_test(tc, conflicting_define_is_flagged_and_its_cookie_not_resolved);
	tcase_add_test(tc, invalid_cookie_define_is_flagged);
	tcase_add_test(tc, fallback_prints_reason_and_stack);
	tcase_add_test(tc, corrupt_record_prints_the_problem);
	tcase_add_test(tc, each_tep_handle_has_its_own_definitions);
	tcase_add_test(tc, unloader_restores_the_print_format);
	tcase_add_test(tc, handlers_registered_before_formats_are_parsed_apply);
	tcase_add_test(tc, cookie_of_another_owner_is_printed_as_an_orphan);
	tcase_add_test(tc, interrupt_stack_between_an_event_and_its_own_is_an_orphan);
	tcase_add_test(tc, other_event_between_an_event_and_its_stack_passes);
	tcase_add_test(tc, stack_after_lost_events_is_an_orphan);
	tcase_add_test(tc, cookie_after_a_refused_one_is_an_orphan);
	tcase_add_test(tc, fallback_after_a_missing_one_is_an_orphan);
	tcase_add_test(tc, cookie_of_another_task_is_an_orphan);
	tcase_add_test(tc, task_preempted_before_its_stack_keeps_its_stack);
	tcase_add_test(tc, task_seen_before_watching_began_keeps_its_stack);
	tcase_add_test(tc, task_event_of_another_type_keeps_its_stack);
	tcase_add_test(tc, stack_of_an_event_not_in_the_trace_is_an_orphan);
	tcase_add_test(tc, truncated_stack_ends_with_a_marker);
	tcase_add_test(tc, stack_map_option_resolves_its_own_generation_only);
	tcase_add_test(tc, stack_map_option_of_another_load_is_refused);
	tcase_add_test(tc, stack_map_option_of_the_same_load_is_used);
	tcase_add_test(tc, events_parsed_after_loading_are_watched_too);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plugin_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
