// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks at function entry: one ftrace_ops whose filter is the set of globs
 * written to the functions file.  An entry-only ftrace_ops callback: never
 * the function-graph tracer, fgraph or fprobe exit handlers, so attaching
 * gives no task a shadow stack and its cost does not grow with the number
 * of threads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>

#include "stackmap.h"
#include "stackmap_capture.h"
#include "stackmap_trace.h"

#define SM_GLOB_MAX	128

struct stackmap_glob {
	struct list_head list;
	char glob[SM_GLOB_MAX];
};

/* Protects the glob lists and the registration of stackmap_ops. */
static DEFINE_MUTEX(stackmap_function_lock);
static LIST_HEAD(stackmap_globs);
/* Globs dropped because they matched no function any more. */
static LIST_HEAD(stackmap_dropped_globs);
static unsigned int stackmap_globs_dropped;
static bool stackmap_ops_registered;

/*
 * Where a stack taken at a function's entry starts: frame 0 is the return
 * address of ftrace's call site in the function, and ftrace passes that
 * call instruction as @ip.  The frames before it (this module's, ftrace's
 * trampoline) are dropped up to the first one in [ip, ip +
 * MCOUNT_INSN_SIZE], which holds frame 0 and nothing of the caller.
 *
 * x86: the call site is the 5-byte "call __fentry__" at the function's
 * first byte (or after endbr64 under IBT: func+4); frame 0 is func+0x5
 * (func+0x9).  arm64 (patchable function entries): the entry holds
 * "mov x9, x30; bl ftrace_caller"; @ip is the BL (func+4, after a BTI
 * landing pad func+8), and ftrace_caller makes a frame record for the call
 * site whose return address is the next instruction: frame 0 is func+0x8
 * (func+0xc).  On both, MCOUNT_INSN_SIZE is the call's size (5, 4).
 * Another architecture keeps the trampoline's frames: nothing is trimmed.
 */
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
#define SM_FTRACE_CALL_SIZE	(MCOUNT_INSN_SIZE + 1)
#else
#define SM_FTRACE_CALL_SIZE	0
#endif

/*
 * The ftrace callback.  Context: the traced function's, any (NMI included),
 * RCU watching; ftrace_test_recursion_trylock() disables preemption until
 * the unlock.
 */
static void notrace stackmap_ftrace_func(unsigned long ip,
					 unsigned long parent_ip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	struct stackmap_skip skip = {
		.start = ip, .size = SM_FTRACE_CALL_SIZE, .mode = SM_SKIP_UNTIL,
	};
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		this_cpu_inc(stackmap_stats.recursion);
		return;
	}
	trace_function_entry(ip, parent_ip);
	stackmap_record(&skip, stackmap_function_owner(), false);
	ftrace_test_recursion_unlock(bit);
}

/*
 * FTRACE_OPS_FL_RCU: called only where RCU is watching.  Idle functions
 * (arch_cpu_idle) are traceable, and a callback outside RCU would escape
 * the grace period a reset waits for (6.12's recursion lock refuses such
 * calls by itself; 6.1's does not).
 */
#ifdef STACKMAP_TEST_NO_FTRACE_RCU
/*
 * TEST ONLY, never in a normal build (tests/vm/test_debug.sh passes
 * KCFLAGS=-DSTACKMAP_TEST_NO_FTRACE_RCU): the callback as it was before the
 * fix, so the debug kernel shows that its idle/reset phase catches the race.
 */
#define SM_FTRACE_FLAGS	0
MODULE_INFO(stackmap_test, "no_ftrace_rcu");
#else
#define SM_FTRACE_FLAGS	FTRACE_OPS_FL_RCU
#endif

static struct ftrace_ops stackmap_ops = {
	.func = stackmap_ftrace_func,
	.flags = SM_FTRACE_FLAGS,
};

static int stackmap_set_filter(struct ftrace_ops *ops, const char *glob,
			       int reset)
{
	char buf[SM_GLOB_MAX + 1];

	strscpy(buf, glob, sizeof(buf));
	return ftrace_set_filter(ops, buf, strlen(buf), reset);
}

