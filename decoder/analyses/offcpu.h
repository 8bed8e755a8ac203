/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --off-cpu: the time tasks spent off the CPU, charged to the
 * stack they left it with.
 *
 * Every sched:sched_switch is a switch-out of prev_pid (with the stack the
 * event carries: where the task called into the scheduler) and a switch-in
 * of next_pid.  The interval of a task from a switch-out to its next
 * switch-in, in ns of the trace clock, is charged to the stack of the
 * switch-out, under the root frame "[STATE]" (the state it left in,
 * spelled as the kernel's sched_switch format prints prev_state: "S", "D",
 * "R+" for a preempted task, ...), and with task_root under the task's
 * comm before that ("sh;[S]").  The stack set's weight is then "off-cpu"
 * in "ns" (sset_set_weight()).
 *
 * Nothing is guessed: a switch-in with no switch-out of that task earlier
 * in the trace, and a task still off the CPU at the end of the trace, are
 * counted (struct offcpu_stats) and charged nowhere.  The idle tasks (pid
 * 0) are left out: their "off-CPU" time is the time the CPU was busy.
 * Only switch-outs the filters select are charged (--pid P: P's time off
 * the CPU); every switch-in is looked at, selected or not.
 *
 * With wakers (offcpu_wakers(), fgdecode --wakers), the first
 * sched:sched_waking (or sched_wakeup) of a task off the CPU names who
 * ended its interval, and the interval is charged to the blocked stack
 * under its waker: an entry of sset_intern_woken() whose waker is the
 * wakeup's stack and whose waker_comm is the comm of the task that
 * recorded it.  Each output prints the waker's frames as it prints the
 * blocked ones, beyond a "--" frame (folding.h's folded_root() gives the
 * folded line, offwaketime's "waker stack -- blocked stack":
 * "WAKER_COMM;waker root;...;waker leaf;--;[S];blocked root;...").
 *
 * An interval that no wakeup in the trace ended (a preempted task, or the
 * wakeup was not recorded) has no waker (entry waker NULL; the outputs
 * print "[no wakeup in the trace]" in its place), and is counted
 * (offcpu_stats.no_waker).
 */
#ifndef FGDECODE_OFFCPU_H
#define FGDECODE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <event-parse.h>

#include "hashtab.h"
#include "sm_err.h"
#include "stackset.h"

/* prev_state bits as sched_switch prints them (6.1 .. 6.12). */
#define OFFCPU_STATE_MASK	0xffULL	/* "S", "D", "T", "t", "X", "Z", "P", "I" */
#define OFFCPU_STATE_PREEMPT	0x100ULL	/* TASK_REPORT_MAX: "+" */
/* Room for the longest state: all eight letters, '|' between, "+". */
#define OFFCPU_STATE_LEN	20

struct offcpu_stats {
	size_t intervals;	/* charged */
	sm_u64 ns;		/* their sum */
	size_t no_switch_out;	/* switch-ins of a task not seen leaving */
	size_t still_off;	/* tasks off the CPU at the end of the trace */
	size_t idle;		/* switch-outs of pid 0, not charged */
	size_t woken;		/* with wakers: intervals a wakeup ended */
	size_t no_waker;	/* with wakers: those none did */
};

struct offcpu_task;

/**
 * struct offcpu_interval - one charged interval, as offcpu_switch_in() ends it
 * @pid: the task
 * @comm: its prev_comm at the switch-out (NUL-terminated, at most 16 bytes)
 * @state: its prev_state then (offcpu_state_name() spells it)
 * @out_ts: the switch-out's timestamp, ns of the trace clock
 * @in_ts: the switch-in's (>= @out_ts; an earlier one is taken as @out_ts)
 * @ns: @in_ts - @out_ts, what the interval weighs
 * @out_cpu: the CPU it left
 * @in_cpu: the CPU it came back on
 * @blocked: the stack it left with (frames innermost first, or a marker
 *	status, or depth 0: its sched_switch carried no stack); its root is
 *	"[STATE]" or "COMM;[STATE]"
 * @charged: the stack set's entry the interval was counted under: @blocked,
 *	or with wakers @blocked under its waker (sset_intern_woken())
 * @waker: with wakers, the stack of the first wakeup after the switch-out
 *	(no root); NULL when none in the trace ended the interval, or
 *	without wakers
 * @waker_pid: who recorded that wakeup (with @waker)
 */
struct offcpu_interval {
	int pid;
	const char *comm;
	sm_u64 state;
	sm_u64 out_ts, in_ts, ns;
	int out_cpu, in_cpu;
	struct sset_entry *blocked;
	struct sset_entry *charged;
	struct sset_entry *waker;
	int waker_pid;
};

/* Called for each charged interval; a negative errno stops the decode. */
typedef int (*offcpu_interval_fn)(void *arg,
				  const struct offcpu_interval *iv);

struct offcpu {
	struct stackset *set;
	bool task_root;
	int event_id;			/* sched:sched_switch */
	struct tep_format_field *prev_comm, *prev_pid, *prev_state;
	struct tep_format_field *next_pid;
	bool wakers;			/* offcpu_wakers() */
	int waking_id;			/* sched_waking or sched_wakeup */
	struct tep_format_field *waking_pid;
	struct sm_hashtab tasks;	/* of struct offcpu_task, by pid */
	struct offcpu_stats stats;
	offcpu_interval_fn on_interval;	/* NULL: none (offcpu_on_interval()) */
	void *on_interval_arg;
};

