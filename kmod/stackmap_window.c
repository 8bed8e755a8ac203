// SPDX-License-Identifier: GPL-2.0
/*
 * Which ring buffers take the module's cookies, and how far back they reach.
 *
 * Consumers.  Every ring buffer (top level or instance) that enables
 * stack_cookie is a consumer (stackmap_cookie_reg() adds it).  A consumer
 * needs the definitions of the cookies it records, so when one starts, or
 * accepts events again on a CPU after refusing them there (tracing off,
 * trace-cmd stop and restart, a full non-overwriting buffer, a second
 * trace-cmd that enabled its events before switching tracing on), the
 * recording epoch moves and every stack is defined again on next use; the
 * cookie that found the consumer back is defined right after itself.  The
 * state is kept per consumer and CPU, so a CPU that always refuses (left
 * out of tracing_cpumask) moves nothing.  Up to SM_CONSUMERS consumers are
 * tracked; each one beyond moves the epoch when it registers and is counted
 * (untracked_consumers).
 *
 * Losses.  When a consumer refused a stack record on a CPU after it had
 * taken anything there, or its buffer's dropped-events count on that CPU
 * moved (it refused some write: maybe an event whose stack record it then
 * took), the next stack record it takes on that CPU may follow an event whose
 * own stack record was refused, or be the stack of a refused event (event
 * taken, its stack refused, the next event refused, that event's stack
 * taken): that record carries STACKMAP_COOKIE_AFTER_LOSS and decoders pair
 * no event before it with it or any later one (include/stackmap/cookie.h,
 * events.h).  A refusal before the CPU's buffer holds or held any record
 * (tracing still off at the start of a recording) can have left no event
 * behind, and flags nothing.  Not seen: an event refused because tracing was
 * off, when tracing comes on again between it and its stack record (the
 * ring buffer counts no such refusal).
 *
 * Debts.  A record can also go missing after its event was written without
 * the buffer refusing anything: the module dropped the hit (nesting deeper
 * than 4, recursion, no frame left), or the commit discarded the record the
 * buffer had accepted (a filter on the stack event, the event soft-disabled:
 * stackmap_consumer_discarded()).  Each leaves a debt, per CPU and consumer
 * (every consumer for a drop: the module does not know which took the
 * event), paid by flagging the next stack record the consumer takes there
 * STACKMAP_COOKIE_AFTER_LOSS (STACKMAP_FLAG_AFTER_LOSS on stack_fallback):
 * the same rule as a refusal, without a new epoch.  A hit whose task was not
 * pinned may have written its event on any CPU: stackmap_unpinned_hit()
 * flags the next record of every consumer on every CPU (a generation each
 * record compares with the one it last saw), and the hit's own record.
 * Not covered: consumers beyond SM_CONSUMERS and perf, whose records the
 * module does not follow.
 *
 * Buffers.  A consumer's buffer can change under it without refusing
 * anything: cleared (`echo > trace`, trace-cmd reset) or exchanged for the
 * snapshot buffer (`echo 1 > snapshot`).  Each stack record it takes on a
 * CPU notes the buffer and how many records it committed there since its
 * last reset (a count only a reset makes smaller); a smaller count moves
 * the epoch (the definitions went with the records), another buffer moves
 * it and flags the record as after a loss (what precedes it there is older
 * than the consumer's last record).  Not seen: a clear followed by more
 * records than the buffer held before the next stack record, and a swap of
 * one CPU's buffer alone (per_cpu/cpuN/snapshot), which keeps the buffer.
 *
 * Definitions.  A slot's definition is noted with the consumers whose
 * buffers took it (stackmap_consumer_of(), from stack_define's own probe),
 * and the stack_cookie probe says which took the cookie
 * (stackmap_cookie_taken()): a consumer that took a cookie but never its
 * definition in the epoch (a pid filter, a cpumask, a filter on
 * stack_define in its instance) gets the definition right after the cookie.
 *
 * Windows.  An overwriting ring buffer (a flight recorder) drops its oldest
 * pages, and with them the definitions written there.  Every SM_WINDOW_EVERY
 * cookies a consumer takes on a CPU (a count per consumer and CPU, so that
 * each of several consumers taking every cookie reaches its check), if its
 * buffer overwrote events there since its last check, an irq_work measures
 * that buffer's retained window on the CPU (its oldest event to now) and
 * keeps redefine_pct % of it as the consumer's age on the CPU.  The CPU's
 * horizon age is the smallest age of its consumers.  A definition written
 * on a CPU with a horizon is queued there, and once it is as old as the
 * horizon age the CPU's timer writes it again if a cookie reused it since
 * (stackmap_refresh.c); a stack whose last definition on the CPU is older
 * than that is defined again on next use.  So every cookie in the retained
 * window finds a definition there, before it or after it, as long as the
 * window does not shrink below redefine_pct % of its last measure before
 * the next one (a smaller age starts the timer again for the sooner time:
 * stackmap_refresh_sooner()).  A definition another
 * CPU wrote serves a cookie here only while that CPU has no horizon (its
 * buffers do not overwrite): where two CPUs' windows start at the end differs
 * by more than their lengths tell (stackmap_defined()).  Each CPU remembers
 * the last definition of each stack it wrote, and which consumers took it
 * (sm_map_cpu_define()), so a stack used on CPUs in turn is defined again on
 * one only when that CPU's own definition ages.  The horizon moves with
 * time, not with cookie traffic: the timer refreshes a CPU's definitions
 * while it writes other events only.  A consumer whose reader consumed
 * records there and whose buffer overwrote nothing since its last check (a
 * streaming reader that fell behind once and caught up) drops its age, so
 * it costs no definitions any more, and the queued ones are dropped.  The
 * window is read in the buffer's clock and assumed to be in ns (true of
 * every trace clock but counter and x86-tsc, with which the age is off by
 * the TSC's rate).  When a CPU gets its first horizon, the definitions it
 * wrote before (not queued) are expired (sm_map_cpu_expire_all()), so every
 * stack is defined again at its next use there.  Not seen: the cookies
 * written before that first check, which can lose their definitions (the
 * oldest of a recording that ends within about two windows of its start);
 * and a window that shrinks faster than the checks come (a burst of other
 * events between two cookies, in a buffer measured before the burst): a
 * definition can leave before its refresh, and every kept cookie that
 * reused it loses it, wherever it lies in the window.
 *
 * The measurement takes the CPU buffer's reader_lock
 * (ring_buffer_oldest_event_ts()), which no probe may do: the probe may run
 * inside that lock's own section (a function hook in the unlock path) or in
 * NMI.  The irq_work runs in hard IRQ context with interrupts enabled before
 * it, so never inside a reader_lock section (taken with interrupts off).
 * The buffer it measures cannot have been freed: a consumer that goes
 * (stack_cookie disabled, as it is before its instance is removed) waits
 * for its probes and then for every queued measurement
 * (stackmap_consumer_remove()).
 */
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ring_buffer.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "stackmap.h"
#include "stackmap_instance.h"

