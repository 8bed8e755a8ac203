// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the stackmap trace events and checks, at build time, that
 * their names and fields are the ones include/stackmap/events.h promises to
 * the plugin and to fgdecode.
 */
#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/stringify.h>

#define CREATE_TRACE_POINTS
#include "stackmap_trace.h"

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
void stackmap_check_contract(void)
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
	SM_CHECK_NAME(ips, STACKMAP_FIELD_IPS);
	SM_CHECK_FIELD(stack_fallback, reason, STACKMAP_FIELD_REASON, u32);
	SM_CHECK_FIELD(stack_fallback, depth, STACKMAP_FIELD_DEPTH, u32);
}
