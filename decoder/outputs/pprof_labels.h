/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --pprof: an event's own fields as the labels of its sample.
 *
 * Which fields, and how (pprof's Label: a key, then a string or a number
 * with its unit):
 *  - a string (char[N], __data_loc char[]): a string label, up to its NUL
 *    (sched_switch's prev_comm, next_comm);
 *  - a field the format prints through __print_flags/__print_symbolic
 *    (symbolic.h): two labels, a string label of what it prints under its
 *    name (prev_state "R+", gfp_flags "GFP_KERNEL|__GFP_ZERO") and a
 *    number label of its value under NAME_raw (prev_state_raw 0,
 *    gfp_flags_raw 3520), the number as another number below.  Two keys,
 *    not a string and a number under one: go tool pprof -tags lists a
 *    key's string and number values in one table, each sample counted
 *    twice there, and -tagfocus can then pick either by key
 *    (-tagfocus 'gfp_flags=^GFP_KERNEL$', -tagfocus gfp_flags_raw=3264);
 *  - another number: a number label, signed where the format says so,
 *    with weight_unit()'s unit of its name ("bytes" for bytes_alloc,
 *    bytes_req, len, size; "nanoseconds" for runtime, delay, *_ns;
 *    "count" otherwise: pprof drops a number label of value 0 that has no
 *    unit, as next_pid 0 of a switch to the idle task);
 *  - left out: addresses (a pointer type, a long, a field the format casts
 *    to a pointer, as kmalloc's call_site and ptr: one value per event, no
 *    use as a label), other arrays, fields the record is too short for.
 * A field named as one of the labels every sample has (event, comm, pid,
 * cpu: sched_waking's pid is the woken task) is given as field_NAME.
 *
 * Each distinct set of labels is kept once and has an id (0, 1, ...): the
 * samples of one stack, event, pid and CPU are merged only when their
 * label sets are the same.
 */
#ifndef FGDECODE_PPROF_LABELS_H
#define FGDECODE_PPROF_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

/* The label sets met so far; zero-initialised: none. */
struct pp_labels {
	void *tree;		/* tsearch() root of struct pp_labelset */
	struct pp_labelset **sets;	/* by id */
	size_t nr, alloc;
	struct trace_seq buf;	/* the set being built */
	bool buf_init;
};

/**
 * pp_labels_of() - the id of the label set of @record's fields
 * @l: the sets
 * @tep: the trace's handle
 * @record: an event record
 * @id: set to the id
 *
 * Return: 0, or -ENOMEM.
 */
int pp_labels_of(struct pp_labels *l, struct tep_handle *tep,
		 struct tep_record *record, uint32_t *id);

/* One label of a set: a string (@str) or a number (@num, @unit or NULL). */
struct pp_label {
	const char *key;
	const char *str;	/* NULL: a number */
	int64_t num;
	const char *unit;	/* NULL: none */
};

/**
 * pp_labels_count() - the number of labels in set @id
 * @l: the sets
 * @id: an id pp_labels_of() gave
 */
size_t pp_labels_count(const struct pp_labels *l, uint32_t id);

/**
 * pp_labels_get() - the labels of set @id, in the order of the fields
 * @l: the sets
 * @id: an id pp_labels_of() gave
 * @out: pp_labels_count() entries, pointing into @l (valid until
 *	pp_labels_fini())
 */
void pp_labels_get(const struct pp_labels *l, uint32_t id,
		   struct pp_label *out);

/** pp_labels_fini() - free the sets. */
void pp_labels_fini(struct pp_labels *l);

#endif /* FGDECODE_PPROF_LABELS_H */
