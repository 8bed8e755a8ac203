// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end tests of fgdecode: write small trace.dat files with mktrace,
 * run the (sanitized) fgdecode binary on them and compare its exact stdout,
 * stderr and exit status.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mktrace.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "tep_fixture.h"

#ifndef FGDECODE
#define FGDECODE "fgdecode_san"
#endif
/* record/stackmap-snapshot, rebuilt here: stores a listing in a trace.dat. */
#define SNAPSHOT_TOOL "stackmap-snapshot"

#define SEC	1000000000ULL

/*
 * The latency flags fgdecode prints after the CPU when built against
 * libtracecmd 1.5.0 or later, as trace-cmd 3.3's report does
 * (decoder/dirs.mk FG_REPORT_LATENCY): the fixture's records set no flag
 * and have a preempt count of 0.
 */
#if FG_REPORT_LATENCY
#define LAT " ....."
#define LAT_HARDIRQ " ..h.."
#else
#define LAT ""
#define LAT_HARDIRQ ""
#endif

static char dir[64];
static char fgdecode[4096];		/* absolute path of FGDECODE */
static char snaptool[4096];		/* absolute path of SNAPSHOT_TOOL */
static char trace_path[128];
static struct mktrace *mt;
static struct fx_buf buf;

struct result {
	int status;
	char *out;
	char *err;
};

static struct result res;

static const char kallsyms[] =
	"ffffffff828cd340 T kthread\n"
	"ffffffff828cd460 T kthread_end\n"
	"ffffffff832523d0 T __schedule\n"
	"ffffffff83252dd0 T schedule\n"
	"ffffffff83252e80 T schedule_end\n"
	"ffffffffc03e3b80 t p9_client_rpc\t[9pnet]\n"
	"ffffffffc03e4000 t fx_last\t[9pnet]\n";

static const char cmdlines[] = "42 worker\n";

static const struct mkt_format all_formats[] = {
	{ "test", fx_fmt_tick },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

static const sm_u64 frames3[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_SCHEDULE_START + 0x5a,
	FX_KTHREAD_START + 0xda,
};

static const sm_u64 frames2[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_P9_RPC_START + 0x14a,
};

#define TICK_LINE(cpu, time, n) \
	"          worker-42    [00" #cpu "]" LAT "     " time ": tick:                 n=" #n "\n"
#define STACK3 \
	"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n" \
	"    => schedule+0x5a/0xb0 (ffffffff83252e2a)\n" \
	"    => kthread+0xda/0x120 (ffffffff828cd41a)\n"
/* The header of a stack record shown on its own (its owner is not before it). */
#define ORPHAN_OF_TICK	"    <orphan stack of test:tick>\n"
/* Under an event of an owner type that ends its stream with no stack. */
#define CUT_LINE \
	"    <no stack: the recording of this CPU ends here>\n"

#define STACK2 \
	"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n" \
	"    => p9_client_rpc+0x14a/0x480 [9pnet] (ffffffffc03e3cca)\n"

static void setup(void)
{
	ck_assert_ptr_nonnull(realpath(FGDECODE, fgdecode));
	ck_assert_ptr_nonnull(realpath(SNAPSHOT_TOOL, snaptool));
	snprintf(dir, sizeof(dir), "/tmp/fgdecode-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(trace_path, sizeof(trace_path), "%s/trace.dat", dir);
	mt = mkt_new(2);
	fx_buf_init(&buf, 8, false);
	memset(&res, 0, sizeof(res));
}

static void teardown(void)
{
	char cmd[160];

	free(res.out);
	free(res.err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* Run fgdecode in the test directory with @args (shell words); fill res. */
__attribute__((format(printf, 1, 2)))
static void run(const char *fmt, ...)
{
	char args[512], cmd[5120], out[128], err[128];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >%s 2>%s", dir, fgdecode,
		 args, out, err);
	status = system(cmd);
	ck_assert(WIFEXITED(status));
	free(res.out);
	free(res.err);
	res.status = WEXITSTATUS(status);
	res.out = slurp(out);
	res.err = slurp(err);
}

static void write_trace_with(const struct mkt_format *formats)
{
	ck_assert_int_eq(mkt_write(mt, trace_path, formats, kallsyms, cmdlines),
			 0);
	mt = NULL;
}

static void write_trace(void)
{
	write_trace_with(all_formats);
}

static void tick(int cpu, unsigned long long ts, int n)
{
	fx_tick(&buf, n);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static void define(int cpu, unsigned long long ts, sm_u64 cookie,
		   const sm_u64 *frames, sm_u32 depth)
{
	fx_define(&buf, cookie, depth, frames, depth);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static void cookie(int cpu, unsigned long long ts, sm_u64 ck)
{
	fx_cookie(&buf, ck);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static void fallback(int cpu, unsigned long long ts, sm_u32 reason,
		     const sm_u64 *frames, sm_u32 depth, sm_u32 nframes)
{
	fx_fallback(&buf, reason, depth, frames, nframes);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* ---- traces without stackmap events ---- */

START_TEST(trace_without_stackmap_events_prints_like_report)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 1);
	tick(1, 1 * SEC + 500, 2);
	tick(0, 2 * SEC, 3);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		TICK_LINE(1, "1.000001", 2)
		TICK_LINE(0, "2.000000", 3));
	ck_assert_str_eq(res.err,
		"fgdecode: 3 events (3 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 0 fallback stacks, 0 definitions (0 distinct stacks)\n");
}
END_TEST

/* Set the common_pid of the record in buf (fx_common() wrote 42). */
static void set_pid(int pid)
{
	buf.data[4] = pid & 0xff;
	buf.data[5] = (pid >> 8) & 0xff;
	buf.data[6] = (pid >> 16) & 0xff;
	buf.data[7] = (pid >> 24) & 0xff;
}

/* A stack_cookie from @pid: the task of the event it belongs to. */
static void cookie_from(int cpu, unsigned long long ts, int pid, sm_u64 ck)
{
	fx_cookie(&buf, ck);
	set_pid(pid);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* A tick from @pid (no saved comm unless listed in cmdlines). */
static void tick_from(int cpu, unsigned long long ts, int pid, int n)
{
	fx_tick(&buf, n);
	set_pid(pid);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/*
 * fgdecode formats the line start itself (format.c); the real trace-cmd
 * report must print the same bytes: comm padding, long comms, unknown and
 * idle comms, pids of 1 to 7 digits, times rounded to microseconds across a
 * second and beyond 99999 s, event names shorter and longer than the column.
 */
START_TEST(event_lines_equal_trace_cmd_report_byte_for_byte)
{
	static const char long_fmt[] =
		"name: a_rather_long_event_name_here\n"
		"ID: 901\n"
		"format:\n"
		FX_COMMON_FIELDS
		"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"n=%d\", REC->n\n";
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", long_fmt },
		{ NULL, NULL },
	};
	static const char names[] =
		"42 worker\n"
		"298 other\n"
		"7 a-comm-longer-than-16\n"
		"1234567 kworker/u4:1-events_unbound\n";
	char cmd[1024], *report;

	tick_from(0, 999, 42, 1);		/* 0.000001 */
	tick_from(1, 1999999499ULL, 0, 2);	/* <idle>, 1.999999 */
	tick_from(0, 1999999500ULL, 7, 3);	/* rounds up to 2.000000 */
	tick_from(1, 123456789012345ULL, 1234567, 4);
	tick_from(0, 123456789012346ULL, 99, 5);	/* no saved comm */
	/* fgdecode keeps line starts by pid % 256: 298 shares 42's place */
	tick_from(0, 123456789012347ULL, 298, 7);
	tick_from(0, 123456789012348ULL, 42, 8);
	tick_from(0, 123456789012349ULL, 99, 9);
	fx_tick(&buf, 6);
	buf.data[0] = 901 & 0xff;
	buf.data[1] = 901 >> 8;
	mkt_add(mt, 1, 123456789012999ULL, buf.data, buf.len);
	ck_assert_int_eq(mkt_write(mt, trace_path, formats, kallsyms, names), 0);
	mt = NULL;
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' >'%s/report' 2>/dev/null",
		 trace_path, dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/report", dir);
	report = slurp(cmd);
	ck_assert_str_eq(res.out, report);
	/* and the cases really are in it */
	ck_assert_ptr_nonnull(strstr(report, "<idle>-0     [001]" LAT "     1.999999:"));
	ck_assert_ptr_nonnull(strstr(report, "     2.000000:"));
	ck_assert_ptr_nonnull(strstr(report, "-1234567 [001]" LAT " 123456.789012:"));
	ck_assert_ptr_nonnull(strstr(report, "<...>-99"));
	ck_assert_ptr_nonnull(strstr(report, "other-298   [000]" LAT " 123456.789012: tick:                 n=7"));
	ck_assert_ptr_nonnull(strstr(report, "worker-42    [000]" LAT " 123456.789012: tick:                 n=8"));
	ck_assert_ptr_nonnull(strstr(report, " a_rather_long_event_name_here: n=6"));
	free(report);
}
END_TEST

/* ---- attaching stacks ---- */

START_TEST(cookie_stack_is_printed_under_its_event)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames3, 3);
	cookie(0, 1 * SEC + 2000, ck);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 1000, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 2 cookies, 2 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(show_defines_prints_the_definition_after_the_stack)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames2, 2);
	cookie(0, 1 * SEC + 2000, ck);
	write_trace();
	run("--show-defines --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2
		"          worker-42    [000]" LAT "     1.000001: stack_define:         cookie=0xca100002874 depth=2 owner=900 flags=0x0 (owner test:tick)\n"
		STACK2);
	ck_assert_str_eq(res.err, "");
}
END_TEST

START_TEST(cookies_option_heads_each_stack_with_its_cookie_or_fallback_reason)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 1000, ck, frames2, 2);
	cookie(0, 1 * SEC + 2000, ck);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 1000, stackmap_cookie_make(1, 2));
	tick(0, 3 * SEC, 3);
	fallback(0, 3 * SEC + 1000, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	write_trace();
	run("--cookies --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    <cookie 0xca100002874 gen 3233 slot 10356>\n"
		STACK2
		TICK_LINE(0, "2.000000", 2)
		"    <cookie 0x100000002 gen 1 slot 2>\n"
		"    => <unknown cookie gen 1 slot 2>\n"
		TICK_LINE(0, "3.000000", 3)
		"    <fallback full>\n"
		STACK2);
}
END_TEST

START_TEST(definition_written_later_on_another_cpu_resolves)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(1, 1 * SEC, 1);
	cookie(1, 1 * SEC + 100, ck);
	define(0, 1 * SEC + 5000, ck, frames3, 3);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(1, "1.000000", 1)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(stack_attaches_to_the_event_of_its_own_cpu)
{
	sm_u64 a = stackmap_cookie_make(7, 1), b = stackmap_cookie_make(7, 2);

	define(0, 1 * SEC - 10, a, frames3, 3);
	define(1, 1 * SEC - 10, b, frames2, 2);
	tick(0, 1 * SEC, 1);
	tick(1, 1 * SEC + 1000, 2);
	cookie(1, 1 * SEC + 1500, b);
	cookie(0, 1 * SEC + 2000, a);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(1, "1.000001", 2)
		STACK2);
}
END_TEST

START_TEST(cookie_without_preceding_event_gets_its_own_line)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(0, 1 * SEC - 10, ck, frames2, 2);
	cookie(1, 1 * SEC, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		"          worker-42    [001]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 0 events (2 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

START_TEST(fallback_stack_is_printed_under_its_event)
{
	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 100, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (2 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 1 fallback stack, 0 definitions (0 distinct stacks)\n");
}
END_TEST

START_TEST(lost_events_keep_a_cookie_off_the_previous_event)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(1, 1 * SEC - 10, ck, frames2, 2);
	tick(0, 1 * SEC, 1);
	mkt_lose(mt, 0, 3);
	cookie(0, 1 * SEC + 100, ck);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"CPU:0 [3 EVENTS DROPPED]\n"
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
}
END_TEST

START_TEST(lost_events_before_a_hidden_definition_are_still_reported)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(0, 1 * SEC, 1);
	mkt_lose(mt, 0, 4);
	define(0, 1 * SEC + 100, ck, frames2, 2);
	cookie(0, 1 * SEC + 200, ck);
	write_trace();
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"CPU:0 [4 EVENTS DROPPED]\n"
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		ORPHAN_OF_TICK
		STACK2);
}
END_TEST

/* ---- owners (events.h, "Which event a stack belongs to") ---- */

