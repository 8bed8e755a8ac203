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
 * then from the map snapshot stored in the trace (snapshot_table.h), only for
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
 *   stack_map=PATH  also resolve cookies from a saved stack_map listing
 *              (or "live": /sys/kernel/debug/stackmap/stack_map), after
 *              the definitions and the snapshot, for its generation only
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
#include "stackmap/version.h"
#include "listing.h"
#include "map_id.h"
#include "pairing.h"
#include "snapshot_table.h"
#include "stacktab.h"
#include "tep_stack.h"
#include "tracedat_options.h"
#include "render_cache.h"

#define PLUGIN_EXPORT	__attribute__((visibility("default")))
#define PLUGIN_ALIAS	"stackmap"

/*
 * The version the plugin was built from, in its dynamic symbol table:
 * "stackmap plugin " and include/stackmap/version.h's STACKMAP_VERSION
 * (tests/test_deb.sh checks it against the packages' version).
 */
PLUGIN_EXPORT const char stackmap_plugin_version[] = "stackmap plugin " STACKMAP_VERSION;

enum {
	OPT_ADDR, OPT_COMPACT, OPT_DEFS, OPT_SNAPSHOT, OPT_FILE, OPT_STACK_MAP,
	NR_OPTS
};

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
	[NR_OPTS] = { .name = NULL },
};

#define OPT_SET(o)	(TEP_PLUGIN_OPTIONS[o].set)

/* Snapshot loading state of a context. */
enum snap_state { SNAP_UNTRIED = 0, SNAP_LOADED, SNAP_NONE };

#define LIVE_STACK_MAP	"/sys/kernel/debug/stackmap/stack_map"

struct stackmap_ctx;

/*
 * An event whose print handler the plugin wrapped: what it replaced, and
 * whether it is ftrace's kernel_stack (a stack record whose owner is not
 * known, to the pairing).
 */
struct wrap {
	struct stackmap_ctx *ctx;
	struct tep_event *event;
	tep_event_handler_func handler;
	void *context;
	bool kernel_stack;
};

/*
 * One per tep handle the plugin is loaded into: the definitions seen so far,
 * the stacks of the snapshot and of the stack_map option (loaded on first
 * need), and the events of each CPU that can still take a stack record.
 */
struct stackmap_ctx {
	struct tep_handle *tep;
	struct stacktab *tab;
	struct stacktab *snap;
	struct stacktab *listing;
	enum snap_state snap_state;
	enum snap_state listing_state;
	/* Map ids: of the definitions seen so far, the snapshot, the listing. */
	struct stackmap_map_ids map_ids;
	sm_u64 snap_map_id;
	sm_u64 listing_map_id;
	int render_opts;	/* render_opts() of the cached texts; -1: none yet */
	/* Each stackmap event's fields, looked up on its first record. */
	struct tepstack_fields fields[TEPSTACK_NR_KINDS];
	struct wrap **wraps;
	int nr_wraps;
	int wrapped_count;	/* tep_get_events_count() when last wrapped */
	bool printing;		/* a stackmap record was printed already */
	/* Which event each stack record belongs to (lib/pairing.h). */
	struct sm_pairing pairing;
	struct stackmap_ctx *next;
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
	struct sm_err err;
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
	if (stackmap_map_id_check(&ctx->map_ids, 0, "map snapshot",
				  snap.map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s: %s (not used)\n", path,
			err.msg);
		stackmap_snapshot_free(&snap);
		free(path);
		return;
	}
	ctx->snap = stackmap_snapshot_table(&snap, &ret);
	if (!ctx->snap)
		fprintf(stderr, "plugin_stackmap: %s: snapshot not usable (out of memory or a slot listed twice)\n",
			path);
	else
		ctx->snap_state = SNAP_LOADED;
	ctx->snap_map_id = snap.map_id;
	stackmap_snapshot_free(&snap);
	free(path);
}

/* Load the stack_map option's listing into ctx->listing, once. */
static void load_listing(struct stackmap_ctx *ctx)
{
	const char *opt = TEP_PLUGIN_OPTIONS[OPT_STACK_MAP].value;
	const char *path = opt && !strcmp(opt, "live") ? LIVE_STACK_MAP : opt;
	struct stackmap_snapshot snap;
	struct sm_err err;
	FILE *f;
	int ret;

	ctx->listing_state = SNAP_NONE;
	if (!path || !*path)
		return;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "plugin_stackmap: %s: %s\n", path, strerror(errno));
		return;
	}
	ret = stackmap_snapshot_parse_listing(f, path, 8, &snap, &err);
	fclose(f);
	if (!ret)
		ret = stackmap_map_id_check(&ctx->map_ids, ctx->snap_map_id,
					    path, snap.map_id, &err);
	if (ret) {
		fprintf(stderr, "plugin_stackmap: %s\n", err.msg);
		if (ret == -ESTALE)
			stackmap_snapshot_free(&snap);
		return;
	}
	ctx->listing_map_id = snap.map_id;
	ctx->listing = stackmap_snapshot_table(&snap, &ret);
	if (!ctx->listing)
		fprintf(stderr, "plugin_stackmap: %s: listing not usable (out of memory or a slot listed twice)\n",
			path);
	else
		ctx->listing_state = SNAP_LOADED;
	stackmap_snapshot_free(&snap);
}

