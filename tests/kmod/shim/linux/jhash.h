/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own jhash, from the installed kernel headers (the Makefile
 * passes its path as KERNEL_JHASH_H), so user-space tests hash exactly as
 * the module does.
 */
#include <linux/bitops.h>
#include KERNEL_JHASH_H
