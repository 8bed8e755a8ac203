/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's analyses: what each stack weighs on its way into the stack set,
 * between pairing (pair.h) and the output (output.h).  By default every
 * selected event counts its stack once; with --weight FIELD it weighs its
 * field (weight.c); with --off-cpu a sched_switch's stack weighs the ns its
 * task then spent off the CPU, counted when the task comes back (offcpu.c,
 * which with --wakers also joins each interval to the wakeup that ended
 * it).  A stack record shown on its own (an orphan) is counted as such.
 */
#ifndef FGDECODE_ANALYSES_H
#define FGDECODE_ANALYSES_H

#include <stdbool.h>

#include <event-parse.h>

#include "offcpu.h"
#include "output.h"
#include "resolve.h"
#include "sm_err.h"
#include "stackset.h"
#include "symbolize.h"
#include "weight.h"

/**
 * struct analyses - the stack set and what weighs into it
 * @set: every counted stack
 * @weight_field: --weight FIELD, NULL: events count
 * @off_cpu: --off-cpu
 * @wakers: --wakers
 * @weight: with @weight_field
 * @offcpu: with @off_cpu
 */
struct analyses {
	struct stackset *set;
	const char *weight_field;
	bool off_cpu;
	bool wakers;
	struct weight weight;
	struct offcpu offcpu;
};

/**
 * analyses_init() - the stack set and the analyses @args asks for
 * @an: zeroed, filled in
 * @tep: the trace's handle
 * @sz: the symbolizer (--wakers names the wakers' frames with it)
 * @args: --weight, --off-cpu, --task-root (@task_root), --wakers
 * @task_root: --task-root
 * @err: on failure other than -ENOMEM, one line
 *
 * Return: 0; -ENOMEM (@err not set); -ENOENT when the trace lacks what
 * --off-cpu or --wakers reads (offcpu_init(), offcpu_wakers()).
 */
int analyses_init(struct analyses *an, struct tep_handle *tep,
		  const struct symbolizer *sz, const struct output_args *args,
		  bool task_root, struct sm_err *err);

/**
 * analyses_weigh() - with --weight, what the event @ev->record weighs
 * @an: the analyses
 * @tep: the trace's handle
 * @ev: the event; a stack record on its own weighs nothing
 * @weight: set to the weight; @ev->weight pointed at it (NULL without
 *	--weight, or for a stack record on its own)
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
 *	(NULL with --off-cpu, where a sched_switch's stack is held until its
 *	task comes back, and without a stack)
 * @type: the event's type (common_type)
 *
 * Return: 0, or -ENOMEM.
 */
int analyses_count(struct analyses *an, struct tep_handle *tep,
		   struct fg_event *ev, int type);

/**
 * analyses_switch_in() - --off-cpu: every sched_switch, selected or not
 * @an: the analyses
 * @tep: the trace's handle
 * @record: any event; only a sched_switch is read
 * @selected: the filters selected it (an unselected one takes its task off
 *	the CPU uncharged)
 *
 * Return: 0, or -ENOMEM.  Nothing without --off-cpu.
 */
int analyses_switch_in(struct analyses *an, struct tep_handle *tep,
		       struct tep_record *record, bool selected);

/**
 * analyses_wants_waker() - --wakers: is @record a wakeup whose stack joins
 * the interval it ends (resolve it, selected or not)?
 * @an: the analyses
 * @tep: the trace's handle
 * @record: any event
 */
bool analyses_wants_waker(const struct analyses *an, struct tep_handle *tep,
			  struct tep_record *record);

/**
 * analyses_waker() - --wakers: the wakeup @record with its stack @stack
 * @an: the analyses
 * @tep: the trace's handle
 * @record: an event analyses_wants_waker() wanted
 * @stack: its stack, resolved; NULL: it carries none
 *
 * Return: 0, or -ENOMEM.
 */
int analyses_waker(struct analyses *an, struct tep_handle *tep,
		   struct tep_record *record, const struct resolved *stack);

/**
 * analyses_on_interval() - give each off-CPU interval to @out as it ends
 * @an: the analyses
 * @out: an output with an interval() callback (else nothing is given)
 */
void analyses_on_interval(struct analyses *an, const struct output *out);

/**
 * analyses_finish() - after the last record: --off-cpu's tasks still off
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
