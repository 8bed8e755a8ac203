/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_options: find the map snapshot in a trace.dat by walking its v7
 * option sections.
 */
#ifndef LIBSTACKMAP_TRACEDAT_OPTIONS_H
#define LIBSTACKMAP_TRACEDAT_OPTIONS_H

#include "snapshot.h"
#include "sm_err.h"

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

#endif /* LIBSTACKMAP_TRACEDAT_OPTIONS_H */
