// SPDX-License-Identifier: GPL-2.0
/*
 * hashtab: open addressing with linear probing (see hashtab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

sm_u64 sm_hash64(sm_u64 key)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return key;
}

sm_u64 sm_hash_bytes(sm_u64 h, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static sm_u64 *key_at(const struct sm_hashtab *t, size_t i)
{
	return (sm_u64 *)(t->buckets + i * t->elsize);
}

static size_t index_of(const struct sm_hashtab *t, const void *el)
{
	return ((const unsigned char *)el - t->buckets) / t->elsize;
}

int sm_hashtab_init(struct sm_hashtab *t, size_t elsize, size_t min_cap)
{
	t->buckets = calloc(min_cap, elsize);
	if (!t->buckets)
		return -ENOMEM;
	t->elsize = elsize;
	t->cap = min_cap;
	t->used = 0;
	return 0;
}

void sm_hashtab_fini(struct sm_hashtab *t)
{
	free(t->buckets);
	t->buckets = NULL;
	t->cap = 0;
	t->used = 0;
}

/* From the home bucket of @key on, the first that is empty or holds @key. */
static size_t probe(const struct sm_hashtab *t, size_t i, sm_u64 key)
{
	size_t mask = t->cap - 1;

	while (*key_at(t, i) && *key_at(t, i) != key)
		i = (i + 1) & mask;
	return i;
}

static size_t home(const struct sm_hashtab *t, sm_u64 key)
{
	return sm_hash64(key) & (t->cap - 1);
}

/* The first empty bucket from the home bucket of @key on. */
static size_t empty_for(const struct sm_hashtab *t, sm_u64 key)
{
	size_t mask = t->cap - 1, i = home(t, key);

	while (*key_at(t, i))
		i = (i + 1) & mask;
	return i;
}

int sm_hashtab_reserve(struct sm_hashtab *t)
{
	struct sm_hashtab bigger = *t;
	size_t i;

	if (2 * (t->used + 1) <= t->cap)
		return 0;
	bigger.cap = t->cap * 2;
	bigger.buckets = calloc(bigger.cap, t->elsize);
	if (!bigger.buckets)
		return -ENOMEM;
	/* In bucket order: elements of one key keep their order. */
	for (i = 0; i < t->cap; i++) {
		sm_u64 key = *key_at(t, i);

		if (key)
			memcpy(key_at(&bigger, empty_for(&bigger, key)),
			       key_at(t, i), t->elsize);
	}
	free(t->buckets);
	*t = bigger;
	return 0;
}

void *sm_hashtab_find(const struct sm_hashtab *t, sm_u64 key)
{
	size_t i = probe(t, home(t, key), key);

	return *key_at(t, i) ? key_at(t, i) : NULL;
}

void *sm_hashtab_next(const struct sm_hashtab *t, const void *el)
{
	sm_u64 key = *(const sm_u64 *)el;
	size_t i = probe(t, (index_of(t, el) + 1) & (t->cap - 1), key);

	return *key_at(t, i) ? key_at(t, i) : NULL;
}

/* A new element of @key in bucket @i (empty). */
static void *fill(struct sm_hashtab *t, size_t i, sm_u64 key)
{
	sm_u64 *el = key_at(t, i);

	*el = key;
	t->used++;
	return el;
}

void *sm_hashtab_insert(struct sm_hashtab *t, sm_u64 key)
{
	size_t i = probe(t, home(t, key), key);

	return *key_at(t, i) ? key_at(t, i) : fill(t, i, key);
}

void *sm_hashtab_add(struct sm_hashtab *t, sm_u64 key)
{
	return fill(t, empty_for(t, key), key);
}

void *sm_hashtab_at(const struct sm_hashtab *t, size_t i)
{
	return i < t->cap && *key_at(t, i) ? key_at(t, i) : NULL;
}
