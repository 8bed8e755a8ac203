// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pairing (pair.h): the stack record of each event, by the rule
 * of include/stackmap/events.h, "Which event a stack belongs to".
 */
#include "pair.h"
#include "tep_stack.h"

bool pair_is_stack(enum reader_kind kind)
{
	return kind == READER_COOKIE || kind == READER_FALLBACK ||
	       kind == READER_KSTACK;
}

/*
 * The kind of the next record of @stream, if it continues the event just
 * read; READER_NONE when there is none, or events were lost in between (a
 * stack there would belong to a lost event).
 */
static enum reader_kind next_kind(struct reader *r, int stream)
{
	struct tep_record *next = reader_peek(r, stream);

	if (!next || next->missed_events)
		return READER_NONE;
	return reader_kind(r, next);
}

/*
 * Was the stack record @next, of kind @k, written after a stack record went
 * missing on its CPU (STACKMAP_COOKIE_AFTER_LOSS, STACKMAP_FLAG_AFTER_LOSS)?
 * Whatever its owner, the missing one may have been @event's, and a later
 * record of @event's type may be that of an event whose own went missing:
 * the scan ends there.
 */
static bool after_loss(struct resolver *res, struct tep_record *next,
		       enum reader_kind k)
{
	return (k == READER_COOKIE || k == READER_FALLBACK) &&
	       tepstack_after_loss(reader_fields(res->reader, k), next);
}

/* Did @event's task write the stack record @next (events.h)? */
static bool same_task(struct resolver *res, struct tep_record *event,
		      struct tep_record *next)
{
	return tep_data_pid(res->reader->tep, next) ==
	       tep_data_pid(res->reader->tep, event);
}

/*
 * May the scan for the stack of an event of @type pass the event @next of
 * the same context?  Only when @type owns stacks and @next is of another
 * type: on PREEMPT_RT an interrupt that arrives between an event and its
 * stack record wakes its threads on the way out, after its hard-IRQ count
 * is gone, so a sched_waking with the interrupted task's context is written
 * in between (seen on 6.12-rt: kmem:kmalloc, sched_waking, stack_cookie).
 * The next event of @type itself ends the scan: a stack after it can be
 * that event's (or of one of its kind the filter dropped), never @event's;
 * in task context only the next one of @event's own task does.
 */
static bool passes_event(struct resolver *res, struct tep_record *event,
			 sm_u32 type, unsigned int ctx, struct tep_record *next)
{
	if (!resolve_is_owner(res, type))
		return false;
	if ((sm_u32)reader_type(res->reader, next) != type)
		return true;
	/*
	 * Another task's event of @type, in task context: @event's task was
	 * preempted between its event and its stack record (probes run
	 * preemptible on 7.x; the module pins the task to its CPU, so its
	 * stack record comes later on this one).
	 */
	return !stackmap_context_level(ctx) && !same_task(res, event, next);
}

/*
 * Which record of @stream's lookahead is the stack of @event (events.h,
 * "Which event a stack belongs to"): the first stack record of @event's
 * context that names @event's type as its owner.  The scan passes
 * stack_define records, other stack records of that context (orphans),
 * whatever an interrupt nested in between recorded (records of a deeper
 * context) and, for a type that owns stacks, events of other types in its
 * context (passes_event()); it stops at lost events, at the next event of
 * @event's type in its context, at any other event of its context when its
 * type owns no stack, at a record of a shallower context (@event's
 * context has ended), at a stack record written after a loss (after_loss())
 * and at a stack of @event's type that another task wrote (same_task()).
 * When no stack names @event, the first stack record of its context whose
 * owner is not known (an unresolved cookie, a stackmap 0.1 definition,
 * ftrace's kernel_stack) is taken, as the stack that follows it.
 *
 * Return: the record's position for reader_take_at(), with its kind in
 * @kind; -1 (and READER_NONE) when @event carries no stack, with @at_end set when the scan
 * met the end of @stream (nothing of @event's context was written after
 * it: tracing stopped, or trace-cmd stopped reading; not when the scan
 * passed an event of that context on its way).
 */
static int find_stack(struct resolver *res, struct tep_record *event,
		      int stream, enum reader_kind *kind, bool *at_end)
{
	sm_u32 type = (sm_u32)reader_type(res->reader, event);
	unsigned int ctx = reader_context(res->reader, event), c;
	enum reader_kind k, ownerless_kind = READER_NONE;
	int i, ownerless = -1;
	bool first = true, passed = false;
	struct tep_record *next;
	sm_u32 owner;

	*at_end = false;
	for (i = 0; i < READER_LOOKAHEAD; i++) {
		next = reader_peek_at(res->reader, stream, i);
		if (!next) {
			*at_end = ownerless < 0 && !passed;
			break;
		}
		if (next->missed_events)
			break;
		k = reader_kind(res->reader, next);
		if (k == READER_DEFINE)
			continue;
		/* Whatever its context: the refusal may have come before it. */
		if (after_loss(res, next, k))
			break;
		c = reader_context(res->reader, next);
		if (c != ctx) {
			if (stackmap_context_level(c) > stackmap_context_level(ctx))
				continue;	/* an interrupt nested in */
			break;
		}
		if (!pair_is_stack(k)) {
			if (!passes_event(res, event, type, ctx, next))
				break;
			first = false;
			passed = true;
			continue;
		}
		if (resolve_owner(res, k, next, &owner)) {
			if (owner == type && same_task(res, event, next)) {
				*kind = k;
				return i;
			}
			/* Another task's, after its own event (passes_event()). */
			if (owner == type && stackmap_context_level(ctx))
				break;
			passed |= owner == type;
		} else if (first && same_task(res, event, next)) {
			ownerless = i;
			ownerless_kind = k;
		}
		first = false;
	}
	*kind = ownerless_kind;
	return ownerless;
}


struct tep_record *pair_take_define(struct reader *r, int stream)
{
	if (next_kind(r, stream) != READER_DEFINE)
		return NULL;
	return reader_take(r, stream);
}

struct tep_record *pair_take_stack(struct reader *r, struct resolver *res,
				   struct tep_record *event, int stream,
				   enum reader_kind *kind, bool *cut)
{
	bool at_end;
	int i;

	*cut = false;
	i = find_stack(res, event, stream, kind, &at_end);
	if (i >= 0)
		return reader_take_at(r, stream, i);
	if (resolve_is_owner(res, reader_type(r, event))) {
		res->stats.stackless++;
		res->stats.stackless_at_end += at_end;
		*cut = at_end;
	}
	return NULL;
}
