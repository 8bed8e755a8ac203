// SPDX-License-Identifier: GPL-2.0
/*
 * Refreshes: a definition written again just before it leaves an
 * overwriting ring buffer, when a cookie reused it since.
 *
 * A cookie reuses this CPU's last definition of its stack while that
 * definition is younger than the CPU's horizon age (redefine_pct % of the
 * retained window, stackmap_window.c); the cookie can then outlive it by up
 * to that age.  Instead of defining the stack again before a later cookie
 * (every redefine_pct % of the window while it is used), each definition
 * written on a CPU with a horizon is queued here with its time, and once it
 * is as old as the horizon age a per-CPU timer writes it again if a cookie
 * reused it since (SM_DEFINE_REUSED in the CPU's row) and no newer one
 * replaced it (stackmap_refresh_one()).  The cookies between the two
 * definitions find the later one, which decoders accept (fgdecode reads
 * every definition first; the plugin reads the file's when a cookie does
 * not resolve).  So a stack used all through the window is defined about
 * once per horizon age, and every kept cookie finds a definition, before or
 * after it, as long as the window ends at least redefine_pct % as long as
 * it was measured (a definition leaves once it is a window old).  The timer
 * runs whether or not the CPU writes cookies, so a CPU that stops using
 * stacks while other events fill its buffer keeps its kept cookies
 * resolvable.
 *
 * The queue is a ring of SM_REFRESH_ENTRIES per CPU, filled by the
 * definitions of that CPU in any context (NMI included: a slot is reserved
 * with a local cmpxchg and marked written by its time) and emptied only by
 * the CPU's timer, in hard IRQ context.  A full ring refuses the definition,
 * counted (refresh_overflow): its cookies keep it only as long as the
 * window holds it.  The timer is armed through an irq_work: a definition
 * may be written inside the hrtimer code's own locked sections (a
 * tracepoint there), where arming it would deadlock.
 *
 * A refresh goes to every buffer with stack_define enabled whose filters
 * pass the task that happens to run: a buffer that took the last definition
 * but not the refresh (a pid filter) is no longer noted as holding one
 * (SM_DEFINE_REPLACE), so its next cookie of that stack gets a definition
 * right after it, and the cookies it took in between may lose theirs:
 * counted (refresh_missed).
 */
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "stackmap.h"

/* Definitions queued per CPU: a power of two (the ring's index mask). */
#define SM_REFRESH_ENTRIES	4096
/* Refreshes per timer run; more due wait SM_REFRESH_PAUSE_NS. */
#define SM_REFRESH_BATCH	32
#define SM_REFRESH_PAUSE_NS	(50 * NSEC_PER_USEC)
/* When the oldest entry is reserved and not yet written, look again then. */
#define SM_REFRESH_RETRY_NS	NSEC_PER_MSEC
/* While entries wait, the timer measures the windows this often per age. */
#define SM_REFRESH_CHECKS	8

/**
 * struct stackmap_refresh_entry - a definition written on this CPU
 * @cookie: its cookie
 * @at: its time (ktime_get_mono_fast_ns(), as in the CPU's row of the
 *	map); 0 while the entry is reserved or free
 */
struct stackmap_refresh_entry {
	u64 cookie;
	u64 at;
};

/**
 * struct stackmap_refresh - a CPU's queue of definitions to refresh
 * @ring: SM_REFRESH_ENTRIES entries, oldest at @head
 * @head: next entry to take (the timer only)
 * @tail: next entry to reserve (stackmap_refresh_queue(), any context)
 * @armed: 1 from the queueing that found it 0 until the timer finds the
 *	ring empty
 * @cpu: the CPU it belongs to (a timer migrated off a CPU going offline
 *	runs elsewhere and stops)
 * @timer: fires when the oldest entry is due
 * @arm: starts @timer from hard IRQ context
 */
struct stackmap_refresh {
	struct stackmap_refresh_entry *ring;
	unsigned long head;
	unsigned long tail;
	unsigned int armed;
	int cpu;
	struct hrtimer timer;
	struct irq_work arm;
};

