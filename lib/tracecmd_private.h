/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libtracecmd calls of trace-cmd 3.1.6 (libtracecmd 1.3.1) that
 * libtracecmd.so.1 exports but declares only in its private header,
 * lib/trace-cmd/include/private/trace-cmd-private.h: the one place in this
 * tree that declares them.  The prototypes are copied from that header of
 * trace-cmd-v3.1.6.
 *
 * The reader calls (lib/trace-cmd/trace-input.c) are fgdecode's
 * (decoder/pipeline/read.c).  The writer calls (lib/trace-cmd/trace-output.c) are
 * record/stackmap-snapshot's: trace-cmd record uses the same sequence to add
 * options after a recording (tracecmd/trace-record.c:
 * tracecmd_get_output_handle_fd, tracecmd_add_option,
 * tracecmd_append_options, tracecmd_output_close).
 */
#ifndef STACKMAP_TRACECMD_PRIVATE_H
#define STACKMAP_TRACECMD_PRIVATE_H

#include <trace-cmd.h>

struct tracecmd_input;
struct tracecmd_output;
struct tracecmd_option;

/* ---- reading (trace-input.c) ---- */

/* File version of the input (6 or 7). */
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);

/* The trace's UNAME option, or NULL. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);

/*
 * The CPU stats trace-cmd stored at the end of the recording (the text of
 * each per_cpu/cpuN/stats file, "CPU: N" first), or NULL.
 */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

/*
 * The last record of @cpu (an index into the handle's CPUs): read from the
 * last page of its data back, to the first page that holds a record; NULL
 * when that page cannot be read, or no page holds one.  Moves @cpu's
 * iterator.  Free it with tracecmd_free_record().
 */
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle,
					  int cpu);

/* ---- writing (trace-output.c) ---- */

/* Output handle appending to an existing trace.dat open O_RDWR; NULL on error. */
struct tracecmd_output *tracecmd_get_output_handle_fd(int fd);

/* File version of the output (6 or 7). */
unsigned long tracecmd_get_out_file_version(struct tracecmd_output *handle);

/* Queue an option (copied); NULL on error. */
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size,
					    const void *data);

/* Write queued options as a new v7 options section at end of file; 0 or -1. */
int tracecmd_append_options(struct tracecmd_output *handle);

/* Flush, close the fd and free the handle. */
void tracecmd_output_close(struct tracecmd_output *handle);

/* Free the handle without writing (the fd stays open). */
void tracecmd_output_free(struct tracecmd_output *handle);

#endif /* STACKMAP_TRACECMD_PRIVATE_H */
