// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the module's stack_map listing as read from a saved
 * file (lib/listing.c, stackmap_snapshot_parse_listing()).
 * A listing that parses must survive an encode/decode round trip.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "listing.h"
#include "payload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stackmap_snapshot snap, back;
	struct sm_err err;
	size_t len;
	void *buf;
	FILE *f;

	f = fmemopen((void *)data, size ? size : 1, "r");
	if (!f)
		return 0;
	if (!size)
		fgetc(f);
	if (!stackmap_snapshot_parse_listing(f, "fuzz", 8, &snap, &err)) {
		if (stackmap_snapshot_encode(&snap, &buf, &len, &err) ||
		    stackmap_snapshot_decode(buf, len, &back, &err) ||
		    back.nr != snap.nr)
			abort();
		free(buf);
		stackmap_snapshot_free(&back);
		stackmap_snapshot_free(&snap);
	}
	fclose(f);
	return 0;
}
