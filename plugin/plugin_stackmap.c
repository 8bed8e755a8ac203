// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: libtraceevent plugin that prints the stackmap events
 * (include/stackmap/events.h) in `trace-cmd report` and any other
 * libtraceevent user.
 *
 *   stack_define    define cookie gen G slot S depth D owner OWNER
 *   stack_cookie    cookie gen G slot S owner OWNER
 *                   => SYMBOL+0xOFF/0xSIZE (ADDR)   one line per frame, or
 *                   => <stale cookie gen G slot S>  (or unknown/conflicting;
 *                                                    no " owner OWNER" then)
 *   stack_fallback  fallback reason NAME depth D owner OWNER
 *                   => SYMBOL+0xOFF/0xSIZE (ADDR) ...
 *
 * OWNER is the event the stack belongs to (events.h), "system:event" or
 * "event id N"; a stackmap 0.1 trace names none (no " owner" part).  A
 * truncated stack ends with "=> ... [truncated]".
 *
 * Owner check.  libtraceevent calls a plugin only for the events it
 * handles, so the plugin also wraps the print handler of every other event
 * (calling the one it replaces, or letting libtraceevent print the format)
 * and feeds every record it prints to lib/pairing.h's machine, which keeps
 * per CPU the events that can still take a stack record by the rule of
 * events.h ("Which event a stack belongs to", the rule fgdecode applies
 * too).  A stack record that the machine gives to no event printed before
 * it (its owner's last event there follows lost events, already has a
 * stack record, is of another task or context; a stack record written
 * after one went missing on its CPU: STACKMAP_COOKIE_AFTER_LOSS,
 * STACKMAP_FLAG_AFTER_LOSS) is an orphan: its line is followed by
 *
 *                   <orphan stack of OWNER>
 *                   => frames as usual
 *
 * so it is never read as the stack of the event above it; so is a stack
 * whose owner's format the trace lacks (no event of it can be there).
 * Events are wrapped when the plugin is loaded and, for formats parsed
 * later (trace-cmd loads plugins first), when the first stackmap record is
 * printed; a CPU on which no event was seen since then has nothing to check
 * against and prints its stacks unchecked, and so does, in task context, a
 * task's first stack of a type of which it had no event seen on that CPU
 * since then (preempted between its event and its stack record, the event
 * may have been printed before).
 *
 * A plugin sees the events in the order they are printed (time order), so it
 * resolves a cookie from the stack_define events printed before it first,
 * then from every stack_define of the file (plugin_scan.c: a flight
 * recorder's cookie whose definition before it left the buffer), then from
 * the map snapshot stored in the trace (snapshot_table.h), only for exactly
 * the same generation and slot.  A plugin gets no file name: the file's
 * definitions and snapshot are read, once, when the first cookie the printed
 * definitions do not resolve is printed, from the file of the "file" option
 * or else, in `trace-cmd report`, the file it reads (-i FILE, its first
 * non-option argument, or ./trace.dat, from /proc/self/cmdline; the one
 * trace.dat it has open when that is another).  See man/plugin_stackmap.7.
 *
 * Options (trace-cmd report -O stackmap:NAME=VALUE; trace-cmd list -O):
 *   addr=1     print "(ADDR)" after each symbol
 *   compact=0  print a stack on the event's own line
 *   defs=0     print each stack_define's stack under it
 *   snapshot=1 look for the snapshot at all
 *   file=PATH  read the snapshot from PATH (a trace.dat)
 *   scan=0     never read the definitions later in the file
 *   stack_map=PATH  also resolve cookies from a saved stack_map listing
 *              (or "live": /sys/kernel/debug/stackmap/stack_map), after
 *              the definitions and the snapshot, for its generation only
 *
 * Install: copy plugin_stackmap.so into ~/.local/lib/traceevent/plugins or
 * point TRACEEVENT_PLUGIN_DIR at its directory.
 *
 * This file: the options, the stackmap events' handlers and their
 * registration; plugin_stackmap.h lists the other files.
 */
#include <errno.h>
#include <stdlib.h>

#include "plugin_stackmap.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "stackmap/version.h"

/*
 * The version the plugin was built from, in its dynamic symbol table:
 * "stackmap plugin " and include/stackmap/version.h's STACKMAP_VERSION
 * (tests/test_deb.sh checks it against the packages' version).
 */
PLUGIN_EXPORT const char stackmap_plugin_version[] = "stackmap plugin " STACKMAP_VERSION;

PLUGIN_EXPORT struct tep_plugin_option TEP_PLUGIN_OPTIONS[] = {
	[OPT_ADDR] = {
		.name = "addr", .plugin_alias = PLUGIN_ALIAS, .set = 1,
		.description = "print each frame's address after its symbol",
	},
	[OPT_COMPACT] = {
		.name = "compact", .plugin_alias = PLUGIN_ALIAS,
		.description = "print a stack on one line, frames separated by ' => '",
	},
	[OPT_DEFS] = {
		.name = "defs", .plugin_alias = PLUGIN_ALIAS,
		.description = "print the stack of each stack_define under it",
	},
	[OPT_SNAPSHOT] = {
		.name = "snapshot", .plugin_alias = PLUGIN_ALIAS, .set = 1,
		.description = "resolve cookies from the map snapshot in the trace",
	},
	[OPT_FILE] = {
		.name = "file", .plugin_alias = PLUGIN_ALIAS, .value = "",
		.description = "trace.dat to read the snapshot from (default: the file trace-cmd report reads)",
	},
	[OPT_STACK_MAP] = {
		.name = "stack_map", .plugin_alias = PLUGIN_ALIAS, .value = "",
		.description = "saved stack_map listing (or 'live') to resolve cookies from, after the trace's own",
	},
	[OPT_SCAN] = {
		.name = "scan", .plugin_alias = PLUGIN_ALIAS, .set = 1,
		.description = "resolve cookies from definitions later in the file too (reads it once)",
	},
	[NR_OPTS] = { .name = NULL },
};

static struct stackmap_ctx *contexts;

/*
 * The fields of stackmap event @event, looked up once per tep handle (a bad
 * format is looked at again on each record, and reported each time).
 */
static const struct tepstack_fields *fields_of(struct stackmap_ctx *ctx,
					       struct tep_event *event,
					       struct sm_err *err)
{
	int kind = tepstack_kind_of(event);
	struct tepstack_fields *f;

	if (kind < 0) {
		sm_err_set(err, "%s:%s: not a stackmap event", event->system,
			   event->name);
		return NULL;
	}
	f = &ctx->fields[kind];
	if (f->event == event)
		return f;
	if (tepstack_fields_init(f, event, err)) {
		f->event = NULL;
		return NULL;
	}
	return f;
}

/* Print why a record could not be read instead of its fields. */
static int print_error(struct trace_seq *s, const struct sm_err *err)
{
	trace_seq_printf(s, "<%s>", err->msg);
	return 0;
}

static const char *define_problem(int ret)
{
	switch (ret) {
	case -EINVAL:
		return " <invalid cookie>";
	case -EEXIST:
		return " <redefined with another stack>";
	case -ENOMEM:
		return " <out of memory>";
	}
	return "";
}

int read_define(struct stackmap_ctx *ctx, struct tep_event *event,
		struct tep_record *record, struct stacktab *tab,
		struct define_record *d, struct sm_err *err)
{
	const struct tepstack_fields *f = fields_of(ctx, event, err);

	if (!f || tepstack_read_cookie(f, record, &d->cookie, err) ||
	    tepstack_read_owner(f, record, &d->owner, &d->flags, err) ||
	    tepstack_read_stack(f, record, &d->stack, err))
		return -1;
	d->defined = stacktab_define_owned(tab, d->cookie, d->stack.depth,
					   d->stack.frames, d->owner, d->flags);
	note_map_id(ctx, tepstack_read_map_id(f, record));
	return 0;
}

static int stack_define_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	struct define_record d;
	struct sm_err err;

	wrap_events(ctx, true);
	note_define(ctx, record);
	if (read_define(ctx, event, record, ctx->tab, &d, &err))
		return print_error(s, &err);
	trace_seq_printf(s, "define cookie gen %u slot %u depth %u",
			 stackmap_cookie_generation(d.cookie),
			 stackmap_cookie_slot(d.cookie), d.stack.depth);
	print_owner(s, event->tep, d.owner);
	trace_seq_puts(s, define_problem(d.defined));
	if (OPT_SET(OPT_DEFS)) {
		print_stack(s, event->tep, d.stack.frames, d.stack.depth);
		print_truncated(s, d.flags);
	}
	return 0;
}

