// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff (see diff.h).  The stacks are an open-addressing table of
 * strings with linear probing, doubled when half full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#define DIFF_MIN_CAP	1024

struct diff_stack {
	char *stack;
	sm_u64 hash;
	sm_u64 w[2];
};

struct fgdiff {
	struct diff_stack *s;	/* [nr] */
	size_t nr, alloc;
	sm_u32 *slots;		/* [cap]: index + 1, or 0 */
	size_t cap;
	sm_u64 total[2];
};

/* FNV-1a. */
static sm_u64 hash_str(const char *str)
{
	sm_u64 h = 0xcbf29ce484222325ULL;

	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

struct fgdiff *fgdiff_new(void)
{
	struct fgdiff *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->cap = DIFF_MIN_CAP;
	d->slots = calloc(d->cap, sizeof(*d->slots));
	if (!d->slots) {
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
	free(d->slots);
	free(d);
}

static void place(sm_u32 *slots, size_t cap, sm_u64 h, size_t i)
{
	size_t j = h & (cap - 1);

	while (slots[j])
		j = (j + 1) & (cap - 1);
	slots[j] = i + 1;
}

/* Room for one more stack. */
static int grow(struct fgdiff *d)
{
	size_t cap = d->cap * 2, i;
	sm_u32 *slots;
	void *p;

	if (d->nr == d->alloc) {
		p = realloc(d->s, (d->alloc ? d->alloc * 2 : 256) * sizeof(*d->s));
		if (!p)
			return -ENOMEM;
		d->s = p;
		d->alloc = d->alloc ? d->alloc * 2 : 256;
	}
	if ((d->nr + 1) * 2 <= d->cap)
		return 0;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < d->nr; i++)
		place(slots, cap, d->s[i].hash, i);
	free(d->slots);
	d->slots = slots;
	d->cap = cap;
	return 0;
}

int fgdiff_add(struct fgdiff *d, int side, const char *stack, sm_u64 weight)
{
	sm_u64 h = hash_str(stack);
	size_t j = h & (d->cap - 1);
	struct diff_stack *s;

	for (; d->slots[j]; j = (j + 1) & (d->cap - 1)) {
		s = &d->s[d->slots[j] - 1];
		if (s->hash == h && !strcmp(s->stack, stack))
			goto add;
	}
	if (grow(d))
		return -ENOMEM;
	s = &d->s[d->nr];
	s->stack = strdup(stack);
	if (!s->stack)
		return -ENOMEM;
	s->hash = h;
	s->w[0] = s->w[1] = 0;
	place(d->slots, d->cap, h, d->nr++);
add:
	s->w[side] += weight;
	d->total[side] += weight;
	return 0;
}

/* A row of the output: base (normalized or not), new, change. */
struct row {
	const struct diff_stack *s;
	long long base, new, change;
};

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->s->stack,
		      ((const struct row *)b)->s->stack);
}

static int cmp_change(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	long long ax = llabs(x->change), ay = llabs(y->change);

	if (ax != ay)
		return ax < ay ? 1 : -1;
	return strcmp(x->s->stack, y->s->stack);
}

/* Every stack as a row; Return: the rows (free()), or NULL. */
static struct row *make_rows(const struct fgdiff *d, bool normalize)
{
	struct row *rows = calloc(d->nr ? d->nr : 1, sizeof(*rows));
	double scale = 1.0;
	size_t i;

	if (!rows)
		return NULL;
	if (normalize && d->total[DIFF_BASE])
		scale = (double)d->total[DIFF_NEW] / d->total[DIFF_BASE];
	for (i = 0; i < d->nr; i++) {
		rows[i].s = &d->s[i];
		rows[i].base = normalize ?
			(long long)(d->s[i].w[DIFF_BASE] * scale + 0.5) :
			(long long)d->s[i].w[DIFF_BASE];
		rows[i].new = (long long)d->s[i].w[DIFF_NEW];
		rows[i].change = rows[i].new - rows[i].base;
	}
	return rows;
}

static void print_table(FILE *out, const struct fgdiff *d, struct row *rows,
			const struct fgdiff_print *p)
{
	bool unit = *p->unit && strcmp(p->unit, p->name);
	size_t i, changed = 0, shown;

	qsort(rows, d->nr, sizeof(*rows), cmp_change);
	for (i = 0; i < d->nr; i++)
		changed += rows[i].change != 0;
	fprintf(out, "fgdecode: diff by %s%s%s%s: base %llu, new %llu%s; %zu of %zu stacks changed\n",
		p->name, unit ? " (" : "", unit ? p->unit : "", unit ? ")" : "",
		(unsigned long long)d->total[DIFF_BASE],
		(unsigned long long)d->total[DIFF_NEW],
		p->normalize ? " (base normalized to the new total)" : "",
		changed, d->nr);
	fprintf(out, "%14s %14s %14s  STACK\n", "BASE", "NEW", "CHANGE");
	shown = p->top && p->top < changed ? p->top : changed;
	for (i = 0; i < shown; i++)
		fprintf(out, "%14lld %14lld %+14lld  %s\n", rows[i].base,
			rows[i].new, rows[i].change, rows[i].s->stack);
}

int fgdiff_print(FILE *out, struct fgdiff *d, const struct fgdiff_print *p)
{
	struct row *rows = make_rows(d, p->normalize);
	size_t i;

	if (!rows)
		return -ENOMEM;
	if (p->folded) {
		qsort(rows, d->nr, sizeof(*rows), cmp_stack);
		for (i = 0; i < d->nr; i++)
			fprintf(out, "%s %lld %lld\n", rows[i].s->stack,
				rows[i].base, rows[i].new);
	} else {
		print_table(out, d, rows, p);
	}
	free(rows);
	return 0;
}

int fgdiff_foreach(const struct fgdiff *d, bool normalize,
		   int (*fn)(void *ctx, const char *stack, long long base,
			     long long new),
		   void *ctx)
{
	struct row *rows = make_rows(d, normalize);
	size_t i;
	int ret = 0;

	if (!rows)
		return -ENOMEM;
	qsort(rows, d->nr, sizeof(*rows), cmp_stack);
	for (i = 0; i < d->nr && !ret; i++)
		ret = fn(ctx, rows[i].s->stack, rows[i].base, rows[i].new);
	free(rows);
	return ret;
}

void fgdiff_summary(FILE *out, const struct fgdiff *d)
{
	size_t i, only_base = 0, only_new = 0, changed = 0;
	const struct diff_stack *s;

	for (i = 0; i < d->nr; i++) {
		s = &d->s[i];
		if (!s->w[DIFF_NEW])
			only_base++;
		else if (!s->w[DIFF_BASE])
			only_new++;
		else if (s->w[DIFF_BASE] != s->w[DIFF_NEW])
			changed++;
	}
	fprintf(out, "fgdecode: diff: %zu stacks, %zu only in base, %zu only in new, %zu changed, %zu unchanged; totals %llu -> %llu\n",
		d->nr, only_base, only_new, changed,
		d->nr - only_base - only_new - changed,
		(unsigned long long)d->total[DIFF_BASE],
		(unsigned long long)d->total[DIFF_NEW]);
}
