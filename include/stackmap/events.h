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
 *                                              same CPU, after the event it
 *                                              belongs to (its owner)
 *   stack_define   u64 cookie, u32 depth,      the stack a cookie names, at
 *                  u16 owner, u16 flags,       least once per recording before
 *                  u64 map_id,                 that cookie's first use (see
 *                  u8 frames[]                 "Definitions" below), and the
 *                                              map it is from ("Map identity");
 *                                              frames[] packs the depth
 *                                              addresses ips[] would hold
 *                                              (frames.h); older modules
 *                                              wrote unsigned long ips[depth]
 *   stack_fallback u32 reason, u32 depth,      instead of stack_cookie when
 *                  u16 owner, u16 flags,       the map could not give a cookie
 *                  unsigned long ips[depth]    (the stack is then carried
 *                                              whole; see enum below)
 *
 * ips[] (and frames[] unpacked) holds raw kernel addresses, innermost frame
 * first, and every frame
 * is a return address (stack_trace_save() records return addresses): frame
 * 0 of a tracepoint stack is the address after the call into the
 * tracepoint (`call __SCT__tp_func_NAME` on x86), frame 0 of a function
 * entry stack the address after the function's own `call __fentry__`
 * (FUNC + 5, or FUNC + 9 with X86_KERNEL_IBT).  A symbolizer must therefore
 * look every frame up at address - 1 (the call instruction) and print the
 * offset of the address itself, as the kernel's %pB does.  One exception:
 * where the unwinder crosses an interrupt or exception frame,
 * stack_trace_save() records that frame's regs->ip, the interrupted
 * instruction itself (the kernel prints it with %pS, not %pB).  Nothing in
 * ips[] marks it; a frame at a function's first byte (kallsyms offset 0) is
 * one for sure (no call precedes a function, bar a noreturn one, and 6.12's
 * __pfx_ padding rules that out too) and is looked up at itself; one in the
 * middle of a function cannot be told apart and gets the line before it.
 * Its element size is the recording kernel's long size (trace.dat records it).
 *
 * Owner.  @owner is the trace event id (the common_type every record starts
 * with, as listed in events/SYSTEM/EVENT/id and stored with the event
 * formats in trace.dat) of the event the stack was captured for: the
 * attached tracepoint's own event, or STACKMAP_EVENT_FUNCTION for a function
 * entry.  The owner is part of the map's key, so one cookie names one owner
 * by construction (and in practice one stack has one owner anyway: frame 0
 * is the return address of one call site, which belongs to one tracepoint
 * or one function).  The owner costs nothing per event: stack_cookie stays a
 * bare cookie, and the owner travels once per stack, in stack_define, the
 * map listing and the snapshot.  STACKMAP_OWNER_NONE is never written by
 * the module.
 *
 * Which event a stack belongs to.  A stack record (stack_cookie or
 * stack_fallback) is written by the probe that runs right after the owning
 * event's own probe, in the same context on the same CPU, by the same task,
 * so in the ring buffer of that CPU it follows its owner, possibly after
 * stack_define records and after records that an interrupt or NMI nested
 * in between (their events and their own stack records; on PREEMPT_RT also
 * the wakeups an interrupt does on its way out, which carry the interrupted
 * context's bits).  Where tracepoint probes run preemptible (from 6.13:
 * faultable syscall tracepoints; Debian's 7.x: every tracepoint) the module
 * pins the task to its CPU between the two probes, so the task stays on the
 * CPU but other tasks may run there first: their records, events of E's
 * type included, may come between E and its stack record; a hit it could
 * not pin flags its stack record (below).
 * A decoder gives event E the first stack record R that follows E on the
 * same CPU of the same buffer such that R's owner is E's common_type, R's
 * common_pid is E's and R's context bits (the NMI, hard- and soft-IRQ bits
 * of common_flags: STACKMAP_CONTEXT_FLAGS) equal E's; with no lost events,
 * no stack record flagged after a loss in between or as R
 * (STACKMAP_COOKIE_AFTER_LOSS, cookie.h; STACKMAP_FLAG_AFTER_LOSS on
 * stack_fallback: a stack record may have gone missing there since the
 * module's previous one, refused, discarded at its commit, dropped by the
 * module or written on another CPU, so R may be the stack of an event whose
 * own is missing, or E's own record the missing one) and no other event of
 * E's type and context in between, bar (in task context) other tasks'
 * events; nor a record of a shallower context, or of other context bits at
 * E's depth, in between (E's context was over), nor, in an interrupt
 * context, a stack record of E's type by another task (the task does not
 * change within an interrupt: E's was over).  lib/pairing.c implements
 * this rule for fgdecode and both plugins alike.
 * Every other stack record is an orphan: it must never be shown under
 * another event (the event it was captured for was filtered out, not
 * recorded in this buffer, or lost); a decoder shows it on its own, naming
 * the owner.  A cookie whose definition is unknown has no known owner: it
 * can be reported as unknown for the event it follows, never resolved.
 * What can still be lost, and is counted: an event whose stack record is
 * missing (refused, discarded, dropped, not pinned), or came after one that
 * is, has none (fgdecode: "without a stack"); a flagged stack record is an
 * orphan ("after a ring buffer loss"); the module's stats count each cause
 * (stackmap(7)).  Not covered: buffers beyond the module's 16 tracked
 * consumers, and perf.  Not detected: an event refused while tracing was off
 * whose stack record is taken because tracing came on again in the
 * microseconds between them (the ring buffer counts no such refusal).
 *
 * Definitions.  The module writes stack_define for a cookie before the
 * cookie's first use in a recording, and again: after a new consumer of
 * stack_cookie registers (another instance, perf) or one whose writes were
 * refused (tracing off) accepts them again, in which case the definition
 * of the first cookie it sees follows that cookie; and, in an overwriting
 * ring buffer that has wrapped, once the last definition is older than the
 * module parameter redefine_pct percent of the buffer's retained window (a
 * flight recorder keeps its definitions): then if a cookie reused it (a
 * refresh, which follows the cookies it serves), else before the next
 * cookie.  Identical definitions of one cookie are normal; a decoder reads
 * all of them before resolving, so a cookie whose earlier definition left
 * the buffer resolves from a later one.
 *
 * Map identity.  A cookie names a slot of one map: generations never repeat
 * within a boot, but do across boots and VM images (they are the boot time
 * in ms).  @map_id is a random 64-bit number the module draws when it loads
 * (never 0), the same for every generation of that load; the stack_map
 * listing's header and the stored snapshot carry it too.  A decoder
 * resolves a cookie from a listing or snapshot only if its map id is the
 * trace's (that of its definitions), and refuses one of another load naming
 * both ids.  Definitions without the field (stackmap 0.2 and before) and
 * listings or snapshots without an id are of unknown identity: matched by
 * generation and slot alone, as before.
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
#define STACKMAP_FIELD_FRAMES		"frames"
#define STACKMAP_FIELD_REASON		"reason"
#define STACKMAP_FIELD_IP		"ip"
#define STACKMAP_FIELD_PARENT_IP	"parent_ip"
#define STACKMAP_FIELD_OWNER		"owner"
#define STACKMAP_FIELD_FLAGS		"flags"
#define STACKMAP_FIELD_MAP_ID		"map_id"

