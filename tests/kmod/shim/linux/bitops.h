/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the two things the kernel's jhash.h takes from here. */
#ifndef SHIM_LINUX_BITOPS_H
#define SHIM_LINUX_BITOPS_H
#include <stdint.h>

static inline uint32_t rol32(uint32_t word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#endif
