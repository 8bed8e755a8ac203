/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map_id: which load of the module a trace's cookies come from, and whether
 * a listing or snapshot is of the same one (include/stackmap/events.h:
 * "Map identity").  Shared by fgdecode and the plugin, so both accept and
 * refuse the same files with the same words.
 */
#ifndef LIBSTACKMAP_MAP_ID_H
#define LIBSTACKMAP_MAP_ID_H

#include <stdbool.h>
#include <stddef.h>

#include "sm_err.h"
#include "stackmap/types.h"

/* Distinct map ids kept per trace: one per module load it spans. */
#define STACKMAP_MAP_IDS_MAX	8

/**
 * struct stackmap_map_ids - the map ids a trace's definitions carry
 * @id: the first @nr distinct non-zero ids, in the order seen
 * @nr: how many @id holds
 * @more: distinct ids seen beyond STACKMAP_MAP_IDS_MAX (not kept)
 */
struct stackmap_map_ids {
	sm_u64 id[STACKMAP_MAP_IDS_MAX];
	unsigned int nr;
	unsigned int more;
};

/**
 * stackmap_map_ids_add() - note the map id of one definition
 * @ids: the set
 * @id: the definition's map id; 0 (unknown: stackmap 0.2) is ignored
 */
void stackmap_map_ids_add(struct stackmap_map_ids *ids, sm_u64 id);

/**
 * stackmap_map_id_check() - may a listing or snapshot of map @id resolve
 * cookies of a trace whose definitions carry @ids?
 * @ids: the trace's map ids
 * @fallback: the id to compare with when @ids is empty (the snapshot stored
 *	in the trace, for a listing given beside it), 0 for none
 * @what: the file, for the message ("--stack-map FILE", "map snapshot")
 * @id: the file's map id, 0 when it names none
 * @err: set when it may not: "WHAT: map id 0xA is not the trace's (0xB):
 *	the map of another load of the stackmap module"
 *
 * Yes when either side is unknown (0, no definition with an id): the
 * generation and slot must then match alone, as before map ids.
 *
 * Return: 0, or -ESTALE after setting @err.
 */
int stackmap_map_id_check(const struct stackmap_map_ids *ids,
			  sm_u64 fallback, const char *what, sm_u64 id,
			  struct sm_err *err);

#endif /* LIBSTACKMAP_MAP_ID_H */
