/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stackmap trace events.  Names and field layouts are the contract in
 * include/stackmap/events.h; stackmap_events.c checks them at build time.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM stackmap

#if !defined(_STACKMAP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _STACKMAP_TRACE_H

#include <linux/tracepoint.h>

#include "../include/stackmap/frames.h"

void stackmap_define_written(const void *data, const void *entry);
extern u64 stackmap_map_id;

/* A hit of an attached function, at its entry; its stack event follows. */
TRACE_EVENT(function_entry,
	TP_PROTO(unsigned long ip, unsigned long parent_ip),
	TP_ARGS(ip, parent_ip),
	TP_STRUCT__entry(
		__field(unsigned long, ip)
		__field(unsigned long, parent_ip)
	),
	TP_fast_assign(
		__entry->ip = ip;
		__entry->parent_ip = parent_ip;
	),
	TP_printk("%ps <- %ps", (void *)__entry->ip, (void *)__entry->parent_ip)
);

/*
 * A traced hit: the cookie of its stack, right after the event it follows.
 * Written into ring buffers by stackmap_cookie_probe() (stackmap_events.c),
 * which also watches the buffers it writes to; perf uses the usual probe.
 */
TRACE_EVENT(stack_cookie,
	TP_PROTO(u64 cookie),
	TP_ARGS(cookie),
	TP_STRUCT__entry(
		__field(u64, cookie)
	),
	TP_fast_assign(
		__entry->cookie = cookie;
	),
	TP_printk("cookie=0x%llx", __entry->cookie)
);

/*
 * The full stack of a cookie (events.h: "Definitions").  TP_fast_assign runs
 * once a ring buffer (or perf) accepted the reservation; the commit may
 * still discard the record.  stackmap_define_written() gets the probe's
 * first argument, __data (the name both the ring-buffer and the perf probe
 * of include/trace give it since 2.6.35), to tell the two apart, and the
 * entry, which the ftrace export sees only if the commit kept it
 * (stackmap_define_committed()).  The frames are packed (include/stackmap/
 * frames.h): about 3.5 bytes a frame instead of 8.
 */
TRACE_EVENT(stack_define,
	TP_PROTO(u64 cookie, const unsigned long *ips, u32 depth, u16 owner,
		 u16 flags),
	TP_ARGS(cookie, ips, depth, owner, flags),
	TP_STRUCT__entry(
		__field(u64, cookie)
		__field(u32, depth)
		__field(u16, owner)
		__field(u16, flags)
		__field(u64, map_id)
		__dynamic_array(u8, frames, stackmap_frames_size(ips, depth))
	),
	TP_fast_assign(
		__entry->cookie = cookie;
		__entry->depth = depth;
		__entry->owner = owner;
		__entry->flags = flags;
		__entry->map_id = stackmap_map_id;
		stackmap_frames_pack(__get_dynamic_array(frames), ips, depth);
		stackmap_define_written(__data, __entry);
	),
	TP_printk("cookie=0x%llx depth=%u owner=%u flags=0x%x", __entry->cookie,
		  __entry->depth, __entry->owner, __entry->flags)
);

/* A hit whose stack could not get a cookie: the stack travels whole. */
TRACE_EVENT(stack_fallback,
	TP_PROTO(u32 reason, const unsigned long *ips, u32 depth, u16 owner,
		 u16 flags),
	TP_ARGS(reason, ips, depth, owner, flags),
	TP_STRUCT__entry(
		__field(u32, reason)
		__field(u32, depth)
		__field(u16, owner)
		__field(u16, flags)
		__dynamic_array(unsigned long, ips, depth)
	),
	TP_fast_assign(
		__entry->reason = reason;
		__entry->depth = depth;
		__entry->owner = owner;
		__entry->flags = flags;
		memcpy(__get_dynamic_array(ips), ips, depth * sizeof(*ips));
	),
	TP_printk("reason=%u depth=%u owner=%u flags=0x%x", __entry->reason,
		  __entry->depth, __entry->owner, __entry->flags)
);

#endif /* _STACKMAP_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE stackmap_trace
#include <trace/define_trace.h>
