/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stackmap cookie: the 64-bit value a trace event records instead of a
 * whole kernel stack.
 *
 *   bits 63..32  generation  (never 0; bumped by every map reset)
 *   bits 31..0   slot        (index of the stack in the map's slot table,
 *                             below 2^31; in a stack_cookie record, bit 31
 *                             is STACKMAP_COOKIE_AFTER_LOSS, below)
 *
 * A cookie names a stack only together with its generation: after a reset
 * the same slot holds another stack under a new generation, so a consumer
 * must resolve a cookie only against a definition of exactly the same
 * (generation, slot) pair and report any other cookie as stale or unknown.
 * Cookie 0 is never valid (generation 0 is never used).
 *
 * The layout follows the in-kernel stackmap proposal ("tracing: Add lock-free
 * stackmap for stack trace deduplication", v8 1/5).
 */
#ifndef STACKMAP_COOKIE_H
#define STACKMAP_COOKIE_H

#include "types.h"

#define STACKMAP_COOKIE_GEN_SHIFT	32
#define STACKMAP_COOKIE_SLOT_MASK	0xffffffffULL

/* Cookie value that never names a stack. */
#define STACKMAP_COOKIE_NONE		0ULL

/*
 * Bit 31 of the value a stack_cookie record carries: since the last stack
 * record the ring buffer took on the same CPU, a stack record may have gone
 * missing after its event was written there: the buffer refused one (full in
 * non-overwrite mode, tracing off, the event soft-disabled), the commit
 * discarded one it had accepted (a filter on the stack event), or the module
 * dropped a hit (nesting, recursion, no frame left) or could not keep one on
 * its event's CPU (unpinned: that hit's own record carries the bit too, on
 * whatever CPU it landed, and so does the next record on every CPU).  So
 * this record may follow an event whose own stack record is missing, or be
 * the stack of an event that is: it is never paired with an event (events.h,
 * "Which event a stack belongs to"), and its stack is shown as an orphan.
 * stack_fallback carries the same flag as STACKMAP_FLAG_AFTER_LOSS.
 * The bit is not part of the cookie: slots are below 2^31 (max_entries is
 * at most 2^30 and the slot table twice that), so a reader strips it with
 * stackmap_cookie_strip() before anything else.  A decoder that predates
 * the bit sees a slot it does not know and reports the cookie unknown,
 * never another stack.
 */
#define STACKMAP_COOKIE_AFTER_LOSS	0x80000000ULL

/** stackmap_cookie_strip() - @value without STACKMAP_COOKIE_AFTER_LOSS. */
static inline sm_u64 stackmap_cookie_strip(sm_u64 value)
{
	return value & ~STACKMAP_COOKIE_AFTER_LOSS;
}

/** stackmap_cookie_after_loss() - does @value carry STACKMAP_COOKIE_AFTER_LOSS? */
static inline bool stackmap_cookie_after_loss(sm_u64 value)
{
	return (value & STACKMAP_COOKIE_AFTER_LOSS) != 0;
}

/**
 * stackmap_cookie_make() - build a cookie
 * @generation: map generation, 1..2^32-1
 * @slot: slot index, 0..2^32-1
 *
 * Return: generation << 32 | slot.
 */
static inline sm_u64 stackmap_cookie_make(sm_u32 generation, sm_u32 slot)
{
	return ((sm_u64)generation << STACKMAP_COOKIE_GEN_SHIFT) | slot;
}

/** stackmap_cookie_generation() - the high 32 bits of @cookie. */
static inline sm_u32 stackmap_cookie_generation(sm_u64 cookie)
{
	return (sm_u32)(cookie >> STACKMAP_COOKIE_GEN_SHIFT);
}

/** stackmap_cookie_slot() - the low 32 bits of @cookie. */
static inline sm_u32 stackmap_cookie_slot(sm_u64 cookie)
{
	return (sm_u32)(cookie & STACKMAP_COOKIE_SLOT_MASK);
}

/** stackmap_cookie_valid() - false for cookie 0 and for generation 0. */
static inline bool stackmap_cookie_valid(sm_u64 cookie)
{
	return stackmap_cookie_generation(cookie) != 0;
}

#endif /* STACKMAP_COOKIE_H */
