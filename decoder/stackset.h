/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: the set of distinct stacks met while decoding.
 *
 * Every stack an event carries is interned once, keyed by its identity: its
 * status (a stack of frames, or the kind of marker that stands in for it)
 * and its frames.  The entry then holds the number of events that carried
 * it and one cached rendering per output format, so each distinct stack is
 * formatted once and the cost of output grows with distinct stacks, not with
 * events.  Per (event, stack) counts for folded output live here too.
 *
 * Not thread-safe.
 */
#ifndef FGDECODE_STACKSET_H
#define FGDECODE_STACKSET_H

#include <stdbool.h>
#include <stddef.h>

#include "stackmap/types.h"

/* What an interned stack is. */
enum sset_status {
	SSET_FRAMES = 0,	/* real frames: resolved cookie, fallback,
				 * kernel_stack */
	SSET_TRUNCATED,		/* real frames, the innermost of a deeper
				 * stack (STACKMAP_FLAG_TRUNCATED) */
	SSET_STALE,		/* markers: depth 0, no frames */
	SSET_UNKNOWN,
	SSET_CONFLICT,
	SSET_CORRUPT,
	SSET_NR_STATUS,
};

/* Cached renderings, one slot per output format. */
enum sset_render {
	SSET_R_TEXT = 0,
	SSET_R_FOLDED,
	SSET_R_JSON,
	SSET_NR_RENDER,
};

struct sset_entry {
	sm_u32 id;		/* 0, 1, ... in order of first appearance */
	enum sset_status status;
	sm_u32 depth;
	sm_u64 *frames;		/* @depth addresses, innermost first */
	size_t count;		/* events counted with sset_count() */
	char *render[SSET_NR_RENDER];	/* NULL until rendered (malloc'ed) */
	sm_u64 hash;
};

/** sset_has_frames() - does an entry of @status hold frames? */
static inline bool sset_has_frames(enum sset_status status)
{
	return status == SSET_FRAMES || status == SSET_TRUNCATED;
}

struct stackset;

/**
 * sset_new() - an empty set
 *
 * Return: the set, or NULL when out of memory.
 */
struct stackset *sset_new(void);

struct trace_seq;

/**
 * sset_render_once() - append a stack's rendering, rendered once per entry
 * @s: output
 * @entry: the stack's entry, or NULL (then nothing is cached)
 * @kind: which cached rendering (enum sset_render)
 * @render: writes the rendering into the trace_seq it is given
 * @ctx: passed to @render
 *
 * The first call for an entry renders and keeps a copy in
 * @entry->render[@kind]; later calls append the copy.
 *
 * Return: 0, or -ENOMEM (nothing cached; the rendering is still appended).
 */
int sset_render_once(struct trace_seq *s, struct sset_entry *entry,
		     enum sset_render kind,
		     void (*render)(struct trace_seq *out, const void *ctx),
		     const void *ctx);

/** sset_free() - free a set, its entries and their renderings (NULL ok). */
void sset_free(struct stackset *set);

/**
 * sset_intern() - the entry of a stack, added when new
 * @set: the set
 * @status: SSET_FRAMES or SSET_TRUNCATED, or the marker kind (then @depth
 *	must be 0)
 * @frames: @depth addresses (copied)
 * @depth: frame count
 *
 * Return: the entry (valid until sset_free()), or NULL when out of memory.
 */
struct sset_entry *sset_intern(struct stackset *set, enum sset_status status,
			       const sm_u64 *frames, sm_u32 depth);

/**
 * sset_count() - count one event carrying @e
 * @set: the set
 * @e: an entry of @set
 * @event_id: the event's id, for the per-event counts
 *
 * Return: 0, or -ENOMEM.
 */
int sset_count(struct stackset *set, struct sset_entry *e, int event_id);

/**
 * sset_count_orphan() - count one orphan stack record carrying @e
 * @set: the set
 * @e: an entry of @set
 * @owner: the event id the stack names as its owner
 *
 * Counted as the pair (SSET_ORPHAN_ID(@owner), @e) only: not in @e->count
 * nor in sset_total(), since no event carried it.
 *
 * Return: 0, or -ENOMEM.
 */
int sset_count_orphan(struct stackset *set, struct sset_entry *e,
		      sm_u32 owner);

/* The pseudo event id of the orphans of owner @o, and back (ids are >= 0). */
#define SSET_ORPHAN_ID(o)	(-1 - (int)(o))
#define SSET_IS_ORPHAN_ID(id)	((id) < 0)
#define SSET_ORPHAN_OWNER(id)	((sm_u32)(-1 - (id)))

/** sset_size() - number of distinct entries. */
size_t sset_size(const struct stackset *set);

/** sset_entry_at() - entry of id @id (0..sset_size()-1). */
struct sset_entry *sset_entry_at(const struct stackset *set, size_t id);

/** sset_total() - events counted with sset_count(). */
size_t sset_total(const struct stackset *set);

/* One (event, stack) pair and the number of events that carried it. */
struct sset_pair {
	int event_id;
	sm_u32 stack_id;
	size_t count;
};

/**
 * sset_pairs() - every (event, stack) pair counted, in first-seen order
 * @set: the set
 * @n: set to the number of pairs
 *
 * Return: the pairs (owned by the set; invalidated by sset_count()).
 */
const struct sset_pair *sset_pairs(const struct stackset *set, size_t *n);

#endif /* FGDECODE_STACKSET_H */