static const struct mkt_format owner_formats[] = {
	{ "test", fx_fmt_tick },
	{ "test", fx_fmt_tock },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

#define TOCK_LINE_LAT(cpu, lat, time, n) \
	"          worker-42    [00" #cpu "]" lat "     " time ": tock:                 n=" #n "\n"
#define TOCK_LINE(cpu, time, n)	TOCK_LINE_LAT(cpu, LAT, time, n)

/* A plain event, a definition and a cookie, in context @ctx. */
static void tock_in(int cpu, unsigned long long ts, int n, int ctx)
{
	fx_tock(&buf, n);
	fx_set_flags(&buf, ctx);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static void define_owned(int cpu, unsigned long long ts, sm_u64 ck,
			 const sm_u64 *frames, sm_u32 depth, int owner,
			 int flags)
{
	fx_define_owned(&buf, ck, depth, frames, depth, owner, flags);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static void cookie_in(int cpu, unsigned long long ts, sm_u64 ck, int ctx)
{
	fx_cookie(&buf, ck);
	fx_set_flags(&buf, ctx);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/*
 * sched_waking with sched_switch's stack after it (sched_switch filtered
 * out of the recording): the stack is sched_switch's, never the waking's.
 */
START_TEST(cookie_of_another_owner_is_an_orphan_not_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TOCK, 0);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		"    <orphan stack of test:tock>\n"
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack)\n");
	run("--strict --no-summary trace.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --strict: 0 stale, 0 unknown, 0 conflicting cookies, 0 corrupt records, 1 orphan stacks\n");
	run("--json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\",\"status\":\"none\"}\n"
		"{\"time\":1.000000,\"ts\":1000000100,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"stack_cookie\",\"system\":\"stackmap\","
		"\"orphan\":true,\"owner\":\"test:tock\","
		"\"cookie\":\"0x700000001\",\"gen\":7,\"slot\":1,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n");
	/* Charged to no event: its own root, and not in --merge or --top. */
	run("--folded trace.dat");
	ck_assert_str_eq(res.out,
		"[orphan test:tock];kthread;schedule;__schedule 1\n");
	run("--folded --merge --no-summary trace.dat");
	ck_assert_str_eq(res.out, "");
	run("--top 5 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: top 0 of 0 distinct stacks over 0 events with a stack\n");
}
END_TEST

/*
 * An owner the trace has no format for is named by its id (and, after a
 * definition, as not in the trace).
 */
START_TEST(orphan_of_an_event_without_a_format_names_its_id)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 50, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_PROBE, 2, frames2, 2, 4242, 0);
	mkt_add(mt, 0, 1 * SEC + 100, buf.data, buf.len);
	define_owned(0, 1 * SEC + 150, ck, frames3, 3, 4243, 0);
	cookie(0, 1 * SEC + 200, ck);
	write_trace_with(owner_formats);
	run("--no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK2
		"          worker-42    [000]" LAT "     1.000000: stack_fallback:       reason=2 depth=2 owner=4242 flags=0x0\n"
		"    <orphan stack of event id 4242>\n"
		STACK2
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x700000001\n"
		"    <orphan stack of event id 4243>\n"
		STACK3);
	/* --show-defines says so after the id the definition prints. */
	run("--no-summary --show-defines trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"stack_define:         cookie=0x700000001 depth=3 owner=4243 flags=0x0 (owner not in the trace)\n"));
}
END_TEST

/*
 * An event whose type owns stacks but that has no stack record after it is
 * counted; only the one that ends its stream (tracing_on went to 0 between
 * the two writes) is marked.  A type that owns no stack is not counted.
 */
START_TEST(stackless_events_are_counted_and_the_cut_one_marked)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);		/* its cookie filtered out */
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, ck);
	tock_in(1, 2 * SEC + 20, 3, 0);	/* tock owns no stack here */
	tick(0, 3 * SEC, 4);		/* the last record of CPU 0 */
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TOCK_LINE(1, "2.000000", 3)
		TICK_LINE(0, "3.000000", 4)
		CUT_LINE);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (6 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 2 without a stack (1 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A hard IRQ came in between an event and its stack record: the IRQ's own
 * event and stack, or only its stack (its event not recorded), come first.
 */
START_TEST(lookahead_passes_nested_interrupts_to_the_events_own_stack)
{
	sm_u64 task = stackmap_cookie_make(7, 1), irq = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, task, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, irq, frames2, 2, FX_ID_TOCK, 0);
	/* IRQ's stack only: an orphan, the tick still gets its own. */
	tick(0, 1 * SEC, 1);
	cookie_in(0, 1 * SEC + 10, irq, FX_CTX_HARDIRQ);
	cookie(0, 1 * SEC + 20, task);
	/* The IRQ's event and its stack: each gets its own. */
	tick(0, 2 * SEC, 2);
	tock_in(0, 2 * SEC + 10, 3, FX_CTX_HARDIRQ);
	cookie_in(0, 2 * SEC + 20, irq, FX_CTX_HARDIRQ);
	cookie(0, 2 * SEC + 30, task);
	/* A tock in task context does not take the IRQ's tock stack. */
	tock_in(0, 3 * SEC, 4, 0);
	cookie_in(0, 3 * SEC + 10, irq, FX_CTX_HARDIRQ);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		"          worker-42    [000]" LAT_HARDIRQ "     1.000000: stack_cookie:         cookie=0x700000002\n"
		"    <orphan stack of test:tock>\n"
		STACK2
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TOCK_LINE_LAT(0, LAT_HARDIRQ, "2.000000", 3)
		STACK2
		TOCK_LINE(0, "3.000000", 4)
		CUT_LINE
		"          worker-42    [000]" LAT_HARDIRQ "     3.000000: stack_cookie:         cookie=0x700000002\n"
		"    <orphan stack of test:tock>\n"
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (11 records), 5 cookies, 5 resolved, 0 stale, 0 unknown, 2 orphan, 0 fallback stacks, 2 definitions (2 distinct stacks), 1 without a stack (1 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * PREEMPT_RT: an interrupt between an event and its stack record wakes its
 * threads on the way out with the task's context, so an event of another
 * type (sched_waking) comes in between.  The stack is still the tick's; a
 * second tick ends the scan, so the first never takes the second's stack.
 */
/*
 * A cookie written after its ring buffer refused a stack record on its CPU
 * (STACKMAP_COOKIE_AFTER_LOSS) may follow an event whose own stack was the
 * refused one: it is shown as an orphan, never under that event.
 */
START_TEST(cookie_after_a_refused_one_is_never_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, ck | STACKMAP_COOKIE_AFTER_LOSS);
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"          worker-42    [000]" LAT "     1.000000: stack_cookie:         cookie=0x780000001\n"
		ORPHAN_OF_TICK
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 2 cookies, 2 resolved, 0 stale, 0 unknown, 1 orphan, 1 after a ring buffer loss, 0 fallback stacks, 1 definition (1 distinct stack), 1 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

/* A stack record of another task is not the event's (events.h). */
START_TEST(cookie_of_another_task_is_never_the_events_stack)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK, 0);
	tick_from(0, 1 * SEC, 43, 1);
	cookie(0, 1 * SEC + 10, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, ORPHAN_OF_TICK STACK3));
	ck_assert_ptr_null(strstr(res.out, "tick: n=1\n" STACK3));
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 orphan, 0 fallback stacks, 1 definition (1 distinct stack), 1 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

/*
 * A task preempted between its event and its stack record (preemptible
 * probes, 7.x; the module keeps it on its CPU): another task's event and
 * stack come in between, and each event still gets its own task's stack.
 */
START_TEST(task_preempted_before_its_stack_keeps_its_stack)
{
	sm_u64 a = stackmap_cookie_make(7, 1), b = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, a, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, b, frames2, 2, FX_ID_TICK, 0);
	tick(0, 1 * SEC, 1);
	tick_from(0, 1 * SEC + 10, 43, 2);
	cookie_from(0, 1 * SEC + 20, 43, b);
	cookie(0, 1 * SEC + 30, a);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, TICK_LINE(0, "1.000000", 1) STACK3));
	ck_assert_ptr_nonnull(strstr(res.out, "tick:                 n=2\n" STACK2));
	ck_assert_ptr_null(strstr(res.out, "orphan"));
}
END_TEST

START_TEST(lookahead_passes_an_other_event_of_the_same_context)
{
	sm_u64 task = stackmap_cookie_make(7, 1), irq = stackmap_cookie_make(7, 2);

	define_owned(0, 1 * SEC - 20, task, frames3, 3, FX_ID_TICK, 0);
	define_owned(0, 1 * SEC - 10, irq, frames2, 2, FX_ID_TOCK, 0);
	tick(0, 1 * SEC, 1);
	tock_in(0, 1 * SEC + 10, 2, 0);
	cookie(0, 1 * SEC + 20, task);
	/* The tock's own stack after it, then the tick's. */
	tick(0, 2 * SEC, 3);
	tock_in(0, 2 * SEC + 10, 4, 0);
	cookie(0, 2 * SEC + 20, irq);
	cookie(0, 2 * SEC + 30, task);
	/*
	 * A tick without its stack: the next tick's is not taken.  The tocks
	 * own stacks too (the irq cookie's owner) and carry none here.
	 */
	tick(0, 3 * SEC, 5);
	tock_in(0, 3 * SEC + 10, 6, 0);
	tick(0, 3 * SEC + 20, 7);
	cookie(0, 3 * SEC + 30, task);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TOCK_LINE(0, "1.000000", 2)
		TICK_LINE(0, "2.000000", 3)
		STACK3
		TOCK_LINE(0, "2.000000", 4)
		STACK2
		TICK_LINE(0, "3.000000", 5)
		TOCK_LINE(0, "3.000000", 6)
		TICK_LINE(0, "3.000000", 7)
		STACK3);
	ck_assert_str_eq(res.err,
		"fgdecode: 7 events (13 records), 4 cookies, 4 resolved, 0 stale, 0 unknown, 0 fallback stacks, 2 definitions (2 distinct stacks), 3 without a stack (0 at the end of a CPU's recording)\n");
}
END_TEST

START_TEST(truncated_stack_is_marked_in_every_output)
{
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, FX_ID_TICK,
		     STACKMAP_FLAG_TRUNCATED);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	write_trace_with(owner_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		"    => ... [truncated]\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 1 event (3 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 1 truncated\n");
	run("--folded --no-summary trace.dat");
	ck_assert_str_eq(res.out, "tick;[truncated];kthread;schedule;__schedule 1\n");
	run("--json --no-summary trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"\"status\":\"resolved\",\"truncated\":true,\"stack\":[{"));
	run("--top 1 --no-summary trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out, STACK3 "    => ... [truncated]\n"));
}
END_TEST

/* stackmap 0.1 formats name no owner: stacks attach as before, unverified. */
START_TEST(trace_of_stackmap_0_1_attaches_stacks_unverified)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback_01 },
		{ STACKMAP_SYSTEM, fx_fmt_stack_define_01 },
		{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
		{ NULL, NULL },
	};
	sm_u64 ck = stackmap_cookie_make(7, 1);

	fx_define_owned(&buf, ck, 3, frames3, 3, -1, 0);
	mkt_add(mt, 0, 1 * SEC - 10, buf.data, buf.len);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 100, ck);
	tick(0, 2 * SEC, 2);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2, -1, 0);
	mkt_add(mt, 0, 2 * SEC + 100, buf.data, buf.len);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK2);
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (5 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 2 unverified\n");
}
END_TEST

/* ---- unresolved cookies ---- */

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

/* ---- bad input ---- */

START_TEST(corrupt_definition_is_counted_and_its_cookie_unknown)
{
	sm_u64 frames[STACKMAP_MAX_DEPTH + 1] = { 0 };
	sm_u64 ck = stackmap_cookie_make(7, 1);

	define(0, 1 * SEC - 10, ck, frames, STACKMAP_MAX_DEPTH + 1);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, ck);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <unknown cookie gen 7 slot 1>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: CPU 0 ts 999999990: stack_define: field 'depth' is 65, more than 64 frames\n"
		"fgdecode: 1 event (3 records), 1 cookie, 0 resolved, 0 stale, 1 unknown, 0 fallback stacks, 1 definition (0 distinct stacks), 1 corrupt\n");
}
END_TEST

START_TEST(corrupt_fallback_prints_a_corrupt_marker)
{
	tick(0, 1 * SEC, 1);
	fallback(0, 1 * SEC + 10, STACKMAP_FALLBACK_FULL, frames3, 3, 2);
	write_trace();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <corrupt stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: CPU 0 ts 1000000010: stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs\n"
		"fgdecode: 1 event (2 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 1 fallback stack, 0 definitions (0 distinct stacks), 1 corrupt\n");
}
END_TEST

START_TEST(stackmap_event_without_a_field_is_an_error)
{
	static const char define_no_ips[] =
		"name: stack_define\n"
		"ID: 1360\n"
		"format:\n"
		FX_COMMON_FIELDS
		"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 depth;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"cookie=0x%llx depth=%u\", REC->cookie, REC->depth\n";
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ STACKMAP_SYSTEM, define_no_ips },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 1);
	write_trace_with(formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: event stackmap:stack_define: no field 'ips'\n");
}
END_TEST

START_TEST(missing_file_is_one_line_and_exit_1)
{
	run("nothing.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: nothing.dat: No such file or directory\n");
}
END_TEST

