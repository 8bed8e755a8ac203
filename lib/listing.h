/* SPDX-License-Identifier: GPL-2.0 */
/*
 * listing: the parser of the module's stack_map listing (man/stackmap.7),
 * which holds the same data as a snapshot payload.
 */
#ifndef LIBSTACKMAP_LISTING_H
#define LIBSTACKMAP_LISTING_H

#include <stdio.h>

#include "snapshot.h"
#include "sm_err.h"

/**
 * stackmap_snapshot_parse_listing() - parse the module's stack_map listing
 * @f: the listing, read to EOF
 * @name: file name used in error messages
 * @long_size: stored in @out (the listing does not say it); 4 or 8
 * @out: filled on success (free with stackmap_snapshot_free())
 * @err: set on failure: "NAME:LINE: ..." naming the field
 *
 * Accepts exactly the shape of man/stackmap.7: a header line
 * "# generation G entries U/C frames U/C bytes B [map_id 0xID]" (the map
 * id from stackmap 0.3 on, into @out->map_id; 0 without), then per stack
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

#endif /* LIBSTACKMAP_LISTING_H */
