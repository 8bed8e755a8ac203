// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching stackmap to tracepoints by "system:event" name.  The probe is
 * registered below the default priority so that it runs after the event's
 * own probe, and stack_cookie lands right after the event it belongs to on
 * the same CPU (on kernels whose probes run preemptible, with the task
 * pinned to that CPU in between: "Pinning" below).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/trace_recursion.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "stackmap.h"
#include "stackmap_capture.h"

/*
 * Typed probes need the tracepoint's own stub (struct tracepoint's
 * probestub, from 6.5; Kbuild defines STACKMAP_HAVE_PROBESTUB) and the
 * argument registers in ftrace_regs (HAVE_DYNAMIC_FTRACE_WITH_ARGS: x86-64
 * and arm64 have it), read only through ftrace_regs_get_argument().
 */
#if defined(STACKMAP_HAVE_PROBESTUB) && \
	defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
#define SM_TYPED_PROBES
#endif

#define SM_NAME_MAX	64
#define SM_PROBE_PRIO	(TRACEPOINT_DEFAULT_PRIO - 1)
#define SM_OWNERS	128

/**
 * struct stackmap_attached - one attached tracepoint
 * @list: in stackmap_attached_list
 * @file: the event's top-level file, held (trace_get_event_file()) so that
 *	the event, and a module that defines it, stay while attached
 * @tp: the event's tracepoint
 * @skip: the tracepoint's iterator, trimmed from stacks
 * @owner: the event's id, recorded with every stack
 * @typed: attached through the tracepoint's typed stub ("Typed probes")
 * @ops: typed: the ftrace_ops on the stub's entry
 * @pin: typed: its address is the data of the pinning registration
 * @name: "system:event", as the kernel spells it
 */
struct stackmap_attached {
	struct list_head list;
	struct trace_event_file *file;
	struct tracepoint *tp;
	struct stackmap_skip skip;
	u16 owner;
	bool typed;
#ifdef SM_TYPED_PROBES
	struct ftrace_ops ops;
	char pin;
#endif
	char name[SM_NAME_MAX];
};

/* Protects stackmap_attached_list and the owner names; process context. */
static DEFINE_MUTEX(stackmap_attach_lock);
static LIST_HEAD(stackmap_attached_list);

/*
 * Names of every owner a stack may carry, never removed (a stack outlives
 * its attachment until the next reset): entries [0, nr) are complete.
 */
static struct {
	u16 owner;
	char name[SM_NAME_MAX];
} stackmap_owners[SM_OWNERS];
static unsigned int stackmap_nr_owners;

/**
 * stackmap_owner_register() - remember the name of an owner event id
 * @owner: trace event id
 * @name: "system:event"
 *
 * Context: process, stackmap_attach_lock held or module init.
 * Return: 0, or -ENOSPC when SM_OWNERS names are known already.
 */
int stackmap_owner_register(u16 owner, const char *name)
{
	unsigned int i, nr = stackmap_nr_owners;

	for (i = 0; i < nr; i++)
		if (stackmap_owners[i].owner == owner)
			return 0;
	if (nr >= SM_OWNERS)
		return -ENOSPC;
	stackmap_owners[nr].owner = owner;
	strscpy(stackmap_owners[nr].name, name, SM_NAME_MAX);
	/* The entry is complete before it is counted; pairs with the reader. */
	smp_store_release(&stackmap_nr_owners, nr + 1);
	return 0;
}

/**
 * stackmap_owner_name() - "system:event" of an owner event id
 * @owner: trace event id
 *
 * Context: any process context.
 * Return: the name, or "?" for an id never attached.
 */
const char *stackmap_owner_name(u16 owner)
{
	/* Pairs with smp_store_release() in stackmap_owner_register(). */
	unsigned int i, nr = smp_load_acquire(&stackmap_nr_owners);

	for (i = 0; i < nr; i++)
		if (stackmap_owners[i].owner == owner)
			return stackmap_owners[i].name;
	return "?";
}