START_TEST(file_that_is_not_a_trace_is_one_line_and_exit_1)
{
	FILE *f = fopen(trace_path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("this is not a trace\n", f);
	fclose(f);
	run("trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: offset 0: magic: not a trace.dat file\n");
}
END_TEST

START_TEST(truncated_trace_does_not_crash)
{
	char cmd[256];
	int cut;

	tick(0, 1 * SEC, 1);
	define(0, 1 * SEC + 10, stackmap_cookie_make(1, 1), frames3, 3);
	write_trace();
	/* Cut the file at many points: fgdecode must fail cleanly or decode. */
	for (cut = 16; cut < 6000; cut += 397) {
		snprintf(cmd, sizeof(cmd), "head -c %d %s > %s/cut.dat", cut,
			 trace_path, dir);
		ck_assert_int_eq(system(cmd), 0);
		run("cut.dat");
		ck_assert_msg(res.status == 0 || res.status == 1,
			      "cut at %d: status %d: %s", cut, res.status,
			      res.err);
	}
}
END_TEST


static int count_of(const char *hay, const char *needle);

/*
 * Each of @n cuts of the trace at trace_path: for cut i, the file without
 * its last @step * (i + 1) bytes.  Every decode of a cut file must exit 0;
 * one that took only what follows the data must print exactly @whole (a
 * version 7 file's strings section, the last, names sections only: cut
 * alone it changes nothing and is not warned about); one that ends inside
 * a CPU's data must warn and print only lines of @whole (and the marker of
 * the stack it cut off); once a cut took a whole CPU's data, the CPU of
 * what is left is not known and the file must be refused, saying so.
 * Return: how many cuts were decoded from options placed again (warned,
 * and every line printed); *@inside: how many ended inside a CPU's data.
 */
static int decode_cuts(const char *name, const char *whole, int step, int n,
		       int *inside)
{
	char cmd[512], *line, *save, *out;
	struct stat st;
	int i, same = 0;

	ck_assert_int_eq(stat(trace_path, &st), 0);
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "head -c %lld '%s' > '%s/cut.dat'",
			 (long long)st.st_size - step * (i + 1), trace_path, dir);
		ck_assert_int_eq(system(cmd), 0);
		run("cut.dat");
		if (res.status == 1 && strstr(res.err, "which CPU each belongs to"))
			continue;
		ck_assert_msg(res.status == 0, "%s cut %d: status %d: %s", name,
			      i, res.status, res.err);
		if (!strstr(res.err, "the cut ends inside")) {
			ck_assert_msg(!strcmp(res.out, whole),
				      "%s cut %d: output differs from the whole trace's; %.400s",
				      name, i, res.err);
			same += !!strstr(res.err, "as placed again");
			continue;
		}
		ck_assert_msg(strstr(res.err, ": truncated at byte "),
			      "%s cut %d: no warning: %s", name, i, res.err);
		(*inside)++;
		out = strdup(res.out);
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ck_assert_msg(strstr(whole, line) ||
				      strstr(line, "<no stack: "),
				      "%s cut %d: line not in the whole trace: %s",
				      name, i, line);
		free(out);
	}
	return same;
}

/*
 * Two CPUs, CPU 1's data three pages long (trace-cmd writes whole pages,
 * mkt_write() too), written to trace_path.
 */
static void write_two_cpus(void)
{
	int i;

	for (i = 0; i < 40; i++)
		tick(0, 1 * SEC + i * 1000ULL, i);
	for (i = 0; i < 600; i++)
		tick(1, 1 * SEC + 500 + i * 1000ULL, i);
	write_trace();
}

START_TEST(v6_trace_cut_inside_its_data_decodes_the_whole_pages)
{
	int inside = 0;
	char *whole;

	write_two_cpus();
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	ck_assert_int_eq(decode_cuts("v6", whole, 1000, 3, &inside), 0);
	ck_assert_int_eq(inside, 3);
	ck_assert(strstr(res.err, "the cut ends inside CPU 1's data: "));
	ck_assert(strstr(res.err, " pages kept"));
	/* CPU 0's events all stay, CPU 1 keeps fewer. */
	ck_assert_int_eq(count_of(res.out, "[000]"), count_of(whole, "[000]"));
	ck_assert_int_gt(count_of(res.out, "[001]"), 0);
	ck_assert_int_lt(count_of(res.out, "[001]"), count_of(whole, "[001]"));
	free(whole);
}
END_TEST

START_TEST(v7_trace_cut_after_its_data_decodes_the_same)
{
	char cmd[512], *whole;
	int inside = 0;

	/* trace-cmd 3.1.6 converts a version 6 file only with its options. */
	mkt_set_uname(mt, "Linux test 6.1.0 #1 SMP x86_64");
	write_two_cpus();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && trace-cmd convert --file-version 7 -i trace.dat -o v7.dat >convert.log 2>&1 && mv v7.dat trace.dat",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	whole = strdup(res.out);
	/*
	 * Cuts of 40, 80, ... 2000 bytes: the strings and the options that
	 * place the data first (decoded the same, from the data placed
	 * again), then the end of CPU 1's compressed data.
	 */
	ck_assert_int_gt(decode_cuts("v7", whole, 40, 50, &inside), 0);
	ck_assert_int_gt(inside, 0);
	ck_assert(strstr(res.err, "which CPU each belongs to"));
	free(whole);
}
END_TEST

/* ---- kernel_stack, buffer instances, v7 ---- */

#define FX_ID_KSTACK	4

static const char fmt_kernel_stack[] =
	"name: kernel_stack\n"
	"ID: 4\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
	"\n"
	"print fmt: \"size=%d\", REC->size\n";

static const struct mkt_format kstack_formats[] = {
	{ "test", fx_fmt_tick },
	{ "ftrace", fmt_kernel_stack },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

/* A kernel_stack record: 'size' @size, then @nframes caller[] entries. */
static void kstack_to(int buffer, int cpu, unsigned long long ts, int size,
		      const sm_u64 *frames, int nframes)
{
	int i;

	fx_common(&buf, FX_ID_KSTACK, 42);
	fx_put(&buf, (unsigned int)size, 4);
	fx_put(&buf, 0, 4);
	for (i = 0; i < nframes; i++)
		fx_put(&buf, frames[i], 8);
	mkt_add_to(mt, buffer, cpu, ts, buf.data, buf.len);
}

static void tick_to(int buffer, int cpu, unsigned long long ts, int n)
{
	fx_tick(&buf, n);
	mkt_add_to(mt, buffer, cpu, ts, buf.data, buf.len);
}

START_TEST(kernel_stack_is_printed_under_its_event)
{
	static const sm_u64 frames[] = {
		FX___SCHEDULE_START + 0x4f8,
		FX_SCHEDULE_START + 0x5a,
		FX_KTHREAD_START + 0xda,
		~0ULL,				/* end marker */
		FX_KTHREAD_START,
	};

	tick(0, 1 * SEC, 1);
	kstack_to(0, 0, 1 * SEC + 1000, 3, frames, 5);
	tick(0, 2 * SEC, 2);
	/* size says 5 but the 4th entry ends the stack */
	kstack_to(0, 0, 2 * SEC + 1000, 5, frames, 5);
	tick(0, 3 * SEC, 3);
	/* size larger than the record: bounded by the record */
	kstack_to(0, 0, 3 * SEC + 1000, 1000, frames, 2);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TICK_LINE(0, "3.000000", 3)
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => schedule+0x5a/0xb0 (ffffffff83252e2a)\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 3 events (6 records), 0 cookies, 0 resolved, 0 stale, 0 unknown, 0 fallback stacks, 0 definitions (0 distinct stacks), 3 kernel stacks\n");
}
END_TEST

/*
 * One stack under two events, alternating: each (event, stack) pair keeps
 * its own count (the set tries the pair it counted last first).
 */
START_TEST(one_stack_under_alternating_events_counts_each_pair)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", fx_fmt_tock },
		{ "ftrace", fmt_kernel_stack },
		{ NULL, NULL },
	};
	static const sm_u64 frames[] = {
		FX___SCHEDULE_START + 0x4f8,
		FX_SCHEDULE_START + 0x5a,
		FX_KTHREAD_START + 0xda,
	};
	int i;

	for (i = 0; i < 5; i++) {
		if (i % 2)
			tock_in(0, (i + 1) * SEC, i, 0);
		else
			tick(0, (i + 1) * SEC, i);
		kstack_to(0, 0, (i + 1) * SEC + 1000, 3, frames, 3);
	}
	write_trace_with(formats);
	run("--folded --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;kthread;schedule;__schedule 3\n"
		"tock;kthread;schedule;__schedule 2\n");
	/* and the stack's own count is the sum */
	run("--top 1 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack over 5 events with a stack\n"
		"#1 5 events 100.00% in tick (3), tock (2); by worker-42\n"
		STACK3);
}
END_TEST

START_TEST(instances_merge_in_time_order_and_keep_their_own_stacks)
{
	int inst;
	sm_u64 ck = stackmap_cookie_make(7, 1);

	inst = mkt_add_buffer(mt, "inst");
	define(0, 1 * SEC - 1000, ck, frames3, 3);
	tick(0, 1 * SEC, 1);
	tick_to(inst, 0, 1 * SEC + 1000, 2);
	/* Same CPU, other buffer: belongs to tick 1, not to tick 2. */
	cookie(0, 1 * SEC + 2000, ck);
	kstack_to(inst, 1, 1 * SEC + 3000, 2, frames2, 2);
	tick_to(inst, 1, 2 * SEC, 3);
	kstack_to(inst, 1, 2 * SEC + 1000, 2, frames2, 2);
	tick(1, 3 * SEC, 4);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		/* trace-cmd report's prefixes: the top buffer's, then inst's */
		"      " TICK_LINE(0, "1.000000", 1)
		STACK3
		"inst: " TICK_LINE(0, "1.000001", 2)
		CUT_LINE
		"inst:           worker-42    [001]" LAT "     1.000003: kernel_stack:         size=2\n"
		STACK2
		"inst: " TICK_LINE(1, "2.000000", 3)
		STACK2
		"      " TICK_LINE(1, "3.000000", 4)
		CUT_LINE);
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (8 records), 1 cookie, 1 resolved, 0 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 2 kernel stacks, 2 without a stack (2 at the end of a CPU's recording)\n");
}
END_TEST

START_TEST(v7_file_from_trace_cmd_convert_decodes_the_same)
{
	char cmd[512], *v6_out, *v6_err;
	int inst = mkt_add_buffer(mt, "inst");

	tick(0, 1 * SEC, 1);
	kstack_to(0, 0, 1 * SEC + 1000, 3, frames3, 3);
	tick_to(inst, 1, 1 * SEC + 2000, 2);
	kstack_to(inst, 1, 1 * SEC + 3000, 2, frames2, 2);
	write_trace_with(kstack_formats);
	run("trace.dat");
	ck_assert_int_eq(res.status, 0);
	v6_out = strdup(res.out);
	v6_err = strdup(res.err);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && trace-cmd convert --file-version 7 -i trace.dat -o v7.dat >/dev/null 2>&1",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	run("v7.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, v6_out);
	ck_assert_str_eq(res.err, v6_err);
	ck_assert(strstr(res.out, "inst:"));
	free(v6_out);
	free(v6_err);
}
END_TEST

/* ---- --strict ---- */

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

/* ---- output formats ---- */

/* ticks 1, 2 with frames3, 3 with frames2, 4 stale, 5 without a stack (the last record of CPU 0). */
static void write_mixed_trace(void)
{
	sm_u64 ck = stackmap_cookie_make(3233, 10356);

	define(0, 1 * SEC - 1000, ck, frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 1000, ck);
	tick(1, 2 * SEC, 2);
	cookie(1, 2 * SEC + 1000, ck);
	tick(0, 3 * SEC, 3);
	fallback(0, 3 * SEC + 1000, STACKMAP_FALLBACK_FULL, frames2, 2, 2);
	tick(1, 4 * SEC, 4);
	cookie(1, 4 * SEC + 1000, stackmap_cookie_make(3232, 10356));
	tick(0, 5 * SEC, 5);
	write_trace();
}

START_TEST(folded_prints_root_first_per_event_sorted_with_counts)
{
	write_mixed_trace();
	run("--folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;[stale cookie] 1\n"
		"tick;kthread;schedule;__schedule 2\n"
		"tick;p9_client_rpc;__schedule 1\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 5 events (10 records), 3 cookies, 2 resolved, 1 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 1 without a stack (1 at the end of a CPU's recording)\n");
	run("--folded --merge --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[stale cookie] 1\n"
		"kthread;schedule;__schedule 2\n"
		"p9_client_rpc;__schedule 1\n");
	/* The flame graph too: its event frame ("tick") goes. */
	run("--flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_int_eq(count_of(res.out, "<g class=\"f event\""), 1);
	run("--flamegraph - --merge --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_int_eq(count_of(res.out, "<g class=\"f event\""), 0);
	ck_assert_ptr_nonnull(strstr(res.out, "data-n=\"all\"><title>all: 4 events"));
}
END_TEST

