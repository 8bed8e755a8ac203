// SPDX-License-Identifier: GPL-2.0
/*
 * The hot path: capture the stack of a traced hit, turn it into a cookie and
 * emit the events.  Runs in whatever context the traced point runs in, NMI
 * included, always with preemption disabled (tracepoint probes and ftrace
 * callbacks are called that way).
 */
#include <linux/module.h>
#include <linux/stacktrace.h>
#include <linux/trace_events.h>

#include "stackmap.h"
#include "stackmap_trace.h"

/*
 * Per-CPU stack buffers, one per nesting level (task, softirq, irq, NMI), as
 * the kernel's own __ftrace_trace_stack() does, so a 64-frame stack never
 * sits on the (possibly small) interrupt stack.  Capture takes a few extra
 * frames that trimming removes.
 */
#define SM_NESTING	4
#define SM_CAPTURE	(STACKMAP_MAX_DEPTH + 8)

struct stackmap_buffers {
	unsigned long ips[SM_NESTING][SM_CAPTURE];
};

static DEFINE_PER_CPU(struct stackmap_buffers, stackmap_buffers);
static DEFINE_PER_CPU(int, stackmap_nesting);
/* Per nesting level: a stack_define emitted at that level reached a buffer. */
static DEFINE_PER_CPU(bool[SM_NESTING], stackmap_define_ok);
DEFINE_PER_CPU(struct stackmap_stats, stackmap_stats);

/* Recording epoch: bumped each time stack_cookie is enabled, never 0. */
static u32 stackmap_epoch = 1;

int stackmap_cookie_event_reg(void)
{
	u32 next = READ_ONCE(stackmap_epoch) + 1;

	WRITE_ONCE(stackmap_epoch, next ? next : 1);
	return 0;
}

void stackmap_cookie_event_unreg(void)
{
}

/* How far SM_SKIP_UNTIL looks for its range before keeping everything. */
#define SM_SKIP_UNTIL_MAX	8

static bool stackmap_in_range(unsigned long ip, const struct stackmap_skip *skip)
{
	return ip - skip->start < skip->size;
}

/*
 * Drop the frames of this module (the probe and the capture), then apply
 * @skip (see enum stackmap_skip_mode).  Return the index of the first frame
 * to keep.
 */
static unsigned int stackmap_trim(const unsigned long *ips, unsigned int nr,
				  const struct stackmap_skip *skip)
{
	unsigned int i = 0, j;

	while (i < nr && within_module(ips[i], THIS_MODULE))
		i++;
	if (!skip || !skip->size || i >= nr)
		return i;
	if (skip->mode == SM_SKIP_ONE)
		return stackmap_in_range(ips[i], skip) ? i + 1 : i;
	for (j = i; j < nr && j < i + SM_SKIP_UNTIL_MAX; j++)
		if (stackmap_in_range(ips[j], skip))
			return j;
	return i;
}

/**
 * stackmap_define_written() - note that a stack_define reached a ring buffer
 *
 * Called from the event's TP_fast_assign, which runs only after a buffer
 * (top level or instance) accepted the reservation, in the context of the
 * stackmap_record() that emitted it.
 */
void stackmap_define_written(void)
{
	int level = this_cpu_read(stackmap_nesting) - 1;

	if (level >= 0 && level < SM_NESTING)
		this_cpu_write(stackmap_define_ok[level], true);
}

/*
 * Emit the definition of @cookie if this recording has not written it yet.
 * The slot is marked defined for the epoch only once a ring buffer really
 * took the definition: trace-cmd enables events while tracing is still off,
 * and a definition marked then would be lost for the whole recording.  Two
 * CPUs may both emit the same definition; decoders accept identical ones.
 */
static void stackmap_maybe_define(u64 cookie, const unsigned long *ips,
				  u32 depth, int level)
{
	u32 slot = stackmap_cookie_slot(cookie);
	u32 epoch = READ_ONCE(stackmap_epoch);

	if (!trace_stack_define_enabled() ||
	    sm_map_slot_defined(&stackmap_map, slot, epoch))
		return;
	this_cpu_write(stackmap_define_ok[level], false);
	trace_stack_define(cookie, ips, depth);
	if (!this_cpu_read(stackmap_define_ok[level]))
		return;
	sm_map_claim_define(&stackmap_map, slot, epoch);
	this_cpu_inc(stackmap_stats.defines);
}

static void stackmap_emit(const unsigned long *ips, u32 depth, int level)
{
	u64 cookie;
	int ret;

	this_cpu_inc(stackmap_stats.lookups);
	ret = sm_map_get_cookie(&stackmap_map, ips, depth, &cookie);
	if (ret > 0) {
		this_cpu_inc(stackmap_stats.fallback[ret]);
		trace_stack_fallback(ret, ips, depth);
		return;
	}
	if (ret == SM_LOOKUP_HIT)
		this_cpu_inc(stackmap_stats.hits);
	else
		this_cpu_inc(stackmap_stats.inserts);
	stackmap_maybe_define(cookie, ips, depth, level);
	trace_stack_cookie(cookie);
}

/**
 * stackmap_record() - record the stack of the current traced hit
 * @skip: a code range to trim after this module's frames (the tracepoint's
 *	iterator), or NULL
 *
 * Context: any, preemption disabled.  Emits stack_define (first use in a
 * recording), then stack_cookie; or stack_fallback when the map cannot give
 * a cookie.  Every outcome is counted in stackmap_stats.
 */
void stackmap_record(const struct stackmap_skip *skip)
{
	unsigned int nr, first, depth;
	unsigned long *ips;
	int level;

	level = this_cpu_inc_return(stackmap_nesting) - 1;
	/* Pairs with the barrier() before the decrement below. */
	barrier();
	if (level >= SM_NESTING) {
		this_cpu_inc(stackmap_stats.nested);
		goto out;
	}
	ips = this_cpu_ptr(&stackmap_buffers)->ips[level];
	nr = stack_trace_save(ips, SM_CAPTURE, 0);
	first = stackmap_trim(ips, nr, skip);
	depth = min_t(unsigned int, nr - first, stackmap_max_depth);
	if (!depth) {
		this_cpu_inc(stackmap_stats.empty);
		goto out;
	}
	stackmap_emit(ips + first, depth, level);
out:
	barrier();
	this_cpu_dec(stackmap_nesting);
}

/**
 * stackmap_stats_sum() - add up the per-CPU counters
 * @sum: zeroed and filled with the totals over all possible CPUs
 */
void stackmap_stats_sum(struct stackmap_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct stackmap_stats *s = per_cpu_ptr(&stackmap_stats, cpu);

		sum->lookups += READ_ONCE(s->lookups);
		sum->hits += READ_ONCE(s->hits);
		sum->inserts += READ_ONCE(s->inserts);
		for (i = 0; i < STACKMAP_FALLBACK_MAX; i++)
			sum->fallback[i] += READ_ONCE(s->fallback[i]);
		sum->defines += READ_ONCE(s->defines);
		sum->nested += READ_ONCE(s->nested);
		sum->empty += READ_ONCE(s->empty);
		sum->recursion += READ_ONCE(s->recursion);
	}
}
