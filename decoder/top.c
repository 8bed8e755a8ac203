// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode, stage 4: --top N (see top.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "format.h"
#include "top.h"

static const char *const marker_line[SSET_NR_STATUS] = {
	[SSET_STALE] = "<stale cookie>",
	[SSET_UNKNOWN] = "<unknown cookie>",
	[SSET_CONFLICT] = "<conflicting cookie>",
	[SSET_CORRUPT] = "<corrupt stack>",
};

/* Most events first; equal counts in order of first appearance. */
static int cmp_hot(const void *a, const void *b)
{
	const struct sset_entry *x = *(struct sset_entry *const *)a;
	const struct sset_entry *y = *(struct sset_entry *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void print_entry(FILE *out, const struct symbolizer *sz,
			struct sset_entry *e)
{
	struct trace_seq s;

	if (!sset_has_frames(e->status)) {
		fprintf(out, FORMAT_INDENT "=> %s\n", marker_line[e->status]);
		return;
	}
	trace_seq_init(&s);
	format_frames(&s, sz, e->frames, e->depth);
	if (e->status == SSET_TRUNCATED)
		tepstack_print_truncated(&s, FORMAT_INDENT);
	trace_seq_terminate(&s);
	/* Each frame line starts with '\n': drop the first one. */
	if (s.len)
		fprintf(out, "%s\n", s.buffer + 1);
	trace_seq_destroy(&s);
}

int top_print(FILE *out, const struct symbolizer *sz, struct stackset *set,
	      size_t n)
{
	size_t nr = sset_size(set), total = sset_total(set), i, shown = 0;
	struct sset_entry **hot;

	hot = calloc(nr ? nr : 1, sizeof(*hot));
	if (!hot)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (sset_entry_at(set, i)->count)
			hot[shown++] = sset_entry_at(set, i);
	qsort(hot, shown, sizeof(*hot), cmp_hot);
	if (n > shown)
		n = shown;
	fprintf(out, "fgdecode: top %zu of %zu distinct stacks over %zu events with a stack\n",
		n, shown, total);
	for (i = 0; i < n; i++) {
		fprintf(out, "#%zu %zu events %.2f%%\n", i + 1, hot[i]->count,
			100.0 * hot[i]->count / total);
		print_entry(out, sz, hot[i]);
	}
	free(hot);
	return 0;
}
