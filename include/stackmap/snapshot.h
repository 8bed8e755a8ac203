/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map snapshot format: a copy of the whole stack map (generation, every stack,
 * hit counts) stored inside trace.dat, so one file carries every stack its
 * cookies name even when definition events were lost.
 *
 * The payload is stored in a trace.dat v7 option of id STACKMAP_SNAPSHOT_OPTION
 * (written by record/stackmap-snapshot through libtracecmd's own option
 * writer).  All payload integers are little-endian, whatever the byte order
 * of the trace.dat around it.
 *
 *   header (40 bytes; 32 in version 2, which ends before map_id):
 *     0  magic[8] = STACKMAP_SNAPSHOT_MAGIC ("STKMAPS\0")
 *     8  u32 version  = STACKMAP_SNAPSHOT_VERSION
 *    12  u32 flags    = 0 (any other value is refused)
 *    16  u32 generation (of the map when it was listed; never 0)
 *    20  u32 nr_entries
 *    24  u32 long_size  (of the recording kernel: 4 or 8)
 *    28  u32 crc32      (CRC-32/ISO-HDLC, as zlib's crc32(), of every byte
 *                        after the header)
 *    32  u64 map_id     (the map's identity, events.h "Map identity"; 0 when
 *                        the listing it came from named none)
 *   entry (16 + 8 * depth bytes), nr_entries times:
 *     u32 slot, u32 depth (0..STACKMAP_MAX_DEPTH), u32 hits,
 *     u16 owner (the owning event's id, events.h), u16 flags
 *     (STACKMAP_FLAG_*; unknown bits are refused),
 *     u64 ips[depth]     innermost first, raw kernel addresses
 *
 * Version 1 (stackmap 0.1) had a reserved u32 where version 2 has owner and
 * flags; it names no owners and is refused ("re-record with stackmap 0.2").
 * Version 2 (stackmap 0.2) has no map_id: read as map id 0 (unknown).
 *
 * Every entry belongs to the header's generation: entry i names the cookie
 * stackmap_cookie_make(generation, slot).  A reader resolves a cookie from
 * the snapshot only for exactly that (generation, slot), and only when the
 * map id is the trace's (or either is unknown).
 *
 * The same data is built from the module's `stack_map` listing (see
 * man/stackmap.7), so a saved listing can be read by the same code
 * (lib/listing.h, lib/payload.h).
 */
#ifndef STACKMAP_SNAPSHOT_FORMAT_H
#define STACKMAP_SNAPSHOT_FORMAT_H

#define STACKMAP_SNAPSHOT_MAGIC		"STKMAPS\0"
#define STACKMAP_SNAPSHOT_MAGIC_LEN	8
#define STACKMAP_SNAPSHOT_VERSION	3
#define STACKMAP_SNAPSHOT_HDR_SIZE	40
#define STACKMAP_SNAPSHOT_HDR_SIZE_V2	32
#define STACKMAP_SNAPSHOT_ENTRY_SIZE	16
/*
 * Option id in trace.dat: trace-cmd 3.1.6 uses 0..22 (TRACECMD_OPTION_MAX is
 * 23) and skips unknown ids ("Unknown option" in trace-cmd dump --options).
 */
#define STACKMAP_SNAPSHOT_OPTION	0x5354
/* Largest payload accepted by the readers (a full default map is ~2.4 MiB). */
#define STACKMAP_SNAPSHOT_MAX_SIZE	(256u << 20)

/*
 * Thread group ids, option id STACKMAP_TGIDS_OPTION (written by
 * `stackmap-snapshot tgids`, which the front end runs after a recording it made
 * with tracefs's options/record-tgid on): the tracefs file saved_tgids as it
 * was at the end of the recording, unchanged: text lines "PID TGID\n", both
 * decimal (kernel/trace/trace.c saved_tgids_show()), one per task the ring
 * buffer saw.  trace-cmd stores the comm of each pid (saved_cmdlines) but not
 * its process: readers take a task's process (its tgid) from here, and have
 * none when a trace holds no such option.  At most STACKMAP_TGIDS_MAX_SIZE
 * bytes; the last such option wins.
 */
#define STACKMAP_TGIDS_OPTION		0x5355
#define STACKMAP_TGIDS_MAX_SIZE		(64u << 20)

/* Longest owner name a listing line may carry ("system:event"), NUL included. */
#define STACKMAP_SNAPSHOT_NAME_LEN	96

#endif /* STACKMAP_SNAPSHOT_FORMAT_H */