/*
 * The typed stub registered for @a instead of stackmap_probe() and
 * stackmap_pin_probe(), or NULL ("Typed probes" below), and the data of
 * the pinning registration: the stub is registered twice, so with data
 * that tells the two apart.
 */
#ifdef SM_TYPED_PROBES
static void *stackmap_stub(const struct stackmap_attached *a)
{
	return a->typed ? a->tp->probestub : NULL;
}

static inline void *stackmap_pin_key(struct stackmap_attached *a)
{
	return a->typed ? (void *)&a->pin : (void *)a;
}
#else
static void *stackmap_stub(const struct stackmap_attached *a)
{
	return NULL;
}

static inline void *stackmap_pin_key(struct stackmap_attached *a)
{
	return a;
}
#endif

#ifdef STACKMAP_PREEMPTIBLE_PROBES
/*
 * Pinning.  From 6.13 tracepoint probes may run preemptible (Kbuild
 * defines STACKMAP_PREEMPTIBLE_PROBES where tracepoint.h has
 * tracepoint_is_faultable()): faultable syscall tracepoints (raw_syscalls)
 * under tasks-trace RCU, and on Debian's 7.2 and 7.3 every tracepoint under
 * guard(srcu_fast_notrace) (6.12 still disables preemption around the
 * probes).  The event's own probe disables
 * preemption only for itself, so between it and stackmap_probe() the task
 * could move to another CPU and its stack record land there after another
 * task's event.  stackmap_pin_probe() runs before the event's probe (a
 * priority above the default) and disables migration for a task that is
 * preemptible there; stackmap_probe() enables it again.  Migration, not
 * preemption: a faultable probe may sleep.  Another task may still run on
 * this CPU between the two probes; its records then sit between the event
 * and its stack record, which the decoders' rules handle (events.h).  The
 * cost is visible in the trace: the attached events record migration
 * disabled (the migrate-disable digit of trace-cmd report's flags column).
 *
 * Each CPU keeps the tasks pinned there and not yet unpinned (a task that is
 * preempted between the probes stays pinned while others run): the unpin
 * must find its own task and tracepoint, since the probe array a hit walks
 * may hold stackmap_probe() without stackmap_pin_probe() while they are
 * registered (registered after it, unregistered before it, so never the
 * reverse), and a preempted pinned task passes other tracepoints' probes
 * (stackmap_unpin()).
 */
#define SM_PIN_PRIO	(TRACEPOINT_DEFAULT_PRIO + 1)
#define SM_PINNED	8

struct stackmap_pinned {
	struct task_struct *task[SM_PINNED];
	const void *point[SM_PINNED];	/* the stackmap_attached it was for */
};

static DEFINE_PER_CPU(struct stackmap_pinned, stackmap_pinned);

#ifdef STACKMAP_TEST_PIN_SLOTS
/*
 * TEST ONLY, never in a normal build (tests/vm/test_pairing.sh passes
 * KCFLAGS=-DSTACKMAP_TEST_PIN_SLOTS): how many entries of each CPU's pin
 * table a pin may use, so that the test can drive the table full.
 */
static unsigned int stackmap_pin_slots = SM_PINNED;
module_param_named(test_pin_slots, stackmap_pin_slots, uint, 0644);
MODULE_PARM_DESC(test_pin_slots, "TEST ONLY: entries of each CPU's pin table in use");
MODULE_INFO(stackmap_test, "pin_slots");
#define stackmap_pin_limit()	min_t(unsigned int, READ_ONCE(stackmap_pin_slots), SM_PINNED)
#else
#define stackmap_pin_limit()	SM_PINNED
#endif

/*
 * Must a hit in this context be pinned, and may it be?  In task context,
 * where preemption is on: in the tracepoint's own context (stackmap_probe()
 * and stackmap_pin_probe(), called by the tracepoint).  A typed hook
 * (@typed) may be called by ftrace's list function, which disables
 * preemption around each callback only (another ftrace_ops on the same stub,
 * the function tracer): it cannot tell, and pins whenever interrupts are on.
 * That is legal wherever it runs: migrate_disable() and migrate_enable()
 * nest in any task context, and the locks migrate_enable() may take (the
 * task's pi_lock, its runqueue's lock) are only held with interrupts off.
 */
