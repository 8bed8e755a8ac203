// SPDX-License-Identifier: GPL-2.0
/*
 * Control through module parameters, /sys/module/stackmap/parameters/: the
 * operations of the debugfs control files, for kernels where debugfs
 * refuses every file with a write bit (lockdown=integrity, as Debian runs
 * under Secure Boot: debugfs_locked_down()) or is off.
 *
 *   tracepoints  writing "system:event[,...]" attaches, "!system:event"
 *                detaches; reading lists what is attached, comma-separated
 *   functions    the same for ftrace function globs
 *   reset        writing 1 resets the map (as "echo 0 > stack_map")
 *
 * Given at load (insmod stackmap.ko tracepoints=sched:sched_switch), the
 * names are kept and attached once the map exists; a name that cannot be
 * attached then is reported in the kernel log and does not fail the load.
 * Later writes fail with the first attach or detach error.
 *
 * Unload.  sysfs takes no reference on the module for a parameter write
 * (param_attr_store() holds only the module's param_lock), and the files
 * stay until after the module's exit has run: a write racing rmmod would
 * attach a probe that nothing removes, or reset a freed map.  Exit first
 * calls stackmap_params_exit(), which under that lock closes the
 * parameters: later writes fail with -ENODEV, reads list nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "stackmap.h"
#include "stackmap_instance.h"

#define SM_PARAM_MAX	1024

/**
 * struct stackmap_param - one list parameter
 * @points: the kind of attachment point it drives
 * @at_load: what was given at load, applied by stackmap_params_init()
 */
struct stackmap_param {
	const struct stackmap_points *points;
	char *at_load;
};

/* Where stackmap_param_name() appends: a PAGE_SIZE sysfs buffer. */
struct stackmap_names {
	char *buf;
	int len;
};

static void stackmap_param_name(const char *name, void *arg)
{
	struct stackmap_names *n = arg;

	n->len += scnprintf(n->buf + n->len, PAGE_SIZE - n->len, "%s%s",
			    n->len ? "," : "", name);
}

/* Whether writes are kept for init, applied, or refused (module exit). */
enum stackmap_params_state {
	SM_PARAMS_LOADING,
	SM_PARAMS_READY,
	SM_PARAMS_GONE,
};

/* Changes under kernel_param_lock(THIS_MODULE), as every set and get runs. */
static enum stackmap_params_state stackmap_params_state;

/* Apply "name,!name,..." to @p; return the first error. */
static int stackmap_param_apply(const struct stackmap_param *p,
				const char *val, bool log)
{
	char *list, *cur, *name;
	int ret = 0, err;

	list = kstrdup(val, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((name = strsep(&cur, ",")) != NULL) {
		name = strim(name);
		if (!*name)
			continue;
		err = *name == '!' ? p->points->detach(name + 1) :
				     p->points->attach(name);
		if (err && log)
			pr_warn("cannot %s %s: %d\n",
				*name == '!' ? "detach" : "attach", name, err);
		if (err && !ret)
			ret = err;
	}
	kfree(list);
	return ret;
}

static int stackmap_param_set(const char *val, const struct kernel_param *kp)
{
	struct stackmap_param *p = kp->arg;

	if (strlen(val) >= SM_PARAM_MAX)
		return -EINVAL;
	if (stackmap_params_state == SM_PARAMS_GONE)
		return -ENODEV;
	if (stackmap_params_state == SM_PARAMS_READY)
		return stackmap_param_apply(p, val, false);
	/* At load, before the map exists: keep it for stackmap_params_init(). */
	kfree(p->at_load);
	p->at_load = kstrdup(val, GFP_KERNEL);
	return p->at_load ? 0 : -ENOMEM;
}

static int stackmap_param_get(char *buf, const struct kernel_param *kp)
{
	const struct stackmap_param *p = kp->arg;
	struct stackmap_names n = { .buf = buf };
	const struct stackmap_visitor v = { stackmap_param_name, &n };

	/* "a,b\n", just "\n" when none; a list that does not fit is cut. */
	if (stackmap_params_state == SM_PARAMS_READY)
		p->points->visit(&v);
	return n.len + scnprintf(buf + n.len, PAGE_SIZE - n.len, "\n");
}

static const struct kernel_param_ops stackmap_list_ops = {
	.set = stackmap_param_set,
	.get = stackmap_param_get,
};

static struct stackmap_param stackmap_tracepoints_param = {
	.points = &stackmap_tracepoint_points,
};
module_param_cb(tracepoints, &stackmap_list_ops, &stackmap_tracepoints_param,
		0600);
MODULE_PARM_DESC(tracepoints,
		 "Tracepoints to attach, as system:event[,...]; writing !system:event detaches");

static struct stackmap_param stackmap_functions_param = {
	.points = &stackmap_function_points,
};
module_param_cb(functions, &stackmap_list_ops, &stackmap_functions_param,
		0600);
MODULE_PARM_DESC(functions,
		 "Functions (ftrace globs) whose entry records stacks, comma-separated; !glob detaches");

static int stackmap_reset_set(const char *val, const struct kernel_param *kp)
{
	bool reset;

	if (kstrtobool(val, &reset) || !reset)
		return -EINVAL;
	if (stackmap_params_state == SM_PARAMS_GONE)
		return -ENODEV;
	if (stackmap_params_state == SM_PARAMS_LOADING)
		return 0;	/* at load the map is new anyway */
	return stackmap_reset();
}

static const struct kernel_param_ops stackmap_reset_ops = {
	.set = stackmap_reset_set,
};
module_param_cb(reset, &stackmap_reset_ops, NULL, 0200);
MODULE_PARM_DESC(reset, "Writing 1 resets the map (a new generation)");

/**
 * stackmap_params_init() - attach what was given at load; accept writes
 *
 * Context: module init, once the map and the attach code are ready.
 */
void stackmap_params_init(void)
{
	struct stackmap_param *lists[] = {
		&stackmap_tracepoints_param, &stackmap_functions_param,
	};
	unsigned int i;

	/* The parameters' files exist already: keep writers out meanwhile. */
	kernel_param_lock(THIS_MODULE);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		if (lists[i]->at_load)
			stackmap_param_apply(lists[i], lists[i]->at_load, true);
		kfree(lists[i]->at_load);
		lists[i]->at_load = NULL;
	}
	stackmap_params_state = SM_PARAMS_READY;
	kernel_param_unlock(THIS_MODULE);
}

/**
 * stackmap_params_exit() - refuse parameter writes from now on
 *
 * Context: module exit, before anything is detached or freed.  Waits for a
 * write in progress (it holds the same lock); later ones get -ENODEV.
 */
void stackmap_params_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	stackmap_params_state = SM_PARAMS_GONE;
	kernel_param_unlock(THIS_MODULE);
}
