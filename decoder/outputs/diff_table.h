/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode diff's output (the diff itself: analyses/diff.h).
 *
 * Output, after both traces were read:
 *  - the table: the stacks whose weight changed, most change (absolute)
 *    first, equal changes bytewise by stack; at most N with --top N:
 *
 *      fgdecode: diff by bytes_req (bytes): base 102400, new 302400; 1 of 43 stacks changed
 *            BASE         NEW      CHANGE  STACK
 *          102400      302400     +200000  kmalloc;entry_SYSCALL_64_after_hwframe;...;__kmalloc
 *
 *    With --off-cpu (unit "ns") the totals and every cell read as times,
 *    as the off-CPU summary gives them, the exact ns in parentheses (a
 *    change: its sign, then its size):
 *
 *      fgdecode: diff by off-cpu (ns): base 2.75 s (2750000000 ns), new 1.50 s (1500000000 ns); 3 of 3 stacks changed
 *                            BASE                        NEW                     CHANGE  STACK
 *          2.00 s (2000000000 ns)    500.0 ms (500000000 ns)    -1.50 s (1500000000 ns)  [S];...;__schedule
 *
 *  - --folded: every stack as "STACK BASE NEW", sorted bytewise: the
 *    two-column folded format of differential flame graphs
 *    (difffolded.pl output, flamegraph.pl's input for red/blue graphs),
 *    in the weights' own unit (ns with --off-cpu).
 */
#ifndef FGDECODE_DIFF_TABLE_H
#define FGDECODE_DIFF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diff.h"

struct fgdiff_print {
	bool folded;		/* "STACK BASE NEW" lines, every stack */
	bool normalize;		/* scale base to the new total */
	size_t top;		/* table: at most this many; 0: all */
	const char *name;	/* what the weights sum ("events", "bytes_req") */
	const char *unit;	/* their unit; "" unknown */
};

/**
 * fgdiff_print() - print the diff
 * @out: stream
 * @d: the diff, both sides added
 * @p: how
 *
 * Return: 0, or -ENOMEM.
 */
int fgdiff_print(FILE *out, const struct fgdiff *d,
		 const struct fgdiff_print *p);

/**
 * fgdiff_summary() - one line: the totals and how many stacks differ
 * @out: stream (fgdecode uses stderr)
 * @d: the diff
 * @unit: the weights' unit (struct fgdiff_print's): in "ns" the totals
 *	read as times, as in the table
 *
 * "fgdecode: diff: N stacks, A only in base, B only in new, C changed,
 * D unchanged; totals BASE -> NEW" (raw, not normalized).
 */
void fgdiff_summary(FILE *out, const struct fgdiff *d, const char *unit);

#endif /* FGDECODE_DIFF_TABLE_H */
