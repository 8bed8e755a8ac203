// SPDX-License-Identifier: GPL-2.0
/*
 * The stack map: see stackmap_map.h for the contract and the contexts.
 *
 * Layout.  An open-addressing table of 2 * max_entries slots (linear probing,
 * at most SM_MAX_PROBE steps) and an arena of max_frames addresses.  A stored
 * stack is a slot that points at depth consecutive frames of the arena, so a
 * stack of depth 10 costs 10 frames, not the maximum depth.
 *
 * Insert protocol (the writer, any context):
 *   1. reserve one entry and depth frames (cmpxchg on the counters); when
 *      either is exhausted, fail with STACKMAP_FALLBACK_FULL *before* touching
 *      the table, so no slot is ever claimed without the memory to fill it;
 *   2. claim a free slot: cmpxchg(hash, 0, h);
 *   3. copy the frames, then publish with smp_store_release(depth).
 * A reader that finds hash == h reads depth with smp_load_acquire(); depth 0
 * means "claimed, not yet published" and the reader falls back
 * (STACKMAP_FALLBACK_INFLIGHT): it may be an NMI that interrupted the writer,
 * so waiting would deadlock.  Reservations not consumed (the stack turned out
 * to be there already, or the probe limit was reached) are returned.
 *
 * Stacks are found only by comparing depth and every frame; two stacks with
 * the same hash occupy two slots.  Nothing is removed until a reset, which
 * clears everything under a new generation (see sm_map_reset_begin()).
 *
 * Derived from the design of the in-kernel proposal "tracing: Add lock-free
 * stackmap for stack trace deduplication" (v8 1/5), and shaped after
 * kernel/trace/tracing_map.c.
 */
#include "stackmap_map.h"

#ifndef __KERNEL__
unsigned int sm_user_nr_cpus = 1;
__thread unsigned int sm_user_cpu;
#endif

/* The key is the frames and the info word (owner, flags). */
static u32 sm_hash(const struct sm_map *map, const unsigned long *ips,
		   u32 depth, u32 info)
{
	u32 h = jhash2((const u32 *)ips,
		       depth * (sizeof(unsigned long) / sizeof(u32)),
		       map->seed ^ info);

	return h ? h : 1;	/* 0 marks a free slot */
}

/**
 * sm_map_init() - allocate and initialise a map
 * @map: the map to set up
 * @max_entries: most distinct stacks held at once, 1..2^30
 * @max_frames: size of the frame arena in addresses, 1..2^30
 * @seed: jhash seed (get_random_u32() in the kernel)
 * @generation: first generation, non-zero (see sm_generation_next())
 *
 * Memory: 2 * roundup_pow_of_two(@max_entries) slots of 40 bytes,
 * @max_frames * sizeof(long) of frames, and per possible CPU (sm_nr_cpus())
 * 4 * @max_entries bytes of hit counters and 16 * @max_entries bytes of
 * that CPU's last definitions; sm_map_bytes() reports the total.
 *
 * Return: 0, -EINVAL for a zero or too large size or generation 0, -ENOMEM.
 */
int sm_map_init(struct sm_map *map, u32 max_entries, u32 max_frames,
		u32 seed, u32 generation)
{
	u32 nr_slots = 1;

	if (!max_entries || max_entries > (1U << 30) || !max_frames ||
	    max_frames > (1U << 30) || !generation)
		return -EINVAL;
	while (nr_slots < 2 * max_entries)
		nr_slots <<= 1;

	memset(map, 0, sizeof(*map));
	map->nr_cpus = sm_nr_cpus();
	map->slots = sm_zalloc(nr_slots, sizeof(*map->slots));
	map->frames = sm_zalloc(max_frames, sizeof(*map->frames));
	map->hits = sm_zalloc((size_t)map->nr_cpus * max_entries,
			      sizeof(*map->hits));
	map->cpu_defined_at = sm_zalloc((size_t)map->nr_cpus * max_entries,
					sizeof(*map->cpu_defined_at));
	map->cpu_defined = sm_zalloc((size_t)map->nr_cpus * max_entries,
				     sizeof(*map->cpu_defined));
	if (!map->slots || !map->frames || !map->hits ||
	    !map->cpu_defined_at || !map->cpu_defined) {
		sm_map_destroy(map);
		return -ENOMEM;
	}
	map->nr_slots = nr_slots;
	map->max_entries = max_entries;
	map->max_frames = max_frames;
	map->seed = seed;
	map->generation = generation;
	return 0;
}

