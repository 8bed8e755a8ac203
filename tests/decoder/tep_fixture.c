// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: a tep handle with the stackmap formats (see tep_fixture.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/events.h"
#include "tep_fixture.h"

const char fx_fmt_stack_cookie[] =
	"name: stack_cookie\n"
	"ID: 1361\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"cookie=0x%llx\", REC->cookie\n";

const char fx_fmt_stack_define[] =
	"name: stack_define\n"
	"ID: 1360\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:u16 owner;\toffset:20;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 flags;\toffset:22;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"cookie=0x%llx depth=%u owner=%u flags=0x%x\", REC->cookie, REC->depth, REC->owner, REC->flags\n";

const char fx_fmt_stack_define_01[] =
	"name: stack_define\n"
	"ID: 1360\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 depth;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"cookie=0x%llx depth=%u\", REC->cookie, REC->depth\n";

const char fx_fmt_stack_fallback[] =
	"name: stack_fallback\n"
	"ID: 1359\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:u32 reason;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 depth;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:u16 owner;\toffset:16;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 flags;\toffset:18;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"reason=%u depth=%u owner=%u flags=0x%x\", REC->reason, REC->depth, REC->owner, REC->flags\n";

const char fx_fmt_stack_fallback_01[] =
	"name: stack_fallback\n"
	"ID: 1359\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:u32 reason;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 depth;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc unsigned long[] ips;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"reason=%u depth=%u\", REC->reason, REC->depth\n";

const char fx_fmt_tick[] =
	"name: tick\n"
	"ID: 900\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"n=%d\", REC->n\n";

const char fx_fmt_tock[] =
	"name: tock\n"
	"ID: 901\n"
	"format:\n"
	FX_COMMON_FIELDS
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"n=%d\", REC->n\n";

struct fx_sym {
	const char *name;
	unsigned long long addr;
	const char *mod;
};

static const struct fx_sym syms64[] = {
	{ "kthread", FX_KTHREAD_START, NULL },
	{ "kthread_end", FX_KTHREAD_START + 0x120, NULL },	/* sizes: */
	{ "__schedule", FX___SCHEDULE_START, NULL },		/* 0xa00 */
	{ "schedule", FX_SCHEDULE_START, NULL },
	{ "schedule_end", FX_SCHEDULE_START + 0xb0, NULL },	/* 0xb0 */
	{ "p9_client_rpc", FX_P9_RPC_START, "9pnet" },		/* 0x480 */
	{ "fx_last", FX_LAST_START, NULL },
	{ NULL, 0, NULL },
};

static const struct fx_sym syms32[] = {
	{ "__schedule", FX32___SCHEDULE_START, NULL },
	{ "schedule", FX32_SCHEDULE_START, NULL },
	/*
	 * libtraceevent 1.7.1 matches an address past the last symbol only
	 * when it is exactly that symbol's: keep a last symbol after the
	 * ones under test, as the real kallsyms has.
	 */
	{ "fx32_last", 0xc1700000ULL, NULL },
	{ NULL, 0, NULL },
};

static void die(const char *what)
{
	fprintf(stderr, "tep_fixture: %s\n", what);
	abort();
}

struct tep_event *fx_parse(struct tep_handle *tep, const char *fmt,
			   const char *sys)
{
	struct tep_event *event = NULL;

	if (tep_parse_format(tep, &event, fmt, strlen(fmt), sys))
		return NULL;
	return event;
}

/* Register symbols the way tep_parse_kallsyms() does, one by one. */
static void register_syms(struct tep_handle *tep, const struct fx_sym *syms)
{
	char name[64], mod[64];

	for (; syms->name; syms++) {
		snprintf(name, sizeof(name), "%s", syms->name);
		snprintf(mod, sizeof(mod), "%s", syms->mod ? syms->mod : "");
		if (tep_register_function(tep, name, syms->addr,
					  syms->mod ? mod : NULL))
			die("tep_register_function failed");
	}
}

