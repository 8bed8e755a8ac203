// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pipeline: resolve stackmap records to stacks (see resolve.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "resolve.h"
#include "snapshot_table.h"
#include "stackmap/cookie.h"

int resolve_init(struct resolver *res, struct reader *reader,
		 resolve_warn_fn warn, void *warn_ctx)
{
	memset(res, 0, sizeof(*res));
	res->reader = reader;
	res->warn = warn;
	res->warn_ctx = warn_ctx;
	res->tab = stacktab_new();
	return res->tab ? 0 : -ENOMEM;
}

void resolve_fini(struct resolver *res)
{
	stacktab_free(res->tab);
	stacktab_free(res->snap);
	stacktab_free(res->listing);
	res->tab = NULL;
	res->snap = NULL;
	res->listing = NULL;
}

static void add_owner(struct resolver *res, sm_u32 owner)
{
	if (owner != STACKMAP_OWNER_NONE && owner < RESOLVE_NR_OWNERS)
		res->owners[owner / 8] |= 1u << (owner % 8);
}

bool resolve_is_owner(const struct resolver *res, sm_u32 type)
{
	return type < RESOLVE_NR_OWNERS &&
	       (res->owners[type / 8] & (1u << (type % 8)));
}

/* A table of @snap's stacks into *@slot (replacing it), owners noted. */
static int add_table(struct resolver *res, struct stacktab **slot,
		     const struct stackmap_snapshot *snap)
{
	struct stacktab *tab;
	sm_u32 i;
	int ret;

	tab = stackmap_snapshot_table(snap, &ret);
	if (!tab)
		return ret;
	res->last.valid = false;
	stacktab_free(*slot);
	*slot = tab;
	for (i = 0; i < snap->nr; i++)
		add_owner(res, snap->entries[i].owner);
	return 0;
}

int resolve_add_snapshot(struct resolver *res,
			 const struct stackmap_snapshot *snap,
			 struct sm_err *err)
{
	int ret = stackmap_map_id_check(&res->map_ids, 0, "map snapshot",
					snap->map_id, err);

	if (!ret)
		ret = add_table(res, &res->snap, snap);
	if (!ret)
		res->snap_map_id = snap->map_id;
	return ret;
}

int resolve_add_listing(struct resolver *res,
			const struct stackmap_snapshot *snap, const char *what,
			struct sm_err *err)
{
	int ret = stackmap_map_id_check(&res->map_ids, res->snap_map_id, what,
					snap->map_id, err);

	return ret ? ret : add_table(res, &res->listing, snap);
}

/*
 * Definitions, then the snapshot (stackmap_snapshot_resolve()), then the
 * --stack-map listing by the same rule.  *@from is set to the table whose
 * answer is returned: res->tab, res->snap or res->listing.
 */
static enum stacktab_result lookup_tables(const struct resolver *res,
					  sm_u64 cookie,
					  struct stacktab_stack *out,
					  const struct stacktab **from)
{
	enum stacktab_result r, lr;

	r = stackmap_snapshot_resolve(res->tab, res->snap, cookie, out, from);
	if (r == STACKTAB_FOUND || r == STACKTAB_CONFLICT || !res->listing)
		return r;
	lr = stacktab_lookup(res->listing, cookie, out);
	if (lr == STACKTAB_FOUND ||
	    (lr == STACKTAB_STALE && r == STACKTAB_UNKNOWN)) {
		*from = res->listing;
		return lr;
	}
	/* @out is zeroed by the failed lookups. */
	return r;
}

/* lookup_tables(), answered from res->last for the cookie asked before. */
static enum stacktab_result lookup(struct resolver *res, sm_u64 cookie,
				   struct stacktab_stack *out,
				   const struct stacktab **from)
{
	if (!res->last.valid || res->last.cookie != cookie) {
		res->last.result = lookup_tables(res, cookie, &res->last.stack,
						 &res->last.from);
		res->last.cookie = cookie;
		res->last.valid = true;
	}
	*out = res->last.stack;
	*from = res->last.from;
	return res->last.result;
}

static void warn(struct resolver *res, const struct tep_record *record,
		 const char *msg)
{
	if (res->warn)
		res->warn(res->warn_ctx, record, msg);
}

