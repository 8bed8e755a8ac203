/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pairing: which event a stack record belongs to, the rule of
 * include/stackmap/events.h ("Which event a stack belongs to"), written
 * once for every reader of a trace: fgdecode (decoder/pipeline/pair.c), the
 * KernelShark plugin (kshark/kss.c) and the libtraceevent plugin
 * (plugin/plugin_watch.c).
 *
 * The rule is a relation between one event E and the records that follow
 * it on its CPU (of its buffer), in the order that CPU wrote them:
 * sm_pairing_step() says what one such record R means for E: R is E's
 * stack record, R may be (a record whose owner is not known, taken only
 * when no stack naming E's type follows), E can take no record from R on,
 * or E is still waiting.  Two drivers:
 *
 *   - a reader that can look ahead (fgdecode, the KernelShark plugin) opens
 *     E alone (sm_pairing_event_init()) and steps it through the records
 *     after it until it takes one or ends;
 *   - a reader that sees records one by one (the libtraceevent plugin) feeds every record
 *     of every CPU to one struct sm_pairing (sm_pairing_note()), which keeps
 *     the events of each CPU that can still take a stack ("open"), steps
 *     each of them through every record, and says of each stack record which
 *     open event takes it, or why it is an orphan.
 *
 * What E and R are to the rule (struct sm_pairing_record): their kind, type,
 * task (common_pid), context (common_flags & STACKMAP_CONTEXT_FLAGS), lost
 * events before R (tep_record missed_events), and for a stack record its
 * owner (STACKMAP_OWNER_NONE when not known: an unresolved cookie, a
 * stackmap 0.1 definition, ftrace's kernel_stack) and its after-loss flag
 * (STACKMAP_COOKIE_AFTER_LOSS, STACKMAP_FLAG_AFTER_LOSS).  Nothing here
 * reads a trace: the callers fill these from their records.
 */
#ifndef LIBSTACKMAP_PAIRING_H
#define LIBSTACKMAP_PAIRING_H

#include <stdbool.h>

#include "stackmap/types.h"

/* What a record is to the rule. */
enum sm_pairing_kind {
	SM_PAIRING_EVENT,	/* any event that is not one below */
	SM_PAIRING_DEFINE,	/* stack_define: passed over */
	SM_PAIRING_STACK,	/* stack_cookie, stack_fallback, ftrace's
				 * kernel_stack */
};

/**
 * struct sm_pairing_record - one record, as the rule sees it
 * @kind: what it is
 * @type: its event id (common_type); for an event, the type a stack record
 *	names as owner
 * @pid: its task (common_pid)
 * @context: common_flags & STACKMAP_CONTEXT_FLAGS (events.h)
 * @missed: events were lost on its CPU right before it (the ring buffer's
 *	missed_events): nothing before it owns a stack
 * @owns: an event only: its type owns stacks (the trace holds stacks
 *	captured for it); false lets the rule end it at the next event of its
 *	context.  A reader that does not know passes true: that keeps the
 *	event open longer and never changes a pairing (a stack record naming
 *	the type makes it an owner)
 * @owner: a stack record only: the event id it names (events.h, "Owner");
 *	STACKMAP_OWNER_NONE when not known
 * @after_loss: a stack record only: flagged as written after a stack record
 *	went missing on its CPU (cookie.h, STACKMAP_COOKIE_AFTER_LOSS)
 * @tag: the caller's name for the record (an offset, a time stamp, an
 *	index): what struct sm_pairing_verdict gives back for an event
 */
struct sm_pairing_record {
	enum sm_pairing_kind kind;
	int type;
	int pid;
	unsigned int context;
	bool missed;
	bool owns;
	sm_u32 owner;
	bool after_loss;
	sm_u64 tag;
};

/**
 * struct sm_pairing_event - an event that can still take a stack record
 * @type: its event id
 * @pid: its task
 * @context: its context bits
 * @owns: its type owns stacks (struct sm_pairing_record)
 * @quiet: no record of its context followed it yet: a stack record whose
 *	owner is not known, by its task, is then its candidate
 * @followed: an event of its context, or a stack record of its type by
 *	another task, followed it (so its own stack record may have been lost
 *	rather than not written: fgdecode counts an event cut short by the
 *	end of its stream only when this is false)
 * @tag: the record's tag
 */
struct sm_pairing_event {
	int type;
	int pid;
	unsigned int context;
	bool owns;
	bool quiet;
	bool followed;
	sm_u64 tag;
};

/* What a later record means for an event (sm_pairing_step()). */
enum sm_pairing_step {
	SM_PAIRING_PASS,	/* not its stack record; it may take a later one */
	SM_PAIRING_TAKE,	/* its stack record */
	SM_PAIRING_CANDIDATE,	/* owner not known, the first record of its
				 * context after it, by its task: its stack
				 * record unless one naming its type follows
				 * before it ends */
	SM_PAIRING_END,		/* it takes no record from this one on */
};

/**
 * sm_pairing_event_init() - open an event
 * @e: filled in
 * @event: the event (@kind SM_PAIRING_EVENT)
 */
void sm_pairing_event_init(struct sm_pairing_event *e,
			   const struct sm_pairing_record *event);

/**
 * sm_pairing_step() - what record @r, the next one after event @e on its
 * CPU that @e has not been stepped through yet, means for @e
 * @e: an open event; its @quiet and @followed are updated
 * @r: the record
 *
 * The rule of events.h, "Which event a stack belongs to": @e's stack
 * record is the first stack record of @e's context (the same context bits)
 * that names @e's type as its owner and was written by @e's task.  Passed
 * over: stack_define records, whatever an interrupt or NMI nested in (a
 * deeper context), other stack records of @e's context (orphans, or those
 * of other events), and, for a type that owns stacks, events of other
 * types in its context (on PREEMPT_RT an interrupt's wakeups on its way
 * out), and in task context other tasks' events of its type and their
 * stack records (@e's task preempted between its event and its stack
 * record, where probes run preemptible: 7.x).  @e ends at lost events, at
 * a stack record flagged after a loss (in any context: the missing one may
 * have been @e's, and a later one may be that of an event whose own went
 * missing), at a record of a shallower context or of the same depth with
 * other bits (@e's context is over), at the next event of its type in its
 * context (of its task, in task context), at any other event of its
 * context when its type owns no stack, and, in an interrupt context, at a
 * stack record of its type by another task (the task cannot change within
 * an interrupt: @e's ended).  A stack record whose owner is not known is
 * @e's candidate when it is the first record of @e's context after @e and
 * its task's.
 *
 * Return: what @r is to @e (enum sm_pairing_step); once SM_PAIRING_TAKE or
 * SM_PAIRING_END is returned @e is closed and must not be stepped again.
 */
enum sm_pairing_step sm_pairing_step(struct sm_pairing_event *e,
				     const struct sm_pairing_record *r);

/* Events kept open per CPU by struct sm_pairing; the oldest is dropped. */
#define SM_PAIRING_MAX_OPEN	64

/* What struct sm_pairing says of a stack record (sm_pairing_note()). */
enum sm_pairing_outcome {
	SM_PAIRING_NOT_STACK,	/* the record was no stack record */
	SM_PAIRING_OWN,		/* the stack record of the event @tag */
	SM_PAIRING_OWNERLESS,	/* its owner is not known: no event is checked
				 * against it (never an orphan); @tag is the
				 * event it follows when it is that event's
				 * candidate (@has_event) */
	SM_PAIRING_UNCHECKED,	/* what came before it on its CPU is not known
				 * (struct sm_pairing @partial): its event may
				 * have come before */
	SM_PAIRING_ORPHAN_LOST,	/* events were lost right before it */
	SM_PAIRING_ORPHAN_AFTER_LOSS,	/* flagged after a loss */
	SM_PAIRING_ORPHAN_NO_EVENT,	/* no open event of its owner's type, task
					 * and context: its event was filtered
					 * out, lost, not recorded here, or had
					 * a stack record already */
};

/**
 * struct sm_pairing_verdict - which event a stack record belongs to
 * @outcome: as above
 * @has_event: @tag names an event (SM_PAIRING_OWN, and
 *	SM_PAIRING_OWNERLESS when it is an event's candidate)
 * @tag: that event's struct sm_pairing_record @tag
 */
struct sm_pairing_verdict {
	enum sm_pairing_outcome outcome;
	bool has_event;
	sm_u64 tag;
};

/** sm_pairing_orphan() - is @outcome one of the orphans? */
static inline bool sm_pairing_orphan(enum sm_pairing_outcome outcome)
{
	return outcome >= SM_PAIRING_ORPHAN_LOST;
}

struct sm_pairing_cpu;

/**
 * struct sm_pairing - the open events of every CPU, for a reader that sees
 * each CPU's records in order, one by one
 * @cpus: per CPU, grown on need
 * @nr_cpus: entries of @cpus
 * @from_start: the records fed begin where each CPU's do (a whole trace):
 *	a CPU starts known (sm_pairing_note())
 * @partial: a CPU met from now on starts as after sm_pairing_forget()
 *	with @partial
 *
 * Zero it, or sm_pairing_init() it; sm_pairing_fini() releases it.
 */
struct sm_pairing {
	struct sm_pairing_cpu *cpus;
	int nr_cpus;
	bool from_start;
	bool partial;
};

/**
 * sm_pairing_init() - an empty machine
 * @p: filled in
 * @from_start: the records will be fed from the first of each CPU: a stack
 *	record no event takes is an orphan from the start.  False (a reader
 *	given records from wherever its caller begins, as a libtraceevent
 *	plugin is): on a CPU none of whose events or losses was fed yet, a
 *	stack record is SM_PAIRING_UNCHECKED
 */
void sm_pairing_init(struct sm_pairing *p, bool from_start);

/** sm_pairing_fini() - release what @p holds; it is empty afterwards. */
void sm_pairing_fini(struct sm_pairing *p);

/**
 * sm_pairing_forget() - records were not fed: what every CPU had before is
 * not known from now on
 * @p: the machine
 * @partial: in task context, too, a task's stack record is not checked
 *	until an event of its owner's type by that task was fed on its CPU
 *	(the first of its stack records of that type is SM_PAIRING_UNCHECKED
 *	even after other events: its event may have been printed before, and
 *	its task preempted since)
 *
 * Every CPU is unknown until its next event or loss: a stack record there
 * is SM_PAIRING_UNCHECKED.  The events open stay open.  Lost events (a
 * record with @missed, or a stack record flagged @after_loss) make a CPU
 * known again, partial no more: nothing before them owns a stack.
 */
void sm_pairing_forget(struct sm_pairing *p, bool partial);

/**
 * sm_pairing_note() - feed the next record of a CPU
 * @p: the machine
 * @cpu: its CPU (0 ..); a stream of another buffer is another CPU number
 * @r: the record
 * @v: set for every record: SM_PAIRING_NOT_STACK for an event or a
 *	definition, else which event the stack record belongs to
 *
 * Every open event of @cpu is stepped through @r (sm_pairing_step()); those
 * that end are closed.  An event is then opened (the oldest open one of its
 * CPU is closed when SM_PAIRING_MAX_OPEN are).  A stack record goes to the
 * open event that takes it, which is closed; the open events after that
 * one are not stepped through it (a reader that looks ahead has taken it
 * out of their way).  One no event takes is SM_PAIRING_OWNERLESS when its
 * owner is not known, else SM_PAIRING_UNCHECKED when @cpu is not known
 * (sm_pairing_init(), sm_pairing_forget()), else an orphan.
 *
 * Return: 0; -EINVAL for @cpu < 0, -ENOMEM when @cpu's state cannot be
 * grown: @r is then not fed, and @v is SM_PAIRING_ORPHAN_AFTER_LOSS for a
 * stack record flagged so, SM_PAIRING_UNCHECKED for another one.
 */
int sm_pairing_note(struct sm_pairing *p, int cpu,
		    const struct sm_pairing_record *r,
		    struct sm_pairing_verdict *v);

#endif /* LIBSTACKMAP_PAIRING_H */
