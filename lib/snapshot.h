/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot: reading and writing the map snapshot whose format
 * include/stackmap/snapshot.h defines (the payload codec, the stack_map
 * listing parser, the trace.dat option walker), and filling a stacktab
 * from it.
 */
#ifndef LIBSTACKMAP_SNAPSHOT_H
#define LIBSTACKMAP_SNAPSHOT_H

#include <stddef.h>
#include <stdio.h>

#include "stackmap/events.h"
#include "stackmap/snapshot.h"
#include "stacktab.h"
#include "sm_err.h"
#include "stackmap/types.h"

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

#endif /* LIBSTACKMAP_SNAPSHOT_H */
