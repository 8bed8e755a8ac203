/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's pipeline: resolve stackmap records to stacks.
 *
 * resolve_collect() is pass 1: it reads every stack_define of the trace into
 * a stacktab, so a cookie used before its definition was written (another CPU
 * may write the definition slightly later) still resolves.  resolve_record()
 * then turns one stack_cookie, stack_fallback, stack_define or ftrace
 * kernel_stack record into a struct resolved that the format stage prints,
 * and counts the outcome.
 *
 * A cookie resolves from the trace's definitions first, then from the map
 * snapshot stored in the trace (resolve_add_snapshot()), by the rule the
 * plugin shares (stackmap_snapshot_resolve()), so both tools call the same
 * cookies stale or unknown; then from a saved stack_map listing given with
 * --stack-map (resolve_add_listing()), by the same rule: exactly the same
 * generation and slot.
 *
 * Every stack has an owner (events.h): the id of the event it was captured
 * for, from its definition or from the stack_fallback record itself.
 * resolve_owner() tells it without counting anything, so fgdecode can pick
 * which stack record belongs to an event before it resolves it.
 */
#ifndef FGDECODE_RESOLVE_H
#define FGDECODE_RESOLVE_H

#include <stddef.h>

#include "map_id.h"
#include "read.h"
#include "snapshot.h"
#include "stacktab.h"
#include "tep_stack.h"

/* Counters for the summary line.  "corrupt" records are not in the others. */
struct resolve_stats {
	size_t cookies;		/* stack_cookie records, corrupt ones included */
	size_t resolved;		/* from_snapshot included */
	size_t from_snapshot;	/* resolved by the snapshot, not a definition */
	size_t stale;
	size_t unknown;
	size_t conflicting;	/* cookies defined twice with other frames */
	size_t fallbacks;	/* stack_fallback records, corrupt ones included */
	size_t definitions;	/* stack_define records, corrupt ones included */
	size_t corrupt;		/* records whose fields could not be read */
	size_t kstacks;		/* ftrace kernel_stack records */
	size_t from_listing;	/* resolved by --stack-map only */
	size_t orphans;		/* stack records shown on their own, naming
				 * an owner that is not the event before them */
	size_t after_loss;	/* stack records written after one went
				 * missing on their CPU (never paired:
				 * STACKMAP_COOKIE_AFTER_LOSS,
				 * STACKMAP_FLAG_AFTER_LOSS) */
	size_t unverified;	/* stacks given to an event without an owner
				 * to check (stackmap 0.1 definitions) */
	size_t truncated;	/* stacks shown with STACKMAP_FLAG_TRUNCATED */
	size_t stackless;	/* events of an owner type shown without a
				 * stack record (filtered, lost or cut) */
	size_t stackless_at_end;	/* of those, the last records of
					 * their stream: tracing stopped
					 * between the event and its stack */
};

/* What a record resolved to. */
enum resolved_what {
	RESOLVED_STACK,		/* @depth frames in @frames */
	RESOLVED_MARKER,	/* unresolved cookie: @result says why */
	RESOLVED_CORRUPT,	/* unreadable record: @err says why */
};

struct resolved {
	enum reader_kind kind;		/* a stack record's: not READER_NONE */
	enum resolved_what what;
	enum stacktab_result result;	/* RESOLVED_MARKER */
	sm_u64 cookie;			/* stack_cookie, stack_define */
	sm_u32 reason;			/* stack_fallback */
	sm_u32 depth;			/* RESOLVED_STACK */
	sm_u32 owner;			/* RESOLVED_STACK: its owner's event id,
					 * STACKMAP_OWNER_NONE if not known */
	sm_u32 flags;			/* RESOLVED_STACK: STACKMAP_FLAG_* */
	const sm_u64 *frames;		/* RESOLVED_STACK: in a buffer below or
					 * in the table */
	void **memo;			/* RESOLVED_STACK of a cookie: the
					 * table's slot for this stack
					 * (stacktab_stack.memo), else NULL */
	struct sm_err err;	/* RESOLVED_CORRUPT */
	struct tepstack_stack buf;	/* stack_define, stack_fallback */
	sm_u64 kbuf[READER_KSTACK_MAX];	/* kernel_stack */
};

/*
 * Called for a record that could not be read or added (corrupt, conflicting
 * definition); @msg is one line without newline.
 */
typedef void (*resolve_warn_fn)(void *ctx, const struct tep_record *record,
				const char *msg);

/* Owners are event ids, u16 in the records (events.h). */
#define RESOLVE_NR_OWNERS	65536

