/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's pipeline: read a trace.dat with libtracecmd.
 *
 * A trace holds the top buffer and any number of buffer instances
 * (trace-cmd record -B NAME), each with its own per-CPU ring buffers.  The
 * reader calls every (buffer, CPU) pair a "stream", keeps the next unread
 * record of every stream (its "head") and hands records out in time order
 * over all streams (lowest timestamp first; on a tie the top buffer before
 * the instances, then the lowest CPU, as tracecmd_iterate_events_multi()
 * does).  Because it owns the heads, a caller can look at the next records
 * of one stream (reader_peek(), reader_peek_at(): up to READER_LOOKAHEAD
 * ahead) and consume one out of order (reader_take_at()): that is how a
 * stack_cookie or kernel_stack is attached to the event before it on the
 * same CPU of the same buffer, past the records an interrupt nested in
 * between.  Only the public libtracecmd API is
 * used.
 *
 * Besides the stackmap events (enum tepstack_kind), the reader recognises
 * ftrace's own kernel_stack event (trace-cmd record -O stacktrace) as kind
 * READER_KSTACK.
 */
#ifndef FGDECODE_READ_H
#define FGDECODE_READ_H

#include <trace-cmd.h>

#include "tep_stack.h"
#include "tracedat_extent.h"
#include "tracedat_salvage.h"


/*
 * What a record is to the decoder: one of the stackmap events (the values
 * of enum tepstack_kind), ftrace's kernel_stack, or any other event.
 */
enum reader_kind {
	READER_NONE = -1,		/* any other event; or no record */
	READER_COOKIE = TEPSTACK_COOKIE,
	READER_DEFINE = TEPSTACK_DEFINE,
	READER_FALLBACK = TEPSTACK_FALLBACK,
	READER_KSTACK = TEPSTACK_NR_KINDS,	/* ftrace:kernel_stack */
	READER_NR_KINDS,
};
/* Frames of a kernel_stack record beyond this many are dropped. */
#define READER_KSTACK_MAX	256
/* Records of one stream that reader_peek_at() can look ahead. */
#define READER_LOOKAHEAD	64

/* The next unread records of one stream, oldest first. */
struct reader_queue {
	struct tep_record *rec[READER_LOOKAHEAD];
	int n;
	bool eof;		/* no record after rec[n - 1] */
	/* Of the records libtracecmd gave since the rewind (reader_unread()): */
	size_t read;
	unsigned long long first_offset;	/* record->offset of the first */
	unsigned long long last_offset;		/* and of the last */
	unsigned long long last_ts;
	bool page_open;		/* the last record does not end its page */
	size_t short_pages;	/* pages whose records ended before it */
	unsigned long long short_ts;		/* the first such page's last */
	unsigned long long short_offset;	/* record: ts and offset */
	size_t bad_records;	/* of no known event, or back in time */
	unsigned long long bad_ts;		/* the record before the first */
};

/* One buffer of the trace: the top one (index 0) or an instance. */
struct reader_buffer {
	struct tracecmd_input *handle;
	const char *name;		/* NULL for the top buffer */
	int nr_cpus;
};

/* The fields of ftrace:kernel_stack: a frame count and the caller[] array. */
struct reader_kstack {
	struct tep_event *event;
	struct tep_format_field *size;
	struct tep_format_field *caller;
};

struct reader {
	const char *path;
	/*
	 * When @path was cut short after its CPU data: the repaired copy
	 * libtracecmd reads instead (salvage.fd >= 0; file names it as
	 * /proc/self/fd/N).  Else salvage.fd is -1 and file is @path.
	 */
	struct stackmap_salvage salvage;
	char salvage_path[32];
	const char *file;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	unsigned long file_version;		/* 6 or 7 */
	unsigned long long page_size;		/* the file header's */
	int nr_cpus;				/* of the top buffer */
	int nr_buffers;				/* top + instances */
	struct reader_buffer *buffers;		/* [nr_buffers] */
	int nr_streams;				/* sum of their CPUs */
	struct reader_queue *queues;		/* [nr_streams] */
	int *stream_buffer;			/* [nr_streams] buffer index */
	int *stream_cpu;			/* [nr_streams] CPU */
	/* Event id of each kind (READER_KSTACK too), -1 when absent. */
	int ids[READER_NR_KINDS];
	struct tepstack_fields fields[TEPSTACK_NR_KINDS];
	struct reader_kstack kstack;
	/*
	 * Offsets of common_type and common_flags in every record when they
	 * are a u16 in host byte order and a u8 (reader_type() and
	 * reader_context() then read them in place), else -1.
	 */
	int type_offset;
	int flags_offset;
	/* Each CPU's data as the headers give it, read by reader_unread(). */
	struct stackmap_extents extents;
	int extents_ret;		/* 1: not read yet */
};

/**
 * reader_has_stackmap() - does the trace hold stackmap's events (the format
 * of stack_cookie, stack_define or stack_fallback)?
 * @r: an open reader
 */
bool reader_has_stackmap(const struct reader *r);

