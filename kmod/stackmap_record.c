// SPDX-License-Identifier: GPL-2.0
/*
 * The hot path: capture the stack of a traced hit, turn it into a cookie and
 * emit the events.  Runs in whatever context the traced point runs in, NMI
 * included; it disables preemption itself.  Built without ftrace
 * instrumentation (Kbuild), as kernel/trace is, so it cannot trace itself.
 */
#include <linux/module.h>
#include <linux/stacktrace.h>
#include <linux/trace_events.h>

#include "stackmap.h"
#include "stackmap_capture.h"
#include "stackmap_instance.h"
#include "stackmap_trace.h"

/*
 * Per-CPU stack buffers, one per nesting level (task, softirq, irq, NMI), as
 * the kernel's own __ftrace_trace_stack() does, so a 64-frame stack never
 * sits on the (possibly small) interrupt stack.  Capture takes a few extra
 * frames that trimming removes.  Levels count nesting, not context bits: on
 * PREEMPT_RT an interrupt's wakeups on its way out carry the interrupted
 * context's bits and still nest.
 */
#define SM_NESTING	4

struct stackmap_buffers {
	unsigned long ips[SM_NESTING][SM_CAPTURE];
};

static DEFINE_PER_CPU(struct stackmap_buffers, stackmap_buffers);
static DEFINE_PER_CPU(int, stackmap_nesting);
/*
 * Per CPU: bit C set while a capture runs stack_trace_save() in context C
 * (stackmap_context(): task, softirq, hard IRQ, NMI), and bit C + 4 while a
 * second one runs in that same context.  Interrupts stay enabled, as in
 * ftrace's own __ftrace_trace_stack(): an interrupt or NMI that nests has a
 * context of its own.  A hit that finds its context capturing is the capture
 * itself (a function glob or tracepoint on stack_trace_save() or the
 * unwinder): its stack is dropped and counted (recursion).  One exception,
 * as ftrace's TRACE_CTX_TRANSITION makes it: a tracepoint hit may capture
 * once more in a context already capturing, for code that runs between an
 * interrupt's entry or exit and its context bits (a wakeup on an interrupt's
 * way out on PREEMPT_RT).  A function hit never may: a glob on the unwinder
 * is hit at every frame, and each such hit would capture the stack again.
 * So one hit costs one capture, and at most one more for each tracepoint
 * hit inside its walk, whatever is hooked.
 */
DEFINE_PER_CPU(unsigned int, stackmap_capturing);
/*
 * Per nesting level: the consumers (bits, SM_CONSUMER_*) whose buffers took
 * the stack_define, and those that took the stack_cookie, last emitted at
 * that level.
 */
static DEFINE_PER_CPU(u32[SM_NESTING], stackmap_define_takers);
/*
 * Per nesting level: the stack_define reserved in a buffer and not yet seen
 * committed, and that buffer's consumer bit (stackmap_define_written()).
 */
struct stackmap_define_pending {
	const void *entry;
	u32 bit;
	bool nmi;
};

static DEFINE_PER_CPU(struct stackmap_define_pending[SM_NESTING],
		      stackmap_define_pending);
static DEFINE_PER_CPU(u32[SM_NESTING], stackmap_cookie_takers);
/* Perf uses stack_cookie: 0 or 1 (its first register, its last unregister). */
static atomic_t stackmap_perf = ATOMIC_INIT(0);
DEFINE_PER_CPU(struct stackmap_stats, stackmap_stats);

/*
 * Recording epoch, never 0: a slot is defined again once the epoch moved
 * (stackmap_new_epoch(), called when a consumer starts or restarts).
 */
static atomic_t stackmap_epoch = ATOMIC_INIT(1);

static u32 stackmap_epoch_now(void)
{
	return atomic_read(&stackmap_epoch);
}

/*
 * Per CPU: definitions written on this CPU more than this many ns before now
 * (ktime_get_mono_fast_ns()) are about to leave an overwriting ring buffer
 * and are written again: by the refresh timer if a cookie reused them
 * (stackmap_refresh.c), else on next use; 0: none is (stackmap_window.c
 * sets it).
 */
