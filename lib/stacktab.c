// SPDX-License-Identifier: GPL-2.0
/*
 * stacktab: cookie -> stack table (see stacktab.h).
 *
 * Two open-addressing hash tables with linear probing share one small
 * implementation (struct oatab): one keyed by cookie holding the stacks, one
 * keyed by slot + 1 recording which slots have any definition, for the
 * stale/unknown classification.  Key 0 marks an empty bucket; neither a valid
 * cookie (generation != 0) nor slot + 1 is ever 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "stacktab.h"

#define OATAB_MIN_CAP	64

/*
 * An open-addressing table of fixed-size elements that start with their
 * sm_u64 key.  @cap is a power of two; the table doubles when it would become
 * more than half full.
 */
struct oatab {
	unsigned char *buckets;
	size_t elsize;
	size_t cap;
	size_t used;
};

/* A defined stack: its frames and the consumer's cached text, one block. */
struct stack_block {
	char *text;
	sm_u64 frames[];
};

struct cookie_entry {
	sm_u64 cookie;		/* key */
	struct stack_block *stack;
	sm_u32 depth;
	sm_u32 owner;
	sm_u32 flags;
	bool conflict;
};

struct slot_entry {
	sm_u64 slot1;		/* key: slot + 1 */
};

struct stacktab {
	struct oatab cookies;	/* of struct cookie_entry */
	struct oatab slots;	/* of struct slot_entry */
};

/* splitmix64 finaliser: spreads cookies whose low bits are small counters. */
static size_t oatab_hash(sm_u64 key)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key;
}

static sm_u64 *oatab_key(const struct oatab *t, size_t i)
{
	return (sm_u64 *)(t->buckets + i * t->elsize);
}

static int oatab_init(struct oatab *t, size_t elsize)
{
	t->buckets = calloc(OATAB_MIN_CAP, elsize);
	if (!t->buckets)
		return -ENOMEM;
	t->elsize = elsize;
	t->cap = OATAB_MIN_CAP;
	t->used = 0;
	return 0;
}

/* Index of the bucket holding @key, or of the empty bucket ending its run. */
static size_t oatab_probe(const struct oatab *t, sm_u64 key)
{
	size_t mask = t->cap - 1;
	size_t i = oatab_hash(key) & mask;

	while (*oatab_key(t, i) && *oatab_key(t, i) != key)
		i = (i + 1) & mask;
	return i;
}

/* The element of @key, or NULL. */
static void *oatab_find(const struct oatab *t, sm_u64 key)
{
	size_t i = oatab_probe(t, key);

	return *oatab_key(t, i) ? oatab_key(t, i) : NULL;
}

static int oatab_grow(struct oatab *t)
{
	struct oatab bigger = *t;
	size_t i;

	bigger.cap = t->cap * 2;
	bigger.buckets = calloc(bigger.cap, t->elsize);
	if (!bigger.buckets)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++) {
		sm_u64 key = *oatab_key(t, i);

		if (key)
			memcpy(oatab_key(&bigger, oatab_probe(&bigger, key)),
			       oatab_key(t, i), t->elsize);
	}
	free(t->buckets);
	*t = bigger;
	return 0;
}

/* Make room for one more key: -ENOMEM leaves @t as it was. */
static int oatab_reserve(struct oatab *t)
{
	if (2 * (t->used + 1) <= t->cap)
		return 0;
	return oatab_grow(t);
}

/*
 * The element of @key, inserted zeroed (but for its key) if absent.  The
 * caller has made room with oatab_reserve().
 */
static void *oatab_insert(struct oatab *t, sm_u64 key)
{
	sm_u64 *slot = oatab_key(t, oatab_probe(t, key));

	if (!*slot) {
		*slot = key;
		t->used++;
	}
	return slot;
}

struct stacktab *stacktab_new(void)
{
	struct stacktab *tab = calloc(1, sizeof(*tab));

