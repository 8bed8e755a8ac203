/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's analyses: what each stack weighs on its way into the stack set,
 * between pairing (pair.h) and the output (output.h).  By default every
 * selected event counts its stack once; an analysis the command line asks
 * for changes that: --weight FIELD weighs each event by its field
 * (weight.c); --off-cpu makes a sched_switch's stack weigh the ns its task
 * then spent off the CPU, counted when the task comes back (offcpu.c,
 * which with --wakers also joins each interval to the wakeup that ended
 * it).  A stack record shown on its own (an orphan) is counted as such.
 *
 * Each analysis is one struct analysis_ops, filled by its own file, and one
 * line of the table in analyses.c; the pass (commands/pass.c) calls the
 * analyses_*() functions below and names no analysis.  Modelled on the
 * outputs' struct output_ops and perf's struct perf_tool.  For one trace,
 * for each analysis the command line wants:
 *
 *   init(state, env)          once, the trace open, the stack set made;
 *                             @state is the analysis' own, zeroed
 *   on_interval(state, fn)    the output's interval() callback, if the
 *                             output has one (--off-cpu --json)
 *   event(state, record)      every event, selected or not, before it is
 *                             counted (--off-cpu: a switch-in)
 *   weigh(state, record)      each selected event: what it weighs
 *   count(state, ev)          each selected event with its stack: counts
 *                             it instead of the stack set's default count
 *   wants_stack(state, record) and stack(state, record, stack)
 *                             every event, selected or not, whose stack the
 *                             analysis reads (--wakers: a wakeup)
 *   finish(state)             after the last record
 *   summary(state, out)       the line after fgdecode's summary
 *   fini(state)               always after init()
 *
 * Every callback may be NULL; those returning int return 0 or a negative
 * errno that stops the pass (-ENOMEM, -EINVAL after @err was set).
 */
#ifndef FGDECODE_ANALYSES_H
#define FGDECODE_ANALYSES_H

#include <stdbool.h>
#include <stdio.h>

#include <event-parse.h>

#include "event.h"
#include "offcpu.h"
#include "resolve.h"
#include "sm_err.h"
#include "stackset.h"

/**
 * struct analysis_args - what the command line asks of the analyses
 * @weight: --weight FIELD, NULL: events count
 * @off_cpu: --off-cpu
 * @wakers: --wakers (with @off_cpu)
 * @task_root: --task-root (with @off_cpu)
 */
struct analysis_args {
	const char *weight;
	bool off_cpu;
	bool wakers;
	bool task_root;
};

/**
 * struct analysis_env - what every analysis is given at init()
 * @tep: the trace's handle
 * @set: the stack set it weighs into
 * @args: the command line's wishes
 */
struct analysis_env {
	struct tep_handle *tep;
	struct stackset *set;
	const struct analysis_args *args;
};

/**
 * struct analysis_ops - one analysis (see the top of this file)
 * @wanted: does the command line ask for it? (required)
 * @size: the size of its state
 * @init: 0; -ENOMEM; -ENOENT, @err set, when the trace lacks what it reads
 * @on_interval: hand each interval the analysis charges to @fn
 * @event: 0, -ENOMEM, or what the interval callback returned
 * @weigh: 0, or -EINVAL with @err naming the event and the field
 * @count: 0, or -ENOMEM; sets @ev->entry to the entry counted, if any
 * @wants_stack: is @record an event whose stack it reads?
 * @stack: @stack NULL: the event carries none; 0, or -ENOMEM
 * @finish: the end of the trace
 * @summary: print its summary line to @out
 * @fini: free what init() made
 */
struct analysis_ops {
	bool (*wanted)(const struct analysis_args *args);
	size_t size;
	int (*init)(void *state, const struct analysis_env *env,
		    struct sm_err *err);
	void (*on_interval)(void *state, offcpu_interval_fn fn, void *arg);
	int (*event)(void *state, struct tep_handle *tep,
		     struct tep_record *record, bool selected);
	int (*weigh)(void *state, struct tep_handle *tep,
		     struct tep_record *record, sm_u64 *weight,
		     struct sm_err *err);
	int (*count)(void *state, struct tep_handle *tep, struct fg_event *ev);
	bool (*wants_stack)(const void *state, struct tep_handle *tep,
			    struct tep_record *record);
	int (*stack)(void *state, struct tep_handle *tep,
		     struct tep_record *record, const struct resolved *stack);
	void (*finish)(void *state);
	void (*summary)(const void *state, FILE *out);
	void (*fini)(void *state);
};

