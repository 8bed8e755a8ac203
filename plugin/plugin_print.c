// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: a stack as it is printed: its owner, the orphan header,
 * the frames (one per line, or on the event's line when compact), a
 * resolved stack's text rendered once (render_cache.h), and a cookie with
 * its stack or its marker.
 */
#include "plugin_stackmap.h"
#include "render_cache.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"

/* " owner NAME" for a known owner. */
void print_owner(struct trace_seq *s, struct tep_handle *tep,
		 sm_u32 owner)
{
	char name[80];

	if (owner != STACKMAP_OWNER_NONE)
		trace_seq_printf(s, " owner %s",
				 tepstack_owner_name(tep, owner, name,
						     sizeof(name)));
}

/* The header of an orphan's stack. */
void print_orphan(struct trace_seq *s, struct tep_handle *tep,
		  sm_u32 owner)
{
	char name[80];

	trace_seq_printf(s, "%s<orphan stack of %s>",
			 OPT_SET(OPT_COMPACT) ? " " : "\n",
			 tepstack_owner_name(tep, owner, name, sizeof(name)));
}

/* The last line of a truncated stack. */
void print_truncated(struct trace_seq *s, sm_u32 flags)
{
	if (!(flags & STACKMAP_FLAG_TRUNCATED))
		return;
	if (OPT_SET(OPT_COMPACT))
		trace_seq_puts(s, " => ... [truncated]");
	else
		tepstack_print_truncated(s, "");
}

/* One frame, as tepstack_print_frame(), with or without "(ADDR)". */
static void print_frame(struct trace_seq *s, struct tep_handle *tep,
			sm_u64 addr)
{
	const char *name;
	sm_u64 offset, size;

	tepstack_find_symbol(tep, addr, &name, &offset, &size);
	tepstack_print_symbol(s, name, offset, size, NULL, addr,
			      OPT_SET(OPT_ADDR));
}

/* "\n=> frame" per frame, or " => frame ..." on one line when compact. */
void print_stack(struct trace_seq *s, struct tep_handle *tep,
		 const sm_u64 *frames, sm_u32 depth)
{
	sm_u32 i;

	for (i = 0; i < depth; i++) {
		trace_seq_puts(s, OPT_SET(OPT_COMPACT) ? " " : "\n");
		print_frame(s, tep, frames[i]);
	}
}

/* The options a stack's rendering depends on, as bits. */
static int render_opts(void)
{
	return (OPT_SET(OPT_ADDR) ? 1 : 0) | (OPT_SET(OPT_COMPACT) ? 2 : 0);
}

/* What render_found() renders. */
struct found {
	struct tep_handle *tep;
	const struct stacktab_stack *stack;
};

/* sm_render_fn: the frames of a resolved stack. */
static void render_found(struct trace_seq *s, const void *ctx)
{
	const struct found *f = ctx;

	print_stack(s, f->tep, f->stack->frames, f->stack->depth);
}

/*
 * Print a resolved stack, rendered once per stack and copied afterwards
 * (sm_render_once(), the text kept with the stack in its stacktab): looking
 * up every frame's symbol again for each event was most of what the plugin
 * added to trace-cmd report's time.  The texts are those of the options in
 * force when the first was made; should the options change later, stacks
 * are rendered every time.  Out of memory: rendered every time too.
 */
static void print_found(struct trace_seq *s, struct tep_handle *tep,
			struct stackmap_ctx *ctx,
			const struct stacktab_stack *stack)
{
	struct found f = { .tep = tep, .stack = stack };

	if (ctx->render_opts < 0)
		ctx->render_opts = render_opts();
	sm_render_once(s, ctx->render_opts == render_opts() ? stack->text :
		       NULL, render_found, &f);
}

void print_cookie(struct trace_seq *s, struct tep_handle *tep,
		  struct stackmap_ctx *ctx, struct tep_record *record,
		  sm_u64 cookie, bool after_loss)
{
	struct stacktab_stack stack;
	enum stacktab_result res;

	res = resolve(ctx, cookie, &stack);
	if (res == STACKTAB_FOUND) {
		print_owner(s, tep, stack.owner);
		if (is_orphan(ctx, record, stack.owner, after_loss))
			print_orphan(s, tep, stack.owner);
		print_found(s, tep, ctx, &stack);
		print_truncated(s, stack.flags);
		return;
	}
	/* No known owner: nothing to check, but losses still count. */
	is_orphan(ctx, record, STACKMAP_OWNER_NONE, after_loss);
	if (!OPT_SET(OPT_COMPACT))
		tepstack_print_marker(s, res, cookie, "");
	else
		trace_seq_printf(s, " => <%s cookie gen %u slot %u>",
				 stacktab_result_name(res),
				 stackmap_cookie_generation(cookie),
				 stackmap_cookie_slot(cookie));
}