#define SM_WINDOW_EVERY		16

unsigned int stackmap_redefine_pct = 75;
module_param_named(redefine_pct, stackmap_redefine_pct, uint, 0644);
MODULE_PARM_DESC(redefine_pct,
		 "In an overwriting ring buffer, define a stack again once its last definition on a CPU is older than this percentage of the retained window: then if a cookie reused it, else at its next use (0: never; default 75)");

/**
 * struct stackmap_consumer - a ring buffer that has stack_cookie enabled
 * @file: its stack_cookie event file, NULL for a free entry
 * @tr: @file's trace array (top level or instance), whose stack_define
 *	file is how a definition reaches the same buffer
 */
struct stackmap_consumer {
	struct trace_event_file *file;
	struct trace_array *tr;
};

/**
 * struct stackmap_seen - what a consumer's buffer looked like on a CPU when
 *	it last took a stack record there
 * @buffer: the ring buffer (a snapshot swap exchanges it for another)
 * @written: records it had committed on the CPU since its last reset
 *	(entries + read + overrun: only a reset makes it smaller)
 * @dropped: its dropped-events count on the CPU
 * @busy: stack records of the consumer being compared with this on the CPU
 *	(more than 1: a probe in an interrupt or NMI interrupted another's)
 * @unpinned: the generation of unpinned hits (stackmap_unpinned_hit()) its
 *	last stack record on the CPU saw
 *
 * Only the outermost of nested probes on a CPU updates it: a nested one
 * compares only, so it never sees or leaves half of another's update (found
 * by KCSAN's interrupt watcher, tests/kernels.sh kcsan).  What the outer one
 * then writes was read before the nested record: at worst its next record
 * is flagged after a loss the nested one flagged already (a drop in between).
 */
