/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack map: a preallocated, lock-free hash map that stores each distinct
 * kernel stack once and names it by a cookie (include/stackmap/cookie.h).
 *
 * Context: sm_map_get_cookie(), sm_map_claim_define() and sm_map_slot_stack()
 * take no lock, never sleep and never allocate; they are safe in NMI, IRQ and
 * process context, provided the caller is inside an RCU read-side section
 * (any preempt-disabled region in the kernel) so that a reset can wait for it.
 * Everything else runs in process context and may sleep or allocate.
 *
 * This file is pure: no module glue, no tracefs, no printk.  The same source
 * compiles into the module and into the user-space tests (stackmap_compat.h).
 */
#ifndef STACKMAP_MAP_H
#define STACKMAP_MAP_H

#include "stackmap_compat.h"
#include "../include/stackmap/cookie.h"
#include "../include/stackmap/events.h"

/* How many slots are probed after the home slot before giving up. */
#define SM_MAX_PROBE		64

/**
 * struct sm_slot - one slot of the open-addressing table
 * @hash: jhash of the stack, 0 while free; set once by cmpxchg (the claim)
 * @depth: 0 until the stack is published, then its depth in frames
 * @frame_off: index of the stack's first frame in sm_map.frames
 * @entry: index of the stack's per-CPU hit counters (sm_map.hits)
 * @defined_epoch: recording epoch in which a definition event was last
 *	emitted for this slot (0: never)
 */
struct sm_slot {
	u32 hash;
	u32 depth;
	u32 frame_off;
	u32 entry;
	u32 defined_epoch;
};

/**
 * struct sm_map - the map; all memory is allocated by sm_map_init()
 * @slots: @nr_slots slots (a power of two, twice @max_entries)
 * @frames: frame arena, @max_frames addresses, handed out by bump allocation
 * @hits: per-CPU hit counters, @nr_cpus rows of @max_entries: a hit
 *	increments the row of the CPU it runs on, so CPUs hitting the same
 *	stack never write the same cache line
 * @nr_cpus: rows of @hits
 * @max_entries: most stacks stored at once
 * @max_frames: capacity of @frames
 * @seed: jhash seed, fixed for the map's lifetime
 * @generation: current generation, never 0
 * @resetting: non-zero while a reset is in progress
 * @entries_used: stored or reserved entries
 * @frames_used: frames handed out from @frames
 * @frames_wasted: frames lost to reservations that could not be returned
 */
struct sm_map {
	struct sm_slot *slots;
	unsigned long *frames;
	atomic_t *hits;
	u32 nr_cpus;
	u32 nr_slots;
	u32 max_entries;
	u32 max_frames;
	u32 seed;
	u32 generation;
	u32 resetting;
	atomic_t entries_used;
	atomic_t frames_used;
	atomic_t frames_wasted;
};

/* Outcome of sm_map_get_cookie() besides the fallback reasons. */
enum sm_lookup {
	SM_LOOKUP_HIT = 0,
	SM_LOOKUP_INSERTED = -1,
};

int sm_map_init(struct sm_map *map, u32 max_entries, u32 max_frames,
		u32 seed, u32 generation);
void sm_map_destroy(struct sm_map *map);
size_t sm_map_bytes(const struct sm_map *map);

int sm_map_get_cookie(struct sm_map *map, const unsigned long *ips,
		      u32 depth, u64 *cookie);
bool sm_map_slot_defined(const struct sm_map *map, u32 slot, u32 epoch);
bool sm_map_claim_define(struct sm_map *map, u32 slot, u32 epoch);
u32 sm_map_slot_stack(const struct sm_map *map, u32 slot,
		      const unsigned long **ips, u32 *hits);

void sm_map_reset_begin(struct sm_map *map);
void sm_map_reset_finish(struct sm_map *map, u32 generation);

u32 sm_generation_next(u32 prev, u32 now_units);

#endif /* STACKMAP_MAP_H */