	if (!tab)
		return NULL;
	if (oatab_init(&tab->cookies, sizeof(struct cookie_entry)) ||
	    oatab_init(&tab->slots, sizeof(struct slot_entry))) {
		free(tab->cookies.buckets);
		free(tab);
		errno = ENOMEM;
		return NULL;
	}
	return tab;
}

void stacktab_free(struct stacktab *tab)
{
	size_t i;

	if (!tab)
		return;
	for (i = 0; i < tab->cookies.cap; i++) {
		struct cookie_entry *e = (void *)oatab_key(&tab->cookies, i);

		if (e->cookie) {
			free(e->stack->text);
			free(e->stack);
		}
	}
	free(tab->cookies.buckets);
	free(tab->slots.buckets);
	free(tab);
}

static bool same_stack(const struct cookie_entry *e, sm_u32 depth,
		       const sm_u64 *frames, sm_u32 owner, sm_u32 flags)
{
	return e->depth == depth && e->owner == owner && e->flags == flags &&
	       (!depth ||
		!memcmp(e->stack->frames, frames, depth * sizeof(*frames)));
}

int stacktab_define_owned(struct stacktab *tab, sm_u64 cookie, sm_u32 depth,
			  const sm_u64 *frames, sm_u32 owner, sm_u32 flags)
{
	struct cookie_entry *e;
	struct stack_block *copy;

	if (!stackmap_cookie_valid(cookie))
		return -EINVAL;
	e = oatab_find(&tab->cookies, cookie);
	if (e) {
		if (same_stack(e, depth, frames, owner, flags))
			return 1;
		e->conflict = true;
		return -EEXIST;
	}
	copy = malloc(sizeof(*copy) + depth * sizeof(*frames));
	if (!copy)
		return -ENOMEM;
	copy->text = NULL;
	if (depth)
		memcpy(copy->frames, frames, depth * sizeof(*frames));
	/* Room in both tables first, so a failure changes nothing. */
	if (oatab_reserve(&tab->cookies) || oatab_reserve(&tab->slots)) {
		free(copy);
		return -ENOMEM;
	}
	oatab_insert(&tab->slots, (sm_u64)stackmap_cookie_slot(cookie) + 1);
	e = oatab_insert(&tab->cookies, cookie);
	e->stack = copy;
	e->depth = depth;
	e->owner = owner;
	e->flags = flags;
	return 0;
}

int stacktab_define(struct stacktab *tab, sm_u64 cookie, sm_u32 depth,
		    const sm_u64 *frames)
{
	return stacktab_define_owned(tab, cookie, depth, frames,
				     STACKMAP_OWNER_NONE, 0);
}

enum stacktab_result stacktab_lookup(const struct stacktab *tab, sm_u64 cookie,
				     struct stacktab_stack *out)
{
	const struct cookie_entry *e;

	out->depth = 0;
	out->owner = 0;
	out->flags = 0;
	out->frames = NULL;
	out->text = NULL;
	if (!stackmap_cookie_valid(cookie))
		return STACKTAB_UNKNOWN;
	e = oatab_find(&tab->cookies, cookie);
	if (e && e->conflict)
		return STACKTAB_CONFLICT;
	if (e) {
		out->depth = e->depth;
		out->owner = e->owner;
		out->flags = e->flags;
		out->frames = e->stack->frames;
		out->text = &e->stack->text;
		return STACKTAB_FOUND;
	}
	if (oatab_find(&tab->slots, (sm_u64)stackmap_cookie_slot(cookie) + 1))
		return STACKTAB_STALE;
	return STACKTAB_UNKNOWN;
}

size_t stacktab_count(const struct stacktab *tab)
{
	return tab->cookies.used;
}

const char *stacktab_result_name(enum stacktab_result result)
{
	switch (result) {
	case STACKTAB_FOUND:
		return "found";
	case STACKTAB_STALE:
		return "stale";
	case STACKTAB_UNKNOWN:
		return "unknown";
	case STACKTAB_CONFLICT:
		return "conflicting";
	}
	return "invalid";
}