struct stackmap_seen {
	struct trace_buffer *buffer;
	unsigned long written;
	unsigned long dropped;
	unsigned int busy;
	unsigned int unpinned;
};

/*
 * What a consumer's next stack record on a CPU must do (stackmap_state, per
 * CPU and consumer): SM_NEW, it took none there since it registered (move the
 * epoch); SM_REFUSED, it refused one there after the buffer held a record
 * (move the epoch and flag the record STACKMAP_COOKIE_AFTER_LOSS); SM_DEBT,
 * a hit there may have left its event without a stack record ("Debts":
 * flag the record, the definitions are where they were).
 */
enum { SM_SETTLED = 0, SM_NEW = 1, SM_REFUSED = 2, SM_DEBT = 3 };

/* Entries change in process context under the lock; probes only read. */
static struct stackmap_consumer stackmap_consumers[SM_CONSUMERS];
static DEFINE_PER_CPU(u8[SM_CONSUMERS], stackmap_state);
static DEFINE_PER_CPU(struct stackmap_seen[SM_CONSUMERS], stackmap_seen);
static DEFINE_MUTEX(stackmap_consumer_lock);
static atomic_t stackmap_untracked = ATOMIC_INIT(0);
/* Hits left unpinned so far: a record that saw another count is flagged. */
static atomic_t stackmap_unpinned_gen = ATOMIC_INIT(0);

/**
 * struct stackmap_window - a consumer's overwriting buffer on a CPU ("Windows")
 * @tick: cookies it took there, counted to SM_WINDOW_EVERY
 * @overrun: its buffer's overrun count there at the last check
 * @read: its buffer's count of records read there at the last check
 * @pending: the buffer to measure, set by a check, taken by the irq_work
 * @measured: the buffer the irq_work last measured, which the refresh timer
 *	measures again (stackmap_window_remeasure())
 * @age: redefine_pct % of its last measured window there, in ns; 0 for none
 *
 * Written by probes (@tick, @overrun, @read, @pending; never in NMI), by
 * the irq_work of the same CPU (@pending, @measured, @age) and by its
 * refresh timer (@age).  Entry SM_CONSUMERS holds every consumer beyond the
 * tracked ones.
 */
struct stackmap_window {
	unsigned int tick;
	unsigned long overrun;
	unsigned long read;
	struct trace_buffer *pending;
	struct trace_buffer *measured;
	u64 age;
};

static DEFINE_PER_CPU(struct stackmap_window[SM_CONSUMERS + 1], stackmap_windows);
static DEFINE_PER_CPU(struct irq_work, stackmap_window_work);

static struct stackmap_consumer *stackmap_consumer_find(const void *file)
{
	int i;

	for (i = 0; i < SM_CONSUMERS; i++) {
		/* Acquire: pairs with the release in stackmap_consumer_add(). */
		if (smp_load_acquire(&stackmap_consumers[i].file) == file)
			return &stackmap_consumers[i];
	}
	return NULL;
}

/*
 * The consumer of a stack record's event file (stack_cookie or
 * stack_fallback): the one whose stack_cookie file is in the same trace
 * array, so both records of a buffer share its state.
 */
static struct stackmap_consumer *stackmap_consumer_in(const struct trace_event_file *file)
{
	int i = stackmap_consumer_of(file);

	return i < SM_CONSUMERS ? &stackmap_consumers[i] : NULL;
}

/*
 * Raise consumer @i's state on this CPU to @to (SM_REFUSED or SM_DEBT), never
 * lower it: a debt on a new consumer becomes a refusal (epoch and flag).  A
 * cmpxchg, so an NMI's stackmap_consumer_accepted() in between is kept.
 */
