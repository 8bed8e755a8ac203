/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode, stage 1: read a trace.dat with libtracecmd.
 *
 * The reader keeps the next unread record of every CPU (its "head") and hands
 * records out in time order (lowest timestamp first, lowest CPU on a tie, as
 * tracecmd_iterate_events() does).  Because it owns the heads, a caller can
 * look at the next record of one CPU (reader_peek()) and consume it out of
 * order (reader_take()): that is how a stack_cookie is attached to the event
 * before it.  Only the public libtracecmd API is used.
 */
#ifndef FGDECODE_READ_H
#define FGDECODE_READ_H

#include <trace-cmd.h>

#include "stackmap/tep_stack.h"

#define READER_ERR_LEN	256

struct reader {
	const char *path;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	int nr_cpus;
	struct tep_record **heads;		/* [nr_cpus] */
	/* Event id of each stackmap event, -1 when the trace lacks it. */
	int ids[TEPSTACK_NR_KINDS];
	struct tepstack_fields fields[TEPSTACK_NR_KINDS];
};

/**
 * reader_open() - open a trace.dat and check its stackmap event formats
 * @r: filled in
 * @path: the file
 * @err: on failure, one line (no newline) saying what is wrong with @path
 *
 * Loads no plugins.  A stackmap event absent from the trace is fine; one
 * present with a missing or misshapen field is an error.  Leaves the reader
 * positioned at the start of the trace.
 *
 * Return: 0, or -1 with @err set (@r needs no reader_close()).
 */
int reader_open(struct reader *r, const char *path, char err[READER_ERR_LEN]);

/**
 * reader_close() - release everything reader_open() took
 * @r: an opened reader
 */
void reader_close(struct reader *r);

/**
 * reader_rewind() - position every CPU at its first record again
 * @r: the reader
 */
void reader_rewind(struct reader *r);

/**
 * reader_next() - take the earliest record over all CPUs
 * @r: the reader
 *
 * Return: the record (release with reader_put()), or NULL at the end.
 */
struct tep_record *reader_next(struct reader *r);

/**
 * reader_peek() - the next record of one CPU, left in place
 * @r: the reader
 * @cpu: 0..nr_cpus-1
 *
 * Return: the record (still owned by the reader), or NULL at the end of
 * that CPU.
 */
struct tep_record *reader_peek(struct reader *r, int cpu);

/**
 * reader_take() - take the next record of one CPU
 * @r: the reader
 * @cpu: 0..nr_cpus-1
 *
 * Return: the record (release with reader_put()), or NULL.
 */
struct tep_record *reader_take(struct reader *r, int cpu);

/** reader_put() - release a record from reader_next() or reader_take(). */
void reader_put(struct tep_record *record);

/**
 * reader_kind() - which stackmap event a record is
 * @r: the reader
 * @record: a record of @r
 *
 * Return: an enum tepstack_kind, or -1 for any other event.
 */
int reader_kind(const struct reader *r, struct tep_record *record);

/**
 * reader_fields() - the checked fields of a stackmap event
 * @r: the reader
 * @kind: an enum tepstack_kind
 *
 * Return: the fields, or NULL when the trace does not hold that event.
 */
const struct tepstack_fields *reader_fields(const struct reader *r, int kind);

#endif /* FGDECODE_READ_H */
