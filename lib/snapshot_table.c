// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot_table: a snapshot as a stacktab, and the rule that resolves a
 * cookie from definitions first, then from a snapshot (see
 * snapshot_table.h).
 */
#include <errno.h>

#include "stackmap/cookie.h"
#include "snapshot_table.h"

int stackmap_snapshot_fill(const struct stackmap_snapshot *snap,
			   struct stacktab *tab)
{
	const struct stackmap_snap_entry *e;
	sm_u32 i;
	int ret;

	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		ret = stacktab_define_owned(tab,
					    stackmap_cookie_make(snap->generation,
								 e->slot),
					    e->depth, e->ips, e->owner,
					    e->flags);
		if (ret < 0)
			return ret;
	}
	return 0;
}

struct stacktab *stackmap_snapshot_table(const struct stackmap_snapshot *snap,
					 int *err)
{
	struct stacktab *tab = stacktab_new();

	*err = tab ? stackmap_snapshot_fill(snap, tab) : -ENOMEM;
	if (*err) {
		stacktab_free(tab);
		return NULL;
	}
	return tab;
}

enum stacktab_result stackmap_snapshot_resolve(const struct stacktab *defs,
					       const struct stacktab *snap,
					       sm_u64 cookie,
					       struct stacktab_stack *out,
					       const struct stacktab **from)
{
	enum stacktab_result res, snap_res;

	if (from)
		*from = defs;
	res = stacktab_lookup(defs, cookie, out);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT || !snap)
		return res;
	snap_res = stacktab_lookup(snap, cookie, out);
	if (snap_res == STACKTAB_FOUND ||
	    (snap_res == STACKTAB_STALE && res == STACKTAB_UNKNOWN)) {
		if (from)
			*from = snap;
		return snap_res;
	}
	return res;
}