static bool stackmap_pin_wanted(bool typed)
{
	if (!in_task())
		return false;
	return typed ? !irqs_disabled() : preemptible();
}

static void stackmap_pin(void *data, bool typed)
{
	struct stackmap_pinned *pinned;
	unsigned int i, limit = stackmap_pin_limit();

	if (!stackmap_pin_wanted(typed))
		return;
	migrate_disable();
	preempt_disable_notrace();
	pinned = this_cpu_ptr(&stackmap_pinned);
	for (i = 0; i < limit && pinned->task[i]; i++)
		;
	if (i < limit) {
		pinned->task[i] = current;
		pinned->point[i] = data;
	}
	preempt_enable_notrace();
	if (i == limit) {
		migrate_enable();
		this_cpu_inc(stackmap_stats.unpinned);
	}
}

static void stackmap_pin_probe(void *data)
{
	if (stackmap_bench_stop(SM_STAGE_DISPATCH))
		return;
	stackmap_pin(data, false);
}

/*
 * Was this hit of @a's tracepoint left unpinned where it had to be pinned
 * (the pin table was full: counted there, or the pinning probe was not
 * registered yet)?  Its stack record is then flagged so that no event takes
 * it (stackmap_record()).
 */
static bool stackmap_unpinned(const struct stackmap_attached *a, bool typed)
{
	struct stackmap_pinned *pinned;
	bool found = false;
	int i;

	if (!stackmap_pin_wanted(typed))
		return false;
	preempt_disable_notrace();
	pinned = this_cpu_ptr(&stackmap_pinned);
	for (i = 0; i < SM_PINNED && !found; i++)
		found = pinned->task[i] == current && pinned->point[i] == a;
	preempt_enable_notrace();
	return !found;
}

/*
 * After the stack record: enable migration if this hit of @a's tracepoint
 * disabled it.  The entry must be this tracepoint's too: a task pinned at
 * one tracepoint and preempted before its stack record passes through
 * another (sched_switch, in __schedule() with the runqueue locked), where
 * migrate_enable() must not run (it hung 7.3 guests in vm-answers).
 */
static void stackmap_unpin(const struct stackmap_attached *a)
{
	struct stackmap_pinned *pinned;
	int i;

	if (!in_task())
		return;
	preempt_disable_notrace();
	pinned = this_cpu_ptr(&stackmap_pinned);
	for (i = SM_PINNED - 1; i >= 0; i--)
		if (pinned->task[i] == current && pinned->point[i] == a)
			break;
	if (i >= 0)
		pinned->task[i] = NULL;
	preempt_enable_notrace();
	if (i >= 0)
		migrate_enable();
}

/* What pins for @a: the typed stub, or stackmap_pin_probe(). */
static void *stackmap_pin_fn(const struct stackmap_attached *a)
{
	return stackmap_stub(a) ?: (void *)stackmap_pin_probe;
}

static int stackmap_pin_register(struct stackmap_attached *a)
{
	return tracepoint_probe_register_prio(a->tp, stackmap_pin_fn(a),
					      stackmap_pin_key(a), SM_PIN_PRIO);
}

static void stackmap_pin_unregister(struct stackmap_attached *a)
{
	tracepoint_probe_unregister(a->tp, stackmap_pin_fn(a),
				    stackmap_pin_key(a));
}
#else
/* Probes run with preemption disabled: the task cannot move between them. */
static inline void stackmap_pin(void *data, bool typed)
{
}

static inline void stackmap_pin_probe(void *data)
{
}

static bool stackmap_unpinned(const struct stackmap_attached *a, bool typed)
{
	return false;
}

static void stackmap_unpin(const struct stackmap_attached *a)
{
}

static int stackmap_pin_register(struct stackmap_attached *a)
{
	return 0;
}

static void stackmap_pin_unregister(struct stackmap_attached *a)
{
}
#endif

