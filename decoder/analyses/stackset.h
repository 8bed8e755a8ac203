/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: the set of distinct stacks met while decoding.
 *
 * Every stack an event carries is interned once, keyed by its identity: its
 * status (a stack of frames, or the kind of marker that stands in for it)
 * and its frames.  The entry then holds the number of events that carried
 * it, their weight, and one cached rendering per output format, so each
 * distinct stack is formatted once and the cost of output grows with
 * distinct stacks, not with events.  Per (event, stack) counts and weights
 * for folded output live here too.
 *
 * The weight is what the outputs rank and sum.  By default it is the event
 * count (each event weighs 1, sset_weight_name() "events"); with
 * sset_set_weight() it is the sum of a quantity each event carries, such
 * as a numeric field of the event (fgdecode --weight bytes_alloc: unit
 * "bytes") or the time a task spent off the CPU (--off-cpu: unit "ns").
 * Every output (--top, --folded, JSON, pprof, flame graphs) reads
 * sset_entry.weight / sset_pair.weight and names the weight with
 * sset_weight_name() and sset_weight_unit().
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
	SSET_R_ROOT,		/* folded_root() of a woken entry */
	SSET_NR_RENDER,
};

struct sset_entry {
	sm_u32 id;		/* 0, 1, ... in order of first appearance */
	enum sset_status status;
	sm_u32 depth;
	sm_u64 *frames;		/* @depth addresses, innermost first */
	char *root;		/* frames outside the stack, root first and
				 * ';'-separated ("sh;[S]": the task and
				 * the state it left the CPU in, for
				 * --off-cpu), or NULL: part of the
				 * identity (sset_intern_root()) */
	/*
	 * An entry of sset_intern_woken() (--wakers): the interval of the
	 * stack @blocked (whose root, status and frames this entry has too)
	 * ended by @waker's wakeup, recorded by a task @waker_comm; @waker
	 * NULL (and @waker_comm NULL) when no wakeup in the trace ended it.
	 * All three are part of the identity.  NULL in every other entry.
	 */
	struct sset_entry *blocked;
	struct sset_entry *waker;
	char *waker_comm;
	size_t count;		/* events counted with sset_count*() */
	sm_u64 weight;		/* sum of their weights, in
				 * sset_weight_unit(); == count when
				 * the set weighs events */
	char *render[SSET_NR_RENDER];	/* NULL until rendered (malloc'ed) */
	size_t last_pair;	/* private: 1 + the index of the pair counted
				 * last for this entry (tried first: a
				 * stack's events are mostly of one type),
				 * 0 before the first */
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
 * @entry->render[@kind]; later calls append the copy (sm_render_once(),
 * the cache the plugin uses too).
 *
 * Return: 0, or -ENOMEM (nothing cached; the rendering is still appended).
 */
int sset_render_once(struct trace_seq *s, struct sset_entry *entry,
		     enum sset_render kind,
		     void (*render)(struct trace_seq *out, const void *ctx),
		     const void *ctx);

/**
 * sset_set_weight() - say what the weights of the set are
 * @set: the set, before anything is counted
 * @name: what is summed, e.g. "bytes_alloc" (a field name) or "off-cpu";
 *	not copied, must outlive @set
 * @unit: its unit, e.g. "bytes", "ns"; "" when not known; not copied
 *
 * From then on sset_count() is refused in favour of sset_count_weighted(),
 * and orphans weigh nothing (no event carried them, so there is nothing to
 * weigh).  Without this call the set weighs events: name and unit
 * "events", every sset_count() adds 1 to count and weight alike.
 */
void sset_set_weight(struct stackset *set, const char *name,
		     const char *unit);

/**
 * sset_set_count_name() - what one count is, when not an event
 * @set: the set
 * @name: e.g. "intervals" (--off-cpu counts one per interval); not copied
 */
void sset_set_count_name(struct stackset *set, const char *name);

/** sset_count_name() - what the counts count ("events" by default). */
const char *sset_count_name(const struct stackset *set);

/** sset_weighted() - did sset_set_weight() give the set another weight? */
bool sset_weighted(const struct stackset *set);

/** sset_weight_name() - what the weights sum ("events" by default). */
const char *sset_weight_name(const struct stackset *set);

/** sset_weight_unit() - their unit ("events" by default; "" unknown). */
const char *sset_weight_unit(const struct stackset *set);

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
 * sset_intern_root() - sset_intern() under root frames of its own
 * @set: the set
 * @root: frames outside the stack, root first, ';'-separated (copied);
 *	NULL is sset_intern()
 * @status: as for sset_intern()
 * @frames: as for sset_intern()
 * @depth: as for sset_intern()
 *
 * The same stack under two roots is two entries; every output prints
 * @root outside the stack's outermost frame.
 *
 * Return: the entry, or NULL when out of memory.
 */
struct sset_entry *sset_intern_root(struct stackset *set, const char *root,
				    enum sset_status status,
				    const sm_u64 *frames, sm_u32 depth);

/**
 * sset_intern_woken() - the entry of a blocked stack under its waker
 * @set: the set
 * @blocked: an entry of @set, not itself woken
 * @waker: the entry of the waker's stack (no root frames, not woken), or
 *	NULL when no wakeup ended the interval
 * @waker_comm: who recorded the wakeup (copied); NULL with @waker NULL
 *
 * The entry has @blocked's root, status and frames, and is told apart from
 * @blocked and from the same stack under another waker or comm.
 *
 * Return: the entry, or NULL when out of memory.
 */
struct sset_entry *sset_intern_woken(struct stackset *set,
				     struct sset_entry *blocked,
				     struct sset_entry *waker,
				     const char *waker_comm);

/**
 * sset_count() - count one event carrying @e, weighing 1
 * @set: the set (not sset_weighted())
 * @e: an entry of @set
 * @event_id: the event's id, for the per-event counts
 *
 * Return: 0, -ENOMEM, or -EINVAL when the set weighs something else.
 */
int sset_count(struct stackset *set, struct sset_entry *e, int event_id);

/**
 * sset_count_weighted() - count one event carrying @e, weighing @weight
 * @set: the set (sset_weighted())
 * @e: an entry of @set
 * @event_id: the event's id, for the per-event counts
 * @weight: in sset_weight_unit(); sums wrap past 2^64 - 1 (not checked)
 *
 * Adds 1 to the counts and @weight to the weights of @e, of the pair
 * (@event_id, @e) and of the set.
 *
 * Return: 0, -ENOMEM, or -EINVAL when the set weighs events.
 */
int sset_count_weighted(struct stackset *set, struct sset_entry *e,
			int event_id, sm_u64 weight);

/**
 * sset_count_orphan() - count one orphan stack record carrying @e
 * @set: the set
 * @e: an entry of @set
 * @owner: the event id the stack names as its owner
 *
 * Counted as the pair (SSET_ORPHAN_ID(@owner), @e) only: not in @e->count
 * nor in sset_total(), since no event carried it.  The pair's weight grows
 * by 1 when the set weighs events, by nothing otherwise.
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

/** sset_total() - events counted with sset_count*(). */
size_t sset_total(const struct stackset *set);

/** sset_total_weight() - the sum of their weights (sset_weight_unit()). */
sm_u64 sset_total_weight(const struct stackset *set);

/* One (event, stack) pair, the number of events that carried it, their weight. */
struct sset_pair {
	int event_id;
	sm_u32 stack_id;
	size_t count;
	sm_u64 weight;		/* as sset_entry.weight */
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
