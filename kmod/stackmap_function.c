// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks at function entry: one ftrace_ops whose filter is the set of globs
 * written to the functions file.  An entry-only ftrace_ops callback: never
 * the function-graph tracer, fgraph or fprobe exit handlers, so attaching
 * gives no task a shadow stack and its cost does not grow with the number
 * of threads.
 */
#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>

#include "stackmap.h"
#include "stackmap_trace.h"

#define SM_GLOB_MAX	128

struct stackmap_glob {
	struct list_head list;
	char glob[SM_GLOB_MAX];
};

/* Protects the glob list and the registration of stackmap_ops. */
static DEFINE_MUTEX(stackmap_function_lock);
static LIST_HEAD(stackmap_globs);
static bool stackmap_ops_registered;

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
	/* The stack starts at the call site of ftrace in the function itself. */
	struct stackmap_skip skip = {
		.start = ip, .size = MCOUNT_INSN_SIZE + 1, .mode = SM_SKIP_UNTIL,
	};
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		this_cpu_inc(stackmap_stats.recursion);
		return;
	}
	trace_function_entry(ip, parent_ip);
	stackmap_record(&skip, stackmap_function_owner());
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

static int stackmap_set_filter(const char *glob, int reset)
{
	char buf[SM_GLOB_MAX];

	strscpy(buf, glob, sizeof(buf));
	return ftrace_set_filter(&stackmap_ops, buf, strlen(buf), reset);
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
 * Rebuild the filter from the glob list and register the ops if the list is
 * not empty.  The ops is never registered with an empty filter, which would
 * mean every function.
 */
static int stackmap_ops_restart(void)
{
	struct stackmap_glob *g;
	int reset = 1, ret;

	stackmap_ops_stop();
	if (list_empty(&stackmap_globs))
		return 0;
	list_for_each_entry(g, &stackmap_globs, list) {
		ret = stackmap_set_filter(g->glob, reset);
		if (ret)
			return ret;
		reset = 0;
	}
	ret = register_ftrace_function(&stackmap_ops);
	if (!ret)
		stackmap_ops_registered = true;
	return ret;
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
 * Context: process.
 * Return: 0; -EINVAL for an over-long or empty glob or one that matches no
 * traceable function; -EEXIST if already attached; -ENOMEM; or the error of
 * register_ftrace_function().
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
	ret = -EEXIST;
	if (stackmap_find_glob(glob))
		goto fail;
	list_add_tail(&g->list, &stackmap_globs);
	ret = stackmap_ops_restart();
	if (ret) {
		list_del(&g->list);
		stackmap_ops_restart();
		goto fail;
	}
	mutex_unlock(&stackmap_function_lock);
	return 0;
fail:
	mutex_unlock(&stackmap_function_lock);
	kfree(g);
	return ret;
}

/**
 * stackmap_detach_function() - stop recording at the functions of a glob
 * @glob: exactly as given to stackmap_attach_function()
 *
 * Context: process.
 * Return: 0, -ENOENT if @glob is not attached, or the error of re-applying
 * the remaining globs.
 */
static int stackmap_detach_function(const char *glob)
{
	struct stackmap_glob *g;
	int ret = -ENOENT;

	mutex_lock(&stackmap_function_lock);
	g = stackmap_find_glob(glob);
	if (g) {
		list_del(&g->list);
		kfree(g);
		ret = stackmap_ops_restart();
	}
	mutex_unlock(&stackmap_function_lock);
	return ret;
}

/** stackmap_detach_all_functions() - detach every glob; no callback runs after. */
void stackmap_detach_all_functions(void)
{
	struct stackmap_glob *g, *tmp;

	mutex_lock(&stackmap_function_lock);
	stackmap_ops_stop();
	list_for_each_entry_safe(g, tmp, &stackmap_globs, list) {
		list_del(&g->list);
		kfree(g);
	}
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

/* stackmap_points.visit: the attached globs. */
static void stackmap_visit_functions(const struct stackmap_visitor *v)
{
	struct stackmap_glob *g;

	mutex_lock(&stackmap_function_lock);
	list_for_each_entry(g, &stackmap_globs, list)
		v->fn(g->glob, v->arg);
	mutex_unlock(&stackmap_function_lock);
}

const struct stackmap_points stackmap_function_points = {
	.attach = stackmap_attach_function,
	.detach = stackmap_detach_function,
	.clear = stackmap_detach_all_functions,
	.visit = stackmap_visit_functions,
};
