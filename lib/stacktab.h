/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacktab: the user-space table cookie -> stack that the libtraceevent
 * plugin and fgdecode fill from stack_define events and resolve stack_cookie
 * events against.
 *
 * A stack is found only under exactly the cookie (generation, slot) it was
 * defined with (see cookie.h).  A miss is classified, so a consumer can say
 * why a cookie names no stack:
 *
 *   STACKTAB_STALE    the slot is known, but only under other generations
 *                     (the map was reset between definition and use)
 *   STACKTAB_UNKNOWN  nothing is known for that slot (definition lost or not
 *                     recorded), or the cookie is invalid (generation 0)
 *   STACKTAB_CONFLICT the cookie was defined twice with different frames;
 *                     neither stack can be trusted, so none is returned
 *
 * The table is an open-addressing hash keyed by the full 64-bit cookie that
 * doubles when half full; it has no fixed limits on entries or depth.  It is
 * not thread-safe: callers serialise access.
 */
#ifndef STACKMAP_STACKTAB_H
#define STACKMAP_STACKTAB_H

#include <stddef.h>

#include "stackmap/types.h"

struct stacktab;

/* Outcome of stacktab_lookup(). */
enum stacktab_result {
	STACKTAB_FOUND = 0,
	STACKTAB_STALE,
	STACKTAB_UNKNOWN,
	STACKTAB_CONFLICT,
};

/*
 * A stack as the table holds it: @depth frames, innermost first, raw kernel
 * addresses widened to 64 bits, with the id of the event it was captured
 * for (@owner, STACKMAP_OWNER_NONE when not known) and its STACKMAP_FLAG_*
 * bits (@flags; events.h).  @frames points into the table and stays
 * valid until the table is freed.  @text is the stack's slot for a consumer
 * that prints the same stack many times to keep its rendering: NULL until
 * the consumer stores a malloc()ed string there, which stacktab_free()
 * frees; the slot too stays valid until the table is freed.  @memo is a
 * second slot of the same kind for a pointer the consumer keeps per stack
 * (fgdecode: the stack's stackset entry, so an event's stack is interned
 * once per cookie, not hashed again per event); the table never frees it.
 */
struct stacktab_stack {
	sm_u32 depth;
	sm_u32 owner;
	sm_u32 flags;
	const sm_u64 *frames;
	char **text;
	void **memo;
};

/**
 * stacktab_new() - allocate an empty table
 *
 * Return: the table, or NULL when out of memory (errno is ENOMEM).
 */
struct stacktab *stacktab_new(void);

/**
 * stacktab_free() - free a table and every stack it holds
 * @tab: table from stacktab_new(), or NULL
 */
void stacktab_free(struct stacktab *tab);

/**
 * stacktab_define_owned() - record the stack a cookie names, and its owner
 * @tab: the table
 * @cookie: generation << 32 | slot; generation must not be 0
 * @depth: number of frames in @frames (0 is allowed: an empty stack)
 * @frames: @depth addresses, innermost first; copied
 * @owner: id of the event the stack belongs to, STACKMAP_OWNER_NONE when
 *	not known (a stackmap 0.1 trace)
 * @flags: STACKMAP_FLAG_* bits of the stack
 *
 * Defining a cookie again with the same frames, owner and flags is harmless
 * (definitions are re-emitted per recording and a plugin may see an event
 * printed twice).
 *
 * Return: 0 when the cookie was new, 1 when it was already defined with the
 * same stack, -EINVAL for an invalid cookie (nothing recorded), -EEXIST when
 * it was already defined with other frames, another owner or other flags
 * (the cookie is then marked as conflicting and stacktab_lookup() returns
 * STACKTAB_CONFLICT for it), or -ENOMEM (the table is unchanged).
 */
int stacktab_define_owned(struct stacktab *tab, sm_u64 cookie, sm_u32 depth,
			  const sm_u64 *frames, sm_u32 owner, sm_u32 flags);

/**
 * stacktab_define() - stacktab_define_owned() with owner STACKMAP_OWNER_NONE
 * and flags 0
 */
int stacktab_define(struct stacktab *tab, sm_u64 cookie, sm_u32 depth,
		    const sm_u64 *frames);

/**
 * stacktab_lookup() - find the stack of a cookie
 * @tab: the table
 * @cookie: the cookie to resolve
 * @out: set to the stack (its owner, flags and text slot) on STACKTAB_FOUND;
 *	zeroed
 *	otherwise
 *
 * Return: STACKTAB_FOUND only for a cookie defined with exactly this
 * (generation, slot); otherwise STACKTAB_STALE, STACKTAB_UNKNOWN or
 * STACKTAB_CONFLICT as described at the top of this file.
 */
enum stacktab_result stacktab_lookup(const struct stacktab *tab, sm_u64 cookie,
				     struct stacktab_stack *out);

/**
 * stacktab_count() - number of distinct cookies defined (conflicting ones
 * included)
 * @tab: the table
 */
size_t stacktab_count(const struct stacktab *tab);

/**
 * stacktab_result_name() - "found", "stale", "unknown" or "conflicting"
 * @result: a value of enum stacktab_result
 *
 * Return: a static string; "invalid" for any other value.
 */
const char *stacktab_result_name(enum stacktab_result result);

#endif /* STACKMAP_STACKTAB_H */
