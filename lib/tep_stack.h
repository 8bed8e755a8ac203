/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tep_stack: read the stackmap events (events.h) out of libtraceevent records
 * and print stacks into a trace_seq.  Shared by the libtraceevent plugin and
 * fgdecode.
 *
 * Every number is read with tep_read_number() in the byte order and, for the
 * ips[] elements, the long size of the recording machine
 * (tep_get_long_size()), so a trace from another machine reads correctly.
 * Every read is bounds-checked against the record: a corrupt record gives an
 * error naming the field, never a read outside the record.
 *
 * Printed shapes (no trailing newline; see tepstack_print_stack()):
 *
 *   => SYMBOL+0xOFF/0xSIZE [MODULE] (ADDR)
 *                               symbol from the kallsyms stored in the trace:
 *                               the kernel's own "%pS" shape (SIZE is the
 *                               distance to the next symbol, as the kernel's
 *                               kallsyms computes it; [MODULE] only where the
 *                               caller knows the module), then the address;
 *                               lower-case hex, ADDR without 0x
 *   => 0xADDR                   an address no symbol covers
 *   => <stale cookie gen G slot S>     (G, S in decimal)
 *   => <unknown cookie gen G slot S>
 *   => <conflicting cookie gen G slot S>
 *   => ... [truncated]          after the last frame of a stack whose flags
 *                               have STACKMAP_FLAG_TRUNCATED
 *
 * Owners (events.h): stack_define and stack_fallback carry the owning
 * event's id and the stack's flags.  A trace from stackmap 0.1 has neither
 * field; its stacks read as owner STACKMAP_OWNER_NONE, flags 0, and a
 * consumer attaches them without an owner check (see tepstack_has_owner()).
 */
#ifndef STACKMAP_TEP_STACK_H
#define STACKMAP_TEP_STACK_H

#include <stdbool.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "stackmap/events.h"
#include "stacktab.h"
#include "sm_err.h"
#include "stackmap/types.h"

/* Which stackmap event a struct tepstack_fields describes. */
enum tepstack_kind {
	TEPSTACK_COOKIE = 0,	/* stack_cookie */
	TEPSTACK_DEFINE,	/* stack_define */
	TEPSTACK_FALLBACK,	/* stack_fallback */
	TEPSTACK_NR_KINDS,
};

/*
 * The fields of one stackmap event, looked up once from its parsed format.
 * A field the event does not have is NULL.
 */
struct tepstack_fields {
	struct tep_event *event;
	enum tepstack_kind kind;
	struct tep_format_field *cookie;	/* COOKIE, DEFINE */
	struct tep_format_field *reason;	/* FALLBACK */
	struct tep_format_field *depth;		/* DEFINE, FALLBACK */
	struct tep_format_field *ips;		/* FALLBACK; DEFINE of older modules */
	struct tep_format_field *frames;	/* DEFINE: packed (frames.h) */
	struct tep_format_field *owner;		/* DEFINE, FALLBACK; NULL in 0.1 */
	struct tep_format_field *flags;		/* DEFINE, FALLBACK; NULL in 0.1 */
	struct tep_format_field *map_id;	/* DEFINE; NULL before 0.3 */
};

/* A stack read from a record: @depth valid entries of @frames. */
struct tepstack_stack {
	sm_u32 depth;
	sm_u64 frames[STACKMAP_MAX_DEPTH];
};

/**
 * tepstack_event_name() - event name of a kind ("stack_cookie", ...)
 * @kind: a value of enum tepstack_kind
 *
 * Return: a static string; NULL for an invalid kind.
 */
const char *tepstack_event_name(enum tepstack_kind kind);

/**
 * tepstack_kind_of() - which stackmap event @event is
 * @event: any parsed event
 *
 * Return: its kind, or -1 when it is not a stackmap event (a "none", not an
 * error: no errno).
 */
int tepstack_kind_of(const struct tep_event *event);

/**
 * tepstack_fields_init() - look up and check the fields of a stackmap event
 * @f: filled in
 * @event: a stackmap event (system STACKMAP_SYSTEM)
 * @err: set on failure
 *
 * Checks that each field the event's kind needs exists and has a usable
 * shape: cookie an 8-byte number, reason and depth 1/2/4/8-byte numbers, ips a
 * __data_loc or __rel_loc dynamic array.  owner and flags (stack_define and
 * stack_fallback) are numbers when present; a format without either is
 * stackmap 0.1's and reads as owner STACKMAP_OWNER_NONE, flags 0; a format
 * with only one of them is refused.
 *
 * Return: 0, -EINVAL when @event is not a stackmap event, -ENOENT when a field
 * is missing, -EPROTO when a field has the wrong shape.
 */
int tepstack_fields_init(struct tepstack_fields *f, struct tep_event *event,
			 struct sm_err *err);

