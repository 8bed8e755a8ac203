/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_extent: where each buffer's CPU data lies in a trace.dat and how
 * much there is of it, as the file's headers give it, read without
 * decompressing anything: what a reader compares with how far libtracecmd
 * got, so that data it could not read is not lost in silence.
 */
#ifndef LIBSTACKMAP_TRACEDAT_EXTENT_H
#define LIBSTACKMAP_TRACEDAT_EXTENT_H
#include "sm_err.h"
#include "stackmap/types.h"

/**
 * struct stackmap_cpu_extent - one CPU's data in the file
 * @cpu: its id (the CPU it was recorded on)
 * @offset: where it starts in the file (compressed: its chunk count)
 * @size: its bytes in the file
 * @data_size: its bytes once uncompressed (@size when not compressed)
 * @chunks: its compressed chunks, 0 when the data is not compressed
 * @chunk_at: [@chunks] the file offset of each chunk's header
 * @chunk_end: [@chunks] where each chunk ends in the uncompressed data
 */
struct stackmap_cpu_extent {
	unsigned int cpu;
	sm_u64 offset;
	sm_u64 size;
	sm_u64 data_size;
	unsigned int chunks;
	sm_u64 *chunk_at;
	sm_u64 *chunk_end;
};

/* One buffer: the top one (name "") or an instance, its CPUs in file order. */
struct stackmap_buffer_extent {
	char name[64];
	unsigned int nr_cpus;
	struct stackmap_cpu_extent *cpus;
};

struct stackmap_extents {
	unsigned int page_size;
	unsigned int nr_buffers;
	struct stackmap_buffer_extent *buffers;
};

/**
 * stackmap_tracedat_extents() - every buffer's CPU data of a trace.dat
 * @path: a trace.dat
 * @out: filled on success (free with stackmap_extents_free())
 * @err: set on failure: "PATH: offset N: FIELD: why"
 *
 * Version 7: the CPUs of each BUFFER option of the option chain
 * (trace-cmd trace-input.c handle_buffer_option()), and for the data of a
 * compressed BUFFER section its chunk headers (trace-compress.c
 * tracecmd_load_chunks_info(): the uncompressed sizes add up to what
 * init_cpu_zpage() gives the CPU).  Version 6: the table after
 * "flyrecord" of the top buffer and of each instance's BUFFER option
 * (read_cpu_data(), handle_options()).  A CPU the headers give no data
 * has a @data_size of 0.
 *
 * Return: 0; -E2BIG for more CPUs (in a table, a BUFFER option or the
 * CPUCOUNT option), or a CPU id higher, than Linux has (8192) or more than
 * 4096 buffers; -EPROTO for a version 7 section placed by an option with
 * flags trace-cmd does not write, a version 7 BUFFER option
 * whose fields do not end where it does (a damaged name, clock or CPU
 * count: libtracecmd then places no data, or other data) or that numbers a
 * CPU at or above the CPUCOUNT option's count, or a version 7 file without
 * the top buffer's BUFFER option (not a latency trace);
 * -ENOTSUP for a latency trace or a
 * compressed options section; -EBADMSG for a malformed file; -ENOMEM;
 * -errno when it cannot be read.
 */
int stackmap_tracedat_extents(const char *path, struct stackmap_extents *out,
			      struct sm_err *err);

/* Free what stackmap_tracedat_extents() filled in (and zero @e). */
void stackmap_extents_free(struct stackmap_extents *e);

/**
 * stackmap_extent_find() - a buffer's CPU in @e
 * @e: the extents
 * @name: the buffer's name, "" or NULL for the top buffer
 * @index: the CPU's place among the buffer's CPUs, not its id: the cpu
 *	argument of libtracecmd's readers (trace-input.c
 *	init_buffer_cpu_data() keeps a version 7 BUFFER option's CPUs in its
 *	order, and trace-cmd writes none for a CPU without data)
 *
 * Return: the CPU's extent, or NULL when @e has no such buffer or CPU.
 */
const struct stackmap_cpu_extent *
stackmap_extent_find(const struct stackmap_extents *e, const char *name,
		     unsigned int index);

#endif /* LIBSTACKMAP_TRACEDAT_EXTENT_H */
