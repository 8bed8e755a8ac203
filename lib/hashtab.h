/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hashtab: the one hash table of stackmap's user space (the cookie table,
 * fgdecode's stack sets, its DWARF caches, its off-CPU tasks, its diff).
 *
 * Open addressing with linear probing over fixed-size elements stored in the
 * buckets themselves.  Every element starts with its sm_u64 key; key 0 marks
 * an empty bucket, so a user whose natural key can be 0 stores key + 1.  The
 * capacity is a power of two and doubles before the table would be more than
 * half full; a bucket's position is sm_hash64(key) masked.  Elements move
 * when the table grows: pointers to them are valid until the next
 * sm_hashtab_reserve().  Nothing is ever removed.
 *
 * One key may have several elements (sm_hashtab_add()): a table keyed by a
 * hash of a longer key (a stack, a string) keeps every element whose hash
 * collides and tells them apart with sm_hashtab_next().
 *
 * Errors: only -ENOMEM, from sm_hashtab_init() and sm_hashtab_reserve(),
 * which then leave the table as it was.
 */
#ifndef LIBSTACKMAP_HASHTAB_H
#define LIBSTACKMAP_HASHTAB_H

#include <stddef.h>

#include "stackmap/types.h"

struct sm_hashtab {
	unsigned char *buckets;	/* [cap] elements of @elsize bytes */
	size_t elsize;		/* >= sizeof(sm_u64): the key comes first */
	size_t cap;		/* a power of two */
	size_t used;		/* elements stored */
};

/* FNV-1a's offset basis: the seed of sm_hash_bytes(). */
#define SM_HASH_SEED	0xcbf29ce484222325ULL

/**
 * sm_hash64() - mix a 64-bit key (the splitmix64 finaliser)
 * @key: any value; small counters (cookies, pids) spread well
 *
 * Return: the mixed value, the table's bucket hash.
 */
sm_u64 sm_hash64(sm_u64 key);

/**
 * sm_hash_bytes() - FNV-1a over @len bytes, continuing from @h
 * @h: SM_HASH_SEED, or the result of an earlier call (hash fields in turn)
 * @p: the bytes
 * @len: their count
 *
 * Return: the hash of everything hashed so far (may be 0: store it as a key
 * with sm_hash_key()).
 */
sm_u64 sm_hash_bytes(sm_u64 h, const void *p, size_t len);

/* A content hash as a table key: never 0, the empty bucket's key. */
static inline sm_u64 sm_hash_key(sm_u64 h)
{
	return h ? h : 1;
}

/**
 * sm_hashtab_init() - an empty table
 * @t: filled in
 * @elsize: bytes per element, the sm_u64 key first
 * @min_cap: first capacity, a power of two (at least 2)
 *
 * Return: 0, or -ENOMEM.
 */
int sm_hashtab_init(struct sm_hashtab *t, size_t elsize, size_t min_cap);

/** sm_hashtab_fini() - free the buckets (not what elements point to) */
void sm_hashtab_fini(struct sm_hashtab *t);

/**
 * sm_hashtab_reserve() - make room for one more element
 * @t: the table
 *
 * Return: 0, or -ENOMEM (@t unchanged).  Growing moves every element.
 */
int sm_hashtab_reserve(struct sm_hashtab *t);

/** sm_hashtab_find() - the first element of @key, or NULL */
void *sm_hashtab_find(const struct sm_hashtab *t, sm_u64 key);

/**
 * sm_hashtab_next() - the next element with the key of @el, or NULL
 * @t: the table
 * @el: an element sm_hashtab_find() or sm_hashtab_next() returned
 */
void *sm_hashtab_next(const struct sm_hashtab *t, const void *el);

/**
 * sm_hashtab_insert() - the element of @key, added if absent
 * @t: the table, with room made by sm_hashtab_reserve()
 * @key: not 0
 *
 * Return: the first element of @key; a new one is zeroed but for its key.
 */
void *sm_hashtab_insert(struct sm_hashtab *t, sm_u64 key);

/**
 * sm_hashtab_add() - a new element of @key, even if @key has some
 * @t: the table, with room made by sm_hashtab_reserve()
 * @key: not 0
 *
 * Return: the new element, zeroed but for its key.
 */
void *sm_hashtab_add(struct sm_hashtab *t, sm_u64 key);

/**
 * sm_hashtab_at() - bucket @i, for walking every element
 * @t: the table
 * @i: 0 to @t->cap - 1
 *
 * Return: the element in bucket @i, or NULL when it is empty.
 */
void *sm_hashtab_at(const struct sm_hashtab *t, size_t i);

#endif /* LIBSTACKMAP_HASHTAB_H */
