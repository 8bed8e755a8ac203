// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot: the in-memory map snapshot (snapshot.h) that the listing parser
 * (listing.c), the payload codec (payload.c) and the trace.dat option walker
 * (tracedat_options.c) fill, and its release.
 */
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

void stackmap_snapshot_free(struct stackmap_snapshot *snap)
{
	free(snap->entries);
	memset(snap, 0, sizeof(*snap));
}
