/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module-internal interfaces between the parts of stackmap.ko:
 * stackmap_main.c (map instance, parameters, reset), stackmap_record.c (the
 * hot path: capture, look up, emit), stackmap_attach.c (tracepoints) and
 * stackmap_debugfs.c (files).
 */
#ifndef STACKMAP_MODULE_H
#define STACKMAP_MODULE_H

#include <linux/mutex.h>
#include <linux/percpu.h>

#include "stackmap_map.h"

/* Counters, per CPU; summed when the stats file is read. */
struct stackmap_stats {
	u64 lookups;			/* every hit of an attached point */
	u64 hits;			/* found in the map */
	u64 inserts;			/* stored by this lookup */
	u64 fallback[STACKMAP_FALLBACK_MAX];	/* by enum stackmap_fallback_reason */
	u64 defines;			/* definition events emitted */
	u64 nested;			/* dropped: nesting deeper than 4 */
	u64 empty;			/* dropped: no frame left after trimming */
};

DECLARE_PER_CPU(struct stackmap_stats, stackmap_stats);

extern struct sm_map stackmap_map;
extern struct mutex stackmap_lock;	/* serializes resets and map readers */
extern unsigned int stackmap_max_depth;
extern u32 stackmap_resets;

/**
 * struct stackmap_skip - a code range whose frames are trimmed from stacks
 * @start: first address
 * @size: bytes, 0 for none
 */
struct stackmap_skip {
	unsigned long start;
	unsigned long size;
};

void stackmap_check_contract(void);
void stackmap_record(const struct stackmap_skip *skip);
void stackmap_stats_sum(struct stackmap_stats *sum);
int stackmap_reset(void);

int stackmap_attach_tracepoint(const char *name);
int stackmap_detach_tracepoint(const char *name);
void stackmap_detach_all(void);
void stackmap_show_attached(struct seq_file *m);

int stackmap_debugfs_init(void);
void stackmap_debugfs_exit(void);

#endif /* STACKMAP_MODULE_H */
