/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_options: find the map snapshot, and our other options, in a
 * trace.dat by walking its v7 option sections.
 */
#ifndef LIBSTACKMAP_TRACEDAT_OPTIONS_H
#define LIBSTACKMAP_TRACEDAT_OPTIONS_H

#include <stddef.h>

#include "snapshot.h"
#include "sm_err.h"

/* A trace.dat starts with these bytes: 0x17 0x08 'D' then "tracing". */
#define STACKMAP_TRACEDAT_MAGIC		"\027\010\104tracing"
#define STACKMAP_TRACEDAT_MAGIC_LEN	10

/**
 * stackmap_tracedat_check_header() - does a trace.dat's header hold every
 * field that comes before its first section?
 * @fd: the file, open for reading
 * @err: set when not: "offset N: FIELD: beyond end of file (S bytes)",
 *	"offset N: FIELD: unterminated string", "offset 0: magic: not a
 *	trace.dat file", "offset N: page size: P: not a power of two" (no
 *	file name)
 *
 * The fields tracecmd_alloc_fd() reads first (lib/trace-cmd/trace-input.c,
 * trace-cmd 3.1.6): magic, version, endianness, long size and page size,
 * and from version 7 the compression name and version and the first
 * options offset.  libtracecmd 3.1.6 frees twice when a version 7 file ends
 * inside that offset, so readers check it first.
 *
 * Return: 0; -EBADMSG for a missing or malformed field; -errno when the
 * file cannot be read.
 */
int stackmap_tracedat_check_header(int fd, struct sm_err *err);

/**
 * stackmap_snapshot_read_tracedat() - find and decode the snapshot in a trace
 * @path: a trace.dat
 * @out: filled on success (free with stackmap_snapshot_free())
 * @err: set on failure: "PATH: ..." naming the offset and field
 *
 * Walks the chain of v7 option sections (the layout lib/trace-cmd/
 * trace-input.c of trace-cmd 3.1.6 reads in tracecmd_alloc_fd(),
 * read_section_header(), handle_options() and handle_option_done()); the
 * last STACKMAP_SNAPSHOT_OPTION found wins.
 *
 * Return: 0; -ENOENT when the file holds no snapshot; -ENOTSUP for a
 * version 6 file (no option sections after the data) or a compressed
 * options section; -EBADMSG for a malformed file or payload (see
 * stackmap_snapshot_decode() for the payload's codes); -errno when it cannot
 * be opened or read.
 */
int stackmap_snapshot_read_tracedat(const char *path,
				    struct stackmap_snapshot *out,
				    struct sm_err *err);

/**
 * stackmap_tracedat_read_option() - the payload of an option
 * @path: a trace.dat
 * @id: the option id (STACKMAP_TGIDS_OPTION, TRACEDAT_OPTION_UNAME, ...)
 * @max_size: the largest payload accepted, in bytes
 * @buf: set to a malloc()ed copy of the last option @id found, with a NUL
 *	byte after its @len bytes (free() it)
 * @len: set to the payload's size in bytes
 * @err: set on failure, as stackmap_snapshot_read_tracedat() does
 *
 * Walks the option chain as stackmap_snapshot_read_tracedat() does, and a
 * version 6 file's one option list.
 *
 * Return: 0; -ENOENT when the file holds no option @id; -ENOTSUP for a
 * compressed options section; -EBADMSG for a malformed
 * file or a payload over @max_size; -ENOMEM; -errno when it cannot be read.
 */
int stackmap_tracedat_read_option(const char *path, unsigned int id,
				  size_t max_size, char **buf, size_t *len,
				  struct sm_err *err);

/**
 * stackmap_tracedat_check_extent() - does every part of a version 7
 * trace.dat lie inside the file?
 * @path: a trace.dat
 * @err: set when not: "PATH: offset N: FIELD: beyond end of file (S bytes)",
 *	"PATH: buffer "NAME" CPU C: data at offset O, B bytes: beyond end of
 *	file (S bytes)", or a section that does
 *
 * Walks the option chain as stackmap_snapshot_read_tracedat() does, and
 * checks the sections its options place (header info to cmdlines) and the
 * CPU data of each BUFFER option (trace-cmd 3.1.6 handle_buffer_option()):
 * what tells a file cut short from one whose contents are corrupt.
 *
 * Return: 0; -EBADMSG for a part beyond the end or a malformed chain;
 * -ENOTSUP for a version 6 file or a compressed options section; -errno.
 */
int stackmap_tracedat_check_extent(const char *path, struct sm_err *err);

/**
 * stackmap_tracedat_check_strings() - does libtracecmd read every option of
 * a trace.dat inside the option's data?
 * @path: a trace.dat
 * @err: set when not: "PATH: offset N: option ID: S bytes with no NUL
 *	ending its string" (an option that is one string), "PATH: offset N:
 *	option ID: FIELD: S bytes with no NUL ending its string" (a string
 *	field: "buffer name", "buffer clock", "guest name"; N is the field's
 *	offset, S the bytes from it to the option's end), "PATH: offset N:
 *	option ID: FIELD: S bytes, fewer than its W" (a fixed field: "buffer
 *	offset", "CPU count"), "PATH: offset N: option ID: FIELD: empty
 *	(libtracecmd would ...)" (CPU stats, process maps), "PATH: offset N:
 *	option 13: guest CPU: C, negative (...)"
 *
 * libtracecmd 1.3 (trace-cmd 3.1.6 handle_options()) reads each option into
 * a buffer of its size, then copies UNAME and VERSION with strdup(), parses
 * DATE, OFFSET, HOOK and TRACECLOCK and a BUFFER's or BUFFER_TEXT's name
 * and (version 7) clock as C strings, reads a CPUCOUNT's int whatever its
 * size and the last byte of a CPUSTAT or PROCMAPS at size - 1 (unsigned):
 * past the option when a NUL or the bytes are missing (fuzzed files did,
 * a UNAME and a BUFFER's clock).  Walks the option chain of a version 7
 * file as handle_options() and handle_option_done() read it, each section
 * up to its DONE option whatever the section's size says (a fuzzed file
 * whose options section said 0 bytes hid a BUFFER name without its NUL
 * from a walk bound by that size), and the option list of a version 6
 * file, after its headers (trace-input.c read_headers_v6()).
 *
 * Return: 0 when every option is read inside it, or when the options
 * cannot be walked (a compressed options section, malformed headers or
 * chain: the other checks and libtracecmd say so); -EBADMSG for one that
 * is not.
 */
int stackmap_tracedat_check_strings(const char *path, struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_OPTIONS_H */
