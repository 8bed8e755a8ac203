// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: the print handler it wraps around every other event, and
 * which event each stack record belongs to, by lib/pairing.h's rule (events.h,
 * "Which event a stack belongs to").
 */
#include <stdlib.h>
#include <string.h>

#include "plugin_stackmap.h"
#include "stackmap/events.h"

/* ---- which event a stack belongs to ---- */

/*
 * @record as lib/pairing.h's rule sees it: its type, task, context and
 * losses.  The plugin cannot know which types own stacks (it learns the
 * definitions as they are printed), so every event may own one.
 */
static void pairing_record(struct stackmap_ctx *ctx, struct tep_record *record,
			   enum sm_pairing_kind kind, int type,
			   struct sm_pairing_record *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	out->type = type;
	out->pid = tep_data_pid(ctx->tep, record);
	out->context = tepstack_context(ctx->tep, record);
	out->missed = record->missed_events != 0;
	out->owns = true;
}

/*
 * Remember an event printed on its CPU (ftrace's kernel_stack is a stack
 * record whose owner is not known).
 */
static void note_event(struct stackmap_ctx *ctx, struct tep_record *record,
		       int type, bool kernel_stack)
{
	struct sm_pairing_record r;
	struct sm_pairing_verdict v;

	pairing_record(ctx, record, kernel_stack ? SM_PAIRING_STACK :
			SM_PAIRING_EVENT, type, &r);
	sm_pairing_note(&ctx->pairing, record->cpu, &r, &v);
}

/* A stack_define on its own: only losses before it matter. */
void note_define(struct stackmap_ctx *ctx, struct tep_record *record)
{
	struct sm_pairing_record r;
	struct sm_pairing_verdict v;

	pairing_record(ctx, record, SM_PAIRING_DEFINE, 0, &r);
	sm_pairing_note(&ctx->pairing, record->cpu, &r, &v);
}

/*
 * Is the stack record @record, owned by @owner, an orphan (events.h)?  It is
 * when the pairing gives it to no event printed before it on its CPU
 * (sm_pairing_note(): none of @owner's type, task and context is waiting
 * for its stack, events were lost, or @after_loss:
 * STACKMAP_COOKIE_AFTER_LOSS or STACKMAP_FLAG_AFTER_LOSS), and when the
 * trace has no format of @owner.  It is not when @owner is none (a stackmap
 * 0.1 trace, an unresolved cookie), or when what was printed before it
 * on its CPU is not known (watching began while printing, wrap_events()).
 */
bool is_orphan(struct stackmap_ctx *ctx, struct tep_record *record,
	       sm_u32 owner, bool after_loss)
{
	struct sm_pairing_record r;
	struct sm_pairing_verdict v;

	pairing_record(ctx, record, SM_PAIRING_STACK, 0, &r);
	r.owner = owner;
	r.after_loss = after_loss;
	sm_pairing_note(&ctx->pairing, record->cpu, &r, &v);
	if (sm_pairing_orphan(v.outcome))
		return true;
	/* No event of a type whose format the trace lacks is in it. */
	return v.outcome == SM_PAIRING_UNCHECKED &&
	       owner != STACKMAP_OWNER_NONE && !tep_find_event(ctx->tep, (int)owner);
}

/*
 * The print handler of every other event: remember it, then print it as
 * the handler it replaced would (or, without one, let libtraceevent print
 * the event's format: a nonzero return asks for that).
 */
static int watch_handler(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, void *context)
{
	struct wrap *w = context;

	note_event(w->ctx, record, event->id, w->kernel_stack);
	if (w->handler)
		return w->handler(s, record, event, w->context);
	return 1;
}

/*
 * Wrap the print handler of every event but the stackmap ones that is not
 * wrapped yet: on the first call while printing, and whenever formats were
 * added.  @printing: called while printing; when events are newly wrapped
 * then, what was printed before them is unknown, so no CPU is checked until
 * its next event.
 */
void wrap_events(struct stackmap_ctx *ctx, bool printing)
{
	int count = tep_get_events_count(ctx->tep), i, j, wrapped = 0;
	struct tep_event **events;
	struct wrap **grown, *w;

	if (printing && ctx->printing && count == ctx->wrapped_count)
		return;
	ctx->printing |= printing;
	ctx->wrapped_count = count;
	/*
	 * A copy: tep_list_events() keeps the first list it made, which
	 * misses the formats parsed later (libtraceevent 1.7.1).
	 */
	events = tep_list_events_copy(ctx->tep, TEP_EVENT_SORT_ID);
	for (i = 0; events && events[i]; i++) {
		if (tepstack_kind_of(events[i]) >= 0 ||
		    events[i]->handler == watch_handler)
			continue;
		for (j = 0; j < ctx->nr_wraps; j++)
			if (ctx->wraps[j]->event == events[i])
				break;
		if (j == ctx->nr_wraps) {
			grown = realloc(ctx->wraps, (j + 1) * sizeof(*grown));
			w = calloc(1, sizeof(*w));
			if (grown)
				ctx->wraps = grown;
			if (!grown || !w) {
				free(w);
				break;
			}
			ctx->wraps[ctx->nr_wraps++] = w;
		}
		w = ctx->wraps[j];
		w->ctx = ctx;
		w->event = events[i];
		w->handler = events[i]->handler;
		w->context = events[i]->context;
		w->kernel_stack = !strcmp(events[i]->system, "ftrace") &&
				  !strcmp(events[i]->name, "kernel_stack");
		events[i]->handler = watch_handler;
		events[i]->context = w;
		wrapped++;
	}
	free(events);
	if (printing && wrapped)
		sm_pairing_forget(&ctx->pairing, true);
}

/* Give every wrapped event its own handler back. */
void unwrap_events(struct stackmap_ctx *ctx)
{
	struct wrap *w;
	int i;

	for (i = 0; i < ctx->nr_wraps; i++) {
		w = ctx->wraps[i];
		if (w->event->handler == watch_handler &&
		    w->event->context == w) {
			w->event->handler = w->handler;
			w->event->context = w->context;
		}
		free(w);
	}
	free(ctx->wraps);
	ctx->wraps = NULL;
	ctx->nr_wraps = 0;
}