static void stackmap_state_raise(int i, u8 to)
{
	u8 old, new;

	do {
		old = this_cpu_read(stackmap_state[i]);
		if (old == SM_REFUSED || old == to)
			return;
		new = old == SM_SETTLED ? to : SM_REFUSED;
	} while (this_cpu_cmpxchg(stackmap_state[i], old, new) != old);
}

/**
 * stackmap_consumers_debt() - a hit on this CPU ends without a stack record
 *
 * Context: any; preemption disabled (stackmap_record()).  Every consumer's
 * next stack record on this CPU is flagged ("Debts" above).
 */
void stackmap_consumers_debt(void)
{
	int i;

	for (i = 0; i < SM_CONSUMERS; i++)
		if (READ_ONCE(stackmap_consumers[i].file))
			stackmap_state_raise(i, SM_DEBT);
	this_cpu_inc(stackmap_stats.debts);
}

/**
 * stackmap_unpinned_hit() - a hit whose task could move between its event
 *	and its stack record
 *
 * Context: any.  Its event may be on any CPU, before its stack record in
 * time: the next stack record of every consumer on every CPU is flagged.
 */
void stackmap_unpinned_hit(void)
{
	atomic_inc(&stackmap_unpinned_gen);
}

/**
 * stackmap_consumer_discarded() - the commit dropped a stack record that a
 *	ring buffer had accepted
 * @file: the record's event file
 * @refused: the buffer that refused the commit's copy of the record (its
 *	filter passed it), or NULL for a discard (filter, soft-disable)
 *
 * Context: any; preemption disabled (a stack record's probe).  The
 * consumer's next stack record here is flagged, and that of this one (if it
 * was) was lost with it; a refusal is one as stackmap_consumer_refused()
 * sees it.
 */
void stackmap_consumer_discarded(struct trace_event_file *file,
				 struct trace_buffer *refused)
{
	struct stackmap_consumer *c = stackmap_consumer_in(file);

	this_cpu_inc(stackmap_stats.discarded);
	if (refused)
		stackmap_consumer_refused(file, refused);
	else if (c)
		stackmap_state_raise(c - stackmap_consumers, SM_DEBT);
}

/**
 * stackmap_consumer_add() - a ring buffer enabled stack_cookie
 * @file: its event file
 *
 * Context: process (the event's reg callback, under event_mutex).
 */
void stackmap_consumer_add(struct trace_event_file *file)
{
	struct stackmap_consumer *c;
	int cpu;

	mutex_lock(&stackmap_consumer_lock);
	c = stackmap_consumer_find(NULL);
	if (c) {
		for_each_possible_cpu(cpu) {
			WRITE_ONCE(per_cpu(stackmap_state, cpu)[c - stackmap_consumers],
				   SM_NEW);
			memset(&per_cpu(stackmap_seen, cpu)[c - stackmap_consumers],
			       0, sizeof(struct stackmap_seen));
			per_cpu(stackmap_seen, cpu)[c - stackmap_consumers].unpinned =
				atomic_read(&stackmap_unpinned_gen);
		}
		c->tr = file->tr;
		/*
		 * Release, paired with stackmap_consumer_find(): a probe that
		 * finds @file also sees SM_NEW on every CPU, so the first
		 * cookie this consumer accepts on each restarts it.
		 */
		smp_store_release(&c->file, file);
	} else {
		atomic_inc(&stackmap_untracked);
		stackmap_new_epoch(false);
	}
	mutex_unlock(&stackmap_consumer_lock);
}

/**
 * stackmap_consumer_remove() - a ring buffer disabled stack_cookie
 * @file: its event file, whose probe was just unregistered
 *
 * Context: process (the event's reg callback, under event_mutex, which
 * every stackmap_consumer_add() holds too).  Waits for the probes that may
 * still use the consumer and for a refresh timer that found it
 * (tracepoint_synchronize_unregister(): both run with preemption disabled)
 * and for the measurements they queued (irq_work_sync()) before the entry
 * can be taken again: a probe still working for the old consumer never
 * writes into the state of a new one, and no measurement reads a buffer
 * that its instance may free next.
 */
