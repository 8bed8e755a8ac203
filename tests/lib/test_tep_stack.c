// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/tep_stack.c: reading the stackmap events out
 * of records parsed with the kernel's own format text, and printing stacks.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/cookie.h"
#include "stackmap/frames.h"
#include "tep_stack.h"
#include "tep_fixture.h"

static struct tep_handle *tep;
static struct trace_seq seq;
static struct fx_buf buf;

static void setup(void)
{
	tep = fx_tep_new(8, false);
	fx_buf_init(&buf, 8, false);
	trace_seq_init(&seq);
}

static void teardown(void)
{
	trace_seq_destroy(&seq);
	tep_free(tep);
}

static const char *seq_text(void)
{
	trace_seq_terminate(&seq);
	return seq.buffer;
}

static struct tepstack_fields fields_of(struct tep_handle *t, const char *name)
{
	struct tep_event *event = tep_find_event_by_name(t, STACKMAP_SYSTEM, name);
	struct tepstack_fields f;
	struct sm_err err;

	ck_assert_ptr_nonnull(event);
	ck_assert_int_eq(tepstack_fields_init(&f, event, &err), 0);
	return f;
}

static const sm_u64 frames3[] = {
	FX___SCHEDULE_START + 0x4f8,
	FX_SCHEDULE_START + 0x5a,
	FX_KTHREAD_START + 0xda,
};

/* ---- field lookup ---- */

START_TEST(fields_of_each_event_are_found)
{
	struct tepstack_fields f;

	f = fields_of(tep, STACKMAP_EVENT_COOKIE);
	ck_assert_int_eq(f.kind, TEPSTACK_COOKIE);
	ck_assert_ptr_nonnull(f.cookie);
	ck_assert_ptr_null(f.ips);
	f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	ck_assert_int_eq(f.kind, TEPSTACK_DEFINE);
	ck_assert_ptr_nonnull(f.cookie);
	ck_assert_ptr_nonnull(f.depth);
	ck_assert_ptr_nonnull(f.frames);
	ck_assert_ptr_null(f.ips);
	f = fields_of(tep, STACKMAP_EVENT_FALLBACK);
	ck_assert_ptr_nonnull(f.ips);
	ck_assert_ptr_null(f.frames);
	ck_assert_int_eq(f.kind, TEPSTACK_FALLBACK);
	ck_assert_ptr_nonnull(f.reason);
	ck_assert_ptr_null(f.cookie);
}
END_TEST