#define PERF_TICK(cpu, sec, n) \
	"worker      42 [00" cpu "]     " sec ".000000: test:tick: n=" n "\n"
#define PERF_STACK3 \
	"\tffffffff832528c8 __schedule+0x4f8 ([kernel.kallsyms])\n" \
	"\tffffffff83252e2a schedule+0x5a ([kernel.kallsyms])\n" \
	"\tffffffff828cd41a kthread+0xda ([kernel.kallsyms])\n"

/*
 * --perf-script: perf script's header and callchain lines; an event whose
 * stack is stale or missing gets its header and the empty line only.
 */
START_TEST(perf_script_prints_each_event_with_its_callchain)
{
	write_mixed_trace();
	run("--perf-script --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		PERF_TICK("0", "1", "1") PERF_STACK3 "\n"
		PERF_TICK("1", "2", "2") PERF_STACK3 "\n"
		PERF_TICK("0", "3", "3")
		"\tffffffff832528c8 __schedule+0x4f8 ([kernel.kallsyms])\n"
		"\tffffffffc03e3cca p9_client_rpc+0x14a ([9pnet])\n\n"
		PERF_TICK("1", "4", "4") "\n"
		PERF_TICK("0", "5", "5") "\n");
	run("--perf-script --weight n trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: --weight weighs the stacks of --json, --folded, --top, --pprof or --flamegraph: not --perf-script\n");
}
END_TEST

/* Occurrences of @needle in @hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/*
 * A flame graph of tens of thousands of stacks stays a file a browser
 * opens: one hot stack weighs half, 20000 stacks of one event each, every
 * one with a leaf function of its own, share the rest.  Each of those is
 * far narrower than FLAMEGRAPH_MIN_WIDTH, so they are drawn as one
 * "[20000 frames]" frame with their total, not as 20000 frames.
 */
START_TEST(flamegraph_merges_tens_of_thousands_of_narrow_stacks)
{
	enum { NR = 20000 };
	sm_u64 hot = stackmap_cookie_make(7, 0), frames[2];
	unsigned long long ts = 1 * SEC;
	size_t len = strlen(kallsyms), size = len + NR * 40;
	char path[4096], *syms = malloc(size), *svg;
	int i;

	ck_assert_ptr_nonnull(syms);
	memcpy(syms, kallsyms, len);
	define(0, ts++, hot, frames3, 3);
	for (i = 1; i <= NR; i++) {
		frames[0] = 0xffffffff90000000ULL + 16ULL * i + 4;
		frames[1] = FX_KTHREAD_START + 0xda;
		len += snprintf(syms + len, size - len, "%llx T leaf_%05d\n",
				(unsigned long long)(frames[0] - 4), i);
		define(0, ts++, stackmap_cookie_make(7, i), frames, 2);
		tick(0, ts++, i);
		cookie(0, ts++, stackmap_cookie_make(7, i));
		tick(0, ts++, i);
		cookie(0, ts++, hot);
	}
	ck_assert_int_eq(mkt_write(mt, trace_path, all_formats, syms, cmdlines),
			 0);
	mt = NULL;
	free(syms);
	run("--flamegraph %s/fg.svg --no-summary trace.dat", dir);
	ck_assert_int_eq(res.status, 0);
	snprintf(path, sizeof(path), "%s/fg.svg", dir);
	svg = slurp(path);
	ck_assert_ptr_nonnull(svg);
	ck_assert_ptr_nonnull(strstr(svg,
		"<title>[20000 frames]: 20000 events, 50.00%</title>"));
	/* all, tick, kthread, schedule, __schedule, the merged frame. */
	ck_assert_int_eq(count_of(svg, "<g class=\"f "), 6);
	ck_assert_int_lt((int)strlen(svg), 64 * 1024);
	free(svg);
}
END_TEST

START_TEST(top_prints_the_hottest_stacks_with_counts_and_percentages)
{
	write_mixed_trace();
	run("--top 2 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 2 of 3 distinct stacks over 4 events with a stack\n"
		"#1 2 events 50.00% in tick; by worker-42\n"
		STACK3
		"#2 1 event 25.00% in tick; by worker-42\n"
		STACK2);
	run("--top 10 --no-summary trace.dat");
	ck_assert(strstr(res.out, "#3 1 event 25.00% in tick; by worker-42\n    => <stale cookie>\n"));
}
END_TEST

/*
 * --top names the tasks of a stack's events, most first: three of them,
 * then how many others and their events.
 */
START_TEST(top_names_the_tasks_of_each_stack)
{
	static const int pids[] = { 43, 42, 44, 42, 45, 43, 46, 42 };
	sm_u64 ck = stackmap_cookie_make(3233, 10356);
	size_t i;

	define(0, 1 * SEC - 1000, ck, frames3, 3);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		tick_from(0, (i + 1) * SEC, pids[i], (int)i);
		cookie_from(0, (i + 1) * SEC + 1000, pids[i], ck);
	}
	write_trace();
	run("--top 1 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	/* 42 has no saved comm but worker; the others print as <...>. */
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack over 8 events with a stack\n"
		"#1 8 events 100.00% in tick; by worker-42 (3), <...>-43 (2), <...>-44 (1) and 2 other tasks (2)\n"
		STACK3);
}
END_TEST

START_TEST(json_prints_one_object_per_event)
{
	write_mixed_trace();
	run("--json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\","
		"\"cookie\":\"0xca100002874\",\"gen\":3233,\"slot\":10356,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":1,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\","
		"\"cookie\":\"0xca100002874\",\"gen\":3233,\"slot\":10356,\"status\":\"resolved\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"time\":3.000000,\"ts\":3000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\","
		"\"reason\":\"full\",\"status\":\"fallback\",\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]}\n"
		"{\"time\":4.000000,\"ts\":4000000000,\"cpu\":1,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\","
		"\"cookie\":\"0xca000002874\",\"gen\":3232,\"slot\":10356,\"status\":\"stale\",\"stack\":[]}\n"
		"{\"time\":5.000000,\"ts\":5000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"event\":\"tick\",\"system\":\"test\","
		"\"status\":\"none\"}\n");
}
END_TEST