DEFINE_PER_CPU(u64, stackmap_horizon_age);

/* Per nesting level: the cookie being emitted is defined right after it. */
static DEFINE_PER_CPU(bool[SM_NESTING], stackmap_define_after);
/*
 * Per nesting level: the hit being recorded was not pinned to the CPU of its
 * event, so its stack record must pair with no event (stackmap_attach.c).
 */
static DEFINE_PER_CPU(bool[SM_NESTING], stackmap_unpinned_now);

/* Leave the nesting level stackmap_hit_begin() entered; preemption back on. */
static void stackmap_hit_out(void)
{
	barrier();
	this_cpu_dec(stackmap_nesting);
	preempt_enable_notrace();
}

/* The nesting level of the stackmap_record() running on this CPU, or -1. */
static int stackmap_level(void)
{
	int level = this_cpu_read(stackmap_nesting) - 1;

	return level < SM_NESTING ? level : -1;
}

#ifdef STACKMAP_TEST_SLEEP_IN_PROBE
/*
 * TEST ONLY, never in a normal build (tests/vm/test_debug.sh passes
 * KCFLAGS=-DSTACKMAP_TEST_SLEEP_IN_PROBE): the hot path claims it may sleep,
 * with preemption disabled and often inside the scheduler.  A kernel with
 * CONFIG_DEBUG_ATOMIC_SLEEP must report "BUG: sleeping function called from
 * invalid context", and the harness must fail the run on it: the proof that
 * the debug kernel and run-vm.sh catch what the module must never do.
 * might_sleep() only checks; a real GFP_KERNEL allocation here could
 * deadlock under the runqueue lock instead of reporting.  Once per load:
 * each report is a printk under the runqueue lock (sched_switch), which
 * can itself deadlock the guest (lockdep saw that cycle), and one report
 * is all the test needs.
 */
static bool stackmap_test_slept;
#define stackmap_test_sleep_in_probe()				\
	do {							\
		if (!xchg(&stackmap_test_slept, true))		\
			might_sleep();				\
	} while (0)
MODULE_INFO(stackmap_test, "sleep_in_probe");
#else
#define stackmap_test_sleep_in_probe()	do { } while (0)
#endif

/**
 * stackmap_new_epoch() - make every stack be defined again on next use
 * @define_now: also define the cookie being emitted on this CPU right after
 *	it (called from its stack_cookie probe, which found a consumer that
 *	accepts events again)
 *
 * Context: any.
 */
void stackmap_new_epoch(bool define_now)
{
	/*
	 * Always a step of its own: an update that lost a race to another
	 * bump would leave the epoch at a value whose definitions may predate
	 * this call.  0 means never defined, so it is stepped over.
	 */
	if (!atomic_inc_return(&stackmap_epoch))
		atomic_inc(&stackmap_epoch);
	this_cpu_inc(stackmap_stats.epochs);
	if (define_now) {
		int level = stackmap_level();

		if (level >= 0)
			this_cpu_write(stackmap_define_after[level], true);
	}
}

/**
 * stackmap_record_unpinned() - must the stack record being written be
 *	flagged because its hit was not pinned?
 *
 * Context: a stack record's probe, in the context of stackmap_record().
 */
bool stackmap_record_unpinned(void)
{
	int level = stackmap_level();

	return level >= 0 && this_cpu_read(stackmap_unpinned_now[level]);
}

/* How far SM_SKIP_UNTIL looks for its range before keeping everything. */
#define SM_SKIP_UNTIL_MAX	8

static bool stackmap_in_range(unsigned long ip, unsigned long start,
			      unsigned long size)
{
	return ip - start < size;
}

/*
 * The index of the first of ips[@i..] (looking SM_SKIP_UNTIL_MAX frames
 * ahead) inside [@start, @start + @size), or @nr if none is.
 */
static unsigned int stackmap_find_frame(const unsigned long *ips,
					unsigned int i, unsigned int nr,
					unsigned long start, unsigned long size)
{
	unsigned int j;

	for (j = i; j < nr && j < i + SM_SKIP_UNTIL_MAX; j++)
		if (stackmap_in_range(ips[j], start, size))
			return j;
	return nr;
}