START_TEST(non_stackmap_event_is_rejected)
{
	struct tep_event *tick = tep_find_event(tep, FX_ID_TICK);
	struct tepstack_fields f;
	struct sm_err err;

	ck_assert_int_eq(tepstack_kind_of(tick), -1);
	ck_assert_int_eq(tepstack_fields_init(&f, tick, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "test:tick: not a stackmap event");
	ck_assert_str_eq(tepstack_event_name(TEPSTACK_DEFINE), "stack_define");
	ck_assert_ptr_null(tepstack_event_name(TEPSTACK_NR_KINDS));
}
END_TEST

/* Parse @fmt alone into a fresh handle and init its fields. */
static int init_alone(const char *fmt, struct sm_err *err)
{
	struct tep_handle *t = tep_alloc();
	struct tepstack_fields f;
	struct tep_event *event;
	int ret;

	tep_set_long_size(t, 8);
	event = fx_parse(t, fmt, STACKMAP_SYSTEM);
	ck_assert_ptr_nonnull(event);
	ret = tepstack_fields_init(&f, event, err);
	tep_free(t);
	return ret;
}

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

START_TEST(missing_field_is_named)
{
	struct sm_err err;

	ck_assert_int_eq(init_alone("name: stack_define\nID: 7\nformat:\n" COMMON
		"\tfield:u64 cookie;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 depth;\toffset:16;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"cookie=0x%llx\", REC->cookie\n", &err), -ENOENT);
	ck_assert_str_eq(err.msg, "stack_define: no field 'ips'");
	ck_assert_int_eq(init_alone("name: stack_cookie\nID: 7\nformat:\n" COMMON
		"\tfield:u64 cokie;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"c=0x%llx\", REC->cokie\n", &err), -ENOENT);
	ck_assert_str_eq(err.msg, "stack_cookie: no field 'cookie'");
}
END_TEST

START_TEST(misshapen_field_is_named)
{
	struct sm_err err;

	ck_assert_int_eq(init_alone("name: stack_cookie\nID: 7\nformat:\n" COMMON
		"\tfield:u32 cookie;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"c=0x%x\", REC->cookie\n", &err), -EPROTO);
	ck_assert_str_eq(err.msg,
		"stack_cookie: field 'cookie' is not an 8-byte number (type 'u32', size 4)");
	ck_assert_int_eq(init_alone("name: stack_fallback\nID: 7\nformat:\n" COMMON
		"\tfield:u32 reason;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 depth;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned long ips[4];\toffset:16;\tsize:32;\tsigned:0;\n\n"
		"print fmt: \"r=%u\", REC->reason\n", &err), -EPROTO);
	ck_assert_str_eq(err.msg,
		"stack_fallback: field 'ips' is not a __data_loc array (type 'unsigned long[4]', size 32)");
}
END_TEST

/* ---- reading ---- */

START_TEST(define_gives_cookie_and_stack)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;
	sm_u64 cookie;

	fx_define(&buf, stackmap_cookie_make(3233, 10356), 3, frames3, 3);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_cookie(&f, &rec, &cookie, &err), 0);
	ck_assert_uint_eq(cookie, 0xca100002874ULL);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_uint_eq(st.depth, 3);
	ck_assert_mem_eq(st.frames, frames3, sizeof(frames3));
	ck_assert_uint_eq(tepstack_read_map_id(&f, &rec), FX_MAP_ID);
	/* Cut before the map id: unknown, not garbage. */
	rec.size = 30;
	ck_assert_uint_eq(tepstack_read_map_id(&f, &rec), 0);
}
END_TEST

/* stackmap 0.1 and 0.2 definitions carry no map id: 0, unknown. */
START_TEST(define_without_map_id_reads_zero)
{
	struct tep_handle *t = tep_alloc();
	struct tepstack_fields f;
	struct tep_record rec;
	struct sm_err err;

	tep_set_long_size(t, 8);
	ck_assert_ptr_nonnull(fx_parse(t, fx_fmt_stack_define_01, STACKMAP_SYSTEM));
	ck_assert_int_eq(tepstack_fields_init(&f, tep_find_event_by_name(t, STACKMAP_SYSTEM,
									 STACKMAP_EVENT_DEFINE),
					      &err), 0);
	ck_assert_ptr_null(f.map_id);
	fx_define_owned(&buf, stackmap_cookie_make(1, 1), 3, frames3, 3, -1, 0);
	rec = fx_record(&buf, 0, 1);
	ck_assert_uint_eq(tepstack_read_map_id(&f, &rec), 0);
	tep_free(t);
}
END_TEST

START_TEST(fallback_gives_reason_and_stack)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_FALLBACK);
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;
	sm_u32 reason;

	fx_fallback(&buf, STACKMAP_FALLBACK_PROBE, 2, frames3, 2);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_reason(&f, &rec, &reason, &err), 0);
	ck_assert_uint_eq(reason, STACKMAP_FALLBACK_PROBE);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_uint_eq(st.depth, 2);
	ck_assert_mem_eq(st.frames, frames3, 2 * sizeof(sm_u64));
}
END_TEST

START_TEST(max_depth_is_accepted)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	sm_u64 frames[STACKMAP_MAX_DEPTH];
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;
	int i;

	for (i = 0; i < STACKMAP_MAX_DEPTH; i++)
		frames[i] = FX_SCHEDULE_START + i;
	fx_define(&buf, stackmap_cookie_make(1, 1), STACKMAP_MAX_DEPTH, frames,
		  STACKMAP_MAX_DEPTH);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_uint_eq(st.depth, STACKMAP_MAX_DEPTH);
	ck_assert_uint_eq(st.frames[63], FX_SCHEDULE_START + 63);
}
END_TEST

