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
#include <linux/trace.h>
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
	SM_CHECK_NAME(frames, STACKMAP_FIELD_FRAMES);
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
 * Writing a stack record (stack_cookie or stack_fallback) into one ring
 * buffer: what trace_event_raw_event_##call (include/trace/trace_events.h)
 * does, and besides, telling the consumer tracking (stackmap_window.c)
 * whether the buffer took it, and flagging it when a stack record went
 * missing before it.
 *
 * Accepted is not written.  trace_event_buffer_commit() may still drop a
 * record the reserve gave: a filter on the event that does not match, the
 * event soft-disabled (__event_trigger_test_discard(), kernel/trace/trace.h);
 * and while the event is filtered or soft-disabled the reserve hands out a
 * per-CPU scratch event (trace_buffered_event) that the commit copies with
 * ring_buffer_write(), which fails unseen when the buffer is off.  So when
 * the file has either flag, before the reserve or after the commit, the
 * record counts as written only if the commit passed it to the ftrace
 * exports (ftrace_exports(), called only for a record that passed the
 * filter, with the reserved entry: stackmap_export_write()) and the buffer's
 * count of records on this CPU moved; otherwise it is a discard
 * (stackmap_consumer_discarded()): the next record there is flagged.
 * Interrupts stay off from the pid check to the commit, so only an NMI can
 * write in between, and the export compares the NMI state: an NMI's record
 * never stands for this one.  A pid filter is no discard: the commit checks
 * the same per-CPU flag as the probe did, unchanged with interrupts off.
 */
struct stackmap_commit {
	struct trace_event_buffer fbuffer;
	struct trace_event_file *file;
	unsigned long irqflags;
	unsigned long written;
	unsigned long flags;
	bool after_loss;
};

#define SM_MAY_DISCARD	(EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_SOFT_DISABLED)

/*
 * Per CPU, outside NMI [0] and in NMI [1]: the entry being committed, and
 * whether the exports saw it.
 */
struct stackmap_committing {
	const void *entry;
	bool seen;
};

static DEFINE_PER_CPU(struct stackmap_committing[2], stackmap_committing);

static notrace void stackmap_export_write(struct trace_export *export,
					  const void *entry, unsigned int size)
{
	int n = !!in_nmi();

	if (entry == this_cpu_read(stackmap_committing[n].entry))
		this_cpu_write(stackmap_committing[n].seen, true);
	else
		stackmap_define_committed(entry);
}

static struct trace_export stackmap_export = {
	.write = stackmap_export_write,
	.flags = TRACE_EXPORT_EVENT,
};

static notrace void *stackmap_reserve(struct stackmap_commit *c,
				      struct trace_event_file *file,
				      unsigned long len)
{
	void *entry;
	int n = !!in_nmi();

	c->file = file;
	c->fbuffer.buffer = NULL;
	local_irq_save(c->irqflags);
	/* Filtered by pid: so is its event, which set_event_pid covers too. */
	if (trace_event_ignore_this_pid(file))
		goto out;
	/* Soft-disabled by a trigger while its event may be recorded. */
	if (trace_trigger_soft_disabled(file)) {
		stackmap_consumer_refused(file, NULL);
		goto out;
	}
	c->flags = READ_ONCE(file->flags);
	entry = trace_event_buffer_reserve(&c->fbuffer, file, len);
	if (!entry) {
		/* No buffer set: the reserve's own pid filter, not a refusal. */
		if (c->fbuffer.buffer)
			stackmap_consumer_refused(file, c->fbuffer.buffer);
		goto out;
	}
	c->after_loss = stackmap_consumer_accepted(file, c->fbuffer.buffer) ||
			stackmap_record_unpinned();
	if (c->flags & SM_MAY_DISCARD)
		c->written = stackmap_buffer_records(c->fbuffer.buffer,
						     smp_processor_id());
	this_cpu_write(stackmap_committing[n].seen, false);
	this_cpu_write(stackmap_committing[n].entry, entry);
	return entry;
out:
	local_irq_restore(c->irqflags);
	return NULL;
}

/*
 * Commit, and see whether the record was written (see above): where the
 * file could discard, the exports saw it and the buffer's count moved.  Seen
 * but not counted, the buffer refused the copy (tracing off, full): a
 * refusal, but none while the buffer has held nothing on this CPU (tracing
 * still off as a recording starts, as stackmap_consumer_refused() has it).
 * Not seen: a discard.  A flag that came on between the reserve and the
 * commit leaves nothing to compare with: a discard.
 */