/** sm_map_destroy() - free the map's memory; no user may remain. */
void sm_map_destroy(struct sm_map *map)
{
	sm_free(map->slots);
	sm_free(map->frames);
	sm_free(map->hits);
	sm_free(map->cpu_defined_at);
	sm_free(map->cpu_defined);
	map->slots = NULL;
	map->frames = NULL;
	map->hits = NULL;
	map->cpu_defined_at = NULL;
	map->cpu_defined = NULL;
}

/**
 * sm_map_bytes() - bytes of slot table, frame arena, hit counters and
 *	per-CPU definition times
 * @map: the map
 */
size_t sm_map_bytes(const struct sm_map *map)
{
	size_t per_entry = sizeof(*map->hits) + sizeof(*map->cpu_defined_at) +
			   sizeof(*map->cpu_defined);

	return (size_t)map->nr_slots * sizeof(*map->slots) +
	       (size_t)map->max_frames * sizeof(*map->frames) +
	       (size_t)map->nr_cpus * map->max_entries * per_entry;
}

/* Take @n from counter @v unless that would pass @limit. */
static bool sm_counter_take(atomic_t *v, u32 n, u32 limit, u32 *start)
{
	int old = atomic_read(v);

	for (;;) {
		int seen;

		if ((u32)old + n > limit)
			return false;
		/* Fully ordered; pairs with itself on other CPUs. */
		seen = atomic_cmpxchg(v, old, old + n);
		if (seen == old) {
			*start = old;
			return true;
		}
		old = seen;
	}
}

struct sm_reservation {
	bool held;
	u32 entry;
	u32 frame_off;
};

static bool sm_reserve(struct sm_map *map, u32 depth, struct sm_reservation *r)
{
	if (!sm_counter_take(&map->entries_used, 1, map->max_entries, &r->entry))
		return false;
	if (!sm_counter_take(&map->frames_used, depth, map->max_frames,
			     &r->frame_off)) {
		/* Give the entry back unless another insert took one since. */
		atomic_cmpxchg(&map->entries_used, (int)r->entry + 1,
			       (int)r->entry);
		return false;
	}
	r->held = true;
	return true;
}

/*
 * Give back a reservation that no slot consumed.  Entry and frames go back
 * only if nobody took any after them (the counters are bump allocators);
 * otherwise the frames are counted as wasted and the entry stays used, both
 * until the next reset.  Only racing inserts of the same stack get here.
 */
static void sm_unreserve(struct sm_map *map, u32 depth,
			 struct sm_reservation *r)
{
	int end = r->frame_off + depth;

	if (!r->held)
		return;
	atomic_cmpxchg(&map->entries_used, (int)r->entry + 1, (int)r->entry);
	if (atomic_cmpxchg(&map->frames_used, end, (int)r->frame_off) != end)
		atomic_add(depth, &map->frames_wasted);
	r->held = false;
}

static atomic_t *sm_hits_row(const struct sm_map *map, unsigned int cpu)
{
	return &map->hits[(size_t)cpu * map->max_entries];
}

static void sm_slot_publish(struct sm_map *map, struct sm_slot *s,
			    const unsigned long *ips, u32 depth, u32 info,
			    const struct sm_reservation *r)
{
	memcpy(&map->frames[r->frame_off], ips, depth * sizeof(*ips));
	WRITE_ONCE(s->info, info);
	WRITE_ONCE(s->frame_off, r->frame_off);
	WRITE_ONCE(s->entry, r->entry);
	atomic_inc(&sm_hits_row(map, sm_cpu())[r->entry]);
	/*
	 * Publish: frames, info and frame_off above become visible before depth.
	 * Pairs with smp_load_acquire() in sm_slot_matches() and
	 * sm_map_slot_stack().
	 */
	smp_store_release(&s->depth, depth);
}

/*
 * Count a hit in this CPU's row: no other CPU writes that cache line.  The
 * atomic increment keeps an NMI on this CPU from losing the count; a row
 * saturates at U32_MAX (a racing NMI may take it one past, to 0, once in
 * 2^32 hits of one stack on one CPU).
 */