START_TEST(depth_over_max_is_rejected)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	sm_u64 frames[STACKMAP_MAX_DEPTH + 1] = { 0 };
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;

	fx_define(&buf, stackmap_cookie_make(1, 1), STACKMAP_MAX_DEPTH + 1,
		  frames, STACKMAP_MAX_DEPTH + 1);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -E2BIG);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'depth' is 65, more than 64 frames");
	fx_define(&buf, stackmap_cookie_make(1, 1), 0xffffffffu, frames, 2);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -E2BIG);
}
END_TEST

START_TEST(array_length_must_match_depth)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_FALLBACK);
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;

	fx_fallback(&buf, 1, 3, frames3, 2);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"stack_fallback: field 'ips' holds 16 bytes, not depth 3 x 8-byte longs");
	fx_fallback(&buf, 1, 1, frames3, 3);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
}
END_TEST

START_TEST(array_outside_the_record_is_rejected)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;

	fx_define(&buf, stackmap_cookie_make(1, 1), 3, frames3, 3);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(rec.size, 36 + 11);	/* frames3 packs into 5 + 2 + 4 bytes */
	rec.size -= 3;		/* the last frame is cut off */
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EFAULT);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'frames' array at 36, 11 bytes, lies outside the 44-byte record");
	rec.size = 18;		/* even depth is cut off */
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EFAULT);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'depth' lies outside the 18-byte record");
}
END_TEST

START_TEST(short_cookie_record_is_rejected)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_COOKIE);
	struct sm_err err;
	struct tep_record rec;
	sm_u64 cookie;

	fx_cookie(&buf, 0x100000001ULL);
	rec = fx_record(&buf, 0, 1);
	rec.size = 12;
	ck_assert_int_eq(tepstack_read_cookie(&f, &rec, &cookie, &err), -EFAULT);
	ck_assert_str_eq(err.msg,
		"stack_cookie: field 'cookie' lies outside the 12-byte record");
	f = fields_of(tep, STACKMAP_EVENT_FALLBACK);
	ck_assert_int_eq(tepstack_read_cookie(&f, &rec, &cookie, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "stack_fallback: no field 'cookie'");
}
END_TEST

START_TEST(thirty_two_bit_trace_reads_4_byte_frames)
{
	struct tep_handle *t32 = fx_tep_new(4, false);
	struct tepstack_fields f = fields_of(t32, STACKMAP_EVENT_DEFINE);
	sm_u64 frames[2] = { FX32___SCHEDULE_START + 0x4f8,
			     FX32_SCHEDULE_START + 0x5a };
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;
	struct fx_buf b;

	fx_buf_init(&b, 4, false);
	fx_define(&b, stackmap_cookie_make(2, 5), 2, frames, 2);
	rec = fx_record(&b, 0, 1);
	/* Zero-extended to 64 bits, packed: 5 bytes, then a 2-byte delta. */
	ck_assert_int_eq(rec.size, 36 + 5 + 2);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_mem_eq(st.frames, frames, sizeof(frames));
	tepstack_print_stack(&seq, t32, st.frames, st.depth, "");
	ck_assert_str_eq(seq_text(),
		"\n=> __schedule+0x4f8/0xa00 (c16528c8)"
		"\n=> schedule+0x5a/0xad230 (c1652e2a)");
	tep_free(t32);
}
END_TEST

/* ---- the packed frames field (include/stackmap/frames.h) ---- */

/* Pack @n addresses, check the size, unpack, compare; returns the size. */
static sm_u32 round_trip(const unsigned long *ips, sm_u32 n)
{
	unsigned char packed[STACKMAP_MAX_DEPTH * STACKMAP_FRAME_MAX_BYTES];
	sm_u64 back[STACKMAP_MAX_DEPTH];
	sm_u32 len, at, i;

	len = stackmap_frames_pack(packed, ips, n);
	ck_assert_uint_eq(len, stackmap_frames_size(ips, n));
	ck_assert_uint_le(len, n * STACKMAP_FRAME_MAX_BYTES);
	ck_assert_int_eq(stackmap_frames_unpack(packed, len, n, back, &at),
			 STACKMAP_FRAMES_OK);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(back[i], ips[i]);
	return len;
}

