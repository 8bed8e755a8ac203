// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pairing (pair.h): the stack record of each event, by the rule
 * of include/stackmap/events.h, "Which event a stack belongs to", kept in
 * lib/pairing.c (the plugin applies the same one).
 */
#include <string.h>

#include "pair.h"
#include "pairing.h"
#include "tep_stack.h"

bool pair_is_stack(enum reader_kind kind)
{
	return kind == READER_COOKIE || kind == READER_FALLBACK ||
	       kind == READER_KSTACK;
}

/*
 * The kind of the next record of @stream, if it continues the event just
 * read; READER_NONE when there is none, or events were lost in between (a
 * stack there would belong to a lost event).
 */
static enum reader_kind next_kind(struct reader *r, int stream)
{
	struct tep_record *next = reader_peek(r, stream);

	if (!next || next->missed_events)
		return READER_NONE;
	return reader_kind(r, next);
}

/*
 * @rec as the pairing rule sees it (lib/pairing.h): its kind, type, task,
 * context and losses, and for a stack record its owner (none when not
 * known) and whether it was written after a loss
 * (STACKMAP_COOKIE_AFTER_LOSS, STACKMAP_FLAG_AFTER_LOSS).
 */
static void pairing_record_of(struct resolver *res, struct tep_record *rec,
			      enum reader_kind k, struct sm_pairing_record *out)
{
	struct reader *r = res->reader;

	memset(out, 0, sizeof(*out));
	out->kind = k == READER_DEFINE ? SM_PAIRING_DEFINE :
		    pair_is_stack(k) ? SM_PAIRING_STACK : SM_PAIRING_EVENT;
	out->missed = rec->missed_events != 0;
	if (out->kind == SM_PAIRING_DEFINE)
		return;
	out->type = reader_type(r, rec);
	out->pid = tep_data_pid(r->tep, rec);
	out->context = reader_context(r, rec);
	if (out->kind == SM_PAIRING_EVENT)
		return;
	resolve_owner(res, k, rec, &out->owner);
	out->after_loss = (k == READER_COOKIE || k == READER_FALLBACK) &&
			  tepstack_after_loss(reader_fields(r, k), rec);
}

/*
 * Which record of @stream's lookahead is the stack of @event (events.h,
 * "Which event a stack belongs to"): @event stepped through the records
 * after it by the rule (sm_pairing_step()) until it takes one or ends.
 * When no stack names @event, its candidate is taken (the first stack
 * record of its context, by its task, whose owner is not known: an
 * unresolved cookie, a stackmap 0.1 definition, ftrace's kernel_stack), as
 * the stack that follows it.
 *
 * Return: the record's position for reader_take_at(), with its kind in
 * @kind; -1 (and READER_NONE) when @event carries no stack, with @at_end
 * set when the scan met the end of @stream (nothing of @event's context
 * was written after it: tracing stopped, or trace-cmd stopped reading; not
 * when an event of that context followed it).
 */
static int find_stack(struct resolver *res, struct tep_record *event,
		      int stream, enum reader_kind *kind, bool *at_end)
{
	enum reader_kind k, ownerless_kind = READER_NONE;
	struct sm_pairing_record rec;
	struct sm_pairing_event e;
	struct tep_record *next;
	int i, ownerless = -1;

	pairing_record_of(res, event, READER_NONE, &rec);
	rec.owns = resolve_is_owner(res, (sm_u32)rec.type);
	sm_pairing_event_init(&e, &rec);
	*at_end = false;
	for (i = 0; i < READER_LOOKAHEAD; i++) {
		next = reader_peek_at(res->reader, stream, i);
		if (!next) {
			*at_end = ownerless < 0 && !e.followed;
			break;
		}
		k = reader_kind(res->reader, next);
		pairing_record_of(res, next, k, &rec);
		switch (sm_pairing_step(&e, &rec)) {
		case SM_PAIRING_TAKE:
			*kind = k;
			return i;
		case SM_PAIRING_CANDIDATE:
			ownerless = i;
			ownerless_kind = k;
			continue;
		case SM_PAIRING_PASS:
			continue;
		case SM_PAIRING_END:
			break;
		}
		break;
	}
	*kind = ownerless_kind;
	return ownerless;
}

struct tep_record *pair_take_define(struct reader *r, int stream)
{
	if (next_kind(r, stream) != READER_DEFINE)
		return NULL;
	return reader_take(r, stream);
}

struct tep_record *pair_take_stack(struct reader *r, struct resolver *res,
				   struct tep_record *event, int stream,
				   enum reader_kind *kind, bool *cut)
{
	bool at_end;
	int i;

	*cut = false;
	i = find_stack(res, event, stream, kind, &at_end);
	if (i >= 0)
		return reader_take_at(r, stream, i);
	if (resolve_is_owner(res, reader_type(r, event))) {
		res->stats.stackless++;
		res->stats.stackless_at_end += at_end;
		*cut = at_end;
	}
	return NULL;
}
