// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the map snapshot payload stored in trace.dat
 * (lib/payload.c, stackmap_snapshot_decode()).
 *
 * Input: byte 0 bit 0 set means "repair the header's CRC first", so the
 * fuzzer gets past the checksum into the entries; the rest is the payload.
 * A payload that decodes must encode back to the same bytes (a version 2
 * one: to the same map).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "stackmap/snapshot.h"

#define CRC_OFFSET	28
#define VERSION_OFFSET	8

/* The header's size for the version the payload claims (2: 32 bytes). */
static size_t header_size(const unsigned char *p, size_t len)
{
	return len > VERSION_OFFSET && p[VERSION_OFFSET] == 2 ?
	       STACKMAP_SNAPSHOT_HDR_SIZE_V2 : STACKMAP_SNAPSHOT_HDR_SIZE;
}

static void repair_crc(unsigned char *p, size_t len)
{
	size_t hdr = header_size(p, len);
	sm_u32 crc;

	if (len < hdr)
		return;
	crc = stackmap_crc32(p + hdr, len - hdr);
	for (int i = 0; i < 4; i++)
		p[CRC_OFFSET + i] = (unsigned char)(crc >> (8 * i));
}

/* Two decoded snapshots hold the same map (a version 2 one has map id 0). */
static int same_snapshot(const struct stackmap_snapshot *a,
			 const struct stackmap_snapshot *b)
{
	return a->map_id == b->map_id && a->generation == b->generation &&
	       a->long_size == b->long_size && a->nr == b->nr &&
	       !memcmp(a->entries, b->entries, a->nr * sizeof(*a->entries));
}

/*
 * A payload that decodes encodes again: to the same bytes when it is of the
 * current version, to the same map when it is a version 2 one.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stackmap_snapshot snap, back;
	struct sm_err err;
	unsigned char *copy;
	void *again;
	size_t len, again_len;

	if (size < 1)
		return 0;
	len = size - 1;
	copy = malloc(len ? len : 1);
	memcpy(copy, data + 1, len);
	if (data[0] & 1)
		repair_crc(copy, len);
	if (!stackmap_snapshot_decode(copy, len, &snap, &err)) {
		if (stackmap_snapshot_encode(&snap, &again, &again_len, &err))
			abort();
		if (copy[VERSION_OFFSET] == STACKMAP_SNAPSHOT_VERSION &&
		    (again_len != len || memcmp(again, copy, len)))
			abort();
		if (stackmap_snapshot_decode(again, again_len, &back, &err) ||
		    !same_snapshot(&snap, &back))
			abort();
		stackmap_snapshot_free(&back);
		free(again);
		stackmap_snapshot_free(&snap);
	}
	free(copy);
	return 0;
}