static int stack_cookie_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	const struct tepstack_fields *f;
	struct sm_err err;
	sm_u64 cookie;

	wrap_events(ctx, true);
	f = fields_of(ctx, event, &err);
	if (!f || tepstack_read_cookie(f, record, &cookie, &err))
		return print_error(s, &err);
	trace_seq_printf(s, "cookie gen %u slot %u",
			 stackmap_cookie_generation(cookie),
			 stackmap_cookie_slot(cookie));
	print_cookie(s, event->tep, ctx, record, cookie,
		     tepstack_after_loss(f, record));
	return 0;
}

static int stack_fallback_handler(struct trace_seq *s,
				  struct tep_record *record,
				  struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	const struct tepstack_fields *f;
	struct tepstack_stack stack;
	struct sm_err err;
	sm_u32 reason, owner, flags;

	wrap_events(ctx, true);
	f = fields_of(ctx, event, &err);
	if (!f || tepstack_read_reason(f, record, &reason, &err) ||
	    tepstack_read_owner(f, record, &owner, &flags, &err) ||
	    tepstack_read_stack(f, record, &stack, &err))
		return print_error(s, &err);
	trace_seq_printf(s, "fallback reason %s depth %u",
			 stackmap_fallback_name(reason), stack.depth);
	print_owner(s, event->tep, owner);
	if (is_orphan(ctx, record, owner, tepstack_after_loss(f, record)))
		print_orphan(s, event->tep, owner);
	print_stack(s, event->tep, stack.frames, stack.depth);
	print_truncated(s, flags);
	return 0;
}

