/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --weight FIELD: what an event weighs, read from one of its
 * numeric fields (bytes_alloc of kmem:kmalloc, nr_sector of
 * block:block_rq_issue, len of net:net_dev_xmit, ...).
 *
 * The field is looked up once per event type and kept.  An event type
 * without the field, or whose field is not a number (a string, an array, a
 * dynamic field), is an error naming the event and the field: a stack is
 * never silently weighed 0.  A signed field's negative value is taken as 0
 * and counted (weight_negative()).
 */
#ifndef FGDECODE_WEIGHT_H
#define FGDECODE_WEIGHT_H

#include <stddef.h>
#include <stdio.h>

#include <event-parse.h>

#include "sm_err.h"
#include "stackset.h"
#include "stackmap/types.h"

/* Event types whose field is remembered; more are looked up every time. */
#define WEIGHT_CACHE	16

struct weight {
	const char *field;		/* the option's value */
	const char *unit;		/* weight_unit() of @field */
	const struct stackset *set;	/* weighed into (the summary) */
	size_t negative;		/* negative values taken as 0 */
	int nr;
	struct {
		int id;
		struct tep_format_field *f;
	} cache[WEIGHT_CACHE];
};

/**
 * weight_init() - weigh events by @field
 * @w: filled in
 * @field: the field name (not copied)
 */
void weight_init(struct weight *w, const char *field);

/**
 * weight_unit() - the unit of a field, from its name
 * @field: a field name
 *
 * Return: "bytes" for bytes_alloc, bytes_req, len, size, bytes;
 * "sectors" for nr_sector, nr_sectors; "ns" for names ending in "_ns" or
 * "delay", "runtime"; "" (not known) for any other.
 */
const char *weight_unit(const char *field);

/**
 * weight_read() - what one event weighs
 * @w: the weight
 * @tep: the trace's handle
 * @record: the event's record (not a stackmap record)
 * @out: set to the field's value (0 when negative)
 * @err: on failure, one line naming the event and the field
 *
 * Return: 0; -ENOENT when the event has no such field; -EINVAL when the
 * field is not a number; -EFAULT when the record is too short for it.
 */
int weight_read(struct weight *w, struct tep_handle *tep,
		struct tep_record *record, sm_u64 *out, struct sm_err *err);

/**
 * weight_summary() - what the weights summed, after fgdecode's summary line
 * @out: stream (fgdecode uses stderr)
 * @w: the weight, its @set weighed (sset_weighted())
 *
 * Prints "fgdecode: weight: sum of NAME, TOTAL UNIT over N events with a
 * stack" (UNIT omitted when not known), then ", K negative values taken
 * as 0" when any field was negative.
 */
void weight_summary(FILE *out, const struct weight *w);

#endif /* FGDECODE_WEIGHT_H */