/*
 * Tracepoint probe.  Called with the tracepoint's own arguments after @data;
 * it uses none of them, so one probe serves every tracepoint prototype
 * (the calling convention passes them in registers the probe ignores).
 *
 * Not under kCFI (CONFIG_CFI_CLANG; CONFIG_CFI from 6.18; x86-64 and arm64
 * alike, Android's arm64 kernels among them): there every indirect call
 * checks that the callee has the pointer's exact type, and a tracepoint
 * calls its probes through its own prototype, so this probe would trap at
 * the first hit.  Such kernels attach through typed probes instead (below).
 */
#if defined(CONFIG_CFI_CLANG) || defined(CONFIG_CFI)
#define SM_UNTYPED_PROBES_TRAP	true
#else
#define SM_UNTYPED_PROBES_TRAP	false
#endif

/* The capture is inlined here: one frame of this module under the walk. */
static void stackmap_probe(void *data)
{
	struct stackmap_attached *a = data;
	bool unpinned;

	if (stackmap_bench_stop(SM_STAGE_DISPATCH))
		return;
	unpinned = stackmap_unpinned(a, false);
	if (!stackmap_bench_stop(SM_STAGE_PIN))
		stackmap_record(&a->skip, a->owner, unpinned);
	stackmap_unpin(a);
}

/* What records for @a: the typed stub, or stackmap_probe(). */
static void *stackmap_probe_fn(const struct stackmap_attached *a)
{
	return stackmap_stub(a) ?: (void *)stackmap_probe;
}

/*
 * Typed probes.  Every tracepoint (from 6.5) has a stub of its own exact
 * prototype, __probestub_NAME (struct tracepoint's probestub), which does
 * nothing.  The module registers that stub as the tracepoint's probe, with
 * the usual priorities and @a (or &@a->pin, the pinning registration) as
 * its data, and hooks the stub's entry with an ftrace_ops of its own whose
 * callback reads the data from the first argument register (rdi on x86-64,
 * x0 on arm64, through ftrace_regs_get_argument()): the way
 * fprobe-based tracepoint events (trace_fprobe.c) attach.  Every indirect
 * call then has its callee's exact type, so this works under kCFI, where it
 * is the default; the typed_probes parameter selects it elsewhere (the
 * tests do).  Another user of the same stub (an fprobe event on that
 * tracepoint) passes other data, which the callback ignores.  The ftrace_ops
 * has neither FTRACE_OPS_FL_RECURSION nor FTRACE_OPS_FL_RCU, so that alone
 * on the stub it is called straight from its trampoline, in the
 * tracepoint's own context: pinning needs to see whether that context is
 * preemptible.  When another ftrace_ops hooks the stub too (the function
 * tracer on everything), ftrace's list function calls it with preemption
 * disabled, and a task is not pinned; its stack record may then land on
 * another CPU, an orphan there and its event without a stack (counted,
 * never paired).  The stack starts after the stub's frame
 * (stackmap_skip.stub_start): the trampoline's frames come before it (on
 * arm64 ftrace_caller's frame record for the stub's call site, whose
 * return address lies inside the stub, as on x86).
 */
static bool stackmap_typed_probes = SM_UNTYPED_PROBES_TRAP;
module_param_named(typed_probes, stackmap_typed_probes, bool, 0644);
MODULE_PARM_DESC(typed_probes,
		 "Attach tracepoints through their own typed __probestub_NAME, hooked with ftrace (6.5 and later; the default, and required, under kCFI); a write applies to tracepoints attached after it");

#ifdef STACKMAP_TEST_FAIL_RECURSION
/*
 * TEST ONLY, never in a normal build (tests/vm/test_pinleak.sh passes
 * KCFLAGS=-DSTACKMAP_TEST_FAIL_RECURSION): debugfs test_fail_recursion holds
 * how many typed hits to come find the recursion lock taken, as a hit that
 * recursed does, so that the test can show such a hit still unpins.
 */
atomic_t stackmap_test_fail_recursion;
MODULE_INFO(stackmap_test, "fail_recursion");
#endif