/**
 * reader_check() - can @path be opened as a trace.dat at all?
 * @path: the file
 * @err: when not, one line (no newline) saying why: it cannot be opened, is
 *	a directory, a pipe or device (libtracecmd seeks), a stack_map listing,
 *	or its trace.dat header is missing or cut short
 *
 * What reader_open() checks first, without reading the trace: a command
 * that reads several files checks them all before decoding any.  A FIFO
 * is refused before it is opened (open() would wait for its writer).
 *
 * Return: 0, or with @err set: the -errno of open() or fstat(); -EISDIR;
 * -ESPIPE for a pipe or device; -EINVAL for a stack_map listing; -EBADMSG
 * for a missing or cut trace.dat header.
 */
int reader_check(const char *path, struct sm_err *err);

/**
 * reader_open() - open a trace.dat and check its stackmap event formats
 * @r: filled in
 * @path: the file
 * @flags: READER_NO_PLUGINS, or 0
 * @err: on failure, one line (no newline) saying what is wrong with @path
 *
 * Loads the libtraceevent plugins as `trace-cmd report` does, so that
 * events print the same (libtracecmd's loader: the system directory,
 * $TRACEEVENT_PLUGIN_DIR, ~/.local/lib/traceevent/plugins), unless @flags
 * has READER_NO_PLUGINS (trace-cmd report -N).  A handler of a stackmap
 * or kernel_stack event is dropped: those print their fields, fgdecode
 * prints their stacks.  Opens every buffer instance the trace holds.  A
 * stackmap event absent from the trace is fine; one present with a missing
 * or misshapen field is an error (so is a kernel_stack event without a
 * numeric 'size' or an array 'caller').  Leaves the reader positioned at the
 * start of the trace.
 *
 * A version 7 file cut short after (or inside) its CPU data is read from
 * the copy stackmap_tracedat_salvage() rebuilds in $TMPDIR (default /tmp):
 * reader_salvaged() then says what was lost, and @r->file names the copy
 * for readers of the trace's options.  When no copy can be made, @err says
 * "truncated: ...; not decodable: WHY".
 *
 * Return: 0, or with @err set (@r needs no reader_close()): reader_check()'s
 * errors; -EBADMSG when libtracecmd refuses the file (or its repaired
 * copy) or would read outside an option (stackmap_tracedat_check_strings());
 * -EIO when it cannot read a buffer
 * instance; -ENOENT or -EPROTO for a stackmap event with a missing or
 * misshapen field, -EPROTO for such a kernel_stack event; -ENOMEM.
 */
int reader_open(struct reader *r, const char *path, unsigned int flags,
		struct sm_err *err);

/* reader_open() flags. */
#define READER_NO_PLUGINS	(1U << 0)	/* load no libtraceevent plugin */

/**
 * reader_close() - release everything reader_open() took
 * @r: an opened reader
 */
void reader_close(struct reader *r);

const char *reader_uname(const struct reader *r);

/**
 * reader_salvaged() - was the trace decoded from a repaired copy?
 * @r: an open reader
 * @what: when it was, one line: where the file ends, which options were
 *	lost, how the CPU data was placed again, and what a cut inside the
 *	data took (chunks and bytes of that CPU)
 *
 * Return: true when reader_open() read a salvaged copy of the trace.
 */
bool reader_salvaged(const struct reader *r, struct sm_err *what);

/**
 * reader_type() - the event id of a record: tep_data_type(), without its
 * lookups when common_type is a u16 in host byte order (every Linux trace)
 * @r: the reader
 * @record: a record of the trace
 *
 * Return: the id (common_type), or what tep_data_type() returns.
 */
int reader_type(const struct reader *r, struct tep_record *record);

/**
 * reader_context() - tepstack_context() of a record, read in place when
 * common_flags is a u8 (every Linux trace)
 * @r: the reader
 * @record: a record of the trace
 *
 * Return: common_flags & STACKMAP_CONTEXT_FLAGS (events.h).
 */
unsigned int reader_context(const struct reader *r, struct tep_record *record);

/**
 * reader_rewind() - position every CPU at its first record again
 * @r: the reader
 */
void reader_rewind(struct reader *r);

/**
 * reader_next() - take the earliest record over all streams
 * @r: the reader
 * @stream: set to the record's stream (0..nr_streams-1)
 *
 * Return: the record (release with reader_put()), or NULL at the end.
 */
struct tep_record *reader_next(struct reader *r, int *stream);

/**
 * reader_peek() - the next record of one stream, left in place
 * @r: the reader
 * @stream: 0..nr_streams-1
 *
 * Return: the record (still owned by the reader), or NULL at the end of
 * that stream.
 */
struct tep_record *reader_peek(struct reader *r, int stream);

/**
 * reader_peek_at() - a later record of one stream, left in place
 * @r: the reader
 * @stream: 0..nr_streams-1
 * @i: 0 for the next record (reader_peek()), 1 for the one after, ...,
 *	up to READER_LOOKAHEAD - 1
 *
 * Return: the record (still owned by the reader), or NULL past the end of
 * the stream or of the lookahead.
 */
