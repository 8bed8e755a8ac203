/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode diff: what changed between two recordings, stack by stack.
 *
 * Two traces have unrelated cookies and, after a reboot, other (KASLR)
 * addresses, so stacks are matched by their symbolized frames: the folded
 * line of each stack (folded_foreach(): "EVENT;outermost;...;innermost",
 * or without the event with --merge), the same string in both traces being
 * the same stack.  Each side's weights (the event count, the --weight
 * field's sum, or --off-cpu ns) are summed per string.
 *
 * What is printed of it, after both traces were read, is outputs/diff_table.h.
 *
 * With normalize, the base weights are scaled by new total / base total
 * (rounded to the nearest integer) before they are compared, so that a
 * longer recording does not make every stack look hotter.
 */
#ifndef FGDECODE_DIFF_H
#define FGDECODE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stackmap/types.h"

enum { DIFF_BASE = 0, DIFF_NEW = 1 };

struct fgdiff;

/** fgdiff_new() - an empty diff; NULL when out of memory. */
struct fgdiff *fgdiff_new(void);

/** fgdiff_free() - free @d (NULL ok). */
void fgdiff_free(struct fgdiff *d);

/**
 * fgdiff_add() - add @weight to @stack on one side
 * @d: the diff
 * @side: DIFF_BASE or DIFF_NEW
 * @stack: the folded stack (copied)
 * @weight: in the weight's unit
 *
 * Return: 0, or -ENOMEM.
 */
int fgdiff_add(struct fgdiff *d, int side, const char *stack, sm_u64 weight);

/**
 * struct fgdiff_row - one stack of the diff
 * @stack: the folded stack (owned by the diff)
 * @base: its base weight, normalized when asked
 * @new: its new weight
 * @change: @new - @base
 */
struct fgdiff_row {
	const char *stack;
	long long base, new, change;
};

/**
 * fgdiff_rows() - every stack of @d as a row
 * @d: the diff, both sides added
 * @normalize: scale the base weights by new total / base total, rounded to
 *	the nearest integer
 * @by_change: sorted by the size of the change, most first, equal changes
 *	bytewise by stack; else bytewise by stack
 *
 * Return: fgdiff_nr() rows (free() them), or NULL when out of memory.
 */
struct fgdiff_row *fgdiff_rows(const struct fgdiff *d, bool normalize,
			       bool by_change);

/** fgdiff_nr() - how many distinct stacks @d holds, both sides. */
size_t fgdiff_nr(const struct fgdiff *d);

/** fgdiff_total() - the sum of the weights of side @side (raw). */
sm_u64 fgdiff_total(const struct fgdiff *d, int side);

/* How the stacks of a diff compare, raw weights (fgdiff_counts()). */
struct fgdiff_counts {
	size_t only_base, only_new, changed, unchanged;
};

/** fgdiff_counts() - count the stacks of @d by how they compare. */
void fgdiff_counts(const struct fgdiff *d, struct fgdiff_counts *c);

/**
 * fgdiff_foreach() - call @fn on every stack, bytewise by stack
 * @d: the diff, both sides added
 * @normalize: scale the base weights as fgdiff_print() does
 * @fn: gets the folded stack, its base and its new weight; a non-zero
 *	return stops the walk and is returned
 * @ctx: passed to @fn
 *
 * For outputs of their own (fgdecode diff --flamegraph).
 *
 * Return: 0, what @fn returned, or -ENOMEM.
 */
int fgdiff_foreach(const struct fgdiff *d, bool normalize,
		   int (*fn)(void *ctx, const char *stack, long long base,
			     long long new),
		   void *ctx);

#endif /* FGDECODE_DIFF_H */