START_TEST(output_options_reject_bad_combinations)
{
	write_mixed_trace();
	run("--top 0 trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --top: '0' is not a positive number\n");
	run("--top x trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--json --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --json, --folded, --top, --pprof, --flamegraph and --perf-script exclude each other\n");
	run("--merge trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --merge needs --folded or --flamegraph\n");
	run("--merge --pprof - trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--from 1.5x trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --from: invalid value '1.5x'\n");
	run("--pid -3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--cpu 1,,2 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--event tick, trace.dat");
	ck_assert_int_eq(res.status, 2);
	/* Options that would do nothing in the output chosen. */
	run("--cookies --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --cookies marks the text output: not with --folded\n");
	run("--json --cookies trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--show-defines --top 3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --show-defines marks the text output: not with --top\n");
	run("--weight n trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: --weight weighs the stacks of --json, --folded, --top, --pprof or --flamegraph: not the text output\n");
	/* -N changes the event text: not with an output that prints none. */
	run("-N --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: -N changes the event text, which --folded does not print (the text output and --perf-script do)\n");
	run("--no-plugins --json trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("-N --top 3 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("-N --perf-script --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("-N --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("diff -N trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
}
END_TEST

/* Filters that select nothing in this trace say what it has, exit 1. */
START_TEST(filters_the_trace_cannot_match_are_errors)
{
	write_mixed_trace();
	run("--event tik trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert(!strncmp(res.err,
		"fgdecode: trace.dat: --event tik: the trace has no such event (it has ", 70));
	ck_assert(strstr(res.err, "test:tick"));
	run("--cpu 5 trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, "fgdecode: trace.dat: --cpu 5: the trace has CPUs 0-1\n");
	run("--from 3 --to 1.5 trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --from 3.000000 is after --to 1.500000: no time is in that range\n");
	/* A range outside the trace's records (0.999999-5.000000 s). */
	run("--from 6 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --from 6.000000: the trace ends at 5.000000 (its events lie in 0.999999-5.000000)\n");
	run("--from 0.1 --to 0.5 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --to 0.500000: the trace begins at 0.999999 (its events lie in 0.999999-5.000000)\n");
	/* Inside the trace but between two events: nothing matched, no error. */
	run("--from 1.5 --to 1.6 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	/* What the trace has still works, by either name. */
	run("--event test:tick --cpu 0 --from 1 --to 1 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("--event tick --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
}
END_TEST

/* ---- --weight ---- */

/* An event with a string field, to be refused as a weight. */
static const char fmt_tag[] =
	"name: tag\n"
	"ID: 902\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:char label[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"label=%s\", REC->label\n";

START_TEST(weight_sums_the_field_per_stack_in_every_output)
{
	write_mixed_trace();
	/* n = 1, 2 under frames3, 3 under frames2, 4 stale, 5 no stack. */
	run("--folded --weight n trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"tick;[stale cookie] 4\n"
		"tick;kthread;schedule;__schedule 3\n"
		"tick;p9_client_rpc;__schedule 3\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 5 events (10 records), 3 cookies, 2 resolved, 1 stale, 0 unknown, 1 fallback stack, 1 definition (1 distinct stack), 1 without a stack (1 at the end of a CPU's recording)\n"
		"fgdecode: weight: sum of n, 10 over 4 events with a stack\n");
	run("--folded --merge --weight n --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"[stale cookie] 4\n"
		"kthread;schedule;__schedule 3\n"
		"p9_client_rpc;__schedule 3\n");
	run("--top 2 --weight n --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 2 of 3 distinct stacks by n over 4 events with a stack, 10 n in all\n"
		"#1 4 n 40.00% (1 event) in tick; by worker-42\n"
		"    => <stale cookie>\n"
		"#2 3 n 30.00% (2 events) in tick; by worker-42\n"
		STACK3);
	run("--json --weight n --no-summary --cpu 0 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "\"system\":\"test\",\"weight\":1,\"cookie\""));
	ck_assert(strstr(res.out, "\"system\":\"test\",\"weight\":3,\"reason\""));
	ck_assert(strstr(res.out, "\"system\":\"test\",\"weight\":5,\"status\":\"none\"}"));
}
END_TEST

START_TEST(weight_of_an_event_without_the_field_is_an_error_naming_it)
{
	static const struct mkt_format formats[] = {
		{ "test", fx_fmt_tick },
		{ "test", fmt_tag },
		{ NULL, NULL },
	};

	tick(0, 1 * SEC, 7);
	fx_common(&buf, 902, 42);
	fx_put(&buf, 0x6f6c6c6568ULL, 8);	/* "hello" */
	mkt_add(mt, 0, 2 * SEC, buf.data, buf.len);
	write_trace_with(formats);
	run("--folded --weight bytes_alloc trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight bytes_alloc: event test:tick has no field 'bytes_alloc' (select events that have it with --event)\n");
	run("--folded --weight label trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight label: event test:tick has no field 'label' (select events that have it with --event)\n");
	run("--folded --weight label --event tag --no-summary trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --weight label: field 'label' of event test:tag is not a number (char[8])\n");
	run("--weight n --event tick --folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	run("map --weight n x");
	ck_assert_int_eq(res.status, 2);
}
END_TEST

START_TEST(weight_counts_a_negative_value_as_zero_and_says_so)
{
	sm_u64 ck = stackmap_cookie_make(3, 4);

	define(0, 1 * SEC - 10, ck, frames3, 3);
	tick(0, 1 * SEC, -5);
	cookie(0, 1 * SEC + 1, ck);
	tick(0, 2 * SEC, 7);
	cookie(0, 2 * SEC + 1, ck);
	write_trace();
	run("--folded --merge --weight n trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "kthread;schedule;__schedule 7\n");
	ck_assert(strstr(res.err,
		"fgdecode: weight: sum of n, 7 over 2 events with a stack, 1 negative values taken as 0\n"));
}
END_TEST

/* ---- --off-cpu ---- */

#define ID_SWITCH	319

/* sched:sched_switch as 6.1 records it. */
static const char fmt_switch[] =
	"name: sched_switch\n"
	"ID: 319\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_pid=%d prev_state=%ld next_pid=%d\", REC->prev_pid, REC->prev_state, REC->next_pid\n";

static void put_comm(const char *comm)
{
	char c[16] = { 0 };

	strncpy(c, comm, sizeof(c) - 1);
	memcpy(buf.data + buf.len, c, sizeof(c));
	buf.len += sizeof(c);
}

/* @prev (comm @comm, state @state) leaves CPU @cpu at @ts for @next. */
static void sched_switch(int cpu, unsigned long long ts, const char *comm,
			 int prev, long state, int next)
{
	fx_common(&buf, ID_SWITCH, prev);
	put_comm(comm);
	fx_put(&buf, (unsigned int)prev, 4);
	fx_put(&buf, 120, 4);
	fx_put(&buf, (unsigned long long)state, 8);
	put_comm("next");
	fx_put(&buf, (unsigned int)next, 4);
	fx_put(&buf, 120, 4);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

static const struct mkt_format switch_formats[] = {
	{ "sched", fmt_switch },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

/*
 * worker (42) sleeps in S from 1 s to 3 s on frames3; io (43) in D from
 * 1.5 s to 2 s on frames2; cat (44) is preempted (R+) at 2 s and back at
 * 2.25 s on frames3; pid 45 comes in without a switch-out; pid 46 leaves
 * at 3.5 s and never comes back.
 */
static void write_switch_trace(void)
{
	sm_u64 ck = stackmap_cookie_make(9, 1);

	define_owned(0, 1 * SEC - 10, ck, frames3, 3, ID_SWITCH, 0);
	sched_switch(0, 1 * SEC, "worker", 42, 1, 0);
	cookie(0, 1 * SEC + 1, ck);
	sched_switch(1, 1 * SEC + SEC / 2, "io", 43, 2, 45);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2, ID_SWITCH, 0);
	set_pid(43);
	mkt_add(mt, 1, 1 * SEC + SEC / 2 + 1, buf.data, buf.len);
	sched_switch(1, 2 * SEC, "cat", 44, 0x100, 43);
	cookie_from(1, 2 * SEC + 1, 44, ck);
	sched_switch(1, 2 * SEC + SEC / 4, "io", 43, 0, 44);
	cookie_from(1, 2 * SEC + SEC / 4 + 1, 43, ck);
	sched_switch(0, 3 * SEC, "swapper/0", 0, 0, 42);
	sched_switch(0, 3 * SEC + SEC / 2, "gone", 46, 1, 0);
	cookie_from(0, 3 * SEC + SEC / 2 + 1, 46, ck);
	write_trace_with(switch_formats);
}

START_TEST(off_cpu_charges_each_interval_to_its_switch_out_stack_and_state)
{
	write_switch_trace();
	run("--off-cpu --folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[D];p9_client_rpc;__schedule 500000000\n"
		"[R+];kthread;schedule;__schedule 250000000\n"
		"[S];kthread;schedule;__schedule 2000000000\n");
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.75 s (2750000000 ns) in 3 intervals, 1 switch-in with no switch-out in the trace, 2 tasks still off the CPU at its end (neither charged)\n"));
	run("--off-cpu --task-root --folded --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"cat;[R+];kthread;schedule;__schedule 250000000\n"
		"io;[D];p9_client_rpc;__schedule 500000000\n"
		"worker;[S];kthread;schedule;__schedule 2000000000\n");
	run("--off-cpu --top 1 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 3 distinct stacks by off-cpu over 3 intervals, 2.75 s (2750000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 72.73% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n");
	/* --pid selects whose switch-outs are charged. */
	run("--off-cpu --folded --pid 43 --no-summary trace.dat");
	ck_assert_str_eq(res.out, "[D];p9_client_rpc;__schedule 500000000\n");
}
END_TEST

/*
 * --off-cpu --top names the tasks of each stack as --top does for events
 * (their intervals all are sched_switch's: no event named), and counts one
 * in the singular.
 */
START_TEST(off_cpu_top_names_the_tasks_of_each_stack)
{
	write_switch_trace();
	run("--off-cpu --top 3 --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 3 of 3 distinct stacks by off-cpu over 3 intervals, 2.75 s (2750000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 72.73% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n"
		"#2 500.0 ms (500000000 ns) 18.18% (1 interval); by <...>-43\n"
		STACK2
		"    => [D]\n"
		"#3 250.0 ms (250000000 ns) 9.09% (1 interval); by <...>-44\n"
		STACK3
		"    => [R+]\n");
	run("--off-cpu --top 1 --pid 42 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 1 distinct stack by off-cpu over 1 interval, 2.00 s (2000000000 ns) in all\n"
		"#1 2.00 s (2000000000 ns) 100.00% (1 interval); by worker-42\n"
		STACK3
		"    => [S]\n");
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.00 s (2000000000 ns) in 1 interval, 1 switch-in with no switch-out in the trace, 0 tasks still off the CPU at its end (neither charged)\n"));
}
END_TEST

/*
 * An off-CPU flame graph gives times as people read them, in its title and
 * in every tooltip, with the exact ns, and counts intervals, not events.
 */
START_TEST(off_cpu_flamegraph_reads_durations_and_counts_intervals)
{
	write_switch_trace();
	run("--off-cpu --flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out,
		">trace.dat (2.75 s, 2750000000 ns)</text>\n"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"all\"><title>all: 2.75 s (2750000000 ns), 100.00%, 3 intervals</title>"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"[S]\"><title>[S]: 2.00 s (2000000000 ns), 72.73%, 1 interval</title>"));
	/* Every frame counts intervals: its tooltip says so. */
	ck_assert_int_eq(count_of(res.out, " interval"),
			 count_of(res.out, "<title>"));
	/* Events keep their count, in the title too. */
	mt = mkt_new(2);
	write_mixed_trace();
	run("--flamegraph - --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out, ">trace.dat (4 events)</text>\n"));
	ck_assert_ptr_nonnull(strstr(res.out,
		"data-n=\"all\"><title>all: 4 events, 100.00%</title>"));
}
END_TEST

/* frames3 and frames2 as the "stack" arrays of --json. */
#define JSON_STACK3 \
	"[{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560}," \
	"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176}," \
	"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]"
#define JSON_STACK2 \
	"[{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560}," \
	"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]"

/*
 * The intervals of write_switch_trace() as they end: io's (D, 1.5 s to 2 s
 * on CPU 1, its fallback stack), cat's (R+, 2 s to 2.25 s), worker's (S,
 * 1 s to 3 s on CPU 0); pid 45's switch-in and the tasks still off print
 * nothing.
 */
START_TEST(off_cpu_json_prints_each_interval_as_it_ends)
{
	write_switch_trace();
	run("--off-cpu --json trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.500000,\"ts\":1500000000,\"cpu\":1,\"pid\":43,\"comm\":\"io\",\"state\":\"D\","
		"\"off_ns\":500000000,\"end_ts\":2000000000,\"end_cpu\":1,\"status\":\"frames\",\"stack\":" JSON_STACK2 "}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":1,\"pid\":44,\"comm\":\"cat\",\"state\":\"R+\","
		"\"off_ns\":250000000,\"end_ts\":2250000000,\"end_cpu\":1,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n"
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"state\":\"S\","
		"\"off_ns\":2000000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
	/* The same summary as the aggregate outputs. */
	ck_assert(strstr(res.err,
		"fgdecode: off-cpu: 2.75 s (2750000000 ns) in 3 intervals, 1 switch-in with no switch-out in the trace, 2 tasks still off the CPU at its end (neither charged)\n"));
	run("--off-cpu --json --pid 42 --no-summary trace.dat");
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":42,\"comm\":\"worker\",\"state\":\"S\","
		"\"off_ns\":2000000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
}
END_TEST

/* A switch-out with no stack, and one whose cookie no definition names. */
START_TEST(off_cpu_json_says_when_the_stack_is_missing)
{
	sched_switch(0, 1 * SEC, "nostack", 50, 1, 0);
	sched_switch(0, 1 * SEC + SEC / 2, "lost", 51, 2, 0);
	cookie_from(0, 1 * SEC + SEC / 2 + 1, 51, stackmap_cookie_make(9, 7));
	sched_switch(0, 2 * SEC, "swapper/0", 0, 0, 50);
	sched_switch(0, 3 * SEC, "swapper/0", 0, 0, 51);
	write_trace_with(switch_formats);
	run("--off-cpu --json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":50,\"comm\":\"nostack\",\"state\":\"S\","
		"\"off_ns\":1000000000,\"end_ts\":2000000000,\"end_cpu\":0,\"status\":\"none\"}\n"
		"{\"time\":1.500000,\"ts\":1500000000,\"cpu\":0,\"pid\":51,\"comm\":\"lost\",\"state\":\"D\","
		"\"off_ns\":1500000000,\"end_ts\":3000000000,\"end_cpu\":0,\"status\":\"unknown\",\"stack\":[]}\n");
}
END_TEST

START_TEST(off_cpu_refuses_other_outputs_and_traces_without_sched_switch)
{
	run("--off-cpu trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --off-cpu sums time per stack or lists intervals: not with the text output (--json for intervals)\n");
	run("--task-root --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--off-cpu --weight n --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	tick(0, 1 * SEC, 1);
	write_trace();
	run("--off-cpu --folded trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --off-cpu: the trace has no sched:sched_switch events (record them, with stacks: -e sched:sched_switch)\n");
}
END_TEST

#define ID_WAKING	316

static const char fmt_waking[] =
	"name: sched_waking\n"
	"ID: 316\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d\", REC->comm, REC->pid\n";

/* @waker wakes @pid at @ts on CPU @cpu. */
static void sched_waking(int cpu, unsigned long long ts, int waker, int pid)
{
	fx_common(&buf, ID_WAKING, waker);
	put_comm("io");
	fx_put(&buf, (unsigned int)pid, 4);
	fx_put(&buf, 120, 4);
	fx_put(&buf, (unsigned int)cpu, 4);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

START_TEST(wakers_join_each_interval_to_the_wakeup_that_ended_it)
{
	static const struct mkt_format formats[] = {
		{ "sched", fmt_switch },
		{ "sched", fmt_waking },
		{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
		{ STACKMAP_SYSTEM, fx_fmt_stack_define },
		{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
		{ NULL, NULL },
	};
	sm_u64 ck = stackmap_cookie_make(9, 1);

	/* io (43) waits in D from 1 s; worker (42) wakes it at 1.5 s. */
	define_owned(0, 1 * SEC - 10, ck, frames3, 3, ID_SWITCH, 0);
	sched_switch(0, 1 * SEC, "io", 43, 2, 42);
	cookie_from(0, 1 * SEC + 1, 43, ck);
	sched_waking(0, 1 * SEC + SEC / 2, 42, 43);
	fx_fallback_owned(&buf, STACKMAP_FALLBACK_FULL, 2, frames2, 2, ID_WAKING, 0);
	mkt_add(mt, 0, 1 * SEC + SEC / 2 + 1, buf.data, buf.len);
	/* cat (44) is preempted at 2 s, back at 2.25 s: nothing woke it. */
	sched_switch(0, 2 * SEC, "cat", 44, 0x100, 43);
	cookie_from(0, 2 * SEC + 1, 44, ck);
	sched_switch(0, 2 * SEC + SEC / 4, "io", 43, 0, 44);
	write_trace_with(formats);
	run("--off-cpu --wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[no wakeup in the trace];--;[R+];kthread;schedule;__schedule 250000000\n"
		"worker;p9_client_rpc;__schedule;--;[D];kthread;schedule;__schedule 1000000000\n");
	ck_assert(strstr(res.err, "fgdecode: off-cpu: 1.25 s (1250000000 ns) in 2 intervals, 1 switch-in with no switch-out in the trace, 1 task still off the CPU at its end (neither charged), 1 ended by a wakeup in the trace, 1 by none\n"));
	/* Per interval: worker and its wakeup's stack, or null. */
	run("--off-cpu --wakers --json --no-summary trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"time\":1.000000,\"ts\":1000000000,\"cpu\":0,\"pid\":43,\"comm\":\"io\",\"state\":\"D\","
		"\"off_ns\":1000000000,\"end_ts\":2000000000,\"end_cpu\":0,"
		"\"waker\":{\"pid\":42,\"comm\":\"worker\",\"status\":\"frames\",\"stack\":" JSON_STACK2 "},"
		"\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n"
		"{\"time\":2.000000,\"ts\":2000000000,\"cpu\":0,\"pid\":44,\"comm\":\"cat\",\"state\":\"R+\","
		"\"off_ns\":250000000,\"end_ts\":2250000000,\"end_cpu\":0,\"waker\":null,"
		"\"status\":\"frames\",\"stack\":" JSON_STACK3 "}\n");
	run("--wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err, "fgdecode: --wakers needs --off-cpu\n");
}
END_TEST

START_TEST(wakers_without_wakeup_events_is_an_error)
{
	write_switch_trace();
	run("--off-cpu --wakers --folded trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: trace.dat: --wakers: the trace has no sched:sched_waking or sched:sched_wakeup events with a pid (attach the module to sched:sched_waking and record it)\n");
}
END_TEST

/* ---- fgdecode diff ---- */

/* new.dat: frames3 under 6 ticks, frames2 (a fallback) under 2. */
static void write_new_trace(void)
{
	sm_u64 ck = stackmap_cookie_make(77, 5);
	char path[128];
	int i;

	mt = mkt_new(1);
	define(0, 1 * SEC - 10, ck, frames3, 3);
	for (i = 0; i < 8; i++) {
		tick(0, (2 + i) * SEC, i);
		if (i < 6)
			cookie(0, (2 + i) * SEC + 1, ck);
		else
			fallback(0, (2 + i) * SEC + 1, STACKMAP_FALLBACK_FULL,
				 frames2, 2, 2);
	}
	snprintf(path, sizeof(path), "%s/new.dat", dir);
	ck_assert_int_eq(mkt_write(mt, path, all_formats, kallsyms, cmdlines), 0);
	mt = NULL;
}

START_TEST(diff_matches_stacks_by_frames_and_sorts_by_change)
{
	write_mixed_trace();
	write_new_trace();
	/* Other cookies, other CPUs: the same stacks by their frames. */
	run("diff --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 4, new 8; 3 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             2              6             +4  tick;kthread;schedule;__schedule\n"
		"             1              0             -1  tick;[stale cookie]\n"
		"             1              2             +1  tick;p9_client_rpc;__schedule\n");
	run("diff --normalize --no-summary trace.dat new.dat");
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 4, new 8 (base normalized to the new total); 2 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             2              0             -2  tick;[stale cookie]\n"
		"             4              6             +2  tick;kthread;schedule;__schedule\n");
	run("diff --folded --merge trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[stale cookie] 1 0\n"
		"kthread;schedule;__schedule 2 6\n"
		"p9_client_rpc;__schedule 1 2\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 3 stacks, 1 only in base, 0 only in new, 2 changed, 0 unchanged; totals 4 -> 8\n"));
	/* One stack on each side (the ticks at 2 s): counted in the singular. */
	run("diff --from 1.5 --to 2.5 trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by events: base 1, new 1; 0 of 1 stack changed\n"
		"          BASE            NEW         CHANGE  STACK\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 1 stack, 0 only in base, 0 only in new, 0 changed, 1 unchanged; totals 1 -> 1\n"));
	run("diff --weight n --top 1 --no-summary trace.dat new.dat");
	/* n: 1 + 2 -> 0 + ... + 5 under frames3. */
	ck_assert_str_eq(res.out,
		"fgdecode: diff by n: base 10, new 28; 3 of 3 stacks changed\n"
		"          BASE            NEW         CHANGE  STACK\n"
		"             3             15            +12  tick;kthread;schedule;__schedule\n");
}
END_TEST

/*
 * new.dat of the off-CPU diff: worker (42) sleeps in S from 1 s to 1.5 s,
 * cat (44) is preempted (R+) from 2 s to 3 s, both on frames3.
 */
static void write_switch_trace_new(void)
{
	sm_u64 ck = stackmap_cookie_make(9, 1);

	mt = mkt_new(1);
	define_owned(0, 1 * SEC - 10, ck, frames3, 3, ID_SWITCH, 0);
	sched_switch(0, 1 * SEC, "worker", 42, 1, 0);
	cookie(0, 1 * SEC + 1, ck);
	sched_switch(0, 1 * SEC + SEC / 2, "swapper/0", 0, 0, 42);
	sched_switch(0, 2 * SEC, "cat", 44, 0x100, 42);
	cookie_from(0, 2 * SEC + 1, 44, ck);
	sched_switch(0, 3 * SEC, "worker", 42, 0, 44);
	snprintf(trace_path, sizeof(trace_path), "%s/new.dat", dir);
	write_trace_with(switch_formats);
}

/*
 * diff --off-cpu: the table and the summary give times as people read
 * them, with the exact ns; --folded keeps ns.
 */
START_TEST(diff_of_off_cpu_time_reads_durations_and_folds_ns)
{
	write_switch_trace();
	write_switch_trace_new();
	run("diff --off-cpu --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: diff by off-cpu (ns): base 2.75 s (2750000000 ns), new 1.50 s (1500000000 ns); 3 of 3 stacks changed\n"
		"                      BASE                        NEW                     CHANGE  STACK\n"
		"    2.00 s (2000000000 ns)    500.0 ms (500000000 ns)    -1.50 s (1500000000 ns)  [S];kthread;schedule;__schedule\n"
		"   250.0 ms (250000000 ns)     1.00 s (1000000000 ns)   +750.0 ms (750000000 ns)  [R+];kthread;schedule;__schedule\n"
		"   500.0 ms (500000000 ns)                0 ns (0 ns)   -500.0 ms (500000000 ns)  [D];p9_client_rpc;__schedule\n");
	run("diff --off-cpu --folded trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"[D];p9_client_rpc;__schedule 500000000 0\n"
		"[R+];kthread;schedule;__schedule 250000000 1000000000\n"
		"[S];kthread;schedule;__schedule 2000000000 500000000\n");
	ck_assert(strstr(res.err,
		"fgdecode: diff: 3 stacks, 1 only in base, 0 only in new, 2 changed, 0 unchanged; totals 2.75 s (2750000000 ns) -> 1.50 s (1500000000 ns)\n"));
	/* The differential flame graph's tooltips, base and change too. */
	run("diff --off-cpu --flamegraph - --no-summary trace.dat new.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.out,
		"<title>all: 1.50 s (1500000000 ns), 100.00% (base 2.75 s (2750000000 ns), -1.25 s (1250000000 ns))</title>"));
}
END_TEST

static void write_file(const char *name, const char *text);

START_TEST(diff_needs_two_traces_of_one_kernel_and_reports_which_one_is_bad)
{
	write_mixed_trace();
	write_new_trace();
	run("diff trace.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert(strstr(res.err, "fgdecode diff: expected two trace.dat files, BASE and NEW\n"));
	run("diff --json trace.dat trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("diff --no-summary trace.dat missing.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert(strstr(res.err, "fgdecode: missing.dat: "));
	/* A NEW that is no trace is refused before BASE is decoded. */
	write_file("listing", "# generation 7 entries 0/16 frames 0/64 bytes 0\n");
	run("diff trace.dat listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: listing: a stack_map listing, not a trace.dat: read it with fgdecode map\n");
	run("diff --weight nope --no-summary trace.dat trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert(strstr(res.err, "event test:tick has no field 'nope'"));
	/* Traces of two kernels: refused, unless --any-kernel. */
	mt = mkt_new(1);
	mkt_set_uname(mt, "Linux guest 6.12.117+deb12-amd64 #1 SMP PREEMPT_DYNAMIC");
	tick(0, 1 * SEC, 1);
	snprintf(trace_path, sizeof(trace_path), "%s/other.dat", dir);
	write_trace();
	run("diff --no-summary new.dat other.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: diff: new.dat was recorded on kernel (not recorded), other.dat on 6.12.117+deb12-amd64: their stacks differ for that alone (--any-kernel to compare them anyway)\n");
	run("diff --any-kernel --no-summary new.dat other.dat");
	ck_assert_int_eq(res.status, 0);
	run("help diff");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "usage: fgdecode diff [options] BASE.dat NEW.dat\n"));
}
END_TEST

/* ---- filters ---- */

START_TEST(filters_select_events_by_cpu_time_name_and_pid)
{
	write_mixed_trace();
	run("--cpu 1 trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(1, "2.000000", 2)
		STACK3
		TICK_LINE(1, "4.000000", 4)
		"    => <stale cookie gen 3232 slot 10356>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 5 events (10 records), 2 cookies, 1 resolved, 1 stale, 0 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 2 matched, 1 without a stack (1 at the end of a CPU's recording)\n");
	run("--no-summary --from 2.000000 --to 3 trace.dat");
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(1, "2.000000", 2)
		STACK3
		TICK_LINE(0, "3.000000", 3)
		STACK2);
	run("--no-summary --folded --event test:tick --cpu 0,1 --pid 42 trace.dat");
	ck_assert_str_eq(res.out,
		"tick;[stale cookie] 1\n"
		"tick;kthread;schedule;__schedule 2\n"
		"tick;p9_client_rpc;__schedule 1\n");
	/* An event the trace does not define, alone or in a list: an error. */
	run("--no-summary --event sched_switch trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	run("--no-summary --event test:tick,sched_switch --cpu 1 --to 2 trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert(strstr(res.err, "--event sched_switch: the trace has no such event"));
	run("--no-summary --event tick,test:tick --cpu 1 --to 2 trace.dat");
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(1, "2.000000", 2)
		STACK3);
	run("--no-summary --event other:tick,tic trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert(strstr(res.err, "--event other:tick: the trace has no such event"));
	run("--no-summary --pid 43 --json trace.dat");
	ck_assert_str_eq(res.out, "");
}
END_TEST

/* ---- options ---- */

START_TEST(options_help_version_and_usage_errors)
{
	run("--help");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "usage: fgdecode [options] trace.dat\n"));
	run("-h");
	ck_assert_int_eq(res.status, 0);
	run("--version");
	ck_assert_int_eq(res.status, 0);
	ck_assert(!strncmp(res.out, "fgdecode ", 9));
	/* Every command is named, help included. */
	run("--help");
	ck_assert(strstr(res.out, "fgdecode diff [options] BASE.dat NEW.dat"));
	ck_assert(strstr(res.out, "fgdecode map [options] [LISTING]"));
	ck_assert(strstr(res.out, "fgdecode help [report|map|diff]"));
	/* A usage error: what it was and a pointer to the help, not the help. */
	run("--bogus x.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: unrecognized option '--bogus'\n"
		"Try 'fgdecode --help' for more information.\n");
	run("%s", "");
	ck_assert_int_eq(res.status, 2);
	run("a.dat b.dat");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.err,
		"fgdecode: expected one trace.dat file\n"
		"Try 'fgdecode --help' for more information.\n");
	run("diff --bogus a b");
	ck_assert_int_eq(res.status, 2);
	ck_assert(strstr(res.err, "Try 'fgdecode diff --help' for more information.\n"));
	/* help: of each command; an unknown one is an error. */
	run("help map");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "fgdecode map"));
	run("help nope");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode help: no command 'nope' (commands: report, map, diff, help)\n");
}
END_TEST


/* ---- map snapshot stored in the trace ---- */

/* Write @text to @name in the test directory. */
static void write_file(const char *name, const char *text)
{
	char path[192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) < 0, 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* Run a shell command in the test directory; its exit status. */
__attribute__((format(printf, 1, 2)))
static int shell(const char *fmt, ...)
{
	char args[1024], cmd[1200];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", dir, args);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* A listing of generation 7: slot 3 holds frames3, slot 4 frames2. */
static const char listing7[] =
	"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n"
	"slot 3 generation 7 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffff83252e2a schedule+0x5a/0xd0\n"
	" 0xffffffff828cd41a kthread+0xda/0x100\n"
	"slot 4 generation 7 hits 5 depth 2 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffffc03e3cca p9_client_rpc+0x14a/0x430 [9pnet]\n";

/* The same stacks under generation 9. */
static const char listing7_other_gen[] =
	"# generation 9 entries 1/16384 frames 3/262144 bytes 4096\n"
	"slot 3 generation 9 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffff83252e2a schedule+0x5a/0xd0\n"
	" 0xffffffff828cd41a kthread+0xda/0x100\n";

/* Slot 3 of generation 7 owned by test:tock. */
static const char listing7_tock[] =
	"# generation 7 entries 1/16384 frames 1/262144 bytes 4096\n"
	"slot 3 generation 7 hits 12 depth 1 owner 901 test:tock flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n";

/*
 * Write trace.dat in a shape trace-cmd 3.1.6 convert accepts (it fails on
 * mktrace files without a buffer instance): an empty instance is added.
 */
static void write_v7_trace(void)
{
	mkt_add_buffer(mt, "inst");
	write_trace_with(kstack_formats);
}

/*
 * trace.dat -> snap.dat: the trace as version 7 with @listing stored as its
 * map snapshot.
 */
static void store_snapshot(const char *listing)
{
	write_file("listing", listing);
	ck_assert_int_eq(shell("trace-cmd convert --file-version 7 -i trace.dat -o snap.dat >/dev/null 2>&1"), 0);
	ck_assert_int_eq(shell("'%s' write snap.dat listing >/dev/null", snaptool), 0);
}

START_TEST(snapshot_resolves_cookies_without_a_definition)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	tick(0, 2 * SEC, 2);
	/* Defined in the trace with frames3: the definition wins. */
	cookie(0, 2 * SEC + 10, stackmap_cookie_make(7, 4));
	tick(0, 3 * SEC, 3);
	cookie(0, 3 * SEC + 10, stackmap_cookie_make(6, 3));
	tick(0, 4 * SEC, 4);
	cookie(0, 4 * SEC + 10, stackmap_cookie_make(7, 9));
	write_v7_trace();
	store_snapshot(listing7);
	run("snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		STACK3
		TICK_LINE(0, "3.000000", 3)
		"    => <stale cookie gen 6 slot 3>\n"
		TICK_LINE(0, "4.000000", 4)
		"    => <unknown cookie gen 7 slot 9>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (9 records), 4 cookies, 2 resolved, 1 stale, 1 unknown, 0 fallback stacks, 1 definition (1 distinct stack), 1 from snapshot\n");
	/* Without the snapshot, the same trace cannot resolve (7, 3). */
	run("trace.dat");
	ck_assert(strstr(res.out, "<unknown cookie gen 7 slot 3>"));
	ck_assert_str_eq(res.err,
		"fgdecode: 4 events (9 records), 4 cookies, 1 resolved, 0 stale, 3 unknown, 0 fallback stacks, 1 definition (1 distinct stack)\n");
}
END_TEST

/*
 * --perf-script names a task's process (PID/TID) when the trace stores its
 * tgid (stackmap-snapshot tgids, as the front end does), its tid alone
 * otherwise; a malformed tgids option is refused where it is written.
 */
START_TEST(perf_script_names_the_process_from_stored_tgids)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 4));
	write_v7_trace();
	store_snapshot(listing7);
	write_file("tgids", "42 40\n7 7\n");
	ck_assert_int_eq(shell("'%s' tgids snap.dat tgids >/dev/null", snaptool), 0);
	run("--perf-script --no-summary snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"worker      40/42      [000]     1.000000: test:tick: n=1\n"
		PERF_STACK3 "\n");
	ck_assert_str_eq(res.err, "");
	/* The same trace without the option: the tid alone. */
	run("--perf-script --no-summary trace.dat");
	ck_assert_str_eq(res.out, PERF_TICK("0", "1", "1") PERF_STACK3 "\n");
	write_file("bad", "42 forty\n");
	ck_assert_int_ne(shell("'%s' tgids snap.dat bad 2>err.txt", snaptool), 0);
	ck_assert_int_eq(shell("grep -q 'bad: line 1: not \"PID TGID\"' err.txt"), 0);
}
END_TEST

/* --stack-map: one more source, after definitions and snapshot. */
START_TEST(stack_map_option_resolves_its_generation_only)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	tick(0, 2 * SEC, 2);
	cookie(0, 2 * SEC + 10, stackmap_cookie_make(8, 4));
	write_trace();
	write_file("listing", listing7);
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		STACK3
		TICK_LINE(0, "2.000000", 2)
		"    => <stale cookie gen 8 slot 4>\n");
	ck_assert_str_eq(res.err,
		"fgdecode: 2 events (4 records), 2 cookies, 1 resolved, 1 stale, 0 unknown, 0 fallback stacks, 0 definitions (0 distinct stacks), 1 from stack map\n");
	/* A listing of another generation resolves nothing. */
	write_file("listing", listing7_other_gen);
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <stale cookie gen 7 slot 3>\n"
		TICK_LINE(0, "2.000000", 2)
		"    => <unknown cookie gen 8 slot 4>\n");
	/* Its owner is checked like a definition's (test:tock has no format here). */
	write_file("listing", listing7_tock);
	run("--no-summary --stack-map listing trace.dat");
	ck_assert_ptr_nonnull(strstr(res.out,
		"stack_cookie:         cookie=0x700000003\n"
		"    <orphan stack of event id 901>\n"));
	/* Unreadable or malformed: one line, exit 1. */
	run("--stack-map nonexistent trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map: nonexistent: No such file or directory\n");
	write_file("listing", "# generation 7 entries 1/16384 frames 0/262144 bytes 4096\n"
		   "slot 3 generation 7 hits 12 depth 0\n");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
}
END_TEST