void stackmap_consumer_remove(struct trace_event_file *file)
{
	struct stackmap_consumer *c;
	struct stackmap_window *w;
	int cpu;

	mutex_lock(&stackmap_consumer_lock);
	c = stackmap_consumer_find(file);
	if (c)
		WRITE_ONCE(c->file, NULL);
	mutex_unlock(&stackmap_consumer_lock);
	if (!c)
		return;
	tracepoint_synchronize_unregister();
	for_each_possible_cpu(cpu) {
		irq_work_sync(per_cpu_ptr(&stackmap_window_work, cpu));
		w = &per_cpu(stackmap_windows, cpu)[c - stackmap_consumers];
		memset(w, 0, sizeof(*w));
	}
}

/*
 * The records @buffer committed on @cpu since it was last cleared: those
 * still in it, read and overwritten.  Only a clear makes it smaller.
 * Lockless reads of the buffer's own counters.
 */
unsigned long stackmap_buffer_records(struct trace_buffer *buffer, int cpu)
{
	return ring_buffer_entries_cpu(buffer, cpu) +
	       ring_buffer_read_events_cpu(buffer, cpu) +
	       ring_buffer_overrun_cpu(buffer, cpu);
}

/**
 * stackmap_consumer_refused() - a ring buffer did not take a stack record
 * @file: its stack_cookie event file
 * @buffer: the ring buffer that refused it, NULL when not known
 *
 * Context: any; preemption disabled (the stack_cookie probe).  After the
 * buffer held a record on this CPU (or when @buffer is not known), the next
 * stack record it takes here is flagged (see "Losses" above).
 */
void stackmap_consumer_refused(struct trace_event_file *file,
			       struct trace_buffer *buffer)
{
	struct stackmap_consumer *c = stackmap_consumer_in(file);
	int i, cpu = smp_processor_id();

	if (!c)
		return;
	i = c - stackmap_consumers;
	/* Only raised here; an NMI's stackmap_consumer_accepted() may clear it. */
	if (this_cpu_read(stackmap_state[i]) != SM_NEW || !buffer ||
	    stackmap_buffer_records(buffer, cpu))
		stackmap_state_raise(i, SM_REFUSED);
}

/*
 * What happened to consumer @i's buffer on this CPU since its last stack
 * record here, besides the module's own refusals ("Losses", "Buffers"):
 * SM_NEW when it was cleared, SM_REFUSED when another buffer took its place
 * (a snapshot swap: what precedes this record is older than the last one)
 * or it dropped a write (a full non-overwriting buffer: the refused write
 * may be the event this record belongs to), else SM_SETTLED.  The first
 * record after registration only takes the measure.
 */
static u8 stackmap_buffer_changed(int i, struct trace_buffer *buffer)
{
	struct stackmap_seen *seen = this_cpu_ptr(&stackmap_seen[i]);
	int cpu = smp_processor_id();
	unsigned long written = stackmap_buffer_records(buffer, cpu);
	unsigned long dropped = ring_buffer_dropped_events_cpu(buffer, cpu);
	struct trace_buffer *last;
	u8 ret = SM_SETTLED;
	bool outer = this_cpu_inc_return(stackmap_seen[i].busy) == 1;

	last = READ_ONCE(seen->buffer);
	if (!last)
		;	/* the consumer's first record here: nothing to compare */
	else if (buffer != last)
		ret = SM_REFUSED;
	else if (written < READ_ONCE(seen->written))
		ret = SM_NEW;
	else if (dropped != READ_ONCE(seen->dropped))
		ret = SM_REFUSED;
	if (outer) {
		WRITE_ONCE(seen->buffer, buffer);
		WRITE_ONCE(seen->written, written);
		WRITE_ONCE(seen->dropped, dropped);
	}
	this_cpu_dec(stackmap_seen[i].busy);
	return ret;
}