/**
 * tepstack_read_cookie() - the cookie of a stack_cookie or stack_define record
 * @f: fields of the record's event
 * @record: the record
 * @cookie: set on success, without STACKMAP_COOKIE_AFTER_LOSS (cookie.h)
 * @err: set on failure
 *
 * Return: 0, -ENOENT when the event has no cookie field, -EFAULT when the
 * record is too short for it.
 */
int tepstack_read_cookie(const struct tepstack_fields *f,
			 const struct tep_record *record, sm_u64 *cookie,
			 struct sm_err *err);

/**
 * tepstack_after_loss() - is @record a stack record written after a stack
 * record went missing on its CPU (STACKMAP_COOKIE_AFTER_LOSS in a
 * stack_cookie, STACKMAP_FLAG_AFTER_LOSS in a stack_fallback)?
 * @f: fields of the record's event
 * @record: the record
 *
 * Such a record is paired with no event (events.h).
 *
 * Return: true only for a readable stack_cookie or stack_fallback record
 * carrying the bit.
 */
bool tepstack_after_loss(const struct tepstack_fields *f,
			 const struct tep_record *record);

/**
 * tepstack_read_map_id() - the map id of a stack_define record
 * @f: fields of the record's event
 * @record: the record
 *
 * Return: the id (events.h "Map identity"), or 0 when the format has no
 * map_id field (stackmap 0.2 and before) or the record is too short for it.
 */
sm_u64 tepstack_read_map_id(const struct tepstack_fields *f,
			    const struct tep_record *record);

/**
 * tepstack_read_reason() - the reason of a stack_fallback record
 * @f: fields of the record's event
 * @record: the record
 * @reason: set on success (a value of enum stackmap_fallback_reason, not
 *	checked: print it with stackmap_fallback_name())
 * @err: set on failure
 *
 * Return: 0, -ENOENT when the event has no reason field, -EFAULT when the
 * record is too short for it.
 */
int tepstack_read_reason(const struct tepstack_fields *f,
			 const struct tep_record *record, sm_u32 *reason,
			 struct sm_err *err);

/**
 * tepstack_read_stack() - the stack of a stack_define or stack_fallback record
 * @f: fields of the record's event
 * @record: the record
 * @out: set on success: depth and the frames widened to 64 bits
 * @err: set on failure
 *
 * The frames come from the record's ips[] array (stack_fallback, and
 * stack_define of modules before the packed format) or from its packed
 * frames field (stack_define: include/stackmap/frames.h).
 *
 * Return: 0; -ENOENT when the event has no depth or ips field; -EFAULT when
 * the record is too short for a field or the array lies outside the record;
 * -E2BIG when depth exceeds STACKMAP_MAX_DEPTH; -EBADMSG when the array does
 * not hold exactly depth elements of the recorded long size, or the frames
 * field exactly depth varints (the error names the byte offset in it).
 */
int tepstack_read_stack(const struct tepstack_fields *f,
			const struct tep_record *record,
			struct tepstack_stack *out, struct sm_err *err);

/**
 * tepstack_has_owner() - does the event's format carry owner and flags?
 * @f: fields of a stack_define or stack_fallback
 *
 * Return: false for a stackmap 0.1 format (and for stack_cookie).
 */
static inline bool tepstack_has_owner(const struct tepstack_fields *f)
{
	return f->owner && f->flags;
}

/**
 * tepstack_read_owner() - owner and flags of a stack_define or stack_fallback
 * @f: fields of the record's event
 * @record: the record
 * @owner: set to the owning event's id (STACKMAP_OWNER_NONE for a 0.1 format)
 * @flags: set to the STACKMAP_FLAG_* bits (0 for a 0.1 format)
 * @err: set on failure
 *
 * Return: 0; -EFAULT when the record is too short for a field; -EBADMSG
 * when flags has bits outside STACKMAP_FLAGS_KNOWN.
 */
int tepstack_read_owner(const struct tepstack_fields *f,
			const struct tep_record *record, sm_u32 *owner,
			sm_u32 *flags, struct sm_err *err);

/**
 * tepstack_context() - the context bits of a record (events.h)
 * @tep: the trace's handle
 * @record: any record
 *
 * Return: common_flags & STACKMAP_CONTEXT_FLAGS (NMI, hard and soft IRQ);
 * 0 when the record has no readable common_flags.
 */
unsigned int tepstack_context(struct tep_handle *tep,
			      struct tep_record *record);

/**
 * tepstack_owner_name() - name an owner for messages and output
 * @tep: the trace's handle
 * @owner: an event id
 * @buf: receives "system:event" when the trace has that event's format,
 *	else "event id N"
 * @len: size of @buf
 *
 * Return: @buf.
 */
const char *tepstack_owner_name(struct tep_handle *tep, sm_u32 owner,
				char *buf, size_t len);

/*
 * Symbol sizes above this are taken as unknown: only the gap after the last
 * symbol of a region (vmlinux text, a module) gives them.
 */
