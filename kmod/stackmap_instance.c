// SPDX-License-Identifier: GPL-2.0
/*
 * The module's map instance and its reset: the one struct sm_map every
 * attached point records into, its size parameters, the lock that orders
 * resets and readers, the generation clock and this load's map identity.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/timekeeping.h>

#include "stackmap_instance.h"

static unsigned int max_entries = 16384;
module_param(max_entries, uint, 0444);
MODULE_PARM_DESC(max_entries, "Most distinct stacks stored at once (default 16384)");

static unsigned int max_frames = 262144;
module_param(max_frames, uint, 0444);
MODULE_PARM_DESC(max_frames, "Frames (addresses) of stack storage shared by all stacks (default 262144)");

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
static u32 stackmap_new_generation(u32 prev)
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

/**
 * stackmap_instance_init() - draw this load's map id and allocate the map
 *
 * Context: module init, before anything can record or read the map.
 * Return: 0, or the error of sm_map_init() (logged).
 */
int stackmap_instance_init(void)
{
	int ret;

	do {
		stackmap_map_id = get_random_u64();
	} while (!stackmap_map_id);
	ret = sm_map_init(&stackmap_map, max_entries, max_frames,
			  get_random_u32(), stackmap_new_generation(0));
	if (ret)
		pr_err("cannot allocate map (%u entries, %u frames): %d\n",
		       max_entries, max_frames, ret);
	return ret;
}

/**
 * stackmap_instance_exit() - free the map
 *
 * Context: module exit, once no probe, callback or file can use the map.
 */
void stackmap_instance_exit(void)
{
	sm_map_destroy(&stackmap_map);
}
