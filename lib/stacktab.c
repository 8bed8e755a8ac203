// SPDX-License-Identifier: GPL-2.0
/*
 * stacktab: cookie -> stack table (see stacktab.h).
 *
 * Two hash tables (hashtab.h): one keyed by cookie holding the stacks, one
 * keyed by slot + 1 recording which slots have any definition, for the
 * stale/unknown classification.  Key 0 marks an empty bucket; neither a valid
 * cookie (generation != 0) nor slot + 1 is ever 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "hashtab.h"
#include "stacktab.h"

#define STACKTAB_MIN_CAP	64

/* A defined stack: its frames and the consumer's slots, one block. */
struct stack_block {
	char *text;
	void *memo;
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
	struct sm_hashtab cookies;	/* of struct cookie_entry */
	struct sm_hashtab slots;	/* of struct slot_entry */
};

struct stacktab *stacktab_new(void)
{
	struct stacktab *tab = calloc(1, sizeof(*tab));

	if (!tab)
		return NULL;
	if (sm_hashtab_init(&tab->cookies, sizeof(struct cookie_entry),
			    STACKTAB_MIN_CAP) ||
	    sm_hashtab_init(&tab->slots, sizeof(struct slot_entry),
			    STACKTAB_MIN_CAP)) {
		sm_hashtab_fini(&tab->cookies);
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
		struct cookie_entry *e = sm_hashtab_at(&tab->cookies, i);

		if (e) {
			free(e->stack->text);
			free(e->stack);
		}
	}
	sm_hashtab_fini(&tab->cookies);
	sm_hashtab_fini(&tab->slots);
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
	e = sm_hashtab_find(&tab->cookies, cookie);
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
	copy->memo = NULL;
	if (depth)
		memcpy(copy->frames, frames, depth * sizeof(*frames));
	/* Room in both tables first, so a failure changes nothing. */
	if (sm_hashtab_reserve(&tab->cookies) || sm_hashtab_reserve(&tab->slots)) {
		free(copy);
		return -ENOMEM;
	}
	sm_hashtab_insert(&tab->slots, (sm_u64)stackmap_cookie_slot(cookie) + 1);
	e = sm_hashtab_insert(&tab->cookies, cookie);
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
	out->memo = NULL;
	if (!stackmap_cookie_valid(cookie))
		return STACKTAB_UNKNOWN;
	e = sm_hashtab_find(&tab->cookies, cookie);
	if (e && e->conflict)
		return STACKTAB_CONFLICT;
	if (e) {
		out->depth = e->depth;
		out->owner = e->owner;
		out->flags = e->flags;
		out->frames = e->stack->frames;
		out->text = &e->stack->text;
		out->memo = &e->stack->memo;
		return STACKTAB_FOUND;
	}
	if (sm_hashtab_find(&tab->slots, (sm_u64)stackmap_cookie_slot(cookie) + 1))
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
