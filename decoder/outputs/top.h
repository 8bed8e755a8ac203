/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --top N, the N stacks of most weight: carried by the
 * most events, or with --weight of the largest sum of the field.
 *
 *   fgdecode: top 2 of 44 distinct stacks over 1804 events with a stack
 *   #1 412 events 22.84% in sched_switch
 *       => __schedule+0x4f8/0xa00 (ffffffff868528c8)
 *       ...
 *   #2 ...
 *
 * Weighed (sset_weighted()), the header names what was summed and the total,
 * and each stack gives its weight in the unit (or, when that is not known,
 * in the name of the field) and its event count:
 *
 *   fgdecode: top 2 of 44 distinct stacks by bytes_alloc over 1804 events with a stack, 52344 bytes in all
 *   #1 4096 bytes 7.83% (12 events) in kmalloc (8), kmem_cache_alloc (4)
 *
 * Each stack names the events that carried it, with their counts when it
 * was carried by more than one kind.  (--off-cpu counts intervals: "over N
 * intervals", "(K intervals)", and prints its nanoseconds for people too:
 * "#1 1.00 s (1004150420 ns) 34.05% (4 intervals)".)
 * Counts are over the events shown (after filters) that carry a stack; the
 * percentage is of the weight of all of those.  Ties are broken by first
 * appearance.  An unresolved cookie counts under one line per kind
 * ("=> <stale cookie>").  Each stack is printed with the same lines as the
 * default output (a truncated one ends with "=> ... [truncated]"), then its
 * root frames, if any (--off-cpu: "=> [S]", "=> TASK"), outermost last.
 * Orphan stacks are carried by no event and are not counted here (the
 * summary counts them).
 */
#ifndef FGDECODE_TOP_H
#define FGDECODE_TOP_H

#include <stdio.h>

#include <event-parse.h>

#include "stackset.h"
#include "symbolize.h"

/**
 * top_print() - print the @n hottest stacks of @set
 * @out: stream
 * @sz: the symbolizer
 * @tep: the trace's handle (event names)
 * @set: stacks counted with sset_count()
 * @n: how many, at least 1
 *
 * Return: 0, or -ENOMEM.
 */
int top_print(FILE *out, const struct symbolizer *sz, struct tep_handle *tep,
	      struct stackset *set, size_t n);

#endif /* FGDECODE_TOP_H */
