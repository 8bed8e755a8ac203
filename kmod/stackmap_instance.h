/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's map instance and its reset (stackmap_instance.c), which the
 * hot path, the debugfs files and the module parameters share.
 */
#ifndef STACKMAP_INSTANCE_H
#define STACKMAP_INSTANCE_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "stackmap_map.h"

extern struct sm_map stackmap_map;
extern struct mutex stackmap_lock;	/* serializes resets and map readers */
extern u32 stackmap_resets;
extern u64 stackmap_map_id;

int stackmap_reset(void);
int stackmap_instance_init(void);
void stackmap_instance_exit(void);

#endif /* STACKMAP_INSTANCE_H */