/*
 * Is @ip in this module's core text (its probes and the capture)?  Two
 * loads and a compare: within_module() checks every memory region of the
 * module (seven on 6.4 and later, each a call on 7.x), which cost 398
 * instructions a hit at trimming on 7.3.4 (tests/bench/RESULTS-newest.md,
 * stage 3) where this check has one range to look at.  Init text is left
 * out: no capture runs from it.
 */
static bool stackmap_own_frame(unsigned long ip)
{
#ifdef STACKMAP_HAVE_MODULE_MEMORY
	const struct module_memory *text = &THIS_MODULE->mem[MOD_TEXT];

	return ip - (unsigned long)text->base < text->size;
#else
	const struct module_layout *core = &THIS_MODULE->core_layout;

	return ip - (unsigned long)core->base < core->text_size;
#endif
}

/*
 * The capture's own frames: this module's (the capture, the probe), and
 * before them whatever the unwinder reports of itself.  x86 (ORC, frame
 * pointers) and arm64 (stack_trace_save() skips its own frame and
 * arch_stack_walk() starts at its caller) report none, so the first frame
 * is this module's; an unwinder that did would leave stack_trace_save() at
 * the top of every stack.  So the module's first frame is looked for
 * (SM_SKIP_UNTIL_MAX frames ahead) and everything up to it dropped; with
 * none there (cannot happen: the capture is this module's), nothing is.
 * Return the index of the first frame after them.
 */
static unsigned int stackmap_trim_own(const unsigned long *ips,
				      unsigned int nr)
{
	unsigned int i, j;

	for (i = 0; i < nr && i < SM_SKIP_UNTIL_MAX; i++)
		if (stackmap_own_frame(ips[i]))
			break;
	if (i == nr || i == SM_SKIP_UNTIL_MAX)
		i = 0;
	for (j = i; j < nr && stackmap_own_frame(ips[j]); j++)
		;
	return j;
}

/*
 * Drop the capture's own frames, then apply @skip (see struct
 * stackmap_skip).  Return the index of the first frame to keep.
 */
static unsigned int stackmap_trim(const unsigned long *ips, unsigned int nr,
				  const struct stackmap_skip *skip)
{
	unsigned int i = stackmap_trim_own(ips, nr), j;

	if (!skip || i >= nr)
		return i;
	if (skip->stub_size) {
		j = stackmap_find_frame(ips, i, nr, skip->stub_start,
					skip->stub_size);
		if (j == nr)
			return i;
		i = j + 1;
	}
	if (!skip->size || i >= nr)
		return i;
	if (skip->mode == SM_SKIP_ONE)
		return stackmap_in_range(ips[i], skip->start, skip->size) ?
		       i + 1 : i;
	j = stackmap_find_frame(ips, i, nr, skip->start, skip->size);
	return j < nr ? j : i;
}

/**
 * stackmap_define_written() - a ring buffer accepted a stack_define
 * @data: the first argument of the event's probe: the trace_event_file of a
 *	ring buffer, or the trace_event_call itself for perf
 * @entry: the record reserved
 *
 * Called from the event's TP_fast_assign, in the context of the
 * stackmap_record() that emitted it.  The buffer's consumer bit is noted
 * as pending; it counts once the commit passes the record to the ftrace
 * exports (stackmap_define_committed()), which it does only when no filter,
 * trigger condition, soft-disable or pid filter discarded it
 * (__event_trigger_test_discard()).  Neither perf nor a buffer whose
 * stack_define has a filter or a conditional trigger counts: there the
 * reserve hands out a scratch event whose copy into the buffer can still
 * fail after the exports saw it.  The module must never believe that a
 * definition reached a trace that never got it.
 */
void stackmap_define_written(const void *data, const void *entry)
{
	const struct trace_event_file *file = data;
	int level = stackmap_level();

	if (level < 0 || stackmap_define_event_is(data) ||
	    (READ_ONCE(file->flags) &
	     (EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_TRIGGER_COND)))
		return;
	this_cpu_write(stackmap_define_pending[level].bit,
		       BIT(stackmap_consumer_of(file)));
	this_cpu_write(stackmap_define_pending[level].nmi, in_nmi());
	this_cpu_write(stackmap_define_pending[level].entry, entry);
}

