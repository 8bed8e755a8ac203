/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's unaligned 32-bit load used by jhash.h. */
#ifndef SHIM_LINUX_UNALIGNED_PACKED_STRUCT_H
#define SHIM_LINUX_UNALIGNED_PACKED_STRUCT_H
#include <stdint.h>
#include <string.h>

static inline uint32_t __get_unaligned_cpu32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}
#endif