#ifdef STACKMAP_BENCH_STAGES
/*
 * BENCH ONLY, never in a normal build (tests/bench/run.sh passes
 * KCFLAGS=-DSTACKMAP_BENCH_STAGES): bench_stage, the last step every hit
 * takes (enum stackmap_bench_stage; the whole path at load).  It changes
 * only while no tracepoint is attached, so that the pinning probe and the
 * recording probe of a hit always agree (a pin without its unpin would keep
 * the task on its CPU for good).
 */
unsigned int stackmap_bench_stage = SM_STAGE_COOKIE;

static int stackmap_bench_stage_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int stage;
	int ret = kstrtouint(val, 0, &stage);

	if (ret)
		return ret;
	if (stage > SM_STAGE_COOKIE)
		return -EINVAL;
	mutex_lock(&stackmap_attach_lock);
	if (list_empty(&stackmap_attached_list))
		WRITE_ONCE(stackmap_bench_stage, stage);
	else
		ret = -EBUSY;
	mutex_unlock(&stackmap_attach_lock);
	return ret;
}

static const struct kernel_param_ops stackmap_bench_stage_ops = {
	.set = stackmap_bench_stage_set,
	.get = param_get_uint,
};

module_param_cb(bench_stage, &stackmap_bench_stage_ops, &stackmap_bench_stage,
		0644);
MODULE_PARM_DESC(bench_stage,
		 "BENCH ONLY: the last step of every hit: 0 dispatch, 1 pin, 2 walk, 3 trim, 4 lookup, 5 cookie (all); changes only while no tracepoint is attached");
MODULE_INFO(stackmap_test, "bench_stages");
#endif

#ifdef SM_TYPED_PROBES
#ifdef STACKMAP_TEST_FAIL_RECURSION
static int notrace stackmap_recursion_trylock(unsigned long ip,
					      unsigned long parent_ip)
{
	if (atomic_dec_if_positive(&stackmap_test_fail_recursion) >= 0)
		return -1;
	return ftrace_test_recursion_trylock(ip, parent_ip);
}
#else
#define stackmap_recursion_trylock	ftrace_test_recursion_trylock
#endif

/*
 * The stack record of a typed hit, under ftrace's recursion lock (the
 * stub's ftrace_ops has no FTRACE_OPS_FL_RECURSION): a hit that recursed is
 * dropped and counted.  It only records: the caller unpins, whatever
 * happened here.  Inlined into stackmap_stub_func(), so that the stub's
 * hook is the one frame of this module under the walk (stackmap_capture.h).
 */
static __always_inline void stackmap_typed_record(struct stackmap_attached *a,
						  unsigned long ip,
						  unsigned long parent_ip)
{
	int bit = stackmap_recursion_trylock(ip, parent_ip);
	bool unpinned;

	if (bit < 0) {
		this_cpu_inc(stackmap_stats.recursion);
		stackmap_consumers_debt();
		return;
	}
	unpinned = stackmap_unpinned(a, true);
	if (!stackmap_bench_stop(SM_STAGE_PIN))
		stackmap_record(&a->skip, a->owner, unpinned);
	ftrace_test_recursion_unlock(bit);
}

static void notrace stackmap_stub_func(unsigned long ip,
				       unsigned long parent_ip,
				       struct ftrace_ops *op,
				       struct ftrace_regs *fregs)
{
	struct stackmap_attached *a = container_of(op, struct stackmap_attached,
						   ops);
	void *data = (void *)ftrace_regs_get_argument(fregs, 0);

	if (stackmap_bench_stop(SM_STAGE_DISPATCH))
		return;
	if (data == &a->pin) {
		stackmap_pin(a, true);
		return;
	}
	if (data != a)
		return;
	/*
	 * The pinning hit before this one may have pinned the task: unpin
	 * after the record whatever it did, a drop included (a pin never
	 * released keeps the task on its CPU for good, and that CPU can then
	 * not go offline), as stackmap_probe() does.  Outside the recursion
	 * lock, which disables preemption.
	 */
	stackmap_typed_record(a, ip, parent_ip);
	stackmap_unpin(a);
}

