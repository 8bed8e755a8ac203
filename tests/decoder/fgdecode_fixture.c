// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of test_fgdecode's test cases (fgdecode_fixture.h): the test
 * directory, running fgdecode, the trace writers shared by several cases.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fgdecode_fixture.h"

#ifndef FGDECODE
#define FGDECODE "fgdecode_san"
#endif
/* record/stackmap-snapshot, rebuilt here: stores a listing in a trace.dat. */
#define SNAPSHOT_TOOL "stackmap-snapshot"

char dir[64];
static char fgdecode[4096];		/* absolute path of FGDECODE */
char snaptool[4096];			/* absolute path of SNAPSHOT_TOOL */
char trace_path[128];
struct mktrace *mt;
struct fx_buf buf;

struct result res;

const char kallsyms[] =
	"ffffffff828cd340 T kthread\n"
	"ffffffff828cd460 T kthread_end\n"
	"ffffffff832523d0 T __schedule\n"
	"ffffffff83252dd0 T schedule\n"
	"ffffffff83252e80 T schedule_end\n"
	"ffffffffc03e3b80 t p9_client_rpc\t[9pnet]\n"
	"ffffffffc03e4000 t fx_last\t[9pnet]\n";

const char cmdlines[] = "42 worker\n";

const struct mkt_format all_formats[] = {
	{ "test", fx_fmt_tick },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

const sm_u64 frames3[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_SCHEDULE_START + 0x5a,
	FX_KTHREAD_START + 0xda,
};

const sm_u64 frames2[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_P9_RPC_START + 0x14a,
};

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

char *slurp(const char *path)
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
void run(const char *fmt, ...)
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

void write_trace_with(const struct mkt_format *formats)
{
	ck_assert_int_eq(mkt_write(mt, trace_path, formats, kallsyms, cmdlines),
			 0);
	mt = NULL;
}

void write_trace(void)
{
	write_trace_with(all_formats);
}

void tick(int cpu, unsigned long long ts, int n)
{
	fx_tick(&buf, n);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

void define(int cpu, unsigned long long ts, sm_u64 cookie,
	    const sm_u64 *frames, sm_u32 depth)
{
	fx_define(&buf, cookie, depth, frames, depth);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

void cookie(int cpu, unsigned long long ts, sm_u64 ck)
{
	fx_cookie(&buf, ck);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

void fallback(int cpu, unsigned long long ts, sm_u32 reason,
	      const sm_u64 *frames, sm_u32 depth, sm_u32 nframes)
{
	fx_fallback(&buf, reason, depth, frames, nframes);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* Set the common_pid of the record in buf (fx_common() wrote 42). */
void set_pid(int pid)
{
	buf.data[4] = pid & 0xff;
	buf.data[5] = (pid >> 8) & 0xff;
	buf.data[6] = (pid >> 16) & 0xff;
	buf.data[7] = (pid >> 24) & 0xff;
}

/* A stack_cookie from @pid: the task of the event it belongs to. */
void cookie_from(int cpu, unsigned long long ts, int pid, sm_u64 ck)
{
	fx_cookie(&buf, ck);
	set_pid(pid);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* A tick from @pid (no saved comm unless listed in cmdlines). */
void tick_from(int cpu, unsigned long long ts, int pid, int n)
{
	fx_tick(&buf, n);
	set_pid(pid);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* A test:tock in context @ctx (common_flags, FX_CTX_*). */
void tock_in(int cpu, unsigned long long ts, int n, int ctx)
{
	fx_tock(&buf, n);
	fx_set_flags(&buf, ctx);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

/* A stack_define of @ck owned by event id @owner, with @flags. */
void define_owned(int cpu, unsigned long long ts, sm_u64 ck,
		  const sm_u64 *frames, sm_u32 depth, int owner, int flags)
{
	fx_define_owned(&buf, ck, depth, frames, depth, owner, flags);
	mkt_add(mt, cpu, ts, buf.data, buf.len);
}

const char fmt_kernel_stack[] =
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

const struct mkt_format kstack_formats[] = {
	{ "test", fx_fmt_tick },
	{ "ftrace", fmt_kernel_stack },
	{ STACKMAP_SYSTEM, fx_fmt_stack_fallback },
	{ STACKMAP_SYSTEM, fx_fmt_stack_define },
	{ STACKMAP_SYSTEM, fx_fmt_stack_cookie },
	{ NULL, NULL },
};

/* ticks 1, 2 with frames3, 3 with frames2, 4 stale, 5 without a stack (the last record of CPU 0). */
void write_mixed_trace(void)
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

/* Occurrences of @needle in @hay. */
int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* sched:sched_switch as 6.1 records it. */
const char fmt_switch[] =
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

void put_comm(const char *comm)
{
	char c[16] = { 0 };

	strncpy(c, comm, sizeof(c) - 1);
	memcpy(buf.data + buf.len, c, sizeof(c));
	buf.len += sizeof(c);
}

/* @prev (comm @comm, state @state) leaves CPU @cpu at @ts for @next. */
void sched_switch(int cpu, unsigned long long ts, const char *comm,
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

const struct mkt_format switch_formats[] = {
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
void write_switch_trace(void)
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

/* Write @text to @name in the test directory. */
void write_file(const char *name, const char *text)
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
int shell(const char *fmt, ...)
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

int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* A listing of generation 7: slot 3 holds frames3, slot 4 frames2. */
const char listing7[] =
	"# generation 7 entries 2/16384 frames 5/262144 bytes 4096\n"
	"slot 3 generation 7 hits 12 depth 3 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffff83252e2a schedule+0x5a/0xd0\n"
	" 0xffffffff828cd41a kthread+0xda/0x100\n"
	"slot 4 generation 7 hits 5 depth 2 owner 900 test:tick flags 0x0\n"
	" 0xffffffff832528c8 __schedule+0x4f8/0xa00\n"
	" 0xffffffffc03e3cca p9_client_rpc+0x14a/0x430 [9pnet]\n";

/* listing7 with a map id in its header. */
void write_listing7_of(const char *map_id)
{
	char text[sizeof(listing7) + 64];
	const char *nl = strchr(listing7, '\n');

	snprintf(text, sizeof(text), "%.*s map_id %s%s", (int)(nl - listing7),
		 listing7, map_id, nl);
	write_file("listing", text);
}

/* A test case of fgdecode: each test in a directory of its own. */
TCase *fgd_tcase(const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, timeout);
	return tc;
}
