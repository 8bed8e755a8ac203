/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_salvage: a trace.dat cut short after (or inside) its CPU data,
 * made readable again by rebuilding or trimming what placed the data.
 */
#ifndef LIBSTACKMAP_TRACEDAT_SALVAGE_H
#define LIBSTACKMAP_TRACEDAT_SALVAGE_H
#include "sm_err.h"
#include "stackmap/types.h"

/**
 * struct stackmap_salvage - what stackmap_tracedat_salvage() rebuilt
 * @fd: the repaired copy: a temporary file already unlinked, open for
 *	reading and writing (readable as /proc/self/fd/@fd); close() it
 * @file_size: bytes in the damaged file
 * @lost_at: offset of the first section of the option chain that the file
 *	does not hold whole (the options trace-cmd wrote after the data);
 *	0 for version 6
 * @data_section: offset of the BUFFER section whose placing option was
 *	lost, 0 when only options that place no data were lost (and for
 *	version 6)
 * @buffer: that buffer's instance name ("" for the top buffer)
 * @clock: its trace clock (the TRACECLOCK option's selected clock, or
 *	"local" when the file has none)
 * @cpus: CPUs whose data was placed (version 6: the trace's CPU count)
 * @cut_cpu: the CPU whose data the cut ends inside, or -1 (version 6: the
 *	first such CPU, of the top buffer or an instance)
 * @unit: what @kept and @lost count: "compressed chunks" or "pages"
 * @kept: of @cut_cpu's data, the whole units kept
 * @lost: of them, those the cut took where the file counts them (the chunk
 *	count of compressed data, a version 6 CPU's size), else 0
 * @bytes_lost: bytes of CPU data past the last whole unit kept (version 6:
 *	of every CPU and buffer)
 * @cpus_lost: version 6: CPUs whose data lies wholly past the end
 * @buffers_lost: version 6: instances whose CPU table lies past the end
 */
struct stackmap_salvage {
	int fd;
	sm_u64 file_size;
	sm_u64 lost_at;
	sm_u64 data_section;
	char buffer[64];
	char clock[64];
	unsigned int cpus;
	int cut_cpu;
	const char *unit;
	unsigned int kept;
	unsigned int lost;
	sm_u64 bytes_lost;
	unsigned int cpus_lost;
	unsigned int buffers_lost;
};

/**
 * stackmap_tracedat_salvage() - a readable copy of a truncated trace.dat
 * @path: a trace.dat whose CPU data, or the options placing it, run past
 *	its end
 * @tmpdir: where the copy is made (O_TMPFILE, else mkstemp() and unlink())
 * @out: filled on success (close @out->fd)
 * @err: set on failure: "PATH: ..." naming the offset and field, or why
 *	the data cannot be placed
 *
 * trace-cmd (3.1.6 and 3.3.1, lib/trace-cmd/trace-output.c
 * tcmd_out_write_cpu_data()/out_write_cpu_data(), tcmd_out_add_buffer_option())
 * writes each buffer's CPU data as one BUFFER section and only then the
 * options section whose BUFFER option says where each CPU's data starts
 * and how long it is, at the end of the file, followed by the strings
 * section.  A cut in that tail leaves whole data that libtracecmd cannot
 * place.  This walks the option chain (as trace-input.c handle_options()
 * and handle_option_done() do) to the first section the file does not
 * hold, walks the sections from the header on to find the BUFFER section
 * no surviving option places, and walks its compressed CPU streams (each
 * page aligned: a u32 chunk count, then per chunk a u32 compressed size, a
 * u32 uncompressed size and the bytes; trace-compress.c
 * tracecmd_compress_copy_from()).  The copy holds the file up to the lost
 * section, or to the last whole chunk when the cut is inside the data
 * (that CPU's chunk count and the section's size patched), then a new
 * options section with the BUFFER option rebuilt as
 * tcmd_out_add_buffer_option() writes it, and the chain's last DONE option
 * pointing at it.  When the lost options placed no data (only a snapshot,
 * saved_tgids or the strings), the chain ends at the last whole section.
 *
 * A version 6 file places its CPU data before the data, in a table after
 * "flyrecord" (found by walking the parts trace-input.c read_headers_v6()
 * reads; each instance's table where its BUFFER option says): in the copy,
 * each CPU whose data runs past the end keeps its whole pages, and an
 * instance whose table is gone gets an option id libtracecmd skips.
 *
 * The CPU of each stream is known only when every CPU the CPUCOUNT option
 * counts has one: trace-cmd writes nothing for a CPU with no data, so with
 * fewer streams their CPUs are not known and nothing is guessed.
 *
 * Return: 0; -ENOENT when the option chain ends inside the file, or every
 * CPU's data of a version 6 file does (the damage is elsewhere); -ENOTSUP
 * for uncompressed version 7 data of several CPUs (where each ends was in
 * the lost option), fewer CPU streams than CPUs, an instance's data whose
 * name was lost, or a latency trace; -EBADMSG for a malformed file; -ENOMEM; -errno when
 * it cannot be read or the copy written.
 */
int stackmap_tracedat_salvage(const char *path, const char *tmpdir,
			      struct stackmap_salvage *out,
			      struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_SALVAGE_H */
