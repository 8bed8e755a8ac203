/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stackmap cookie: the 64-bit value a trace event records instead of a
 * whole kernel stack.
 *
 *   bits 63..32  generation  (never 0; bumped by every map reset)
 *   bits 31..0   slot        (index of the stack in the map's slot table)
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