static void sm_slot_hit(const struct sm_map *map, const struct sm_slot *s)
{
	atomic_t *h = &sm_hits_row(map, sm_cpu())[READ_ONCE(s->entry)];

	if ((u32)atomic_read(h) != U32_MAX)
		atomic_inc(h);
}

/*
 * Compare the stack in @s (whose hash equals the caller's) with @ips.
 * Return 1 on a match, 0 for another stack, -1 while the slot is unpublished.
 */
static int sm_slot_matches(const struct sm_map *map, const struct sm_slot *s,
			   const unsigned long *ips, u32 depth, u32 info)
{
	/* Pairs with smp_store_release() in sm_slot_publish(). */
	u32 d = smp_load_acquire(&s->depth);

	if (!d)
		return -1;
	if (d != depth || READ_ONCE(s->info) != info)
		return 0;
	return !memcmp(&map->frames[READ_ONCE(s->frame_off)], ips,
		       depth * sizeof(*ips));
}

/**
 * sm_map_get_cookie() - find or insert a stack and return its cookie
 * @map: the map
 * @ips: the stack, innermost frame first, @depth raw kernel addresses
 * @depth: number of frames, 1..STACKMAP_MAX_DEPTH
 * @info: sm_info() of the owning event and the STACKMAP_FLAG_* bits: part
 *	of the key, so one cookie names one owner
 * @cookie: set to generation << 32 | slot on success
 *
 * Context: any, NMI included; the caller must be inside an RCU read-side
 * (preempt-disabled) section.  Never sleeps, never allocates.
 *
 * Return: SM_LOOKUP_HIT when the stack was already stored, SM_LOOKUP_INSERTED
 * when this call stored it, or a positive enum stackmap_fallback_reason when
 * no cookie can be given (then @cookie is untouched and the caller records
 * the stack whole).
 */
int sm_map_get_cookie(struct sm_map *map, const unsigned long *ips,
		      u32 depth, u32 info, u64 *cookie)
{
	struct sm_reservation res = { .held = false };
	u32 mask = map->nr_slots - 1;
	u32 h, idx, probe, gen;

	if (!depth || depth > STACKMAP_MAX_DEPTH)
		return STACKMAP_FALLBACK_FULL;
	/* Pairs with smp_store_release() in sm_map_reset_finish(). */
	if (smp_load_acquire(&map->resetting))
		return STACKMAP_FALLBACK_RESET;
	gen = READ_ONCE(map->generation);

	h = sm_hash(map, ips, depth, info);
	for (probe = 0, idx = h & mask; probe < SM_MAX_PROBE;
	     probe++, idx = (idx + 1) & mask) {
		struct sm_slot *s = &map->slots[idx];
		u32 key = READ_ONCE(s->hash);
		int m;

		if (!key) {
			if (!res.held && !sm_reserve(map, depth, &res))
				return STACKMAP_FALLBACK_FULL;
			/* The claim; fully ordered, pairs with itself. */
			key = cmpxchg(&s->hash, 0, h);
			if (!key) {
				sm_slot_publish(map, s, ips, depth, info, &res);
				*cookie = stackmap_cookie_make(gen, idx);
				return SM_LOOKUP_INSERTED;
			}
			/* Lost the race: look at what the winner stores. */
		}
		if (key != h)
			continue;
		m = sm_slot_matches(map, s, ips, depth, info);
		if (m < 0) {
			sm_unreserve(map, depth, &res);
			return STACKMAP_FALLBACK_INFLIGHT;
		}
		if (m) {
			sm_unreserve(map, depth, &res);
			sm_slot_hit(map, s);
			*cookie = stackmap_cookie_make(gen, idx);
			return SM_LOOKUP_HIT;
		}
	}
	sm_unreserve(map, depth, &res);
	return STACKMAP_FALLBACK_PROBE;
}

/**
 * sm_map_last_define() - when and where a slot was last defined
 * @map: the map
 * @slot: slot index, < map->nr_slots
 * @d: filled in; @d->epoch is 0 when the slot was never defined
 *
 * Context: any.  The epoch and its consumers are read as one word; the CPU
 * and time may be those of a racing sm_map_note_define(), which then errs
 * towards one definition too many, which decoders accept.
 */