START_TEST(packed_frames_round_trip)
{
	/* x86-64: kernel text, a module, a BPF program (module area). */
	static const unsigned long x86[] = {
		0xffffffff81a528c8UL, 0xffffffff81a52e2aUL,
		0xffffffffc03e40daUL, 0xffffffffa0012345UL,
		0xffffffff81000000UL,
	};
	/* arm64: the kernel image above the linear map's start. */
	static const unsigned long arm64[] = {
		0xffff800080a528c8UL, 0xffff800080a52e2aUL,
		0xffff80007a001234UL,
	};
	/* Every extreme of the 64-bit difference and of the varint. */
	static const unsigned long edge[] = {
		0, ~0UL, 1UL << 63, 0, (1UL << 63) - 1, 1, 0x7f, 0x80,
	};

	/* 5 bytes for frame 0 (-2 GiB..0 signed), 2-4 for the near ones. */
	ck_assert_uint_eq(round_trip(x86, 1), 5);
	ck_assert_uint_eq(round_trip(x86, 2), 5 + 2);
	/* Jumps between kernel text and modules take 5 each: 5+2+5+5+5. */
	ck_assert_uint_eq(round_trip(x86, 5), 22);
	ck_assert_uint_eq(round_trip(arm64, 1), 7);
	round_trip(arm64, 3);
	/* 0; ~0 is -1 (1 byte); 2^63 - (-1) wraps to a 10-byte varint. */
	ck_assert_uint_eq(round_trip(edge, 2), 2);
	ck_assert_uint_le(round_trip(edge, 8), 8 * STACKMAP_FRAME_MAX_BYTES);
	ck_assert_uint_eq(round_trip(edge, 0), 0);
}
END_TEST

/* A tep whose stack_define is @fmt, and its fields. */
static struct tep_handle *define_tep(const char *fmt, struct tepstack_fields *f)
{
	struct tep_handle *t = tep_alloc();
	struct sm_err err;

	tep_set_long_size(t, 8);
	ck_assert_ptr_nonnull(fx_parse(t, fmt, STACKMAP_SYSTEM));
	ck_assert_int_eq(tepstack_fields_init(f, tep_find_event_by_name(t, STACKMAP_SYSTEM,
									STACKMAP_EVENT_DEFINE),
					      &err), 0);
	return t;
}

/* Modules before the packed frames wrote ips[]: still read. */
START_TEST(define_with_ips_array_reads)
{
	struct tepstack_fields f;
	struct tep_handle *t = define_tep(fx_fmt_stack_define_ips, &f);
	struct tepstack_stack st;
	struct tep_record rec;
	struct sm_err err;

	ck_assert_ptr_nonnull(f.ips);
	ck_assert_ptr_null(f.frames);
	fx_define_ips(&buf, stackmap_cookie_make(1, 1), 3, frames3, 3, FX_ID_TICK, 0);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(rec.size, 36 + 3 * 8);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_uint_eq(st.depth, 3);
	ck_assert_mem_eq(st.frames, frames3, sizeof(frames3));
	ck_assert_uint_eq(tepstack_read_map_id(&f, &rec), FX_MAP_ID);
	tep_free(t);
}
END_TEST

START_TEST(packed_frames_not_matching_depth_are_rejected)
{
	struct tepstack_fields f = fields_of(tep, STACKMAP_EVENT_DEFINE);
	struct tepstack_stack st;
	struct tep_record rec;
	struct sm_err err;
	int i;

	/* depth 3, two frames (5 + 2 bytes): the third would start at 7. */
	fx_define(&buf, stackmap_cookie_make(1, 1), 3, frames3, 2);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'frames' (7 bytes) ends before the end of the frame at byte 7: not depth 3 packed frames");
	/* depth 2, three frames: 4 bytes left over from byte 7. */
	fx_define(&buf, stackmap_cookie_make(1, 1), 2, frames3, 3);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'frames' (11 bytes) holds bytes after its last frame, from byte 7: not depth 2 packed frames");
	/* The last frame's final byte gone: a varint cut in the middle. */
	fx_define(&buf, stackmap_cookie_make(1, 1), 3, frames3, 3);
	buf.data[34] = (unsigned char)(buf.data[34] - 1);	/* __data_loc length 11 -> 10 */
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'frames' (10 bytes) ends before the end of the frame at byte 7: not depth 3 packed frames");
	/* Eleven continuation bytes: more than 64 bits. */
	fx_define(&buf, stackmap_cookie_make(1, 1), 1, frames3, 0);
	buf.len -= 4;
	fx_put(&buf, 11u << 16 | 36, 4);
	for (i = 0; i < 11; i++)
		fx_put(&buf, 0xff, 1);
	rec = fx_record(&buf, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"stack_define: field 'frames' (11 bytes) holds a frame of more than 64 bits at byte 0: not depth 1 packed frames");
}
END_TEST