/* listing7 with a map id in its header. */
static void write_listing7_of(const char *map_id)
{
	char text[sizeof(listing7) + 64];
	const char *nl = strchr(listing7, '\n');

	snprintf(text, sizeof(text), "%.*s map_id %s%s", (int)(nl - listing7),
		 listing7, map_id, nl);
	write_file("listing", text);
}

/* A listing of another load of the module: refused even for its generation. */
START_TEST(stack_map_of_another_load_is_refused)
{
	define(0, 1 * SEC - 10, stackmap_cookie_make(7, 4), frames3, 3);
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	write_trace();
	write_listing7_of("0x0000000000000bad");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err,
		"fgdecode: --stack-map listing: map id 0x0000000000000bad is not the trace's (0x5eed5eed0000f00d): the map of another load of the stackmap module\n");
	/* The trace's own map: used. */
	write_listing7_of("0x5eed5eed0000f00d");
	run("--stack-map listing trace.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert_ptr_nonnull(strstr(res.err, ", 1 from stack map\n"));
}
END_TEST

START_TEST(snapshot_never_resolves_another_generation)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(8, 3));
	write_v7_trace();
	store_snapshot(listing7);
	run("--strict snap.dat");
	ck_assert_int_eq(res.status, 3);
	ck_assert_str_eq(res.out,
		"cpus=2\n"
		TICK_LINE(0, "1.000000", 1)
		"    => <stale cookie gen 8 slot 3>\n");
}
END_TEST