void sm_map_last_define(const struct sm_map *map, u32 slot,
			struct sm_define *d)
{
	const struct sm_slot *s = &map->slots[slot];
	/* Pairs with the ordering of cmpxchg() in sm_map_note_define(). */
	u64 defined = smp_load_acquire(&s->defined);

	d->epoch = defined >> 32;
	d->consumers = (u32)defined;
	d->cpu = READ_ONCE(s->defined_cpu);
	d->at = READ_ONCE(s->defined_at);
}

/* Index of @slot's entry in row @cpu of the per-CPU definition times. */
static size_t sm_cpu_define_index(const struct sm_map *map, u32 slot, u32 cpu)
{
	return (size_t)cpu * map->max_entries +
	       READ_ONCE(map->slots[slot].entry);
}

/**
 * sm_map_cpu_define() - when a slot was last defined on one CPU
 * @map: the map
 * @slot: slot index of a published stack (a cookie sm_map_get_cookie()
 *	returned), < map->nr_slots
 * @cpu: the CPU, < map->nr_cpus
 * @d: filled in: @d->epoch of the last definition sm_map_note_define()
 *	noted as written on @cpu (0: none since the last reset), the
 *	consumers that took one there in that epoch, its time @d->at,
 *	@d->cpu = @cpu and @d->flags SM_DEFINE_REUSED when a cookie reused
 *	it since (sm_map_cpu_reuse())
 *
 * Context: any.  Only @cpu writes its row, so a caller on @cpu reads it
 * whole unless it interrupted that write; then it may read one definition's
 * epoch and consumers with another's time, or miss consumers a write it
 * interrupted adds, all of definitions already written.
 */
void sm_map_cpu_define(const struct sm_map *map, u32 slot, u32 cpu,
		       struct sm_define *d)
{
	size_t i = sm_cpu_define_index(map, slot, cpu);
	u64 defined = READ_ONCE(map->cpu_defined[i]);

	d->epoch = defined >> 32;
	d->consumers = (u32)defined & ~SM_DEFINE_REUSED;
	d->flags = (u32)defined & SM_DEFINE_REUSED;
	d->cpu = cpu;
	d->at = READ_ONCE(map->cpu_defined_at[i]);
}

/*
 * The consumers word of a note: @d's, and in @old's epoch also @old's unless
 * @d replaces them.  A new definition is not reused yet.
 */
static u64 sm_define_word(u64 old, const struct sm_define *d)
{
	u64 new = (u64)d->epoch << 32 | (d->consumers & ~SM_DEFINE_REUSED);

	if ((u32)(old >> 32) == d->epoch && !(d->flags & SM_DEFINE_REPLACE))
		new |= (u32)old & ~SM_DEFINE_REUSED;
	return new;
}

/*
 * This CPU's row: a plain update, since no other CPU writes it.  An NMI
 * noting a definition between the read and the write loses its consumers
 * (never adds any): a consumer is defined again, which decoders accept.
 */
static void sm_note_cpu_define(struct sm_map *map, u32 slot,
			       const struct sm_define *d)
{
	size_t i = sm_cpu_define_index(map, slot, d->cpu);
	u64 new = sm_define_word(READ_ONCE(map->cpu_defined[i]), d);

	WRITE_ONCE(map->cpu_defined_at[i], d->at);
	WRITE_ONCE(map->cpu_defined[i], new);
}

/**
 * sm_map_cpu_reuse() - a cookie reused @cpu's last definition of a slot
 * @map: the map
 * @slot: slot index of a published stack, < map->nr_slots
 * @cpu: the CPU the caller runs on, < map->nr_cpus
 *
 * Context: any, on @cpu.  Marks the row SM_DEFINE_REUSED (written only when
 * not marked yet).  An NMI noting a definition between the read and the
 * write loses that definition's consumers, as in sm_map_note_define(), and
 * leaves it marked: it is refreshed once more than it needed.
 */