static void corrupt(struct resolver *res, const struct tep_record *record,
		    struct resolved *out)
{
	out->what = RESOLVED_CORRUPT;
	res->stats.corrupt++;
	warn(res, record, out->err.msg);
}

/*
 * Read the cookie and stack of a stack_define record into @out.  Return: 0,
 * or the error of tepstack_read_cookie(), _owner() or _stack() (@out->err).
 */
static int read_define(struct resolver *res, const struct tep_record *record,
		       struct resolved *out)
{
	const struct tepstack_fields *f;
	int ret;

	f = reader_fields(res->reader, READER_DEFINE);
	ret = tepstack_read_cookie(f, record, &out->cookie, &out->err);
	if (!ret)
		ret = tepstack_read_owner(f, record, &out->owner, &out->flags,
					  &out->err);
	if (!ret)
		ret = tepstack_read_stack(f, record, &out->buf, &out->err);
	if (ret) {
		out->what = RESOLVED_CORRUPT;
		return ret;
	}
	out->what = RESOLVED_STACK;
	out->depth = out->buf.depth;
	out->frames = out->buf.frames;
	return 0;
}

/* Report a definition the table refused (@ret from stacktab_define()). */
static void refused_define(struct resolver *res, const struct tep_record *record,
			   sm_u64 cookie, int ret)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s: cookie gen %u slot %u %s",
		 STACKMAP_EVENT_DEFINE, stackmap_cookie_generation(cookie),
		 stackmap_cookie_slot(cookie),
		 ret == -EINVAL ? "is invalid (skipped)" :
		 "redefined with another stack (cookie unusable)");
	if (ret == -EINVAL)
		res->stats.corrupt++;
	warn(res, record, msg);
}

/* Add one stack_define record to the table. */
static int collect_define(struct resolver *res, const struct tep_record *record)
{
	struct resolved def = { .kind = READER_DEFINE };
	int ret;

	res->stats.definitions++;
	if (read_define(res, record, &def)) {
		corrupt(res, record, &def);
		return 0;
	}
	add_owner(res, def.owner);
	stackmap_map_ids_add(&res->map_ids,
			     tepstack_read_map_id(reader_fields(res->reader,
								READER_DEFINE),
						  record));
	res->last.valid = false;
	ret = stacktab_define_owned(res->tab, def.cookie, def.depth,
				    def.frames, def.owner, def.flags);
	if (ret == -ENOMEM)
		return ret;
	if (ret == -EINVAL || ret == -EEXIST)
		refused_define(res, record, def.cookie, ret);
	return 0;
}

int resolve_collect(struct resolver *res)
{
	struct tep_record *record;
	enum reader_kind kind;
	int ret = 0, stream;
	sm_u32 owner;

	if (!reader_fields(res->reader, READER_DEFINE) &&
	    !reader_fields(res->reader, READER_FALLBACK))
		return 0;
	reader_rewind(res->reader);
	while (!ret && (record = reader_next(res->reader, &stream))) {
		kind = reader_kind(res->reader, record);
		if (kind == READER_DEFINE)
			ret = collect_define(res, record);
		else if (kind == READER_FALLBACK &&
			 resolve_owner(res, kind, record, &owner))
			add_owner(res, owner);
		reader_put(record);
	}
	reader_rewind(res->reader);
	return ret;
}

/*
 * The three readers of a stack record: each returns 0, or when the record
 * is corrupt (@out->err set) the -EFAULT, -ENOENT, -E2BIG or -EBADMSG of
 * the tepstack_read_*() or reader_read_kstack() call that refused it.
 */
static int resolve_cookie(struct resolver *res,
			  const struct tep_record *record,
			  struct resolved *out)
{
	const struct tepstack_fields *f;
	const struct stacktab *from;
	struct stacktab_stack stack;
	int ret;

