// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode diff's output: the table, the two-column folded lines and the
 * summary line (see diff_table.h; the diff itself is analyses/diff.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diff_table.h"
#include "units.h"

/* Table columns: wide enough for a time ("250.0 ms (250000000 ns)"). */
#define COLUMN		14
#define COLUMN_NS	26

static void print_table(FILE *out, const struct fgdiff *d,
			const struct fgdiff_row *rows,
			const struct fgdiff_print *p)
{
	bool unit = *p->unit && strcmp(p->unit, p->name);
	const char *bare = format_bare_unit(p->unit);
	int col = *bare ? COLUMN_NS : COLUMN;
	char b[FORMAT_WEIGHT_LEN], n[FORMAT_WEIGHT_LEN], c[FORMAT_WEIGHT_LEN];
	size_t i, nr = fgdiff_nr(d), changed = 0, shown;

	for (i = 0; i < nr; i++)
		changed += rows[i].change != 0;
	fprintf(out, "fgdecode: diff by %s%s%s%s: base %s, new %s%s; %zu of",
		p->name, unit ? " (" : "", unit ? p->unit : "", unit ? ")" : "",
		format_weight(b, fgdiff_total(d, DIFF_BASE), bare),
		format_weight(n, fgdiff_total(d, DIFF_NEW), bare),
		p->normalize ? " (base normalized to the new total)" : "",
		changed);
	format_count(out, " ", nr, "stacks");
	fputs(" changed\n", out);
	fprintf(out, "%*s %*s %*s  STACK\n", col, "BASE", col, "NEW", col,
		"CHANGE");
	shown = p->top && p->top < changed ? p->top : changed;
	for (i = 0; i < shown; i++)
		fprintf(out, "%*s %*s %*s  %s\n",
			col, format_weight(b, rows[i].base, bare),
			col, format_weight(n, rows[i].new, bare),
			col, format_change(c, rows[i].change, bare),
			rows[i].stack);
}

int fgdiff_print(FILE *out, const struct fgdiff *d,
		 const struct fgdiff_print *p)
{
	struct fgdiff_row *rows = fgdiff_rows(d, p->normalize, !p->folded);
	size_t i;

	if (!rows)
		return -ENOMEM;
	if (p->folded) {
		for (i = 0; i < fgdiff_nr(d); i++)
			fprintf(out, "%s %lld %lld\n", rows[i].stack,
				rows[i].base, rows[i].new);
	} else {
		print_table(out, d, rows, p);
	}
	free(rows);
	return 0;
}

void fgdiff_summary(FILE *out, const struct fgdiff *d, const char *unit)
{
	char b[FORMAT_WEIGHT_LEN], n[FORMAT_WEIGHT_LEN];
	const char *bare = format_bare_unit(unit);
	struct fgdiff_counts c;

	fgdiff_counts(d, &c);
	fputs("fgdecode: diff:", out);
	format_count(out, " ", fgdiff_nr(d), "stacks");
	fprintf(out, ", %zu only in base, %zu only in new, %zu changed, %zu unchanged; totals %s -> %s\n",
		c.only_base, c.only_new, c.changed, c.unchanged,
		format_weight(b, fgdiff_total(d, DIFF_BASE), bare),
		format_weight(n, fgdiff_total(d, DIFF_NEW), bare));
}
