/* SPDX-License-Identifier: GPL-2.0 */
/*
 * payload: the codec of the snapshot payload stored in a trace.dat option
 * (layout in include/stackmap/snapshot.h), and its CRC-32.
 */
#ifndef LIBSTACKMAP_PAYLOAD_H
#define LIBSTACKMAP_PAYLOAD_H

#include <stddef.h>

#include "snapshot.h"
#include "sm_err.h"
#include "stackmap/types.h"

/**
 * stackmap_crc32() - CRC-32 (zlib's crc32(0, buf, len))
 * @buf: bytes
 * @len: number of bytes
 *
 * Return: the CRC; 0 for @len 0.
 */
sm_u32 stackmap_crc32(const void *buf, size_t len);

/**
 * stackmap_snapshot_encode() - build the payload include/stackmap/snapshot.h
 * describes, of version STACKMAP_SNAPSHOT_VERSION (@snap->map_id in it)
 * @snap: the snapshot
 * @buf: set to a malloc'ed payload on success
 * @len: set to its size in bytes
 * @err: set on failure
 *
 * Return: 0; -EINVAL for generation 0, long size not 4/8, a depth above
 * STACKMAP_MAX_DEPTH, an owner above 65535 or unknown flag bits; -E2BIG
 * above STACKMAP_SNAPSHOT_MAX_SIZE; -ENOMEM.
 */
int stackmap_snapshot_encode(const struct stackmap_snapshot *snap, void **buf,
			     size_t *len, struct sm_err *err);

/**
 * stackmap_snapshot_decode() - check and read a payload
 * @buf: the payload
 * @len: its size in bytes
 * @out: filled on success (free with stackmap_snapshot_free())
 * @err: set on failure: "snapshot offset N: FIELD ..." (offsets within the
 *	payload)
 *
 * Return: 0; -EBADMSG for a wrong magic, truncated data, a crc mismatch,
 * nonzero header flags, unknown entry flag bits, generation 0, a bad long
 * size or trailing bytes; -EPROTONOSUPPORT for a version other than 2 (read
 * with map id 0) and 3 (version 1: "re-record with stackmap 0.2"); -E2BIG
 * for depth > STACKMAP_MAX_DEPTH; -ENOMEM.
 */
int stackmap_snapshot_decode(const void *buf, size_t len,
			     struct stackmap_snapshot *out,
			     struct sm_err *err);

#endif /* LIBSTACKMAP_PAYLOAD_H */