START_TEST(corrupt_snapshot_is_one_warning_and_decoding_goes_on)
{
	tick(0, 1 * SEC, 1);
	cookie(0, 1 * SEC + 10, stackmap_cookie_make(7, 3));
	write_v7_trace();
	store_snapshot(listing7);
	/* Flip one byte of the first entry: the payload's crc fails. */
	ck_assert_int_eq(shell("off=$(grep -boa STKMAPS snap.dat | tail -n1 | cut -d: -f1) && "
			       "printf '\\377' | dd of=snap.dat bs=1 seek=$((off + 40)) conv=notrunc 2>/dev/null"), 0);
	run("snap.dat");
	ck_assert_int_eq(res.status, 0);
	ck_assert(strstr(res.out, "<unknown cookie gen 7 slot 3>"));
	ck_assert_ptr_nonnull(strstr(res.err, "fgdecode: warning: "));
	ck_assert_ptr_nonnull(strstr(res.err, "(map snapshot not used)\n"
		"fgdecode: 1 event (2 records), 1 cookie, 0 resolved, 0 stale, 1 unknown,"));
	/* The warning and the summary, nothing else. */
	ck_assert_int_eq(count_lines(res.err), 2);
}
END_TEST

/* ---- --map: the module's stack_map listing ---- */

/* listing7 and the test kallsyms saved as files, for --map. */
static void write_map_files(void)
{
	write_file("listing", listing7);
	write_file("kallsyms", kallsyms);
}

START_TEST(map_prints_each_stack_with_its_hits_cookie_and_frames)
{
	write_map_files();
	run("--map --kallsyms kallsyms listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 2 stacks, 17 hits\n"
		"hits 12 cookie 0x700000003 gen 7 slot 3 owner test:tick\n"
		STACK3
		"hits 5 cookie 0x700000004 gen 7 slot 4 owner test:tick\n"
		STACK2);
	ck_assert_str_eq(res.err, "");
}
END_TEST

/*
 * Without --kallsyms a saved listing is printed with the names it carries
 * (each frame's %pS: name, offset, size, module), as the kernel wrote them.
 */
START_TEST(map_without_kallsyms_uses_the_names_of_the_listing)
{
	write_map_files();
	run("--map listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 2 stacks, 17 hits\n"
		"hits 12 cookie 0x700000003 gen 7 slot 3 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => schedule+0x5a/0xd0 (ffffffff83252e2a)\n"
		"    => kthread+0xda/0x100 (ffffffff828cd41a)\n"
		"hits 5 cookie 0x700000004 gen 7 slot 4 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => p9_client_rpc+0x14a/0x430 [9pnet] (ffffffffc03e3cca)\n");
	run("--map --folded listing");
	ck_assert_str_eq(res.out,
		"kthread;schedule;__schedule 12\n"
		"p9_client_rpc;__schedule 5\n");
}
END_TEST

