// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode report's default output: each event as `trace-cmd report` prints
 * it, its stack under it (shapes in format.h), --cookies heading a cookie's
 * stack, --show-defines printing the stack_define records too.
 */
#include <errno.h>

#include "format.h"
#include "output.h"

struct text {
	const struct output_env *env;
	bool cookies;
	bool show_defines;
	struct trace_seq line;		/* the event and its stack */
	struct trace_seq after;		/* definitions met while pairing it */
	struct format_comms comms;	/* for the event lines */
};

static int text_begin(void *state, struct output_env *env)
{
	struct text *t = state;

	t->env = env;
	t->cookies = env->args->cookies;
	t->show_defines = env->args->show_defines;
	env->define_stacks = t->show_defines;
	trace_seq_init(&t->line);
	trace_seq_init(&t->after);
	format_header(stdout, env->nr_cpus);
	return 0;
}

/* " (owner sched:sched_switch)", or " (owner not in the trace)". */
static void put_owner(struct trace_seq *s, struct tep_handle *tep,
		      sm_u32 owner)
{
	char name[128];

	if (!tep_find_event(tep, (int)owner))
		trace_seq_puts(s, " (owner not in the trace)");
	else
		trace_seq_printf(s, " (owner %s)",
				 tepstack_owner_name(tep, owner, name,
						     sizeof(name)));
}

/*
 * A stack_define line (with its stack) into @s, after what @s holds; the
 * owner's event id its format prints ("owner=319") is followed by its name,
 * or by the news that the trace has no such event.
 */
static void put_define(struct text *t, const struct fg_define *def,
		       struct trace_seq *s)
{
	if (s->len)
		trace_seq_putc(s, '\n');
	format_event(s, t->env->tep, &t->comms, def->record, def->buffer,
		     def->buffer_width);
	if (def->stack && def->stack->what == RESOLVED_STACK &&
	    def->stack->owner != STACKMAP_OWNER_NONE)
		put_owner(s, t->env->tep, def->stack->owner);
	format_stack(s, t->env->sz, def->stack, NULL, false);
}

/*
 * One met while pairing an event is printed after that event's line; one
 * on its own now.  Hidden, it still prints the news that events were lost
 * before it.
 */
static int text_define(void *state, const struct fg_define *def)
{
	struct text *t = state;

	if (def->after_event) {
		if (t->show_defines)
			put_define(t, def, &t->after);
		return 0;
	}
	if (t->show_defines)
		put_define(t, def, &t->line);
	else
		format_dropped(&t->line, def->record);
	format_flush(&t->line, stdout);
	return 0;
}

static int text_event(void *state, const struct fg_event *ev)
{
	struct text *t = state;
	int ret = 0;

	format_event(&t->line, t->env->tep, &t->comms, ev->record, ev->buffer,
		     ev->buffer_width);
	if (ev->orphan)
		format_orphan(&t->line, t->env->tep, ev->stack->owner);
	if (ev->stack)
		ret = format_stack(&t->line, t->env->sz, ev->stack, ev->entry,
				   t->cookies);
	else if (ev->cut)
		format_cut(&t->line);
	format_flush(&t->line, stdout);
	format_flush(&t->after, stdout);
	return ret;
}

static void text_fini(void *state)
{
	struct text *t = state;

	trace_seq_destroy(&t->line);
	trace_seq_destroy(&t->after);
}

const struct output_ops text_output = {
	.flags = OUTPUT_TEXT_MARKS | OUTPUT_EVENT_TEXT,
	.size = sizeof(struct text),
	.begin = text_begin,
	.define = text_define,
	.event = text_event,
	.fini = text_fini,
};