/**
 * stackmap_define_committed() - the ftrace export saw a record committed
 * @entry: the record
 *
 * Context: any (ftrace_exports(), from trace_event_buffer_commit()).  If
 * @entry is the stack_define pending at the running stackmap_record()'s
 * level, its buffer took the definition.  stackmap_define() keeps
 * interrupts off while it emits, so only an NMI can commit another record
 * in between (maybe where a discarded definition was): the NMI state tells.
 */
void stackmap_define_committed(const void *entry)
{
	int level = stackmap_level();

	if (level < 0 ||
	    this_cpu_read(stackmap_define_pending[level].entry) != entry ||
	    this_cpu_read(stackmap_define_pending[level].nmi) != in_nmi())
		return;
	this_cpu_write(stackmap_define_pending[level].entry, NULL);
	this_cpu_or(stackmap_define_takers[level],
		    this_cpu_read(stackmap_define_pending[level].bit));
}

/**
 * stackmap_cookie_taken() - a consumer's buffer took the stack_cookie
 * @consumer: its number, 0..SM_CONSUMERS - 1 or SM_CONSUMER_UNTRACKED
 *
 * Context: the stack_cookie probe, in the context of stackmap_record().
 */
void stackmap_cookie_taken(int consumer)
{
	int level = stackmap_level();

	if (level >= 0)
		this_cpu_or(stackmap_cookie_takers[level], BIT(consumer));
}

/**
 * stackmap_perf_users() - perf started (@on) or stopped using stack_cookie
 * @on: true at the first perf user's register, false at the last one's
 *	unregister
 *
 * A state, not a count: an unregister whose register the module never saw
 * (perf enabled the event before the module's reg was installed) cannot
 * take it below zero.
 */
void stackmap_perf_users(bool on)
{
	atomic_set(&stackmap_perf, on);
}

/*
 * Write the definition of @cookie with sm_define.flags @flags.  Return: the
 * consumers whose ring buffers took it (0: none), which the slot notes.  On
 * a CPU whose buffers overwrite, the definition is queued for a refresh
 * (stackmap_refresh.c).
 */
static u32 stackmap_define(u64 cookie, const unsigned long *ips, u32 depth,
			   u32 info, int level, u32 flags)
{
	struct sm_define d = {
		.epoch = stackmap_epoch_now(),
		.cpu = raw_smp_processor_id(),
		.flags = flags,
		.at = ktime_get_mono_fast_ns(),
	};
	unsigned long irqflags;

	/*
	 * Interrupts off: no interrupt commits a record between a buffer's
	 * reserve and its commit (stackmap_define_committed()), and the pid
	 * filter the commit checks is the one the reserve checked.
	 */
	local_irq_save(irqflags);
	this_cpu_write(stackmap_define_takers[level], 0);
	this_cpu_write(stackmap_define_pending[level].entry, NULL);
	trace_stack_define(cookie, ips, depth, sm_info_owner(info),
			   sm_info_flags(info));
	this_cpu_write(stackmap_define_pending[level].entry, NULL);
	d.consumers = this_cpu_read(stackmap_define_takers[level]);
	local_irq_restore(irqflags);
	if (!d.consumers)
		return 0;
	sm_map_note_define(&stackmap_map, stackmap_cookie_slot(cookie), &d);
	this_cpu_inc(stackmap_stats.defines);
	if (this_cpu_read(stackmap_horizon_age))
		stackmap_refresh_queue(cookie, d.at);
	return d.consumers;
}

/*
 * When @d, the last definition of @slot, went to a CPU whose buffers
 * overwrite (a horizon age), replace it with this CPU's own last definition
 * (sm_map_cpu_define()): only that one serves a cookie written here (see
 * stackmap_defined()).  Return: whether it did.
 */
static bool stackmap_own_define(u32 slot, struct sm_define *d)
{
	if (d->cpu >= nr_cpu_ids ||
	    !READ_ONCE(per_cpu(stackmap_horizon_age, d->cpu)))
		return false;
	sm_map_cpu_define(&stackmap_map, slot, smp_processor_id(), d);
	return true;
}