static DEFINE_PER_CPU(struct stackmap_refresh, stackmap_refresh);
static struct stackmap_refresh_entry *stackmap_refresh_rings;

/**
 * stackmap_refresh_queue() - queue a definition just written on this CPU
 * @cookie: its cookie
 * @at: its time, as noted in the CPU's row (never 0)
 *
 * Context: any, NMI included; preemption disabled.  Call it only while the
 * CPU has a horizon age (its buffers overwrite).
 */
void stackmap_refresh_queue(u64 cookie, u64 at)
{
	struct stackmap_refresh *q = this_cpu_ptr(&stackmap_refresh);
	struct stackmap_refresh_entry *e;
	unsigned long t;

	if (!q->ring || !at)
		return;
	do {
		t = READ_ONCE(q->tail);
		if (t - READ_ONCE(q->head) >= SM_REFRESH_ENTRIES) {
			this_cpu_inc(stackmap_stats.refresh_overflow);
			return;
		}
	} while (cmpxchg_local(&q->tail, t, t + 1) != t);
	e = &q->ring[t & (SM_REFRESH_ENTRIES - 1)];
	WRITE_ONCE(e->cookie, cookie);
	/* The timer reads the cookie once it sees the time. */
	barrier();
	WRITE_ONCE(e->at, at);
	if (!xchg(&q->armed, 1))
		irq_work_queue(&q->arm);
}

/* When the oldest entry is due, in ns of the monotonic clock. */
static u64 stackmap_refresh_due(struct stackmap_refresh *q, u64 now)
{
	u64 at, age = this_cpu_read(stackmap_horizon_age);

	at = READ_ONCE(q->ring[q->head & (SM_REFRESH_ENTRIES - 1)].at);
	if (!at)
		return now + SM_REFRESH_RETRY_NS;
	return age ? at + age : now;
}

/*
 * When the timer runs next: when the oldest entry is due, and at least
 * SM_REFRESH_CHECKS times per horizon age, so that a window that shrinks
 * while the CPU writes no cookie is measured again before a definition
 * leaves it.
 */
static u64 stackmap_refresh_next(struct stackmap_refresh *q, u64 now)
{
	u64 age = this_cpu_read(stackmap_horizon_age);
	u64 due = stackmap_refresh_due(q, now);

	if (age)
		due = min(due, now + max_t(u64, age / SM_REFRESH_CHECKS,
					   SM_REFRESH_PAUSE_NS));
	return due;
}

