/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot: the map snapshot whose format include/stackmap/snapshot.h
 * defines, as the listing parser (listing.h), the payload codec (payload.h)
 * and the trace.dat option walker (tracedat_options.h) fill it;
 * snapshot_table.h turns it into a stacktab.
 */
#ifndef LIBSTACKMAP_SNAPSHOT_H
#define LIBSTACKMAP_SNAPSHOT_H

#include "stackmap/events.h"
#include "stackmap/snapshot.h"
#include "stackmap/types.h"

/*
 * One stored stack.  @owner_name is the listing's NAME for @owner ("?" when
 * the module did not know it); empty for an entry decoded from a payload,
 * which stores the id only.
 */
struct stackmap_snap_entry {
	sm_u32 slot;
	sm_u32 depth;
	sm_u32 hits;
	sm_u32 owner;		/* u16 in the payload */
	sm_u32 flags;		/* u16 in the payload: STACKMAP_FLAG_* */
	char owner_name[STACKMAP_SNAPSHOT_NAME_LEN];
	sm_u64 ips[STACKMAP_MAX_DEPTH];
};

/*
 * A whole map: @nr entries of generation @generation of the map @map_id
 * (0: unknown, a version 2 payload or a listing without one).
 */
struct stackmap_snapshot {
	sm_u64 map_id;
	sm_u32 generation;
	sm_u32 long_size;
	sm_u32 nr;
	struct stackmap_snap_entry *entries;	/* malloc'ed, @nr of them */
};

/**
 * stackmap_snapshot_free() - free the entries of @snap and zero it
 * @snap: a snapshot filled by stackmap_snapshot_parse_listing(),
 *	stackmap_snapshot_decode() or stackmap_snapshot_read_tracedat(), or
 *	zeroed
 */
void stackmap_snapshot_free(struct stackmap_snapshot *snap);

#endif /* LIBSTACKMAP_SNAPSHOT_H */