/*
 * Does this recording still hold a definition of @slot for a cookie written
 * on this CPU?  Not when none was written in this epoch.  Yes when the last
 * one went to a CPU whose buffers do not overwrite (no horizon age, see
 * stackmap_window.c).  Otherwise only a definition this CPU wrote serves:
 * where another CPU's window starts at the end is not where this CPU's does
 * (they differed by 10 % and more in vm-modes' flight phase), so a cookie
 * could outlive it.  This CPU's own last definition in the epoch serves
 * while this CPU has no horizon or it is younger than this CPU's horizon
 * age; reused then, it is marked so that the refresh timer writes it again
 * before it leaves the buffer, and the cookie finds that one
 * (stackmap_refresh.c).  Each CPU keeps its own (sm_map_cpu_define()), so a
 * stack used on two CPUs in turn is not defined again at every turn.  The
 * clock is read only while a horizon is in force.
 */
static bool stackmap_defined(u32 slot, bool *window)
{
	u32 epoch = stackmap_epoch_now();
	struct sm_define d;
	u64 age;

	sm_map_last_define(&stackmap_map, slot, &d);
	*window = false;
	if (d.epoch != epoch)
		return false;
	if (!stackmap_own_define(slot, &d))
		return true;
	age = this_cpu_read(stackmap_horizon_age);
	if (!age)
		return true;
	if (d.at + age >= ktime_get_mono_fast_ns()) {
		/* The refresh of this definition must serve this cookie. */
		sm_map_cpu_reuse(&stackmap_map, slot, smp_processor_id());
		return true;
	}
	*window = true;
	return false;
}

/*
 * Emit the definition of @cookie if this recording does not hold it.  The
 * slot is marked defined only once a ring buffer really took the
 * definition: trace-cmd enables events while tracing is still off, and a
 * definition marked then would be lost for the whole recording.  Two CPUs
 * may both emit the same definition; decoders accept identical ones.
 * Return: true when a definition was emitted (taken or not).
 */
static bool stackmap_maybe_define(u64 cookie, const unsigned long *ips,
				  u32 depth, u32 info, int level)
{
	bool window;

	if (!trace_stack_define_enabled() ||
	    stackmap_defined(stackmap_cookie_slot(cookie), &window))
		return false;
	if (stackmap_define(cookie, ips, depth, info, level, 0) && window)
		this_cpu_inc(stackmap_stats.redefines);
	return true;
}

/*
 * Did a consumer take the cookie just emitted at @level without ever
 * having taken its definition in this epoch?  A pid filter, a cpumask or a
 * filter on stack_define can keep a definition from one buffer while
 * another takes it.  While the slot's last definition went to a CPU whose
 * buffers overwrite, only those taken on this CPU count (the rule of
 * stackmap_defined()).  Perf takes whatever is emitted while it is on
 * (@defined_before: a definition preceded the cookie), and is never seen
 * taking anything.
 */
static bool stackmap_undefined_taker(u32 slot, int level, bool defined_before)
{
	u32 takers = this_cpu_read(stackmap_cookie_takers[level]), have = 0;
	struct sm_define d;

	if (atomic_read(&stackmap_perf))
		takers |= BIT(SM_CONSUMER_PERF);
	if (!takers)
		return false;
	sm_map_last_define(&stackmap_map, slot, &d);
	if (d.epoch == stackmap_epoch_now())
		stackmap_own_define(slot, &d);
	if (d.epoch == stackmap_epoch_now())
		have = d.consumers;
	if (defined_before)
		have |= BIT(SM_CONSUMER_PERF);
	return takers & ~have;
}