struct tep_record *reader_peek_at(struct reader *r, int stream, int i);

/**
 * reader_take_at() - take a later record of one stream out of its order
 * @r: the reader
 * @stream: 0..nr_streams-1
 * @i: as for reader_peek_at()
 *
 * The records before it stay where they are, and come next.
 *
 * Return: the record (release with reader_put()), or NULL.
 */
struct tep_record *reader_take_at(struct reader *r, int stream, int i);

/**
 * reader_take() - take the next record of one stream
 * @r: the reader
 * @stream: 0..nr_streams-1
 *
 * Return: the record (release with reader_put()), or NULL.
 */
struct tep_record *reader_take(struct reader *r, int stream);

/**
 * reader_buffer_name() - name of the buffer instance a stream belongs to
 * @r: the reader
 * @stream: 0..nr_streams-1
 *
 * Return: the instance name, or NULL for the top buffer.
 */
const char *reader_buffer_name(const struct reader *r, int stream);

/**
 * reader_buffer_width() - length of the trace's longest instance name
 * @r: the reader
 *
 * Return: the length in bytes, 0 when the trace has no buffer instance.
 */
int reader_buffer_width(const struct reader *r);

/**
 * reader_read_kstack() - the frames of an ftrace kernel_stack record
 * @r: the reader (the trace has the event: reader_kind() said READER_KSTACK)
 * @record: the record
 * @frames: filled with up to READER_KSTACK_MAX addresses, innermost first
 * @depth: set to the number of frames stored
 * @err: set on failure, one line
 *
 * The frame count is the record's 'size' field, bounded by what the record
 * holds; a trailing ULONG_MAX or 0 entry (older kernels' end marker) ends the
 * stack.  Frames past READER_KSTACK_MAX are dropped.
 *
 * Return: 0, or -EFAULT when the record is too short for its fields.
 */
int reader_read_kstack(const struct reader *r, const struct tep_record *record,
		       sm_u64 *frames, sm_u32 *depth, struct sm_err *err);

/** reader_put() - release a record from reader_next() or reader_take(). */
void reader_put(struct tep_record *record);

/**
 * reader_kind() - which stackmap event a record is
 * @r: the reader
 * @record: a record of @r
 *
 * Return: its kind; READER_NONE for any other event.
 */
enum reader_kind reader_kind(const struct reader *r,
			     struct tep_record *record);

/**
 * reader_fields() - the checked fields of a stackmap event
 * @r: the reader
 * @kind: READER_COOKIE, READER_DEFINE or READER_FALLBACK
 *
 * Return: the fields, or NULL when the trace does not hold that event (or
 * @kind is another kind).
 */
const struct tepstack_fields *reader_fields(const struct reader *r,
					    enum reader_kind kind);

/**
 * reader_unread() - did libtracecmd stop before the end of a stream's data?
 * @r: the reader, after a pass that read @stream to its end
 * @stream: 0..nr_streams-1
 * @what: when it did, one line: the buffer (if an instance) and CPU, the
 *	time stamp of the last record read, where in the CPU's data the
 *	reading stopped and how many bytes (and compressed chunks) of it the
 *	headers give past that
 *
 * libtracecmd ends a CPU's records at the first page it cannot read (a
 * compressed chunk that does not decompress, a page whose header is bad),
 * as it ends them at the end of the data: tracecmd_read_data() returns
 * NULL either way.  So the last record read is compared with the last one
 * tracecmd_read_cpu_last() finds from the end of the data
 * (trace-input.c: it reads the CPU's last page, and the page before while
 * a page holds no record), and with the extent the file's headers give
 * the CPU (stackmap_tracedat_extents()).  And libtraceevent ends a page's
 * records at the first record header that runs past the page's commit
 * (a damaged record, or a compressed chunk that decompressed into other
 * bytes: zstd keeps no checksum), then goes on at the next page: each
 * page's last record is checked to end where the page's data does.  Such
 * bytes also make records of no event the trace has a format for, and
 * time stamps that go back: a CPU's ring buffer holds neither.  A CPU
 * whose headers give it no data, and a stream the pass did not read to its
 * end, are not short.
 *
 * Return: true when data of @stream was not read (@what says what).
 */
bool reader_unread(struct reader *r, int stream, struct sm_err *what);

/* What the ring buffers lost while recording, from the stored CPU stats. */
struct reader_losses {
	unsigned long long dropped;	/* refused writes: a full
					 * non-overwriting buffer */
	unsigned long long overrun;	/* overwritten: an overwriting one */
	int cpus;			/* CPU stats read */
};

/**
 * reader_losses() - sum the "dropped events" and "overrun" counts of the CPU
 * stats trace-cmd stored in the trace (what `trace-cmd report --stat` lists;
 * per_cpu/cpuN/stats in tracefs)
 * @r: the opened trace
 * @out: filled in; all 0 when the trace stores no CPU stats
 *
 * Each buffer's stats are read once (instances may share the top buffer's).
 */
void reader_losses(struct reader *r, struct reader_losses *out);

#endif /* FGDECODE_READ_H */
