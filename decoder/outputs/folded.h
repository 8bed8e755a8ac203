/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --folded output, Brendan Gregg's folded stacks for
 * flamegraph.pl and compatible tools.
 *
 * One line per distinct (event, stack) pair, or per distinct stack with
 * --merge: the frames root first (outermost caller first, the frame that hit
 * the event last), separated by ';', then a space and the stack's weight
 * (sset_entry.weight: the number of events, or with --weight the sum of
 * the field):
 *
 *   sched_switch;secondary_startup_64_no_verify;...;__schedule 12
 *
 * Without --merge the event name is the root frame; an entry's own root
 * frames (folded_root(): --off-cpu's task and state, and --wakers' waker
 * comm, waker frames and "--" before them) come next.  A frame is its function
 * name (no offset), or 0xADDR when no symbol covers it; with --vmlinux, the
 * inlined frames of an address are frames of their own.  A cookie that did
 * not resolve is a single frame "[stale cookie]", "[unknown cookie]" or
 * "[conflicting cookie]"; an unreadable stack record is "[corrupt stack]".
 * A truncated stack (STACKMAP_FLAG_TRUNCATED) starts with the frame
 * "[truncated]", where its missing outer frames would be:
 *
 *   sched_switch;[truncated];...;__schedule 3
 *
 * An orphan stack (one whose owner is not the event before it) is charged
 * to no event: without --merge it is listed under the root frame
 * "[orphan SYSTEM:EVENT]" (its owner; "[orphan event id N]" when the trace
 * has no format for it), with --merge it is left out (the summary counts
 * it); under --weight orphans weigh nothing and are left out in both.
 * Events that carry no stack are not counted.  Lines are sorted
 * bytewise.
 */
#ifndef FGDECODE_FOLDED_H
#define FGDECODE_FOLDED_H

#include <stdbool.h>
#include <stdio.h>

#include <event-parse.h>

#include "folding.h"
#include "stackset.h"
#include "symbolize.h"

/**
 * folded_print() - print the counted stacks of @set as folded lines
 * @out: stream
 * @sz: the symbolizer (holds the trace's handle, for event names)
 * @set: stacks counted with sset_count()
 * @merge: one line per stack over all events, without the event root
 *
 * Return: 0, or -ENOMEM.
 */
int folded_print(FILE *out, const struct symbolizer *sz,
		 struct stackset *set, bool merge);

/* Called by folded_foreach(): nonzero stops the walk and is returned. */
typedef int (*folded_fn)(void *ctx, const char *stack, sm_u64 weight);

/**
 * folded_foreach() - every folded line of @set, unsorted, to @fn
 * @sz: symbolizer
 * @set: stacks counted with sset_count*()
 * @merge: as for folded_print()
 * @fn: gets each line's stack ("ROOT;...;LEAF", without the weight; valid
 *	during the call) and weight; two entries may give the same stack
 *	(stacks that differ only in offsets), each is passed
 * @ctx: passed to @fn
 *
 * What folded_print() prints, line by line: fgdecode diff matches the
 * stacks of two traces by these strings.
 *
 * Return: 0, -ENOMEM, or what @fn returned.
 */
int folded_foreach(const struct symbolizer *sz, struct stackset *set,
		   bool merge, folded_fn fn, void *ctx);

#endif /* FGDECODE_FOLDED_H */