/**
 * stackmap_consumer_accepted() - a ring buffer took a stack record
 * @file: its stack_cookie event file
 * @buffer: the ring buffer that took it
 *
 * Context: any; preemption disabled (the stack_cookie probe).  A consumer new
 * on this CPU, or back after refusing here, has every stack defined again,
 * this cookie's right after it.
 *
 * Return: true when the record must carry STACKMAP_COOKIE_AFTER_LOSS: the
 * consumer refused one of the module's records here, the buffer dropped
 * a write here ("Losses" above), or a hit left a debt ("Debts"), since its
 * last stack record.
 */
bool stackmap_consumer_accepted(struct trace_event_file *file,
				struct trace_buffer *buffer)
{
	struct stackmap_consumer *c = stackmap_consumer_in(file);
	unsigned int gen = atomic_read(&stackmap_unpinned_gen);
	bool unpinned;
	int i;
	u8 state, changed;

	if (!c) {
		stackmap_cookie_taken(SM_CONSUMER_UNTRACKED);
		return false;
	}
	i = c - stackmap_consumers;
	stackmap_cookie_taken(i);
	/* One instruction, so a nested NMI's refusal is kept or seen whole. */
	state = this_cpu_xchg(stackmap_state[i], SM_SETTLED);
	changed = stackmap_buffer_changed(i, buffer);
	unpinned = this_cpu_xchg(stackmap_seen[i].unpinned, gen) != gen;
	if (state == SM_NEW || state == SM_REFUSED || changed != SM_SETTLED)
		stackmap_new_epoch(true);
	return state == SM_REFUSED || state == SM_DEBT || unpinned ||
	       changed == SM_REFUSED;
}

/**
 * stackmap_consumer_of() - the consumer bit of a buffer's stack_define file
 * @file: a stack_define event file
 *
 * Context: any (stack_define's TP_fast_assign).
 * Return: the index of the consumer whose stack_cookie file is in the same
 * trace array, or SM_CONSUMER_UNTRACKED.
 */
int stackmap_consumer_of(const struct trace_event_file *file)
{
	const struct trace_event_file *f;
	int i;

	for (i = 0; i < SM_CONSUMERS; i++) {
		/* Acquire: @tr was set before, see stackmap_consumer_add(). */
		f = smp_load_acquire(&stackmap_consumers[i].file);
		if (f && READ_ONCE(stackmap_consumers[i].tr) == file->tr)
			return i;
	}
	return SM_CONSUMER_UNTRACKED;
}

/** stackmap_untracked_consumers() - consumers beyond SM_CONSUMERS so far */
unsigned int stackmap_untracked_consumers(void)
{
	return atomic_read(&stackmap_untracked);
}

/**
 * stackmap_window_note() - a cookie went into @buffer on this CPU
 * @file: the stack record's event file (stack_cookie or stack_fallback)
 * @buffer: the ring buffer that took it
 *
 * Context: any; preemption disabled (a stack record's probe).  Every
 * SM_WINDOW_EVERY cookies of the consumer here, queues a measurement of its
 * buffer's window if the buffer overwrote events here since the last check,
 * or drops the consumer's age if a reader consumed records and nothing was
 * overwritten (see "Windows" above).
 */
void stackmap_window_note(struct trace_event_file *file,
			  struct trace_buffer *buffer)
{
	struct stackmap_window *w;
	unsigned long overrun, read;
	int cpu = smp_processor_id();

	if (!READ_ONCE(stackmap_redefine_pct) || in_nmi())
		return;
	w = this_cpu_ptr(&stackmap_windows[stackmap_consumer_of(file)]);
	if (++w->tick < SM_WINDOW_EVERY)
		return;
	w->tick = 0;
	overrun = ring_buffer_overrun_cpu(buffer, cpu);
	read = ring_buffer_read_events_cpu(buffer, cpu);
	if (overrun != xchg(&w->overrun, overrun)) {
		WRITE_ONCE(w->pending, buffer);
		irq_work_queue(this_cpu_ptr(&stackmap_window_work));
	} else if (read != w->read && READ_ONCE(w->age)) {
		WRITE_ONCE(w->age, 0);
		irq_work_queue(this_cpu_ptr(&stackmap_window_work));
	}
	w->read = read;
}

