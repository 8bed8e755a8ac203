/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin_stackmap's own header: what its files share (plugin_stackmap.c:
 * the options, the handlers and their registration; plugin_args.c: the
 * trace `trace-cmd report` reads; plugin_tables.c: the snapshot and the
 * listing, and resolving a cookie; plugin_scan.c: the definitions later in
 * the file; plugin_watch.c: the other events'
 * handlers and which event a stack record belongs to; plugin_print.c: the
 * stacks as they are printed).  Not installed.
 */
#ifndef PLUGIN_STACKMAP_H
#define PLUGIN_STACKMAP_H

#include <stdbool.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "map_id.h"
#include "pairing.h"
#include "stacktab.h"
#include "tep_stack.h"

#define PLUGIN_EXPORT	__attribute__((visibility("default")))
#define PLUGIN_ALIAS	"stackmap"

enum {
	OPT_ADDR, OPT_COMPACT, OPT_DEFS, OPT_SNAPSHOT, OPT_FILE, OPT_STACK_MAP,
	OPT_SCAN, NR_OPTS
};

extern struct tep_plugin_option TEP_PLUGIN_OPTIONS[];
#define OPT_SET(o)	(TEP_PLUGIN_OPTIONS[o].set)

/* Loading state of a context's snapshot, listing or later definitions. */
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
 * every definition of the file, the stacks of the snapshot and of the
 * stack_map option (loaded on first need), and the events of each CPU that
 * can still take a stack record.
 */
struct stackmap_ctx {
	struct tep_handle *tep;
	struct stacktab *tab;
	struct stacktab *later;
	struct stacktab *snap;
	struct stacktab *listing;
	enum snap_state later_state;
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


/* A stack_define record as read_define() read it. */
struct define_record {
	sm_u64 cookie;
	struct tepstack_stack stack;
	sm_u32 owner;
	sm_u32 flags;
	int defined;	/* stacktab_define_owned()'s result */
};

/* plugin_stackmap.c */
/*
 * Read stack_define @record of @event, add its stack to @tab and note its
 * map id: 0 with @d filled, -1 with @err set when a field does not read.
 */
int read_define(struct stackmap_ctx *ctx, struct tep_event *event,
		struct tep_record *record, struct stacktab *tab,
		struct define_record *d, struct sm_err *err);

/* plugin_args.c */
char *cmdline_trace(void);
char *trace_file(bool *named);

/* plugin_scan.c */
void scan_definitions(struct stackmap_ctx *ctx);

/* plugin_tables.c */
void note_map_id(struct stackmap_ctx *ctx, sm_u64 id);
enum stacktab_result resolve(struct stackmap_ctx *ctx, sm_u64 cookie,
			     struct stacktab_stack *out);

/* plugin_watch.c */
void note_define(struct stackmap_ctx *ctx, struct tep_record *record);
bool is_orphan(struct stackmap_ctx *ctx, struct tep_record *record,
	       sm_u32 owner, bool after_loss);
void wrap_events(struct stackmap_ctx *ctx, bool printing);
void unwrap_events(struct stackmap_ctx *ctx);

/* plugin_print.c */
void print_owner(struct trace_seq *s, struct tep_handle *tep, sm_u32 owner);
void print_orphan(struct trace_seq *s, struct tep_handle *tep, sm_u32 owner);
void print_truncated(struct trace_seq *s, sm_u32 flags);
void print_stack(struct trace_seq *s, struct tep_handle *tep,
		 const sm_u64 *frames, sm_u32 depth);
void print_cookie(struct trace_seq *s, struct tep_handle *tep,
		  struct stackmap_ctx *ctx, struct tep_record *record,
		  sm_u64 cookie, bool after_loss);

#endif /* PLUGIN_STACKMAP_H */
