/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test fixture: write a small trace-cmd trace.dat (file version 6, 64-bit
 * little-endian, 4096-byte pages) from hand-built events, so fgdecode can be
 * tested end to end on cases a real recording rarely shows (stale and unknown
 * cookies, late definitions, lost events, corrupt records).
 *
 * Layout written (trace-cmd.dat.v6(5)): magic, "6", endianness, long size,
 * page size, header_page, header_event, no ftrace formats, the given event
 * systems, kallsyms, empty printk formats, saved cmdlines, CPU count, with
 * buffer instances an "options  " section of BUFFER options (offset, name),
 * "flyrecord" with one page-aligned run of ring-buffer pages per CPU; then
 * for each instance, at its offset, "flyrecord" and its own runs of pages.
 */
#ifndef TESTS_MKTRACE_H
#define TESTS_MKTRACE_H

#include <stddef.h>

#define MKT_MAX_CPUS	4
#define MKT_MAX_BUFFERS	4	/* the top buffer and up to 3 instances */

struct mktrace;

/* One event format: its system and the text of its format file. */
struct mkt_format {
	const char *system;
	const char *text;
};

/**
 * mkt_new() - start a trace
 * @nr_cpus: 1..MKT_MAX_CPUS
 *
 * Aborts on failure.
 */
struct mktrace *mkt_new(int nr_cpus);

/**
 * mkt_add() - append an event to a CPU's ring buffer
 * @t: the trace
 * @cpu: its CPU
 * @ts: timestamp in ns, not below the CPU's previous one
 * @data: payload (the record data: common fields first)
 * @len: payload bytes, at most 1000
 */
void mkt_add(struct mktrace *t, int cpu, unsigned long long ts,
	     const void *data, size_t len);

/**
 * mkt_add_buffer() - add a buffer instance (trace-cmd record -B @name)
 * @t: the trace
 * @name: its name (not copied: must outlive mkt_write())
 *
 * Aborts on failure.  Return: its index for mkt_add_to() (1, 2, ...).
 */
int mkt_add_buffer(struct mktrace *t, const char *name);

/**
 * mkt_add_to() - mkt_add() into buffer @buffer (0 is the top buffer)
 */
void mkt_add_to(struct mktrace *t, int buffer, int cpu, unsigned long long ts,
		const void *data, size_t len);

/**
 * mkt_lose() - make the next event of @cpu start a page that reports
 * @count lost events (as the kernel does after an overrun)
 */
void mkt_lose(struct mktrace *t, int cpu, unsigned long long count);

/**
 * mkt_write() - write the trace to @path and free @t
 * @formats: the event formats, NULL-terminated by a NULL system
 * @kallsyms: /proc/kallsyms-style text
 * @cmdlines: saved_cmdlines-style text ("PID COMM\n" lines)
 *
 * Return: 0, or -1 with errno set.
 */
int mkt_write(struct mktrace *t, const char *path,
	      const struct mkt_format *formats, const char *kallsyms,
	      const char *cmdlines);

#endif /* TESTS_MKTRACE_H */
