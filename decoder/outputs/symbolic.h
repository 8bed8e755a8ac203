/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: an event's symbolic fields, as its print format prints them.
 *
 * A field is symbolic when the event's print format renders it through
 * __print_symbolic() or __print_flags(): sched_switch's prev_state ("S",
 * "R+"), kmalloc's gfp_flags ("GFP_KERNEL|__GFP_ZERO"), softirq_entry's vec
 * ("TIMER").  The printed form is found in the arguments libtraceevent
 * parsed from the format (event->print_fmt.args): a run of consecutive
 * arguments that read that one field and nothing else, at least one of
 * which is a TEP_PRINT_FLAGS or TEP_PRINT_SYMBOL, printed one after the
 * other.  sched_switch prints prev_state with two such arguments ("%s%s":
 * the flags or "R", then "+" when preempted), hence "R+"; softirq_entry's
 * "vec=%u [action=%s]" has the plain number first (not a run: a number is
 * not printed here) and the symbol after it, hence "TIMER".  Text of the
 * format between the arguments of a run is not part of the printed form.
 *
 * The arguments are evaluated as libtraceevent 1.7's eval_num_arg() and
 * print_str_arg() evaluate them (event-parse.c: numbers, fields, casts,
 * the C operators and ?:, the flag and symbol tables with values as
 * libtraceevent stored them); a run with any other kind of argument has no
 * printed form.  libtraceevent has no public call that prints one argument
 * (tep_print_field_content() prints a field only as a plain number).
 */
#ifndef FGDECODE_SYMBOLIC_H
#define FGDECODE_SYMBOLIC_H

#include <stdbool.h>

#include <event-parse.h>

/* The symbolic fields of one event (symbolic_find()). */
#define SYMBOLIC_MAX	8

struct symbolic_field {
	struct tep_format_field *field;
	struct tep_print_arg *first;	/* the run's first argument */
	int nr;				/* and its length */
};

/**
 * symbolic_find() - the symbolic fields of @event
 * @event: an event of the trace
 * @out: filled with at most SYMBOLIC_MAX fields, in the order of their
 *	runs in the print format (a field is listed once: its first run)
 *
 * Return: the number of fields in @out.
 */
int symbolic_find(struct tep_event *event, struct symbolic_field *out);

/**
 * symbolic_print() - append the printed form of a symbolic field
 * @s: output
 * @event: the event of @record
 * @sf: one of symbolic_find()'s fields of @event
 * @record: a record of @event
 *
 * Return: false when the record is too short for the field (nothing
 * appended).
 */
bool symbolic_print(struct trace_seq *s, struct tep_event *event,
		    const struct symbolic_field *sf,
		    const struct tep_record *record);

/**
 * symbolic_is_address() - does @event's print format print @field as an
 *	address: cast to a pointer type ("(void *)REC->call_site", printed
 *	with %pS)?
 * @event: an event of the trace
 * @field: one of its fields
 */
bool symbolic_is_address(struct tep_event *event,
			 const struct tep_format_field *field);

#endif /* FGDECODE_SYMBOLIC_H */
