// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff (see diff.h).  The stacks are an array indexed by a hash
 * table (hashtab.h) keyed by each string's hash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diff.h"
#include "hashtab.h"

#define DIFF_MIN_CAP	1024

struct diff_stack {
	char *stack;
	sm_u64 w[2];
};

/* A bucket of the index: the hash of s[i].stack, and i. */
struct diff_slot {
	sm_u64 key;
	size_t i;
};

struct fgdiff {
	struct diff_stack *s;	/* [nr] */
	size_t nr, alloc;
	struct sm_hashtab index;	/* of struct diff_slot */
	sm_u64 total[2];
};

struct fgdiff *fgdiff_new(void)
{
	struct fgdiff *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (sm_hashtab_init(&d->index, sizeof(struct diff_slot),
			    DIFF_MIN_CAP)) {
		free(d);
		return NULL;
	}
	return d;
}

void fgdiff_free(struct fgdiff *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr; i++)
		free(d->s[i].stack);
	free(d->s);
	sm_hashtab_fini(&d->index);
	free(d);
}

/* Room for one more stack: in the array and in the index. */
static int grow(struct fgdiff *d)
{
	if (sm_array_reserve(&d->s, &d->alloc, d->nr + 1, sizeof(*d->s), 256))
		return -ENOMEM;
	return sm_hashtab_reserve(&d->index);
}

int fgdiff_add(struct fgdiff *d, int side, const char *stack, sm_u64 weight)
{
	sm_u64 h = sm_hash_key(sm_hash_bytes(SM_HASH_SEED, stack, strlen(stack)));
	struct diff_slot *slot;
	struct diff_stack *s;

	for (slot = sm_hashtab_find(&d->index, h); slot;
	     slot = sm_hashtab_next(&d->index, slot)) {
		s = &d->s[slot->i];
		if (!strcmp(s->stack, stack))
			goto add;
	}
	if (grow(d))
		return -ENOMEM;
	s = &d->s[d->nr];
	s->stack = strdup(stack);
	if (!s->stack)
		return -ENOMEM;
	s->w[0] = s->w[1] = 0;
	slot = sm_hashtab_add(&d->index, h);
	slot->i = d->nr++;
add:
	s->w[side] += weight;
	d->total[side] += weight;
	return 0;
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct fgdiff_row *)a)->stack,
		      ((const struct fgdiff_row *)b)->stack);
}

static int cmp_change(const void *a, const void *b)
{
	const struct fgdiff_row *x = a, *y = b;
	long long ax = llabs(x->change), ay = llabs(y->change);

	if (ax != ay)
		return ax < ay ? 1 : -1;
	return strcmp(x->stack, y->stack);
}

struct fgdiff_row *fgdiff_rows(const struct fgdiff *d, bool normalize,
			       bool by_change)
{
	struct fgdiff_row *rows = calloc(d->nr ? d->nr : 1, sizeof(*rows));
	double scale = 1.0;
	size_t i;

	if (!rows)
		return NULL;
	if (normalize && d->total[DIFF_BASE])
		scale = (double)d->total[DIFF_NEW] / d->total[DIFF_BASE];
	for (i = 0; i < d->nr; i++) {
		rows[i].stack = d->s[i].stack;
		rows[i].base = normalize ?
			(long long)(d->s[i].w[DIFF_BASE] * scale + 0.5) :
			(long long)d->s[i].w[DIFF_BASE];
		rows[i].new = (long long)d->s[i].w[DIFF_NEW];
		rows[i].change = rows[i].new - rows[i].base;
	}
	qsort(rows, d->nr, sizeof(*rows), by_change ? cmp_change : cmp_stack);
	return rows;
}

size_t fgdiff_nr(const struct fgdiff *d)
{
	return d->nr;
}

sm_u64 fgdiff_total(const struct fgdiff *d, int side)
{
	return d->total[side];
}

void fgdiff_counts(const struct fgdiff *d, struct fgdiff_counts *c)
{
	const struct diff_stack *s;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < d->nr; i++) {
		s = &d->s[i];
		if (!s->w[DIFF_NEW])
			c->only_base++;
		else if (!s->w[DIFF_BASE])
			c->only_new++;
		else if (s->w[DIFF_BASE] != s->w[DIFF_NEW])
			c->changed++;
	}
	c->unchanged = d->nr - c->only_base - c->only_new - c->changed;
}

int fgdiff_foreach(const struct fgdiff *d, bool normalize,
		   int (*fn)(void *ctx, const char *stack, long long base,
			     long long new),
		   void *ctx)
{
	struct fgdiff_row *rows = fgdiff_rows(d, normalize, false);
	size_t i;
	int ret = 0;

	if (!rows)
		return -ENOMEM;
	for (i = 0; i < d->nr && !ret; i++)
		ret = fn(ctx, rows[i].stack, rows[i].base, rows[i].new);
	free(rows);
	return ret;
}
