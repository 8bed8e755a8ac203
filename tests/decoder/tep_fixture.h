/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test fixture shared by tests/decoder and tests/plugin: a struct tep_handle
 * that knows the three stackmap events (format text exactly as the 6.1 kernel
 * prints /sys/kernel/tracing/events/stackmap/<event>/format for the module's
 * TRACE_EVENTs), a small symbol table, and hand-built record payloads.
 */
#ifndef TESTS_TEP_FIXTURE_H
#define TESTS_TEP_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

#include "stackmap/types.h"

/* Event ids the fixture formats carry (those of the recorded sample). */
#define FX_ID_FALLBACK	1359
#define FX_ID_DEFINE	1360
#define FX_ID_COOKIE	1361
/* A plain event for "the event a stack belongs to", and another one. */
#define FX_ID_TICK	900
#define FX_ID_TOCK	901
/* common_flags context bits (events.h STACKMAP_CONTEXT_FLAGS). */
#define FX_CTX_HARDIRQ	0x08
#define FX_CTX_SOFTIRQ	0x10
#define FX_CTX_NMI	0x40

/* The common fields of every event format, then the blank line after them. */
#define FX_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

extern const char fx_fmt_stack_cookie[];
extern const char fx_fmt_stack_define[];
extern const char fx_fmt_stack_fallback[];
extern const char fx_fmt_tick[];
extern const char fx_fmt_tock[];
/* stack_define and stack_fallback of stackmap 0.1: no owner, no flags. */
extern const char fx_fmt_stack_define_01[];
extern const char fx_fmt_stack_fallback_01[];

/*
 * Symbols registered by fx_tep_new(), for 64-bit traces (FX_*) and for
 * 32-bit ones (FX32_*).  Frame addresses in tests are "symbol + offset".
 */
#define FX_SCHEDULE_START	0xffffffff83252dd0ULL	/* schedule */
#define FX___SCHEDULE_START	0xffffffff832523d0ULL	/* __schedule */
#define FX_KTHREAD_START	0xffffffff828cd340ULL	/* kthread */
#define FX_P9_RPC_START		0xffffffffc03e3b80ULL	/* p9_client_rpc [9pnet] */
#define FX_LAST_START		0xffffffffc03e4000ULL	/* fx_last */
#define FX32_SCHEDULE_START	0xc1652dd0ULL
#define FX32___SCHEDULE_START	0xc16523d0ULL

/**
 * fx_tep_new() - a tep handle with the stackmap formats and symbols
 * @long_size: 4 or 8, the recording machine's long size
 * @big_endian: the byte order the records are written in
 *
 * Aborts the test on failure.  Free with tep_free().
 */
struct tep_handle *fx_tep_new(int long_size, bool big_endian);

/**
 * fx_parse() - parse one more format into @tep
 * @tep: the handle
 * @fmt: format text
 * @sys: its system
 *
 * Return: the event, or NULL (with the libtraceevent error) on failure.
 */
struct tep_event *fx_parse(struct tep_handle *tep, const char *fmt,
			   const char *sys);

/*
 * A record payload under construction: fx_put() appends numbers in the
 * handle's byte order.
 */
struct fx_buf {
	unsigned char data[1024];
	size_t len;
	int long_size;
	bool big_endian;
};

/** fx_buf_init() - empty payload for @tep-style records. */
void fx_buf_init(struct fx_buf *b, int long_size, bool big_endian);

/** fx_put() - append @val as a @size-byte number. */
void fx_put(struct fx_buf *b, unsigned long long val, int size);

/** fx_common() - append the 8 common bytes (type, flags, preempt, pid). */
void fx_common(struct fx_buf *b, int type, int pid);

/**
 * fx_define_owned() - payload of a stack_define
 * @b: initialised buffer, emptied first
 * @cookie: cookie field
 * @depth: depth field
 * @frames: @nframes addresses stored in ips[]
 * @nframes: may differ from @depth to build corrupt records
 * @owner: owner field; -1 for stackmap 0.1's layout without owner and flags
 *	(fx_fmt_stack_define_01)
 * @flags: flags field (STACKMAP_FLAG_*)
 */
void fx_define_owned(struct fx_buf *b, sm_u64 cookie, sm_u32 depth,
		     const sm_u64 *frames, sm_u32 nframes, int owner, int flags);

/** fx_define() - fx_define_owned() owned by FX_ID_TICK, flags 0. */
void fx_define(struct fx_buf *b, sm_u64 cookie, sm_u32 depth,
	       const sm_u64 *frames, sm_u32 nframes);

/** fx_fallback_owned() - payload of a stack_fallback (see fx_define_owned()). */
void fx_fallback_owned(struct fx_buf *b, sm_u32 reason, sm_u32 depth,
		       const sm_u64 *frames, sm_u32 nframes, int owner,
		       int flags);

/** fx_fallback() - fx_fallback_owned() owned by FX_ID_TICK, flags 0. */
void fx_fallback(struct fx_buf *b, sm_u32 reason, sm_u32 depth,
		 const sm_u64 *frames, sm_u32 nframes);

/** fx_set_flags() - set the common_flags byte of the payload in @b. */
void fx_set_flags(struct fx_buf *b, int common_flags);

/** fx_cookie() - payload of a stack_cookie. */
void fx_cookie(struct fx_buf *b, sm_u64 cookie);

/** fx_tick() - payload of the plain "test:tick" event with value @n. */
void fx_tick(struct fx_buf *b, int n);

/** fx_tock() - payload of the plain "test:tock" event with value @n. */
void fx_tock(struct fx_buf *b, int n);

/** fx_record() - a record over @b (points into it). */
struct tep_record fx_record(struct fx_buf *b, int cpu,
			    unsigned long long ts);

#endif /* TESTS_TEP_FIXTURE_H */