/*
 * x86's IBT, without kCFI: an indirect call must land on an ENDBR64.  The
 * kernels built between objtool's "exclude __tracepoints data from ENDBR
 * checks" and "tracing: Fix CFI violation in probestub being called by
 * tprobes" seal __probestub_NAME (its only reference is in __tracepoints
 * data): at boot its ENDBR64 becomes a NOP, and the stub, registered as a
 * probe, would fault at the first hit.  Sealing happens only where the CPU
 * enforces IBT.  Under kCFI (FineIBT) calls land on the function's
 * preamble instead, and the stub is checked as every probe is.  arm64's BTI
 * needs nothing of this: its kernels seal no function, and the stub, a C
 * function, starts with its landing pad (BTI C or PACIASP) where the kernel
 * is built for BTI.
 */
static bool stackmap_stub_callable(const void *stub)
{
#if defined(CONFIG_X86_KERNEL_IBT) && \
	!defined(CONFIG_CFI_CLANG) && !defined(CONFIG_CFI)
	u32 insn;

	if (!cpu_feature_enabled(X86_FEATURE_IBT))
		return true;
	/* ENDBR64: f3 0f 1e fa (arch/x86/include/asm/ibt.h, gen_endbr()). */
	return !copy_from_kernel_nofault(&insn, stub, sizeof(insn)) &&
	       insn == 0xfa1e0ff3;
#else
	return true;
#endif
}

/* Hook the stub's entry before the stub is registered as a probe. */
static int stackmap_typed_hook(struct stackmap_attached *a)
{
	int ret;

	if (!stackmap_stub_callable(a->tp->probestub)) {
		pr_warn_once("IBT: %ps has no ENDBR (sealed): typed probes would fault; attach with typed_probes=0\n",
			     a->tp->probestub);
		return -EOPNOTSUPP;
	}
	a->ops.func = stackmap_stub_func;
	/*
	 * Permanent, as livepatch's ftrace_ops are: a hit's pin and its record
	 * are two calls of the stub, and with ftrace_enabled switched off
	 * between them the second would not reach the callback, leaving the
	 * task migrate-disabled for good.  The sysctl refuses to switch
	 * ftrace off while this is registered (-EBUSY), and registering it
	 * while ftrace is off fails with -EBUSY.
	 */
	a->ops.flags = FTRACE_OPS_FL_PERMANENT;
	ret = ftrace_set_filter_ip(&a->ops, (unsigned long)a->tp->probestub,
				   0, 0);
	if (!ret)
		ret = register_ftrace_function(&a->ops);
	if (ret)
		ftrace_free_filter(&a->ops);
	return ret;
}

/* After the stub's registrations are gone and their callers done. */
static void stackmap_typed_unhook(struct stackmap_attached *a)
{
	unregister_ftrace_function(&a->ops);
	ftrace_free_filter(&a->ops);
}

static bool stackmap_typed_available(void)
{
	return true;
}
#else
static int stackmap_typed_hook(struct stackmap_attached *a)
{
	return -EOPNOTSUPP;
}

static void stackmap_typed_unhook(struct stackmap_attached *a)
{
}

static bool stackmap_typed_available(void)
{
	return false;
}
#endif

/**
 * stackmap_typed_tracepoints() - how many attached tracepoints use typed probes
 *
 * Context: process.
 */
unsigned int stackmap_typed_tracepoints(void)
{
	struct stackmap_attached *a;
	unsigned int n = 0;

	mutex_lock(&stackmap_attach_lock);
	list_for_each_entry(a, &stackmap_attached_list, list)
		n += a->typed;
	mutex_unlock(&stackmap_attach_lock);
	return n;
}

/*
 * The size of the function at @start, from kallsyms: "name+0x0/0xSIZE",
 * followed by " [module]" for a module's; 0 when unknown.
 */
static unsigned long stackmap_symbol_size(const void *start)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *slash;

	if (!start)
		return 0;
	sprint_symbol(sym, (unsigned long)start);
	slash = strchr(sym, '/');
	if (!slash)
		return 0;
	sym[strcspn(sym, " ")] = '\0';
	return kstrtoul(slash + 1, 16, &size) ? 0 : size;
}

