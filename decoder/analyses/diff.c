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
#include "format.h"
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

/* Table columns: wide enough for a time ("250.0 ms (250000000 ns)"). */
#define COLUMN		14
#define COLUMN_NS	26

static void print_table(FILE *out, const struct fgdiff *d, struct row *rows,
			const struct fgdiff_print *p)
{
	bool unit = *p->unit && strcmp(p->unit, p->name);
	const char *bare = format_bare_unit(p->unit);
	int col = *bare ? COLUMN_NS : COLUMN;
	char b[FORMAT_WEIGHT_LEN], n[FORMAT_WEIGHT_LEN], c[FORMAT_WEIGHT_LEN];
	size_t i, changed = 0, shown;

	qsort(rows, d->nr, sizeof(*rows), cmp_change);
	for (i = 0; i < d->nr; i++)
		changed += rows[i].change != 0;
	fprintf(out, "fgdecode: diff by %s%s%s%s: base %s, new %s%s; %zu of",
		p->name, unit ? " (" : "", unit ? p->unit : "", unit ? ")" : "",
		format_weight(b, d->total[DIFF_BASE], bare),
		format_weight(n, d->total[DIFF_NEW], bare),
		p->normalize ? " (base normalized to the new total)" : "",
		changed);
	format_count(out, " ", d->nr, "stacks");
	fputs(" changed\n", out);
	fprintf(out, "%*s %*s %*s  STACK\n", col, "BASE", col, "NEW", col,
		"CHANGE");
	shown = p->top && p->top < changed ? p->top : changed;
	for (i = 0; i < shown; i++)
		fprintf(out, "%*s %*s %*s  %s\n",
			col, format_weight(b, rows[i].base, bare),
			col, format_weight(n, rows[i].new, bare),
			col, format_change(c, rows[i].change, bare),
			rows[i].s->stack);
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

void fgdiff_summary(FILE *out, const struct fgdiff *d, const char *unit)
{
	size_t i, only_base = 0, only_new = 0, changed = 0;
	char b[FORMAT_WEIGHT_LEN], n[FORMAT_WEIGHT_LEN];
	const char *bare = format_bare_unit(unit);
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
	fputs("fgdecode: diff:", out);
	format_count(out, " ", d->nr, "stacks");
	fprintf(out, ", %zu only in base, %zu only in new, %zu changed, %zu unchanged; totals %s -> %s\n",
		only_base, only_new, changed,
		d->nr - only_base - only_new - changed,
		format_weight(b, d->total[DIFF_BASE], bare),
		format_weight(n, d->total[DIFF_NEW], bare));
}
