/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's outputs: --json output, one JSON object per event per line.
 *
 *   {"time":9.104211,"ts":9104211250,"cpu":0,"pid":113,"comm":"sh",
 *    "event":"sched_switch","system":"sched","buffer":"stk",
 *    "cookie":"0xfec000030fa","gen":4076,"slot":12538,
 *    "status":"resolved","stack":[{"addr":"0xffffffff868528c8",
 *    "symbol":"__schedule","offset":1272}, ...]}
 *
 * time is in seconds (microseconds, as printed), ts the raw timestamp in ns.
 * "buffer" appears only for events of a buffer instance; "fields" (the
 * event's own fields, typed: json_fields.h) for every event but a stack
 * record shown on its own; "weight" (after the
 * header: what the event weighs, e.g. its bytes_alloc) only with --weight;
 * "cookie", "gen" and
 * "slot" only when the stack came from a cookie; "reason" only for a
 * fallback stack.  "status" is "none" (no stack followed the event; no
 * "stack" member), "resolved", "stale", "unknown", "conflicting", "fallback",
 * "kernel_stack" (an ftrace kernel_stack event) or "corrupt" (with "error").
 * A frame's "symbol" is null and "offset" absent when no symbol covers it.
 * With --vmlinux a frame also has "file" and "line" when DWARF knows them,
 * and each inlined frame comes before the frame it is inlined into, with
 * "inlined":true, the same "addr" and no "offset".
 * A stack whose definition has STACKMAP_FLAG_TRUNCATED has "truncated":true
 * before "stack".  An orphan stack record (one whose owner is not the event
 * before it: events.h) is an object of its own, the header of the
 * stack_cookie or stack_fallback record itself followed by "orphan":true
 * and "owner":"SYSTEM:EVENT" ("event id N" when the trace has no format for
 * N), then its cookie, status and stack as usual:
 *
 *   {"time":...,"event":"stack_cookie","system":"stackmap","orphan":true,
 *    "owner":"sched:sched_switch","cookie":"0x...",...,"status":"resolved",
 *    "stack":[...]}
 *
 * The "stack" array of each distinct stack is rendered once and reused.
 *
 * With --off-cpu, json_off_cpu() prints one object per off-CPU interval
 * instead, when the interval ends (at the task's switch-in), so in the
 * order the intervals end:
 *
 *   {"time":1.000000,"ts":1000000000,"cpu":0,"pid":42,"comm":"worker",
 *    "state":"S","off_ns":2000000000,"end_ts":3000000000,"end_cpu":0,
 *    "status":"frames","stack":[...]}
 *
 * time, ts and cpu are the switch-out's (time in seconds, rounded to the
 * microsecond as above; ts and end_ts in ns of the trace clock), comm the
 * task's prev_comm then, state its prev_state as sched_switch prints it
 * ("S", "D", "R+" for a preempted task), off_ns end_ts - ts.  "status" is
 * "frames" (the stack the task left the CPU with follows; with
 * "truncated":true before "stack" when it was cut at max_depth), "none"
 * (its sched_switch carried no stack: no "stack" member), or "stale",
 * "unknown", "conflicting", "corrupt" (the stack could not be had:
 * "stack":[]).  With --wakers, "waker" comes before "status": null when no
 * wakeup in the trace ended the interval, else {"pid":P,"comm":C,
 * "status":...,"stack":[...]}, the task whose sched_waking (or
 * sched_wakeup) came first after the switch-out and that event's stack, in
 * the same shape.
 */
#ifndef FGDECODE_JSON_H
#define FGDECODE_JSON_H

#include <stdio.h>

#include "offcpu.h"
#include "resolve.h"
#include "stackset.h"
#include "symbolize.h"

/**
 * json_event() - print one event as a JSON line
 * @out: stream
 * @sz: the symbolizer (holds the trace's handle)
 * @record: the event's record
 * @buffer: its buffer instance's name, NULL for the top buffer
 * @res: the stack that followed it, NULL when none
 * @entry: the interned stack of @res (NULL: no caching)
 * @orphan: @record is the stack record @res, shown as an orphan
 * @weight: what the event weighs (--weight), NULL: no "weight" member
 *
 * Return: 0, or -ENOMEM.
 */
int json_event(FILE *out, const struct symbolizer *sz,
	       struct tep_record *record,
	       const char *buffer, const struct resolved *res,
	       struct sset_entry *entry, bool orphan, const sm_u64 *weight);

/**
 * json_off_cpu() - print one off-CPU interval as a JSON line
 * @out: stream
 * @sz: the symbolizer (holds the trace's handle)
 * @iv: the interval (offcpu_on_interval())
 * @wakers: print the "waker" member (--wakers)
 *
 * Return: 0, or -ENOMEM.
 */
int json_off_cpu(FILE *out, const struct symbolizer *sz,
		 const struct offcpu_interval *iv, bool wakers);

/**
 * json_put_frames() - append a stack as a JSON array of frame objects
 * @s: output
 * @sz: the symbolizer
 * @frames: @depth addresses, innermost first, every one a return address
 *	(events.h)
 * @depth: number of addresses
 *
 * Each address gives one object per frame symbolize_addr() finds (inlined
 * ones first): "addr", "symbol" (null without one), then when known
 * "offset", "size", "module", "file" and "line", "inlined":true.  The
 * shape of "stack" in both --json outputs (events and --map).
 */
void json_put_frames(struct trace_seq *s, const struct symbolizer *sz,
		     const sm_u64 *frames, sm_u32 depth);

#endif /* FGDECODE_JSON_H */