/*
 * The range of the tracepoint's iterator function, whose frame sits between
 * the probe and the traced code when more than one probe is attached; also
 * the typed stub's, whose frame comes first (typed probes).
 */
static void stackmap_iterator_range(struct stackmap_attached *a)
{
	void *stub = stackmap_stub(a);

	a->skip.start = (unsigned long)a->tp->iterator;
	a->skip.size = stackmap_symbol_size(a->tp->iterator);
	a->skip.mode = SM_SKIP_ONE;
	a->skip.stub_start = (unsigned long)stub;
	a->skip.stub_size = stackmap_symbol_size(stub);
}

/*
 * Register @a's probes: stackmap_probe() (or the typed stub, hooked first),
 * then the pinning probe ("Pinning"), which must never run without the
 * other.  Undone on failure.
 */
static int stackmap_register(struct stackmap_attached *a)
{
	int ret;

	if (a->typed) {
		ret = stackmap_typed_hook(a);
		if (ret)
			return ret;
	}
	ret = tracepoint_probe_register_prio(a->tp, stackmap_probe_fn(a), a,
					     SM_PROBE_PRIO);
	if (!ret) {
		ret = stackmap_pin_register(a);
		if (ret) {
			tracepoint_probe_unregister(a->tp, stackmap_probe_fn(a),
						    a);
			tracepoint_synchronize_unregister();
		}
	}
	if (ret && a->typed)
		stackmap_typed_unhook(a);
	return ret;
}

/* Undo stackmap_register(); no probe uses @a when it returns. */
static void stackmap_unregister(struct stackmap_attached *a)
{
	/* Before stackmap_probe(): see "Pinning". */
	stackmap_pin_unregister(a);
	tracepoint_probe_unregister(a->tp, stackmap_probe_fn(a), a);
	/* No probe may still use @a once every CPU left its tracepoint call. */
	tracepoint_synchronize_unregister();
	if (a->typed)
		stackmap_typed_unhook(a);
}

static struct stackmap_attached *stackmap_find_attached(const char *name)
{
	struct stackmap_attached *a;

