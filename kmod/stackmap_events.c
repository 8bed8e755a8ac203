// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the stackmap trace events, checks at build time that their
 * names and fields are the ones include/stackmap/events.h promises to the
 * plugin and to fgdecode, and writes stack_cookie into ring buffers through
 * a probe of its own (stackmap_cookie_probe()), which tells the module which
 * buffers accept its cookies and lets it watch how far back they reach.
 */
#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#define CREATE_TRACE_POINTS
#include "stackmap_trace.h"

#include "stackmap.h"
#include "../include/stackmap/cookie.h"
#include "../include/stackmap/events.h"

#define SM_CHECK_NAME(id, name) \
	BUILD_BUG_ON(__builtin_strcmp(#id, name) != 0)
#define SM_CHECK_FIELD(event, field, name, type)			\
	do {								\
		SM_CHECK_NAME(field, name);				\
		BUILD_BUG_ON(sizeof(((struct trace_event_raw_##event *)0)->field) != \
			     sizeof(type));				\
	} while (0)

/*
 * Called once at load so the compiler evaluates every check; a mismatch fails
 * the build.  It does nothing at run time.
 */
static void stackmap_check_contract(void)
{
	BUILD_BUG_ON(__builtin_strcmp(__stringify(TRACE_SYSTEM), STACKMAP_SYSTEM));
	SM_CHECK_NAME(stack_cookie, STACKMAP_EVENT_COOKIE);
	SM_CHECK_NAME(stack_define, STACKMAP_EVENT_DEFINE);
	SM_CHECK_NAME(stack_fallback, STACKMAP_EVENT_FALLBACK);
	SM_CHECK_NAME(function_entry, STACKMAP_EVENT_FUNCTION);
	SM_CHECK_FIELD(function_entry, ip, STACKMAP_FIELD_IP, unsigned long);
	SM_CHECK_FIELD(function_entry, parent_ip, STACKMAP_FIELD_PARENT_IP, unsigned long);
	SM_CHECK_FIELD(stack_cookie, cookie, STACKMAP_FIELD_COOKIE, u64);
	SM_CHECK_FIELD(stack_define, cookie, STACKMAP_FIELD_COOKIE, u64);
	SM_CHECK_FIELD(stack_define, depth, STACKMAP_FIELD_DEPTH, u32);
	SM_CHECK_FIELD(stack_define, owner, STACKMAP_FIELD_OWNER, u16);
	SM_CHECK_FIELD(stack_define, flags, STACKMAP_FIELD_FLAGS, u16);
	SM_CHECK_FIELD(stack_define, map_id, STACKMAP_FIELD_MAP_ID, u64);
	SM_CHECK_NAME(ips, STACKMAP_FIELD_IPS);
	SM_CHECK_FIELD(stack_fallback, reason, STACKMAP_FIELD_REASON, u32);
	SM_CHECK_FIELD(stack_fallback, depth, STACKMAP_FIELD_DEPTH, u32);
	SM_CHECK_FIELD(stack_fallback, owner, STACKMAP_FIELD_OWNER, u16);
	SM_CHECK_FIELD(stack_fallback, flags, STACKMAP_FIELD_FLAGS, u16);
	BUILD_BUG_ON(STACKMAP_CONTEXT_NMI != TRACE_FLAG_NMI);
	BUILD_BUG_ON(STACKMAP_CONTEXT_HARDIRQ != TRACE_FLAG_HARDIRQ);
	BUILD_BUG_ON(STACKMAP_CONTEXT_SOFTIRQ != TRACE_FLAG_SOFTIRQ);
}

/** stackmap_define_event_is() - is @data stack_define's own event call? */
bool stackmap_define_event_is(const void *data)
{
	return data == &event_stack_define;
}

/** stackmap_function_owner() - the trace event id of function_entry */
u16 stackmap_function_owner(void)
{
	return event_function_entry.event.type;
}

/*
 * stack_cookie into one ring buffer: what trace_event_raw_event_##call
 * (include/trace/trace_events.h) does for it, and besides, telling the
 * consumer tracking whether the buffer took the cookie.
 */
static notrace void stackmap_cookie_probe(void *data, u64 cookie)
{
	struct trace_event_file *file = data;
	struct trace_event_raw_stack_cookie *entry;
	struct trace_event_buffer fbuffer = { .buffer = NULL };

	/* Filtered by pid: so is its event, which set_event_pid covers too. */
	if (trace_event_ignore_this_pid(file))
		return;
	/* Soft-disabled by a trigger while its event may be recorded. */
	if (trace_trigger_soft_disabled(file)) {
		stackmap_consumer_refused(file, NULL);
		return;
	}
	entry = trace_event_buffer_reserve(&fbuffer, file, sizeof(*entry));
	if (!entry) {
		/* No buffer set: the reserve's own pid filter, not a refusal. */
		if (fbuffer.buffer)
			stackmap_consumer_refused(file, fbuffer.buffer);
		return;
	}
	entry->cookie = cookie;
	if (stackmap_consumer_accepted(file, fbuffer.buffer))
		entry->cookie |= STACKMAP_COOKIE_AFTER_LOSS;
	trace_event_buffer_commit(&fbuffer);
	stackmap_window_note(fbuffer.buffer);
}

/*
 * The class's reg callback (trace_event_reg() otherwise): ring buffers get
 * stackmap_cookie_probe(), perf the usual perf probe.  Each ring buffer that
 * enables stack_cookie is a new consumer that needs its own definitions;
 * while perf uses stack_cookie, every cookie is defined (perf's buffers
 * tell the module nothing of what they took).
 */
static int stackmap_cookie_reg(struct trace_event_call *call,
			       enum trace_reg type, void *data)
{
	int ret;

	switch (type) {
	case TRACE_REG_REGISTER:
		ret = tracepoint_probe_register(call->tp, stackmap_cookie_probe,
						data);
		if (!ret)
			stackmap_consumer_add(data);
		return ret;
	case TRACE_REG_UNREGISTER:
		stackmap_consumer_remove(data);
		if (!tracepoint_probe_unregister(call->tp, stackmap_cookie_probe,
						 data))
			return 0;
		/* Enabled through trace_event_reg() before the module's init. */
		return trace_event_reg(call, type, data);
	case TRACE_REG_PERF_REGISTER:
		ret = trace_event_reg(call, type, data);
		if (!ret)
			stackmap_perf_users(1);
		return ret;
	case TRACE_REG_PERF_UNREGISTER:
		ret = trace_event_reg(call, type, data);
		if (!ret)
			stackmap_perf_users(-1);
		return ret;
	default:
		return trace_event_reg(call, type, data);
	}
}

/**
 * stackmap_events_init() - check the contract, install stack_cookie's reg
 *
 * Context: module init.  The module's events exist (and could be enabled)
 * a moment before init runs; stackmap_cookie_reg() undoes such an early
 * enable through trace_event_reg().
 */
void stackmap_events_init(void)
{
	stackmap_check_contract();
	WRITE_ONCE(event_class_stack_cookie.reg, stackmap_cookie_reg);
}