void sm_map_cpu_reuse(struct sm_map *map, u32 slot, u32 cpu)
{
	size_t i = sm_cpu_define_index(map, slot, cpu);
	u64 old = READ_ONCE(map->cpu_defined[i]);

	if (!(old & SM_DEFINE_REUSED))
		WRITE_ONCE(map->cpu_defined[i], old | SM_DEFINE_REUSED);
}

/* Tries of the epoch-and-consumers update before it gives up. */
#define SM_NOTE_TRIES	4

/**
 * sm_map_note_define() - record that a slot's definition was written
 * @map: the map
 * @slot: slot of a cookie just returned by sm_map_get_cookie()
 * @d: the epoch (non-zero), the consumers that took it, its CPU and time
 *
 * Context: any, on the CPU @d->cpu names (its row of the per-CPU times is
 * written here; sm_map_cpu_define()).  Call it once the definition really
 * reached a ring buffer.  In the slot's epoch the consumers add to those
 * already noted unless @d->flags has SM_DEFINE_REPLACE; a new epoch
 * replaces them.  The row is no longer SM_DEFINE_REUSED.  Racing notes may
 * lose consumers (never add any): then a consumer is defined again, which
 * decoders accept.
 */
void sm_map_note_define(struct sm_map *map, u32 slot,
			const struct sm_define *d)
{
	struct sm_slot *s = &map->slots[slot];
	u64 old = READ_ONCE(s->defined), new, found;
	int tries;

	if (d->cpu < map->nr_cpus)
		sm_note_cpu_define(map, slot, d);
	WRITE_ONCE(s->defined_cpu, d->cpu);
	WRITE_ONCE(s->defined_at, d->at);
	for (tries = 0; tries < SM_NOTE_TRIES; tries++) {
		new = sm_define_word(old, d);
		/* Fully ordered: CPU and time are visible with the word. */
		found = cmpxchg(&s->defined, old, new);
		if (found == old)
			return;
		old = found;
	}
}

/* Hits of an entry over all CPUs, saturating at U32_MAX. */
static u32 sm_entry_hits(const struct sm_map *map, u32 entry)
{
	u64 sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < map->nr_cpus; cpu++)
		sum += (u32)atomic_read(&sm_hits_row(map, cpu)[entry]);
	return sum > U32_MAX ? U32_MAX : (u32)sum;
}

/**
 * sm_map_slot_stack() - read the stack stored in a slot
 * @map: the map
 * @slot: slot index, < map->nr_slots
 * @ips: set to the slot's frames (valid until the next reset)
 * @hits: if non-NULL, set to the slot's hits summed over CPUs, saturating
 *	at U32_MAX
 * @info: if non-NULL, set to the slot's sm_info() word
 *
 * Return: the depth, or 0 when the slot holds no published stack.
 */
u32 sm_map_slot_stack(const struct sm_map *map, u32 slot,
		      const unsigned long **ips, u32 *hits, u32 *info)
{
	const struct sm_slot *s = &map->slots[slot];
	/* Pairs with smp_store_release() in sm_slot_publish(). */
	u32 depth = smp_load_acquire(&s->depth);

	if (!depth)
		return 0;
	*ips = &map->frames[READ_ONCE(s->frame_off)];
	if (hits)
		*hits = sm_entry_hits(map, READ_ONCE(s->entry));
	if (info)
		*info = READ_ONCE(s->info);
	return depth;
}

/**
 * sm_map_cpu_expire() - a CPU's definition of a slot serves no more cookies
 * @map: the map
 * @slot: slot index of a published stack, < map->nr_slots
 * @cpu: the CPU the caller runs on, < map->nr_cpus
 * @at: the time of the definition to expire
 *
 * Context: any, on @cpu.  When @cpu's row still holds the definition of time
 * @at, its time becomes 0, as if written at the start of the clock: a caller
 * that reuses definitions younger than some age no longer reuses it.  Epoch
 * and consumers stay.
 */
void sm_map_cpu_expire(struct sm_map *map, u32 slot, u32 cpu, u64 at)
{
	size_t i = sm_cpu_define_index(map, slot, cpu);

	if (READ_ONCE(map->cpu_defined_at[i]) == at)
		WRITE_ONCE(map->cpu_defined_at[i], 0);
}