START_TEST(big_endian_trace_reads_right)
{
	struct tep_handle *tbe = fx_tep_new(8, true);
	struct tepstack_fields f = fields_of(tbe, STACKMAP_EVENT_DEFINE);
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_record rec;
	struct fx_buf b;
	sm_u64 cookie;

	fx_buf_init(&b, 8, true);
	fx_define(&b, stackmap_cookie_make(9, 0x1234), 3, frames3, 3);
	rec = fx_record(&b, 0, 1);
	ck_assert_int_eq(tepstack_read_cookie(&f, &rec, &cookie, &err), 0);
	ck_assert_uint_eq(cookie, stackmap_cookie_make(9, 0x1234));
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_mem_eq(st.frames, frames3, sizeof(frames3));
	ck_assert_uint_eq(tepstack_read_map_id(&f, &rec), FX_MAP_ID);
	tep_free(tbe);
}
END_TEST

START_TEST(rel_loc_array_is_read)
{
	struct tep_handle *t = tep_alloc();
	struct tepstack_fields f;
	struct tepstack_stack st;
	struct sm_err err;
	struct tep_event *event;
	struct tep_record rec;
	struct fx_buf b;

	tep_set_long_size(t, 8);
	event = fx_parse(t, "name: stack_fallback\nID: 7\nformat:\n" COMMON
		"\tfield:u32 reason;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 depth;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:__rel_loc unsigned long[] ips;\toffset:16;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"r=%u\", REC->reason\n", STACKMAP_SYSTEM);
	ck_assert_ptr_nonnull(event);
	ck_assert_int_eq(tepstack_fields_init(&f, event, &err), 0);
	fx_buf_init(&b, 8, false);
	fx_common(&b, 7, 1);
	fx_put(&b, 1, 4);
	fx_put(&b, 2, 4);
	/* __rel_loc: 16 bytes at offset 0 from the end of the loc word. */
	fx_put(&b, 16u << 16, 4);
	fx_put(&b, frames3[0], 8);
	fx_put(&b, frames3[1], 8);
	rec = fx_record(&b, 0, 1);
	ck_assert_int_eq(tepstack_read_stack(&f, &rec, &st, &err), 0);
	ck_assert_mem_eq(st.frames, frames3, 2 * sizeof(sm_u64));
	tep_free(t);
}
END_TEST

/* ---- printing ---- */

START_TEST(frame_prints_symbol_offset_and_address)
{
	tepstack_print_frame(&seq, tep, FX___SCHEDULE_START + 0x4f8);
	ck_assert_str_eq(seq_text(), "=> __schedule+0x4f8/0xa00 (ffffffff832528c8)");
}
END_TEST

START_TEST(frame_at_symbol_start_prints_zero_offset)
{
	tepstack_print_frame(&seq, tep, FX_SCHEDULE_START);
	ck_assert_str_eq(seq_text(), "=> schedule+0x0/0xb0 (ffffffff83252dd0)");
}
END_TEST

START_TEST(frame_in_module_prints_its_symbol)
{
	tepstack_print_frame(&seq, tep, FX_P9_RPC_START + 0x14a);
	ck_assert_str_eq(seq_text(), "=> p9_client_rpc+0x14a/0x480 (ffffffffc03e3cca)");
}
END_TEST

START_TEST(frame_without_symbol_prints_address)
{
	tepstack_print_frame(&seq, tep, 0x1000);
	ck_assert_str_eq(seq_text(), "=> 0x1000");
}
END_TEST

START_TEST(stack_prints_one_indented_line_per_frame)
{
	trace_seq_puts(&seq, "event");
	tepstack_print_stack(&seq, tep, frames3, 3, "    ");
	ck_assert_str_eq(seq_text(),
		"event"
		"\n    => __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n    => schedule+0x5a/0xb0 (ffffffff83252e2a)"
		"\n    => kthread+0xda/0x120 (ffffffff828cd41a)");
}
END_TEST

