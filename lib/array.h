/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array: the one way stackmap's user space grows a malloc'ed array.
 */
#ifndef LIBSTACKMAP_ARRAY_H
#define LIBSTACKMAP_ARRAY_H

#include <stddef.h>

/**
 * sm_array_reserve() - make a malloc'ed array hold at least @need elements
 * @arr: the address of the array's pointer (the pointer NULL at first)
 * @alloc: its capacity in elements (0 at first), updated
 * @need: how many elements it must hold
 * @size: bytes per element
 * @min: the first capacity (then doubled as often as needed)
 *
 * New elements are not initialised.
 *
 * Return: 0, or -ENOMEM (also when the size overflows), the array then
 * unchanged.
 */
int sm_array_reserve(void *arr, size_t *alloc, size_t need, size_t size,
		     size_t min);

#endif /* LIBSTACKMAP_ARRAY_H */
