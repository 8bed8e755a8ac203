// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/pairing.c: which event a stack record belongs to, in
 * the situations include/stackmap/events.h ("Which event a stack belongs
 * to") names, through the machine a plugin feeds (struct sm_pairing) and
 * the single-event steps fgdecode drives over its lookahead.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "pairing.h"
#include "stackmap/events.h"

/* Event types of the tests; A and B own stacks. */
enum { TYPE_A = 300, TYPE_B = 301 };
enum { TASK = 0, SOFTIRQ = STACKMAP_CONTEXT_SOFTIRQ,
       HARDIRQ = STACKMAP_CONTEXT_HARDIRQ,
       NMI = STACKMAP_CONTEXT_NMI | STACKMAP_CONTEXT_HARDIRQ };

static struct sm_pairing p;
static sm_u64 next_tag;

static void setup(void)
{
	sm_pairing_init(&p, true);
	next_tag = 1;
}

static void teardown(void)
{
	sm_pairing_fini(&p);
}

static struct sm_pairing_record event(int type, int pid, unsigned int ctx)
{
	struct sm_pairing_record r = {
		.kind = SM_PAIRING_EVENT, .type = type, .pid = pid,
		.context = ctx, .owns = true, .tag = next_tag++,
	};
	return r;
}

static struct sm_pairing_record stack(sm_u32 owner, int pid, unsigned int ctx)
{
	struct sm_pairing_record r = {
		.kind = SM_PAIRING_STACK, .type = 900, .pid = pid,
		.context = ctx, .owner = owner, .tag = next_tag++,
	};
	return r;
}

/* Feed an event on @cpu; its tag. */
static sm_u64 ev_on(int cpu, int type, int pid, unsigned int ctx)
{
	struct sm_pairing_record r = event(type, pid, ctx);
	struct sm_pairing_verdict v;

	ck_assert_int_eq(sm_pairing_note(&p, cpu, &r, &v), 0);
	ck_assert_int_eq(v.outcome, SM_PAIRING_NOT_STACK);
	return r.tag;
}

static sm_u64 ev(int type, int pid, unsigned int ctx)
{
	return ev_on(0, type, pid, ctx);
}

/* Feed the stack record @r on @cpu; the verdict. */
static struct sm_pairing_verdict feed_on(int cpu, struct sm_pairing_record r)
{
	struct sm_pairing_verdict v;

	ck_assert_int_eq(sm_pairing_note(&p, cpu, &r, &v), 0);
	return v;
}

static struct sm_pairing_verdict feed(struct sm_pairing_record r)
{
	return feed_on(0, r);
}

/* The stack record @r is the one of the event @tag. */
static void assert_own(struct sm_pairing_record r, sm_u64 tag)
{
	struct sm_pairing_verdict v = feed(r);

	ck_assert_int_eq(v.outcome, SM_PAIRING_OWN);
	ck_assert(v.has_event);
	ck_assert_uint_eq(v.tag, tag);
}

static void assert_outcome(struct sm_pairing_record r,
			   enum sm_pairing_outcome outcome)
{
	ck_assert_int_eq(feed(r).outcome, outcome);
}

START_TEST(stack_after_its_event_is_its_own)
{
	sm_u64 a = ev(TYPE_A, 42, TASK);
	struct sm_pairing_record def = { .kind = SM_PAIRING_DEFINE, .pid = 42 };

	/* Definitions written between the two are passed over. */
	ck_assert_int_eq(feed(def).outcome, SM_PAIRING_NOT_STACK);
	assert_own(stack(TYPE_A, 42, TASK), a);
	/* One stack per event: a second one has none. */
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	ck_assert(sm_pairing_orphan(SM_PAIRING_ORPHAN_NO_EVENT));
	ck_assert(!sm_pairing_orphan(SM_PAIRING_UNCHECKED));
}
END_TEST

START_TEST(stack_of_another_owner_is_an_orphan)
{
	ev(TYPE_A, 42, TASK);
	assert_outcome(stack(TYPE_B, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	/* Another CPU's event does not own it either. */
	ev_on(1, TYPE_B, 42, TASK);
	assert_outcome(stack(TYPE_B, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/* An interrupt between a task's event and its stack: each gets its own. */
START_TEST(irq_event_between_an_event_and_its_stack)
{
	sm_u64 a = ev(TYPE_A, 42, TASK), b = ev(TYPE_B, 42, HARDIRQ);

	assert_own(stack(TYPE_B, 42, HARDIRQ), b);
	assert_own(stack(TYPE_A, 42, TASK), a);
}
END_TEST

/* The interrupt's event was filtered out: its stack is an orphan. */
START_TEST(irq_stack_without_its_event_is_an_orphan)
{
	sm_u64 a = ev(TYPE_A, 42, TASK);

	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_own(stack(TYPE_A, 42, TASK), a);
}
END_TEST

/* An NMI inside a soft IRQ inside a task, each with its event and stack. */
START_TEST(nmi_nests_in_every_level)
{
	sm_u64 a = ev(TYPE_A, 42, TASK), s = ev(TYPE_A, 42, SOFTIRQ);
	sm_u64 n = ev(TYPE_A, 42, NMI);

	assert_own(stack(TYPE_A, 42, NMI), n);
	assert_own(stack(TYPE_A, 42, SOFTIRQ), s);
	assert_own(stack(TYPE_A, 42, TASK), a);
}
END_TEST

/*
 * A record of a shallower context ends the deeper one: an interrupt's event
 * left without its stack does not take a later interrupt's.
 */
START_TEST(shallower_record_ends_an_interrupts_event)
{
	ev(TYPE_A, 42, HARDIRQ);
	assert_outcome(stack(TYPE_B, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	/* A task-context event ends it too. */
	ev(TYPE_A, 42, HARDIRQ);
	ev(TYPE_B, 42, TASK);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/* The same depth with other bits is another interrupt (events.h: bits equal). */
START_TEST(same_level_other_context_bits_is_another_context)
{
	ev(TYPE_A, 42, HARDIRQ | SOFTIRQ);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

START_TEST(lost_events_between_end_every_event)
{
	struct sm_pairing_record r;

	ev(TYPE_A, 42, TASK);
	r = stack(TYPE_A, 42, TASK);
	r.missed = true;
	assert_outcome(r, SM_PAIRING_ORPHAN_LOST);
	/* Lost before an event or a definition in between. */
	ev(TYPE_A, 42, TASK);
	ev(TYPE_A, 42, HARDIRQ);
	r = event(TYPE_B, 43, SOFTIRQ);
	r.missed = true;
	feed(r);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	ev(TYPE_A, 42, TASK);
	r = (struct sm_pairing_record){ .kind = SM_PAIRING_DEFINE, .missed = true };
	feed(r);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/*
 * STACKMAP_COOKIE_AFTER_LOSS (a stack_fallback's STACKMAP_FLAG_AFTER_LOSS
 * alike): an orphan, and no event before it keeps a stack, whatever its
 * context; the next event gets its own again.
 */
START_TEST(after_loss_is_an_orphan_and_ends_every_event)
{
	struct sm_pairing_record r;
	sm_u64 a;

	ev(TYPE_A, 42, TASK);
	ev(TYPE_B, 42, TASK);
	r = stack(TYPE_B, 42, HARDIRQ);
	r.after_loss = true;
	assert_outcome(r, SM_PAIRING_ORPHAN_AFTER_LOSS);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_outcome(stack(TYPE_B, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	a = ev(TYPE_A, 42, TASK);
	assert_own(stack(TYPE_A, 42, TASK), a);
	/* Flagged and ownerless (an unknown cookie) is an orphan too. */
	r = stack(STACKMAP_OWNER_NONE, 42, TASK);
	r.after_loss = true;
	assert_outcome(r, SM_PAIRING_ORPHAN_AFTER_LOSS);
}
END_TEST

/*
 * An event of a type that owns stacks whose stack record went missing (not
 * pinned, refused): the next event of its type takes the stack after it.
 */
START_TEST(stackless_event_leaves_the_stack_to_the_next)
{
	sm_u64 second;

	ev(TYPE_A, 42, TASK);
	second = ev(TYPE_A, 42, TASK);
	assert_own(stack(TYPE_A, 42, TASK), second);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/* PREEMPT_RT: an interrupt's wakeup of the same context comes in between. */
START_TEST(other_event_of_its_context_is_passed)
{
	sm_u64 a = ev(TYPE_A, 42, TASK);

	ev(TYPE_B, 42, TASK);
	assert_own(stack(TYPE_A, 42, TASK), a);
}
END_TEST

/*
 * Task context, 7.x: task 42 preempted between its event and its stack
 * record; task 43's event and stack of the same type come in between.
 */
START_TEST(other_tasks_event_in_task_context_is_passed)
{
	sm_u64 a42 = ev(TYPE_A, 42, TASK), a43 = ev(TYPE_A, 43, TASK);

	assert_own(stack(TYPE_A, 43, TASK), a43);
	assert_own(stack(TYPE_A, 42, TASK), a42);
	/* Another task's stack with no event of its own is an orphan. */
	ev(TYPE_A, 42, TASK);
	assert_outcome(stack(TYPE_A, 44, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/*
 * In an interrupt the task cannot change: a stack of the event's type by
 * another task is another interrupt's, and the event's is over.
 */
START_TEST(other_tasks_stack_ends_an_interrupts_event)
{
	ev(TYPE_A, 42, HARDIRQ);
	assert_outcome(stack(TYPE_A, 43, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	/* And another task's event of its type ends it too. */
	ev(TYPE_A, 42, HARDIRQ);
	ev(TYPE_A, 43, HARDIRQ);
	assert_outcome(stack(TYPE_A, 42, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/*
 * stack_fallback: its owner is in the record; paired as a cookie is, and
 * its STACKMAP_FLAG_AFTER_LOSS is the cookie's flag.
 */
START_TEST(fallback_is_paired_like_a_cookie)
{
	struct sm_pairing_record r;
	sm_u64 a = ev(TYPE_A, 42, SOFTIRQ);

	r = stack(TYPE_A, 42, SOFTIRQ);
	r.type = 901;		/* stack_fallback's own id */
	assert_own(r, a);
	ev(TYPE_A, 42, SOFTIRQ);
	r.after_loss = true;
	assert_outcome(r, SM_PAIRING_ORPHAN_AFTER_LOSS);
}
END_TEST

/*
 * ftrace's kernel_stack (trace-cmd record -T) names no owner: never an
 * orphan; the first record after an event of its context, by its task, is
 * that event's candidate.
 */
START_TEST(kernel_stack_follows_its_event)
{
	sm_u64 x = ev(TYPE_B, 42, TASK), a;
	struct sm_pairing_verdict v;

	v = feed(stack(STACKMAP_OWNER_NONE, 42, TASK));
	ck_assert_int_eq(v.outcome, SM_PAIRING_OWNERLESS);
	ck_assert(v.has_event);
	ck_assert_uint_eq(v.tag, x);
	/* A second one follows no event. */
	v = feed(stack(STACKMAP_OWNER_NONE, 42, TASK));
	ck_assert_int_eq(v.outcome, SM_PAIRING_OWNERLESS);
	ck_assert(!v.has_event);
	/* Nor one of another task, nor one after another event. */
	ev(TYPE_B, 42, TASK);
	v = feed(stack(STACKMAP_OWNER_NONE, 43, TASK));
	ck_assert(!v.has_event);
	ev(TYPE_B, 42, TASK);
	a = ev(TYPE_A, 42, TASK);
	v = feed(stack(STACKMAP_OWNER_NONE, 42, TASK));
	ck_assert(v.has_event);
	ck_assert_uint_eq(v.tag, a);
}
END_TEST

/* An event followed by a stack no one is known to own, then by its own. */
START_TEST(owned_stack_wins_over_an_ownerless_one)
{
	sm_u64 a = ev(TYPE_A, 42, TASK);

	ck_assert(feed(stack(STACKMAP_OWNER_NONE, 42, TASK)).has_event);
	assert_own(stack(TYPE_A, 42, TASK), a);
}
END_TEST

/* Nothing fed before: a stack record cannot be checked, bar a flagged one. */
START_TEST(unknown_past_leaves_stacks_unchecked)
{
	struct sm_pairing_record r = stack(TYPE_A, 42, TASK);

	sm_pairing_fini(&p);
	sm_pairing_init(&p, false);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_UNCHECKED);
	r.after_loss = true;
	assert_outcome(r, SM_PAIRING_ORPHAN_AFTER_LOSS);
	/* Known from the loss on. */
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	/* CPU 1 became known with its first event. */
	ev_on(1, TYPE_B, 42, TASK);
	ck_assert_int_eq(feed_on(1, stack(TYPE_A, 42, TASK)).outcome,
			 SM_PAIRING_ORPHAN_NO_EVENT);
}
END_TEST

/*
 * Forgotten partially (a plugin that began watching while printing): in
 * task context a task's first stack of a type of which no event of that
 * task was fed since is unchecked (the event may have come before, its task
 * preempted since); after that, or after its event, it is checked.
 */
START_TEST(partial_past_checks_a_task_once_seen)
{
	sm_u64 a;

	ev(TYPE_A, 42, TASK);
	sm_pairing_forget(&p, true);
	assert_outcome(stack(TYPE_A, 42, TASK), SM_PAIRING_OWN);
	ev(TYPE_A, 43, TASK);
	assert_outcome(stack(TYPE_A, 44, TASK), SM_PAIRING_UNCHECKED);
	assert_outcome(stack(TYPE_A, 44, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	/* Its event of another type does not tell. */
	ev(TYPE_B, 45, TASK);
	assert_outcome(stack(TYPE_A, 45, TASK), SM_PAIRING_UNCHECKED);
	a = ev(TYPE_A, 46, TASK);
	assert_own(stack(TYPE_A, 46, TASK), a);
	assert_outcome(stack(TYPE_A, 46, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	/* Interrupt contexts are checked once the CPU is known. */
	assert_outcome(stack(TYPE_A, 47, HARDIRQ), SM_PAIRING_ORPHAN_NO_EVENT);
	/* A CPU met after forgetting starts unknown. */
	ck_assert_int_eq(feed_on(3, stack(TYPE_A, 42, HARDIRQ)).outcome,
			 SM_PAIRING_UNCHECKED);
}
END_TEST

/* The oldest open event is closed when SM_PAIRING_MAX_OPEN are open. */
START_TEST(oldest_open_event_is_dropped)
{
	sm_u64 second;
	int pid;

	ev(TYPE_A, 1, TASK);
	second = ev(TYPE_A, 2, TASK);
	for (pid = 3; pid < SM_PAIRING_MAX_OPEN + 2; pid++)
		ev(TYPE_A, pid, TASK);
	assert_outcome(stack(TYPE_A, 1, TASK), SM_PAIRING_ORPHAN_NO_EVENT);
	assert_own(stack(TYPE_A, 2, TASK), second);
}
END_TEST

START_TEST(bad_cpu_is_refused)
{
	struct sm_pairing_record r = stack(TYPE_A, 42, TASK);
	struct sm_pairing_verdict v;

	ck_assert_int_eq(sm_pairing_note(&p, -1, &r, &v), -EINVAL);
	ck_assert_int_eq(v.outcome, SM_PAIRING_UNCHECKED);
	r.after_loss = true;
	ck_assert_int_eq(sm_pairing_note(&p, -1, &r, &v), -EINVAL);
	ck_assert_int_eq(v.outcome, SM_PAIRING_ORPHAN_AFTER_LOSS);
}
END_TEST

/* ---- one event stepped through its lookahead, as fgdecode does ---- */

static struct sm_pairing_event open_event(int type, unsigned int ctx,
					  bool owns)
{
	struct sm_pairing_record r = event(type, 42, ctx);
	struct sm_pairing_event e;

	r.owns = owns;
	sm_pairing_event_init(&e, &r);
	return e;
}

START_TEST(step_takes_its_stack_past_nested_records)
{
	struct sm_pairing_event e = open_event(TYPE_A, TASK, true);
	struct sm_pairing_record r = event(TYPE_B, 42, HARDIRQ);

	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
	r = stack(TYPE_B, 42, HARDIRQ);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
	ck_assert(e.quiet && !e.followed);
	r = stack(TYPE_A, 42, TASK);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_TAKE);
}
END_TEST

/*
 * A type that owns no stack ends at the next event of its context; one that
 * does passes it, and is then followed (fgdecode's "cut" counts only an
 * event that was not).
 */
START_TEST(step_ends_a_stackless_type_at_the_next_event)
{
	struct sm_pairing_event e = open_event(TYPE_B, TASK, false);
	struct sm_pairing_record r = event(TYPE_A, 42, TASK);

	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_END);
	e = open_event(TYPE_B, TASK, true);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
	ck_assert(!e.quiet && e.followed);
	/* A kernel_stack after that is no candidate any more. */
	r = stack(STACKMAP_OWNER_NONE, 42, TASK);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
}
END_TEST

START_TEST(step_offers_a_kernel_stack_as_candidate)
{
	struct sm_pairing_event e = open_event(TYPE_A, TASK, true);
	struct sm_pairing_record r = stack(STACKMAP_OWNER_NONE, 42, TASK);

	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_CANDIDATE);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
	ck_assert(!e.followed);
	/* Another task's stack of its type: followed, in task context. */
	r = stack(TYPE_A, 43, TASK);
	ck_assert_int_eq(sm_pairing_step(&e, &r), SM_PAIRING_PASS);
	ck_assert(e.followed);
}
END_TEST

static Suite *pairing_suite(void)
{
	Suite *s = suite_create("pairing");
	TCase *tc = tcase_create("machine");
	TCase *step = tcase_create("step");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, stack_after_its_event_is_its_own);
	tcase_add_test(tc, stack_of_another_owner_is_an_orphan);
	tcase_add_test(tc, irq_event_between_an_event_and_its_stack);
	tcase_add_test(tc, irq_stack_without_its_event_is_an_orphan);
	tcase_add_test(tc, nmi_nests_in_every_level);
	tcase_add_test(tc, shallower_record_ends_an_interrupts_event);
	tcase_add_test(tc, same_level_other_context_bits_is_another_context);
	tcase_add_test(tc, lost_events_between_end_every_event);
	tcase_add_test(tc, after_loss_is_an_orphan_and_ends_every_event);
	tcase_add_test(tc, stackless_event_leaves_the_stack_to_the_next);
	tcase_add_test(tc, other_event_of_its_context_is_passed);
	tcase_add_test(tc, other_tasks_event_in_task_context_is_passed);
	tcase_add_test(tc, other_tasks_stack_ends_an_interrupts_event);
	tcase_add_test(tc, fallback_is_paired_like_a_cookie);
	tcase_add_test(tc, kernel_stack_follows_its_event);
	tcase_add_test(tc, owned_stack_wins_over_an_ownerless_one);
	tcase_add_test(tc, unknown_past_leaves_stacks_unchecked);
	tcase_add_test(tc, partial_past_checks_a_task_once_seen);
	tcase_add_test(tc, oldest_open_event_is_dropped);
	tcase_add_test(tc, bad_cpu_is_refused);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(step, setup, teardown);
	tcase_add_test(step, step_takes_its_stack_past_nested_records);
	tcase_add_test(step, step_ends_a_stackless_type_at_the_next_event);
	tcase_add_test(step, step_offers_a_kernel_stack_as_candidate);
	suite_add_tcase(s, step);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pairing_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