START_TEST(markers_name_generation_and_slot)
{
	sm_u64 ck = stackmap_cookie_make(3233, 17);

	tepstack_print_marker(&seq, STACKTAB_STALE, ck, "  ");
	tepstack_print_marker(&seq, STACKTAB_UNKNOWN, ck, "");
	tepstack_print_marker(&seq, STACKTAB_CONFLICT, ck, "");
	ck_assert_str_eq(seq_text(),
		"\n  => <stale cookie gen 3233 slot 17>"
		"\n=> <unknown cookie gen 3233 slot 17>"
		"\n=> <conflicting cookie gen 3233 slot 17>");
}
END_TEST

START_TEST(cookie_prints_its_stack_or_a_marker_never_another_stack)
{
	struct stacktab *tab = stacktab_new();

	ck_assert_int_eq(stacktab_define(tab, stackmap_cookie_make(5, 1), 2,
					 frames3), 0);
	ck_assert_int_eq(tepstack_print_cookie(&seq, tep, tab,
			 stackmap_cookie_make(5, 1), ""), STACKTAB_FOUND);
	ck_assert_int_eq(tepstack_print_cookie(&seq, tep, tab,
			 stackmap_cookie_make(4, 1), ""), STACKTAB_STALE);
	ck_assert_int_eq(tepstack_print_cookie(&seq, tep, tab,
			 stackmap_cookie_make(5, 2), ""), STACKTAB_UNKNOWN);
	ck_assert_str_eq(seq_text(),
		"\n=> __schedule+0x4f8/0xa00 (ffffffff832528c8)"
		"\n=> schedule+0x5a/0xb0 (ffffffff83252e2a)"
		"\n=> <stale cookie gen 4 slot 1>"
		"\n=> <unknown cookie gen 5 slot 2>");
	stacktab_free(tab);
}
END_TEST

static Suite *tep_stack_suite(void)
{
	Suite *s = suite_create("tep_stack");
	TCase *fields = tcase_create("fields");
	TCase *read = tcase_create("read");
	TCase *print = tcase_create("print");

	tcase_add_checked_fixture(fields, setup, teardown);
	tcase_add_test(fields, fields_of_each_event_are_found);
	tcase_add_test(fields, non_stackmap_event_is_rejected);
	tcase_add_test(fields, missing_field_is_named);
	tcase_add_test(fields, misshapen_field_is_named);
	suite_add_tcase(s, fields);

	tcase_add_checked_fixture(read, setup, teardown);
	tcase_add_test(read, define_gives_cookie_and_stack);
	tcase_add_test(read, define_without_map_id_reads_zero);
	tcase_add_test(read, fallback_gives_reason_and_stack);
	tcase_add_test(read, max_depth_is_accepted);
	tcase_add_test(read, depth_over_max_is_rejected);
	tcase_add_test(read, array_length_must_match_depth);
	tcase_add_test(read, array_outside_the_record_is_rejected);
	tcase_add_test(read, short_cookie_record_is_rejected);
	tcase_add_test(read, thirty_two_bit_trace_reads_4_byte_frames);
	tcase_add_test(read, packed_frames_round_trip);
	tcase_add_test(read, define_with_ips_array_reads);
	tcase_add_test(read, packed_frames_not_matching_depth_are_rejected);
	tcase_add_test(read, big_endian_trace_reads_right);
	tcase_add_test(read, rel_loc_array_is_read);
	suite_add_tcase(s, read);

	tcase_add_checked_fixture(print, setup, teardown);
	tcase_add_test(print, frame_prints_symbol_offset_and_address);
	tcase_add_test(print, frame_at_symbol_start_prints_zero_offset);
	tcase_add_test(print, frame_in_module_prints_its_symbol);
	tcase_add_test(print, frame_without_symbol_prints_address);
	tcase_add_test(print, stack_prints_one_indented_line_per_frame);
	tcase_add_test(print, markers_name_generation_and_slot);
	tcase_add_test(print, cookie_prints_its_stack_or_a_marker_never_another_stack);
	suite_add_tcase(s, print);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tep_stack_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