/*
 * Does @glob match a traceable function now?  Tried on a filter of its own,
 * never registered: the live filter is not touched (a glob that matches
 * nothing is -EINVAL from ftrace_set_filter()).
 */
static int stackmap_glob_matches(const char *glob)
{
	struct ftrace_ops *ops;
	int ret;

	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	ret = stackmap_set_filter(ops, glob, 1);
	ftrace_free_filter(ops);
	kfree(ops);
	return ret;
}

/*
 * Drop every glob that matches no function any more: the functions were a
 * module's, and ftrace forgot them when it was unloaded.  Each one is
 * counted, logged and listed by the functions file from then on.
 */
static void stackmap_drop_stale_globs(void)
{
	struct stackmap_glob *g, *tmp;

	list_for_each_entry_safe(g, tmp, &stackmap_globs, list) {
		if (stackmap_glob_matches(g->glob) != -EINVAL)
			continue;
		pr_warn("function glob %s matches no function any more (its module was unloaded?): dropped\n",
			g->glob);
		list_move_tail(&g->list, &stackmap_dropped_globs);
		stackmap_globs_dropped++;
	}
}

/* Forget a dropped glob of that name, attached again or detached. */
static void stackmap_forget_dropped(const char *glob)
{
	struct stackmap_glob *g, *tmp;

	list_for_each_entry_safe(g, tmp, &stackmap_dropped_globs, list) {
		if (!strcmp(g->glob, glob)) {
			list_del(&g->list);
			kfree(g);
		}
	}
}

static void stackmap_ops_stop(void)
{
	if (!stackmap_ops_registered)
		return;
	/* Returns after every CPU left the callback. */
	unregister_ftrace_function(&stackmap_ops);
	stackmap_ops_registered = false;
}

/*
 * Add @glob's functions to the filter: in place while the ops is
 * registered (the other hooks stay on), else as its only glob and then
 * register it.  The ops is never registered with an empty filter, which
 * would mean every function.
 */
static int stackmap_filter_add(const char *glob)
{
	int ret;

	if (stackmap_ops_registered)
		return stackmap_set_filter(&stackmap_ops, glob, 0);
	ret = stackmap_set_filter(&stackmap_ops, glob, 1);
	if (ret)
		return ret;
	ret = register_ftrace_function(&stackmap_ops);
	if (!ret)
		stackmap_ops_registered = true;
	return ret;
}

/*
 * Take @glob's functions out of the registered filter, in place: remove
 * what it matches ("!glob"; nothing, if its module is gone), then add the
 * remaining globs again, which may match some of the same functions.
 * With no glob left, unregister the ops instead of leaving it empty.
 */
static int stackmap_filter_remove(const char *glob)
{
	struct stackmap_glob *g;
	char not[SM_GLOB_MAX + 1];
	int ret;

	if (list_empty(&stackmap_globs)) {
		stackmap_ops_stop();
		return 0;
	}
	if (!stackmap_ops_registered)
		return 0;
	snprintf(not, sizeof(not), "!%s", glob);
	ret = stackmap_set_filter(&stackmap_ops, not, 0);
	if (ret && ret != -EINVAL)
		return ret;
	list_for_each_entry(g, &stackmap_globs, list) {
		ret = stackmap_set_filter(&stackmap_ops, g->glob, 0);
		if (ret)
			return ret;
	}
	return 0;
}

static struct stackmap_glob *stackmap_find_glob(const char *glob)
{
	struct stackmap_glob *g;

	list_for_each_entry(g, &stackmap_globs, list)
		if (!strcmp(g->glob, glob))
			return g;
	return NULL;
}

/**
 * stackmap_attach_function() - record stacks at the entry of functions
 * @glob: an ftrace filter glob (as for set_ftrace_filter), no '!' prefix
 *
 * Context: process.  Globs attached before that match no function any more
 * (their module was unloaded) are dropped first.
 * Return: 0; -EINVAL for an over-long or empty glob or one that matches no
 * traceable function; -EEXIST if already attached; -ENOMEM; or the error of
 * ftrace_set_filter() or register_ftrace_function().
 */