struct tep_handle *fx_tep_new(int long_size, bool big_endian)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		die("tep_alloc failed");
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN :
				    TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (!fx_parse(tep, fx_fmt_tick, "test") ||
	    !fx_parse(tep, fx_fmt_tock, "test") ||
	    !fx_parse(tep, fx_fmt_stack_fallback, STACKMAP_SYSTEM) ||
	    !fx_parse(tep, fx_fmt_stack_define, STACKMAP_SYSTEM) ||
	    !fx_parse(tep, fx_fmt_stack_cookie, STACKMAP_SYSTEM))
		die("tep_parse_format failed");
	register_syms(tep, long_size == 8 ? syms64 : syms32);
	return tep;
}

void fx_buf_init(struct fx_buf *b, int long_size, bool big_endian)
{
	memset(b, 0, sizeof(*b));
	b->long_size = long_size;
	b->big_endian = big_endian;
}

void fx_put(struct fx_buf *b, unsigned long long val, int size)
{
	int i;

	if (b->len + size > sizeof(b->data))
		die("fx_buf overflow");
	for (i = 0; i < size; i++) {
		int shift = 8 * (b->big_endian ? size - 1 - i : i);

		b->data[b->len++] = (unsigned char)(val >> shift);
	}
}

void fx_common(struct fx_buf *b, int type, int pid)
{
	b->len = 0;
	fx_put(b, type, 2);
	fx_put(b, 0, 1);
	fx_put(b, 0, 1);
	fx_put(b, pid, 4);
}

/* ips[] after a __data_loc word at the current end; @nframes elements. */
static void put_ips(struct fx_buf *b, const sm_u64 *frames, sm_u32 nframes)
{
	sm_u32 bytes = nframes * b->long_size;
	sm_u32 i;

	fx_put(b, (unsigned long long)bytes << 16 | (b->len + 4), 4);
	for (i = 0; i < nframes; i++)
		fx_put(b, frames[i], b->long_size);
}

void fx_define_owned(struct fx_buf *b, sm_u64 cookie, sm_u32 depth,
		     const sm_u64 *frames, sm_u32 nframes, int owner, int flags)
{
	fx_common(b, FX_ID_DEFINE, 42);
	fx_put(b, cookie, 8);
	fx_put(b, depth, 4);
	if (owner >= 0) {
		fx_put(b, owner, 2);
		fx_put(b, flags, 2);
	}
	put_ips(b, frames, nframes);
}

void fx_define(struct fx_buf *b, sm_u64 cookie, sm_u32 depth,
	       const sm_u64 *frames, sm_u32 nframes)
{
	fx_define_owned(b, cookie, depth, frames, nframes, FX_ID_TICK, 0);
}

void fx_fallback_owned(struct fx_buf *b, sm_u32 reason, sm_u32 depth,
		       const sm_u64 *frames, sm_u32 nframes, int owner,
		       int flags)
{
	fx_common(b, FX_ID_FALLBACK, 42);
	fx_put(b, reason, 4);
	fx_put(b, depth, 4);
	if (owner >= 0) {
		fx_put(b, owner, 2);
		fx_put(b, flags, 2);
	}
	put_ips(b, frames, nframes);
}

void fx_fallback(struct fx_buf *b, sm_u32 reason, sm_u32 depth,
		 const sm_u64 *frames, sm_u32 nframes)
{
	fx_fallback_owned(b, reason, depth, frames, nframes, FX_ID_TICK, 0);
}

void fx_set_flags(struct fx_buf *b, int common_flags)
{
	b->data[2] = (unsigned char)common_flags;
}

void fx_cookie(struct fx_buf *b, sm_u64 cookie)
{
	fx_common(b, FX_ID_COOKIE, 42);
	fx_put(b, cookie, 8);
}

void fx_tick(struct fx_buf *b, int n)
{
	fx_common(b, FX_ID_TICK, 42);
	fx_put(b, (unsigned int)n, 4);
}

void fx_tock(struct fx_buf *b, int n)
{
	fx_common(b, FX_ID_TOCK, 42);
	fx_put(b, (unsigned int)n, 4);
}

struct tep_record fx_record(struct fx_buf *b, int cpu, unsigned long long ts)
{
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.data = b->data;
	rec.size = (int)b->len;
	rec.record_size = rec.size;
	rec.cpu = cpu;
	rec.ts = ts;
	rec.ref_count = 1;
	return rec;
}