/* The analyses of the table (weight.c, offcpu.c). */
extern const struct analysis_ops weight_analysis;
extern const struct analysis_ops offcpu_analysis;

/* Entries of the table (analyses.c). */
#define ANALYSES_MAX	2

/**
 * struct analyses - the stack set and the analyses that weigh into it
 * @set: every counted stack
 * @nr: analyses in @on
 * @on: the analyses the command line wants, in table order, with their
 *	states
 */
struct analyses {
	struct stackset *set;
	int nr;
	struct {
		const struct analysis_ops *ops;
		void *state;
	} on[ANALYSES_MAX];
};

/**
 * analyses_init() - the stack set and the analyses @args asks for
 * @an: zeroed, filled in
 * @env: @set is ignored (made here); @args is kept
 * @err: on failure other than -ENOMEM, one line
 *
 * Return: 0; -ENOMEM (@err not set); -ENOENT when the trace lacks what
 * an analysis reads (--off-cpu's sched_switch, --wakers' wakeups).
 */
int analyses_init(struct analyses *an, const struct analysis_env *env,
		  struct sm_err *err);

/**
 * analyses_status() - what the stack set calls the resolved stack @res
 * @res: a resolved stack record
 *
 * Return: SSET_FRAMES or SSET_TRUNCATED for a stack, else the marker:
 * SSET_STALE, SSET_UNKNOWN, SSET_CONFLICT, SSET_CORRUPT.
 */
enum sset_status analyses_status(const struct resolved *res);

/**
 * analyses_on_interval() - give each off-CPU interval to @fn as it ends
 * @an: the analyses
 * @fn: called with @arg and each interval (the output's interval())
 * @arg: passed to @fn
 */
void analyses_on_interval(struct analyses *an, offcpu_interval_fn fn,
			  void *arg);

/**
 * analyses_event() - every event, selected or not, before it is counted
 * @an: the analyses
 * @tep: the trace's handle
 * @record: the event
 * @selected: the filters selected it
 *
 * Return: 0, -ENOMEM, or what the interval callback returned.
 */
int analyses_event(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, bool selected);

/**
 * analyses_weigh() - what the selected event @ev->record weighs
 * @an: the analyses
 * @tep: the trace's handle
 * @ev: the event; a stack record on its own weighs nothing
 * @weight: set to the weight; @ev->weight pointed at it (NULL when no
 *	analysis weighs events, and for a stack record on its own)
 * @err: on failure, one line naming the event and the field
 *
 * Return: 0, or -EINVAL (an event type without the numeric field).
 */
int analyses_weigh(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, sm_u64 *weight, struct sm_err *err);

/**
 * analyses_count() - count the stack of the selected event @ev
 * @an: the analyses
 * @tep: the trace's handle
 * @ev: its @stack (and @weight) set; @entry is set to the stack's entry
 *	(NULL when an analysis counts it its own way, as --off-cpu holds a
 *	sched_switch's stack until its task comes back, and without a stack)
 * @type: the event's type (common_type)
 *
 * Return: 0, or -ENOMEM.
 */
int analyses_count(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, int type);

/**
 * analyses_wants_stack() - is @record an event, selected or not, whose
 * stack an analysis reads (--wakers: a wakeup)?  Resolve it, then give it
 * to analyses_stack().
 * @an: the analyses
 * @tep: the trace's handle
 * @record: any event
 */
bool analyses_wants_stack(const struct analyses *an, struct tep_handle *tep,
			  struct tep_record *record);

/**
 * analyses_stack() - the event @record with its stack @stack
 * @an: the analyses
 * @tep: the trace's handle
 * @record: an event analyses_wants_stack() wanted
 * @stack: its stack, resolved; NULL: it carries none
 *
 * Return: 0, or -ENOMEM.
 */
int analyses_stack(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, const struct resolved *stack);

/**
 * analyses_finish() - after the last record (--off-cpu's tasks still off)
 * @an: the analyses
 */
void analyses_finish(struct analyses *an);

/**
 * analyses_summary() - the lines after fgdecode's summary: what the
 * weights summed (--weight), the off-CPU totals (--off-cpu)
 * @an: the analyses
 * @out: stream (stderr)
 */
void analyses_summary(const struct analyses *an, FILE *out);

/**
 * analyses_fini() - free what analyses_init() made
 * @an: initialised, or zeroed
 */
void analyses_fini(struct analyses *an);

#endif /* FGDECODE_ANALYSES_H */