static void stackmap_emit(const unsigned long *ips, u32 depth, u32 info,
			  int level)
{
	bool defined_before;
	u64 cookie;
	int ret;

	this_cpu_inc(stackmap_stats.lookups);
	ret = sm_map_get_cookie(&stackmap_map, ips, depth, info, &cookie);
	if (ret > 0) {
		this_cpu_inc(stackmap_stats.fallback[ret]);
		trace_stack_fallback(ret, ips, depth, sm_info_owner(info),
				     sm_info_flags(info));
		return;
	}
	if (ret == SM_LOOKUP_HIT)
		this_cpu_inc(stackmap_stats.hits);
	else
		this_cpu_inc(stackmap_stats.inserts);
	if (stackmap_bench_stop(SM_STAGE_LOOKUP))
		return;
	defined_before = stackmap_maybe_define(cookie, ips, depth, info, level);
	this_cpu_write(stackmap_define_after[level], false);
	this_cpu_write(stackmap_cookie_takers[level], 0);
	trace_stack_cookie(cookie);
	/*
	 * A consumer came back (stackmap_new_epoch()), or took the cookie
	 * but never its definition: define it now, right after the cookie.
	 */
	if (trace_stack_define_enabled() &&
	    (this_cpu_read(stackmap_define_after[level]) ||
	     stackmap_undefined_taker(stackmap_cookie_slot(cookie), level,
				      defined_before)))
		stackmap_define(cookie, ips, depth, info, level, 0);
}

/**
 * stackmap_refresh_one() - a queued definition is due (stackmap_refresh.c)
 * @cookie: the definition's cookie
 * @at: its time, as this CPU's row noted it
 * @refresh: write it again if it needs it (false: the CPU's buffers stopped
 *	overwriting, only expire it)
 *
 * Context: hard IRQ (the CPU's refresh timer), on the CPU that wrote it.
 * When it is still this CPU's last definition of the stack in the recording
 * epoch and a cookie reused it since (SM_DEFINE_REUSED), it is written
 * again; the new one replaces the consumers noted (SM_DEFINE_REPLACE), and
 * a consumer that took the old one but not this one is counted
 * (refresh_missed).  Otherwise, or when no buffer took it, it is expired
 * (sm_map_cpu_expire()): a window measured longer later must not let a
 * cookie reuse a definition that no refresh follows any more.  Return:
 * false when the CPU is nested too deep to write now (try again later),
 * else true.
 */
bool stackmap_refresh_one(u64 cookie, u64 at, bool refresh)
{
	u32 slot = stackmap_cookie_slot(cookie), depth, info, took = 0;
	int level, cpu = smp_processor_id();
	const unsigned long *ips;
	struct sm_define d;

	level = this_cpu_inc_return(stackmap_nesting) - 1;
	/* Pairs with the barrier() before the decrement in stackmap_hit_out(). */
	barrier();
	if (level >= SM_NESTING) {
		barrier();
		this_cpu_dec(stackmap_nesting);
		return false;
	}
	depth = sm_map_cookie_stack(&stackmap_map, cookie, &ips, &info);
	if (!depth)
		goto out;
	sm_map_cpu_define(&stackmap_map, slot, cpu, &d);
	if (d.epoch != stackmap_epoch_now() || d.at != at)
		goto out;	/* a newer definition, queued in turn */
	if (refresh && (d.flags & SM_DEFINE_REUSED) &&
	    trace_stack_define_enabled())
		took = stackmap_define(cookie, ips, depth, info, level,
				       SM_DEFINE_REPLACE);
	if (!took) {
		sm_map_cpu_expire(&stackmap_map, slot, cpu, at);
		goto out;
	}
	this_cpu_inc(stackmap_stats.refreshes);
	if (d.consumers & ~took)
		this_cpu_inc(stackmap_stats.refresh_missed);
out:
	barrier();
	this_cpu_dec(stackmap_nesting);
	return true;
}

/**
 * stackmap_hit_begin() - start recording the stack of the current traced hit
 * @hit: filled with the capture buffer and nesting level to record with
 * @unpinned: the task was not kept on the CPU of its event: its stack
 *	record is flagged so that no event takes it, and so is the next one
 *	of every consumer on every CPU (stackmap_unpinned_hit())
 *
 * Context: any, NMI included.  Disables preemption, so that even a
 * preemptible tracepoint (faultable syscall tracepoints, PREEMPT_RT) never
 * shares a per-CPU buffer, until stackmap_hit_end().  Return: true when the
 * hit may capture into @hit->ips; false when it nests too deep, which is
 * counted (nested) and ended here: the hit then leaves its event without a
 * stack record and the next stack record of every consumer on this CPU is
 * flagged (stackmap_consumers_debt()).
 */
