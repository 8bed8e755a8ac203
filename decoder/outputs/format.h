/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: text output.
 *
 * Event lines are those of `trace-cmd report` (3.1.6, default options, the
 * libtraceevent plugins reader_open() loads, or none with -N as with
 * `trace-cmd report -N`), built with tep_print_event():
 *
 *   cpus=2
 *             bash-1234  [001]  5123.456789: sched_switch:         INFO
 *
 *   (comm right-aligned in 16, '-', pid left-aligned in 5, [cpu] in 3 digits,
 *   time as seconds.microseconds, event name padded to 20, then what a
 *   plugin's handler prints or else the event's print format).  A record after lost events is preceded by
 *   "CPU:N [M EVENTS DROPPED]" as in trace-cmd.
 *
 * The stack of an event follows it, one frame per line, indented by
 * FORMAT_INDENT (shapes in stackmap/tep_stack.h):
 *
 *       => __schedule+0x2f1/0x8e0 (ffffffff81b8e4a1)
 *       => <stale cookie gen 3 slot 17>
 *       => <corrupt stack_fallback: field 'depth' is 70, more than 64 frames>
 *
 * With --cookies the stack of a stack_cookie is headed by the cookie:
 *
 *       <cookie 0xca100002874 gen 3233 slot 10356>
 *       => __schedule+0x4f8/0xa00 (ffffffff832528c8)
 *
 * A stack whose definition has STACKMAP_FLAG_TRUNCATED ends with the line
 *
 *       => ... [truncated]
 *
 * A stack record that belongs to no event before it (an orphan: its owner
 * is another event, which was filtered out, not recorded or lost; see
 * events.h) is printed on its own, as the stack_cookie or stack_fallback
 * line, headed by its owner:
 *
 *   worker-42 [000] 1.000000: stack_cookie:  cookie=0x...
 *       <orphan stack of sched:sched_switch>
 *       => __schedule+0x4f8/0xa00 (ffffffff832528c8)
 *
 * ("<orphan stack of event id N>" when the trace has no format for N).
 *
 * In a trace with buffer instances every event is prefixed as trace-cmd
 * report's print_handle_file() does: an instance's name right-aligned to
 * the longest instance name and ": ", the top buffer's as many blanks and
 * two more ("  stk:           <idle>-0 ...").
 *
 * The summary goes to stderr (see format_summary()).
 */
#ifndef FGDECODE_FORMAT_H
#define FGDECODE_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "resolve.h"
#include "stackset.h"
#include "symbolize.h"
#include "units.h"

#define FORMAT_INDENT	"    "

/**
 * format_header() - the "cpus=N" line trace-cmd report starts with
 * @out: stream
 * @nr_cpus: CPUs in the trace
 */
void format_header(FILE *out, int nr_cpus);

/**
 * format_dropped() - append "CPU:N [M EVENTS DROPPED]\n" (or
 * "CPU:N [EVENTS DROPPED]\n" when the count is unknown) if events were lost
 * before @record; nothing otherwise
 * @s: output
 * @record: any record
 */
void format_dropped(struct trace_seq *s, const struct tep_record *record);

/* Entries of struct format_comms (a power of two). */
#define FORMAT_COMMS	256
/* "COMM-PID ": a comm cut at 64 bytes, '-', an int and a space. */
#define FORMAT_PREFIX_MAX	(64 + 1 + 11 + 1)

/*
 * The start of an event line, "%16s-%-5d " of the task's comm and pid,
 * kept per pid (direct-mapped): tep_data_comm_from_pid()'s bsearch() of
 * the trace's cmdlines and the formatting ran for every line.  A known
 * pid's comm never changes while a trace is read (libtraceevent's
 * tep_register_comm(), which the sched_switch plugin calls as events
 * print, adds pids but keeps a known pid's comm); a pid without one yet
 * ("<...>") is not kept.  Zero-initialised: empty.
 */
struct format_comms {
	int pid[FORMAT_COMMS];
	unsigned char len[FORMAT_COMMS];	/* 0: empty */
	char prefix[FORMAT_COMMS][FORMAT_PREFIX_MAX];
};

/**
 * format_event() - append the event line of @record to @s, preceded by the
 * format_dropped() line if any
 * @s: output (the line has no trailing newline)
 * @tep: the trace's handle
 * @comms: the comms of @tep met so far (updated), or NULL
 * @record: any record
 * @buffer: name of the record's buffer instance, NULL for the top buffer
 * @width: the longest instance name of the trace, 0 when it has none
 */