static int stackmap_attach_function(const char *glob)
{
	struct stackmap_glob *g;
	int ret;

	if (!*glob || *glob == '!' || strlen(glob) >= SM_GLOB_MAX)
		return -EINVAL;
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	strscpy(g->glob, glob, sizeof(g->glob));
	mutex_lock(&stackmap_function_lock);
	stackmap_drop_stale_globs();
	ret = -EEXIST;
	if (stackmap_find_glob(glob))
		goto fail;
	/* The filter is unchanged when this fails. */
	ret = stackmap_filter_add(glob);
	if (ret)
		goto fail;
	list_add_tail(&g->list, &stackmap_globs);
	stackmap_forget_dropped(glob);
	mutex_unlock(&stackmap_function_lock);
	return 0;
fail:
	if (list_empty(&stackmap_globs))
		stackmap_ops_stop();
	mutex_unlock(&stackmap_function_lock);
	kfree(g);
	return ret;
}

/**
 * stackmap_detach_function() - stop recording at the functions of a glob
 * @glob: exactly as given to stackmap_attach_function()
 *
 * Context: process.  The other globs' functions stay hooked throughout but
 * those that @glob matches too, which go off for the moment between
 * removing @glob's and adding theirs again.  Globs that match no function
 * any more are dropped first.
 * Return: 0, -ENOENT if @glob is not attached (or was dropped: it is then
 * forgotten), or the error of ftrace_set_filter().
 */
static int stackmap_detach_function(const char *glob)
{
	struct stackmap_glob *g;
	int ret = -ENOENT;

	mutex_lock(&stackmap_function_lock);
	stackmap_drop_stale_globs();
	stackmap_forget_dropped(glob);
	g = stackmap_find_glob(glob);
	if (g) {
		list_del(&g->list);
		kfree(g);
		ret = stackmap_filter_remove(glob);
	}
	mutex_unlock(&stackmap_function_lock);
	return ret;
}

/* Free every glob of @list; the caller holds stackmap_function_lock. */
static void stackmap_free_globs(struct list_head *list)
{
	struct stackmap_glob *g, *tmp;

	list_for_each_entry_safe(g, tmp, list, list) {
		list_del(&g->list);
		kfree(g);
	}
}

/** stackmap_detach_all_functions() - detach every glob; no callback runs after. */
void stackmap_detach_all_functions(void)
{

	mutex_lock(&stackmap_function_lock);
	stackmap_ops_stop();
	stackmap_free_globs(&stackmap_globs);
	stackmap_free_globs(&stackmap_dropped_globs);
	mutex_unlock(&stackmap_function_lock);
}

/**
 * stackmap_function_exit() - detach everything and free the filter
 *
 * Context: module exit.  ftrace_free_filter() frees the hashes without
 * resetting the ops' pointers to them, so the ops must never be used again.
 */
void stackmap_function_exit(void)
{
	stackmap_detach_all_functions();
	ftrace_free_filter(&stackmap_ops);
}

/** stackmap_functions_dropped() - globs dropped since load: see above */
unsigned int stackmap_functions_dropped(void)
{
	return READ_ONCE(stackmap_globs_dropped);
}

/* Call @v with each glob of @list, under stackmap_function_lock. */
static void stackmap_visit_globs(struct list_head *list,
				 const struct stackmap_visitor *v)
{
	struct stackmap_glob *g;

	mutex_lock(&stackmap_function_lock);
	list_for_each_entry(g, list, list)
		v->fn(g->glob, v->arg);
	mutex_unlock(&stackmap_function_lock);
}

/* stackmap_points.visit: the attached globs. */
static void stackmap_visit_functions(const struct stackmap_visitor *v)
{
	stackmap_visit_globs(&stackmap_globs, v);
}

/* stackmap_points.visit_dropped: globs dropped for matching nothing. */
static void stackmap_visit_dropped_functions(const struct stackmap_visitor *v)
{
	stackmap_visit_globs(&stackmap_dropped_globs, v);
}

const struct stackmap_points stackmap_function_points = {
	.attach = stackmap_attach_function,
	.detach = stackmap_detach_function,
	.clear = stackmap_detach_all_functions,
	.visit = stackmap_visit_functions,
	.visit_dropped = stackmap_visit_dropped_functions,
};