	res->stats.cookies++;
	f = reader_fields(res->reader, READER_COOKIE);
	ret = tepstack_read_cookie(f, record, &out->cookie, &out->err);
	if (ret)
		return ret;
	res->stats.after_loss += tepstack_after_loss(f, record);
	out->result = lookup(res, out->cookie, &stack, &from);
	switch (out->result) {
	case STACKTAB_FOUND:
		out->what = RESOLVED_STACK;
		out->depth = stack.depth;
		out->frames = stack.frames;
		out->owner = stack.owner;
		out->flags = stack.flags;
		out->memo = stack.memo;
		res->stats.resolved++;
		if (from == res->listing)
			res->stats.from_listing++;
		else if (from == res->snap)
			res->stats.from_snapshot++;
		return 0;
	case STACKTAB_STALE:
		res->stats.stale++;
		break;
	case STACKTAB_UNKNOWN:
		res->stats.unknown++;
		break;
	case STACKTAB_CONFLICT:
		res->stats.conflicting++;
		break;
	}
	out->what = RESOLVED_MARKER;
	return 0;
}

static int resolve_fallback(struct resolver *res,
			    const struct tep_record *record,
			    struct resolved *out)
{
	const struct tepstack_fields *f;
	int ret;

	res->stats.fallbacks++;
	f = reader_fields(res->reader, READER_FALLBACK);
	ret = tepstack_read_reason(f, record, &out->reason, &out->err);
	if (!ret)
		ret = tepstack_read_owner(f, record, &out->owner, &out->flags,
					  &out->err);
	if (!ret)
		ret = tepstack_read_stack(f, record, &out->buf, &out->err);
	if (ret)
		return ret;
	res->stats.after_loss += tepstack_after_loss(f, record);
	out->what = RESOLVED_STACK;
	out->depth = out->buf.depth;
	out->frames = out->buf.frames;
	return 0;
}

/*
 * An ftrace kernel_stack, without the tracer's frames atop it (unless
 * --tracer-frames): the stack starts where the tracepoint was hit, as
 * perf's tracepoint callchains and stackmap's cookies do.  A stack of
 * nothing but such frames is kept whole.
 */
static int resolve_kstack(struct resolver *res,
			  const struct tep_record *record,
			  struct resolved *out)
{
	sm_u32 top = 0;
	int ret;

	res->stats.kstacks++;
	ret = reader_read_kstack(res->reader, record, out->kbuf, &out->depth,
				 &out->err);
	if (ret)
		return ret;
	out->what = RESOLVED_STACK;
	while (!res->tracer_frames && top < out->depth &&
	       tepstack_in_tracer(res->reader->tep, out->kbuf[top]))
		top++;
	if (top == out->depth)
		top = 0;
	out->frames = out->kbuf + top;
	out->depth -= top;
	return 0;
}

bool resolve_owner(struct resolver *res, enum reader_kind kind,
		   const struct tep_record *record, sm_u32 *owner)
{
	const struct tepstack_fields *f = reader_fields(res->reader, kind);
	const struct stacktab *from;
	struct stacktab_stack stack;
	struct sm_err err;
	sm_u64 cookie;
	sm_u32 flags;

	*owner = STACKMAP_OWNER_NONE;
	if (!f)
		return false;
	if (kind == READER_COOKIE) {
		if (tepstack_read_cookie(f, record, &cookie, &err) ||
		    lookup(res, cookie, &stack, &from) != STACKTAB_FOUND)
			return false;
		*owner = stack.owner;
	} else if (kind == READER_FALLBACK) {
		if (tepstack_read_owner(f, record, owner, &flags, &err))
			return false;
	} else {
		return false;
	}
	if (*owner == STACKMAP_OWNER_NONE)
		return false;
	add_owner(res, *owner);
	return true;
}

void resolve_record(struct resolver *res, enum reader_kind kind,
		    const struct tep_record *record, struct resolved *out)
{
	/* By kind; none for a record that is not a stack record. */
	static int (*const readers[READER_NR_KINDS])(struct resolver *,
						      const struct tep_record *,
						      struct resolved *) = {
		[READER_COOKIE] = resolve_cookie,
		[READER_FALLBACK] = resolve_fallback,
		[READER_KSTACK] = resolve_kstack,
		[READER_DEFINE] = read_define,
	};

	memset(out, 0, offsetof(struct resolved, err));
	out->kind = kind;
	out->err.msg[0] = '\0';
	if (kind < 0 || kind >= READER_NR_KINDS || !readers[kind])
		return;
	/* A corrupt definition was counted and reported by pass 1. */
	if (readers[kind](res, record, out) && kind != READER_DEFINE)
		corrupt(res, record, out);
}