static void stackmap_refresh_start(struct stackmap_refresh *q, u64 when)
{
	hrtimer_start(&q->timer, ns_to_ktime(when),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

static void stackmap_refresh_arm_fn(struct irq_work *work)
{
	struct stackmap_refresh *q = container_of(work, struct stackmap_refresh,
						  arm);
	u64 now = ktime_get_mono_fast_ns();

	if (q->head != READ_ONCE(q->tail) && !hrtimer_is_queued(&q->timer))
		stackmap_refresh_start(q, stackmap_refresh_next(q, now));
}

/**
 * stackmap_refresh_sooner() - this CPU's horizon age just got smaller
 *
 * Context: hard IRQ (the window measurement's irq_work).  A timer armed for
 * the oldest entry's time under the longer age would fire late, after the
 * definition may have left a buffer whose window shrank: it is started
 * again for the time the new age gives.
 */
void stackmap_refresh_sooner(void)
{
	struct stackmap_refresh *q = this_cpu_ptr(&stackmap_refresh);
	u64 now = ktime_get_mono_fast_ns();

	if (q->ring && q->head != READ_ONCE(q->tail) &&
	    hrtimer_is_queued(&q->timer))
		stackmap_refresh_start(q, stackmap_refresh_next(q, now));
}

/*
 * Take the due entries, at most SM_REFRESH_BATCH, and refresh those that
 * still need it (stackmap_refresh_one() expires the others); without a
 * horizon (the buffers stopped overwriting) every entry is due and none is
 * refreshed.  Return: whether the ring is empty.
 */
static bool stackmap_refresh_run(struct stackmap_refresh *q, u64 now,
				 bool *more)
{
	u64 age = this_cpu_read(stackmap_horizon_age);
	struct stackmap_refresh_entry *e;
	int n;

	*more = false;
	for (n = 0; q->head != READ_ONCE(q->tail); n++) {
		e = &q->ring[q->head & (SM_REFRESH_ENTRIES - 1)];
		if (!READ_ONCE(e->at) || (age && READ_ONCE(e->at) + age > now))
			return false;
		if (n == SM_REFRESH_BATCH) {
			*more = true;
			return false;
		}
		if (!stackmap_refresh_one(READ_ONCE(e->cookie),
					  READ_ONCE(e->at), age)) {
			*more = true;	/* nested too deep: later */
			return false;
		}
		WRITE_ONCE(e->at, 0);
		/* The entry is free before the head passes it. */
		barrier();
		WRITE_ONCE(q->head, q->head + 1);
	}
	return true;
}

static enum hrtimer_restart stackmap_refresh_fn(struct hrtimer *timer)
{
	struct stackmap_refresh *q = container_of(timer, struct stackmap_refresh,
						  timer);
	u64 now;
	bool more;

	if (q->cpu != smp_processor_id()) {
		/* Migrated off its CPU going offline: it queues nothing now. */
		WRITE_ONCE(q->armed, 0);
		return HRTIMER_NORESTART;
	}
	stackmap_window_remeasure();
	now = ktime_get_mono_fast_ns();
	if (stackmap_refresh_run(q, now, &more)) {
		WRITE_ONCE(q->armed, 0);
		/* An NMI may have queued one after the last look. */
		barrier();
		if (q->head == READ_ONCE(q->tail) || xchg(&q->armed, 1))
			return HRTIMER_NORESTART;
	}
	hrtimer_set_expires(timer, ns_to_ktime(more ?
					       now + SM_REFRESH_PAUSE_NS :
					       stackmap_refresh_next(q, now)));
	return HRTIMER_RESTART;
}

/**
 * stackmap_refresh_init() - allocate the queues, set up the timers
 *
 * Context: module init, before any probe can run.
 * Return: 0 or -ENOMEM.
 */
int stackmap_refresh_init(void)
{
	struct stackmap_refresh *q;
	int cpu;

	stackmap_refresh_rings = kvcalloc((size_t)nr_cpu_ids * SM_REFRESH_ENTRIES,
					  sizeof(*stackmap_refresh_rings),
					  GFP_KERNEL);
	if (!stackmap_refresh_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		q = per_cpu_ptr(&stackmap_refresh, cpu);
		q->ring = stackmap_refresh_rings +
			  (size_t)cpu * SM_REFRESH_ENTRIES;
		q->cpu = cpu;
#ifdef STACKMAP_HAVE_HRTIMER_SETUP
		hrtimer_setup(&q->timer, stackmap_refresh_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_ABS_PINNED_HARD);
#else
		hrtimer_init(&q->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS_PINNED_HARD);
		q->timer.function = stackmap_refresh_fn;
#endif
		q->arm = IRQ_WORK_INIT_HARD(stackmap_refresh_arm_fn);
	}
	return 0;
}

/**
 * stackmap_refresh_exit() - stop the timers, free the queues
 *
 * Context: module exit (or a failed init), after no probe can run any more:
 * nothing queues a definition, so nothing arms a timer again.
 */
void stackmap_refresh_exit(void)
{
	struct stackmap_refresh *q;
	int cpu;

	if (!stackmap_refresh_rings)
		return;
	for_each_possible_cpu(cpu) {
		q = per_cpu_ptr(&stackmap_refresh, cpu);
		irq_work_sync(&q->arm);
		hrtimer_cancel(&q->timer);
		q->ring = NULL;
	}
	kvfree(stackmap_refresh_rings);
	stackmap_refresh_rings = NULL;
}