#define TEPSTACK_MAX_SYMBOL_SIZE	(16ULL << 20)

/**
 * tepstack_find_symbol() - the kallsyms symbol covering an address
 * @tep: handle holding the trace's kallsyms
 * @addr: kernel address
 * @name: set to the symbol, or NULL when none covers @addr
 * @offset: set to @addr minus the symbol's address (0 without a symbol)
 * @size: set to the symbol's size in bytes, the distance to the next symbol
 *	as libtraceevent's tep_find_function_info() and the kernel's
 *	kallsyms_lookup_size_offset() compute it; 0 when unknown (the last
 *	symbol, a function resolver, or TEPSTACK_MAX_SYMBOL_SIZE exceeded)
 */
void tepstack_find_symbol(struct tep_handle *tep, sm_u64 addr,
			  const char **name, sm_u64 *offset, sm_u64 *size);

/**
 * tepstack_print_symbol() - print one frame from its symbol
 * @s: output
 * @name: the symbol, or NULL
 * @offset: address minus the symbol's address
 * @size: the symbol's size, 0 to leave it out
 * @mod: the module holding the symbol, NULL to leave it out
 * @addr: the address
 * @show_addr: print " (ADDR)" after the symbol
 *
 * Prints "=> SYMBOL+0xOFF/0xSIZE [MODULE] (ADDR)" (the parts left out as
 * above) or, without a symbol, "=> 0xADDR"; no newline.
 */
void tepstack_print_symbol(struct trace_seq *s, const char *name,
			   sm_u64 offset, sm_u64 size, const char *mod,
			   sm_u64 addr, bool show_addr);

/**
 * tepstack_print_frame() - print one frame
 * @s: output
 * @tep: handle holding the trace's kallsyms
 * @addr: kernel address
 *
 * Prints "=> SYMBOL+0xOFF/0xSIZE (ADDR)" (no module: libtraceevent has no
 * API that names it) or "=> 0xADDR", no newline.
 */
void tepstack_print_frame(struct trace_seq *s, struct tep_handle *tep,
			  sm_u64 addr);

/**
 * tepstack_print_stack() - print a stack, one frame per line
 * @s: output
 * @tep: handle holding the trace's kallsyms
 * @frames: @depth addresses, innermost first
 * @depth: number of frames
 * @indent: printed before each "=> " (may be "")
 *
 * Each frame is printed as "\n" @indent frame, so the stack continues the
 * line already in @s (the way plugin_function.c prints kernel_stack).
 */
void tepstack_print_stack(struct trace_seq *s, struct tep_handle *tep,
			  const sm_u64 *frames, sm_u32 depth,
			  const char *indent);

/**
 * tepstack_print_truncated() - print the line that ends a truncated stack
 * @s: output
 * @indent: as for tepstack_print_stack()
 *
 * Prints "\n" @indent "=> ... [truncated]".
 */
void tepstack_print_truncated(struct trace_seq *s, const char *indent);

/**
 * tepstack_print_marker() - print the line that stands for an unresolved
 * cookie
 * @s: output
 * @result: STACKTAB_STALE, STACKTAB_UNKNOWN or STACKTAB_CONFLICT
 * @cookie: the cookie
 * @indent: as for tepstack_print_stack()
 *
 * Prints "\n" @indent "=> <RESULT cookie gen G slot S>".
 */
void tepstack_print_marker(struct trace_seq *s, enum stacktab_result result,
			   sm_u64 cookie, const char *indent);

/**
 * tepstack_print_cookie() - resolve a cookie and print its stack or marker
 * @s: output
 * @tep: handle holding the trace's kallsyms
 * @tab: definitions known so far
 * @cookie: the cookie
 * @indent: as for tepstack_print_stack()
 *
 * A truncated stack ends with tepstack_print_truncated()'s line.
 *
 * Return: the lookup result, for the caller's statistics.
 */
enum stacktab_result tepstack_print_cookie(struct trace_seq *s,
					   struct tep_handle *tep,
					   const struct stacktab *tab,
					   sm_u64 cookie, const char *indent);

/**
 * tepstack_in_tracer() - is a kernel_stack frame in ftrace's own machinery?
 * @tep: handle holding the trace's kallsyms
 * @addr: a return address of an ftrace kernel_stack (trace-cmd record -T)
 *
 * The functions through which ftrace records an event and its kernel_stack
 * (trace_event_raw_event_*, __traceiter_*, __ftrace_trace_stack ...) sit
 * atop such a stack before the caller of the tracepoint; stackmap's own
 * stacks are trimmed of them in the module.  @addr - 1 is looked up, as a
 * return address belongs to the call before it.
 *
 * Return: true when @addr is in one of those functions.
 */
bool tepstack_in_tracer(struct tep_handle *tep, sm_u64 addr);

#endif /* STACKMAP_TEP_STACK_H */