static const struct {
	const char *event;
	tep_event_handler_func func;
} handlers[] = {
	{ STACKMAP_EVENT_DEFINE, stack_define_handler },
	{ STACKMAP_EVENT_COOKIE, stack_cookie_handler },
	{ STACKMAP_EVENT_FALLBACK, stack_fallback_handler },
};

#define NR_HANDLERS	(sizeof(handlers) / sizeof(handlers[0]))

static struct stackmap_ctx **find_ctx(const struct tep_handle *tep)
{
	struct stackmap_ctx **pos;

	for (pos = &contexts; *pos; pos = &(*pos)->next)
		if ((*pos)->tep == tep)
			break;
	return pos;
}

/**
 * tep_plugin_loader() - register the stackmap handlers with @tep
 * @tep: the handle the plugin is loaded into
 *
 * Return: 0, or -1 when out of memory (nothing registered).
 */
PLUGIN_EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct stackmap_ctx *ctx;
	size_t i;

	if (*find_ctx(tep))
		return 0;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -1;
	ctx->tab = stacktab_new();
	if (!ctx->tab) {
		free(ctx);
		return -1;
	}
	ctx->tep = tep;
	ctx->render_opts = -1;
	sm_pairing_init(&ctx->pairing, false);
	if (!contexts)
		tep_plugin_add_options(PLUGIN_ALIAS, TEP_PLUGIN_OPTIONS);
	ctx->next = contexts;
	contexts = ctx;
	for (i = 0; i < NR_HANDLERS; i++)
		tep_register_event_handler(tep, -1, STACKMAP_SYSTEM,
					   handlers[i].event, handlers[i].func,
					   ctx);
	wrap_events(ctx, false);
	return 0;
}

/**
 * tep_plugin_unloader() - unregister what tep_plugin_loader() registered
 * @tep: the handle the plugin was loaded into
 *
 * Return: 0.
 */
PLUGIN_EXPORT int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct stackmap_ctx **pos = find_ctx(tep);
	struct stackmap_ctx *ctx = *pos;
	size_t i;

	if (!ctx)
		return 0;
	for (i = 0; i < NR_HANDLERS; i++)
		tep_unregister_event_handler(tep, -1, STACKMAP_SYSTEM,
					     handlers[i].event,
					     handlers[i].func, ctx);
	unwrap_events(ctx);
	*pos = ctx->next;
	if (!contexts)
		tep_plugin_remove_options(TEP_PLUGIN_OPTIONS);
	stacktab_free(ctx->tab);
	stacktab_free(ctx->later);
	stacktab_free(ctx->snap);
	stacktab_free(ctx->listing);
	sm_pairing_fini(&ctx->pairing);
	free(ctx);
	return 0;
}
