/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's pairing: which stack record that follows an event in its
 * stream is that event's own (include/stackmap/events.h, "Which event a
 * stack belongs to"), read from the reader's lookahead (read.h) with the
 * owners the resolver knows (resolve.h), by the rule of lib/pairing.h (the
 * plugin's too).
 */
#ifndef FGDECODE_PAIR_H
#define FGDECODE_PAIR_H

#include <stdbool.h>

#include "read.h"
#include "resolve.h"

/**
 * pair_is_stack() - is a record of @kind a stack record (a stack_cookie,
 * stack_fallback or ftrace kernel_stack)?
 * @kind: reader_kind() of the record
 */
bool pair_is_stack(enum reader_kind kind);

/**
 * pair_take_define() - take the stack_define that follows in @stream
 * @r: the reader
 * @stream: the stream the event just read came from
 *
 * Definitions written between an event and its stack record are passed
 * before the stack is looked for.
 *
 * Return: the record (release with reader_put()), or NULL when the next
 * record of @stream is not a stack_define continuing it (none, another
 * kind, or after lost events).
 */
struct tep_record *pair_take_define(struct reader *r, int stream);

/**
 * pair_take_stack() - take the stack record of @event from @stream
 * @r: the reader
 * @res: the resolver (the owners of cookies; its stats count the events of
 *	a type that owns stacks but carry none, "stackless")
 * @event: the event just read (not a stack record)
 * @stream: its stream, its definitions taken (pair_take_define())
 * @kind: set to the stack record's kind (READER_NONE when none)
 * @cut: set when @event owns stacks, carries none, and its stream ended
 *	right after it (nothing of its context was written after it)
 *
 * Return: the stack record (release with reader_put()), or NULL.
 */
struct tep_record *pair_take_stack(struct reader *r, struct resolver *res,
				   struct tep_record *event, int stream,
				   enum reader_kind *kind, bool *cut);

#endif /* FGDECODE_PAIR_H */