/* A listing records no release: --vmlinux is read, not checked against one. */
START_TEST(map_with_a_vmlinux_that_is_no_elf_says_so)
{
	write_map_files();
	write_file("notelf", "not an ELF file\n");
	run("--map --kallsyms kallsyms --vmlinux notelf listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_ptr_nonnull(strstr(res.err, "notelf"));
	ck_assert_int_eq(count_lines(res.err), 1);
}
END_TEST

/* --kallsyms also takes trace-cmd dump --kallsyms's output, and a trace.dat. */
START_TEST(map_kallsyms_from_a_dump_or_a_trace)
{
	char dump[8192], *want;

	write_map_files();
	run("--map --kallsyms kallsyms listing");
	ck_assert_int_eq(res.status, 0);
	want = strdup(res.out);
	ck_assert_ptr_nonnull(want);
	snprintf(dump, sizeof(dump),
		 "\t[Section 19 @ 2907: \"kallsyms\", flags 0x1, 70 bytes]\n"
		 "\t[Kallsyms, 500 bytes]\n%s", kallsyms);
	write_file("dump", dump);
	run("--map --kallsyms dump listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, want);
	write_mixed_trace();
	run("--map --kallsyms trace.dat listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, want);
	free(want);
}
END_TEST

START_TEST(map_top_folded_and_json_count_hits)
{
	write_map_files();
	run("--map --kallsyms kallsyms --top 1 listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"fgdecode: top 1 of 2 stacks over 17 hits, generation 7\n"
		"#1 12 hits 70.59% gen 7 slot 3 owner test:tick\n"
		STACK3);
	run("--map --kallsyms kallsyms --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"kthread;schedule;__schedule 12\n"
		"p9_client_rpc;__schedule 5\n");
	run("--map --kallsyms kallsyms --json listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"{\"gen\":7,\"slot\":3,\"cookie\":\"0x700000003\",\"hits\":12,\"owner\":\"test:tick\",\"owner_id\":900,\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffff83252e2a\",\"symbol\":\"schedule\",\"offset\":90,\"size\":176},"
		"{\"addr\":\"0xffffffff828cd41a\",\"symbol\":\"kthread\",\"offset\":218,\"size\":288}]}\n"
		"{\"gen\":7,\"slot\":4,\"cookie\":\"0x700000004\",\"hits\":5,\"owner\":\"test:tick\",\"owner_id\":900,\"stack\":["
		"{\"addr\":\"0xffffffff832528c8\",\"symbol\":\"__schedule\",\"offset\":1272,\"size\":2560},"
		"{\"addr\":\"0xffffffffc03e3cca\",\"symbol\":\"p9_client_rpc\",\"offset\":330,\"size\":1152,\"module\":\"9pnet\"}]}\n");
}
END_TEST

START_TEST(map_folded_sums_slots_that_fold_alike)
{
	write_file("listing",
		"# generation 2 entries 2/16 frames 2/64 bytes 100\n"
		"slot 1 generation 2 hits 3 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
		"slot 2 generation 2 hits 4 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528d0 __schedule+0x500/0xa00\n");
	write_file("kallsyms", kallsyms);
	run("--map --kallsyms kallsyms --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "__schedule 7\n");
}
END_TEST

/* Run --map on @text; expect exit 1, no output and the one line @err. */
static void expect_bad_listing(const char *text, const char *err)
{
	write_file("listing", text);
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_str_eq(res.err, err);
}

START_TEST(map_names_owners_and_marks_truncated_stacks)
{
	write_file("listing",
		"# generation 7 entries 1/16384 frames 1/262144 bytes 4096\n"
		"slot 3 generation 7 hits 2 depth 1 owner 0 ? flags 0x1\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	run("--map listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out,
		"# generation 7: 1 stacks, 2 hits\n"
		"hits 2 cookie 0x700000003 gen 7 slot 3 owner ?\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"
		"    => ... [truncated]\n");
	run("--map --folded listing");
	ck_assert_str_eq(res.out, "[truncated];__schedule 2\n");
	run("--map --json listing");
	ck_assert_ptr_nonnull(strstr(res.out,
		"\"owner\":\"?\",\"owner_id\":0,\"truncated\":true,\"stack\":["));
	write_file("listing",
		"# generation 7 entries 1/16384 frames 0/262144 bytes 4096\n"
		"slot 3 generation 7 hits 2 depth 0 owner 5 a\"b flags 0x0\n");
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err,
		"fgdecode: listing:2: owner name: not \"system:event\" or \"?\"\n");
}
END_TEST

START_TEST(map_bad_listings_are_one_line_naming_file_and_line)
{
	static const char hdr[] =
		"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n";
	char text[1024];

	/* Truncated in the middle of a stack. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
		 " 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	expect_bad_listing(text,
		"fgdecode: listing:3: frame 1 of slot 3: listing truncated\n");
	/* A frame line without an entry line. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 " 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
	/* A hit count above 2^32-1. */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 4294967296 depth 0 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: entry: expected \"slot S generation G hits H depth D owner O NAME flags 0xF\"\n");
	/* The generation changed while the listing was read (a reset). */
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 8 hits 1 depth 0 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text,
		"fgdecode: listing:2: generation: 8, header says 7\n");
	/* No header, an empty file, a deeper stack than the module keeps. */
	expect_bad_listing("slot 3 generation 7 hits 1 depth 0 owner 900 test:tick flags 0x0\n",
		"fgdecode: listing:1: header: expected \"# generation G entries U/C frames U/C bytes B [map_id 0xID]\"\n");
	expect_bad_listing("", "fgdecode: listing: empty listing\n");
	snprintf(text, sizeof(text), "%s%s", hdr,
		 "slot 3 generation 7 hits 1 depth 65 owner 900 test:tick flags 0x0\n");
	expect_bad_listing(text, "fgdecode: listing:2: depth: 65 exceeds 64\n");
	/* A NUL byte is not text. */
	snprintf(text, sizeof(text), "%s%s", hdr, "slot 3 generation 7 hits 1 depth 0 owner 900 test:tick flags 0x0\n");
	write_file("listing", text);
	ck_assert_int_eq(shell("printf 'slot\\000 4' >> listing"), 0);
	run("--map listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.out, "");
	ck_assert_int_eq(count_lines(res.err), 1);
}
END_TEST

START_TEST(map_listing_cut_at_an_entry_boundary_is_marked)
{
	/* The header announces two entries; one is listed. */
	write_file("listing",
		"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n");
	run("--map --folded listing");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.out, "__schedule 12\n");
	ck_assert_str_eq(res.err,
		"fgdecode: warning: listing: header says 2 entries, 1 listed (truncated?)\n");
}
END_TEST

START_TEST(map_missing_listing_or_kallsyms_is_one_line_and_exit_1)
{
	run("--map nosuch");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, "fgdecode: nosuch: No such file or directory\n");
	write_map_files();
	run("--map --kallsyms nosuch listing");
	ck_assert_int_eq(res.status, 1);
	ck_assert_str_eq(res.err, "fgdecode: nosuch: No such file or directory\n");
}
END_TEST

START_TEST(map_options_reject_trace_only_and_misplaced_ones)
{
	write_map_files();
	run("--map --cookies listing");
	ck_assert_int_eq(res.status, 2);
	run("--map --pid 1 listing");
	ck_assert_int_eq(res.status, 2);
	run("--map a b");
	ck_assert_int_eq(res.status, 2);
	run("--interval 1 trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--kallsyms kallsyms trace.dat");
	ck_assert_int_eq(res.status, 2);
	run("--map --count 2 listing");
	ck_assert_int_eq(res.status, 2);
	run("--map --interval 0 listing");
	ck_assert_int_eq(res.status, 2);
	run("--map --interval 1 --json listing");
	ck_assert_int_eq(res.status, 2);
	ck_assert_str_eq(res.out, "");
}
END_TEST

/*
 * --interval 1 on a file replaced (atomically, by rename) half-way between
 * the reads: read 1 sees l1, read 2 l2, read 3 l3 with 0.5 s of margin.
 */
START_TEST(map_interval_prints_rates_of_changed_stacks_and_reports_resets)
{
	write_file("l1",
		"# generation 7 entries 2/16 frames 5/64 bytes 100\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n"
		"slot 4 generation 7 hits 5 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffffc03e3cca x\n");
	write_file("l2",
		"# generation 7 entries 2/16 frames 5/64 bytes 100\n"
		"slot 3 generation 7 hits 12 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n"
		"slot 4 generation 7 hits 9 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffffc03e3cca x\n");
	write_file("l3",
		"# generation 8 entries 1/16 frames 1/64 bytes 100\n"
		"slot 3 generation 8 hits 2 depth 1 owner 900 test:tick flags 0x0\n"
		" 0xffffffff832528c8 x\n");
	write_file("kallsyms", kallsyms);
	ck_assert_int_eq(shell("cp l1 map"), 0);
	ck_assert_int_eq(shell("{ sleep 0.5; cp l2 m.tmp && mv m.tmp map; sleep 1; cp l3 m.tmp && mv m.tmp map; } >/dev/null 2>&1 &"), 0);
	run("--map --kallsyms kallsyms --interval 1 --count 2 map");
	ck_assert_int_eq(res.status, 0);
	ck_assert_str_eq(res.err, "");
	ck_assert_ptr_nonnull(strstr(res.out, ", generation 7, 1 stack changed, 4 hits\n#1 "));
	ck_assert_ptr_nonnull(strstr(res.out, " hits/s (4 hits) gen 7 slot 4 owner test:tick\n"
		"    => p9_client_rpc+0x14a/0x480 [9pnet] (ffffffffc03e3cca)\n"
		"fgdecode: map reset: generation 7 -> 8 (hits counted from 0)\n"
		"fgdecode: interval 2: "));
	ck_assert_ptr_nonnull(strstr(res.out, ", generation 8, 1 stack changed, 2 hits\n#1 "));
	ck_assert_ptr_nonnull(strstr(res.out, " hits/s (2 hits) gen 8 slot 3 owner test:tick\n"
		"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n"));
	/* No negative count, whatever the reset did. */
	ck_assert_ptr_null(strstr(res.out, "#1 -"));
	ck_assert_ptr_null(strstr(res.out, "(-"));
	ck_assert_int_eq(count_lines(res.out), 7);
}
END_TEST

static Suite *fgdecode_suite(void)
{
	Suite *s = suite_create("fgdecode");
	TCase *attach = tcase_create("attach");
	TCase *unresolved = tcase_create("unresolved");
	TCase *bad = tcase_create("bad input");
	TCase *opts = tcase_create("options");
	TCase *sources = tcase_create("stack sources");
	TCase *outputs = tcase_create("outputs and filters");
	TCase *snapshot = tcase_create("map snapshot");
	TCase *map = tcase_create("stack_map listing");

	tcase_add_checked_fixture(attach, setup, teardown);
	tcase_set_timeout(attach, 60);
	tcase_add_test(attach, trace_without_stackmap_events_prints_like_report);
	tcase_add_test(attach, event_lines_equal_trace_cmd_report_byte_for_byte);
	tcase_add_test(attach, cookie_stack_is_printed_under_its_event);
	tcase_add_test(attach, show_defines_prints_the_definition_after_the_stack);
	tcase_add_test(attach, cookies_option_heads_each_stack_with_its_cookie_or_fallback_reason);
	tcase_add_test(attach, definition_written_later_on_another_cpu_resolves);
	tcase_add_test(attach, stack_attaches_to_the_event_of_its_own_cpu);
	tcase_add_test(attach, cookie_without_preceding_event_gets_its_own_line);
	tcase_add_test(attach, fallback_stack_is_printed_under_its_event);
	tcase_add_test(attach, lost_events_keep_a_cookie_off_the_previous_event);
	tcase_add_test(attach, lost_events_before_a_hidden_definition_are_still_reported);
	tcase_add_test(attach, cookie_of_another_owner_is_an_orphan_not_the_events_stack);
	tcase_add_test(attach, orphan_of_an_event_without_a_format_names_its_id);
	tcase_add_test(attach, lookahead_passes_nested_interrupts_to_the_events_own_stack);
	tcase_add_test(attach, stackless_events_are_counted_and_the_cut_one_marked);
	tcase_add_test(attach, lookahead_passes_an_other_event_of_the_same_context);
	tcase_add_test(attach, cookie_after_a_refused_one_is_never_the_events_stack);
	tcase_add_test(attach, cookie_of_another_task_is_never_the_events_stack);
	tcase_add_test(attach, task_preempted_before_its_stack_keeps_its_stack);
	tcase_add_test(attach, truncated_stack_is_marked_in_every_output);
	tcase_add_test(attach, trace_of_stackmap_0_1_attaches_stacks_unverified);
	suite_add_tcase(s, attach);

	tcase_add_checked_fixture(unresolved, setup, teardown);
	tcase_set_timeout(unresolved, 60);
	tcase_add_test(unresolved, stale_and_unknown_cookies_print_markers_never_a_stack);
	tcase_add_test(unresolved, conflicting_definitions_are_reported_and_not_used);
	suite_add_tcase(s, unresolved);

	tcase_add_checked_fixture(bad, setup, teardown);
	tcase_set_timeout(bad, 120);
	tcase_add_test(bad, corrupt_definition_is_counted_and_its_cookie_unknown);
	tcase_add_test(bad, corrupt_fallback_prints_a_corrupt_marker);
	tcase_add_test(bad, stackmap_event_without_a_field_is_an_error);
	tcase_add_test(bad, missing_file_is_one_line_and_exit_1);
	tcase_add_test(bad, file_that_is_not_a_trace_is_one_line_and_exit_1);
	tcase_add_test(bad, truncated_trace_does_not_crash);
	tcase_add_test(bad, v6_trace_cut_inside_its_data_decodes_the_whole_pages);
	tcase_add_test(bad, v7_trace_cut_after_its_data_decodes_the_same);
	suite_add_tcase(s, bad);

	tcase_add_checked_fixture(sources, setup, teardown);
	tcase_set_timeout(sources, 60);
	tcase_add_test(sources, kernel_stack_is_printed_under_its_event);
	tcase_add_test(sources, one_stack_under_alternating_events_counts_each_pair);
	tcase_add_test(sources, instances_merge_in_time_order_and_keep_their_own_stacks);
	tcase_add_test(sources, v7_file_from_trace_cmd_convert_decodes_the_same);
	suite_add_tcase(s, sources);

	tcase_add_checked_fixture(outputs, setup, teardown);
	tcase_set_timeout(outputs, 60);
	tcase_add_test(outputs, strict_exits_3_on_stale_or_unknown_cookies_only);
	tcase_add_test(outputs, folded_prints_root_first_per_event_sorted_with_counts);
	tcase_add_test(outputs, perf_script_prints_each_event_with_its_callchain);
	tcase_add_test(outputs, top_prints_the_hottest_stacks_with_counts_and_percentages);
	tcase_add_test(outputs, top_names_the_tasks_of_each_stack);
	tcase_add_test(outputs, flamegraph_merges_tens_of_thousands_of_narrow_stacks);
	tcase_add_test(outputs, json_prints_one_object_per_event);
	tcase_add_test(outputs, output_options_reject_bad_combinations);
	tcase_add_test(outputs, filters_select_events_by_cpu_time_name_and_pid);
	tcase_add_test(outputs, weight_sums_the_field_per_stack_in_every_output);
	tcase_add_test(outputs, weight_of_an_event_without_the_field_is_an_error_naming_it);
	tcase_add_test(outputs, weight_counts_a_negative_value_as_zero_and_says_so);
	tcase_add_test(outputs, off_cpu_charges_each_interval_to_its_switch_out_stack_and_state);
	tcase_add_test(outputs, off_cpu_top_names_the_tasks_of_each_stack);
	tcase_add_test(outputs, off_cpu_flamegraph_reads_durations_and_counts_intervals);
	tcase_add_test(outputs, off_cpu_json_prints_each_interval_as_it_ends);
	tcase_add_test(outputs, off_cpu_json_says_when_the_stack_is_missing);
	tcase_add_test(outputs, off_cpu_refuses_other_outputs_and_traces_without_sched_switch);
	tcase_add_test(outputs, wakers_join_each_interval_to_the_wakeup_that_ended_it);
	tcase_add_test(outputs, wakers_without_wakeup_events_is_an_error);
	tcase_add_test(outputs, diff_matches_stacks_by_frames_and_sorts_by_change);
	tcase_add_test(outputs, diff_needs_two_traces_of_one_kernel_and_reports_which_one_is_bad);
	tcase_add_test(outputs, diff_of_off_cpu_time_reads_durations_and_folds_ns);
	suite_add_tcase(s, outputs);

	tcase_add_checked_fixture(snapshot, setup, teardown);
	tcase_set_timeout(snapshot, 60);
	tcase_add_test(snapshot, snapshot_resolves_cookies_without_a_definition);
	tcase_add_test(snapshot, perf_script_names_the_process_from_stored_tgids);
	tcase_add_test(snapshot, snapshot_never_resolves_another_generation);
	tcase_add_test(snapshot, stack_map_option_resolves_its_generation_only);
	tcase_add_test(snapshot, stack_map_of_another_load_is_refused);
	tcase_add_test(snapshot, corrupt_snapshot_is_one_warning_and_decoding_goes_on);
	suite_add_tcase(s, snapshot);

	tcase_add_checked_fixture(map, setup, teardown);
	tcase_set_timeout(map, 60);
	tcase_add_test(map, map_prints_each_stack_with_its_hits_cookie_and_frames);
	tcase_add_test(map, map_without_kallsyms_uses_the_names_of_the_listing);
	tcase_add_test(map, map_with_a_vmlinux_that_is_no_elf_says_so);
	tcase_add_test(map, map_kallsyms_from_a_dump_or_a_trace);
	tcase_add_test(map, map_top_folded_and_json_count_hits);
	tcase_add_test(map, map_folded_sums_slots_that_fold_alike);
	tcase_add_test(map, map_names_owners_and_marks_truncated_stacks);
	tcase_add_test(map, map_bad_listings_are_one_line_naming_file_and_line);
	tcase_add_test(map, map_listing_cut_at_an_entry_boundary_is_marked);
	tcase_add_test(map, map_missing_listing_or_kallsyms_is_one_line_and_exit_1);
	tcase_add_test(map, map_options_reject_trace_only_and_misplaced_ones);
	tcase_add_test(map, map_interval_prints_rates_of_changed_stacks_and_reports_resets);
	suite_add_tcase(s, map);

	tcase_add_checked_fixture(opts, setup, teardown);
	tcase_set_timeout(opts, 60);
	tcase_add_test(opts, options_help_version_and_usage_errors);
	tcase_add_test(opts, filters_the_trace_cannot_match_are_errors);
	suite_add_tcase(s, opts);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fgdecode_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
