// SPDX-License-Identifier: GPL-2.0
/* map_id: see map_id.h. */
#include <errno.h>
#include <stdio.h>

#include "map_id.h"

void stackmap_map_ids_add(struct stackmap_map_ids *ids, sm_u64 id)
{
	unsigned int i;

	if (!id)
		return;
	for (i = 0; i < ids->nr; i++)
		if (ids->id[i] == id)
			return;
	if (ids->nr < STACKMAP_MAP_IDS_MAX)
		ids->id[ids->nr++] = id;
	else
		ids->more++;
}

/* "0xA" or "0xA, 0xB and 2 more" into @buf. */
static void format_ids(const struct stackmap_map_ids *ids, char *buf,
		       size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ids->nr && n < len; i++)
		n += snprintf(buf + n, len - n, "%s0x%016llx", i ? ", " : "",
			      (unsigned long long)ids->id[i]);
	if (ids->more && n < len)
		snprintf(buf + n, len - n, " and %u more", ids->more);
}

int stackmap_map_id_check(const struct stackmap_map_ids *ids,
			  sm_u64 fallback, const char *what, sm_u64 id,
			  struct sm_err *err)
{
	struct stackmap_map_ids one = { .nr = 0 };
	char have[160];
	unsigned int i;

	if (!ids->nr && fallback) {
		stackmap_map_ids_add(&one, fallback);
		ids = &one;
	}
	if (!id || !ids->nr)
		return 0;
	for (i = 0; i < ids->nr; i++)
		if (ids->id[i] == id)
			return 0;
	format_ids(ids, have, sizeof(have));
	sm_err_set(err, "%s: map id 0x%016llx is not the trace's (%s): the map of another load of the stackmap module",
		   what, (unsigned long long)id, have);
	return -ESTALE;
}
