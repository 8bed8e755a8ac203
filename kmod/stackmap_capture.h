/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording a hit's stack, for every hook of the module (tracepoint probes,
 * typed probes, function entries): stackmap_record() begins the hit, walks
 * the stack in the hook's own frame and ends it.  The walk is inlined into
 * each hook because every frame of this module under stack_trace_save()
 * costs the unwinder a module lookup or two (__module_address() for its ORC
 * entry, again for kernel_text_address()): about 930 instructions a frame
 * on 7.3.4, tests/bench/RESULTS-newest.md.
 */
#ifndef STACKMAP_CAPTURE_H
#define STACKMAP_CAPTURE_H

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/stacktrace.h>

#include "stackmap.h"

/* Frames a capture takes: max_depth's limit and the module's own few. */
#define SM_CAPTURE	(STACKMAP_MAX_DEPTH + 8)

/**
 * struct stackmap_hit - a hit between stackmap_hit_begin() and _end()
 * @ips: its capture buffer, SM_CAPTURE return addresses
 * @level: its nesting level on this CPU
 */
struct stackmap_hit {
	unsigned long *ips;
	int level;
};

bool stackmap_hit_begin(struct stackmap_hit *hit, bool unpinned);
void stackmap_hit_end(const struct stackmap_hit *hit, int nr,
		      const struct stackmap_skip *skip, u16 owner);

/* See stackmap_record.c, which defines it. */
DECLARE_PER_CPU(unsigned int, stackmap_capturing);

/* The context a capture runs in, 0 to 3: task, softirq, hard IRQ, NMI. */
static __always_inline unsigned int stackmap_context(void)
{
	if (in_nmi())
		return 3;
	if (in_hardirq())
		return 2;
	return in_serving_softirq() ? 1 : 0;
}

/*
 * stack_trace_save() into @ips (SM_CAPTURE entries), noted in
 * stackmap_capturing; @transition: a second capture in a context already
 * capturing is allowed.  Return: the number of frames, or -1 for a capture
 * made from inside a capture of the same context (see stackmap_capturing).
 */
static __always_inline int stackmap_capture(unsigned long *ips,
					    bool transition)
{
	unsigned int ctx = stackmap_context(), bit = BIT(ctx), capturing;
	int nr;

	capturing = this_cpu_read(stackmap_capturing);
	if (capturing & bit) {
		bit = BIT(ctx + 4);
		if (!transition || (capturing & bit))
			return -1;
	}
	/*
	 * An interrupt between the read and here runs in another context and
	 * leaves the word as it found it.
	 */
	this_cpu_or(stackmap_capturing, bit);
	nr = stack_trace_save(ips, SM_CAPTURE, 0);
	this_cpu_and(stackmap_capturing, ~bit);
	return nr;
}

/**
 * stackmap_record() - record the stack of the current traced hit
 * @skip: a code range to trim after this module's frames (the tracepoint's
 *	iterator, the function's ftrace call), or NULL
 * @owner: trace event id of the event the stack belongs to
 * @unpinned: the task was not kept on the CPU of its event (see
 *	stackmap_hit_begin())
 *
 * Context: any, NMI included (stackmap_hit_begin(), stackmap_hit_end()).
 * Inlined into the hook that calls it, so that the hook's frame is the only
 * one of this module under the walk.  A function hit (@owner the function
 * owner) never captures inside a capture of its context; a tracepoint hit
 * may once (stackmap_capturing).
 */
static __always_inline void stackmap_record(const struct stackmap_skip *skip,
					    u16 owner, bool unpinned)
{
	struct stackmap_hit hit;

	if (stackmap_hit_begin(&hit, unpinned))
		stackmap_hit_end(&hit,
				 stackmap_capture(hit.ips,
						  owner != stackmap_function_owner()),
				 skip, owner);
}

#endif /* STACKMAP_CAPTURE_H */