/*
 * A definition of map @id: a snapshot or listing loaded already that is of
 * another map stops resolving cookies from then on (one line on stderr).
 */
static void note_map_id(struct stackmap_ctx *ctx, sm_u64 id)
{
	unsigned int nr = ctx->map_ids.nr;
	struct sm_err err;

	stackmap_map_ids_add(&ctx->map_ids, id);
	if (ctx->map_ids.nr == nr)
		return;
	if (ctx->snap && stackmap_map_id_check(&ctx->map_ids, 0, "map snapshot",
					       ctx->snap_map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s (no longer used)\n", err.msg);
		stacktab_free(ctx->snap);
		ctx->snap = NULL;
		ctx->snap_state = SNAP_NONE;
	}
	if (ctx->listing &&
	    stackmap_map_id_check(&ctx->map_ids, 0, TEP_PLUGIN_OPTIONS[OPT_STACK_MAP].value,
				  ctx->listing_map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s (no longer used)\n", err.msg);
		stacktab_free(ctx->listing);
		ctx->listing = NULL;
		ctx->listing_state = SNAP_NONE;
	}
}

/*
 * Resolve @cookie: definitions first, then the snapshot, then the
 * stack_map option's listing (both loaded on need), each for exactly the
 * same generation and slot.
 */
static enum stacktab_result resolve(struct stackmap_ctx *ctx, sm_u64 cookie,
				    struct stacktab_stack *out)
{
	enum stacktab_result res, lres;

	res = stacktab_lookup(ctx->tab, cookie, out);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT)
		return res;
	if (ctx->snap_state == SNAP_UNTRIED)
		load_snapshot(ctx);
	res = stackmap_snapshot_resolve(ctx->tab, ctx->snap, cookie, out,
					NULL);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT)
		return res;
	if (ctx->listing_state == SNAP_UNTRIED)
		load_listing(ctx);
	if (!ctx->listing)
		return res;
	lres = stacktab_lookup(ctx->listing, cookie, out);
	if (lres == STACKTAB_FOUND ||
	    (lres == STACKTAB_STALE && res == STACKTAB_UNKNOWN))
		return lres;
	return res;
}

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
static void note_define(struct stackmap_ctx *ctx, struct tep_record *record)
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
static bool is_orphan(struct stackmap_ctx *ctx, struct tep_record *record,
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
static void wrap_events(struct stackmap_ctx *ctx, bool printing)
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
static void unwrap_events(struct stackmap_ctx *ctx)
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

/* " owner NAME" for a known owner. */
static void print_owner(struct trace_seq *s, struct tep_handle *tep,
			sm_u32 owner)
{
	char name[80];

	if (owner != STACKMAP_OWNER_NONE)
		trace_seq_printf(s, " owner %s",
				 tepstack_owner_name(tep, owner, name,
						     sizeof(name)));
}

/* The header of an orphan's stack. */
static void print_orphan(struct trace_seq *s, struct tep_handle *tep,
			 sm_u32 owner)
{
	char name[80];

	trace_seq_printf(s, "%s<orphan stack of %s>",
			 OPT_SET(OPT_COMPACT) ? " " : "\n",
			 tepstack_owner_name(tep, owner, name, sizeof(name)));
}

/* The last line of a truncated stack. */
static void print_truncated(struct trace_seq *s, sm_u32 flags)
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

static void print_cookie(struct trace_seq *s, struct tep_handle *tep,
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

static int stack_define_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context)
{
	struct stackmap_ctx *ctx = context;
	const struct tepstack_fields *f;
	struct tepstack_stack stack;
	struct sm_err err;
	sm_u32 owner, flags;
	sm_u64 cookie;
	int ret;

	wrap_events(ctx, true);
	note_define(ctx, record);
	f = fields_of(ctx, event, &err);
	if (!f || tepstack_read_cookie(f, record, &cookie, &err) ||
	    tepstack_read_owner(f, record, &owner, &flags, &err) ||
	    tepstack_read_stack(f, record, &stack, &err))
		return print_error(s, &err);
	ret = stacktab_define_owned(ctx->tab, cookie, stack.depth,
				    stack.frames, owner, flags);
	note_map_id(ctx, tepstack_read_map_id(f, record));
	trace_seq_printf(s, "define cookie gen %u slot %u depth %u",
			 stackmap_cookie_generation(cookie),
			 stackmap_cookie_slot(cookie), stack.depth);
	print_owner(s, event->tep, owner);
	trace_seq_puts(s, define_problem(ret));
	if (OPT_SET(OPT_DEFS)) {
		print_stack(s, event->tep, stack.frames, stack.depth);
		print_truncated(s, flags);
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
	stacktab_free(ctx->snap);
	stacktab_free(ctx->listing);
	sm_pairing_fini(&ctx->pairing);
	free(ctx);
	return 0;
}
