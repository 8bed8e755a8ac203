/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_pages: every ring-buffer page of a trace.dat's CPU data, read
 * straight from the file, for a reader that has no libtracecmd handle of
 * its own (the plugin, which libtraceevent hands one record at a time, in
 * time order) and wants records before their time comes.
 */
#ifndef LIBSTACKMAP_TRACEDAT_PAGES_H
#define LIBSTACKMAP_TRACEDAT_PAGES_H
#include "sm_err.h"
#include "stackmap/types.h"

/**
 * typedef stackmap_page_fn - called for each page of CPU data
 * @buffer: the buffer's name, "" for the top buffer
 * @cpu: the CPU the page was recorded on
 * @page: the page, @size bytes as the kernel's ring buffer wrote it (its
 *	header: a u64 timestamp, a long-sized commit; then the events); a
 *	last page the data ends inside is zero-filled to @size
 * @size: the file's page size, bytes
 * @arg: what stackmap_tracedat_pages() was given
 *
 * Return: 0 to go on; anything else stops the walk and is returned.
 */
typedef int (*stackmap_page_fn)(const char *buffer, unsigned int cpu,
				const void *page, unsigned int size,
				void *arg);

/**
 * stackmap_tracedat_pages() - hand every page of a trace.dat's CPU data
 *	to @fn
 * @path: a trace.dat (version 6, or 7 with its CPU data compressed or not)
 * @fn: the visitor
 * @arg: passed to @fn
 * @err: set on failure: "PATH: offset N: FIELD: why"
 *
 * Each buffer and each of its CPUs in the order
 * stackmap_tracedat_extents() gives them (a version 6 file's instances may
 * come before its top buffer), a CPU's pages in order.  Where the data lies comes from
 * stackmap_tracedat_extents(); a compressed CPU stream is a series of
 * chunks, each uncompressed with td_block() as libtracecmd's
 * trace-input.c read_zpage() does through tracecmd_uncompress_chunk(), and
 * the pages are the chunks' bytes end to end.  No page is interpreted:
 * what is in one is for a kbuffer (libtraceevent) to read.
 *
 * Return: 0; what @fn returned when not 0; the errors of
 * stackmap_tracedat_extents() (-ENOTSUP for a latency trace or compressed
 * options), -EBADMSG for a page size of 0 or above 1 MiB or a chunk that
 * does not uncompress, -E2BIG for a chunk of more than 64 MiB either way
 * (trace-cmd writes 10 pages a chunk), -ENOMEM, -errno when the file
 * cannot be read.
 */
int stackmap_tracedat_pages(const char *path, stackmap_page_fn fn, void *arg,
			    struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_PAGES_H */
