// SPDX-License-Identifier: GPL-2.0
/*
 * The module's map instance and its reset: the one struct sm_map every
 * attached point records into, the lock that orders resets and readers,
 * the generation clock and this load's map identity.
 */
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>

#include "stackmap_instance.h"

struct sm_map stackmap_map;
DEFINE_MUTEX(stackmap_lock);
u32 stackmap_resets;
/* This load's map identity (events.h: "Map identity"); never 0. */
u64 stackmap_map_id;

/* Boot time in units of 2^20 ns (about 1 ms): the generation clock. */
static u32 stackmap_clock(void)
{
	return (u32)(ktime_get_boottime_ns() >> 20);
}

/*
 * The generation after @prev.  Before handing it out, wait until the clock
 * has passed it, so that any later map of this boot (after a reset or a
 * module reload) starts above it: generations never repeat within a boot
 * (for 52 days of uptime, when the 32-bit clock wraps).
 */
u32 stackmap_new_generation(u32 prev)
{
	u32 gen = sm_generation_next(prev, stackmap_clock());
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if ((s32)(stackmap_clock() - gen) > 0)
			break;
		usleep_range(1000, 1100);
	}
	return gen;
}

/**
 * stackmap_reset() - empty the map and start a new generation
 *
 * Context: process, may sleep.  Safe against concurrent lookups from any
 * context, which fall back (STACKMAP_FALLBACK_RESET) while it runs; after
 * it returns no cookie of the old generation is emitted.
 *
 * Return: 0.
 */
int stackmap_reset(void)
{
	u32 gen;

	mutex_lock(&stackmap_lock);
	sm_map_reset_begin(&stackmap_map);
	/*
	 * Every lookup runs with preemption disabled (tracepoint probes,
	 * ftrace callbacks, NMI handlers): after a grace period none is left
	 * inside the map.
	 */
	synchronize_rcu();
	gen = stackmap_new_generation(stackmap_map.generation);
	sm_map_reset_finish(&stackmap_map, gen);
	stackmap_resets++;
	mutex_unlock(&stackmap_lock);
	return 0;
}