	list_for_each_entry(a, &stackmap_attached_list, list)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

static bool stackmap_event_attached(const struct trace_event_call *call)
{
	struct stackmap_attached *a;

	list_for_each_entry(a, &stackmap_attached_list, list)
		if (a->file->event_call == call)
			return true;
	return false;
}

/*
 * Split "system:event" into @buf; set @event to its event part.  Both parts
 * must be non-empty and the system not stackmap's own.
 */
static int stackmap_split_name(const char *name, char *buf, char **event)
{
	char *colon;

	if (strscpy(buf, name, SM_NAME_MAX) < 0)
		return -EINVAL;
	colon = strchr(buf, ':');
	if (!colon || colon == buf || !colon[1] || strchr(colon + 1, ':'))
		return -EINVAL;
	*colon = '\0';
	if (!strcmp(buf, STACKMAP_SYSTEM))
		return -EINVAL;
	*event = colon + 1;
	return 0;
}

/* Take the event's file and fill @a; the caller holds stackmap_attach_lock. */
static int stackmap_find_event(const char *name, struct stackmap_attached *a)
{
	struct trace_event_call *call;
	char buf[SM_NAME_MAX], *event;
	int ret;

	ret = stackmap_split_name(name, buf, &event);
	if (ret)
		return ret;
	a->file = trace_get_event_file(NULL, buf, event);
	if (IS_ERR(a->file))
		return -ENOENT;
	call = a->file->event_call;
	ret = -EOPNOTSUPP;
	if (!(call->flags & TRACE_EVENT_FL_TRACEPOINT) || !call->tp)
		goto fail;
	ret = -EEXIST;
	if (stackmap_event_attached(call))
		goto fail;
	a->tp = call->tp;
	a->owner = call->event.type;
	snprintf(a->name, sizeof(a->name), "%s:%s", call->class->system,
		 trace_event_name(call));
	ret = stackmap_owner_register(a->owner, a->name);
	if (ret)
		goto fail;
	return 0;
fail:
	trace_put_event_file(a->file);
	return ret;
}

/**
 * stackmap_attach_tracepoint() - record stacks at a tracepoint
 * @name: "system:event", the name of a trace event (events/SYSTEM/EVENT)
 *	whose tracepoint the stacks are taken at
 *
 * Context: process.
 * Return: 0; -EINVAL for a name that is not "system:event", too long, or of
 * stackmap's own events; -ENOENT when no trace event has that system and
 * name; -EOPNOTSUPP for an event without a tracepoint of its own (kprobe,
 * syscall, synthetic events); -EEXIST if that event is attached already;
 * -ENOSPC when 128 distinct events were attached since load; -ENOMEM; or
 * the error of tracepoint_probe_register_prio() or, with typed probes, of
 * ftrace_set_filter_ip() and register_ftrace_function() (-EBUSY while
 * /proc/sys/kernel/ftrace_enabled is 0: stackmap_typed_hook()).  -EOPNOTSUPP for
 * every name with typed probes where the kernel has none (before 6.5) and
 * without them on a kCFI kernel (see stackmap_probe()).
 */
static int stackmap_attach_tracepoint(const char *name)
{
	bool typed = READ_ONCE(stackmap_typed_probes);
	struct stackmap_attached *a;
	int ret;

	if (typed && !stackmap_typed_available()) {
		pr_warn_once("typed probes need the tracepoints' __probestub_NAME (6.5 and later) and ftrace with arguments: tracepoints cannot be attached\n");
		return -EOPNOTSUPP;
	}
	if (!typed && SM_UNTYPED_PROBES_TRAP) {
		pr_warn_once("kCFI kernel: tracepoints need typed_probes=1\n");
		return -EOPNOTSUPP;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->typed = typed;
	mutex_lock(&stackmap_attach_lock);
	ret = stackmap_find_event(name, a);
	if (ret)
		goto fail;
	stackmap_iterator_range(a);
	ret = stackmap_register(a);
	if (ret) {
		trace_put_event_file(a->file);
		goto fail;
	}
	list_add_tail(&a->list, &stackmap_attached_list);
	mutex_unlock(&stackmap_attach_lock);
	return 0;
fail:
	mutex_unlock(&stackmap_attach_lock);
	kfree(a);
	return ret;
}

static void stackmap_detach_one(struct stackmap_attached *a)
{
	stackmap_unregister(a);
	list_del(&a->list);
	trace_put_event_file(a->file);
	kfree(a);
}

/**
 * stackmap_detach_tracepoint() - stop recording stacks at a tracepoint
 * @name: "system:event", as the tracepoints file lists it
 *
 * Context: process, sleeps for a grace period.
 * Return: 0, or -ENOENT if @name is not attached.
 */
static int stackmap_detach_tracepoint(const char *name)
{
	struct stackmap_attached *a;
	int ret = -ENOENT;

	mutex_lock(&stackmap_attach_lock);
	a = stackmap_find_attached(name);
	if (a) {
		stackmap_detach_one(a);
		ret = 0;
	}
	mutex_unlock(&stackmap_attach_lock);
	return ret;
}

/** stackmap_detach_all() - detach every tracepoint; no probe runs after. */
void stackmap_detach_all(void)
{
	struct stackmap_attached *a, *tmp;

	mutex_lock(&stackmap_attach_lock);
	list_for_each_entry_safe(a, tmp, &stackmap_attached_list, list)
		stackmap_detach_one(a);
	mutex_unlock(&stackmap_attach_lock);
}

/* stackmap_points.visit: the attached events, "system:event". */
static void stackmap_visit_tracepoints(const struct stackmap_visitor *v)
{
	struct stackmap_attached *a;

	mutex_lock(&stackmap_attach_lock);
	list_for_each_entry(a, &stackmap_attached_list, list)
		v->fn(a->name, v->arg);
	mutex_unlock(&stackmap_attach_lock);
}

const struct stackmap_points stackmap_tracepoint_points = {
	.attach = stackmap_attach_tracepoint,
	.detach = stackmap_detach_tracepoint,
	.visit = stackmap_visit_tracepoints,
};
