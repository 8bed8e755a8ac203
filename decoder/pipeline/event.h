/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: what the pipeline makes of a record for the stages after it,
 * the analyses (analyses.h) and the output (output.h): an event with the
 * stack it was paired with (pair.h) and resolved (resolve.h), and a
 * stack_define met on the way.
 */
#ifndef FGDECODE_EVENT_H
#define FGDECODE_EVENT_H

#include <stdbool.h>

#include <event-parse.h>

#include "resolve.h"
#include "stackmap/types.h"

struct sset_entry;

/**
 * struct fg_event - one selected event and its stack, as the pass decoded it
 * @record: the event's record; for a stack record shown on its own (@orphan,
 *	or a stack record no event took), that record itself
 * @buffer: the name of its buffer instance, NULL for the top buffer
 * @buffer_width: the longest instance name of the trace, 0 when it has none
 * @stack: the stack paired with it, resolved; NULL when it carries none
 * @entry: @stack interned in the stack set and counted there (its rendering
 *	is cached on it); NULL when none, or with --off-cpu (intervals are
 *	counted, not events)
 * @standalone: @record is a stack record shown on its own: no event before
 *	it took it
 * @orphan: and it names another event as its owner (events.h)
 * @cut: no @stack because its stream ended right after it (it owns stacks)
 * @weight: with --weight, what it weighs (its field's value); NULL without,
 *	and for a stack record on its own
 */
struct fg_event {
	struct tep_record *record;
	const char *buffer;
	int buffer_width;
	const struct resolved *stack;
	struct sset_entry *entry;
	bool standalone;
	bool orphan;
	bool cut;
	const sm_u64 *weight;
};

/**
 * struct fg_define - a stack_define record the pass met
 * @record: the record
 * @buffer: its buffer instance, NULL for the top buffer
 * @buffer_width: as in struct fg_event
 * @stack: the stack it defines, resolved, when the output asked for it
 *	(struct output_env @define_stacks); else NULL
 * @after_event: it came right after the event given to event() next (the
 *	pass meets it while pairing that event); else it stands on its own
 */
struct fg_define {
	struct tep_record *record;
	const char *buffer;
	int buffer_width;
	const struct resolved *stack;
	bool after_event;
};

#endif /* FGDECODE_EVENT_H */
