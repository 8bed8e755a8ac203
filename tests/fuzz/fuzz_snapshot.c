// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the map snapshot payload stored in trace.dat
 * (lib/payload.c, stackmap_snapshot_decode()).
 *
 * Input: byte 0 bit 0 set means "repair the header's CRC first", so the
 * fuzzer gets past the checksum into the entries; the rest is the payload.
 * A payload that decodes must encode back to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"

#define SNAPSHOT_HEADER_SIZE	32	/* see include/stackmap/snapshot.h */
#define CRC_OFFSET	28

static void repair_crc(unsigned char *p, size_t len)
{
	sm_u32 crc;

	if (len < SNAPSHOT_HEADER_SIZE)
		return;
	crc = stackmap_crc32(p + SNAPSHOT_HEADER_SIZE,
			     len - SNAPSHOT_HEADER_SIZE);
	for (int i = 0; i < 4; i++)
		p[CRC_OFFSET + i] = (unsigned char)(crc >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stackmap_snapshot snap;
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
		if (again_len != len || memcmp(again, copy, len))
			abort();
		free(again);
		stackmap_snapshot_free(&snap);
	}
	free(copy);
	return 0;
}
