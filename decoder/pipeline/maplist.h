/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --map, input: read the module's stack_map listing (man/stackmap.7)
 * live from debugfs or from a saved copy, and a kallsyms to symbolize it.
 *
 * The listing is parsed by the shared stackmap_snapshot_parse_listing()
 * (lib/listing.h) into a struct stackmap_snapshot (entries in listing order,
 * innermost frame first), so a saved listing and a trace's map snapshot are
 * the same data.
 * The listing's own "symbol+off/size [module]" text is not kept: frames are
 * symbolized by fgdecode from a kallsyms (live: /proc/kallsyms; a saved
 * listing: --kallsyms PATH, checked against that text), or from that text
 * alone (maplist_listing_symbols()).
 *
 * maplist_delta() compares two reads for --interval.
 */
#ifndef FGDECODE_MAPLIST_H
#define FGDECODE_MAPLIST_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

#include "snapshot.h"
#include "sm_err.h"

/* The running module's listing, read when --map names no file. */
#define MAPLIST_LIVE_PATH	"/sys/kernel/debug/stackmap/stack_map"
#define MAPLIST_LIVE_KALLSYMS	"/proc/kallsyms"

/**
 * maplist_read() - read and parse a stack_map listing
 * @path: the listing (live debugfs file or a saved copy)
 * @snap: filled on success (free with stackmap_snapshot_free())
 * @announced: set on success to the entries the header line announces
 *	("entries U/C"); more than @snap->nr when the listing was cut at an
 *	entry boundary (or, live, when inserts were in flight)
 * @err: on failure one line, no newline, naming @path and, for malformed
 *	text, the line: "PATH:LINE: FIELD ..."
 *
 * The file is read whole (one pass over a live debugfs file), then parsed.
 * Frames are taken as 64-bit kernel addresses.
 *
 * Return: 0; -errno when @path cannot be opened or read; -EINVAL for
 * malformed text, a count above 2^32-1 or an entry of another generation
 * than the header's (a reset during the read); -E2BIG for a depth above
 * STACKMAP_MAX_DEPTH; -ENOMEM.
 */
int maplist_read(const char *path, struct stackmap_snapshot *snap,
		 sm_u32 *announced, struct sm_err *err);

/**
 * maplist_symbols() - a tep handle that knows a kallsyms file's symbols
 * @path: a /proc/kallsyms-style file ("ADDR TYPE NAME [MODULE]" lines), or
 *	NULL for a handle without symbols (frames print as addresses)
 * @err: on failure one line, no newline, naming @path
 *
 * Return: the handle (free with tep_free()), or NULL with @err set.
 */
struct tep_handle *maplist_symbols(const char *path,
				   struct sm_err *err);

/**
 * maplist_listing_symbols() - a tep handle that knows the symbols a saved
 * listing names beside its frames
 * @path: a stack_map listing; each frame line "0xADDR NAME+0xOFF/0xSIZE
 *	[MODULE]" (the module's %pS, as the module writes it) gives NAME,
 *	from ADDR - OFF to ADDR - OFF + SIZE
 * @err: on failure one line, no newline, naming @path
 *
 * The symbols a listing carries, for printing it without its machine's
 * kallsyms: each function's start, and its end (a symbol named "NAME.end"
 * where no listed function starts) so that sizes come out as the
 * listing has them.  Frame lines without a name (a bare address) add none.
 *
 * Return: the handle (free with tep_free()), or NULL with @err set.
 */
struct tep_handle *maplist_listing_symbols(const char *path,
				   struct sm_err *err);

/**
 * maplist_check_symbols() - do a kallsyms' symbols agree with the names a
 * listing carries beside its frames?
 * @path: a stack_map listing (its "0xADDR NAME+0xOFF/0xSIZE [MODULE]"
 *	frame lines; frames without a name are not compared)
 * @tep: the handle of the kallsyms to check (maplist_symbols())
 * @ksyms: its file, for the message
 * @named: set to how many functions the listing names
 * @differ: set to how many of them do not start
 *	in @tep where the listing has them (an alias at that address agrees)
 * @err: on failure one line, no newline, naming both files
 *
 * A kallsyms of another boot (KASLR) or kernel places almost no function
 * where the listing's own %pS names put it; a few may differ within one
 * (kallsyms_vote_accepts(): at most 1 in DW_MATCH_TOLERANCE).  A listing
 * that names no function agrees with any kallsyms.
 *
 * Return: 0 (check @differ for a warning); -EINVAL when more differ; -errno
 * when @path cannot be read, -ENOMEM.
 */
int maplist_check_symbols(const char *path, struct tep_handle *tep,
			  const char *ksyms, size_t *named, size_t *differ,
			  struct sm_err *err);

/* What one stack did between two reads of the map. */
struct maplist_change {
	const struct stackmap_snap_entry *entry;	/* in the later read */
	sm_u32 hits;		/* hits added between the reads */
	double rate;		/* @hits per second */
};

/**
 * maplist_delta() - the stacks whose hits grew between two reads
 * @prev: the earlier read
 * @cur: the later read
 * @seconds: time between the reads, > 0
 * @reset: set when the generation changed (the map was reset in between):
 *	every stack of @cur then counts from 0, never against @prev
 * @nr: set to the number of changes returned
 *
 * A stack is matched by slot within one generation.  A count that went
 * down (impossible unless the map was reset) counts as 0; a count
 * saturated at 2^32-1 stops growing.
 *
 * Return: the changes sorted by rate, highest first (ties by listing
 * order; free() them), or NULL when out of memory.
 */
struct maplist_change *maplist_delta(const struct stackmap_snapshot *prev,
				     const struct stackmap_snapshot *cur,
				     double seconds, bool *reset, size_t *nr);

#endif /* FGDECODE_MAPLIST_H */
