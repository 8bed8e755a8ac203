/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --map, output: a stack_map listing in the formats fgdecode prints
 * traces in, with the same frame lines (symbolize.h).  Counts are the map's
 * hit counts.
 *
 * Text (listing order, then a blank line between stacks):
 *
 *   # generation 3233: 102 stacks, 1733 hits
 *   hits 38 cookie 0xca100000060 gen 3233 slot 96
 *       => __schedule+0x4f8/0xa00 (ffffffff832528c8)
 *       ...
 *
 * --top N:
 *
 *   fgdecode: top 2 of 102 stacks over 1733 hits, generation 3233
 *   #1 412 hits 23.77% gen 3233 slot 96
 *       => __schedule+0x4f8/0xa00 (ffffffff832528c8)
 *
 * --folded: one line per distinct folded stack (slots whose frames fold to
 * the same functions are summed), root first, ';'-separated, a space and the
 * hits; lines sorted bytewise; stacks with 0 hits are left out.
 *
 * --json: one object per stack per line, in listing order:
 *
 *   {"gen":3233,"slot":96,"cookie":"0xca100000060","hits":38,
 *    "stack":[{"addr":"0xffffffff832528c8","symbol":"__schedule",
 *    "offset":1272}, ...]}
 *
 * with "symbol" null and no "offset" when no symbol covers a frame, and
 * "file", "line", "inlined" as in json.h with --vmlinux.
 *
 * --interval, per interval (rates in hits per second over the measured time
 * between two reads):
 *
 *   fgdecode: interval 1: 1.00 s, generation 3233, 3 stacks changed, 57 hits
 *   #1 41.00 hits/s (41 hits) gen 3233 slot 96
 *       => __schedule+0x4f8/0xa00 (ffffffff832528c8)
 *
 * and "fgdecode: map reset: generation G1 -> G2 (hits counted from 0)" before
 * it when the map was reset between the two reads.
 */
#ifndef FGDECODE_MAPOUT_H
#define FGDECODE_MAPOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "maplist.h"
#include "symbolize.h"

enum mapout_mode {
	MAPOUT_TEXT = 0,
	MAPOUT_JSON,
	MAPOUT_FOLDED,
	MAPOUT_TOP,
};

/**
 * mapout_print() - print one read of the map
 * @out: stream
 * @sz: the symbolizer
 * @snap: the map
 * @mode: output format
 * @top: with MAPOUT_TOP, how many stacks (at least 1)
 *
 * Return: 0, or -ENOMEM.
 */
int mapout_print(FILE *out, const struct symbolizer *sz,
		 const struct stackmap_snapshot *snap, enum mapout_mode mode,
		 size_t top);

/**
 * mapout_interval() - print what changed between two reads
 * @out: stream
 * @sz: the symbolizer
 * @n: interval number, from 1
 * @prev: the earlier read
 * @cur: the later read
 * @seconds: measured time between the reads, > 0
 * @top: most stacks to print, 0 for all that changed
 *
 * Return: 0, or -ENOMEM.
 */
int mapout_interval(FILE *out, const struct symbolizer *sz, unsigned long n,
		    const struct stackmap_snapshot *prev,
		    const struct stackmap_snapshot *cur, double seconds,
		    size_t top);

#endif /* FGDECODE_MAPOUT_H */