/**
 * offcpu_init() - set up --off-cpu for a trace
 * @o: filled in
 * @tep: the trace's handle
 * @set: the stack set intervals are charged into (given the weight
 *	"off-cpu", "ns" here; nothing counted in it yet)
 * @task_root: put the task's comm above the state
 * @err: on failure, one line
 *
 * Return: 0; -ENOENT when the trace has no sched:sched_switch event, or one
 * without the numeric prev_pid, prev_state, next_pid and the prev_comm
 * array; -ENOMEM.
 */
int offcpu_init(struct offcpu *o, struct tep_handle *tep,
		struct stackset *set, bool task_root, struct sm_err *err);

/**
 * offcpu_wakers() - also join each interval to the wakeup that ended it
 * @o: set up by offcpu_init()
 * @tep: the trace's handle
 * @err: on failure, one line
 *
 * Return: 0; -ENOENT when the trace has neither sched:sched_waking nor
 * sched:sched_wakeup with a numeric pid field.
 */
int offcpu_wakers(struct offcpu *o, struct tep_handle *tep,
		  struct sm_err *err);

/**
 * offcpu_on_interval() - also hand each charged interval to @fn
 * @o: set up by offcpu_init() (and offcpu_wakers(), if at all)
 * @fn: called from offcpu_switch_in() when an interval is charged, in the
 *	order the intervals end (switch-ins in trace order), after it is
 *	counted in the stack set; its negative errno is
 *	offcpu_switch_in()'s return
 * @arg: passed to @fn
 *
 * The per-interval form of the analysis: fgdecode --off-cpu --json.  The
 * task's comm, state and CPU are kept from its switch-out for @fn.
 */
void offcpu_on_interval(struct offcpu *o, offcpu_interval_fn fn, void *arg);

/** offcpu_is_waking() - with wakers, is @record the wakeup event? */
bool offcpu_is_waking(const struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record);

/**
 * offcpu_waking() - a wakeup of the task in its pid field, by the task
 *	that recorded it, with the waker's stack (selected or not)
 * @o: the analysis
 * @tep: the trace's handle
 * @record: the wakeup record (offcpu_is_waking())
 * @status: the waker stack's status, as for sset_intern()
 * @frames: its frames, innermost first
 * @depth: their number (0: the wakeup carried no stack)
 *
 * Only the first wakeup after a task's switch-out counts.
 *
 * Return: 0, or -ENOMEM.
 */
int offcpu_waking(struct offcpu *o, struct tep_handle *tep,
		  struct tep_record *record, enum sset_status status,
		  const sm_u64 *frames, sm_u32 depth);

/** offcpu_fini() - free what offcpu_init() took. */
void offcpu_fini(struct offcpu *o);

/** offcpu_is_switch() - is @record a sched_switch? */
bool offcpu_is_switch(const struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record);

/**
 * offcpu_switch_in() - a sched_switch: charge next_pid's interval, if any
 * @o: the analysis
 * @tep: the trace's handle
 * @record: a sched_switch record (offcpu_is_switch()), selected or not
 *
 * Call it for every sched_switch, before offcpu_switch_out() of the same
 * record.
 *
 * Return: 0, -ENOMEM, or what the offcpu_on_interval() callback returned.
 */
int offcpu_switch_in(struct offcpu *o, struct tep_handle *tep,
		     struct tep_record *record);

/**
 * offcpu_switch_out() - a selected sched_switch: prev_pid leaves the CPU
 * @o: the analysis
 * @tep: the trace's handle
 * @record: the sched_switch record
 * @status: the stack's status, as for sset_intern()
 * @frames: its frames (copied), innermost first
 * @depth: their number (0: the event carried no stack)
 *
 * Return: 0, or -ENOMEM.
 */
int offcpu_switch_out(struct offcpu *o, struct tep_handle *tep,
		      struct tep_record *record, enum sset_status status,
		      const sm_u64 *frames, sm_u32 depth);

/**
 * offcpu_switch_out_uncharged() - prev_pid leaves, in a switch-out the
 *	filters did not select: its interval is charged nowhere, and its
 *	switch-in is not a switch-in without a switch-out
 * @o: the analysis
 * @tep: the trace's handle
 * @record: the sched_switch record
 *
 * Return: 0, or -ENOMEM.
 */
int offcpu_switch_out_uncharged(struct offcpu *o, struct tep_handle *tep,
				struct tep_record *record);

/**
 * offcpu_finish() - the end of the trace: count the tasks still off
 * @o: the analysis
 */
void offcpu_finish(struct offcpu *o);

/**
 * offcpu_state_name() - prev_state as sched_switch prints it
 * @state: the prev_state value
 * @buf: at least OFFCPU_STATE_LEN bytes
 *
 * Return: @buf: the letters of the bits in OFFCPU_STATE_MASK joined by '|'
 * ("S", "D", "S|D"), "R" when none is set, then "+" when
 * OFFCPU_STATE_PREEMPT is set.
 */
const char *offcpu_state_name(sm_u64 state, char *buf);

/**
 * offcpu_summary() - the summary line of --off-cpu
 * @out: stream (fgdecode uses stderr)
 * @o: the analysis, finished
 *
 * Prints "fgdecode: off-cpu: D (T ns) in N intervals, U switch-ins with no
 * switch-out in the trace, V tasks still off the CPU at its end (neither
 * charged)" (a count of 1 names its noun in the singular: "1 interval",
 * "1 switch-in", "1 task"), with wakers then ", W ended by a wakeup in the
 * trace, X by none"; "D (T ns)" is sm_duration_ns()'s "2.95 s (2948778451
 * ns)".
 */
void offcpu_summary(FILE *out, const struct offcpu *o);

#endif /* FGDECODE_OFFCPU_H */
