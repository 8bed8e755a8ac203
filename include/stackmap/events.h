/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names and field layouts of the stackmap trace events: the contract between
 * the kernel module (which defines the events with TRACE_EVENT in
 * kmod/stackmap_trace.h and checks them against these names at build time),
 * the libtraceevent plugin and fgdecode (which look the fields up by these
 * names in the formats stored in trace.dat).
 *
 * All events live in the trace system STACKMAP_SYSTEM:
 *
 *   function_entry unsigned long ip,           a hit of a function attached
 *                  unsigned long parent_ip     through the functions file
 *                                              (entry only); its stack event
 *                                              follows it like any other
 *   stack_cookie   u64 cookie                  after each traced hit, on the
 *                                              same CPU, right after the
 *                                              event it belongs to
 *   stack_define   u64 cookie, u32 depth,      the first time a cookie is used
 *                  unsigned long ips[depth]    in a recording, before that
 *                                              cookie's first stack_cookie
 *   stack_fallback u32 reason, u32 depth,      instead of stack_cookie when
 *                  unsigned long ips[depth]    the map could not give a cookie
 *                                              (the stack is then carried
 *                                              whole; see enum below)
 *
 * ips[] holds raw kernel addresses, innermost frame first; frame 0 is the
 * code that hit the traced point (for a tracepoint, the return address into
 * the function that contains it; for a function entry, the return address
 * into that function's ftrace call site, i.e. ip + 5 on x86) and every later
 * frame is a return address.
 * Its element size is the recording kernel's long size (trace.dat records it).
 */
#ifndef STACKMAP_EVENTS_H
#define STACKMAP_EVENTS_H

#define STACKMAP_SYSTEM			"stackmap"
#define STACKMAP_EVENT_COOKIE		"stack_cookie"
#define STACKMAP_EVENT_DEFINE		"stack_define"
#define STACKMAP_EVENT_FALLBACK		"stack_fallback"
#define STACKMAP_EVENT_FUNCTION		"function_entry"

#define STACKMAP_FIELD_COOKIE		"cookie"
#define STACKMAP_FIELD_DEPTH		"depth"
#define STACKMAP_FIELD_IPS		"ips"
#define STACKMAP_FIELD_REASON		"reason"
#define STACKMAP_FIELD_IP		"ip"
#define STACKMAP_FIELD_PARENT_IP	"parent_ip"

/* Hard upper bound of a stored stack's depth, in frames. */
#define STACKMAP_MAX_DEPTH		64

/*
 * Why a hit was recorded with stack_fallback instead of a cookie.  Every
 * value is counted in the module's stats file.
 */
enum stackmap_fallback_reason {
	STACKMAP_FALLBACK_FULL = 1,	/* no free entry or frame space left */
	STACKMAP_FALLBACK_PROBE = 2,	/* probe limit reached in the slot table */
	STACKMAP_FALLBACK_INFLIGHT = 3,	/* same-hash insert still in progress */
	STACKMAP_FALLBACK_RESET = 4,	/* a reset of the map is in progress */
	STACKMAP_FALLBACK_MAX = 5,	/* first invalid value */
};

/**
 * stackmap_fallback_name() - short name of a fallback reason
 * @reason: a value of enum stackmap_fallback_reason
 *
 * Return: a static string ("full", "probe", ...) or "invalid".
 */
static inline const char *stackmap_fallback_name(unsigned int reason)
{
	switch (reason) {
	case STACKMAP_FALLBACK_FULL:
		return "full";
	case STACKMAP_FALLBACK_PROBE:
		return "probe";
	case STACKMAP_FALLBACK_INFLIGHT:
		return "inflight";
	case STACKMAP_FALLBACK_RESET:
		return "reset";
	}
	return "invalid";
}

#endif /* STACKMAP_EVENTS_H */
