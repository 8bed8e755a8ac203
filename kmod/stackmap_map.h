/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack map: a preallocated, lock-free hash map that stores each distinct
 * kernel stack once and names it by a cookie (include/stackmap/cookie.h).
 *
 * Context: sm_map_get_cookie(), sm_map_last_define(), sm_map_cpu_define(),
 * sm_map_note_define(), sm_map_cpu_reuse(), sm_map_cpu_expire(),
 * sm_map_cpu_expire_all(), sm_map_cookie_stack() and sm_map_slot_stack()
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
 * @hash: jhash of the key (info and frames), 0 while free; set once by
 *	cmpxchg (the claim)
 * @depth: 0 until the stack is published, then its depth in frames
 * @frame_off: index of the stack's first frame in sm_map.frames
 * @entry: index of the stack's per-CPU hit counters (sm_map.hits)
 * @info: the rest of the key, sm_info() of the owner and flags
 *	(include/stackmap/events.h); written before @depth is published
 * @defined_cpu: CPU whose ring buffers got the last definition
 * @defined: recording epoch of the definitions written for this slot (0:
 *	never) << 32 | the consumers that took one in that epoch (a bit
 *	each, the caller's numbering); one word, so that an epoch is never
 *	read with another epoch's consumers; see sm_map_note_define()
 * @defined_at: when the last one was written, in the caller's clock (the
 *	module: ns of ktime_get_mono_fast_ns())
 */
struct sm_slot {
	u32 hash;
	u32 depth;
	u32 frame_off;
	u32 entry;
	u32 info;
	u32 defined_cpu;
	u64 defined;
	u64 defined_at;
};

/* The owner event id and STACKMAP_FLAG_* bits of a stack, as one key word. */
static inline u32 sm_info(u16 owner, u16 flags)
{
	return (u32)flags << 16 | owner;
}

static inline u16 sm_info_owner(u32 info)
{
	return info & 0xffff;
}

static inline u16 sm_info_flags(u32 info)
{
	return info >> 16;
}

/**
 * struct sm_define - when and where a slot's definition was last written
 * @epoch: recording epoch (0: never)
 * @consumers: a bit per consumer that took a definition in @epoch, bits
 *	0..30 (bit 31 is the map's, SM_DEFINE_REUSED in a CPU's row)
 * @cpu: CPU it was written on
 * @flags: SM_DEFINE_REUSED (out of sm_map_cpu_define()), SM_DEFINE_REPLACE
 *	(into sm_map_note_define())
 * @at: time, in the caller's clock
 */
struct sm_define {
	u32 epoch;
	u32 consumers;
	u32 cpu;
	u32 flags;
	u64 at;
};

/*
 * sm_define.flags.  SM_DEFINE_REUSED: a cookie reused this CPU's definition
 * since it was written (sm_map_cpu_reuse()).  SM_DEFINE_REPLACE: the
 * definition being noted went to @consumers alone, even in the epoch of the
 * last one: a consumer it missed holds no definition as recent.
 */
#define SM_DEFINE_REUSED	BIT(31)
#define SM_DEFINE_REPLACE	BIT(0)

/**
 * struct sm_map - the map; all memory is allocated by sm_map_init()
 * @slots: @nr_slots slots (a power of two, twice @max_entries)
 * @frames: frame arena, @max_frames addresses, handed out by bump allocation
 * @hits: per-CPU hit counters, @nr_cpus rows of @max_entries: a hit
 *	increments the row of the CPU it runs on, so CPUs hitting the same
 *	stack never write the same cache line
 * @cpu_defined_at: per-CPU time of the last definition of each entry
 *	written on that CPU (sm_define.at), @nr_cpus rows of @max_entries,
 *	each row written only by its CPU (sm_map_note_define())
 * @cpu_defined: the same shape: the recording epoch of that definition
 *	(0: none on that CPU since the last reset) << 32 | the consumers
 *	that took one on that CPU in that epoch, and SM_DEFINE_REUSED once
 *	a cookie reused that definition
 * @nr_cpus: rows of @hits, @cpu_defined_at and @cpu_defined
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
	u64 *cpu_defined_at;
	u64 *cpu_defined;
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
		      u32 depth, u32 info, u64 *cookie);
void sm_map_last_define(const struct sm_map *map, u32 slot,
			struct sm_define *d);
void sm_map_cpu_define(const struct sm_map *map, u32 slot, u32 cpu,
		       struct sm_define *d);
void sm_map_note_define(struct sm_map *map, u32 slot,
			const struct sm_define *d);
void sm_map_cpu_reuse(struct sm_map *map, u32 slot, u32 cpu);
void sm_map_cpu_expire(struct sm_map *map, u32 slot, u32 cpu, u64 at);
void sm_map_cpu_expire_all(struct sm_map *map, u32 cpu);
u32 sm_map_cookie_stack(const struct sm_map *map, u64 cookie,
			const unsigned long **ips, u32 *info);
u32 sm_map_slot_stack(const struct sm_map *map, u32 slot,
		      const unsigned long **ips, u32 *hits, u32 *info);

void sm_map_reset_begin(struct sm_map *map);
void sm_map_reset_finish(struct sm_map *map, u32 generation);

u32 sm_generation_next(u32 prev, u32 now_units);

#endif /* STACKMAP_MAP_H */