void format_event(struct trace_seq *s, struct tep_handle *tep,
		  struct format_comms *comms, struct tep_record *record,
		  const char *buffer, int width);

/**
 * format_stack() - append the stack lines of a resolved record to @s
 * @s: output; each line starts with "\n" FORMAT_INDENT
 * @sz: the symbolizer (kallsyms, and DWARF with --vmlinux)
 * @res: what resolve_record() made of the record
 * @entry: the interned stack of @res, whose text rendering is made once and
 *	reused (NULL: format without caching)
 * @show_cookie: head the stack of a readable stack_cookie with a
 *	"<cookie 0xC gen G slot S>" line, and a fallback stack with a
 *	"<fallback REASON>" line
 *
 * Return: 0, or -ENOMEM (nothing cached; the stack is still appended).
 */
int format_stack(struct trace_seq *s, const struct symbolizer *sz,
		 const struct resolved *res, struct sset_entry *entry,
		 bool show_cookie);

/**
 * format_frames() - append the "=> " lines of @depth frames to @s
 * @s: output; each line starts with "\n" FORMAT_INDENT
 * @sz: the symbolizer
 * @frames: addresses, innermost first, every one a return address (looked
 *	up at address - 1 with DWARF; events.h)
 * @depth: frame count
 */
void format_frames(struct trace_seq *s, const struct symbolizer *sz,
		   const sm_u64 *frames, sm_u32 depth);

/**
 * format_cut() - append "<no stack: the recording of this CPU ends here>"
 * @s: output; the line starts with "\n" FORMAT_INDENT
 *
 * For an event whose type owns stacks but whose stream ends right after it:
 * its stack record was refused (tracing_on went to 0 between the two
 * writes), not read, or filtered out.
 */
void format_cut(struct trace_seq *s);

/**
 * format_orphan() - append the "<orphan stack of NAME>" line
 * @s: output; the line starts with "\n" FORMAT_INDENT
 * @tep: the trace's handle, to name @owner
 * @owner: the event id the stack belongs to
 */
void format_orphan(struct trace_seq *s, struct tep_handle *tep, sm_u32 owner);

/**
 * format_flush() - write @s to @out as whole lines and empty it
 * @s: output so far; a trailing newline is dropped, then one is added
 * @out: stream
 *
 * Nothing is written when @s is empty.
 */
void format_flush(struct trace_seq *s, FILE *out);

/**
 * format_summary() - the summary line
 * @out: stream (fgdecode uses stderr)
 * @records: records read, stackmap ones and kernel_stack included
 * @events: the other records read: the trace's events
 * @st: counters
 * @distinct: distinct cookies with a definition
 * @matched: events the filters selected, or (size_t)-1 when no filter is set
 * @stackmap: the trace has stackmap's events (their formats): without them
 *	(a plain trace-cmd record -T trace, or none at all) the counters of
 *	cookies, definitions and fallback stacks, all 0, are left out
 *
 * Prints "fgdecode: E events (N records)", then, in a trace with stackmap's
 * events, ", C cookies, R resolved, S stale,
 * U unknown, [O orphan, ]F fallback stacks, D definitions (K distinct
 * stacks)" (a count of 1 names its noun in the singular; the
 * orphan count, stack records shown on their own because their owner is
 * not the event before them, only when not 0), followed by
 * ", X conflicting", ", Y corrupt" and ", Z kernel stacks" only when those
 * are not 0, ", M matched" when a filter is set, ", N from snapshot"
 * (cookies of the resolved count that only the trace's map snapshot
 * defines), ", N from stack map" (those only --stack-map defines),
 * ", N truncated" (stacks shown with STACKMAP_FLAG_TRUNCATED) and
 * ", N unverified" (stacks given to an event without an owner to check
 * it by: definitions of stackmap 0.1) when those are not 0.
 */
void format_summary(FILE *out, size_t records, size_t events,
		    const struct resolve_stats *st, size_t distinct,
		    size_t matched, bool stackmap);

/**
 * format_losses() - the line of what the ring buffer lost while recording
 * @out: stream (fgdecode uses stderr)
 * @r: the opened trace (reader_losses(): the stored CPU stats)
 *
 * "fgdecode: the ring buffer lost N events: D dropped (buffer full, not
 * overwriting), O overwritten, over C CPUs (trace-cmd report --stat)";
 * nothing when it lost none.  Events lost this way may have taken stacks
 * with them: the summary counts those as stackless or orphan.
 */
void format_losses(FILE *out, struct reader *r);

#endif /* FGDECODE_FORMAT_H */
