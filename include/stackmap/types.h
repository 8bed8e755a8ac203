/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for the stackmap contract headers, so the same headers
 * compile in the kernel module and in user space.
 */
#ifndef STACKMAP_TYPES_H
#define STACKMAP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u32 sm_u32;
typedef u64 sm_u64;
#else
#include <stdint.h>
#include <stdbool.h>
typedef uint32_t sm_u32;
typedef uint64_t sm_u64;
#endif

#endif /* STACKMAP_TYPES_H */
