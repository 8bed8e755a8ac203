/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kss: the stacks of one KernelShark data stream, for the stackmap
 * KernelShark plugin (kshark/).  Independent of KernelShark and Qt: it sees
 * libtraceevent records, as libkshark's event handlers hand them on while a
 * trace.dat is loaded, and answers, for a record's file offset, the text of
 * its stack.
 *
 * Loading.  libkshark reads a trace CPU by CPU, each in file order, and
 * calls the plugin's handler for every record (kss_add()).  kss keeps a
 * small summary of each (type, task, context, lost events before it, which
 * stack it carries) per CPU, defines each stack_define's stack in a table,
 * and keeps the frames of stack_fallback and ftrace kernel_stack records.
 * When libkshark loads the trace again (a plugin or filter changed), the
 * first record of the new pass comes with an offset seen before: kss starts
 * afresh.
 *
 * Pairing.  On the first question after a load, every event of every CPU is
 * given its stack record by the rule of include/stackmap/events.h ("Which
 * event a stack belongs to"), lib/pairing.c's, driven as fgdecode drives it
 * (decoder/pipeline/pair.c): the event stepped through the records after it
 * (sm_pairing_step()) that no event before it took, at most fgdecode's
 * lookahead, once all definitions are known (fgdecode reads them all
 * first).  An ftrace kernel_stack (trace-cmd record -T) names no owner: it
 * is the stack of the event before it in its context.
 *
 * Resolving.  A cookie resolves from the definitions, then from the map
 * snapshot stored in the trace.dat (read once, on first need), for exactly
 * its generation and slot (lib/snapshot_table.h): never to another stack.
 *
 * Text.  kss_text() gives what fgdecode prints under an event: one
 * "=> SYMBOL+0xOFF/0xSIZE (ADDR)" line per frame (symbols from the trace's
 * kallsyms), "=> <stale cookie gen G slot S>" (or unknown, conflicting)
 * for a cookie that names no stack, "=> ... [truncated]", and
 * "<orphan stack of OWNER>" above the stack of a stack record no event took.
 * Not thread-safe: libkshark loads and KernelShark asks on one thread.
 */
#ifndef STACKMAP_KSS_H
#define STACKMAP_KSS_H

#include <event-parse.h>

#include "stackmap/types.h"

struct kss;

/**
 * kss_new() - the stacks of one trace
 * @tep: the trace's handle (its kallsyms and event formats)
 * @file: the trace.dat, for its map snapshot; NULL for none
 *
 * Return: the state, or NULL when out of memory.
 */
struct kss *kss_new(struct tep_handle *tep, const char *file);

/** kss_free() - free @k (NULL is fine) */
void kss_free(struct kss *k);

/**
 * kss_add() - note one record as it is loaded
 * @k: the state
 * @record: the record (read now; not kept)
 *
 * Return: 0, or -ENOMEM (the record is not known then: no stack is shown
 * for it, and none paired across it).
 */
int kss_add(struct kss *k, struct tep_record *record);

/**
 * kss_text() - the stack of the record at @offset, as text
 * @k: the state
 * @offset: the record's offset in the file (kshark_entry.offset)
 *
 * Return: a malloc'ed text, lines separated by '\n' without a last one:
 * the frames of the record's own stack (an event's paired stack record, a
 * stack record's stack, a definition's stack), or one line that says why
 * there is none ("<no stack>" ...); NULL when out of memory.
 */
char *kss_text(struct kss *k, sm_u64 offset);

/* What a record is to the stacks (kss_role()). */
enum kss_role {
	KSS_ROLE_NONE,		/* not a record kss saw */
	KSS_ROLE_EVENT,		/* an event with no stack */
	KSS_ROLE_OWNER,		/* an event with its stack record */
	KSS_ROLE_TAKEN,		/* a stack record an event took */
	KSS_ROLE_ALONE,		/* a stack record no event took (an orphan
				 * when it names an owner) */
	KSS_ROLE_DEFINE,	/* a stack_define */
};

/**
 * kss_role() - what the record at @offset is to the stacks
 * @k: the state
 * @offset: the record's offset
 */
enum kss_role kss_role(struct kss *k, sm_u64 offset);

#endif /* STACKMAP_KSS_H */