struct resolver {
	struct stacktab *tab;		/* from stack_define records */
	struct stacktab *snap;		/* from the snapshot, or NULL */
	struct stacktab *listing;	/* from --stack-map, or NULL */
	struct reader *reader;
	struct resolve_stats stats;
	/* Map ids of the trace's definitions (pass 1), and of its snapshot. */
	struct stackmap_map_ids map_ids;
	sm_u64 snap_map_id;
	/* Bit per event id that owns a stack of the trace or its map. */
	unsigned char owners[RESOLVE_NR_OWNERS / 8];
	/*
	 * The answer of the last cookie looked up: find_stack() asks for a
	 * cookie's owner, then emit() resolves the same cookie.  Forgotten
	 * whenever a table changes.
	 */
	struct {
		bool valid;
		sm_u64 cookie;
		enum stacktab_result result;
		struct stacktab_stack stack;
		const struct stacktab *from;
	} last;
	resolve_warn_fn warn;
	void *warn_ctx;
	/*
	 * Keep the tracer's own frames atop ftrace kernel_stack stacks
	 * (--tracer-frames); by default they are dropped (resolve_kstack()).
	 */
	bool tracer_frames;
};

/**
 * resolve_init() - set up an empty resolver
 * @res: filled in
 * @reader: the opened trace
 * @warn: called for each bad record (may be NULL)
 * @warn_ctx: passed to @warn
 *
 * Return: 0, or -ENOMEM.
 */
int resolve_init(struct resolver *res, struct reader *reader,
		 resolve_warn_fn warn, void *warn_ctx);

/** resolve_fini() - free the resolver's table. */
void resolve_fini(struct resolver *res);

/**
 * resolve_collect() - pass 1: learn every stack_define of the trace
 * @res: the resolver
 *
 * Reads the whole trace (and rewinds it afterwards), noting the owners of
 * its stack_define and stack_fallback records (resolve_is_owner()).  Corrupt and conflicting
 * definitions are reported through the warn callback and counted.
 *
 * Return: 0, or -ENOMEM.
 */
int resolve_collect(struct resolver *res);

/**
 * resolve_add_snapshot() - also resolve cookies from a map snapshot
 * @res: the resolver
 * @snap: the snapshot the trace carries (copied; may be freed afterwards)
 *
 * Definitions still win: the snapshot only answers cookies they do not
 * define (stackmap_snapshot_resolve()).  Call it after resolve_collect():
 * a snapshot of another map than the definitions' is refused.
 *
 * Return: 0; -ESTALE, with @err set, when its map id is not the trace's
 * (stackmap_map_id_check()); -EEXIST when @snap lists a slot twice with
 * different stacks; -ENOMEM.  The snapshot is not used after an error.
 */
int resolve_add_snapshot(struct resolver *res,
			 const struct stackmap_snapshot *snap,
			 struct sm_err *err);

/**
 * resolve_add_listing() - also resolve cookies from a stack_map listing
 * @res: the resolver
 * @snap: the listing, parsed (copied; may be freed afterwards)
 *
 * Consulted after the definitions and the snapshot, for exactly the
 * listing's generation.  Call it after resolve_collect() and
 * resolve_add_snapshot(): a listing of another map than theirs is refused.
 *
 * Return: 0; -ESTALE, with @err set naming both map ids, when it is of
 * another load of the module; -EEXIST when @snap lists a slot twice with
 * different stacks; -ENOMEM.  The listing is not used after an error.
 */
int resolve_add_listing(struct resolver *res,
			const struct stackmap_snapshot *snap, const char *what,
			struct sm_err *err);

/**
 * resolve_owner() - the owner of a stack record, counting nothing
 * @res: the resolver (after resolve_collect())
 * @kind: the record's kind (READER_COOKIE, READER_FALLBACK or
 *	READER_KSTACK)
 * @record: the record
 * @owner: set to the owner's event id when known
 *
 * Return: true when the owner is known: a cookie whose definition names
 * one, a readable stack_fallback with an owner field; false for unresolved
 * cookies, stackmap 0.1 stacks, kernel_stack and unreadable records.
 */
bool resolve_owner(struct resolver *res, enum reader_kind kind,
		   const struct tep_record *record, sm_u32 *owner);

/**
 * resolve_is_owner() - does the trace hold stacks captured for event @type?
 * @res: the resolver (after resolve_collect() and resolve_add_snapshot())
 * @type: an event id (common_type)
 *
 * True when a stack_define or stack_fallback record of the trace, an entry
 * of its map snapshot or of the --stack-map listing names @type as owner,
 * or resolve_owner() has returned it.  An event of such a type that has no
 * stack record after it lost its stack: filtered out, lost, or not written
 * because tracing stopped between the two records.
 */
bool resolve_is_owner(const struct resolver *res, sm_u32 type);

/**
 * resolve_record() - pass 2: resolve one stackmap record
 * @res: the resolver (after resolve_collect())
 * @kind: the record's kind (reader_kind())
 * @record: the record
 * @out: filled in
 *
 * Counts stack_cookie, stack_fallback and kernel_stack outcomes in
 * @res->stats; a stack_define is only read (pass 1 counted it).
 */
void resolve_record(struct resolver *res, enum reader_kind kind,
		    const struct tep_record *record, struct resolved *out);

#endif /* FGDECODE_RESOLVE_H */