/* redefine_pct % of @buffer's retained window on this CPU, in ns; 0: none. */
static u64 stackmap_window_age(struct trace_buffer *buffer)
{
	unsigned int pct = min(READ_ONCE(stackmap_redefine_pct), 100U);
	u64 oldest, now;

	oldest = ring_buffer_oldest_event_ts(buffer, smp_processor_id());
	now = ring_buffer_time_stamp(buffer);
	if (!oldest || now <= oldest)
		return 0;
	return max_t(u64, div_u64((now - oldest) * pct, 100), 1);
}

/*
 * Set this CPU's horizon age to the smallest age of its consumers.  Return
 * whether it got smaller (a definition is due sooner than the refresh timer
 * was started for).
 */
static bool stackmap_horizon_update(const struct stackmap_window *w)
{
	u64 age, least = 0, was = this_cpu_read(stackmap_horizon_age);
	int i;

	for (i = 0; i <= SM_CONSUMERS; i++) {
		age = READ_ONCE(w[i].age);
		if (age && (!least || age < least))
			least = age;
	}
	this_cpu_write(stackmap_horizon_age, least);
	/*
	 * The CPU's buffers just started to overwrite: the definitions written
	 * before were not queued for a refresh, so none may serve a cookie
	 * from now on (each stack is defined again at its next use).
	 */
	if (least && !was)
		sm_map_cpu_expire_all(&stackmap_map, smp_processor_id());
	return least && was && least < was;
}

/*
 * The irq_work: measure the windows the checks asked for, and set this CPU's
 * horizon age.
 */
static void stackmap_window_fn(struct irq_work *work)
{
	struct stackmap_window *w = this_cpu_ptr(stackmap_windows);
	struct trace_buffer *buffer;
	u64 age;
	int i;

	for (i = 0; i <= SM_CONSUMERS; i++) {
		buffer = xchg(&w[i].pending, NULL);
		if (!buffer)
			continue;
		age = stackmap_window_age(buffer);
		if (age) {
			WRITE_ONCE(w[i].age, age);
			WRITE_ONCE(w[i].measured, buffer);
			this_cpu_inc(stackmap_stats.windows);
		}
	}
	/* Definitions are due sooner: the refresh timer must not wait. */
	if (stackmap_horizon_update(w))
		stackmap_refresh_sooner();
}

/**
 * stackmap_window_remeasure() - measure again the windows this CPU has
 *
 * Context: hard IRQ (the refresh timer), interrupts enabled before it, as
 * for the irq_work.  Each tracked consumer with an age is measured again in
 * the buffer the irq_work last measured, so that the horizon follows the
 * window while the CPU writes no cookie (the checks come with cookies).  A
 * consumer's entry is read only while its stack_cookie file is set: its
 * removal clears that and then waits for every hard IRQ section
 * (tracepoint_synchronize_unregister()) before its buffer can go.
 */
void stackmap_window_remeasure(void)
{
	struct stackmap_window *w = this_cpu_ptr(stackmap_windows);
	struct trace_buffer *buffer;
	u64 age;
	int i;

	for (i = 0; i < SM_CONSUMERS; i++) {
		/* Acquire: pairs with the release in stackmap_consumer_add(). */
		if (!smp_load_acquire(&stackmap_consumers[i].file))
			continue;
		buffer = READ_ONCE(w[i].measured);
		if (!READ_ONCE(w[i].age) || !buffer)
			continue;
		age = stackmap_window_age(buffer);
		if (age)
			WRITE_ONCE(w[i].age, age);
	}
	stackmap_horizon_update(w);
}

/**
 * stackmap_window_init() - set up the per-CPU irq_works
 *
 * Context: module init, before any probe can run.  Hard IRQ works: on
 * PREEMPT_RT too they run in hard IRQ context, not in a thread.
 */
void stackmap_window_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		*per_cpu_ptr(&stackmap_window_work, cpu) =
			IRQ_WORK_INIT_HARD(stackmap_window_fn);
}

/**
 * stackmap_window_exit() - wait for queued measurements
 *
 * Context: module exit, after no probe can run any more.
 */
void stackmap_window_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&stackmap_window_work, cpu));
}