/* @owner of a stack whose owning event is not known. */
#define STACKMAP_OWNER_NONE		0

/*
 * Bits of @flags.  STACKMAP_FLAG_TRUNCATED: the stack was deeper than the
 * module's max_depth and only its innermost frames are stored; a truncated
 * stack never shares a cookie with a whole one.  STACKMAP_FLAG_AFTER_LOSS,
 * in a stack_fallback record only: what STACKMAP_COOKIE_AFTER_LOSS is in a
 * stack_cookie (cookie.h); it is not part of the stack, and a reader strips
 * it.  Other bits are 0.
 */
#define STACKMAP_FLAG_TRUNCATED		0x1
#define STACKMAP_FLAG_AFTER_LOSS	0x2
#define STACKMAP_FLAGS_KNOWN		STACKMAP_FLAG_TRUNCATED

/*
 * The context bits of common_flags (the kernel's TRACE_FLAG_NMI,
 * TRACE_FLAG_HARDIRQ and TRACE_FLAG_SOFTIRQ, kernel/trace/trace.h, the same
 * values on every kernel since 2.6): a stack record and its owner agree on
 * them.
 */
#define STACKMAP_CONTEXT_NMI		0x40
#define STACKMAP_CONTEXT_HARDIRQ	0x08
#define STACKMAP_CONTEXT_SOFTIRQ	0x10
#define STACKMAP_CONTEXT_FLAGS		(STACKMAP_CONTEXT_NMI | \
					 STACKMAP_CONTEXT_HARDIRQ | \
					 STACKMAP_CONTEXT_SOFTIRQ)

/**
 * stackmap_context_level() - how deeply a record's context nests
 * @flags: the record's common_flags
 *
 * Return: 0 task, 1 soft IRQ, 2 hard IRQ, 3 NMI: a record of a deeper level
 * than its neighbours interrupted them.
 */
static inline int stackmap_context_level(unsigned int flags)
{
	if (flags & STACKMAP_CONTEXT_NMI)
		return 3;
	if (flags & STACKMAP_CONTEXT_HARDIRQ)
		return 2;
	return flags & STACKMAP_CONTEXT_SOFTIRQ ? 1 : 0;
}

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