static notrace void stackmap_commit(struct stackmap_commit *c)
{
	struct trace_buffer *buffer = c->fbuffer.buffer;
	int n = !!in_nmi();
	bool seen, written = true, refused = false;

	trace_event_buffer_commit(&c->fbuffer);
	seen = this_cpu_read(stackmap_committing[n].seen);
	this_cpu_write(stackmap_committing[n].entry, NULL);
	if (c->flags & SM_MAY_DISCARD) {
		written = seen &&
			  stackmap_buffer_records(buffer, smp_processor_id()) !=
			  c->written;
		/* Refused while nothing was there: no event to lose. */
		refused = seen && !written;
		if (refused && !c->written)
			written = true;
	} else if (READ_ONCE(c->file->flags) & SM_MAY_DISCARD) {
		written = false;
	}
	if (written) {
		if (c->after_loss)
			this_cpu_inc(stackmap_stats.after_loss);
		stackmap_window_note(c->file, buffer);
	} else {
		stackmap_consumer_discarded(c->file, refused ? buffer : NULL);
	}
	local_irq_restore(c->irqflags);
}

/* stack_cookie into one ring buffer. */
static notrace void stackmap_cookie_probe(void *data, u64 cookie)
{
	struct trace_event_raw_stack_cookie *entry;
	struct stackmap_commit c;

	entry = stackmap_reserve(&c, data, sizeof(*entry));
	if (!entry)
		return;
	entry->cookie = cookie;
	if (c.after_loss)
		entry->cookie |= STACKMAP_COOKIE_AFTER_LOSS;
	stackmap_commit(&c);
}

/*
 * stack_fallback into one ring buffer, laid out as its TRACE_EVENT does
 * (the dynamic array's __data_loc: offset | length << 16, stage5 of
 * include/trace/stages).
 */
static notrace void stackmap_fallback_probe(void *data, u32 reason,
					    const unsigned long *ips,
					    u32 depth, u16 owner, u16 flags)
{
	struct trace_event_raw_stack_fallback *entry;
	u32 len = depth * sizeof(*ips);
	struct stackmap_commit c;

	entry = stackmap_reserve(&c, data, sizeof(*entry) + len);
	if (!entry)
		return;
	entry->reason = reason;
	entry->depth = depth;
	entry->owner = owner;
	entry->flags = flags;
	if (c.after_loss)
		entry->flags |= STACKMAP_FLAG_AFTER_LOSS;
	entry->__data_loc_ips = offsetof(typeof(*entry), __data) | len << 16;
	memcpy(entry->__data, ips, len);
	stackmap_commit(&c);
}

/*
 * stack_fallback's reg callback: ring buffers get stackmap_fallback_probe(),
 * perf the usual probe.  Its consumer is the stack_cookie one of the same
 * trace array.
 */
static int stackmap_fallback_reg(struct trace_event_call *call,
				 enum trace_reg type, void *data)
{
	switch (type) {
	case TRACE_REG_REGISTER:
		return tracepoint_probe_register(call->tp,
						 stackmap_fallback_probe, data);
	case TRACE_REG_UNREGISTER:
		if (!tracepoint_probe_unregister(call->tp,
						 stackmap_fallback_probe, data))
			return 0;
		/* Enabled through trace_event_reg() before the module's init. */
		return trace_event_reg(call, type, data);
	default:
		return trace_event_reg(call, type, data);
	}
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
		ret = tracepoint_probe_unregister(call->tp, stackmap_cookie_probe,
						  data);
		/* After the unregister: it waits for the probe's last calls. */
		stackmap_consumer_remove(data);
		if (!ret)
			return 0;
		/* Enabled through trace_event_reg() before the module's init. */
		return trace_event_reg(call, type, data);
	case TRACE_REG_PERF_REGISTER:
		ret = trace_event_reg(call, type, data);
		if (!ret)
			stackmap_perf_users(true);
		return ret;
	case TRACE_REG_PERF_UNREGISTER:
		ret = trace_event_reg(call, type, data);
		if (!ret)
			stackmap_perf_users(false);
		return ret;
	default:
		return trace_event_reg(call, type, data);
	}
}

/**
 * stackmap_events_init() - check the contract, install the stack records'
 *	reg callbacks and the export that sees their commits
 *
 * Context: module init.  The module's events exist (and could be enabled)
 * a moment before init runs; stackmap_cookie_reg() undoes such an early
 * enable through trace_event_reg().
 */
void stackmap_events_init(void)
{
	stackmap_check_contract();
	WRITE_ONCE(event_class_stack_cookie.reg, stackmap_cookie_reg);
#ifdef CONFIG_PERF_EVENTS
	/*
	 * Perf's first user registers once, its last unregisters once
	 * (perf_trace_event_reg()): one that came before the reg above is
	 * noted here, and its unregister then finds the module counting it.
	 */
	if (READ_ONCE(event_stack_cookie.perf_refcount))
		stackmap_perf_users(true);
#endif
	WRITE_ONCE(event_class_stack_fallback.reg, stackmap_fallback_reg);
	/* Fails only for an export without a write function. */
	WARN_ON(register_ftrace_export(&stackmap_export));
}

/**
 * stackmap_events_exit() - remove the export
 *
 * Context: module exit, after every probe is gone.  The exports are walked
 * with preemption disabled: a grace period later none uses this one.
 */
void stackmap_events_exit(void)
{
	unregister_ftrace_export(&stackmap_export);
	synchronize_rcu();
}
