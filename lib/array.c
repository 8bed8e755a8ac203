// SPDX-License-Identifier: GPL-2.0
/*
 * array: growing a malloc'ed array (see array.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

int sm_array_reserve(void *arr, size_t *alloc, size_t need, size_t size,
		     size_t min)
{
	void **p = arr, *q;
	size_t n = *alloc ? *alloc : (min ? min : 1);

	if (need <= *alloc)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}
