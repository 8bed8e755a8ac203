/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --pprof FILE, a gzip-compressed pprof profile
 * (profile.proto: perftools.profiles.Profile, encoded by protobuf-c,
 * compressed by zlib) for go tool pprof, Pyroscope, Parca, Grafana and
 * Perfetto.
 *
 * One Sample per distinct (stack, event, pid, CPU, fields' labels) the
 * shown events carried, with the string labels "event" (SYSTEM:NAME),
 * "comm", "pid" and "cpu", then the event's own fields as labels
 * (pprof_labels.h: strings, numbers with their unit, flags and symbols as
 * printed; addresses left out).  Its values follow the sample types: "events"/"count" (the number
 * of events), then, when a weight is in use, the weight's own type and unit
 * ("bytes"/"bytes", "off_cpu"/"nanoseconds", ...).
 *
 * Stacks are leaf first, as pprof wants them.  Every distinct address is
 * one Location (its address, its mapping) whose Line entries are the
 * frames symbolize_addr() gives it: inlined functions first, each with the
 * DWARF file and line when --vmlinux/--modules give them, the physical
 * function last.  An address no symbol covers is the function "0xADDR".
 * A marker (a stale, unknown or conflicting cookie, a corrupt record) is one
 * Location without mapping or address whose function is the marker's
 * --folded name ("[stale cookie]", ...); a truncated stack gets the root
 * frame "[truncated]".  An entry's own root frames (sset_intern_root():
 * --off-cpu's state and task) are Locations of the same kind at the root
 * end.  With --wakers a "--" Location follows them, then the waker's
 * stack as the blocked one (its addresses, its marker), or the Location
 * "[no wakeup in the trace]"; the waker's comm is the string label
 * "waker".  Orphan stacks are carried by no event and are left out, as in
 * --top.
 *
 * Mappings: "[kernel.kallsyms]" (or the --vmlinux path) and one "[MODULE]"
 * per module a frame falls in, named from the trace's kallsyms; each covers
 * the lowest to the highest address the profile holds in it
 * (memory_limit = highest + 1), with has_functions set, so no consumer
 * tries to symbolize it again.
 */
#ifndef FGDECODE_PPROF_H
#define FGDECODE_PPROF_H

#include <stdio.h>

#include <event-parse.h>

#include "sm_err.h"
#include "stackset.h"
#include "symbolize.h"

struct pprof;

/**
 * pprof_new() - an empty profile
 * @weight_type: the weight's sample type ("bytes", ...), or NULL when no
 *	weight is in use (then samples carry the event count only)
 * @weight_unit: its unit as sset_weight_unit() gives it ("bytes", "ns";
 *	"ns" is written "nanoseconds" and "" "count", pprof's names);
 *	ignored when @weight_type is NULL
 *
 * Return: the profile, or NULL when out of memory.
 */
struct pprof *pprof_new(const char *weight_type, const char *weight_unit);

/**
 * pprof_add() - count one event carrying a stack
 * @pp: the profile
 * @tep: the trace's handle (event name, pid, comm)
 * @record: the event
 * @e: its interned stack
 * @weight: its weight (in @weight_unit; ignored without a weight)
 *
 * Return: 0, or -ENOMEM.
 */
int pprof_add(struct pprof *pp, struct tep_handle *tep,
	      struct tep_record *record, const struct sset_entry *e,
	      sm_u64 weight);

/**
 * pprof_add_pairs() - count every (event, stack) pair of @set as one sample
 * @pp: the profile
 * @set: the counted stacks
 *
 * For the outputs that count outside pprof_add(): --off-cpu charges a
 * stack when its task comes back, not at an event, so its samples carry
 * only the "event" label (no comm, pid or cpu; --task-root puts the task
 * in the stack), and with --wakers "waker" when a wakeup ended it.
 * Orphans are left out.
 *
 * Return: 0, or -ENOMEM.
 */
int pprof_add_pairs(struct pprof *pp, const struct stackset *set);

/**
 * pprof_set_duration() - the profile's duration_nanos
 * @pp: the profile
 * @ns: from the first record of the trace to its last, in ns of the trace
 *	clock (0, the default: not written)
 */
void pprof_set_duration(struct pprof *pp, sm_u64 ns);

/**
 * pprof_write() - write the profile, gzip-compressed
 * @pp: the profile
 * @sz: the symbolizer (its kallsyms list names the modules)
 * @set: the set the entries given to pprof_add() belong to
 * @path: the file to write, "-" for standard output
 * @mapping_name: the name of the vmlinux mapping, or NULL for
 *	"[kernel.kallsyms]"
 * @err: on failure, one line naming @path
 *
 * Return: 0, or -ENOMEM, or -EIO when @path cannot be written (@err set).
 */
int pprof_write(struct pprof *pp, const struct symbolizer *sz,
		const struct stackset *set, const char *path,
		const char *mapping_name, struct sm_err *err);

/** pprof_free() - free a profile (NULL ok). */
void pprof_free(struct pprof *pp);

#endif /* FGDECODE_PPROF_H */