bool stackmap_hit_begin(struct stackmap_hit *hit, bool unpinned)
{
	int level;

	preempt_disable_notrace();
	stackmap_test_sleep_in_probe();
	level = this_cpu_inc_return(stackmap_nesting) - 1;
	/* Pairs with the barrier() before the decrement in stackmap_hit_out(). */
	barrier();
	if (unpinned)
		stackmap_unpinned_hit();
	if (level >= SM_NESTING) {
		this_cpu_inc(stackmap_stats.nested);
		stackmap_consumers_debt();
		stackmap_hit_out();
		return false;
	}
	this_cpu_write(stackmap_unpinned_now[level], unpinned);
	hit->ips = this_cpu_ptr(&stackmap_buffers)->ips[level];
	hit->level = level;
	return true;
}

/**
 * stackmap_hit_end() - record the stack stackmap_capture() took for @hit
 * @hit: as stackmap_hit_begin() filled it
 * @nr: what stackmap_capture() returned: frames in @hit->ips, or -1 for a
 *	capture refused inside a capture of the same context (counted as
 *	recursion)
 * @skip: a code range to trim after this module's frames (the tracepoint's
 *	iterator, the function's ftrace call), or NULL
 * @owner: trace event id of the event the stack belongs to
 *
 * Context: that of stackmap_hit_begin(), which it ends (preemption enabled
 * again).  Emits stack_define (first use in a recording), then stack_cookie;
 * or stack_fallback when the map cannot give a cookie.  A stack deeper than
 * max_depth keeps its innermost frames and is marked
 * STACKMAP_FLAG_TRUNCATED.  Every outcome is counted in stackmap_stats.  A
 * hit dropped here leaves its event without a stack record: the next stack
 * record of every consumer on this CPU is flagged (stackmap_consumers_debt()).
 */
void stackmap_hit_end(const struct stackmap_hit *hit, int nr,
		      const struct stackmap_skip *skip, u16 owner)
{
	unsigned int first, depth;
	u16 flags = 0;

	if (nr < 0) {
		this_cpu_inc(stackmap_stats.recursion);
		goto drop;
	}
	if (stackmap_bench_stop(SM_STAGE_WALK))
		goto out;
	first = stackmap_trim(hit->ips, nr, skip);
#ifdef STACKMAP_BENCH_STAGES
	/* BENCH ONLY: the trim is done even when the hit stops right after. */
	OPTIMIZER_HIDE_VAR(first);
	if (stackmap_bench_stop(SM_STAGE_TRIM))
		goto out;
#endif
	depth = min_t(unsigned int, nr - first, stackmap_max_depth);
	if (!depth) {
		this_cpu_inc(stackmap_stats.empty);
		goto drop;
	}
	/* A full capture buffer may have left frames out as well. */
	if (nr - first > depth || nr == SM_CAPTURE) {
		flags |= STACKMAP_FLAG_TRUNCATED;
		this_cpu_inc(stackmap_stats.truncated);
	}
	stackmap_emit(hit->ips + first, depth, sm_info(owner, flags),
		      hit->level);
	goto out;
drop:
	stackmap_consumers_debt();
out:
	stackmap_hit_out();
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
		sum->redefines += READ_ONCE(s->redefines);
		sum->refreshes += READ_ONCE(s->refreshes);
		sum->refresh_missed += READ_ONCE(s->refresh_missed);
		sum->refresh_overflow += READ_ONCE(s->refresh_overflow);
		sum->epochs += READ_ONCE(s->epochs);
		sum->windows += READ_ONCE(s->windows);
		sum->truncated += READ_ONCE(s->truncated);
		sum->nested += READ_ONCE(s->nested);
		sum->empty += READ_ONCE(s->empty);
		sum->recursion += READ_ONCE(s->recursion);
		sum->unpinned += READ_ONCE(s->unpinned);
		sum->debts += READ_ONCE(s->debts);
		sum->discarded += READ_ONCE(s->discarded);
		sum->after_loss += READ_ONCE(s->after_loss);
	}
}
