// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: libtraceevent plugin that prints the stackmap events
 * (include/stackmap/events.h) in `trace-cmd report` and any other
 * libtraceevent user.
 *
 *   stack_define    define cookie gen G slot S depth D
 *   stack_cookie    cookie gen G slot S
 *                   => SYMBOL+0xOFF/0xSIZE (ADDR)   one line per frame, or
 *                   => <stale cookie gen G slot S>  (or unknown/conflicting)
 *   stack_fallback  fallback reason NAME depth D
 *                   => SYMBOL+0xOFF/0xSIZE (ADDR) ...
 *
 * A plugin sees the events in the order they are printed (time order), so it
 * resolves a cookie from the stack_define events printed before it first,
 * then from the map snapshot stored in the trace (snapshot.h), only for
 * exactly the same generation and slot.  A plugin gets no file name: the
 * snapshot is read, once, when the first cookie the definitions do not
 * resolve is printed, from the file of the "file" option or else, in
 * `trace-cmd report`, the file it reads (-i FILE, its first non-option
 * argument, or ./trace.dat; from /proc/self/cmdline).  See
 * man/plugin_stackmap.7.
 *
 * Options (trace-cmd report -O stackmap:NAME=VALUE; trace-cmd list -O):
 *   addr=1     print "(ADDR)" after each symbol
 *   compact=0  print a stack on the event's own line
 *   defs=0     print each stack_define's stack under it
 *   snapshot=1 look for the snapshot at all
 *   file=PATH  read the snapshot from PATH (a trace.dat)
 *
 * Install: copy plugin_stackmap.so into ~/.local/lib/traceevent/plugins or
 * point TRACEEVENT_PLUGIN_DIR at its directory.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "stackmap/snapshot.h"
#include "stackmap/stacktab.h"
#include "stackmap/tep_stack.h"

#define PLUGIN_EXPORT	__attribute__((visibility("default")))
#define PLUGIN_ALIAS	"stackmap"

enum { OPT_ADDR, OPT_COMPACT, OPT_DEFS, OPT_SNAPSHOT, OPT_FILE, NR_OPTS };

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
	[NR_OPTS] = { .name = NULL },
};

#define OPT_SET(o)	(TEP_PLUGIN_OPTIONS[o].set)

/* Snapshot loading state of a context. */
enum snap_state { SNAP_UNTRIED = 0, SNAP_LOADED, SNAP_NONE };

/*
 * One per tep handle the plugin is loaded into: the definitions seen so far
 * and the stacks of the snapshot (loaded on first need).
 */
struct stackmap_ctx {
	struct tep_handle *tep;
	struct stacktab *tab;
	struct stacktab *snap;
	enum snap_state snap_state;
	int render_opts;	/* render_opts() of the cached texts; -1: none yet */
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

/* trace-cmd 3.1.6 report's options that take a value (tracecmd/trace-read.c). */
static const char report_short_args[] = "iHrnFO";
static const char *const report_long_args[] = {
	"cpu", "event", "kallsyms", "pid", "comm", "ts-offset", "ts2secs",
};

static bool long_takes_value(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(report_long_args) / sizeof(report_long_args[0]); i++)
		if (!strcmp(name, report_long_args[i]))
			return true;
	return false;
}

/*
 * The input file of `trace-cmd report` given its arguments after "report"
 * (@argv, @argc), read the way its getopt_long("+...") does: the -i value,
 * else the first word that is not an option, else "trace.dat".  NULL when
 * -i is given more than once (several traces, one tep handle each: which
 * one this handle reads is unknown).
 */
static const char *report_input(char **argv, int argc)
{
	const char *arg, *p, *input = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--"))
			return input ? input : i + 1 < argc ? argv[i + 1] : "trace.dat";
		if (arg[0] != '-' || !arg[1])
			return input ? input : arg;
		if (arg[1] == '-') {
			if (!strchr(arg, '=') && long_takes_value(arg + 2))
				i++;
			continue;
		}
		for (p = arg + 1; *p; p++) {
			if (*p == 'V')		/* optional value, attached only */
				break;
			if (!strchr(report_short_args, *p))
				continue;
			if (p[1] == '\0' && ++i >= argc)
				return NULL;	/* value missing: report fails */
			if (*p == 'i') {
				if (input)
					return NULL;
				input = p[1] ? p + 1 : argv[i];
			}
			break;
		}
	}
	return input ? input : "trace.dat";
}

/*
 * The trace.dat `trace-cmd report` was given (/proc/self/cmdline), when this
 * process is trace-cmd (argv[0]'s last component) running "report"; NULL
 * otherwise, so no other program picks up a ./trace.dat by accident.
 * Returns a malloc'ed path or NULL.
 */
