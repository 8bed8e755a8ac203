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
 *   header (32 bytes):
 *     0  magic[8] = STACKMAP_SNAPSHOT_MAGIC ("STKMAPS\0")
 *     8  u32 version  = STACKMAP_SNAPSHOT_VERSION
 *    12  u32 flags    = 0 (any other value is refused)
 *    16  u32 generation (of the map when it was listed; never 0)
 *    20  u32 nr_entries
 *    24  u32 long_size  (of the recording kernel: 4 or 8)
 *    28  u32 crc32      (CRC-32/ISO-HDLC, as zlib's crc32(), of every byte
 *                        after the header)
 *   entry (16 + 8 * depth bytes), nr_entries times:
 *     u32 slot, u32 depth (0..STACKMAP_MAX_DEPTH), u32 hits,
 *     u16 owner (the owning event's id, events.h), u16 flags
 *     (STACKMAP_FLAG_*; unknown bits are refused),
 *     u64 ips[depth]     innermost first, raw kernel addresses
 *
 * Version 1 (stackmap 0.1) had a reserved u32 where version 2 has owner and
 * flags; it names no owners and is refused ("re-record with stackmap 0.2").
 *
 * Every entry belongs to the header's generation: entry i names the cookie
 * stackmap_cookie_make(generation, slot).  A reader resolves a cookie from
 * the snapshot only for exactly that (generation, slot).
 *
 * The same data is built from the module's `stack_map` listing (see
 * man/stackmap.7) by stackmap_snapshot_parse_listing(), so a saved listing can
 * be read by the same code.
 */
#ifndef STACKMAP_SNAPSHOT_H
#define STACKMAP_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>

#include "stackmap/events.h"
#include "stacktab.h"
#include "sm_err.h"
#include "stackmap/types.h"

#define STACKMAP_SNAPSHOT_MAGIC		"STKMAPS\0"
#define STACKMAP_SNAPSHOT_MAGIC_LEN	8
#define STACKMAP_SNAPSHOT_VERSION	2
#define STACKMAP_SNAPSHOT_HDR_SIZE	32
#define STACKMAP_SNAPSHOT_ENTRY_SIZE	16
/*
 * Option id in trace.dat: trace-cmd 3.1.6 uses 0..22 (TRACECMD_OPTION_MAX is
 * 23) and skips unknown ids ("Unknown option" in trace-cmd dump --options).
 */
#define STACKMAP_SNAPSHOT_OPTION	0x5354
/* Largest payload accepted by the readers (a full default map is ~2.4 MiB). */
#define STACKMAP_SNAPSHOT_MAX_SIZE	(256u << 20)

/* Longest owner name a listing line may carry ("system:event"), NUL included. */
#define STACKMAP_SNAPSHOT_NAME_LEN	96

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

/* A whole map: @nr entries of generation @generation. */
struct stackmap_snapshot {
	sm_u32 generation;
	sm_u32 long_size;
	sm_u32 nr;
	struct stackmap_snap_entry *entries;	/* malloc'ed, @nr of them */
};

/**
 * stackmap_crc32() - CRC-32 (zlib's crc32(0, buf, len))
 * @buf: bytes
 * @len: number of bytes
 *
 * Return: the CRC; 0 for @len 0.
 */
sm_u32 stackmap_crc32(const void *buf, size_t len);

/**
 * stackmap_snapshot_free() - free the entries of @snap and zero it
 * @snap: a snapshot filled by one of the functions below, or zeroed
 */
void stackmap_snapshot_free(struct stackmap_snapshot *snap);

/**
 * stackmap_snapshot_parse_listing() - parse the module's stack_map listing
 * @f: the listing, read to EOF
 * @name: file name used in error messages
 * @long_size: stored in @out (the listing does not say it); 4 or 8
 * @out: filled on success (free with stackmap_snapshot_free())
 * @err: set on failure: "NAME:LINE: ..." naming the field
 *
 * Accepts exactly the shape of man/stackmap.7: a header line
 * "# generation G entries U/C frames U/C bytes B", then per stack
 * "slot S generation G hits H depth D owner O NAME flags 0xF" and D lines
 * " 0xADDR ...".
 *
 * O is the owner's event id (0..65535), NAME its "system:event" (or "?";
 * letters, digits and "_-.:" only), F the flags in hex; an unknown flag bit
 * is refused.
 *
 * Return: 0; -EINVAL for malformed text, an entry of another generation or
 * unknown flag bits, -E2BIG for depth > STACKMAP_MAX_DEPTH, -EIO on a read
 * error, -ENOMEM.
 */
int stackmap_snapshot_parse_listing(FILE *f, const char *name,
				    sm_u32 long_size,
				    struct stackmap_snapshot *out,
				    struct sm_err *err);

/**
 * stackmap_snapshot_encode() - build the payload described at the top
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
 * size or trailing bytes; -EPROTONOSUPPORT for another version (version 1:
 * "re-record with stackmap 0.2"); -E2BIG for depth > STACKMAP_MAX_DEPTH;
 * -ENOMEM.
 */
int stackmap_snapshot_decode(const void *buf, size_t len,
			     struct stackmap_snapshot *out,
			     struct sm_err *err);

/**
 * stackmap_snapshot_read_tracedat() - find and decode the snapshot in a trace
 * @path: a trace.dat
 * @out: filled on success (free with stackmap_snapshot_free())
 * @err: set on failure: "PATH: ..." naming the offset and field
 *
 * Walks the chain of v7 option sections (the layout lib/trace-cmd/
 * trace-input.c of trace-cmd 3.1.6 reads in tracecmd_alloc_fd(),
 * read_section_header(), handle_options() and handle_option_done()); the
 * last STACKMAP_SNAPSHOT_OPTION found wins.
 *
 * Return: 0; -ENOENT when the file holds no snapshot; -ENOTSUP for a
 * version 6 file (no option sections after the data) or a compressed
 * options section; -EBADMSG for a malformed file or payload (see
 * stackmap_snapshot_decode() for the payload's codes); -errno when it cannot
 * be opened or read.
 */
int stackmap_snapshot_read_tracedat(const char *path,
				    struct stackmap_snapshot *out,
				    struct sm_err *err);

/**
 * stackmap_snapshot_fill() - define every entry of @snap in @tab
 * @snap: the snapshot
 * @tab: receives cookie (generation, slot) -> ips, owner and flags for each
 *	entry
 *
 * Return: 0, or the first negative stacktab_define() error (-EEXIST when a
 * slot is listed twice with different stacks, -ENOMEM).
 */
int stackmap_snapshot_fill(const struct stackmap_snapshot *snap,
			   struct stacktab *tab);

/**
 * stackmap_snapshot_resolve() - resolve a cookie from definitions, then a
 * snapshot: the one rule the plugin and fgdecode share
 * @defs: stacks from stack_define events
 * @snap: stacks from stackmap_snapshot_fill(), or NULL
 * @cookie: the cookie
 * @out: set to the stack on STACKTAB_FOUND
 *
 * Return: the result from @defs when it is FOUND or CONFLICT; otherwise
 * FOUND from @snap (same generation and slot only); otherwise STALE when
 * either table knows the slot under another generation; otherwise UNKNOWN.
 */
enum stacktab_result stackmap_snapshot_resolve(const struct stacktab *defs,
					       const struct stacktab *snap,
					       sm_u64 cookie,
					       struct stacktab_stack *out);

#endif /* STACKMAP_SNAPSHOT_H */
