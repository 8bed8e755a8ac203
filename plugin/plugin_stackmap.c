// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: libtraceevent plugin that prints the stackmap events
 * (include/stackmap/events.h) in `trace-cmd report` and any other
 * libtraceevent user.
 *
 *   stack_define    define cookie gen G slot S depth D
 *   stack_cookie    cookie gen G slot S
 *                   => SYMBOL+0xOFF (ADDR)          one line per frame, or
 *                   => <stale cookie gen G slot S>  (or unknown/conflicting)
 *   stack_fallback  fallback reason NAME depth D
 *                   => SYMBOL+0xOFF (ADDR) ...
 *
 * A plugin sees the events in the order they are printed (time order), so it
 * can only resolve a cookie whose stack_define was printed before it; a
 * definition written slightly later by another CPU leaves that one cookie
 * "unknown" here (fgdecode reads all definitions first and has no such gap).
 *
 * Install: copy plugin_stackmap.so into ~/.local/lib/traceevent/plugins or
 * point TRACEEVENT_PLUGIN_DIR at its directory.
 */
#include <errno.h>
#include <stdlib.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "stackmap/stacktab.h"
#include "stackmap/tep_stack.h"

#define PLUGIN_EXPORT	__attribute__((visibility("default")))

/* One per tep handle the plugin is loaded into: the definitions seen so far. */
struct stackmap_ctx {
	struct tep_handle *tep;
	struct stacktab *tab;
	struct stackmap_ctx *next;
};

static struct stackmap_ctx *contexts;

/* Print why a record could not be read instead of its fields. */
static int print_error(struct trace_seq *s, const struct tepstack_err *err)
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

static int stack_define_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	struct tepstack_fields f;
	struct tepstack_stack stack;
	struct tepstack_err err;
	sm_u64 cookie;
	int ret;

	if (tepstack_fields_init(&f, event, &err) ||
	    tepstack_read_cookie(&f, record, &cookie, &err) ||
	    tepstack_read_stack(&f, record, &stack, &err))
		return print_error(s, &err);
	ret = stacktab_define(ctx->tab, cookie, stack.depth, stack.frames);
	trace_seq_printf(s, "define cookie gen %u slot %u depth %u%s",
			 stackmap_cookie_generation(cookie),
			 stackmap_cookie_slot(cookie), stack.depth,
			 define_problem(ret));
	return 0;
}

static int stack_cookie_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	struct tepstack_fields f;
	struct tepstack_err err;
	sm_u64 cookie;

	if (tepstack_fields_init(&f, event, &err) ||
	    tepstack_read_cookie(&f, record, &cookie, &err))
		return print_error(s, &err);
	trace_seq_printf(s, "cookie gen %u slot %u",
			 stackmap_cookie_generation(cookie),
			 stackmap_cookie_slot(cookie));
	tepstack_print_cookie(s, event->tep, ctx->tab, cookie, "");
	return 0;
}

static int stack_fallback_handler(struct trace_seq *s,
				  struct tep_record *record,
				  struct tep_event *event,
				  void *context __attribute__((unused)))
{
	struct tepstack_fields f;
	struct tepstack_stack stack;
	struct tepstack_err err;
	sm_u32 reason;

	if (tepstack_fields_init(&f, event, &err) ||
	    tepstack_read_reason(&f, record, &reason, &err) ||
	    tepstack_read_stack(&f, record, &stack, &err))
		return print_error(s, &err);
	trace_seq_printf(s, "fallback reason %s depth %u",
			 stackmap_fallback_name(reason), stack.depth);
	tepstack_print_stack(s, event->tep, stack.frames, stack.depth, "");
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
	ctx->next = contexts;
	contexts = ctx;
	for (i = 0; i < NR_HANDLERS; i++)
		tep_register_event_handler(tep, -1, STACKMAP_SYSTEM,
					   handlers[i].event, handlers[i].func,
					   ctx);
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
	*pos = ctx->next;
	stacktab_free(ctx->tab);
	free(ctx);
	return 0;
}
