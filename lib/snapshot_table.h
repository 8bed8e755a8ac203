/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot_table: filling a stacktab from a snapshot, and the one resolve
 * rule (definitions, then snapshot) the plugin and fgdecode share.
 */
#ifndef LIBSTACKMAP_SNAPSHOT_TABLE_H
#define LIBSTACKMAP_SNAPSHOT_TABLE_H

#include "snapshot.h"
#include "stacktab.h"
#include "stackmap/types.h"

/**
 * stackmap_snapshot_fill() - define every entry of @snap in @tab
 * @snap: the snapshot
 * @tab: receives cookie (generation, slot) -> ips, owner and flags for each
 *	entry
 *
 * Return: 0, or the first negative stacktab_define() error (-EEXIST when a
 * slot is listed twice with different stacks, -ENOMEM).
 */
int stackmap_snapshot_fill(const struct stackmap_snapshot *snap,
			   struct stacktab *tab);

/**
 * stackmap_snapshot_table() - a new stacktab holding @snap's stacks
 * @snap: the snapshot
 * @err: set to 0, or to why there is no table: -ENOMEM, or -EEXIST when a
 *	slot is listed twice with different stacks
 *
 * Return: the table (free with stacktab_free()), or NULL.
 */
struct stacktab *stackmap_snapshot_table(const struct stackmap_snapshot *snap,
					 int *err);

/**
 * stackmap_snapshot_resolve() - resolve a cookie from definitions, then a
 * snapshot: the one rule the plugin and fgdecode share
 * @defs: stacks from stack_define events
 * @snap: stacks from stackmap_snapshot_fill(), or NULL
 * @cookie: the cookie
 * @out: set to the stack on STACKTAB_FOUND
 * @from: unless NULL, set to the table whose answer is returned: @snap when
 *	the result comes from it (FOUND there, or STALE there while @defs
 *	does not know the slot), @defs otherwise; lets a caller count where
 *	a stack came from without looking it up again
 *
 * Return: the result from @defs when it is FOUND or CONFLICT; otherwise
 * FOUND from @snap (same generation and slot only); otherwise STALE when
 * either table knows the slot under another generation; otherwise UNKNOWN.
 */
enum stacktab_result stackmap_snapshot_resolve(const struct stacktab *defs,
					       const struct stacktab *snap,
					       sm_u64 cookie,
					       struct stacktab_stack *out,
					       const struct stacktab **from);

#endif /* LIBSTACKMAP_SNAPSHOT_TABLE_H */
