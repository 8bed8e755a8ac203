// SPDX-License-Identifier: GPL-2.0
/*
 * stackmap.ko: deduplicated kernel stack traces for ftrace.
 *
 * Each distinct stack seen at an attached tracepoint is stored once in a
 * preallocated lock-free map (stackmap_map.c) and the ring buffer carries a
 * 64-bit cookie (generation << 32 | slot) instead of the stack.  This file
 * loads and unloads the module: it creates the parts in order and removes
 * them in reverse (the map instance and its reset: stackmap_instance.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "stackmap.h"
#include "stackmap_instance.h"
#include "../include/stackmap/events.h"
#include "../include/stackmap/version.h"

unsigned int stackmap_max_depth = STACKMAP_MAX_DEPTH;
module_param_named(max_depth, stackmap_max_depth, uint, 0444);
MODULE_PARM_DESC(max_depth, "Frames kept per stack, 1..64 (default 64)");

static int __init stackmap_init(void)
{
	int ret;

	stackmap_window_init();
	if (!stackmap_max_depth || stackmap_max_depth > STACKMAP_MAX_DEPTH) {
		pr_err("max_depth must be 1..%d\n", STACKMAP_MAX_DEPTH);
		return -EINVAL;
	}
	ret = stackmap_refresh_init();
	if (ret)
		return ret;
	ret = stackmap_instance_init();
	if (ret) {
		stackmap_refresh_exit();
		return ret;
	}
	/* After the last step that can fail: nothing unregisters it then. */
	stackmap_events_init();
	stackmap_owner_register(stackmap_function_owner(),
				STACKMAP_SYSTEM ":" STACKMAP_EVENT_FUNCTION);
	/* Without debugfs the module parameters still control it. */
	if (stackmap_debugfs_init())
		pr_warn("no debugfs: no stack_map listing; control through /sys/module/stackmap/parameters\n");
	stackmap_params_init();
	pr_info("%u entries, %u frames, %zu bytes, generation %u\n",
		stackmap_map.max_entries, stackmap_map.max_frames,
		sm_map_bytes(&stackmap_map), stackmap_map.generation);
	return 0;
}

static void __exit stackmap_exit(void)
{
	/*
	 * No parameter write can attach or reset any more; debugfs writers
	 * hold a reference on the module (fops.owner), so none is left.  No
	 * probe or ftrace callback runs once the detaches return
	 * (tracepoint_synchronize_unregister(), unregister_ftrace_function()).
	 */
	stackmap_params_exit();
	stackmap_detach_all();
	stackmap_debugfs_exit();
	stackmap_function_exit();
	stackmap_window_exit();
	stackmap_refresh_exit();
	stackmap_events_exit();
	stackmap_instance_exit();
}

module_init(stackmap_init);
module_exit(stackmap_exit);
MODULE_DESCRIPTION("Deduplicated kernel stack traces for ftrace");
MODULE_LICENSE("GPL");
MODULE_VERSION(STACKMAP_VERSION);