/**
 * sm_map_cpu_expire_all() - no definition of a CPU serves a cookie any more
 * @map: the map
 * @cpu: the CPU the caller runs on, < map->nr_cpus
 *
 * Context: any, on @cpu; @map->max_entries stores.  Every time of @cpu's
 * row becomes 0 (sm_map_cpu_expire()).
 */
void sm_map_cpu_expire_all(struct sm_map *map, u32 cpu)
{
	u64 *at = &map->cpu_defined_at[(size_t)cpu * map->max_entries];
	u32 i;

	for (i = 0; i < map->max_entries; i++)
		WRITE_ONCE(at[i], 0);
}

/**
 * sm_map_cookie_stack() - read the stack a cookie of the current generation
 *	names
 * @map: the map
 * @cookie: a cookie sm_map_get_cookie() returned
 * @ips: set to the slot's frames (valid until the next reset, which waits
 *	for the caller's RCU read-side section)
 * @info: set to the slot's sm_info() word
 *
 * Context: any; the caller must be inside an RCU read-side (preempt-
 * disabled) section, as for sm_map_get_cookie().
 *
 * Return: the depth, or 0 while a reset is in progress, for a cookie of
 * another generation and for a slot out of range or not published.
 */
u32 sm_map_cookie_stack(const struct sm_map *map, u64 cookie,
			const unsigned long **ips, u32 *info)
{
	u32 slot = stackmap_cookie_slot(cookie);

	/* Pairs with smp_store_release() in sm_map_reset_finish(). */
	if (smp_load_acquire(&map->resetting) ||
	    stackmap_cookie_generation(cookie) != READ_ONCE(map->generation) ||
	    slot >= map->nr_slots)
		return 0;
	return sm_map_slot_stack(map, slot, ips, NULL, info);
}

/**
 * sm_map_reset_begin() - stop new inserts and lookups before a reset
 * @map: the map
 *
 * From now on sm_map_get_cookie() fails with STACKMAP_FALLBACK_RESET.  The
 * caller must then wait until every caller already inside
 * sm_map_get_cookie() has left (synchronize_rcu() in the kernel) and call
 * sm_map_reset_finish().  Process context; callers serialize resets.
 */
void sm_map_reset_begin(struct sm_map *map)
{
	/*
	 * Full barrier after the store: the flag is visible before the
	 * caller's grace-period wait starts.  Pairs with smp_load_acquire()
	 * in sm_map_get_cookie() (through that grace period).
	 */
	smp_store_mb(map->resetting, 1);
}

/**
 * sm_map_reset_finish() - clear the map and open a new generation
 * @map: the map, after sm_map_reset_begin() and a grace period
 * @generation: the new generation (sm_generation_next() of the old one)
 */
void sm_map_reset_finish(struct sm_map *map, u32 generation)
{
	memset(map->slots, 0, (size_t)map->nr_slots * sizeof(*map->slots));
	memset(map->hits, 0,
	       (size_t)map->nr_cpus * map->max_entries * sizeof(*map->hits));
	/* Entries are handed out again: no CPU holds a definition of them. */
	memset(map->cpu_defined, 0, (size_t)map->nr_cpus *
	       map->max_entries * sizeof(*map->cpu_defined));
	atomic_set(&map->entries_used, 0);
	atomic_set(&map->frames_used, 0);
	atomic_set(&map->frames_wasted, 0);
	WRITE_ONCE(map->generation, generation);
	/*
	 * The cleared table and the new generation become visible before
	 * inserts resume.  Pairs with smp_load_acquire() in
	 * sm_map_get_cookie().
	 */
	smp_store_release(&map->resetting, 0);
}

/**
 * sm_generation_next() - the generation that follows @prev
 * @prev: the previous generation, or 0 for the first map
 * @now_units: a clock that only grows within a boot (the module uses boot
 *	time in units of 2^20 ns, about 1 ms)
 *
 * Generations strictly increase, skip 0, and start from the clock so that a
 * map created later (after a module reload) starts above every generation
 * an earlier map of the same boot handed out, as long as each generation was
 * handed out no later than the clock passed it (the module waits for that).
 *
 * Return: max(@prev + 1, @now_units), never 0.
 */
u32 sm_generation_next(u32 prev, u32 now_units)
{
	u32 next = prev + 1;

	if (now_units > next)
		next = now_units;
	return next ? next : 1;
}