static char *cmdline_trace(void)
{
	enum { MAX_ARGS = 256 };
	static char buf[65536];
	char *argv[MAX_ARGS], *p, *prog;
	const char *input;
	int argc = 0;
	size_t n;
	FILE *f;

	f = fopen("/proc/self/cmdline", "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (!n || n == sizeof(buf) || buf[n - 1] != '\0')
		return NULL;		/* empty or too long to trust */
	for (p = buf; p < buf + n && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	if (argc == MAX_ARGS || argc < 2 || strcmp(argv[1], "report"))
		return NULL;
	prog = strrchr(argv[0], '/');
	if (strcmp(prog ? prog + 1 : argv[0], "trace-cmd"))
		return NULL;
	input = report_input(argv + 2, argc - 2);
	return input ? strdup(input) : NULL;
}

/*
 * Load the snapshot into ctx->snap, once.  A missing snapshot is silent when
 * the file was guessed; every other problem is one line on stderr.
 */
static void load_snapshot(struct stackmap_ctx *ctx)
{
	const char *opt = TEP_PLUGIN_OPTIONS[OPT_FILE].value;
	struct stackmap_snapshot snap;
	struct stackmap_snap_err err;
	char *path;
	int ret;

	ctx->snap_state = SNAP_NONE;
	if (!OPT_SET(OPT_SNAPSHOT))
		return;
	path = opt && *opt ? strdup(opt) : cmdline_trace();
	if (!path)
		return;
	ret = stackmap_snapshot_read_tracedat(path, &snap, &err);
	if (ret) {
		if (ret != -ENOENT || (opt && *opt))
			fprintf(stderr, "plugin_stackmap: %s\n", err.msg);
		free(path);
		return;
	}
	ctx->snap = stacktab_new();
	if (!ctx->snap || stackmap_snapshot_fill(&snap, ctx->snap)) {
		fprintf(stderr, "plugin_stackmap: %s: snapshot not usable (out of memory or a slot listed twice)\n",
			path);
		stacktab_free(ctx->snap);
		ctx->snap = NULL;
	} else {
		ctx->snap_state = SNAP_LOADED;
	}
	stackmap_snapshot_free(&snap);
	free(path);
}

/* Resolve @cookie: definitions first, then the snapshot (loaded on need). */
static enum stacktab_result resolve(struct stackmap_ctx *ctx, sm_u64 cookie,
				    struct stacktab_stack *out)
{
	enum stacktab_result res;

	res = stacktab_lookup(ctx->tab, cookie, out);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT)
		return res;
	if (ctx->snap_state == SNAP_UNTRIED)
		load_snapshot(ctx);
	return stackmap_snapshot_resolve(ctx->tab, ctx->snap, cookie, out);
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
static void print_stack(struct trace_seq *s, struct tep_handle *tep,
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

/*
 * Print a resolved stack, rendered once per stack and copied afterwards:
 * looking up every frame's symbol again for each event was most of what the
 * plugin added to trace-cmd report's time.  The texts are those of the
 * options in force when the first was made; should the options change later,
 * stacks are rendered every time.  Out of memory: rendered every time too.
 */
static void print_found(struct trace_seq *s, struct tep_handle *tep,
			struct stackmap_ctx *ctx,
			const struct stacktab_stack *stack)
{
	struct trace_seq text;
	bool cached;

	if (ctx->render_opts < 0)
		ctx->render_opts = render_opts();
	cached = ctx->render_opts == render_opts();
	if (cached && !*stack->text) {
		trace_seq_init(&text);
		print_stack(&text, tep, stack->frames, stack->depth);
		trace_seq_terminate(&text);
		if (text.state == TRACE_SEQ__GOOD)
			*stack->text = strdup(text.buffer);
		trace_seq_destroy(&text);
	}
	if (cached && *stack->text)
		trace_seq_puts(s, *stack->text);
	else
		print_stack(s, tep, stack->frames, stack->depth);
}

static void print_cookie(struct trace_seq *s, struct tep_handle *tep,
			 struct stackmap_ctx *ctx, sm_u64 cookie)
{
	struct stacktab_stack stack;
	enum stacktab_result res;

	res = resolve(ctx, cookie, &stack);
	if (res == STACKTAB_FOUND)
		print_found(s, tep, ctx, &stack);
	else if (!OPT_SET(OPT_COMPACT))
		tepstack_print_marker(s, res, cookie, "");
	else
		trace_seq_printf(s, " => <%s cookie gen %u slot %u>",
				 stacktab_result_name(res),
				 stackmap_cookie_generation(cookie),
				 stackmap_cookie_slot(cookie));
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
	if (OPT_SET(OPT_DEFS))
		print_stack(s, event->tep, stack.frames, stack.depth);
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
	print_cookie(s, event->tep, ctx, cookie);
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
	print_stack(s, event->tep, stack.frames, stack.depth);
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
	if (!contexts)
		tep_plugin_add_options(PLUGIN_ALIAS, TEP_PLUGIN_OPTIONS);
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
	if (!contexts)
		tep_plugin_remove_options(TEP_PLUGIN_OPTIONS);
	stacktab_free(ctx->tab);
	stacktab_free(ctx->snap);
	free(ctx);
	return 0;
}
