/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --top N, the N stacks of most weight: carried by the
 * most events, or with --weight of the largest sum of the field.
 *
 *   fgdecode: top 2 of 44 distinct stacks over 1804 events with a stack
 *   #1 412 events 22.84% in sched_switch; by sh-113 (400), ls-114 (10) and 1 other task (2)
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
 * was carried by more than one kind, and their tasks (COMM-PID, most first,
 * TOP_TASKS of them named, with their counts when more than one).
 * (--off-cpu counts intervals: "over N intervals", "(K intervals)", and
 * prints its nanoseconds for people too: "#1 1.00 s (1004150420 ns) 34.05%
 * (4 intervals); by sh-113 (3), ls-209 (1)": the tasks of the intervals,
 * no event, all being sched_switch's.)  A count of 1 names its noun in
 * the singular ("top 1 of 1 distinct stack", "1 interval").
 * Counts are over the events shown (after filters) that carry a stack; the
 * percentage is of the weight of all of those.  Ties are broken by first
 * appearance.  An unresolved cookie counts under one line per kind
 * ("=> <stale cookie>").  Each stack is printed with the same lines as the
 * default output (a truncated one ends with "=> ... [truncated]"), then its
 * root frames, if any (--off-cpu: "=> [S]", "=> TASK"), outermost last.
 * With --wakers the line ends "; woken by COMM" (the task that recorded
 * the wakeup) and the stack goes on past "=> --" with the waker's stack,
 * printed the same way, or "=> [no wakeup in the trace]".
 * Orphan stacks are carried by no event and are not counted here (the
 * summary counts them).
 */
#ifndef FGDECODE_TOP_H
#define FGDECODE_TOP_H

#include <stdio.h>

#include <event-parse.h>

#include "hashtab.h"
#include "stackset.h"
#include "symbolize.h"

/* Tasks named per stack; the others are counted together. */
#define TOP_TASKS	3

/**
 * struct top_task - the events of one task carrying one stack
 * @key: top_task_key(): the stack's sset id + 1 and the pid (never 0)
 * @count: how many
 */
struct top_task {
	sm_u64 key;
	size_t count;
};

static inline sm_u64 top_task_key(sm_u32 stack_id, int pid)
{
	return (sm_u64)(stack_id + 1) << 32 | (sm_u32)pid;
}

static inline sm_u32 top_task_stack(const struct top_task *t)
{
	return (sm_u32)(t->key >> 32) - 1;
}

static inline int top_task_pid(const struct top_task *t)
{
	return (int)(sm_u32)t->key;
}

/**
 * top_print() - print the @n hottest stacks of @set
 * @out: stream
 * @sz: the symbolizer
 * @tep: the trace's handle (event names, comms)
 * @set: stacks counted with sset_count()
 * @tasks: struct top_task elements keyed by top_task_key(), or NULL: no
 *	task named
 * @n: how many, at least 1
 *
 * Return: 0, or -ENOMEM.
 */
int top_print(FILE *out, const struct symbolizer *sz, struct tep_handle *tep,
	      struct stackset *set, const struct sm_hashtab *tasks, size_t n);

#endif /* FGDECODE_TOP_H */
