/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map snapshot format: a copy of the whole stack map (generation, every stack,
 * hit counts) stored inside trace.dat, so one file carries every stack its
 * cookies name even when definition events were lost.
 *
 * The payload is stored in a trace.dat v7 option of id STACKMAP_SNAPSHOT_OPTION.
 * All integers are little-endian.
 *
 *   header:  magic[8] = STACKMAP_SNAPSHOT_MAGIC, u32 version, u32 flags,
 *            u32 generation, u32 nr_entries, u32 long_size, u32 crc32
 *            (crc32 of everything after the header)
 *   entry:   u32 slot, u32 depth, u32 hits, u32 reserved,
 *            u64 ips[depth]
 */
#ifndef STACKMAP_SNAPSHOT_H
#define STACKMAP_SNAPSHOT_H

#define STACKMAP_SNAPSHOT_MAGIC		"STKMAPS\0"
#define STACKMAP_SNAPSHOT_VERSION	1
/* Option id in the trace.dat option range that trace-cmd 3.1.6 does not use. */
#define STACKMAP_SNAPSHOT_OPTION	0x5354

#endif /* STACKMAP_SNAPSHOT_H */
